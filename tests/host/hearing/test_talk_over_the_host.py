"""Talk heard over the host's own voice, and not surely: a word the host's voice
garbled. With the laptop's speaker heard back, held-out players' words said while the
host still announced the last move were heard "thank you", "yeah" or "say again" and
lost without a word; a scorekeeper who talked over a player asks them to say it again
(ruling 100)."""

from __future__ import annotations

import support

from voice_host.host.hearing import Hearing, HearingSettings
from voice_host.messages import Said

spoke, said = support.spoke, support.said


def over_the_host(u: support.Heard) -> support.Heard:
    """``u``, begun as the host spoke, with the host's voice heard back under it."""
    u.barged = True
    return u


def unsure_talk(start: float, text: str, speaker: str = "Ann", confidence: float = 0.5) -> support.Heard:
    """What a constrained recognizer made of a word the host's voice garbled: talk, unsure."""
    return support.Heard(start, text, speaker, confidence=confidence, constrained=True,
                         alternatives=[(text, 0.0), ("jewelers", -2.0)])


def test_unsure_talk_said_over_the_host_is_asked_for_again_and_the_word_said_then_counts(table):
    t = table()
    hearing = Hearing(t.session, t.session.words, HearingSettings(), host_speech=spoke((9.5, 10.4)))
    assert said(t, hearing, unsure_talk(10, "thank you")) == ["Sorry, I was talking. Say that again?"]
    assert hearing.question is not None and hearing.question.kind == "again"
    out = said(t, hearing, support.Heard(13, "jewelers", "Ann"))
    assert "Ann scores 15 points for jewelers." in out
    assert t.game.state.used == [("jewelers", "Ann")]


def test_unsure_questions_and_answers_nobody_asked_for_over_the_host_are_asked_for_again(table):
    for text in ("yeah", "say again", "what's the time"):
        t = table()
        hearing = Hearing(t.session, t.session.words, HearingSettings(), host_speech=spoke((9.5, 10.4)))
        assert said(t, hearing, unsure_talk(10, text)) == ["Sorry, I was talking. Say that again?"], text


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


JEWELERS = ["jewelers, spelled J E W E L E R S.", "Ann scores 15 points for jewelers.",
            "Ann, draw 2 tiles and tell me the letters."]
"""What the host says for Ann's jewelers, heard in her voice."""


def drowned(start: float, speaker: str | None = "Ann", method: str | None = "channel") -> support.Heard:
    """What the host stopped talking for, then heard only as its own words (no text), on
    ``speaker``'s own microphone (``method``: how the speaker was found)."""
    return support.Heard(start, "", speaker, ask=speaker is None, speaker_method=method, confidence=0.0,
                         drowned=True)


def test_an_unsure_word_said_over_the_host_is_asked_for_again_not_asked_about(table):
    """Live, with the host's voice heard back, a word said over it is heard garbled: Dee's
    "prescribe" was heard "battery" at 2%, and "Did you say battery or batteries?" offered
    her two words she never said. Said again, the host quiet, it is heard as said."""
    t = table()
    hearing = Hearing(t.session, t.session.words, HearingSettings(), host_speech=spoke((9.5, 10.4)))
    heard = over_the_host(support.unsure(10, "battery", ["battery", "batteries"], confidence=0.02))
    assert said(t, hearing, heard) == ["Sorry, I was talking. Say that again?"]
    assert said(t, hearing, support.Heard(13, "jewelers", "Ann")) == JEWELERS
    assert t.game.state.used == [("jewelers", "Ann")]


def test_an_unsure_word_over_the_host_in_an_unsure_voice_is_one_question_of_anyone(table):
    """Under the host's voice, the voice print is as unsure as the word: "Was that Gus?"
    then "Did you say battery?" was two questions about a word nobody said. One question
    to the table, and the word said then is its speaker's."""
    t = table()
    hearing = Hearing(t.session, t.session.words, HearingSettings(), host_speech=spoke((9.5, 10.4)))
    heard = support.Heard(10, "battery", "Ben", ask=True, barged=True, confidence=0.02, constrained=True,
                          alternatives=[("battery", 0.0)])
    assert said(t, hearing, heard) == ["Sorry, I was talking. Say that again?"]
    out = said(t, hearing, support.Heard(13, "jewelers", "Ann"))
    assert out == JEWELERS and t.game.state.used == [("jewelers", "Ann")]


def test_a_word_heard_surely_over_the_host_is_played_and_one_in_a_quiet_room_still_asked_about(table):
    t = table()
    hearing = Hearing(t.session, t.session.words, HearingSettings(), host_speech=spoke((9.5, 10.4)))
    assert said(t, hearing, support.Heard(10, "jewelers", "Ann")) == JEWELERS
    t = table()
    hearing = Hearing(t.session, t.session.words, HearingSettings(), host_speech=spoke((9.5, 10.4)))
    assert said(t, hearing, support.unsure(20, "cheers", ["cheers", "chews"])) == ["Did you say cheers or chews?"]


