"""What may be challenged, and when, in Prolix Duel and Prolix Redux (rulings 96, 97).

On the jewelers board (table mode, the board set again after every draw):

    W+1 (5)  B (4) | J+2 (5)  S (3) | L (2)  C (2) | D (1)  G (1)

jewelers 15, cowbell 13, jigsaw 14; jibblewock 18 but no word.
"""

from __future__ import annotations

from support import Core

from voice_host.games.prolix import actions as A
from voice_host.games.prolix import events as E

B = "@board W B J S L C D G"


def duel(words, marks: int = 5) -> Core:
    return Core(words, "prolix-duel", "Ann,Ben", start=None, settle=False, sections={"prolix": {"duel_marks": marks}})


def redux(words, turns: int = 12) -> Core:
    return Core(words, "prolix-redux", "Ann,Ben,Cat", settle=False, sections={"prolix": {"redux_rounds": turns}})


# ---------------------------------------------------------------------- Duel
def test_duel_a_challenge_while_the_timer_runs_gives_the_mark_to_its_winner_at_once(words):
    """Ruling 96: "the player who wins the challenge gets the Mark for that round"; the
    flipper's word is said aloud, so it may be challenged as soon as it is said."""
    c = duel(words)
    c(A.PlayWord, "Ann", "jibblewock", dt=1)
    assert c(A.Challenge, "Ben", None, dt=5) == [
        E.ChallengeRaised("Ben", "Ann", "jibblewock"),
        E.ChallengeResolved("Ben", "Ann", "jibblewock", False, reason="not_found"),
        E.MarkAwarded("Ben", (("Ann", 0), ("Ben", 1)), "challenge"),
        E.AwaitDraw("Ann", 4)]  # the round is over: the tiles move on
    assert c.wait(45) == []  # the timer stopped with the round
    assert c.game.marks() == {"Ann": 0, "Ben": 1} and "jibblewock" in c.state.barred
    c(A.SetBoard, tuple(B.split()[1:]))
    c(A.PlayWord, "Ann", "jewelers", dt=1)  # round 2: Ben leads, handicap 1
    assert c(A.Challenge, "Ben", "Ann", dt=2) == [  # jewelers stands: Ann takes the mark
        E.ChallengeRaised("Ben", "Ann", "jewelers"),
        E.ChallengeResolved("Ben", "Ann", "jewelers", True, reason=None),
        E.MarkAwarded("Ann", (("Ann", 1), ("Ben", 1)), "challenge"),
        E.AwaitDraw("Ann", 4)]
    assert ("jewelers", "Ann") in c.state.used  # a word that stood is used (No Cheapies)
    assert c.game.step(A.Challenge(c.t, "Ben", None))[0].code == "already_challenged"


def test_duel_the_flipper_has_nothing_to_challenge_while_the_timer_runs(words):
    c = duel(words)
    c(A.PlayWord, "Ann", "jewelers", dt=1)
    before = (c.game.result(), c.state.timer)
    assert c(A.Challenge, "Ann", None, dt=1) == [E.Refused("nothing_to_challenge", {"target": None}, "Ann")]
    assert (c.game.result(), c.state.timer) == before


def test_duel_the_round_that_gives_the_last_mark_waits_for_a_challenge(words):
    """Ruling 97: the final round's words stay open to a challenge for the window."""
    c = duel(words, marks=1)
    c(A.PlayWord, "Ann", "jewelers", dt=1)
    assert c(A.PlayWord, "Ben", "cowbell", dt=1)[-1] == E.LastChallenge((("Ann", "jewelers"), ("Ben", "cowbell")), 10)
    assert not c.game.finished and c.game.result()["finished"] is False
    assert c(A.PlayWord, "Ben", "jigsaw", dt=1) == [
        E.Refused("last_word_open", {"words": (("Ann", "jewelers"), ("Ben", "cowbell"))}, "Ben")]
    assert c.game.step(A.Query(c.t, "turn", "Ben")) == [E.LastChallenge((("Ann", "jewelers"), ("Ben", "cowbell")), 9)]
    assert c.game.step(A.Query(c.t, "time", "Ben")) == [E.LastChallenge((("Ann", "jewelers"), ("Ben", "cowbell")), 9)]
    assert c.wait(8) == []
    assert c.wait(1) == [E.GameOver((E.Standing("Ann", 1), E.Standing("Ben", 0)), ("Ann",))]
    assert c.game.finished and c.game.settles_at() is None
    after = c.game.result()
    assert c(A.Challenge, "Ben", None, dt=1) == [  # the end is the end
        E.Refused("game_over", {"winners": ("Ann",), "total": 1, "unit": "mark"}, "Ben")]
    assert c.game.result() == after


