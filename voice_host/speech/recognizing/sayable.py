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
dictionary (:meth:`Sayable.dictionary`: sorted once and shared), ``phrases`` the
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
from dataclasses import dataclass, field, replace

from voice_host.words.api import SortedWords, Words

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
    """The dictionary (each a lower-case word), or None. Give :meth:`dictionary` (words
    sorted once, words.api.SortedWords): other words are sorted for each language, and
    a recognizer walks them anew."""
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
    def dictionary() -> SortedWords:
        """The default dictionary's words, sorted once (pass as `words`)."""
        return Words.load().sorted

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
        """The compiled language, built once per Sayable and shared by :meth:`with_prior`'s
        (a recognizer's walks of it are memoized on it: keep the Sayable to keep them; the
        walks over the dictionary itself are the recognizer's, shared by every language
        over :meth:`dictionary`)."""
        if not self._compiled:
            with _compile_lock:
                if not self._compiled:
                    self._compiled.append(Language(self))
        return self._compiled[0]

    def __contains__(self, sentence: object) -> bool:
        return isinstance(sentence, str) and self.language().accepts(normalize_sentence(sentence))


_compile_lock = threading.Lock()


def normalize_sentence(text: str) -> str:
    """A recognized sentence as the language's form: lower case, the marks dropped."""
    return normalize_text(text)