def test_a_sure_word_over_the_host_in_an_unsure_voice_asks_only_who(table):
    t = table()
    hearing = Hearing(t.session, t.session.words, HearingSettings(), host_speech=spoke((9.5, 10.4)))
    assert said(t, hearing, support.Heard(10, "jewelers", "Ben", ask=True)) == ["Was that Ben?"]


def test_an_unnamed_word_said_again_in_an_unsure_voice_is_asked_who_said_it(table):
    t = table()
    hearing = Hearing(t.session, t.session.words, HearingSettings(), host_speech=spoke((9.5, 10.4)))
    said(t, hearing, drowned(10, speaker=None))
    assert said(t, hearing, support.Heard(13, "jewelers", "Ben", ask=True)) == ["Was that Ben?"]
    assert "Ben interrupts Ann with jewelers: 15, minus 2, scores 13." in said(t, hearing, support.Heard(15, "yes", "Ben"))
    assert t.game.state.used == [("jewelers", "Ben")]


def test_a_word_drowned_by_the_hosts_voice_is_asked_for_again_and_the_word_said_then_counts(table):
    t = table()
    hearing = Hearing(t.session, t.session.words, HearingSettings(), host_speech=spoke((9.5, 10.4)))
    assert said(t, hearing, drowned(10, method="channel")) == ["Sorry, Ann, I was talking. Say that again?"]
    assert said(t, hearing, support.Heard(13, "jewelers", "Ann")) == JEWELERS
    assert t.game.state.used == [("jewelers", "Ann")]


def test_a_drowned_word_is_anyones_to_say_again_unless_its_microphone_says_whose(table):
    """Live, with the host's voice heard back: what the host stopped for and heard only
    as its own words was mostly its own voice, and the voice print named the wrong
    player ("Sorry, Dee" for Gus's word, which Dee then answered). A microphone of one
    player's own still names them."""
    t = table()
    hearing = Hearing(t.session, t.session.words, HearingSettings(), host_speech=spoke((9.5, 10.4)))
    assert said(t, hearing, drowned(10, method="voiceprint")) == ["Sorry, I was talking. Say that again?"]


def test_a_drowned_word_in_a_voice_the_host_is_unsure_of_is_anyones_to_say_again(table):
    t = table()
    hearing = Hearing(t.session, t.session.words, HearingSettings(), host_speech=spoke((9.5, 10.4)))
    assert said(t, hearing, drowned(10, speaker=None)) == ["Sorry, I was talking. Say that again?"]
    out = said(t, hearing, support.Heard(13, "jewelers", "Ben"))
    assert "Ben interrupts Ann with jewelers: 15, minus 2, scores 13." in out
    assert t.game.state.used == [("jewelers", "Ben")]


def test_a_drowned_word_nobody_says_again_is_let_go_without_a_word(table):
    """The host may have stopped for its own echo: nobody answers, and nothing is said
    or played; the next word is heard as usual."""
    t = table()
    hearing = Hearing(t.session, t.session.words, HearingSettings(), host_speech=spoke((9.5, 10.4)))
    said(t, hearing, drowned(10))
    hearing.tick(10 + HearingSettings().answer_within + 5)
    assert hearing.question is None and t.heard[-1] == "Sorry, Ann, I was talking. Say that again?"
    assert t.game.state.used == []
    assert said(t, hearing, support.Heard(30, "jewelers", "Ann")) == JEWELERS


def test_a_drowned_word_while_the_host_waits_on_an_answer_asks_nothing_new(table):
    t = table()
    hearing = Hearing(t.session, t.session.words, HearingSettings(), host_speech=spoke((9.5, 10.4), (12.0, 13.0)))
    said(t, hearing, unsure_talk(10, "thank you"))
    asked = hearing.question
    assert said(t, hearing, drowned(12.5, speaker="Ben")) == []
    assert hearing.question is asked


def test_a_drowned_word_its_speaker_says_no_to_is_let_go_without_a_word(table):
    """"Sorry, I was talking. Say that again?" -- "No.": there may have been no word,
    so nothing is left out by name ("I'll leave it out, None.")."""
    t = table()
    hearing = Hearing(t.session, t.session.words, HearingSettings(), host_speech=spoke((9.5, 10.4)))
    said(t, hearing, drowned(10, speaker=None))
    assert said(t, hearing, support.Heard(12, "no", "Ben")) == []
    assert hearing.question is None and t.game.state.used == []


