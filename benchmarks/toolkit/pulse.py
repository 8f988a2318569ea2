"""A private PulseAudio server for live play without a sound card: a null sink for the
speakers and a pipe source for the microphone, which a :class:`Mic` fills in real time,
with what the speakers play heard back through a room where an echo path is given
(benchmarks/toolkit/echo_path.py: a laptop's own speaker). Used by
tests/test_live_audio_server.py and `benchmarks/table.py --live`.

PortAudio reaches it through ALSA's pulse plugin (libasound2-plugins); a process finds
it by ``XDG_RUNTIME_DIR`` (``Pulse.env``), which must be set before PortAudio starts.
"""

from __future__ import annotations

import os
import select
import shutil
import subprocess
import threading
import time
from pathlib import Path

import numpy as np

from .echo_path import Monitor

RATE = 16000
CHANNEL_MAPS = {1: "mono", 2: "front-left,front-right", 4: "front-left,front-right,rear-left,rear-right"}
"""The microphone's channels in ALSA's order, so that each reaches the host as it is
(PulseAudio's own default order for 4 channels is another, and it would remix them; 3
channels trip an alignment assertion in its pipe source)."""


def missing() -> str | None:
    """Why a server cannot be started here (None when it can)."""
    if not (shutil.which("pulseaudio") and shutil.which("pactl") and shutil.which("parecord")):
        return "PulseAudio is not installed (bash .ci/setup test installs pulseaudio and pulseaudio-utils)"
    return None


class Pulse:
    """``with Pulse(folder, channels) as pulse:`` a server with ``pulse.env`` (for the host's
    process) and ``pulse.mic`` (the microphone, :class:`Mic`)."""

    def __init__(self, folder: Path, channels: int = 1) -> None:
        self.folder, self.channels = Path(folder), channels
        self.env = dict(os.environ, XDG_RUNTIME_DIR=str(self.folder / "pulse-runtime"))
        self.env.pop("PULSE_SERVER", None)
        self.fifo = self.folder / "mic.fifo"

    def __enter__(self) -> "Pulse":
        runtime = Path(self.env["XDG_RUNTIME_DIR"])
        runtime.mkdir(mode=0o700, parents=True, exist_ok=True)
        conf = self.folder / "pulse.pa"
        conf.write_text(
            "load-module module-native-protocol-unix\n"
            "load-module module-null-sink sink_name=speakers\n"
            f"load-module module-pipe-source source_name=mic file={self.fifo} format=s16le rate={RATE}"
            f" channels={self.channels} channel_map={CHANNEL_MAPS[self.channels]}\n"
            "set-default-sink speakers\nset-default-source mic\n")
        self.daemon = subprocess.Popen(["pulseaudio", "-n", "--daemonize=no", "--exit-idle-time=-1",
                                        "--use-pid-file=no", "-F", str(conf), "--log-target=stderr"],
                                       env=self.env, stderr=subprocess.PIPE)
        for _ in range(100):
            if self.fifo.exists() and subprocess.run(["pactl", "info"], env=self.env,
                                                     capture_output=True).returncode == 0:
                break
            time.sleep(0.1)
        else:
            self.daemon.kill()
            raise RuntimeError("PulseAudio did not start: " + self.daemon.stderr.read1().decode(errors="replace"))
        self.mic = Mic(self.fifo, self.channels)
        self._monitor = None
        return self

    def echo(self, path) -> None:
        """Hear the speakers back in the microphone through ``path`` (an echo_path.EchoPath;
        None: no more)."""
        if self._monitor is not None:
            self._monitor.stop()
        self._monitor = path.monitor(self.env) if path is not None else None
        self.mic.echo = path

    def speakers(self) -> "Speakers":
        """What the speakers play from now on, as it plays (:class:`Speakers`)."""
        return Speakers(self.env)

    def __exit__(self, *exc) -> None:
        self.echo(None)
        self.mic.close()
        self.daemon.terminate()
        self.daemon.wait(10)


