"""The compiled form of a :class:`~.sayable.Sayable`, walked by a decoder character by
character, and the game's prior as a search over it sees it. It compiles what
:class:`Sentences` describes (a Sayable is one) and never imports sayable, which imports it.

A :class:`Language` state is a small frozenset of positions in sorted string lists (the
words, the phrases, the names, the spelled letters, the tails), a trie node being the
range of strings sharing the prefix read so far. The recognizer may also write the
sentence with capitals, a comma (or . : ! ?) after the name and up to two trailing
punctuation marks (". , ? !") before the end; ``sayable.normalize_sentence`` removes them.
"""

from __future__ import annotations

from bisect import bisect_left
from collections.abc import Iterable, Sequence
from functools import cached_property
from typing import Protocol

import numpy as np

from voice_host.words.api import SortedWords

NAME_PUNCT = ",.:;!?"
"""Marks the recognizer may write right after a name (then a space)."""
END_PUNCT = ".,?!"
"""Marks the recognizer may write after the sentence (at most two)."""
MAX_END_PUNCT = 2
JOINS = ("and",)
"""What may join a play to the next where plays repeat (besides a comma)."""
SPELL_MARKS = ",.-"
"""Marks the recognizer may write between spelled letters ("T, O", "T-O")."""


class Sentences(Protocol):
    """What a :class:`Language` compiles: the fields of a :class:`~.sayable.Sayable`
    (see them there), and the same sentences' words spelled out."""

    phrases: tuple[str, ...]
    words: Iterable[str] | None
    names: tuple[str, ...]
    spelling: bool
    whole_words: bool
    tails: tuple[str, ...]
    repeat: bool
    bare: bool

    def spelled(self) -> "Sentences":
        """Its words spelled out, and nothing else."""


def _spell_tokens() -> list[str]:
    """The letters and the spelling alphabet's words (the words matcher's table), sorted."""
    from voice_host.words.matcher import spelling_alphabet

    # "X-ray" as the recognizer writes it (the form heard, normalized, is "x ray")
    return sorted({*"abcdefghijklmnopqrstuvwxyz", *spelling_alphabet(), "x-ray"})


