"""The words layer's entry point: Words, shared and read-only, loaded once per process."""

from __future__ import annotations

import re
from collections.abc import Sequence
from dataclasses import dataclass
from functools import cached_property, lru_cache

import numpy as np

from voice_host.words.history import Cheapies, Conflict
from voice_host.words.lexicon import LexiconData, LexiconSettings, load_lexicon
from voice_host.words.matcher import Match, Matcher
from voice_host.words.morphology import word_families
from voice_host.words.solver import Solver, Tile

REASONS = ("not_found", "proper_noun", "acronym", "punctuation", "capitalized", "not_letters")
_PUNCTUATION = re.compile(r"[-'\u2019.,;:!?\"/\s]")


@dataclass(frozen=True)
class Verdict:
    """Whether a word is acceptable, and why not."""

    ok: bool
    reason: str | None
    """None when ok, else one of REASONS."""
    detail: str | None
    """A short human explanation when not ok."""


class SortedWords(tuple):
    """Words sorted, lower case and unique, made once: what a recognizer's language walks
    (speech.recognizing.language), taken as it is, and shared by every language over the
    same dictionary (a recognizer caches its walks over one by its identity)."""

    @classmethod
    def of(cls, words) -> "SortedWords":
        """``words`` sorted and cleaned; themselves when they are already."""
        if isinstance(words, cls):
            return words
        return cls(sorted({w.strip().lower() for w in words if w and w.strip()}))