def test_words_that_make_no_word_heard_unsurely_over_the_host_are_asked_for_again(table):
    """Live, with the host's voice heard back: Dee's "adolescent", said as the host
    named her turn, was heard "no adolescent" at 63% and refused as "I didn't catch a
    word in 'no adolescent'. Say just the word, or 'play' and the word." The host
    talked over it: it asks for it again, as for any word it talked over."""
    t = table()
    hearing = Hearing(t.session, t.session.words, HearingSettings(), host_speech=spoke((9.5, 10.4)))
    heard = over_the_host(support.unsure(10, "no adolescent", ["no adolescent"], confidence=0.63))
    assert said(t, hearing, heard) == ["Sorry, I was talking. Say that again?"]
    assert said(t, hearing, support.Heard(13, "jewelers", "Ann")) == JEWELERS


def test_words_that_make_no_word_are_refused_when_heard_surely_or_with_the_host_quiet(table):
    unclear = "I didn't catch a word in 'no adolescent'. Say just the word, or 'play' and the word."
    for start, confidence in ((10, 0.95), (20, 0.63)):
        t = table()
        hearing = Hearing(t.session, t.session.words, HearingSettings(), host_speech=spoke((9.5, 10.4)))
        heard = support.unsure(start, "no adolescent", ["no adolescent"], confidence=confidence)
        assert said(t, hearing, heard)[-1] == unclear, (start, confidence)
        assert hearing.question is None


def test_a_word_said_again_unsurely_is_asked_about_not_asked_for_once_more(table):
    """Live: Eli's "braking" heard "breaking" at 23% over the host was asked for again,
    and each time he said it again, heard at 47-51% in quiet, the host asked once more
    ("Sorry, Eli, I was talking ..." four times): the word said again was measured
    from the first try, over the host's own question."""
    t = table()
    hearing = Hearing(t.session, t.session.words, HearingSettings(), host_speech=spoke((9.5, 10.4), (10.8, 13.0)))
    said(t, hearing, over_the_host(support.unsure(10, "cheers", ["cheers", "chews"], confidence=0.23)))
    assert said(t, hearing, support.unsure(14, "cheers", ["cheers", "chews"], confidence=0.47)) == \
        ["Did you say cheers or chews?"]


def test_a_word_asked_for_again_over_the_host_and_never_said_leaves_nothing_said_and_blames_no_room(table):
    """Live: after a word the host had talked over went unanswered, the host told the
    table "It's too loud for me to hear you all from here ...": a word the host's own
    voice drowned says nothing of the room."""
    t = table()
    spans = [(9.5 + 10 * i, 10.4 + 10 * i) for i in range(4)]
    hearing = Hearing(t.session, t.session.words, HearingSettings(), host_speech=spoke(*spans))
    for i in range(4):
        said(t, hearing, over_the_host(support.unsure(10 + 10 * i, "cheers", ["cheers", "chews"], confidence=0.2)))
        hearing.tick(10 + 10 * i + HearingSettings().answer_within + 2)
    assert t.heard.count("Sorry, I was talking. Say that again?") == 4
    assert not any("too loud" in line or "leave it out" in line for line in t.heard), t.heard


def test_a_free_reading_heard_over_the_host_is_asked_for_again(table):
    """Live, with the host's voice heard back: Fay's first word, "investigator", said as
    the host named her turn, fit no sentence of the game and was read freely as "yes"
    (9%): "Nobody asked a yes or no question." and the word was lost."""
    t = table()
    hearing = Hearing(t.session, t.session.words, HearingSettings(), host_speech=spoke((9.5, 10.4)))
    heard = support.Heard(10, "yes", "Ann", confidence=0.09)
    assert said(t, hearing, heard) == ["Sorry, I was talking. Say that again?"]
    t = table()
    hearing = Hearing(t.session, t.session.words, HearingSettings(), host_speech=spoke((9.5, 10.4)))
    assert said(t, hearing, support.Heard(20, "yes", "Ann", confidence=0.09)) == ["Nobody asked a yes or no question."]


def test_a_word_over_the_host_the_host_would_take_as_heard_is_taken(table):
    """Over the host as in quiet, a word the recognizer was fairly sure of, with no other
    reading near it, is taken and said in the score: its player may put it right."""
    t = table()
    hearing = Hearing(t.session, t.session.words, HearingSettings(), host_speech=spoke((9.5, 10.4)))
    out = said(t, hearing, over_the_host(support.unsure(10, "jewelers", ["jewelers"], confidence=0.7)))
    assert "Ann scores 15 points for jewelers." in out and not any("talking" in line for line in out)


