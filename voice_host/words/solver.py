"""Prolix scoring and the best-word solver.

A word scores by flipping board tiles: each letter occurrence in the word flips at most
one tile with that letter (repeated letters flip separate tiles), the highest-point
tiles are chosen, and letters with no tile score 0.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Sequence

import numpy as np

ALPHABET = "abcdefghijklmnopqrstuvwxyz"

Tile = tuple[str, int]


def score_word(word: str, tiles: Sequence[Tile]) -> int:
    """Points `word` scores on a board of (letter, points) tiles."""
    points: dict[str, list[int]] = {}
    for letter, value in tiles:
        points.setdefault(letter.lower(), []).append(value)
    return sum(
        sum(sorted(points[letter], reverse=True)[:count])
        for letter, count in Counter(word.lower()).items()
        if letter in points
    )


def letter_counts(words: Sequence[str]) -> np.ndarray:
    """How often each letter a-z occurs in each word: uint8 array (26, len(words))."""
    lengths = np.fromiter((len(w) for w in words), dtype=np.int64, count=len(words))
    codes = np.frombuffer("".join(words).encode("ascii"), dtype=np.uint8).astype(np.int64) - ord("a")
    owner = np.repeat(np.arange(len(words)), lengths)
    counts = np.bincount(codes * len(words) + owner, minlength=26 * len(words))
    return np.minimum(counts, 255).astype(np.uint8).reshape(26, len(words))


class Solver:
    """Finds the best-scoring words of a lexicon for a board, vectorised over all words."""

    def __init__(self, words: Sequence[str], letters: np.ndarray, zipf: np.ndarray) -> None:
        """`letters` from letter_counts(words); `zipf` breaks ties (common words first)."""
        self._words = words
        self._letters = letters
        order = np.lexsort((np.arange(len(words)), -zipf))  # words are sorted, so index = alphabetical
        rank = np.empty(len(words), dtype=np.int64)
        rank[order] = np.arange(len(words))
        self._tiebreak = len(words) - 1 - rank  # higher is better

    def scores(self, tiles: Sequence[Tile]) -> np.ndarray:
        """Score of every word on the board (int32 array)."""
        total = np.zeros(len(self._words), dtype=np.int32)
        by_letter: dict[str, list[int]] = {}
        for letter, value in tiles:
            by_letter.setdefault(letter.lower(), []).append(value)
        for letter, values in by_letter.items():
            if len(letter) != 1 or letter not in ALPHABET:
                continue
            row = self._letters[ALPHABET.index(letter)]
            for nth, value in enumerate(sorted(values, reverse=True), start=1):
                if value:
                    total += (row >= nth) * np.int32(value)
        return total

    def best(self, tiles: Sequence[Tile], n: int = 5, exclude: np.ndarray | None = None) -> list[tuple[str, int]]:
        """The `n` best words and their scores, best first; ties go to the more frequent
        word, then alphabetical order. Words with index in `exclude` are skipped, and
        words scoring 0 are never returned."""
        scores = self.scores(tiles)
        if exclude is not None and len(exclude):
            scores[exclude] = 0
        key = scores.astype(np.int64) * len(self._words) + self._tiebreak
        n = min(n, len(key))
        if n <= 0:
            return []
        top = np.argpartition(key, -n)[-n:]
        top = top[np.argsort(-key[top])]
        return [(self._words[i], int(scores[i])) for i in top if scores[i] > 0]
