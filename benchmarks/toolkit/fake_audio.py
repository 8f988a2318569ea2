"""benchmarks/latency.py's fake sound card and microphone, both in real time, every sound noted."""

from __future__ import annotations

import threading
import time
from typing import Callable

import numpy as np

from voice_host.messages import AudioChunk
from voice_host.speech.audio import SAMPLE_RATE, resample

from .latency_script import Line
from .latency_timing import Log, Placed, Write

perf = time.perf_counter

BLOCK = 0.02
"""The fake microphone's block (s)."""
GAP = 0.6
"""A player speaks once the host has been quiet this long after its reply (s)."""
REPLY_WITHIN = 20.0
"""A player whose words the host has not heard and answered this long after they were
said goes on (s)."""
LATENCY = {"low": 0.0087, "high": 0.0348}
"""The fake sound card's output latency (s) per PortAudio latency setting (its ALSA
defaults); PortAudio's default is "high": what the output holds once a write returns."""
DELAY = LATENCY["low"]
"""What a write into an empty output waits before it sounds (s): the card's own delay."""
SILENT = 1e-3
"""A sample at or below this (-60 dBFS) is silence."""


class FakeSoundCard:
    """A sound output for ``TtsVoice(output=...)``: opened like sounddevice.OutputStream,
    it plays what it is given at real speed (`speed` times faster, for tests): a write
    waits while the buffer holds more than the stream's latency, as a blocking PortAudio
    write does, and one into an empty buffer sounds DELAY later (so a writer held up
    for less than the latency, less DELAY, never lets it run dry). Every write is noted
    (Log.writes) with when its first non-silent sample is heard."""

    default_samplerate = 48000

    def __init__(self, log: Log, speed: float = 1.0, echo=None):
        self.log, self.speed = log, speed
        self.echo = echo
        """Where what it plays is heard back (echo_path.EchoPath: the laptop's own speaker), or None."""
        self.until = 0.0
        """When everything written so far has been heard (perf_counter)."""
        self.sounding = 0.0
        """When the last sound written (not silence) has been heard: a voice beside a
        cancelled microphone plays silence between sentences, and a player waits for the
        host's voice to stop, not its sound card."""
        self.opened: list[dict] = []
        """The keywords each stream was opened with."""

    def __call__(self, **options) -> "FakeStream":
        self.opened.append(options)
        return FakeStream(self, options)

    def busy(self) -> bool:
        return perf() < self.sounding


class FakeStream:
    def __init__(self, card: FakeSoundCard, options: dict):
        self.card = card
        self.rate = float(options["samplerate"]) * card.speed
        latency = options.get("latency", "high")
        self.latency = LATENCY[latency] if isinstance(latency, str) else float(latency)

    def start(self) -> None:
        pass

    def abort(self) -> None:
        self.card.until = min(self.card.until, perf())  # what was buffered is dropped
        self.card.sounding = min(self.card.sounding, perf())

    def stop(self) -> None:
        pass

    def close(self) -> None:
        pass

    def write(self, frames: np.ndarray) -> None:
        x = np.asarray(frames, dtype=np.float32).reshape(-1)
        now = perf()
        card = self.card
        begin = max(now + min(DELAY, self.latency), card.until)
        loud = np.flatnonzero(np.abs(x) > SILENT)
        card.log.writes.append(Write(now, begin + loud[0] / self.rate if loud.size else None))
        if card.echo is not None:
            card.echo.play(resample(x, self.rate / card.speed), begin)
        card.until = begin + x.size / self.rate
        if loud.size:
            card.sounding = begin + (loud[-1] + 1) / self.rate
        if card.until - now > self.latency:  # the buffer is full: wait for room
            time.sleep(card.until - now - self.latency)


class FakeMic:
    """A microphone (an AudioSource with a clock) that says the script's lines in real
    time, 20 ms blocks, each handed out when its last sample is due; a line starts when
    the host has answered the one before and been quiet `gap` seconds (or after
    `reply_within` seconds of silence), the first once the host has spoken."""

    realtime = True
    channels = 1

    def __init__(self, lines: list[Line], log: Log, host_busy: Callable[[], bool],
                 gap: float = GAP, reply_within: float = REPLY_WITHIN, background: np.ndarray | None = None,
                 echo=None):
        self.lines, self.log, self.host_busy = lines, log, host_busy
        self.background = background
        """The room's own sound, looped under everything (None: silence between the lines)."""
        self.echo = echo
        """What the sound card plays, heard back (echo_path.EchoPath), or None."""
        self.gap, self.reply_within = gap, reply_within
        self.t0: float | None = None
        self.owner: str | None = None
        """Whose line the block just handed out holds (None: nobody's)."""
        self._closed = threading.Event()

    def clock(self) -> float:
        return 0.0 if self.t0 is None else perf() - self.t0

    def close(self) -> None:
        self._closed.set()

    def _may_speak(self, now: float, quiet_since: float, after: float) -> bool:
        if self.host_busy() or now - quiet_since < self.gap:
            return False
        answered = any(s.t > after and s.text is not None for s in self.log.said[-50:]) and (  # a sentence, not a tick
            after == 0.0 or any(h.start > after for h in self.log.heard[-5:]))
        return answered or now - after > self.reply_within

    def __iter__(self):
        n = int(round(BLOCK * SAMPLE_RATE))
        self.t0 = t0 = perf()
        quiet_since, after = t0, 0.0  # a line waits for the host to have spoken after `after`
        clip, pos, index, k = None, 0, 0, 0
        while not self._closed.is_set():
            now = perf()
            if self.host_busy():
                quiet_since = now
            if clip is None and t0 + k * BLOCK >= now - BLOCK:  # a line starts now, never in the past
                # (while the listener is behind, the blocks due meanwhile go out silent first)
                if index == len(self.lines) and self._may_speak(now, quiet_since, after):
                    return  # the last line answered: the microphone closes
                if index < len(self.lines) and self._may_speak(now, quiet_since, after):
                    line = self.lines[index]
                    clip, pos = line.audio, 0
                    start = t0 + k * BLOCK
                    after = start + line.voiced_end
                    self.log.placed.append(Placed(index, start, after))
                    index += 1
            block = np.zeros(n, np.float32)
            self.owner = None
            if clip is not None:
                self.owner = self.lines[index - 1].player
                part = clip[pos:pos + n]
                block[:part.size] = part
                pos += n
                if pos >= clip.size:
                    clip = None
            if self.background is not None:
                block += self.background[(k * n + np.arange(n)) % self.background.size]
            if self.echo is not None:
                block += self.echo.take(t0 + k * BLOCK, n)
            due = t0 + (k + 1) * BLOCK
            time.sleep(max(0.0, due - perf()))
            yield AudioChunk(k * BLOCK, block[:, None])
            k += 1
