"""The rules' share in Prolix: what the modes report must agree with their
state (the round a word was voided in, a duel's missing word, whose turn it is while the
tiles are drawn and after the end)."""

from __future__ import annotations

from voice_host.games.prolix import actions as A
from voice_host.games.prolix import events as E

BOARD = tuple("W B J S L C D G".split())


def test_a_word_voided_after_the_next_round_began_is_voided_in_its_own_round(core):
    c = core()
    for player in ("Ann", "Ben"):
        c(A.PlayWord, player, {"Ann": "jewelers", "Ben": "cowbell"}[player])
        c(A.SetBoard, BOARD)
    c(A.PlayWord, "Cat", "jibblewock")  # round 1's last turn
    c(A.SetBoard, BOARD)
    assert c.state.round == 2
    said = c(A.Challenge, "Ann")
    assert said[-1] == E.TurnStarted("Cat", 1, again=True)
    assert c(A.Query, "voided", "Ann") == [E.VoidedReport((("jibblewock", "Cat", 1),))]


def test_a_duel_player_without_a_word_scores_zero_not_minus_the_handicap(core):
    """Ruling 26: no word before the sand runs out scores 0, handicap or not."""
    c = core("prolix-duel", "Ann,Ben", start=None)
    c(A.PlayWord, "Ann", "jewelers")
    c(A.PlayWord, "Ben", "cowbell")  # Ann's mark: she leads and carries a handicap of 1
    c(A.SetBoard, BOARD)
    c(A.PlayWord, "Ben", "jobs")
    said = c.wait(46)
    assert said[1] == E.DuelScored(2, (("Ben", "jobs", 12, 12), ("Ann", None, 0, 0)), "Ben")
    assert c(A.Query, "sheet", "Ann") == [
        E.RoundsSheet("Ann", ((1, "jewelers", 15, ("mark",)), (2, None, 0, ())), 1, "mark")]


def test_a_duel_between_rounds_waits_for_the_draw_and_is_over_at_the_end(core):
    c = core("prolix-duel", "Ann,Ben", start=None, sections={"prolix": {"duel_marks": 2}})
    c(A.PlayWord, "Ann", "jewelers")
    c(A.PlayWord, "Ben", "cowbell")
    assert c.state.phase == "draw"  # round 1 is scored: Ann leads 1-0, round 2's handicap is not set yet
    assert c(A.Query, "turn", "Ben") == [E.AwaitDraw("Ann", 4)]
    c(A.SetBoard, BOARD)
    assert c(A.Query, "turn", "Ben") == [E.DuelRoundStarted(2, ("Ann", 1))]
    c(A.PlayWord, "Ann", "jawbones")
    c(A.PlayWord, "Ben", "jobs")
    assert c.game.finished
    assert c(A.Query, "turn", "Ben") == [E.TurnReport(None, 2, over=True)]


def test_solo_while_drawing_is_still_the_players_turn_and_over_is_over(core):
    c = core("prolix-solo", "Ann", start=None)
    c(A.PlayWord, "Ann", "jewelers", True)
    assert c.state.phase == "draw"
    assert c(A.Query, "turn", "Ann") == [E.TurnReport("Ann", 2, None, None, "Ann"),
                                        E.TargetCheck("Ann", 2, 15, 32, None)]
    c(A.SetBoard, BOARD)
    c(A.PlayWord, "Ann", "jigsaw", True)  # 14: 29, short of 32
    assert c.game.finished
    assert c(A.Query, "turn", "Ann") == [E.TurnReport(None, 2, over=True)]


def test_redux_while_drawing_names_the_next_turn_and_over_is_over(core):
    c = core("prolix-redux", "Ann,Ben,Cat", sections={"prolix": {"redux_rounds": 2}})
    for player, word in (("Ann", "jewelers"), ("Ben", "cowbell"), ("Cat", "jumbled")):
        c(A.PlayWord, player, word)
    assert c.state.phase == "draw"
    assert c(A.Query, "turn", "Cat") == [E.TurnReport("Ben", 2, None, None, "Ann")]
    c(A.SetBoard, BOARD)
    assert c(A.Query, "turn", "Cat") == [E.TurnReport("Ben", 2, None, None, None)]
    for player, word in (("Ben", "jobs"), ("Ann", "jigsaw"), ("Cat", "wisdom")):
        c(A.PlayWord, player, word)
    assert c.game.finished
    assert c(A.Query, "turn", "Cat") == [E.TurnReport(None, 2, over=True)]


def test_classic_after_the_end_is_over(core):
    c = core(sections={"prolix": {"rounds_3_players": 1}})
    for player, word in (("Ann", "jewelers"), ("Ben", "cowbell"), ("Cat", "jumbled")):
        c(A.PlayWord, player, word)
        if player != "Cat":
            c(A.SetBoard, BOARD)
    assert c.game.finished
    assert c(A.Query, "turn", "Ann") == [E.TurnReport(None, 1, over=True)]


def test_classic_while_drawing_names_the_turn_that_comes_next(core):
    c = core()
    c(A.PlayWord, "Ann", "jewelers")
    assert c(A.Query, "turn", "Cat") == [E.TurnReport("Ben", 1, None, None, "Ann", then="Cat")]
    c(A.SetBoard, BOARD)
    c(A.PlayWord, "Cat", "jawbones")  # interrupts Ben: Ben goes again after the draw
    assert c(A.Query, "turn", "Cat") == [E.TurnReport("Ben", 1, None, None, "Ann", then="Cat")]
    c(A.SetBoard, BOARD)
    c(A.PlayWord, "Ben", "cowbell")
    c(A.SetBoard, BOARD)
    c(A.PlayWord, "Cat", "jumbled")  # round 1's last turn: round 2 is Ann's once Cat has drawn
    assert c(A.Query, "turn", "Ann") == [E.TurnReport("Ann", 2, None, None, "Cat", then="Ben")]
