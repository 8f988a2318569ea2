"""What may be said next, as a language a recognizer can be constrained to.

A :class:`Sayable` is the set of sentences the host accepts at one moment:

    [name [","]] (word [[","] tail] | phrase | spelling [tail])   or   phrase

and, where plays repeat (``repeat``: the road game's "fire for 7, fir for 6"), a word
with its tail may be followed by another, after a comma or "and".

A spelling is two or more letters or spelling-alphabet words ("t o u r s", "tango
oscar uniform romeo sierra"), allowed when ``spelling`` is set: a player who is
misheard can always spell the word out, and the search keeps it letters. With a
dictionary (``words``) a spelling must spell one of its words, letter by letter: a
letter lost in noise cannot make a word that does not exist ("l a n t e r n s"
cannot lose its "l"); without one, any letters.

``names`` are player names that may come first ("Ann, jewelers"), ``words`` the whole
dictionary (given once: its compiled form is cached per object), ``phrases`` the
commands, questions and answers (multi-word allowed: "how much time", "challenge
ben", "yes", "b", "bravo", "ann"), ``tails`` what may follow a word in the games whose
plays are sentences ("for 5", "for five points", "unused 3": "bank catch for 5",
"ruin, unused 3"; ``names`` then holds the lead-ins "bank", "play"). Everything is
lower case; a sentence's words are separated by single spaces.

A Sayable compiles to a :class:`~.language.Language` (language.py), the form a decoder
walks character by character; :func:`normalize_sentence` is a recognized sentence as that
language reads it (lower case, without the marks the recognizer may write).
"""

from __future__ import annotations

import threading
from collections.abc import Iterable
from dataclasses import dataclass, field, fields, replace

from .language import Language
from .recognizer import normalize_text

__all__ = ["Language", "Sayable", "normalize_sentence"]

def _clean(items: Iterable[str] | None) -> tuple[str, ...]:
    out = []
    for s in items or ():
        s = " ".join(str(s).lower().replace(",", " ").split())
        if s:
            out.append(s)
    return tuple(dict.fromkeys(out))


@dataclass(frozen=True, eq=False)
class Sayable:
    """The sentences that may be said next (see the module doc)."""

    phrases: tuple[str, ...] = ()
    """Commands, questions, answers: whole sentences, lower case, multi-word allowed."""
    words: Iterable[str] | None = None
    """The dictionary (each a lower-case word), or None. Give the same object each
    time (e.g. :meth:`dictionary`): its compiled form is cached by identity."""
    names: tuple[str, ...] = ()
    """Player names that may come before a word or a phrase."""
    spelling: bool = False
    """Whether a word may be spelled out (letters or the spelling alphabet)."""
    whole_words: bool = True
    """Whether a word of `words` may be said whole (False: only spelled out)."""
    prior: object = None
    """The game's prior over `words` (words.prior.SearchPrior, in the language's word
    order), or None: see :meth:`with_prior`."""
    tails: tuple[str, ...] = ()
    """What may follow a word, after a space or a comma ("for 5", "unused 3")."""
    repeat: bool = False
    """Whether a word and its tail may be followed by another (after a comma or "and")."""
    bare: bool = True
    """Whether a word may be said without one of `names` before it (False: only after
    one, the games whose plays begin with a verb: "bank catch", "play fire")."""
    _compiled: list = field(default_factory=list, repr=False, compare=False)

    def __post_init__(self) -> None:
        object.__setattr__(self, "phrases", _clean(self.phrases))
        object.__setattr__(self, "names", _clean(self.names))
        object.__setattr__(self, "tails", _clean(self.tails))

    @staticmethod
    def dictionary() -> tuple[str, ...]:
        """The default dictionary's words (shared; pass as `words`)."""
        return _dictionary_words()

    @classmethod
    def game(cls, phrases: Iterable[str] = (), names: Iterable[str] = (), words: bool = True,
             spelling: bool = False, tails: Iterable[str] = (), repeat: bool = False,
             bare: bool = True) -> "Sayable":
        """Names first optionally (with `bare` False, a word only after one), then a
        dictionary word (and one of `tails`), one of `phrases` or (with `spelling`) a
        word spelled out."""
        return cls(tuple(phrases), cls.dictionary() if words else None, tuple(names), spelling,
                   tails=tuple(tails), repeat=repeat, bare=bare)

    def spelled(self) -> "Sayable":
        """Its words spelled out, and nothing else (language.Language.spellings)."""
        return Sayable(words=self.words, spelling=True, whole_words=False)

    @classmethod
    def closed(cls, phrases: Iterable[str]) -> "Sayable":
        """Exactly one of `phrases` (what `Recognizer.expect` means)."""
        return cls(tuple(phrases))

    def with_prior(self, prior) -> "Sayable":
        """The same sentences (sharing the compiled language) with the game's prior now."""
        if prior is self.prior:
            return self
        return replace(self, prior=prior, _compiled=self._compiled)

    def language(self) -> Language:
        """The compiled language: built once per Sayable, and shared with every Sayable
        of the same sentences (a recognizer's walks are memoized on it, so a game that
        goes back to what it accepted a moment ago finds them done)."""
        if not self._compiled:
            with _compile_lock:
                if not self._compiled:
                    key = self._sentences()
                    hit = _languages.get(key)
                    if hit is None or hit._sayable.words is not self.words:
                        hit = Language(self)
                        if len(_languages) >= LANGUAGES_KEPT:
                            _languages.pop(next(iter(_languages)))
                    else:
                        _languages.pop(key)  # the most recently used last
                    _languages[key] = hit
                    self._compiled.append(hit)
        return self._compiled[0]

    def _sentences(self) -> tuple:
        """What the compiled language depends on: every field but the prior (the
        dictionary by identity), so a field added later is never left out of it."""
        key = []
        for f in fields(self):
            if f.name not in ("prior", "_compiled"):
                value = getattr(self, f.name)
                key.append(id(value) if f.name == "words" and value is not None else value)
        return tuple(key)

    def __contains__(self, sentence: object) -> bool:
        return isinstance(sentence, str) and self.language().accepts(normalize_sentence(sentence))


_compile_lock = threading.Lock()
_languages: dict[tuple, Language] = {}
LANGUAGES_KEPT = 8
"""How many compiled languages are kept for Sayables of the same sentences: a game
moves between a few (a word may be put right or not; a question open or not)."""
_dict_lock = threading.Lock()
_dict_words: list[tuple[str, ...]] = []


def _dictionary_words() -> tuple[str, ...]:
    with _dict_lock:
        if not _dict_words:
            from voice_host.words import Words

            _dict_words.append(tuple(Words.load().data.words))
        return _dict_words[0]


def normalize_sentence(text: str) -> str:
    """A recognized sentence as the language's form: lower case, the marks dropped."""
    return normalize_text(text)

