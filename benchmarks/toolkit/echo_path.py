"""The laptop's own speaker heard by its microphone: the host's output back into the
microphone through a room, for the live benchmarks (``table.py --live``, ``latency.py``)
and the live test.

An :class:`EchoPath` is given what the speakers play, with the wall-clock time each
piece was heard (``play``), and gives the microphone, for any stretch of its own
wall-clock time, what it hears of it (``take``): the sound through a room impulse
response (a real living room's where the real-audio cache has one, else a generated
room of ``rt60`` seconds), ``delay`` seconds later, at a level set against the players'
(``gain_db`` over their speech level: 0 is as loud as the players).

Where the speakers' sound comes from: PulseAudio's monitor of its null sink
(:meth:`EchoPath.monitor`, for a real audio server: what the host really played, when
the server handed it on) or the fake sound card of ``latency.py`` (which knows when each
sample is heard).
"""

from __future__ import annotations

import subprocess
import threading
import time

import numpy as np
from scipy.signal import oaconvolve

from voice_host.speech.audio import SAMPLE_RATE, speech_level

RT60 = 0.4
"""The default room: a living room's reverberation time (s)."""
DELAY = 0.03
"""The default delay from the speaker to the microphone's sound (s): the sound card's
buffers and the way through the air."""
DRR = 5.0
"""The reverberation's energy under the direct sound's (dB): a speaker a few centimetres
from the microphone is heard mostly directly."""


def room_response(rt60: float = RT60, drr: float = DRR, seed: int = 0) -> np.ndarray:
    """A room's impulse response: the direct sound, then reverberation falling 60 dB in
    ``rt60`` seconds (exponentially decaying noise) ``drr`` dB under it in all; unit
    energy."""
    n = int(rt60 * 1.25 * SAMPLE_RATE)
    t = np.arange(n) / SAMPLE_RATE
    h = np.random.default_rng(seed).standard_normal(n) * np.exp(-6.9 * t / rt60)
    h[0] = 0.0
    h *= np.sqrt(10 ** (-drr / 10) / np.sum(h ** 2))
    h[0] = 1.0
    return (h / np.sqrt(np.sum(h ** 2))).astype(np.float32)


class EchoPath:
    """The speakers' sound as the microphone hears it (see the module's docstring).

    ``players``: the players' speech at the microphone (mono, 16 kHz): the echo's speech
    level (speech.audio.speech_level) is theirs + ``gain_db``, the host's level learnt
    from what the speakers play: from its first sound, again each time what was played
    has doubled, then every LEARN seconds of it."""

    LEARN = 2.0

    def __init__(self, players: np.ndarray, gain_db: float = 0.0, delay: float = DELAY,
                 rt60: float = RT60, rir: np.ndarray | None = None) -> None:
        self.rir = room_response(rt60) if rir is None else np.asarray(rir, np.float32)
        self.target = speech_level(players) + gain_db
        self.gain = 0.0
        self._heard: list[np.ndarray] = []  # the host's sound, while its level is learnt
        self._voiced = 0.0  # seconds of it
        self._learnt_at = 0.0
        self.delay, self.gain_db = delay, gain_db
        self._lock = threading.Lock()
        self._t0: float | None = None  # the wall-clock time of self._buf[0]
        self._buf = np.zeros(0, np.float32)

    def play(self, samples: np.ndarray, at: float) -> None:
        """The speakers played ``samples`` (mono, 16 kHz) from wall-clock time ``at``."""
        x = np.asarray(samples, np.float32).reshape(-1)
        if not x.size or not np.any(x):
            return
        self._learn(x)
        wet = oaconvolve(x, self.rir).astype(np.float32) * self.gain
        with self._lock:
            if self._t0 is None:
                self._t0 = at + self.delay
            i = round((at + self.delay - self._t0) * SAMPLE_RATE)
            if i < 0:  # earlier than anything kept: what is already past is lost
                wet, i = wet[-i:], 0
            if i + wet.size > self._buf.size:
                self._buf = np.concatenate([self._buf, np.zeros(i + wet.size - self._buf.size, np.float32)])
            self._buf[i:i + wet.size] += wet

    def _learn(self, heard: np.ndarray) -> None:
        """The gain that puts the host's speech level at the target (the room's response
        has unit energy, so it keeps the level), from the sound played so far (the last
        minute of it)."""
        if float(np.abs(heard).max()) < 1e-3:  # silence tells nothing of the voice's level
            return
        self._heard.append(heard)
        self._voiced += heard.size / SAMPLE_RATE
        if self._learnt_at == 0.0 or self._voiced >= min(2 * self._learnt_at, self._learnt_at + self.LEARN):
            kept = np.concatenate(self._heard)[-60 * SAMPLE_RATE:]
            self._heard = [kept]
            self.gain = 10 ** ((self.target - speech_level(kept)) / 20)
            self._learnt_at = self._voiced

    def take(self, at: float, n: int) -> np.ndarray:
        """What the microphone hears of the speakers in the ``n`` samples from wall-clock
        time ``at`` (what came before them is forgotten)."""
        out = np.zeros(n, np.float32)
        with self._lock:
            if self._t0 is None:
                return out
            i = round((at - self._t0) * SAMPLE_RATE)
            a, b = max(i, 0), min(i + n, self._buf.size)
            if b > a:
                out[a - i:b - i] = self._buf[a:b]
            drop = min(max(i + n, 0), self._buf.size)
            if drop:
                self._buf = self._buf[drop:]
                self._t0 += drop / SAMPLE_RATE
        return out

    def monitor(self, env: dict, sink: str = "speakers") -> "Monitor":
        """Follow a PulseAudio server's ``sink`` (its monitor, 10 ms at a time) into this
        path; the returned :class:`Monitor` stops it."""
        return Monitor(self, env, sink)