class Language:
    """The compiled :class:`~.sayable.Sayable` (:class:`Sentences`): a character automaton (see the module doc).

    States (hashable tuples) inside a frozenset:
      ("W", lo, hi, d)  in a dictionary word after d characters (words[lo:hi] share them)
      ("Q", lo, hi, d)  in a phrase, likewise
      ("N", lo, hi, d)  in a name
      ("L", lo, hi, d, wlo, whi, n)  in a spelled letter (or spelling-alphabet word)
                        after d characters; n letters spelled, this one's included
                        once d > 0 (its first character is its letter), which begin
                        the words[wlo:whi] (without a dictionary: wlo = whi = 0 and n
                        capped at 2, as a spelling needs two)
      ("LM", wlo, whi, n)  after a spelled letter and its mark ("T," "T-")
      ("NP",)           after a name and its mark: a space must follow
      ("T", lo, hi, d)  in a tail after a word ("for 5")
      ("WM",)           after a word and its comma: a space, then its tail
      ("J", lo, hi, d)  in a joiner ("and") before the next word (``repeat``)
      ("RM",)           after a tail and its comma: a space, then the next word
      ("P", k)          after a complete body sentence and k end marks
      ("S",)            the start, before an optional leading space
    """

    def __init__(self, sayable: Sentences):
        self.words: Sequence[str] = SortedWords.of(sayable.words) if sayable.words is not None else ()
        self.phrases: list[str] = sorted(set(sayable.phrases))
        self.names: list[str] = sorted(set(sayable.names))
        self.spell: list[str] = _spell_tokens() if sayable.spelling else []
        self.tails: list[str] = sorted(set(sayable.tails))
        self.joins: list[str] = list(JOINS) if sayable.repeat and self.tails else []
        self._lists = {"W": self.words, "Q": self.phrases, "N": self.names, "L": self.spell,
                       "T": self.tails, "J": self.joins}
        self.word_context = (len(self.tails), hash(tuple(self.tails)), bool(self.joins))
        """What follows a word here: a walk from a word's state is the same in every
        language over one dictionary with the same context (a recognizer caches it)."""
        self._step: dict[tuple, frozenset] = {}
        self._sayable = sayable
        self._spellings: Language | None = None
        self._ahead: Ahead | None = None
        body = set()
        if self.words and sayable.whole_words:
            body.add(("W", 0, len(self.words), 0))
        if self.phrases:
            body.add(("Q", 0, len(self.phrases), 0))
        if self.spell:
            body.add(self._spell_root(0, len(self.words), 0))
        self.body_roots = frozenset(body)
        roots = set(body) if sayable.bare else {r for r in body if r[0] == "Q"}
        if self.names:
            roots.add(("N", 0, len(self.names), 0))
        self.roots = frozenset(roots)
        self.start = frozenset(roots | {("S",)}) if roots else frozenset()

    def __len__(self) -> int:
        return len(self.words) + len(self.phrases)

    @cached_property
    def phrase_sounds(self) -> list[str]:
        """The Metaphone key of each of :attr:`phrases` (how a phrase heard is found by its sound)."""
        import jellyfish

        return [jellyfish.metaphone(p) for p in self.phrases]

    def spellings(self) -> "Language":
        """This language's words spelled out, and nothing else (built once)."""
        if self._spellings is None:
            self._spellings = Language(self._sayable.spelled())
        return self._spellings

    def _spell_root(self, wlo: int, whi: int, n: int) -> tuple:
        return ("L", 0, len(self.spell), 0, wlo, whi, n)

    def _spell_letter(self, w: tuple[int, int, int], c: str) -> tuple[int, int, int] | None:
        """(wlo, whi, n) after one more spelled letter `c`: the dictionary's words that
        still fit (None when none does). Without a dictionary any letter fits."""
        wlo, whi, n = w
        if not self.words:
            return 0, 0, min(n + 1, 2)
        r = self._descend(self.words, wlo, whi, n, c)
        return None if r is None else (*r, n + 1)

    def _spelled_word(self, w: tuple[int, int, int]) -> bool:
        """Whether the letters spelled so far (`w`) are a whole spelling."""
        wlo, _, n = w
        return n >= 2 and (not self.words or len(self.words[wlo]) == n)

    @staticmethod
    def _descend(strings: list[str], lo: int, hi: int, d: int, c: str) -> tuple[int, int] | None:
        """The range of strings[lo:hi] (sharing d characters) whose next character is c."""
        prefix = strings[lo][:d]
        a = bisect_left(strings, prefix + c, lo, hi)
        if a < hi and len(strings[a]) > d and strings[a][d] == c:
            return a, bisect_left(strings, prefix + chr(ord(c) + 1), a, hi)
        return None

    def _root(self, kind: str) -> tuple:
        return (kind, 0, len(self._lists[kind]), 0)

    def _after_word(self, c: str) -> list[tuple]:
        """After a whole word (or spelling), where tails may follow: a space and the tail, or
        its comma."""
        if not self.tails:
            return []
        return [self._root("T")] if c == " " else [("WM",)] if c == "," else []

    def _advance(self, s: tuple, c: str) -> list[tuple]:
        kind = s[0]
        if kind == "S":
            return list(self.roots) if c == " " else []
        if kind == "L" and s[3] == 0:  # a spelled token's first character is its letter
            w = self._spell_letter(s[4:], c)
            r = self._descend(self.spell, s[1], s[2], 0, c) if w is not None else None
            return [("L", *r, 1, *w)] if r is not None else []
        if kind in ("W", "Q", "N", "L", "T", "J"):
            lo, hi, d = s[1:4]
            strings = self._lists[kind]
            complete = len(strings[lo]) == d
            out = []
            if complete:
                if kind == "N":
                    if c == " ":
                        out.extend(self.body_roots)
                    elif c in NAME_PUNCT:
                        out.append(("NP",))
                elif kind == "L":
                    if c == " ":
                        out.append(self._spell_root(*s[4:]))
                    elif c in SPELL_MARKS:
                        out.append(("LM", *s[4:]))
                    if self._spelled_word(s[4:]):
                        out.extend(self._after_word(c))
                        if c in END_PUNCT:
                            out.append(("P", 1))
                elif kind == "J":
                    if c == " " and self.words:
                        out.append(self._root("W"))
                else:
                    if c in END_PUNCT:
                        out.append(("P", 1))
                    if kind == "W":
                        out.extend(self._after_word(c))
                    elif kind == "T" and self.joins:
                        if c == " ":
                            out += [self._root("W"), self._root("J")]
                        elif c == ",":
                            out.append(("RM",))
            r = self._descend(strings, lo, hi, d, c)
            if r is not None:
                out.append((kind, *r, d + 1, *s[4:]))
            return out
        if kind == "LM":
            root = self._spell_root(*s[1:])
            return [root] if c == " " else self._advance(root, c)
        if kind == "NP":
            return list(self.body_roots) if c == " " else []
        if kind in ("WM", "RM"):
            return [self._root("T" if kind == "WM" else "W")] if c == " " else []
        if kind == "P":
            return [("P", s[1] + 1)] if c in END_PUNCT and s[1] < MAX_END_PUNCT else []
        return []

    def step(self, states: frozenset, c: str) -> frozenset:
        """The states after reading character `c` (empty: not a prefix any more)."""
        key = (states, c)
        hit = self._step.get(key)
        if hit is None:
            out = set()
            for s in states:
                out.update(self._advance(s, c))
            hit = frozenset(out)
            if len(self._step) > 200_000:
                self._step.clear()
            self._step[key] = hit
        return hit

    def feed(self, states: frozenset, text: str) -> frozenset:
        for c in text:
            if not states:
                break
            states = self.step(states, c)
        return states

    def final(self, states: frozenset) -> bool:
        """Whether the text read so far is a whole sentence (the end may come)."""
        for s in states:
            if s[0] == "P":
                return True
            if s[0] in ("W", "Q", "T") and len(self._lists[s[0]][s[1]]) == s[3]:
                return True
            if s[0] == "L" and len(self.spell[s[1]]) == s[3] and self._spelled_word(s[4:]):
                return True
        return False

    def accepts(self, sentence: str) -> bool:
        return self.final(self.feed(self.start, sentence))

    def goes_on(self, sentence: str) -> bool:
        """Whether a longer sentence begins with `sentence` and a space: a name before
        its word, "i am ann" before "and i am ready to play", a letter of a spelling."""
        return bool(self.step(self.feed(self.start, sentence), " "))

    def ahead(self, prior) -> "Ahead":
        """The game's prior (words.prior.SearchPrior over this language's words) as a
        search over this language sees it (the same one, with what it has worked out,
        while the prior stays the same: every utterance on one board)."""
        if self._ahead is None or self._ahead.prior is not prior:
            self._ahead = Ahead(self, prior)
        return self._ahead


