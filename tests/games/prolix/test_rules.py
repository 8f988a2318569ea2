"""Prolix Classic rules, one at a time, at the core's contract (``game.step(action) ==
[events]``: no phrases, no sentences), on the jewelers board:

    W+1 (5)  B (4) | J+2 (5)  S (3) | L (2)  C (2) | D (1)  G (1)
"""

from __future__ import annotations

import copy
from unittest.mock import ANY

from voice_host import config
from voice_host.games.base import Setup
from voice_host.games.prolix import actions as A
from voice_host.games.prolix import events as E
from voice_host.games.prolix.classic import Entry, ProlixClassic, Sheet

B = tuple("W B J S L C D G".split())
JEWELERS = E.WordScored("Ann", "jewelers", 15, (("W", 5), ("J", 5), ("S", 3), ("L", 2)))


def snapshot(game):
    """Everything observable about a game but the clock, to show that a refusal changed nothing."""
    s = game.state
    return (copy.deepcopy(game.result()), s.board, s.phase, s.pos, s.round, s.interrupts,
            copy.deepcopy(s.used), copy.deepcopy(s.timer), s.bag.rng.getstate(), len(s.bag.tiles))


def letters(board: E.BoardShown) -> list[str]:
    return [t.letter for _, tiles in board.columns for t in tiles]


def test_a_word_scores_and_play_passes_on(core):
    c = core()
    assert c(A.PlayWord, "Ann", "jewelers") == [JEWELERS, E.AwaitDraw("Ann", 2)]
    drawn = c(A.Draw, ("M", "N"))
    assert drawn == [E.TilesDrawn("Ann", ("M", "N")), ANY, E.TurnStarted("Ben", 1)]
    assert letters(drawn[1]) == ["M", "N", "W", "B", "J", "S", "L", "C"]  # every tile one column on
    assert c.state.active == "Ben"


def test_drawer_after_first_interrupt_is_right_of_the_active_player(core):
    c = core()
    c(A.PlayWord, "Ann", "jewelers")
    c(A.SetBoard, B)  # Ben's turn now
    assert c(A.PlayWord, "Cat", "jigsaw") == [
        E.Interrupted("Cat", "jigsaw", 14, 2, 12, "Ben", (("W", 5), ("J", 5), ("S", 3), ("G", 1))),
        E.AwaitDraw("Ann", 2)]  # Ann sits to Ben's right
    assert c(A.Draw, ("M", "N"))[-1] == E.TurnStarted("Ben", 1, again=True)


def test_interrupt_penalty_is_3_with_four_players(core):
    c = core(players="Ann,Ben,Cat,Dan")
    assert c(A.PlayWord, "Dan", "jewelers")[0] == E.Interrupted("Dan", "jewelers", 15, 3, 12, "Ann", JEWELERS.flips)


def test_no_interrupting_before_the_tiles_are_drawn(core):
    c = core()
    c(A.PlayWord, "Ann", "jewelers")  # waiting for Ann to draw
    before = snapshot(c.game)
    assert c(A.PlayWord, "Ben", "jigsaw") == [E.Refused("wait_for_draw", {"drawer": "Ann"}, "Ben")]
    assert c(A.FlipTimer, "Cat") == [E.Refused("wait_for_draw", {"drawer": "Ann"}, "Cat")]
    assert snapshot(c.game) == before


def test_start_player_draws_lowest_letter_and_redraws_ties(words):
    cfg = config.load()
    redraw_seen = False
    for seed in range(40):
        game = ProlixClassic.create(Setup(("Ann", "Ben", "Cat", "Dan", "Eve"), seed), cfg, words)
        events = game.step(A.Begin(0))
        draws = events[1]
        last = draws.draws[-1]
        lowest = min(letter for _, letter in last)
        assert [p for p, letter in last if letter == lowest] == [draws.start]
        for earlier, later in zip(draws.draws, draws.draws[1:]):
            low = min(letter for _, letter in earlier)
            assert [p for p, _ in later] == [p for p, letter in earlier if letter == low]  # only the tied redraw
            redraw_seen = True
        assert game.state.active == draws.start
        assert len(game.state.bag.tiles) == 77 - 8  # start draws went back; eight tiles on the board
    assert redraw_seen


