"""What a Prolix game expects to hear: the board's points as plain data, and the words
layer's values of every dictionary word on it (the game's prior)."""

from __future__ import annotations

import numpy as np
from support import Core

from voice_host.games.expect import BoardPoints
from voice_host.games.prolix import actions as A


def test_the_board_and_the_words_used_are_what_a_prolix_turn_expects(words):
    core = Core(words)
    expected = core.game.expectation()
    assert expected == BoardPoints((("W", 5), ("B", 4), ("J", 5), ("S", 3), ("L", 2), ("C", 2), ("D", 1), ("G", 1)))
    core(A.PlayWord, "Ann", "jewelers")
    assert core.game.expectation() is None  # the tiles are being drawn: no word is expected
    core(A.Draw, ("M", "N"))
    assert core.game.expectation().used == (("jewelers", "Ann"),)


def test_every_words_value_is_its_score_and_a_cheapie_is_worth_nothing(words):
    core = Core(words)
    tiles = core.game.expectation().tiles
    values = words.values(tiles)
    ids = np.random.default_rng(1).choice(len(words), 3000, replace=False)
    for i in ids:  # the vectorised values are the game's own scores
        w = words.data.words[i]
        assert values[i] == core.game.word_value(w), w
    index = {w: i for i, w in enumerate(words.data.words)}
    used = words.values(tiles, (("jewelers", "Ann"),))
    assert values[index["jeweler"]] == 12 and used[index["jeweler"]] == 0  # J, W, L; a cheapie of jewelers
    assert used[index["jewelers"]] == 0 and used[index["jigsaw"]] == values[index["jigsaw"]] == 14
