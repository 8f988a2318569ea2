"""``--speak-to FILE.wav``: everything the host says, on the game's timeline, in one WAV.

:class:`SpeakTo` takes sentences and earcons with their game-clock time (a scripted
game's record time, a recording's time with ``--audio``, the microphone clock live)
and lays each one at that time; one that would overlap the previous one starts right
after it instead (a host says one thing at a time). Rendering happens in a worker
thread with the host's synthesizer (speech.tts), so the game never waits for it, and
the file is written as it goes (mono 16-bit PCM at the synthesizer's rate); close()
finishes it. A sentence that cannot be rendered (after retries) is left out and
printed on stderr.
"""

from __future__ import annotations

import queue
import sys
import threading
from dataclasses import dataclass
from pathlib import Path

import numpy as np


@dataclass
class Placed:
    """What went into the file, where (seconds from the file's start)."""

    kind: str
    """"say" or "cue"."""
    what: str
    """The sentence, or the earcon's name."""
    asked: float
    """The game time it was said at, relative to the file's start."""
    start: float
    end: float


class SpeakTo:
    """A WAV of the host on the game's timeline. ``offset``: the game time at the file's
    start (0 for a new game; the resume point for ``voice-host resume``)."""

    def __init__(self, path: str | Path, synth, offset: float = 0.0, gap: float = 0.15):
        import soundfile as sf

        self.path = Path(path)
        self.synth = synth
        self.rate = int(synth.sample_rate)
        self.offset = offset
        """The game time at the file's start (:meth:`starts_at`)."""
        self.gap = gap
        """Silence kept between two sentences laid one after another."""
        self.placed: list[Placed] = []
        self._file = sf.SoundFile(str(self.path), "w", samplerate=self.rate, channels=1, subtype="PCM_16")
        self._written = 0  # samples
        self._queue: queue.Queue = queue.Queue()
        self._thread = threading.Thread(target=self._run, name="speak-to", daemon=True)
        self._thread.start()

    def starts_at(self, t: float) -> None:
        """The file starts at game time ``t`` (a game resumed there)."""
        self.offset = t

    def say(self, text: str, t: float) -> None:
        self._queue.put(("say", text, t))

    def cue(self, name: str, t: float) -> None:
        self._queue.put(("cue", name, t))

    def close(self) -> None:
        """Render what is queued, write it, close the file."""
        self._queue.put(None)
        self._thread.join()
        self._file.close()

    def _run(self) -> None:
        from . import earcons, tts

        while True:
            item = self._queue.get()
            if item is None:
                return
            kind, what, t = item
            try:
                if kind == "cue":
                    audio = np.asarray(earcons.earcon(what, self.rate))
                else:
                    audio = tts.render_whole(self.synth, what) * float(self.synth.volume)
            except Exception as e:  # noqa: BLE001 - the game goes on; the sentence is printed
                print(f"host: {what}  [not in {self.path.name}: {e}]", file=sys.stderr, flush=True)
                continue
            self._lay(kind, what, max(0.0, t - self.offset), audio)

    def _lay(self, kind: str, what: str, at: float, audio: np.ndarray) -> None:
        start = int(round(at * self.rate))
        if self.placed:
            start = max(start, self._written + (int(self.gap * self.rate) if kind == "say" else 0))
        if start > self._written:
            self._file.write(np.zeros(start - self._written, np.float32))
            self._written = start
        start = self._written
        self._file.write(np.clip(audio, -1.0, 1.0).astype(np.float32))
        self._written += audio.size
        self.placed.append(Placed(kind, what, at, start / self.rate, self._written / self.rate))


__all__ = ["Placed", "SpeakTo"]