def test_duel_a_challenge_in_the_last_window_settles_the_mark_and_the_end(words):
    c = duel(words, marks=1)
    c(A.PlayWord, "Ann", "jibblewock", dt=1)
    c(A.PlayWord, "Ben", "cowbell", dt=1)  # 18 against 13: Ann's mark, for now
    assert c(A.Challenge, "Ben", None, dt=3) == [
        E.ChallengeRaised("Ben", "Ann", "jibblewock"),
        E.ChallengeResolved("Ben", "Ann", "jibblewock", False, reason="not_found"),
        E.MarkAwarded("Ben", (("Ann", 0), ("Ben", 1)), "challenge"),
        E.GameOver((E.Standing("Ben", 1), E.Standing("Ann", 0)), ("Ben",))]  # nothing left to challenge


def test_duel_a_last_mark_lost_to_a_challenge_plays_on(words):
    c = duel(words, marks=2)
    c(A.PlayWord, "Ann", "jewelers", dt=1)
    c(A.PlayWord, "Ben", "cowbell", dt=1)  # Ann 1-0
    c(A.SetBoard, tuple(B.split()[1:]))
    c(A.PlayWord, "Ben", "jigsaw", dt=1)  # 14
    assert c(A.PlayWord, "Ann", "jibblewock", dt=1)[-1] == E.LastChallenge((("Ben", "jigsaw"), ("Ann", "jibblewock")), 10)
    assert c(A.Challenge, "Ben", None, dt=2) == [  # 17 against 14 was Ann's second mark; now Ben's first
        E.ChallengeRaised("Ben", "Ann", "jibblewock"),
        E.ChallengeResolved("Ben", "Ann", "jibblewock", False, reason="not_found"),
        E.MarkAwarded("Ben", (("Ann", 1), ("Ben", 1)), "challenge"),
        E.AwaitDraw("Ann", 4)]
    assert not c.game.finished and c.state.phase == "draw" and c.game.settles_at() is None


def test_duel_sentences(table):
    t = table("Ann,Ben", game="prolix-duel", start=None, sections={"prolix": {"duel_marks": 1}})
    assert t("Ann: jibblewock\n[+5] Ben: challenge") == [
        "Ann: jibblewock, noted.", "Ann starts the timer: 45 seconds.",
        "Ben challenges Ann's jibblewock.", "The challenge succeeds: jibblewock is void, it is not in the dictionary.",
        "The mark goes to Ben. Marks: Ann 0, Ben 1.", "Game over. Final scores: Ben 1; Ann 0. Ben wins!"]
    t = table("Ann,Ben", game="prolix-duel", start=None, sections={"prolix": {"duel_marks": 1}})
    assert t("Ann: jewelers\nBen: cowbell\n[+4] Ann: whose turn\nBen: jigsaw\n[+3] Ben: challenge") == [
        "Ann: jewelers, noted.", "Ann starts the timer: 45 seconds.", "Ben: cowbell, noted.",
        "Ann jewelers 15; Ben cowbell 13. Ann takes the mark.", "Marks: Ann 1, Ben 0.",
        "That was the last word. Challenge jewelers and cowbell now, or the final scores come in 10 seconds.",
        "That was the last word. Challenge jewelers and cowbell now, or the final scores come in 6 seconds.",
        "That was the last turn: only a challenge of jewelers and cowbell can change the result now.",
        "Ben challenges Ann's jewelers.", "It's in the dictionary: jewelers stands. Ben's challenge fails.",
        "The mark goes to Ann. Marks: Ann 1, Ben 0.", "Game over. Final scores: Ann 1; Ben 0. Ann wins!"]


# ---------------------------------------------------------------------- Redux
def test_redux_a_challenge_while_the_timer_runs_settles_the_word_at_once(words):
    """Ruling 96 (and 32): any word of the turn in play may be challenged at once."""
    c = redux(words)
    c(A.PlayWord, "Ann", "jewelers", dt=1)
    c(A.PlayWord, "Cat", "jibblewock", dt=1)
    assert c(A.Challenge, "Ben", "Cat", dt=1) == [
        E.ChallengeRaised("Ben", "Cat", "jibblewock"),
        E.ChallengeResolved("Ben", "Cat", "jibblewock", False, reason="not_found", penalty=2)]
    assert c.state.timer.running(c.t) and c.state.phase == "turn"  # the turn goes on
    assert c(A.PlayWord, "Ben", "jigsaw", dt=1)[-2] == E.ReduxScored(  # the last word: the turn ends
        1, "Ann", (("Ann", "jewelers", 15, 0), ("Cat", "jibblewock", 0, -2), ("Ben", "jigsaw", 14, -1)))


