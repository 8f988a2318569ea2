"""The rules a table found wrong in one evening: game over is over, a voided
duel word leaves the word list, Redux's timer follows --timer."""

from __future__ import annotations

from support import Table, by_name

from voice_host.games import actions as A
from voice_host.games import events as E


def session(words, game="prolix-classic", players="Ann,Ben,Cat", **prolix):
    """(the session, run(script) -> the sentences said), no table setup."""
    t = Table(words, players, board=None, start=None, game=game, sections={"prolix": prolix})
    return t.session, t


ONE_ROUND = """
@start Ann
@board W B J S L C D G
Ann: jewelers
@draw M N
Ben: cowbell
@draw R T
Cat: zzyzx
"""


def test_game_over_is_over_a_challenge_after_the_end_changes_nothing(words):
    s, run = session(words, rounds_3_players=1)
    said = run(ONE_ROUND)
    assert said[-1] == "Game over. Final scores: Ann 15; Ben 9; Cat 0. Ann wins!"
    before = s.result()
    # in the core: a challenge of the last word (zzyzx is no word) is refused, nothing moves
    events = s.game.step(A.Challenge(s.t + 1, "Ann"))
    assert events == [E.Refused("game_over", {"winners": ("Ann",), "total": 15, "unit": "point"}, "Ann")]
    assert s.result() == before
    # at the table: every input is answered with the result, and changes nothing
    assert run("Ann: challenge\nBen: challenge Cat\nCat: timer\nBen: jewels") == [
        "The game is over: Ann won with 15."] * 4
    assert run("Ben: scores") == ["Game over. Final scores: Ann 15; Ben 9; Cat 0. Ann wins!"]
    assert s.result() == before and by_name(before)["Ann"]["failed_challenges"] == 0


def test_solo_after_the_end_says_the_score(words):
    s, run = session(words, game="prolix-solo", players="Ann", solo_targets=[40])
    run("@board W B J S L C D G\nAnn: my word is jewelers")
    assert s.game.finished
    assert run("Ann: jewels") == ["The game is over: Ann finished with 15."]


def test_a_voided_duel_word_leaves_the_words_list(words):
    s, run = session(words, game="prolix-duel", players="Ann,Ben")
    run("@board W B J S L C D G\nAnn: jewelers\nBen: jibblewock")
    assert run("Ann: words") == ["Words played: jewelers by Ann, jibblewock by Ben."]
    said = run("Ann: challenge")
    assert "The challenge succeeds: jibblewock is void, it is not in the dictionary." in said
    assert run("Ann: words") == ["Words played: jewelers by Ann."]
    assert s.game.step(A.Query(s.t, "words")) == [E.WordsReport((("jewelers", "Ann"),))]


def test_redux_takes_the_timer_from_the_command_line(play):
    _, lines = play("@start Ann\n@board W B J S L C D G\nAnn: jewelers\n@wait 11\n", "Ann,Ben",
                    "--timer", "10", game="prolix-redux")
    assert "Ann starts the timer: 10 seconds." in lines
    assert "Time!" in lines and "Round 1 scores: Ann jewelers 15." in lines
