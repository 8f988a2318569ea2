"""A prior over a sorted word list, for a search that walks the words as a trie.

Every node of a trie of sorted words is a range ``words[lo:hi]`` (the words sharing a
prefix). A search that adds each word's prior to its score only once the word is
complete lets promising prefixes fall out of its beam; adding instead the best prior
*below* each node, and swapping it for the word's own at the end (the look-ahead of
speech decoders), keeps them. :class:`RangeMax` answers "the best prior in
``words[lo:hi]``" in constant time.
"""

from __future__ import annotations

import numpy as np


class RangeMax:
    """The maximum of ``values[lo:hi]`` for any range, in O(1) after an O(n log n)
    build (a sparse table: level k holds the maxima of the ranges of length 2**k)."""

    def __init__(self, values: np.ndarray) -> None:
        level = np.asarray(values, np.float32)
        self.levels = [level]
        span, n = 1, len(level)
        while 2 * span <= n:
            level = np.maximum(level[:-span], level[span:])
            self.levels.append(level)
            span *= 2

    def __call__(self, lo: int, hi: int) -> float:
        """max(values[lo:hi]); ``hi > lo``."""
        k = (hi - lo).bit_length() - 1
        row = self.levels[k]
        return float(max(row[lo], row[hi - (1 << k)]))


class SearchPrior:
    """A score bonus (in nats) per word of a sorted list, one for the language's phrases
    (a command, a question, an answer), and one for anything else (a name alone, a
    spelling): what a search adds to its hypotheses."""

    def __init__(self, bonus: np.ndarray, other: float = 0.0, phrase: float | None = None) -> None:
        self.bonus = np.asarray(bonus, np.float32)
        self.other = float(other)
        self.phrase = self.other if phrase is None else float(phrase)
        """A whole phrase's bonus (default: ``other``). A search's look-ahead gives a phrase
        still being said ``other``: with more, the first tokens of phrases crowd words out
        of the beam (benchmarks/board_words.py); the recognizer scores the phrases the
        search lost in a pass of their own."""
        self.best = RangeMax(self.bonus)
        self.top = max(float(self.bonus.max(initial=other)), self.other)
        """The best bonus of all: what a sentence can still reach before its word begins."""

    def word(self, index: int) -> float:
        return float(self.bonus[index])

    def below(self, lo: int, hi: int) -> float:
        """The best bonus among ``words[lo:hi]``."""
        return self.best(lo, hi)