class Speakers:
    """The speakers' sound as they play it (their monitor, followed by an
    echo_path.Monitor): ``sounded`` is set at their first sound; :meth:`stop` gives all
    of it."""

    HEARD = 0.01
    """A sample this loud is sound (the null sink plays zeros between sentences)."""

    def __init__(self, env: dict) -> None:
        self.sounded = threading.Event()
        """Set once the speakers have played a sound."""
        self.first_at: float | None = None
        """When the first sample followed was played (time.monotonic); :meth:`stop`'s
        sound starts there."""
        self._chunks: list[np.ndarray] = []
        self._monitor = Monitor(self, env, "speakers")

    def play(self, samples: np.ndarray, at: float) -> None:
        """What the monitor heard next (the Monitor's target)."""
        if self.first_at is None:
            self.first_at = at
        self._chunks.append(samples)
        if not self.sounded.is_set() and samples.size and float(np.abs(samples).max()) >= self.HEARD:
            self.sounded.set()

    def stop(self) -> np.ndarray:
        """Stop listening: everything the speakers played meanwhile (mono, RATE)."""
        self._monitor.stop()
        return np.concatenate(self._chunks) if self._chunks else np.zeros(0, np.float32)


class Mic:
    """The pipe source's other end: audio sent at real speed, 20 ms at a time, with the
    speakers' echo in every channel where an ``echo`` path is set (Pulse.echo). The pipe
    is the sound card's buffer: a block waits for room in it for up to STALL seconds (a
    server slow to read, on a busy machine, reads it all later, as a sound card's buffer
    holds what the host has not taken yet), and only then is lost (counted in ``lost``),
    as in a room nobody records: the writer never waits for a server that does not read.
    Dropped at once when the pipe was full, a word said while the writer made up for a
    hold-up lost its middle ("complete" heard in 0.2 s of 0.5, too short to be a word).

    A room never pauses: a writer held up (the host's own work shares this process) sends
    what it owes at once when it comes back, each sample at the time it stands for, so
    that the microphone's sample count keeps to the wall clock the host's voice is timed
    on. One that skipped the time instead had the host's echo come 0.36-0.64 s before
    the host had played it, by the microphone's count: the canceller looked for it in
    vain and the host's own words were heard as plays. Only a writer that stopped for
    longer than CATCH_UP (between two runs) starts anew."""

    BLOCK = 320
    CATCH_UP = 2.0
    """The longest hold-up made up for (s)."""
    STALL = 2.0
    """The longest a block waits for room in the pipe (s): PulseAudio's own buffer on a
    sound card (2 s, timer-based scheduling). With 0.5 s, an audio server held up on a
    loaded machine lost the word said just then: stopped for 1.5 s as Ann began
    "complete", it lost 1.2 s of her audio and the host never heard her: the failure the
    live audio server test showed now and then (one run in eight here, and in CI); with
    2 s nothing was lost."""

    def __init__(self, fifo: Path, channels: int) -> None:
        self.fd = os.open(fifo, os.O_WRONLY | os.O_NONBLOCK)
        self.channels = channels
        self.t0: float | None = None
        self.sent = 0
        self.echo = None
        """The speakers heard back (echo_path.EchoPath), or None."""
        self.unread = False
        """Whether the last block found no room in the pipe for STALL seconds (no block
        then waits until one is read again)."""
        self.lost = 0
        """Samples dropped because the audio server did not read them (see the class)."""

    def _send(self, block: np.ndarray) -> None:
        """One block, (samples, channels) float32, at real speed."""
        now = time.monotonic()
        if self.t0 is None or now - (self.t0 + self.sent / RATE) > self.CATCH_UP:  # a new start
            self.t0 = now - self.sent / RATE
        if self.echo is not None:
            block = block + self.echo.take(self.t0 + self.sent / RATE, len(block))[:, None]
        pcm = (np.clip(block, -1, 1) * 32767).astype("<i2").tobytes()
        given = time.monotonic() + (0.0 if self.unread else self.STALL)
        while True:
            try:
                os.write(self.fd, pcm)
                self.unread = False
                break
            except BlockingIOError:
                if time.monotonic() >= given:
                    self.unread = True  # nobody reads: lost, as in a room
                    self.lost += len(block)
                    break
                select.select([], [self.fd], [], 0.01)
        self.sent += len(block)
        time.sleep(max(0.0, self.t0 + self.sent / RATE - time.monotonic()))

    def silence(self, seconds: float = 0.02) -> None:
        block = np.zeros((self.BLOCK, self.channels), np.float32)
        for _ in range(max(1, round(seconds * RATE / self.BLOCK))):
            self._send(block)

    def say(self, audio: np.ndarray) -> None:
        """``audio`` (samples, channels) float32 at 16 kHz, in real time."""
        audio = np.asarray(audio, np.float32).reshape(len(audio), -1)
        for i in range(0, len(audio), self.BLOCK):
            self._send(audio[i:i + self.BLOCK])

    def close(self) -> None:
        if self.fd is not None:
            os.close(self.fd)
            self.fd = None
