"""Talk at the table is never a play: "wait", "sorry?", "next", "thanks" ... are answered
as talk, typed or heard, in every game; said as a play ("play wait", "my word is wait",
a name first when heard) they count. A filler before a word is the word."""

from __future__ import annotations

import pytest
from support import Heard

from voice_host.host.hearing import Hearing, HearingSettings

TALK = ("wait", "hold on", "pause", "stop", "sorry", "pardon", "what", "huh", "next", "skip", "done", "ready", "go",
        "okay", "thanks", "thank you", "never mind")
"""The talk every table has (the ruling's list)."""

GAMES = {
    "prolix-classic": dict(players="Ann,Ben,Cat"),
    "prolix-solo": dict(players="Ann", start=None),
    "prolix-duel": dict(players="Ann,Ben"),
    "prolix-redux": dict(players="Ann,Ben,Cat"),
    "phlounder": dict(players="Ann,Ben", start=None, board=None),
    "dexikon": dict(players="Ann,Ben", start=None, board=None),
    "road": dict(players="Ann,Ben", board=None),
}


def snapshot(t) -> tuple:
    """Everything a play could change: the scores and words, the phase, whose turn."""
    state = t.game.state
    return t.game.result(), str(state.phase), getattr(state, "pos", None), len(t.session.undoable)


@pytest.mark.parametrize("game", GAMES)
@pytest.mark.parametrize("heard", [False, True], ids=["typed", "heard"])
def test_talk_never_scores_interrupts_or_ends_a_turn(table, game, heard):
    t = table(game=game, **GAMES[game])
    t("Ann: scores")  # the game has begun
    for talker in t.session.players:
        for talk in TALK:
            before = snapshot(t)
            said = t(f"{talker}: {talk}", heard=heard)
            assert snapshot(t) == before, f"{talker}: {talk} changed the game: {said}"
            assert not any(" scores " in s or "interrupts" in s for s in said), (talk, said)


def test_talk_is_answered_as_a_human_host_would(table):
    t = table()
    assert t("Ben: wait") == ["Take your time."]
    assert t("Cat: hold on") == ["Take your time."]
    assert t("Ann: thanks") == []
    assert t("Ann: okay") == []
    assert t("Ben: next") == t("Ann: whose turn") == ["Round 1: Ann's turn."]
    scores = t("Cat: scores")
    assert t("Ben: sorry") == scores  # "sorry?": said again
    assert t("Ben: what") == scores
    assert t("Ben: huh") == scores


def test_talk_said_as_a_play_counts(table):
    t = table()
    assert t("Ann: play go")[0] == "Ann scores 1 point for go."
    t("@board W B J S L C D G")
    assert t("Ben: my word is wait")[0] == "Ben scores 5 points for wait."
    assert [w for w, _ in t.state.used] == ["go", "wait"]


def test_a_filler_before_a_word_is_the_word(table):
    t = table()
    assert t("Ann: um jewelers")[0] == "Ann scores 15 points for jewelers."
    t("@board W B J S L C D G")
    assert t("Ben: uh, erm, jigsaw")[0] == "Ben scores 14 points for jigsaw."
    assert t("Cat: um") == []


def test_a_player_asked_a_question_who_says_wait_keeps_it_open(table):
    t = table()
    t("@board W B J S L C D G\nAnn: jewelers\n@board W B J S L C D G")
    asked = t("Cat: go", heard=True)  # a worthless interrupt of Ben is asked about, heard
    assert asked == []  # talk: no question, no interrupt
    assert t.state.active == "Ben" and t.total("Cat") == 0


@pytest.fixture
def ear(table):
    t = table()
    t("Ann: scores")  # the game has begun
    return t, Hearing(t.session, t.session.words, HearingSettings())


def hear(t, hearing, *utterances) -> list[str]:
    before = len(t.heard)
    for u in utterances:
        hearing.hear(u)
    hearing.tick(utterances[-1].start + 1)
    return t.heard[before:]


def test_heard_talk_is_answered_and_nothing_is_played(ear):
    t, hearing = ear
    assert hear(t, hearing, Heard(10, "Wait!", "Cat")) == ["Take your time."]
    assert hear(t, hearing, Heard(12, "Next.", "Ben")) == ["Round 1: Ann's turn."]
    assert hear(t, hearing, Heard(14, "Thank you.", "Ben")) == []
    assert t.state.used == [] and t.state.active == "Ann"


def test_heard_talk_with_a_name_first_is_that_players_play(ear):
    t, hearing = ear
    said = hear(t, hearing, Heard(10, "Ann, go.", None))
    assert "Ann scores 1 point for go." in said
    assert t.state.used == [("go", "Ann")]


def test_a_heard_filler_before_a_word_is_the_word(ear):
    t, hearing = ear
    assert "Ann scores 15 points for jewelers." in hear(t, hearing, Heard(10, "Um, jewelers."))


def test_wait_while_the_host_asks_about_a_word_keeps_the_question_open(ear):
    t, hearing = ear
    match = t.session.words.match("flummocks")
    first, second = [w for w, _ in match.alternatives[:2]]
    assert hear(t, hearing, Heard(10, "flummocks")) == [f"Did you say {first} or {second}?"]
    assert hear(t, hearing, Heard(11, "Hold on.")) == ["Take your time."]
    assert hearing.question is not None and t.state.used == []
    hear(t, hearing, Heard(13, "yes"))
    assert t.state.used == [(first, "Ann")]


def test_every_filler_alone_is_talk():
    from voice_host.host import intents

    assert {intents.parse(f, ["Ann"]).kind for f in intents.FILLERS} == {"thanks"}
