"""Audio in: frames from a WAV recording or from a sounddevice input stream.

Every source yields :class:`AudioChunk` objects: float32 samples in [-1, 1] at
:data:`SAMPLE_RATE` (16 kHz), one column per input channel, stamped with the time of
their first sample on the source's timeline (seconds since the recording or the stream
started). Whatever rate the file or device has is resampled with soxr; channels are
kept apart (one channel per player when each has a microphone).
"""

from __future__ import annotations

import queue
import threading
import time
from collections import deque
from pathlib import Path
from typing import Iterator, Protocol, Sequence

import numpy as np

from voice_host.messages import AudioChunk

from ..audio import SAMPLE_RATE, DeviceInfo, list_devices


class NoInputDevice(RuntimeError):
    """There is no audio input device (or not the one asked for)."""


class AudioSource(Protocol):
    """Anything that yields audio chunks at SAMPLE_RATE."""

    channels: int
    """Number of channels each chunk carries."""
    realtime: bool
    """True when chunks arrive at the pace of the world (microphone)."""

    def __iter__(self) -> Iterator[AudioChunk]: ...

    def close(self) -> None: ...


class Resampler:
    """Streaming multi-channel resampler to SAMPLE_RATE (soxr), a no-op at 16 kHz."""

    def __init__(self, in_rate: float, channels: int):
        self.in_rate = float(in_rate)
        self.channels = channels
        self._stream = None
        if int(round(self.in_rate)) != SAMPLE_RATE:
            import soxr

            self._stream = soxr.ResampleStream(
                self.in_rate, SAMPLE_RATE, channels, dtype="float32", quality="HQ"
            )

    def __call__(self, block: np.ndarray, last: bool = False) -> np.ndarray:
        block = np.ascontiguousarray(block, dtype=np.float32).reshape(-1, self.channels)
        if self._stream is None:
            return block
        out = self._stream.resample_chunk(block, last=last)
        return np.asarray(out, dtype=np.float32).reshape(-1, self.channels)


class WavSource:
    """Audio chunks from an audio file (WAV, FLAC, ...), as fast as they can be read.

    Any rate and any number of channels; each channel is resampled to 16 kHz. The
    timeline is the recording's: chunk.start is the position in the file.
    """

    realtime = False

    def __init__(self, path: str | Path, chunk_seconds: float = 0.1):
        import soundfile as sf

        self.path = Path(path)
        if not self.path.exists():
            raise FileNotFoundError(f"audio file not found: {self.path}")
        info = sf.info(str(self.path))
        self.native_rate = float(info.samplerate)
        self.channels = int(info.channels)
        self.duration = float(info.frames) / info.samplerate
        self.chunk_seconds = chunk_seconds
        self._closed = False

    def __iter__(self) -> Iterator[AudioChunk]:
        import soundfile as sf

        resampler = Resampler(self.native_rate, self.channels)
        block = max(1, int(round(self.chunk_seconds * self.native_rate)))
        produced = 0
        with sf.SoundFile(str(self.path)) as f:
            while not self._closed:
                data = f.read(block, dtype="float32", always_2d=True)
                last = data.shape[0] < block
                out = resampler(data, last=last)
                if out.shape[0]:
                    yield AudioChunk(produced / SAMPLE_RATE, out)
                    produced += out.shape[0]
                if last:
                    break

    def close(self) -> None:
        self._closed = True


class ArraySource:
    """Audio chunks from an in-memory array ((n,) or (n, channels)) at SAMPLE_RATE."""

    realtime = False

    def __init__(self, samples: np.ndarray, chunk_seconds: float = 0.1, start: float = 0.0):
        samples = np.asarray(samples, dtype=np.float32)
        self.samples = samples.reshape(samples.shape[0], -1)
        self.channels = int(self.samples.shape[1])
        self.chunk_seconds = chunk_seconds
        self.start = start

    def __iter__(self) -> Iterator[AudioChunk]:
        step = max(1, int(round(self.chunk_seconds * SAMPLE_RATE)))
        for i in range(0, self.samples.shape[0], step):
            yield AudioChunk(self.start + i / SAMPLE_RATE, self.samples[i : i + step])

    def close(self) -> None:
        pass


