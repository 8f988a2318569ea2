"""Phlounder's illegal bell is scored at once."""

from __future__ import annotations

from support import Table

from voice_host.games import actions as A
from voice_host.games.phlounder import events as E


def session(words, game="phlounder", players="Ann,Ben,Cat", **section):
    """(the session, run(script) -> the sentences said), no table setup."""
    t = Table(words, players, board=None, start=None, game=game, sections={game: section})
    return t.session, t


def test_a_challenged_ringer_scores_the_round_at_once(words):
    s, run = session(words)
    run("@dice 5N\nAnn: bell\nAnn: zzzzq")
    events = s.game.step(A.Challenge(s.t + 1, "Ben"))
    scored = [e for e in events if isinstance(e, E.PhlounderScored)]
    assert len(scored) == 1 and scored[0].legal is False
    assert scored[0].sides == (("Ann", -5), ("Ben", 7), ("Cat", 7))
    assert s.game.state.phase == "roll" and s.game.state.round.number == 2


def test_after_an_illegal_bell_the_next_dice_are_heard_and_late_reports_answered(words):
    s, run = session(words)
    said = run("""
        @dice 5N
        @dice 6V
        Ann: bell
        Ann: zzzzq
        Ben: challenge
        Cat: hello, unused 1
        @dice 6V
        Ben: roll
    """)
    assert said[3:] == [
        "The dice are rolled: a 5-letter noun. Say bell when your word is done.",
        "Bell! Ann, your word? Ben and Cat: your words and unused letters.",
        "Ann: zzzzq.",
        "Ben challenges Ann's zzzzq.",
        "The challenge succeeds: zzzzq is void, it is not in the dictionary.",
        "Round 1: Ann's bell was illegal, Ann's zzzzq: it is not in the dictionary. Ann minus 5; Ben plus 7; Cat plus 7.",
        "End of round 1. Scores: Ben 7; Cat 7; Ann -5.",
        "Round 2 of 11: Ben, say roll when you're ready.",
        "Round 1 is already scored: the bell was illegal, so no other words count. Say roll for the next round.",
        "The dice say: a 6-letter verb. Go!",
        "The dice are rolled: a 6-letter verb. Say bell when your word is done.",
    ]
    result = s.result()
    assert result["round_scores"] == [{"round": 1, "dice": "5N", "ringer": "Ann", "legal": False,
                                       "scores": {"Ann": -5, "Ben": 7, "Cat": 7}}]


def test_a_ringer_reporting_unused_letters_ends_the_round_at_once(words):
    s, run = session(words)
    said = run("@dice 5N\nBen: bell\nBen: table, unused 1")
    assert said[-3:] == [
        "Round 1: Ben's bell was illegal, Ben left letters unused. Ben minus 5; Cat plus 7; Ann plus 7.",
        "End of round 1. Scores: Ann 7; Cat 7; Ben -5.",
        "Round 2 of 11: Ben, say roll when you're ready.",
    ]