class Ahead:
    """A search prior over a :class:`Language`: the best bonus a partial sentence can
    still reach (the look-ahead that keeps promising prefixes in the beam) and the
    bonus of a whole sentence (its word's; a phrase's, a command or a question, the
    prior's ``phrase``, or its word's when that is more: "scores", "help"; a name's or
    a spelling's the prior's ``other``)."""

    def __init__(self, lang: Language, prior) -> None:
        self.lang, self.prior = lang, prior
        self._memo: dict[frozenset, float | None] = {}
        self._many: tuple[list, np.ndarray] | None = None

    def states(self, states: frozenset) -> float | None:
        """The best bonus below ``states``; None after the word or the sentence's end
        (a tail, the end marks: keep the bonus the sentence had)."""
        hit = self._memo.get(states, self)
        if hit is not self:
            return hit
        best = None
        for s in states:
            kind = s[0]
            if kind in ("P", "T", "WM", "J", "RM"):  # after the word (or the sentence)
                continue
            if kind == "W":
                v = self.prior.below(s[1], s[2])
            elif kind in ("S", "N", "NP"):  # the word is still to come
                v = self.prior.top
            else:  # a phrase or a spelling: a phrase gets its own bonus only once whole
                v = self.prior.other
            best = v if best is None or v > best else best
        if len(self._memo) > 100_000:
            self._memo.clear()
        self._memo[states] = best
        return best

    def many(self, states: list[frozenset]) -> np.ndarray:
        """:meth:`states` of each (0 after a sentence's end), as an array: the first step
        of every search ranks all the tokens a sentence may start with, and with the
        same list each time, this is worked out once."""
        memo = self._many
        if memo is None or memo[0] is not states:
            values = np.fromiter((self.states(s) or 0.0 for s in states), np.float32, len(states))
            memo = self._many = (states, values)
        return memo[1]

    def sentence(self, text: str, searching: bool = False) -> float:
        """The bonus of a whole sentence (normalized: lower case, no marks): its word's
        (the first after the lead-in, before a tail), a phrase's (or its word's when
        more), else ``other``. ``searching``: as the beam ranks a sentence that ends,
        where a phrase gets ``other``: a short phrase that ends early with more would
        prune the words still being said ("i'm ben" for "compulsory" at 20 dB)."""
        words = text.split()
        for name in sorted(self.lang.names, key=len, reverse=True):  # "ann, jewelers": the word after the name
            if words[:len(name.split())] == name.split() and len(words) > len(name.split()):
                words = words[len(name.split()):]
                break
        if not words:
            return self.prior.other
        phrase = (self.prior.other if searching else self.prior.phrase) \
            if _has(self.lang.phrases, " ".join(words)) else None
        if len(words) > 1 and not self.lang.tails:
            return self.prior.other if phrase is None else phrase
        i = bisect_left(self.lang.words, words[0])
        if i < len(self.lang.words) and self.lang.words[i] == words[0] and (len(words) == 1 or phrase is None):
            word = self.prior.word(i)  # "scores", "help": a phrase and a word, the likelier of the two
            return word if phrase is None else max(word, phrase)
        return self.prior.other if phrase is None else phrase


def _has(strings: list[str], s: str) -> bool:
    i = bisect_left(strings, s)
    return i < len(strings) and strings[i] == s
