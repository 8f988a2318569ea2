"""The system's own voice through pyttsx3 (espeak-ng on Linux, SAPI on Windows, macOS's
own), in a thread of its own: :class:`Synthesizer` renders a sentence to a WAV file with
``save_to_file`` and reads it back, retried when the driver writes nothing. The
portable voice and the fallback (speech.speaking.tts.Pyttsx3Synthesizer wraps it).
"""

from __future__ import annotations

import queue
import tempfile
import threading
import time
from pathlib import Path

import numpy as np

from ..audio import read_wav


def _quiet_pyttsx3() -> None:
    # pyttsx3's espeak driver prints "Audio saved to ..." after save_to_file; silence
    # that module's print only (host output must stay one line per announcement).
    try:
        import pyttsx3.drivers.espeak as espeak_driver

        espeak_driver.print = lambda *a, **k: None  # type: ignore[attr-defined]
    except Exception:
        pass


class Synthesizer:
    """pyttsx3 text -> mono 16 kHz float32 audio (save_to_file), in its own thread."""

    def __init__(self, rate: int | None = None, volume: float | None = None, voice: str | None = None,
                 driver: str | None = None):
        self.rate = rate
        """Words per minute (pyttsx3 'rate'); None: the engine's default."""
        self.volume = volume
        """0..1 (pyttsx3 'volume'); None: the engine's default."""
        self.voice = voice
        """A pyttsx3 voice id or (part of a) name, e.g. "en-us"; None: default."""
        self.driver = driver
        self.attempts = 3
        """Tries per sentence (espeak's driver sometimes writes no file)."""
        self._requests: queue.Queue = queue.Queue()
        self._thread = threading.Thread(target=self._run, name="tts-synth", daemon=True)
        self._ready = threading.Event()
        self._error: BaseException | None = None
        self._thread.start()
        self._ready.wait(30)
        if self._error:
            raise RuntimeError(f"text-to-speech unavailable: {self._error}") from self._error

    def _run(self) -> None:
        try:
            engine = self._new_engine()
        except BaseException as e:  # noqa: BLE001 - reported to the constructor
            self._error = e
            self._ready.set()
            return
        self._ready.set()
        tmpdir = Path(tempfile.mkdtemp(prefix="voice-host-tts-"))
        n = 0
        current_rate = self.rate
        while True:
            item = self._requests.get()
            if item is None:
                break
            text, reply, rate = item
            error: BaseException | None = None
            for attempt in range(self.attempts):
                n += 1
                out = tmpdir / f"s{n}.wav"
                try:
                    want = rate if rate is not None else self.rate
                    if want is not None and want != current_rate:
                        engine.setProperty("rate", int(want))
                        current_rate = want
                    engine.save_to_file(text, str(out))
                    engine.runAndWait()
                    if not out.is_file() or out.stat().st_size <= 44:
                        # espeak's driver sometimes writes nothing ("Error opening ...: System error")
                        raise OSError(f"the speech engine wrote no audio for {text!r}")
                    audio = read_wav(out)[:, 0]
                    out.unlink(missing_ok=True)
                    reply.put(audio)
                    error = None
                    break
                except BaseException as e:  # noqa: BLE001 - retried, then reported to the caller
                    error = e
                    out.unlink(missing_ok=True)
                    time.sleep(0.05 * (attempt + 1))
                    if attempt == self.attempts - 2:  # last try with a fresh engine
                        try:
                            engine = self._new_engine()
                            current_rate = self.rate
                        except BaseException:  # noqa: BLE001
                            pass
            if error is not None:
                reply.put(error)

    def _new_engine(self):
        import pyttsx3

        _quiet_pyttsx3()
        engine = pyttsx3.init(self.driver) if self.driver else pyttsx3.init()
        if self.rate is not None:
            engine.setProperty("rate", int(self.rate))
        if self.volume is not None:
            engine.setProperty("volume", float(self.volume))
        if self.voice:
            engine.setProperty("voice", self._voice_id(engine, self.voice))
        return engine

    @staticmethod
    def _voice_id(engine, wanted: str) -> str:
        voices = engine.getProperty("voices")
        for v in voices:
            if v.id == wanted:
                return v.id
        for v in voices:
            if wanted.lower() in (v.name or "").lower() or wanted.lower() in v.id.lower():
                return v.id
        raise ValueError(f"no text-to-speech voice {wanted!r}")

    def synthesize(self, text: str, rate: int | None = None) -> np.ndarray:
        """The audio of `text` (mono float32, 16 kHz), at `rate` words per minute
        (None: the rate given to the constructor). A sentence the engine fails to write
        is retried (`attempts` times, the last with a fresh engine) before raising."""
        reply: queue.Queue = queue.Queue()
        self._requests.put((text, reply, rate))
        result = reply.get()
        if isinstance(result, BaseException):
            raise result
        return result

    def close(self) -> None:
        self._requests.put(None)


__all__ = ["Synthesizer"]