def test_what_the_host_stopped_for_is_said_over_it_however_soon_it_stopped(table):
    """Live, with the host's voice heard back: the host stopped within a tenth of a
    second of a player's first sound, yet its echo and the room's tail garbled the word:
    "slow down" at 49% for "showdown" was taken as a request of the host, "wait a second"
    at 40% for "adolescent" answered as talk ("Was that Eli?" ... "Take your time.")."""
    for text in ("slow down", "wait a second"):
        t = table()
        hearing = Hearing(t.session, t.session.words, HearingSettings(), host_speech=spoke((9.5, 10.05)))
        heard = support.Heard(10, text, "Ann", confidence=0.45, constrained=True, alternatives=[(text, 0.0)],
                              barged=True)
        assert said(t, hearing, heard) == ["Sorry, I was talking. Say that again?"], text
        t = table()
        hearing = Hearing(t.session, t.session.words, HearingSettings(), host_speech=spoke((9.5, 10.05)))
        heard = support.Heard(10, text, "Ann", confidence=0.45, constrained=True, alternatives=[(text, 0.0)])
        assert said(t, hearing, heard) != ["Sorry, I was talking. Say that again?"], text


def test_what_the_host_talked_over_is_anyones_to_say_again_so_no_word_waits_on_a_voice_guessed_wrong(table):
    """Live: Dee's "No, hubs", said over the host, was heard "no perhaps" in Gus's voice
    and asked of Gus; Dee's answer then waited ("One moment, Dee: Gus's word first."),
    and Gus's next play was taken for the word asked for. Under the host's voice the
    voice print is as unsure as the word: the question is the table's."""
    t = table()
    hearing = Hearing(t.session, t.session.words, HearingSettings(), host_speech=spoke((9.5, 10.4)))
    heard = over_the_host(support.unsure(10, "no perhaps", ["no perhaps"], confidence=0.79, speaker="Ben"))
    assert said(t, hearing, heard) == ["Sorry, I was talking. Say that again?"]
    assert said(t, hearing, support.Heard(13, "jewelers", "Ann")) == JEWELERS


def test_a_word_said_again_to_the_table_is_played_when_it_is_said(table):
    """Live, with the host's voice heard back, the host stopped for its own voice ("all
    right" at 56%, nobody had spoken) and asked the table to say it again; Gus's "fact",
    said 5 s later, was played at the time of that echo. What the table is asked to say
    again may have been nobody's word: the word said then is played when it is said."""
    t = table()
    hearing = Hearing(t.session, t.session.words, HearingSettings(), host_speech=spoke((9.5, 10.4)))
    assert said(t, hearing, over_the_host(unsure_talk(10, "all right", "Ben"))) == \
        ["Sorry, I was talking. Say that again?"]
    assert said(t, hearing, support.Heard(15, "jewelers", "Ann")) == JEWELERS
    assert [r.t for r in t.session.records if isinstance(r, Said)] == [15]


def test_what_the_host_talked_over_on_a_players_own_microphone_is_asked_of_them(table):
    t = table()
    hearing = Hearing(t.session, t.session.words, HearingSettings(), host_speech=spoke((9.5, 10.4)))
    heard = support.Heard(10, "battery", "Ann", speaker_method="channel", barged=True, confidence=0.02, constrained=True,
                          alternatives=[("battery", 0.0)])
    assert said(t, hearing, heard) == ["Sorry, Ann, I was talking. Say that again?"]
    assert said(t, hearing, support.Heard(13, "jewelers", "Ann")) == JEWELERS
    assert [r.t for r in t.session.records if isinstance(r, Said)] == [10]  # her word, first said then


def test_an_unsure_word_over_a_host_not_heard_back_is_asked_about_as_in_quiet(table):
    """Headphones, a null sink: the host's voice never reached the microphone, so what
    was heard of the word is as good as in quiet, and its readings are offered."""
    t = table()
    hearing = Hearing(t.session, t.session.words, HearingSettings(), host_speech=spoke((9.5, 10.4)))
    heard = support.unsure(10, "battery", ["battery", "batteries"], confidence=0.02)
    assert said(t, hearing, heard) == ["Did you say battery or batteries?"]


def test_what_is_no_word_said_while_the_table_is_asked_again_never_waits_on_nobody(table):
    """"Sorry, I was talking. Say that again?" is nobody's in particular: "challenge"
    was held with "One moment, Ben: None's word first.", and so was a stray "yes". A
    command is heard at once (the host lets its question go); "yes" waits for no one."""
    t = table()
    t("Ann: jewelers")
    hearing = Hearing(t.session, t.session.words, HearingSettings(), host_speech=spoke((19.5, 20.4)))
    said(t, hearing, drowned(20, method="voiceprint"))
    out = said(t, hearing, support.Heard(21, "challenge", "Ben"))
    assert not any("None" in line or "One moment" in line for line in out), out
    assert hearing.question is None and any("challenge" in line.lower() for line in out), out
    t = table()
    hearing = Hearing(t.session, t.session.words, HearingSettings(), host_speech=spoke((9.5, 10.4)))
    said(t, hearing, drowned(10, method="voiceprint"))
    assert not any("None" in line or "One moment" in line for line in said(t, hearing, support.Heard(12, "yes", "Ben")))
