"""Talk heard over the host's own voice, and not surely: a word the host's voice
garbled. With the laptop's speaker heard back, held-out players' words said while the
host still announced the last move were heard "thank you", "yeah" or "say again" and
lost without a word; a scorekeeper who talked over a player asks them to say it again
(ruling 100)."""

from __future__ import annotations

import support

from voice_host.host.hearing import Hearing, HearingSettings

spoke, said = support.spoke, support.said


def unsure_talk(start: float, text: str, speaker: str = "Ann", confidence: float = 0.5) -> support.Heard:
    """What a constrained recognizer made of a word the host's voice garbled: talk, unsure."""
    return support.Heard(start, text, speaker, confidence=confidence, constrained=True,
                         alternatives=[(text, 0.0), ("jewelers", -2.0)])


def test_unsure_talk_said_over_the_host_is_asked_for_again_and_the_word_said_then_counts(table):
    t = table()
    hearing = Hearing(t.session, t.session.words, HearingSettings(), host_speech=spoke((9.5, 10.4)))
    assert said(t, hearing, unsure_talk(10, "thank you")) == ["Sorry, Ann, I was talking. Say that again?"]
    assert hearing.question is not None and hearing.question.kind == "again"
    out = said(t, hearing, support.Heard(13, "jewelers", "Ann"))
    assert "Ann scores 15 points for jewelers." in out
    assert t.game.state.used == [("jewelers", "Ann")]


def test_unsure_questions_and_answers_nobody_asked_for_over_the_host_are_asked_for_again(table):
    for text in ("yeah", "say again", "what's the time"):
        t = table()
        hearing = Hearing(t.session, t.session.words, HearingSettings(), host_speech=spoke((9.5, 10.4)))
        assert said(t, hearing, unsure_talk(10, text)) == ["Sorry, Ann, I was talking. Say that again?"], text


def test_talk_heard_surely_or_away_from_the_host_is_talk(table):
    t = table()
    hearing = Hearing(t.session, t.session.words, HearingSettings(), host_speech=spoke((9.5, 10.4)))
    assert said(t, hearing, unsure_talk(10, "wait", confidence=0.95)) == ["Take your time."]  # sure: talk
    assert said(t, hearing, unsure_talk(20, "wait")) == ["Take your time."]  # the host was quiet: talk
    assert hearing.question is None and t.game.state.used == []


def test_a_game_command_said_over_the_host_is_never_turned_into_a_question(table):
    t = table()
    t("Ann: jewelers")
    hearing = Hearing(t.session, t.session.words, HearingSettings(), host_speech=spoke((19.5, 20.4)))
    out = said(t, hearing, unsure_talk(20, "challenge", speaker="Ben"))
    assert "Sorry, Ben, I was talking. Say that again?" not in out
    assert hearing.question is None