def test_refusals_change_nothing(core):
    c = core()
    for action in ((A.PlayWord, "Ann", "jewelers"), (A.SetBoard, B), (A.PlayWord, "Ben", "jigsaw"), (A.SetBoard, B)):
        c(*action)  # Cat's turn; jewelers and jigsaw used
    before = snapshot(c.game)
    cases = [
        ((A.PlayWord, "Zed", "jumbled"), "unknown_player", {"player": "Zed", "players": ("Ann", "Ben", "Cat")}),
        ((A.PlayWord, "Ben", "jewelers"), "cheapie",
         {"word": "jewelers", "earlier": "jewelers", "by": "Ann", "rule": "same", "path": ()}),
        ((A.PlayWord, "Cat", "jigsaws"), "cheapie",
         {"word": "jigsaws", "earlier": "jigsaw", "by": "Ben", "rule": "plural", "path": (("jigsaw", "plural"),)}),
        ((A.FlipTimer, "Cat"), "active_cannot_flip", {}),
        ((A.Challenge, "Cat", "Cat"), "own_word", {}),
        ((A.Challenge, "Ann", "Ann"), "own_word", {}),
        ((A.Challenge, "Cat", "Ann"), "nothing_to_challenge", {"target": "Ann"}),
        ((A.Draw, ("B", "C")), "no_draw_due", {}),
        ((A.SetStart, "Ben"), "too_late", {"what": "start"}),
        ((A.SetBoard, tuple("W K Y S L C D G".split())), "too_many_rare", {"letters": ["W", "K", "Y"], "limit": 2}),
    ]
    for (action, *args), code, params in cases:
        player = args[0] if isinstance(args[0], str) else None
        assert c(action, *args) == [E.Refused(code, params, player)], code
        assert snapshot(c.game) == before, code


def test_cheapie_names_the_earlier_word_and_rule(core):
    c = core()
    c(A.PlayWord, "Ann", "begrudging")
    c(A.SetBoard, B)
    assert c(A.PlayWord, "Ben", "begrudged") == [E.Refused("cheapie", {
        "word": "begrudged", "earlier": "begrudging", "by": "Ann", "rule": "chain",
        "path": (("begrudge", "tense"), ("begrudging", "ing"))}, "Ben")]
    c(A.PlayWord, "Ben", "jubilantly")
    c(A.SetBoard, B)
    assert c(A.PlayWord, "Cat", "jubilant") == [E.Refused("cheapie", {
        "word": "jubilant", "earlier": "jubilantly", "by": "Ben", "rule": "ly", "path": (("jubilantly", "ly"),)}, "Cat")]
    assert c(A.PlayWord, "Cat", "jumper")[0] == E.WordScored("Cat", "jumper", 5, (("J", 5),))  # jumper/jump differ


def test_timer_rules(core):
    c = core()
    assert c(A.FlipTimer, "Ben") == [E.TimerFlipped("Ben", 45)]
    assert c(A.PlayWord, "Cat", "jigsaw")[0] == E.Interrupted("Cat", "jigsaw", 14, 2, 12, "Ann",
                                                              (("W", 5), ("J", 5), ("S", 3), ("G", 1)))
    c(A.SetBoard, B)  # Ann goes again; the timer went to the middle, still running
    assert c(A.FlipTimer, "Ben") == [E.Refused("timer_running", {"holder": None, "left": 44}, "Ben")]
    assert c.wait(45) == []  # runs out in the middle: no effect on Ann
    assert c.state.active == "Ann" and c.state.interrupts == 1
    assert c(A.FlipTimer, "Cat") == [E.TimerFlipped("Cat", 45)]
    assert c.wait(45) == [E.TimerExpired("Ann"), E.TurnLost("Ann", 1), E.AwaitDraw("Ann", 2)]
    assert [(e.word, e.score) for e in c.state.sheets["Ann"].regular] == [(None, 0)]


