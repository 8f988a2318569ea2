"""Prolix scoring and the best-word solver."""

from __future__ import annotations

import random

from voice_host.words import Words, score_word

# The rulebook's board: W blue (+1) and B in the 4-point column, J red (+2) and S in the
# 3-point column, then L C (2 points) and D G (1 point).
BOARD = [("w", 5), ("b", 4), ("j", 5), ("s", 3), ("l", 2), ("c", 2), ("d", 1), ("g", 1)]


def test_jewelers_scores_15() -> None:
    assert score_word("jewelers", BOARD) == 15
    assert score_word("JEWELERS", [(c.upper(), p) for c, p in BOARD]) == 15


def test_scoring_rules() -> None:
    assert score_word("aeiou", BOARD) == 0  # letters with no tile score nothing
    assert score_word("ss", BOARD) == 3  # one S tile: the second S flips nothing
    two_s = [("s", 3), ("s", 1), ("t", 2)]
    assert score_word("stress", two_s) == 3 + 1 + 2  # repeated letters flip separate tiles
    assert score_word("sat", two_s) == 5  # the best tile is chosen


def test_best_on_the_rulebook_board(words: Words) -> None:
    best = words.best(BOARD, 10)
    assert len(best) == 10
    assert all(score == score_word(word, BOARD) for word, score in best)
    assert [s for _, s in best] == sorted((s for _, s in best), reverse=True)
    top = best[0][1]
    assert top >= 17
    assert score_word("jewelers", BOARD) < top


def test_solver_agrees_with_scoring_everywhere(words: Words) -> None:
    rng = random.Random(7)
    board = [(rng.choice("bcdfghjklmnpqrstvwxz"), rng.randint(1, 6)) for _ in range(8)]
    scores = words._solver.scores(board)
    for i in rng.sample(range(len(words)), 3000):
        assert scores[i] == score_word(words.data.words[i], board)


def test_ties_go_to_frequent_then_alphabetical(words: Words) -> None:
    best = words.best([("z", 1)], 50)
    assert all(score == 1 for _, score in best)
    freqs = [words.frequency(w) for w, _ in best]
    assert freqs == sorted(freqs, reverse=True)
    assert best[0][0] == "size"


def test_used_words_and_their_cheapies_are_left_out(words: Words) -> None:
    best = dict(words.best(BOARD, 400))
    assert "bejewels" in best and "bejeweled" in best
    after = dict(words.best(BOARD, 400, used=[("bejewel", "Ann")]))
    assert "bejewels" not in after and "bejeweled" not in after and "bejewel" not in after


def test_empty_board(words: Words) -> None:
    assert words.best([], 5) == []
    assert words.best([("q", 0)], 5) == []


def board(letters: str) -> list[tuple[str, int]]:
    """Eight tiles, leftmost column first, as the table gives them: columns worth 4, 3, 2, 1."""
    values = (4, 4, 3, 3, 2, 2, 1, 1)
    return [(c.lower(), v) for c, v in zip(letters.split(), values)]


def test_the_best_words_are_never_offensive_though_they_stay_playable(words: Words) -> None:
    for letters, vulgar in (("F C K N G S H T", "motherfucking"), ("B L W J B S D T", "blowjobs")):
        best = [w for w, _ in words.best(board(letters), 25)]
        assert vulgar not in best and best, best
        assert words.offensive(vulgar) and words.check(vulgar).ok  # a player may still play it
    assert not any(map(words.offensive, ("jewelers", "cocktail", "peacock", "class", "scunthorpe", "snack")))


def test_no_offensive_word_is_proposed_on_a_thousand_random_boards(words: Words) -> None:
    rng = random.Random(7)
    consonants = "BCDFGHLMNPRSTKVWYJQXZ"
    for _ in range(1000):
        tiles = board(" ".join(rng.choice(consonants) for _ in range(8)))
        offensive = [w for w, _ in words.best(tiles, 5) if words.offensive(w)]
        assert not offensive, (tiles, offensive)
