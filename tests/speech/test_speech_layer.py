"""The speech layer's package: its names are imported when first used, so that importing
it (or any module of it, as the training pipeline does) loads no engine, voice or
listener."""

from __future__ import annotations

import subprocess
import sys


def test_importing_the_speech_layer_loads_none_of_its_stages():
    code = "import sys, voice_host.speech; print(' '.join(sorted(m for m in sys.modules if m.startswith('voice_host'))))"
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True).stdout
    assert out.split() == ["voice_host", "voice_host.speech"]


def test_every_name_the_speech_layer_offers_is_there():
    import voice_host.speech as speech
    from voice_host.speech.recognizing.engines import make_recognizer

    assert speech.make_recognizer is make_recognizer
    assert all(getattr(speech, name) is not None for name in speech.__all__)
