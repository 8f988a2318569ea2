"""benchmarks/table.py's table that answers, said live: a player's answer waits until the
host has said what it answers, then a short pause, as a player at a table lets the host
finish its question."""

from __future__ import annotations


import numpy as np
import pytest

RATE = 16000


@pytest.fixture(scope="module")
def table():
    import table

    return table


def test_an_answer_waits_until_the_host_has_said_what_it_answers(table):
    word = np.full(RATE // 2, 0.5, np.float32)  # a scripted word, said 1 s in
    conv = table.Conversation([(1.0, word, ("Ann", "jewelers"))])
    conv.offset = 10.0  # the microphone's time of the first sample
    host_done = []
    chunks = iter(conv)
    for _ in range(20):  # 2 s: the word has been said; the host asks about it
        next(chunks)
    conv.answer(np.full(RATE // 4, 0.5, np.float32), table.Reply(("Ann", "jewelers"), False), lambda: bool(host_done))
    for _ in range(30):  # the host is still asking: nothing is said
        assert not next(chunks).samples.any()
    host_done.append(True)
    start = next(i for i in range(30) if next(chunks).samples.any())
    assert start == pytest.approx(conv.PAUSE * 10, abs=1)  # after the pause, in tenths of a second
    (word_at, _, said), (answer_at, _, reply) = conv.placed
    assert said == ("Ann", "jewelers") and word_at == pytest.approx(11.0, abs=0.05)  # on the host's clock
    assert reply.about == ("Ann", "jewelers") and answer_at == pytest.approx(10.0 + 5.0 + conv.PAUSE, abs=0.15)


def test_live_a_player_introduces_themself_once_the_host_has_asked_them(table):
    class Voice:  # the host's voice as the benchmark sees it: what it said, and when
        def __init__(self):
            self.history, self.speaking, self.now = [], False, 0.0

        def clock(self):
            return self.now

    class Said:
        def __init__(self, text, end):
            self.text, self.end = text, end

    voice = Voice()
    ready = table._asked_for(voice, "Eli")
    assert not ready()  # the host has not asked yet
    voice.history.append(Said("Dee, so I know your voice, please say: I am Dee.", 3.0))
    voice.now = 3.5
    assert not ready()  # Dee was asked, not Eli
    voice.history.append(Said("Eli, so I know your voice, please say: I am Eli.", 8.0))
    voice.now, voice.speaking = 6.0, True
    assert not ready()  # the host is still asking
    voice.now, voice.speaking = 8.2, False
    assert ready()
    late = table._asked_for(voice, "Gus")
    assert not late()
    voice.now = 8.2 + 15.1
    assert late()  # never asked: the player speaks up after 15 s


def test_the_benchmarks_listen_with_the_hosts_listening_settings(monkeypatch):
    from voice_host import config

    from toolkit import listening

    load = config.load
    slower = {"listening": {"trailing_silence": 0.7}}
    monkeypatch.setattr(config, "load", lambda *a, **k: config.merge(load(*a, **k), slower))

    class Recognizer:
        name = "none"

        def expect(self, phrases):
            pass

    ear = listening.listener(Recognizer(), ["Ann", "Ben"])
    assert ear.config.trailing_silence == 0.7
    assert listening.settings().trailing_silence == 0.7  # what table.py plays its recordings with


def test_the_table_answers_every_question_the_host_asks_about_a_word():
    from toolkit.table_conversation import SPELL_IT, UNCAUGHT, WORTHLESS, _answer_for

    from voice_host.host.announce import Announcer, refusals
    from voice_host.host.hearing.confirm import Question

    announce = Announcer()
    truth = ("Ann", "jewelers")
    again = Question("again", 1.0, 2.0, "Ann", "", "yes")
    assert announce.talked_over("Ann") == "Sorry, Ann, I was talking. Say that again?"
    assert _answer_for(again, truth) == "Jewelers."  # talked over: the word again
    assert _answer_for(Question("word", 1.0, 2.0, "Ann", "jewels", "jewels", ["jewels", "jewelers"]), truth) \
        == "Jewelers."
    assert _answer_for(Question("word", 1.0, 2.0, "Ann", "jewels", "jewels", ["jewels", "jeweler"]), truth) \
        == "Juliett, Echo, Whiskey, Echo, Lima, Echo, Romeo, Sierra."
    worthless = WORTHLESS.match(announce.confirm_interrupt("Ann", "dig", 0))
    assert worthless is not None and worthless.groups() == ("Ann", "dig")  # the host's own sentence, matched
    assert WORTHLESS.match(announce.confirm_undo("Ann", "Ben", "dig")) is None
    assert UNCAUGHT.match(refusals.reason("unclear", {"text": "no pretend"})).group(1) == "no pretend"
    assert SPELL_IT.match(announce.spell_it("Ann", "jewels")).group(1) == "Ann"
