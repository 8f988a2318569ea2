"""The rules' share: what the road game, Dexikon and Phlounder
accept and answer must agree with their state (a rack holds ten tiles, a set must fill
the racks, last words are nobody's turn but not a stopped game, a team's sheet is the
team's)."""

from __future__ import annotations

import pytest

from voice_host import config
from voice_host.games.base import REGISTRY, Setup
from voice_host.games.dexikon import actions as DA
from voice_host.games.dexikon import events as DE
from voice_host.games.errors import Unplayable
from voice_host.games.phlounder import actions as FA
from voice_host.games.phlounder import events as FE
from voice_host.games.road import actions as A
from voice_host.games.road import events as E


# ---------------------------------------------------------------------- road: the rack and the set
def test_a_play_uses_one_to_a_rack_of_tiles(core):
    c = core(game="road", players="Ann,Ben", board=None)
    before = c.game.result()
    assert c(A.RoadPlay, "Ann", (("quiz", 22),), 11) == [E.Refused("bad_tiles", {"tiles": 11, "rack": 10}, "Ann")]
    assert c(A.RoadPlay, "Ann", (("quiz", 22),), 0) == [E.Refused("bad_tiles", {"tiles": 0, "rack": 10}, "Ann")]
    assert c.game.result() == before and c.state.active == "Ann"
    assert c(A.RoadPlay, "Ann", (("quiz", 22),), 10) == [E.RoadPlayed("Ann", (("quiz", 22),), 22, 22),
                                                        E.TurnStarted("Ben", 1)]


def test_a_counted_bag_refuses_more_tiles_than_a_rack_too(core):
    c = core(game="road", players="Ann,Ben", board=None, set_size=100)
    assert c(A.RoadPlay, "Ann", (("quiz", 22),), 11) == [E.Refused("bad_tiles", {"tiles": 11, "rack": 10}, "Ann")]
    assert c.state.bag == 80


@pytest.mark.parametrize("players, size", [("Ann,Ben,Cat", 20), ("Ann,Ben", 19), ("Ann,Ben,Cat,Dan", 39)])
def test_a_set_too_small_for_the_racks_is_unplayable(words, players, size):
    cfg = config.load(overrides={"road": {"set_size": size}})
    names = tuple(players.split(","))
    with pytest.raises(Unplayable) as caught:
        REGISTRY["road"].create(Setup(names, 1), cfg, words)
    assert (caught.value.code, caught.value.params) == (
        "set_too_small", {"set_size": size, "players": len(names), "rack": 10})


def test_a_set_that_just_fills_the_racks_starts_with_an_empty_bag(core):
    c = core(game="road", players="Ann,Ben", board=None, set_size=20)
    assert c.begun == [E.RoadStarted(("Ann", "Ben"), 10, 0), E.TurnStarted("Ann", 1)]
    assert c(A.Mulligan, "Ann") == [E.Refused("no_mulligan", {}, "Ann")]
    assert c(A.RoadPlay, "Ann", (("quiz", 22),)) == [E.RoadPlayed("Ann", (("quiz", 22),), 22, 22),
                                                    E.TurnStarted("Ben", 1)]


def test_a_finished_road_game_is_nobodys_turn_because_it_is_over(core):
    c = core(game="road", players="Ann,Ben", board=None)
    c(A.Pass, "Ann")
    c(A.Pass, "Ben")
    assert c(A.Query, "turn", "Ann") == [E.TurnReport(None, 1, over=True)]


# ---------------------------------------------------------------------- Dexikon: last words
def dexikon_at_last_words(core):
    c = core(game="dexikon", players="Ann,Ben", board=None, settle=False, variant="quick")
    for i, (a, b) in enumerate([("catch", "fire"), ("water", "earth"), ("wind", "stone"), ("cloud", "river"),
                                ("ocean", "storm")]):
        c(DA.Declare, "Ann", a, 5, True)
        c(DA.Declare, "Ben", b, 5, True)
    c.wait(11)
    assert c.state.phase == "last"
    return c


