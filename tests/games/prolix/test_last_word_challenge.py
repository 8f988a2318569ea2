"""The rules' share: the last word of a Classic game can be challenged before
the final scores (ruling 65)."""

from __future__ import annotations

from support import Core

from voice_host.games.prolix import actions as A
from voice_host.games.prolix import events as E


def last_round(words, **options) -> Core:
    """One round for three players on the host's own bag, Ann and Ben already played."""
    core = Core(words, board=None, settle=False, sections={"prolix": {"rounds_3_players": 1, **options}})
    for player, word in (("Ann", "jewelers"), ("Ben", "cowbell")):
        core(A.PlayWord, player, word, dt=1)
        core.wait(1)
    return core


def kinds(events) -> list[str]:
    return [type(e).__name__ for e in events]


def test_the_last_word_waits_for_a_challenge_before_the_final_scores(words):
    core = last_round(words)
    core(A.PlayWord, "Cat", "xyzzy", dt=1)
    said = core.wait(1)
    assert kinds(said) == ["WordScored", "RoundOver", "LastChallenge"]
    assert said[-1] == E.LastChallenge((("Cat", "xyzzy"),), 10)
    assert not core.game.finished and core.game.result()["finished"] is False
    assert kinds(core.game.step(A.PlayWord(core.t, "Ann", "dig"))) == ["Refused"]  # no more words
    assert core.game.step(A.Query(core.t, "turn", "Ann")) == [E.LastChallenge((("Cat", "xyzzy"),), 10)]
    voided = core(A.Challenge, "Ann", None, dt=2)  # xyzzy is no word: Cat plays the last turn again
    assert kinds(voided) == ["ChallengeRaised", "ChallengeResolved", "BoardShown", "TurnStarted"]
    assert voided[-1] == E.TurnStarted("Cat", 1, again=True)
    core(A.PlayWord, "Cat", "dig", dt=1)
    assert kinds(core.wait(1)) == ["WordScored", "RoundOver", "LastChallenge"]
    assert kinds(core.wait(9)) == []
    over = core.wait(1)  # ten seconds after the last word was scored
    assert kinds(over) == ["GameOver"] and core.game.finished
    assert core.game.settles_at() is None


def test_a_failed_challenge_of_the_last_word_ends_the_game_at_once(words):
    core = last_round(words)
    core(A.PlayWord, "Cat", "dig", dt=1)  # said at 5, scored when the tie window closes at 5.5
    core.wait(1)
    assert core.t == 6 and core.game.settles_at() == 5.5 + 10
    before = core.game.totals("Ann")[0]
    said = core(A.Challenge, "Ann", None, dt=3)
    assert kinds(said) == ["ChallengeRaised", "ChallengeResolved", "GameOver"]
    assert core.game.finished and core.game.totals("Ann")[0] == before - 2  # the failed challenge costs 2


def test_a_last_turn_lost_to_the_timer_ends_the_game_at_once(words):
    core = last_round(words)
    core(A.FlipTimer, "Ann", dt=1)
    core.wait(45)  # Cat says nothing: the timer interrupts her, and she goes again
    core(A.FlipTimer, "Ann", dt=1)
    said = core.wait(45)  # nothing again: her turn is lost, and there is no word to challenge
    assert kinds(said) == ["TimerExpired", "TurnLost", "RoundOver", "GameOver"]


def test_a_table_may_close_the_last_words_window(words):
    core = last_round(words, last_challenge_window=0)
    core(A.PlayWord, "Cat", "dig", dt=1)
    assert kinds(core.wait(1)) == ["WordScored", "RoundOver", "GameOver"]