def input_devices() -> list[DeviceInfo]:
    """The devices that can record (at least one input channel)."""
    return [d for d in list_devices() if d.max_input_channels > 0]


def find_input_device(device: int | str | None = None) -> DeviceInfo:
    """The input device to use: by index, by (part of its) name, or the default.

    Raises NoInputDevice with a readable message when nothing fits.
    """
    devices = input_devices()
    if not devices:
        raise NoInputDevice(
            "no audio input device found (no microphone); play by typing instead"
        )
    if device is None:
        for d in devices:
            if d.default_input:
                return d
        return devices[0]
    if isinstance(device, int) or (isinstance(device, str) and device.isdigit()):
        for d in devices:
            if d.index == int(device):
                return d
        raise NoInputDevice(f"no input device with index {device}")
    matches = [d for d in devices if str(device).lower() in d.name.lower()]
    if not matches:
        names = ", ".join(f"{d.index}: {d.name}" for d in devices)
        raise NoInputDevice(f"no input device named {device!r} (input devices: {names})")
    return matches[0]


class LostInput:
    """Keeps a live stream's sample count on the clock its samples are heard by.

    A stream's chunk times count its samples; the host's voice is timed on the clock
    (time.monotonic). Samples the device dropped (a host too busy to take them: an input
    overflow) put every later chunk that much too early on the clock, and the echo
    canceller then looks for the host's echo where it is not (the live benchmark's
    microphone once skipped time so: the echo came 0.36-0.64 s before the host had
    played it, by the count, and the host's own words were heard as plays). A chunk arrives some time after its last sample was heard: the
    least of those lags over the stream is the way through the sound card; where every
    chunk that arrived over the last WINDOW seconds of the clock (and the one just before
    them) came LOST or more over it, input never came, and :meth:`missing` says how much,
    for the stream to put that much silence in its place. A hold-up in which nothing was
    lost (no chunk, then the held ones all at once) has the chunk before it in the window,
    at the least lag: nothing is missing.
    """

    WINDOW = 0.5
    """Seconds of the clock whose chunks' least lag tells the stream's lag now."""
    LOST = 0.05
    """A lag this much over the stream's least is input lost (s)."""

    def __init__(self) -> None:
        self.least: float | None = None
        """The least lag seen (s): the way through the sound card."""
        self._recent: deque[tuple[float, float]] = deque()  # (arrival, lag) of the last WINDOW's chunks

    def missing(self, end: float, arrived: float) -> float:
        """Seconds of input lost before a chunk whose last sample is at ``end`` by the
        stream's count and which arrived at ``arrived`` (both on the stream's clock)."""
        lag = arrived - end
        self.least = lag if self.least is None else min(self.least, lag)
        recent = self._recent
        recent.append((arrived, lag))
        while len(recent) > 1 and recent[1][0] <= arrived - self.WINDOW:
            recent.popleft()  # the first one left came just before the window: it stands for its start
        if recent[0][0] > arrived - self.WINDOW:
            return 0.0  # not yet a whole window
        lost = min(lag for _, lag in recent) - self.least
        if lost < self.LOST:
            return 0.0
        self._recent = deque((t, lag - lost) for t, lag in recent)
        return lost


