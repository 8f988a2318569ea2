"""The game's prior as a bonus per word: points on the board, how well-known."""

from __future__ import annotations

from dataclasses import replace

import numpy as np
import pytest
from support import Core

from voice_host.host.prior import search_prior


def test_the_prior_is_off_unless_weighed(words):
    assert search_prior(Core(words).game.expectation(), words, 0.0, 0.0) is None


def test_a_better_play_and_a_better_known_word_get_more(words):
    index = {w: i for i, w in enumerate(words.data.words)}
    expected = Core(words).game.expectation()  # W 5, B 4, J 5, S 3, L 2, C 2, D 1, G 1
    values = words.values(expected.tiles)
    best = int(values.max())
    prior = search_prior(expected, words, 4.0, 2.0)
    zipf = words.data.zipf

    def bonus(w):
        return 4.0 * values[index[w]] / best + 2.0 * min(max(float(zipf[index[w]]), 0.0), 6.0) / 6.0

    for w in ("jewelers", "jeweler", "bed", "quiz"):
        assert prior.word(index[w]) == pytest.approx(bonus(w), abs=1e-5), w
    assert prior.word(index["jewelers"]) > prior.word(index["jeweler"])  # 15 points against 12
    assert prior.other == pytest.approx(0.5 * 4.0 + 0.5 * 2.0)
    after = replace(expected, used=(("jewelers", "Ann"),))  # jeweler is now a cheapie: worth nothing
    used = search_prior(after, words, 4.0, 2.0)
    assert used.word(index["jeweler"]) == pytest.approx(2.0 * min(float(zipf[index["jeweler"]]), 6.0) / 6.0, abs=1e-5)
    assert prior.below(0, len(values)) == pytest.approx(float(np.max(prior.bonus)))


def test_phlounder_expects_no_word_before_the_bell_and_the_dice_length_after(table, words):
    """"bell" said during the race is not heard as "well" (a better-known
    word), and after the bell the length the dice asked for is favoured."""
    from voice_host.games.expect import NoWord, WordLength

    t = table("Ann,Ben", game="phlounder", board=None)
    index = {w: i for i, w in enumerate(words.data.words)}
    assert t.game.expectation() == NoWord()  # waiting for the roll
    t("@dice 5N")  # the table rolled a 5-letter noun
    assert t.game.expectation() == NoWord()  # the race: waiting for the bell
    race = search_prior(t.game.expectation(), words, 4.0, 2.0)
    assert race.word(index["well"]) == 0.0 and race.other == 2.0  # the bell (a phrase) over any word
    t("Ann: bell")
    assert t.game.expectation() == WordLength((5, 5), 4, 5)
    after = search_prior(t.game.expectation(), words, 4.0, 0.0)
    values = {"towel": 2, "ruin": 1, "market": 0, "blazers": 0}  # the asked length, a shorter report, too long
    assert {w: after.word(index[w]) for w in values} == {w: 4.0 * v / 2 for w, v in values.items()}
