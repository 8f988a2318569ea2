"""The search prior's range maxima (the best bonus below a trie node)."""

from __future__ import annotations

import numpy as np

from voice_host.words.prior import RangeMax, SearchPrior


def test_range_max_is_the_maximum_of_every_range():
    values = np.random.default_rng(3).normal(size=200).astype(np.float32)
    best = RangeMax(values)
    for lo in range(0, 200, 7):
        for hi in range(lo + 1, 201, 5):
            assert best(lo, hi) == values[lo:hi].max(), (lo, hi)
    assert RangeMax(np.array([2.5], np.float32))(0, 1) == 2.5


def test_the_search_prior_knows_each_word_the_best_below_and_the_best_of_all():
    prior = SearchPrior(np.array([0.0, 3.0, 1.0, -2.0]), other=0.5)
    assert (prior.word(1), prior.below(2, 4), prior.below(0, 4), prior.top) == (3.0, 1.0, 3.0, 3.0)
    assert SearchPrior(np.array([-1.0]), other=0.5).top == 0.5