def test_redux_the_last_turn_waits_for_a_challenge_before_the_final_scores(words):
    """Ruling 97: the twelfth turn's words stay open to a challenge for the window; each
    may be challenged once, and the end comes once none is left or the window closes."""
    c = redux(words, turns=1)
    c(A.PlayWord, "Ann", "jewelers", dt=1)
    c(A.PlayWord, "Ben", "jigsaw", dt=1)
    said = c(A.PlayWord, "Cat", "jibblewock", dt=1)
    assert said[-2:] == [
        E.ReduxScored(1, "Ann", (("Ann", "jewelers", 15, 0), ("Ben", "jigsaw", 14, -1), ("Cat", "jibblewock", 18, 2))),
        E.LastChallenge((("Ann", "jewelers"), ("Ben", "jigsaw"), ("Cat", "jibblewock")), 10)]
    assert not c.game.finished
    assert c(A.Challenge, "Ann", "Cat", dt=2) == [
        E.ChallengeRaised("Ann", "Cat", "jibblewock"),
        E.ChallengeResolved("Ann", "Cat", "jibblewock", False, reason="not_found", penalty=2),
        E.ReduxScored(1, "Ann", (("Ann", "jewelers", 15, 0), ("Ben", "jigsaw", 14, -1), ("Cat", "jibblewock", 0, -2)))]
    assert c.game.step(A.Query(c.t, "turn", "Ben")) == [E.LastChallenge((("Ann", "jewelers"), ("Ben", "jigsaw")), 8)]
    assert c(A.Challenge, "Cat", "Ann", dt=1)[-1] == (  # jewelers stands: Cat's failed challenge costs 2
        E.ReduxScored(1, "Ann", (("Ann", "jewelers", 15, 0), ("Ben", "jigsaw", 14, -1), ("Cat", "jibblewock", 0, -4))))
    assert c(A.Challenge, "Ann", "Ben", dt=1)[-1] == E.GameOver(  # the last open word: the end at once
        (E.Standing("Ann", 15 - 2), E.Standing("Ben", 14 - 1), E.Standing("Cat", -4)), ("Ann",), "best_word")
    assert c(A.Challenge, "Ben", "Ann", dt=1) == [
        E.Refused("game_over", {"winners": ("Ann",), "total": 13, "unit": "point"}, "Ben")]


def test_redux_the_last_turns_window_closes_with_the_final_scores(words):
    c = redux(words, turns=1)
    c(A.PlayWord, "Ann", "jewelers", dt=1)
    c(A.PlayWord, "Ben", "jigsaw", dt=1)
    assert c.wait(30)[-1] == E.LastChallenge((("Ann", "jewelers"), ("Ben", "jigsaw")), 10)  # Cat had no word
    assert c.game.step(A.PlayWord(c.t, "Cat", "cowbell"))[0].code == "last_word_open"
    assert c.wait(10) == [E.GameOver((E.Standing("Ann", 15), E.Standing("Ben", 13), E.Standing("Cat", 0)), ("Ann",))]


def test_redux_sentences(table):
    t = table("Ann,Ben", game="prolix-redux", sections={"prolix": {"redux_rounds": 1}})
    assert t("Ann: jewelers\n[+1] Ben: jibblewock\n[+2] Ann: challenge\n[+2] Ben: whose turn\n[+1] Ben: time left\n"
             "Ben: jigsaw\n[+3] Ben: challenge\nAnn: challenge") == [
        "Ann: jewelers, noted.", "Ann starts the timer: 30 seconds.", "Ben: jibblewock, noted.",
        "Round 1 scores: Ann jewelers 15; Ben jibblewock 18, plus 2.",
        "That was the last word. Challenge jewelers and jibblewock now, or the final scores come in 10 seconds.",
        "Ann challenges Ben's jibblewock.", "The challenge succeeds: jibblewock is void, it is not in the dictionary.",
        "Round 1 scores: Ann jewelers 15; Ben jibblewock 0, minus 2.",
        "That was the last word. Challenge jewelers now, or the final scores come in 6 seconds.",
        "That was the last word. Challenge jewelers now, or the final scores come in 5 seconds.",
        "That was the last turn: only a challenge of jewelers can change the result now.",
        "Ben challenges Ann's jewelers.",
        "It's in the dictionary: jewelers stands. Ben's challenge fails and costs 2 points at the end.",
        "Round 1 scores: Ann jewelers 15; Ben jibblewock 0, minus 4.",
        "Game over. Final scores: Ann 15; Ben -4. Ann wins!",  # nothing left to challenge: the end at once
        "The game is over: Ann won with 15."]  # the window has closed with the game
