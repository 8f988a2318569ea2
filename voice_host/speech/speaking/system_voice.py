"""The system's own voice through pyttsx3 (espeak-ng on Linux, SAPI on Windows, macOS's
own), in a process of its own: :class:`Synthesizer` asks it for a sentence, which it
renders to a WAV file with ``save_to_file`` (retried when the driver writes nothing:
:class:`Renderer`) for the host to read back. The portable voice and the fallback
(speech.speaking.tts.Pyttsx3Synthesizer wraps it).

A process of its own because pyttsx3's espeak driver prints "Audio saved to ..." after
each file: there the print goes nowhere, and the host's own output stays one line an
announcement.
"""

from __future__ import annotations

import json
import os
import select
import shutil
import subprocess
import sys
import tempfile
import threading
import time
from pathlib import Path
from typing import Callable

import numpy as np

from ..audio import read_wav

__all__ = ["Synthesizer", "Renderer"]

START_WITHIN = 30.0
"""Seconds the voice's process may take to start its engine."""


class Renderer:
    """Renders sentences with a pyttsx3 engine (``new_engine()`` makes one), each tried
    ``attempts`` times, the last with a fresh engine (espeak's driver sometimes writes no
    file: "Error opening ...: System error")."""

    def __init__(self, new_engine: Callable[[], object], rate: int | None = None, attempts: int = 3):
        self.new_engine, self.rate, self.attempts = new_engine, rate, attempts
        self.engine = new_engine()
        self._rate = rate  # the rate the engine is set to now

    def render(self, text: str, rate: int | None, out: Path) -> None:
        """``text`` at ``rate`` words per minute (None: the engine's), written to ``out``
        as a WAV file; raises when every try failed."""
        error: BaseException | None = None
        for attempt in range(self.attempts):
            try:
                want = rate if rate is not None else self.rate
                if want is not None and want != self._rate:
                    self.engine.setProperty("rate", int(want))
                    self._rate = want
                self.engine.save_to_file(text, str(out))
                self.engine.runAndWait()
                if not out.is_file() or out.stat().st_size <= 44:
                    raise OSError(f"the speech engine wrote no audio for {text!r}")
                return
            except Exception as e:  # noqa: BLE001 - retried, then raised
                error = e
                out.unlink(missing_ok=True)
                time.sleep(0.05 * (attempt + 1))
                if attempt == self.attempts - 2:  # the last try with a fresh engine
                    try:
                        self.engine, self._rate = self.new_engine(), self.rate
                    except Exception:  # noqa: BLE001 - the old one tries again
                        pass
        assert error is not None
        raise error


def engine(rate: int | None = None, volume: float | None = None, voice: str | None = None,
           driver: str | None = None):
    """A pyttsx3 engine with these settings (``voice``: an id or part of a name)."""
    import pyttsx3

    e = pyttsx3.init(driver) if driver else pyttsx3.init()
    if rate is not None:
        e.setProperty("rate", int(rate))
    if volume is not None:
        e.setProperty("volume", float(volume))
    if voice:
        e.setProperty("voice", _voice_id(e, voice))
    return e


def _voice_id(engine, wanted: str) -> str:
    voices = engine.getProperty("voices")
    for v in voices:
        if v.id == wanted:
            return v.id
    for v in voices:
        if wanted.lower() in (v.name or "").lower() or wanted.lower() in v.id.lower():
            return v.id
    raise ValueError(f"no text-to-speech voice {wanted!r}")


class Synthesizer:
    """pyttsx3 text -> mono 16 kHz float32 audio, rendered in a process of its own."""

    def __init__(self, rate: int | None = None, volume: float | None = None, voice: str | None = None,
                 driver: str | None = None):
        self.rate = rate
        """Words per minute (pyttsx3 'rate'); None: the engine's default."""
        self.volume = volume
        """0..1 (pyttsx3 'volume'); None: the engine's default."""
        self.voice = voice
        """A pyttsx3 voice id or (part of a) name, e.g. "en-us"; None: default."""
        self.driver = driver
        self._dir = Path(tempfile.mkdtemp(prefix="voice-host-tts-"))
        self._lock = threading.Lock()
        self._n = 0
        package = str(Path(__file__).resolve().parents[3])  # where voice_host is, for the process to import it
        env = {**os.environ, "PYTHONPATH": os.pathsep.join(filter(None, [package, os.environ.get("PYTHONPATH")]))}
        settings = json.dumps({"rate": rate, "volume": volume, "voice": voice, "driver": driver})
        self._process = subprocess.Popen([sys.executable, "-m", __name__, settings], stdin=subprocess.PIPE,
                                         stdout=subprocess.PIPE, text=True, env=env)
        started = select.select([self._process.stdout], [], [], START_WITHIN)[0]
        ready = self._reply() if started else {"error": f"the system voice did not start within {START_WITHIN:g} s"}
        if "error" in ready:
            self.close()
            raise RuntimeError(f"text-to-speech unavailable: {ready['error']}")

    def _reply(self) -> dict:
        line = self._process.stdout.readline() if self._process.stdout else ""
        return json.loads(line) if line else {"error": "the system voice's process stopped"}

    def synthesize(self, text: str, rate: int | None = None) -> np.ndarray:
        """The audio of `text` (mono float32, 16 kHz), at `rate` words per minute
        (None: the rate given to the constructor). A sentence the engine fails to write
        is retried (Renderer) before raising."""
        with self._lock:
            self._n += 1
            out = self._dir / f"s{self._n}.wav"
            try:
                self._process.stdin.write(json.dumps({"text": text, "rate": rate, "out": str(out)}) + "\n")
                self._process.stdin.flush()
            except (OSError, ValueError) as e:
                raise RuntimeError("the system voice's process stopped") from e
            reply = self._reply()
        if "error" in reply:
            raise RuntimeError(reply["error"])
        try:
            return read_wav(out)[:, 0]
        finally:
            out.unlink(missing_ok=True)

    def close(self) -> None:
        try:
            if self._process.stdin:
                self._process.stdin.close()
            self._process.wait(5)
        except (OSError, subprocess.TimeoutExpired):
            self._process.kill()
        shutil.rmtree(self._dir, ignore_errors=True)


def serve(settings: dict) -> None:
    """The voice's process: a JSON line a sentence in ({"text", "rate", "out"}), a JSON
    line a reply out ({} or {"error"}); its own prints (the driver's) go nowhere."""
    replies = os.fdopen(os.dup(1), "w", buffering=1)
    os.dup2(os.open(os.devnull, os.O_WRONLY), 1)
    try:
        renderer = Renderer(lambda: engine(**settings), settings.get("rate"))
    except Exception as e:  # noqa: BLE001 - said to the host
        replies.write(json.dumps({"error": f"{type(e).__name__}: {e}"}) + "\n")
        return
    replies.write("{}\n")
    for line in sys.stdin:
        request = json.loads(line)
        try:
            renderer.render(request["text"], request["rate"], Path(request["out"]))
            replies.write("{}\n")
        except Exception as e:  # noqa: BLE001 - said to the host
            replies.write(json.dumps({"error": str(e)}) + "\n")


if __name__ == "__main__":
    serve(json.loads(sys.argv[1]))
