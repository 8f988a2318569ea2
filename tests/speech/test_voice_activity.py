"""Voice activity: where the listener hears speech, with WebRTC VAD or Silero's model."""

from __future__ import annotations

import numpy as np
import synth

from voice_host.speech.audio import SAMPLE_RATE
from voice_host.speech.listening.config import TurnConfig
from voice_host.speech.listening.vad import segments

SILERO = TurnConfig(vad="silero")


def test_silero_finds_the_word_and_starts_nothing_in_noise_alone(say):
    word = say("jewelers", "fest_slt")
    quiet = np.zeros(SAMPLE_RATE, np.float32)
    said = np.concatenate([quiet, word, quiet])
    found = segments(said, SILERO)
    assert len(found) == 1 and found[0].start < 1.0 + word.size / SAMPLE_RATE and found[0].end > 1.0
    noise = synth.add_noise(np.zeros(6 * SAMPLE_RATE, np.float32), 10, seed=4, reference=word)
    assert segments(noise, SILERO) == []  # pink noise 10 dB under a word's level: nobody is speaking


def test_the_detector_is_a_setting_read_from_the_listening_section():
    from voice_host import config

    assert TurnConfig.from_config(config.load()).vad == "webrtc"
    assert TurnConfig.from_config(config.load(overrides={"listening": {"vad": "silero"}})).vad == "silero"