def test_dexikon_last_words_say_who_still_owes_one(core):
    c = dexikon_at_last_words(core)
    assert c(DA.Query, "turn", "Ann") == [DE.LastWordsWaiting(("Ann", "Ben"), ())]
    c(DA.LastWord, "Ann", "counterfeiting", 15)
    assert c(DA.Query, "turn", "Ann") == [DE.LastWordsWaiting(("Ben",), (("Ann", "counterfeiting"),))]
    c.wait(11)
    assert c(DA.Query, "turn", "Ann") == [DE.LastWordsWaiting(("Ben",), ())]
    c(DA.LastWord, "Ben", "xyzzyq", 15)
    c(DA.Challenge, "Ann", None)
    assert c(DA.Query, "turn", "Ann") == [DE.LastWordsWaiting((), (("Ben", "xyzzyq"),))]
    c(DA.ChallengeAnswer, "Ben", False)  # void: Ben may try again, so he still owes his last word
    assert c(DA.Query, "turn", "Ann") == [DE.LastWordsWaiting(("Ben",), ())]
    c(DA.LastWord, "Ben", "zebra", 9)
    c.wait(11)
    assert c.game.finished
    assert c(DA.Query, "turn", "Ann") == [DE.TurnReport(None, 5, over=True)]


# ---------------------------------------------------------------------- Phlounder: partners' sheets, words
PARTNERS = "Ann,Ben,Cat,Dan"


def partners(core, rounds=4):
    return core(game="phlounder", players=PARTNERS, board=None, start=None, teams=["Ann+Cat", "Ben+Dan"],
                rounds=rounds)


def two_rounds(c):
    """R1 5N: Ann rings, Ann and Cat 2 + 5 + 5 = 12, Ben and Dan 2 - 1 = 1. R2 4N: Cat rings,
    Ann's very is no noun: an illegal bell, Ann and Cat -10, Ben and Dan +14."""
    c(FA.SetDice, ("5", "N"))
    c(FA.Bell, "Ann")
    c(FA.Report, "Ann", "table", 0)
    c(FA.Report, "Cat", "chair", 0)
    c(FA.Report, "Ben", "lamp", 2)
    c(FA.Report, "Dan", None, 1)
    c(FA.SetDice, ("4", "N"))
    c(FA.Bell, "Cat")
    c(FA.Report, "Cat", "ruin", 0)
    c(FA.Report, "Ann", "very", 0)


def test_a_partners_sheet_is_the_teams_sheet(core):
    c = partners(core)
    two_rounds(c)
    ann_cat = FE.TeamSheet(("Ann", "Cat"), (
        (1, "Ann", True, (("Ann", "table", 5, True), ("Cat", "chair", 5, True)), 2, 12),
        (2, "Cat", False, (), 0, -10)), 2)
    assert c(FA.Query, "sheet", "Ann") == [ann_cat]
    assert c(FA.Query, "sheet", "Ben", "Cat") == [ann_cat]
    ben_dan = FE.TeamSheet(("Ben", "Dan"), (
        (1, "Ann", True, (("Ben", "lamp", 2, True), ("Dan", None, -1, False)), 0, 1),
        (2, "Cat", False, (), 0, 14)), 15)
    assert c(FA.Query, "sheet", "Dan") == [ben_dan]
    assert c(FA.Query, "sheets", "Ann") == [ann_cat, ben_dan]  # each team once
    # the team's lines add up to its total, and its total is what the scores say
    for sheet in (ann_cat, ben_dan):
        assert sum(line[-1] for line in sheet.lines) == sheet.total
    assert {s.player: s.total for s in c.game.standings()} == {("Ann", "Cat"): 2, ("Ben", "Dan"): 15}


def test_phlounder_words_are_every_word_of_the_game(core):
    c = core(game="phlounder", players="Ann,Ben", board=None, start=None)
    c(FA.SetDice, ("5", "N"))
    c(FA.Bell, "Ann")
    c(FA.Report, "Ann", "table", 0)
    c(FA.Report, "Ben", "lamp", 2)
    assert c.state.phase == "roll"  # round 2 waits for the roll: round 1's words were played all the same
    assert c(FA.Query, "words", "Ann") == [FE.WordsReport((("table", "Ann"), ("lamp", "Ben")), (None, None))]
    c(FA.SetDice, ("4", "N"))
    c(FA.Bell, "Ben")
    c(FA.Report, "Ben", "ruin", 0)
    assert c(FA.Query, "words", "Ann") == [FE.WordsReport((("table", "Ann"), ("lamp", "Ben"), ("ruin", "Ben")), (None, None, None))]