class Words:
    """The dictionary, No Cheapies, the matcher and the solver for one reference."""

    def __init__(self, data: LexiconData) -> None:
        """Wrap compiled lexicon data; use Words.load() to get the shared instance."""
        self.data = data
        self._words = data.words
        nodes = data.families.nodes
        self._index = {w: i for i, w in enumerate(nodes)}
        self._n = len(data.words)
        self._cheapies = Cheapies(data.families, self._n, self._index)
        self._matcher = Matcher(data.words, self._index, data.zipf, data.phonetic)
        self._solver = Solver(data.words, data.letters, data.zipf)

    @staticmethod
    def load(settings: LexiconSettings | None = None) -> Words:
        """The Words for `settings` (None: the default reference), built or read from
        the disk cache on first use and shared within the process afterwards."""
        return _load(settings or LexiconSettings())

    def __len__(self) -> int:
        return self._n

    @cached_property
    def lengths(self) -> np.ndarray:
        """Letters in every dictionary word (``data.words`` order), int32."""
        return np.fromiter(map(len, self.data.words), np.int32, len(self.data.words))

    @cached_property
    def sorted(self) -> SortedWords:
        """The dictionary's words in order, for a recognizer's language (made once)."""
        return SortedWords.of(self.data.words)

    @cached_property
    def longest(self) -> int:
        """Letters in the dictionary's longest word: no word said can be longer."""
        return max(map(len, self._words), default=0)

    def __contains__(self, word: object) -> bool:
        i = self._index.get(word) if isinstance(word, str) else None
        return i is not None and i < self._n

    def check(self, word: str) -> Verdict:
        """Whether `word` may be played: a dictionary word of the letters a-z. Case is
        ignored for dictionary words; otherwise the reason says why it is refused."""
        w = word.strip()
        if not w:
            return Verdict(False, "not_letters", "empty word")
        if _PUNCTUATION.search(w):
            return Verdict(False, "punctuation", f"{w!r} contains punctuation or spaces")
        if not (w.isascii() and w.isalpha()):
            return Verdict(False, "not_letters", f"{w!r} is not made of the letters a-z")
        low = w.lower()
        if low in self:
            return Verdict(True, None, None)
        if low in self.data.acronyms and (w.isupper() or low not in self.data.proper):
            return Verdict(False, "acronym", f"{w!r} is an acronym")
        if low in self.data.proper:
            return Verdict(False, "proper_noun", f"{w!r} is a proper noun")
        if w != low:
            return Verdict(False, "capitalized", f"{w!r} is capitalized and not in the dictionary")
        return Verdict(False, "not_found", f"{w!r} is not in the dictionary")

    def cheapie(self, word: str, used: Sequence[tuple[str, str]]) -> Conflict | None:
        """The earlier word (from `used`, [(word, player)] in play order) that `word`
        is a cheapie of, or None if it is allowed."""
        return self._cheapies.conflict(word, used)

    def match(self, heard: str, n: int = 5, candidates: Sequence[str] | None = None) -> Match:
        """The word the player meant by the transcript `heard`, with alternatives."""
        return self._matcher.match(heard, n, candidates)

    def best(self, tiles: Sequence[Tile], n: int = 5, used: Sequence[tuple[str, str]] = ()) -> list[tuple[str, int]]:
        """The `n` best-scoring dictionary words for a board of (letter, points) tiles,
        best first (ties: more frequent, then alphabetical). Words that would be
        cheapies of `used` are left out, and so are offensive words: the host never
        proposes one (a player may still play it)."""
        exclude = self._offensive_ids
        if used:
            exclude = np.union1d(exclude, self._cheapie_ids(used))
        return self._solver.best(tiles, n, exclude)

    def offensive(self, word: str) -> bool:
        """Whether `word` is offensive or vulgar, so that the host never proposes or
        suggests it (best words, hints, the readings it asks about): see ``_offensive_ids``."""
        i = self._index.get(word.strip().lower())
        if i is not None and i < self._n:
            return bool(self._offensive_mask[i])
        return word.strip().lower() in _offensive_list()

    @cached_property
    def _offensive_mask(self) -> np.ndarray:
        mask = np.zeros(self._n, dtype=bool)
        mask[self._offensive_ids] = True
        return mask

    @cached_property
    def _offensive_ids(self) -> np.ndarray:
        """Ids of the dictionary words that are offensive: a word of glin-profanity's
        maintained English list; an inflection of one (lemminflect: blowjobs, bitching;
        not the other way round, so "finger" stays clean beside a listed "fingering");
        or a compound of a word of four letters or more and a listed word of six or more
        (motherfucking). Shorter parts are not enough: peacock, cocktail and therapist
        stay clean."""
        from voice_host.words.morphology import lemminflect

        lem = lemminflect()
        listed = _offensive_list()
        forms = set(listed)
        for w in listed:
            found = lem.getAllInflections(w) or {**lem.getAllInflectionsOOV(w, "NOUN"),
                                                 **lem.getAllInflectionsOOV(w, "VERB")}
            forms.update(f for fs in found.values() for f in fs)
        ids = {self._index[w] for w in forms if w in self}
        tails = {w for w in listed if len(w) >= 6}
        for i, w in enumerate(self._words):
            if len(w) >= 10 and any(w[k:] in tails and w[:k] in self for k in range(4, len(w) - 5)):
                ids.add(i)
        return np.array(sorted(ids), dtype=np.int64)

    def values(self, tiles: Sequence[Tile], used: Sequence[tuple[str, str]] = ()) -> np.ndarray:
        """What every dictionary word (``data.words`` order) scores on a board of
        (letter, points) tiles, int32; a word of `used`, or a cheapie of one, scores 0."""
        scores = self._solver.scores(tiles)
        if used:
            scores[self._cheapie_ids(used)] = 0
        return scores

    def _cheapie_ids(self, used: Sequence[tuple[str, str]]) -> np.ndarray:
        """Ids of the dictionary words that are cheapies of a word in `used`."""
        fams = set().union(*(self._cheapies.family_ids(w.strip().lower()) for w, _ in used))
        owners, fam_ids = self._family_table
        ids = owners[np.isin(fam_ids, list(fams))]
        same = [self._index[w] for w in (u.strip().lower() for u, _ in used) if w in self]
        return np.unique(np.concatenate([ids, np.array(same, dtype=np.int64)]))

    @cached_property
    def _family_table(self) -> tuple[np.ndarray, np.ndarray]:
        """(word id, family id) pairs for every family of every dictionary word."""
        return word_families(self.data.families, self._n)

    def homophones(self, word: str) -> list[str]:
        """Other dictionary words pronounced like `word` (CMUdict): night for knight."""
        i = self._index.get(word.strip().lower())
        if i is None or i >= self._n:
            return []
        d = self.data.phonetic
        return [self._words[j] for j in d.homo_ids[d.homo_ptr[i] : d.homo_ptr[i + 1]] if j != i]

    def frequency(self, word: str) -> float:
        """wordfreq's Zipf frequency of a dictionary word (about 1-7), 0 if unknown."""
        i = self._index.get(word.strip().lower())
        return float(self.data.zipf[i]) if i is not None and i < self._n else 0.0


@lru_cache(maxsize=1)
def _offensive_list() -> frozenset[str]:
    """glin-profanity's English list: its single words, lower case (phrases and spellings
    with symbols or digits are no dictionary words)."""
    from glin_profanity.data.dictionary import dictionary

    return frozenset(w.lower() for w in dictionary.get_words("english") if w.isalpha() and w.isascii())


@lru_cache(maxsize=8)
def _load(settings: LexiconSettings) -> Words:
    return Words(load_lexicon(settings))