class MicSource:
    """Audio chunks from a live input device (sounddevice), resampled to 16 kHz.

    The device records at its native rate (or `samplerate`) with `channels` channels
    (default: as many as `channel_count` needs, else 1). Chunk times are seconds since
    the stream started; :meth:`clock` gives the current time on that timeline so the
    host's voice can stamp its own speech on the same clock.
    """

    realtime = True

    def __init__(
        self,
        device: int | str | None = None,
        samplerate: float | None = None,
        channels: int | None = None,
        chunk_seconds: float = 0.05,
    ):
        self.device = find_input_device(device)
        self.native_rate = float(samplerate or self.device.default_samplerate)
        self.channels = int(channels or 1)
        if self.channels > self.device.max_input_channels:
            raise NoInputDevice(
                f"input device {self.device.name!r} has {self.device.max_input_channels}"
                f" channel(s), {self.channels} asked for"
            )
        self.chunk_seconds = chunk_seconds
        self._queue: queue.Queue = queue.Queue()
        self._stream = None
        self._t0: float | None = None
        self._closed = threading.Event()
        self._reading = False
        self._stopping = threading.Lock()
        self.overflows = 0
        """How many times the device reported lost input (the host fell behind)."""

    def clock(self) -> float:
        """Seconds since the stream started (0 before it starts)."""
        return 0.0 if self._t0 is None else time.monotonic() - self._t0

    def _callback(self, indata, frames, time_info, status):  # PortAudio thread
        if status and status.input_overflow:
            self.overflows += 1
        self._queue.put((time.monotonic(), indata.copy()))

    @property
    def started_at(self) -> float | None:
        """When the stream started (time.monotonic()), None before :meth:`start`."""
        return self._t0

    def start(self) -> None:
        """Start recording now (once): what is said from here on waits in the queue until
        it is read, so a word said while the host is still loading or talking is kept."""
        if self._stream is not None or self._closed.is_set():
            return
        import sounddevice as sd

        block = max(1, int(round(self.chunk_seconds * self.native_rate)))
        try:
            self._stream = sd.InputStream(
                device=self.device.index,
                samplerate=self.native_rate,
                channels=self.channels,
                dtype="float32",
                blocksize=block,
                callback=self._callback,
            )
            self._t0 = time.monotonic()
            self._stream.start()
        except sd.PortAudioError as exc:
            self._stream = None
            raise NoInputDevice(f"input device {self.device.name!r} cannot record: {exc}") from exc

    def __iter__(self) -> Iterator[AudioChunk]:
        resampler = Resampler(self.native_rate, self.channels)
        self.start()
        self._reading = True
        produced, taken, lost = 0, 0, LostInput()
        try:
            while not self._closed.is_set():
                try:
                    arrived, data = self._queue.get(timeout=0.2)
                except queue.Empty:
                    continue
                taken += data.shape[0]
                gap = lost.missing(taken / self.native_rate, arrived - self._t0)
                if gap:  # input the device dropped: silence in its place, the count back on the clock
                    taken += round(gap * self.native_rate)
                    yield AudioChunk(produced / SAMPLE_RATE, np.zeros((round(gap * SAMPLE_RATE), self.channels),
                                                                      np.float32))
                    produced += round(gap * SAMPLE_RATE)
                out = resampler(data)
                if out.shape[0]:
                    yield AudioChunk(produced / SAMPLE_RATE, out)
                    produced += out.shape[0]
        finally:
            self._reading = False
            self._stop()

    def _stop(self) -> None:
        with self._stopping:  # once, whether the reader or close() gets here first
            stream, self._stream = self._stream, None
        if stream is not None:
            stream.stop()
            stream.close()

    def close(self) -> None:
        """Stop recording: now when nothing reads the stream, else once the reader has
        taken what it is reading (within 0.2 s)."""
        self._closed.set()
        if not self._reading:
            self._stop()


def open_source(
    audio: str | Path | None = None,
    device: int | str | None = None,
    channels: int | None = None,
    samplerate: float | None = None,
) -> AudioSource:
    """A WavSource for `audio` when given, else a MicSource on `device`."""
    if audio is not None:
        return WavSource(audio)
    return MicSource(device=device, samplerate=samplerate, channels=channels)


def local_channels(source) -> Sequence[int]:
    """The channels of ``source`` whose microphones are by the host's speaker, where the
    host cancels its own echo: those it names (``local_channels``), else all of a source
    that comes at once, none of one that comes late (``delay``: the phones, whose
    browsers cancel their own)."""
    local = getattr(source, "local_channels", None)
    if local is not None:
        return local
    return range(source.channels) if not getattr(source, "delay", 0.0) else ()


def channel_names(spec: str | Sequence[str] | None, channels: int) -> list[str | None]:
    """Player per channel from "Alice,Bob,Carol" (None where a channel has no player)."""
    if spec is None:
        return [None] * channels
    names = [n.strip() for n in spec.split(",")] if isinstance(spec, str) else list(spec)
    if len(names) > channels:
        raise ValueError(f"{len(names)} channel names given for {channels} channel(s)")
    return [n or None for n in names] + [None] * (channels - len(names))


__all__ = [
    "AudioSource",
    "ArraySource",
    "LostInput",
    "MicSource",
    "NoInputDevice",
    "Resampler",
    "WavSource",
    "channel_names",
    "find_input_device",
    "local_channels",
    "input_devices",
    "open_source",
]