class Monitor:
    """A PulseAudio sink's monitor read as it plays (``parec``), into an :class:`EchoPath`
    (or anything with its ``play(samples, at)``: pulse.Speakers):
    its sound is continuous (a null sink plays silence between sentences), so each sample
    is placed by its count from the first one, handed on at a known time: the server
    hands its sound on in bursts, and each placed at its arrival would make a room whose
    delay jumps by tens of milliseconds, as no room does."""

    CHUNK = SAMPLE_RATE // 100

    def __init__(self, path: EchoPath, env: dict, sink: str) -> None:
        self.path = path
        self.proc = subprocess.Popen(["parec", "-d", f"{sink}.monitor", "--raw", "--format=s16le",
                                      f"--rate={SAMPLE_RATE}", "--channels=1", "--latency-msec=10"],
                                     env=env, stdout=subprocess.PIPE, stderr=subprocess.DEVNULL)
        self.thread = threading.Thread(target=self._read, daemon=True)
        self.thread.start()

    def _read(self) -> None:
        size = 2 * self.CHUNK
        t0, count = None, 0
        while True:
            data = self.proc.stdout.read(size)
            if not data:
                return
            x = np.frombuffer(data, "<i2").astype(np.float32) / 32768.0
            if t0 is None:
                t0 = time.monotonic() - x.size / SAMPLE_RATE
            self.path.play(x, t0 + count / SAMPLE_RATE)
            count += x.size

    def stop(self) -> None:
        self.proc.terminate()
        try:
            self.proc.wait(5)
        except subprocess.TimeoutExpired:
            self.proc.kill()
        self.thread.join(5)


def add_options(ap) -> None:
    """The echo path's command-line options (table.py --live, latency.py)."""
    ap.add_argument("--echo", default="off,0", metavar="DB,...",
                    help="the host's own voice back into the microphone, DB over the players' speech level (0: as "
                         "loud as they are), through a room; 'off' for none; several separated by commas, each a "
                         "run (default: off,0: without and with)")
    ap.add_argument("--echo-delay", default="30", metavar="MS,...",
                    help=f"its delay from the speaker to the microphone's sound, ms (default {DELAY * 1000:.0f}; "
                         "several separated by commas)")
    ap.add_argument("--echo-rt60", type=float, default=RT60, metavar="S",
                    help=f"the reverberation time of its room, s (default {RT60})")


def conditions(args) -> list[tuple[float, float] | None]:
    """The echo conditions asked for: None (no echo), or (dB over the players, delay in s)."""
    delays = [float(d) / 1000 for d in args.echo_delay.split(",")]
    out: list[tuple[float, float] | None] = []
    for item in args.echo.split(","):
        if item.strip() == "off":
            out.append(None)
        else:
            out += [(float(item), d) for d in delays]
    return list(dict.fromkeys(out))


def label(condition: tuple[float, float] | None) -> str:
    """A condition as a table's column says it: "-" (no echo), "+0/30" (dB over the players / ms)."""
    return "-" if condition is None else f"{condition[0]:+g}/{condition[1] * 1000:.0f}"
