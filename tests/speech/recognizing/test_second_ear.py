"""The second ear: whisper tiny.en reading what Moonshine reads, on real recorded speech,
and how the two readings are weighed (speech.recognizing.whisper.second, moonshine.opinion;
the registry's engines.second_ear_for)."""

from __future__ import annotations

from pathlib import Path

import numpy as np
import pytest
from support import need

from voice_host.speech.recognizing.moonshine import opinion as opinion_module
from voice_host.speech.recognizing.moonshine.opinion import AGREED, AGREED_FROM, CLEAR, DOUBTED, candidates, weigh
from voice_host.speech.recognizing.engines import second_ear_for
from voice_host.speech.recognizing.recognizer import SecondReading
from voice_host.speech.recognizing.sayable import Sayable
from voice_host.speech.recognizing.whisper.second import once, reading

pytestmark = pytest.mark.model  # Moonshine and whisper tiny.en, both ears

DATA = Path("/usr/share/pocketsphinx/test/data")  # Debian's pocketsphinx-testdata: real people


def real(name: str) -> np.ndarray:
    import soundfile as sf

    path = DATA / name
    need(path.exists(), f"{path} (Debian's pocketsphinx-testdata) is not installed")
    if path.suffix == ".raw":
        return np.frombuffer(path.read_bytes(), "<i2").astype(np.float32) / 32768.0
    return sf.read(path, dtype="float32")[0]


@pytest.fixture(scope="module")
def ears():
    """Moonshine with whisper as its second ear, as the host runs by default."""
    from voice_host.speech.recognizing.moonshine import create

    try:
        rec = create(second_ear=second_ear_for("whisper"))
    except Exception as exc:  # noqa: BLE001 - said in the skip or failure
        need(False, f"the second ear is not installed: {exc}")
    return rec


def test_a_reading_is_the_words_said_once_with_numbers_as_words():
    assert reading(" Dog dog dog dog") == "dog"
    assert reading(" 8, 8.") == "eight"
    assert reading("Ben, cat. Ben, cat.") == "ben cat"
    assert reading(" Forward, forwards.") == "forward forwards"
    assert reading("") == ""
    assert once(["go", "forward", "ten", "meters"]) == ["go", "forward", "ten", "meters"]


def test_both_ears_read_a_real_command_alike_and_the_word_is_taken_as_sure(ears):
    rec = ears.clone()
    rec.constrain(Sayable.closed(["go forward ten meters", "go back ten meters", "go forward two meters",
                                  "turn left"]))
    heard = rec.transcribe(real("goforward.raw"))
    assert heard.text == "go forward ten meters"
    assert rec.opinion.reading == "go forward ten meters" and rec.opinion.agreed
    assert heard.confidence >= AGREED


def test_real_card_names_are_read_by_the_second_ear_on_its_own(ears):
    said = {"001.wav": "ten of clubs", "003.wav": "seven of clubs"}
    for name, words in said.items():
        assert ears.second_ear.read(real(f"cards/{name}")).text == words


def test_a_second_reading_that_is_no_sentence_of_the_language_changes_nothing(ears):
    rec = ears.clone()
    rec.constrain(Sayable.closed(["ten of clubs", "four queen of clubs", "seven of clubs", "five five"]))
    alone = ears.clone()
    alone.second_ear = None
    alone.constrain(rec.sayable)
    audio = real("cards/002.wav")  # "four queen of clubs", which whisper hears "four queen of clothes"
    both, first = rec.transcribe(audio), alone.transcribe(audio)
    assert rec.opinion.reading == "four queen of clothes" and not rec.opinion.candidates
    assert (both.text, both.confidence) == (first.text, first.confidence) == ("four queen of clubs", first.confidence)


def test_the_ears_agreeing_makes_a_doubted_word_sure():
    doubted = (AGREED_FROM + AGREED) / 2
    conf, opinion = weigh(doubted, [("cat", -3.0), ("cad", -3.5)], "cat", SecondReading("cat", 0.9), ["cat"])
    assert conf == AGREED and opinion.agreed and opinion.lead is None and opinion.confidence == doubted
    conf, _ = weigh(0.97, [("cat", -3.0)], "cat", SecondReading("cat", 0.9), ["cat"])
    assert conf == 0.97  # never less sure than the first ear was


def test_agreeing_on_a_word_the_first_ear_barely_heard_or_on_one_of_its_forms_settles_nothing(monkeypatch):
    conf, opinion = weigh(AGREED_FROM - 0.1, [("oh", -3.0)], "oh", SecondReading("oh", 0.9), ["oh"])
    assert conf == AGREED_FROM - 0.1 and opinion.agreed  # both hear "oh" in a kitchen's noise
    monkeypatch.setattr(opinion_module, "FORMS", 4.0)
    sure = (AGREED_FROM + AGREED) / 2
    forms = [("judgment", -3.0), ("judgments", -5.0)]  # both ears lose the S alike
    assert weigh(sure, forms, "judgment", SecondReading("judgment", 0.9), ["judgment"])[0] == sure
    far = [("judgment", -3.0), ("judgments", -8.0)]
    assert weigh(sure, far, "judgment", SecondReading("judgment", 0.9), ["judgment"])[0] == AGREED


def test_ears_that_differ_with_neither_clearly_ahead_make_the_host_ask():
    alternatives = [("cat", -3.0), ("cut", -3.0 - CLEAR / 2)]
    conf, opinion = weigh(0.95, alternatives, "cat", SecondReading("cut", 0.9), ["cut"])
    assert conf == DOUBTED and not opinion.agreed and opinion.lead == pytest.approx(CLEAR / 2)
    conf, _ = weigh(0.3, alternatives, "cat", SecondReading("cut", 0.9), ["cut"])
    assert conf == 0.3  # never surer for it


def test_a_reading_clearly_behind_leaves_the_first_ears_confidence():
    conf, opinion = weigh(0.95, [("cat", -3.0), ("cut", -4.0 - CLEAR)], "cat", SecondReading("cut", 0.9), ["cut"])
    assert conf == 0.95 and opinion.lead == pytest.approx(CLEAR + 1)


def test_the_second_ear_heard_nothing_leaves_the_first_ears_confidence():
    conf, opinion = weigh(0.95, [("cat", -3.0)], "cat", SecondReading("", 0.0), [])
    assert conf == 0.95 and opinion.reading == "" and opinion.lead is None


def test_a_second_reading_stands_for_the_language_words_nearest_it_after_the_name_heard():
    lang = Sayable.game(names=["ann", "ben"]).language()
    assert candidates("ben cat", lang, "ben cad") == ["ben cat"]
    near = candidates("ben catt", lang, "ben cad")
    assert near and all(c.startswith("ben ") for c in near) and "ben cat" in near
    assert all(c.startswith("ann ") for c in candidates("catt", lang, "ann cad"))
    assert candidates("", lang, "ann cad") == []


def test_the_setting_turns_the_second_ear_off_or_asks_for_an_unknown_one():
    assert second_ear_for("off") is None
    with pytest.raises(ValueError, match="it can be"):
        second_ear_for("parakeet")


def test_the_setting_reaches_the_recognizer_the_host_plays_with(ears):
    from argparse import Namespace

    from voice_host.assembly import recognizer_for
    from voice_host.host.hearing import HearingSettings

    asked = Namespace(engine="moonshine", model=None)
    assert recognizer_for(asked, HearingSettings(second_ear="whisper")).second_ear is not None
    assert recognizer_for(asked, HearingSettings()).second_ear is None  # off unless asked for