def test_a_word_said_before_the_sand_runs_out_counts(core):
    c = core()
    c(A.FlipTimer, "Ben")
    assert c(A.PlayWord, "Ann", "jewelers", dt=43.8) == [JEWELERS, E.AwaitDraw("Ann", 2)]  # settled after 45
    assert c.wait(1.4) == []


def test_successful_challenge_of_an_interrupt_lets_the_interrupter_go_again(core):
    c = core()
    c(A.PlayWord, "Ben", "jibblewock")  # an interrupt of Ann, 18 - 2
    assert c(A.Challenge, "Cat") == [
        E.ChallengeRaised("Cat", "Ben", "jibblewock"),
        E.ChallengeResolved("Cat", "Ben", "jibblewock", False, reason="not_found"),
        c.game.board_view(), E.TurnStarted("Ann", 1, again=True)]
    assert c.total("Ben") == 0 and c.state.interrupts == 0 and c.state.active == "Ann"
    assert c(A.PlayWord, "Ben", "jibblewock") == [E.Refused("barred", {"word": "jibblewock"}, "Ben")]
    assert c(A.PlayWord, "Ben", "jawbones")[0] == E.Interrupted(
        "Ben", "jawbones", 17, 2, 15, "Ann", (("W", 5), ("J", 5), ("B", 4), ("S", 3)))


def test_challenge_voids_one_tied_word_and_the_tie_is_compared_again(core):
    c = core()
    c.game.step(A.PlayWord(0, "Ann", "jeweler"))
    tie = c(A.PlayWord, "Ben", "jibblewock")
    assert tie[0] == E.TieBreak((("Ann", "jeweler", 12), ("Ben", "jibblewock", 18)), ("Ben",))
    events = c(A.Challenge, "Ann")
    assert E.ChallengeResolved("Ann", "Ben", "jibblewock", False, reason="not_found") in events
    assert E.WordScored("Ann", "jeweler", 12, (("W", 5), ("J", 5), ("L", 2))) in events
    assert c.total("Ann") == 12 and c.total("Ben") == 0


def test_a_word_stands_only_one_challenge(core):
    c = core()
    c(A.PlayWord, "Ann", "jewelers")
    c(A.Challenge, "Ben")
    assert c(A.Challenge, "Cat") == [E.Refused("already_challenged", {"word": "jewelers", "player": "Ann"}, "Cat")]
    assert c.state.sheets["Ben"].failed_challenges == 1
    assert c.state.sheets["Cat"].failed_challenges == 0


def test_no_challenge_once_the_next_play_happened(core):
    c = core()
    for action in ((A.PlayWord, "Ann", "jewelers"), (A.SetBoard, B), (A.PlayWord, "Ben", "jigsaw"), (A.SetBoard, B)):
        c(*action)
    assert c(A.Challenge, "Cat", "Ann") == [E.Refused("nothing_to_challenge", {"target": "Ann"}, "Cat")]


def test_challenge_vote_option(core):
    c = core(players="Ann,Ben,Cat,Dan", challenge_vote=True)
    c(A.PlayWord, "Ann", "jewelers")
    assert c(A.Challenge, "Ben")[-1] == E.VoteAsked(("Cat", "Dan"), "jewelers")
    assert c(A.PlayWord, "Dan", "jigsaw") == [E.Refused("challenge_in_progress", {"word": "jewelers"}, "Dan")]
    assert c(A.Answer, "Ann", True) == [E.Refused("not_a_voter", {"player": "Ann", "word": "jewelers"}, "Ann")]
    assert c(A.Answer, "Cat", True) == [  # half of two, rounded up, is one: the table knows it
        E.ChallengeResolved("Ben", "Ann", "jewelers", True, by_vote=True, penalty=2)]
    c(A.SetBoard, B)
    c(A.PlayWord, "Ben", "jibblewock")
    c(A.Challenge, "Cat")
    c(A.Answer, "Ann", False)  # Ann and Dan vote; one no, one yes still possible
    assert c.state.vote is not None
    assert c(A.Answer, "Dan", False)[0] == E.ChallengeResolved(  # nobody knows it: the dictionary decides
        "Cat", "Ben", "jibblewock", False, reason="not_found")


