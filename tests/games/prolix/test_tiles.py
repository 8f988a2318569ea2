"""The Prolix tile set, bag, board and scoring."""

from __future__ import annotations

import random

import pytest

from voice_host import config
from voice_host.games.errors import Refusal
from voice_host.games.prolix.tiles import (
    Bag,
    TileSet,
    slide,
    board_tiles,
    empty_board,
    parse_board,
    place,
    playable,
    score,
)


@pytest.fixture(scope="module")
def ts() -> TileSet:
    return TileSet.from_config(config.load()["prolix"]["tileset"])


def test_default_set_matches_design(ts):
    assert len(ts.all_tiles()) == 77
    assert ts.counts["N"] == 7 and ts.counts["B"] == 3 and ts.counts["J"] == 1
    assert (ts.kinds["W"].bonus, ts.kinds["W"].rare) == (1, True)
    assert (ts.kinds["Q"].bonus, ts.kinds["Q"].rare) == (2, True)
    assert (ts.kinds["S"].bonus, ts.kinds["S"].rare) == (0, False)
    assert ts.columns == (4, 3, 2, 1)


def test_redux_f_option_makes_two_blue_fs(ts):
    cfg = config.load()["prolix"]["tileset"]
    redux = TileSet.from_config(cfg, extra={"blue": {"F": 2}})
    assert redux.counts["F"] == 2 and redux.kinds["F"].bonus == 1 and redux.kinds["F"].rare
    assert len(redux.all_tiles()) == 76


def test_jewelers_scores_15_on_the_rulebook_board(ts):
    board = parse_board("W B J S L C D G".split(), ts)
    value, flips = score("jewelers", board, ts)
    assert value == 15
    assert sorted((f.letter, f.points) for f in flips) == [("J", 5), ("L", 2), ("S", 3), ("W", 5)]


def test_repeated_letters_flip_separate_tiles_best_first(ts):
    board = parse_board("S B J T L S D G".split(), ts)  # S worth 4 and 2
    assert score("gas", board, ts)[0] == 4 + 1          # one s: the better S tile
    assert score("glass", board, ts)[0] == 4 + 2 + 2 + 1  # two s: both S tiles, plus l and g
    assert score("sassiness", board, ts)[0] == 4 + 2    # five s, but only two S tiles
    assert score("aeiou", board, ts)[0] == 0            # letters not on the board score nothing


def test_slide_moves_right_and_discards_the_last_column(ts):
    board = parse_board("W B J S L C D G".split(), ts)
    moved, gone = slide(board)
    assert [t.letter for t in gone] == ["D", "G"]
    assert [[t.letter if t else None for t in col] for col in moved] == [
        [None, None], ["W", "B"], ["J", "S"], ["L", "C"]]
    two, gone2 = slide(board, 2)
    assert sorted(t.letter for t in gone2) == ["C", "D", "G", "L"]
    filled = place(moved, [ts.tile("M"), ts.tile("N")])
    assert [t.letter for t in filled[0]] == ["M", "N"]


def test_playability_limits(ts):
    on = [ts.tile("W"), ts.tile("Q")]
    assert not playable(ts.tile("K"), on, ts)  # a third rare tile
    assert playable(ts.tile("S"), on, ts)
    assert not playable(ts.tile("S"), [ts.tile("S"), ts.tile("S")], ts)  # a third S
    with pytest.raises(Refusal) as e:
        parse_board("W K Y S L C D G".split(), ts)
    assert e.value.code == "too_many_rare"
    with pytest.raises(Refusal) as e:
        parse_board("S S S B L C D G".split(), ts)
    assert e.value.code == "too_many_same"
    with pytest.raises(Refusal) as e:
        parse_board("A B C".split(), ts)
    assert e.value.code == "board_size"
    with pytest.raises(Refusal) as e:
        parse_board("A B J S L C D G".split(), ts)
    assert e.value.code == "no_such_tile"


def test_unplayable_draws_are_set_aside_and_returned(ts):
    rare = [ts.tile(x) for x in "WKYVJQXZ"]
    bag = Bag(rare + [ts.tile("S")], random.Random(3))
    on_board = [ts.tile("W"), ts.tile("K")]  # two rare tiles already out
    drawn, aside, refilled = bag.draw_playable(1, on_board, ts)
    assert [t.letter for t in drawn] == ["S"]
    assert not refilled
    assert all(t.rare for t in aside)
    assert sorted(t.letter for t in bag.tiles) == sorted("WKYVJQXZ")  # set-aside tiles went back


def test_empty_bag_is_refilled_from_the_discards(ts):
    bag = Bag([ts.tile("B")], random.Random(1), discards=[ts.tile("C"), ts.tile("D")])
    drawn, aside, refilled = bag.draw_playable(2, [], ts)
    assert refilled
    assert len(drawn) == 2 and drawn[0].letter == "B"
    assert bag.discards == []


def test_seeded_draws_are_reproducible(ts):
    a, b = Bag.full(ts, 42), Bag.full(ts, 42)
    da, _, _ = a.draw_playable(8, [], ts)
    db, _, _ = b.draw_playable(8, [], ts)
    assert da == db
    assert len(a.tiles) == 77 - 8
    assert len(board_tiles(place(empty_board(ts), da))) == 8