def test_auto_reject_option(core):
    c = core(auto_reject=True)
    before = snapshot(c.game)
    assert c(A.PlayWord, "Ann", "jibblewock") == [
        E.Refused("not_a_word", {"word": "jibblewock", "reason": "not_found"}, "Ann")]
    assert c(A.PlayWord, "Ann", "scotland") == [
        E.Refused("not_a_word", {"word": "scotland", "reason": "proper_noun"}, "Ann")]
    assert snapshot(c.game) == before


def test_rulebook_sample_scoresheet_totals_100(core):
    c = core(players="Ann,Ben,Cat,Dan")
    sheet = c.state.sheets["Ann"]
    sheet.regular = [Entry("giving", 18), Entry("flummoxed", 17), Entry(None, 0), Entry("plucky", 16),
                     Entry("scrapbooking", 20)]
    sheet.interrupts = [Entry("picnicking", 20, 3), Entry("hurdled", 17, 3)]
    sheet.failed_challenges = 1
    total, marked = c.game.totals("Ann")
    assert [counts for _, counts in marked] == [True, True, False, True, True]  # the zero is crossed out
    assert total == 71 + 31 - 2 == 100


def test_three_players_cross_out_one_per_interrupt(core):
    c = core()
    sheet = c.state.sheets["Ann"]
    sheet.regular = [Entry("a", 10), Entry("b", 4), Entry("c", 8)]
    sheet.interrupts = [Entry("d", 9, 2), Entry("e", 5, 2)]
    assert c.total("Ann") == 10 + 7 + 3


def test_shared_victory_when_every_word_ties(core):
    c = core()
    for name in ("Ann", "Ben"):
        c.state.sheets[name] = Sheet(regular=[Entry("x", 12), Entry("y", 7)])
    c.state.sheets["Cat"] = Sheet(regular=[Entry("z", 5)])
    c.state.round = 6
    c.state.pos = 2  # Cat's final turn
    over = c(A.PlayWord, "Cat", "dig")[-1]
    assert over == E.GameOver((E.Standing("Ann", 19), E.Standing("Ben", 19), E.Standing("Cat", 7)),
                              ("Ann", "Ben"), "shared", ANY)
    assert c.game.result()["winners"] == ["Ann", "Ben"]


def test_questions_change_nothing(core):
    c = core()
    c(A.PlayWord, "Ann", "jewelers")
    c(A.SetBoard, B)
    before = snapshot(c.game)
    ask = lambda kind, about=None: c.game.step(A.Query(c.t, kind, "Cat", about))  # noqa: E731
    assert ask("board") == [c.game.board_view()]
    assert ask("scores") == [E.ScoresReport((E.Standing("Ann", 15), E.Standing("Ben", 0), E.Standing("Cat", 0)),
                                            1, 6)]
    assert ask("turn") == [E.TurnReport("Ben", 1, None, None, None, then="Cat")]
    assert ask("words") == [E.WordsReport((("jewelers", "Ann"),))]
    assert ask("sheet", "Ann") == [E.SheetReport("Ann", (("jewelers", 15, True, 1),), (), 0, 15)]
    assert snapshot(c.game) == before
    c(A.FlipTimer, "Cat")
    assert ask("turn") == [E.TurnReport("Ben", 1, "Cat", 45.0, None, then="Cat")]
