"""The echo canceller: the host's own voice taken out of a microphone's sound.

Every sentence and earcon the host plays is kept as a
:class:`~voice_host.speech.speaking.voice.HostPlayback` (its samples, and when it began
on the audio source's timeline). An :class:`EchoCanceller` gives that audio, as the far
end, to WebRTC's audio processing (AEC3, through livekit's ``rtc.AudioProcessingModule``)
10 ms at a time, in step with the microphone's own 10 ms, and the module takes out of
the microphone what it predicts of the host's voice through the room: an adaptive
filter, then a suppressor of what is left. The listener runs it ahead of voice activity
and recognition, one per channel of a local source (the laptop's microphone,
``--channels`` microphones); phones keep their browser's own echo cancellation.

The delay between what is played and what the microphone hears of it (the sound
card's output and input buffers, and the way through the air) is found from the sound
itself (:class:`DelayTracker`: the cross-correlation of the microphone with what was
played, phase-transform weighted, over the last 2.5 s whenever another 0.25 s of the
host's voice has played; two estimates in a row must agree) and the host's audio is
handed to the module that much later (:data:`EARLY` less), so the module's own filter
and delay estimator have only the room left to learn. Until the delay is found the
microphone's sound passes as it was (the module meanwhile gets the host's audio at
:data:`PRIOR_DELAY`) and the echo gate alone keeps the host out.

Ahead of voice activity: the listener's voice activity, echo gate decisions and
barge-in follow the cancelled sound; what the recognizer hears is ``[listening]
recognize_from`` (the microphone's own sound by default: see docs/LISTENING.md).

Where a playback has no samples (its interval only), there is nothing to cancel with:
the canceller leaves the microphone as it is and the echo gate gates it by time.
"""

from __future__ import annotations

import math

import numpy as np

from ..audio import SAMPLE_RATE, frame_rms
from ..speaking.voice import HostPlayback

BLOCK = SAMPLE_RATE // 100
"""The module works on 10 ms blocks."""
MAX_DELAY = 0.5
"""Longest delay from playback to microphone searched for (s)."""
PRIOR_DELAY = 0.03
"""The delay assumed before the sound says it (s): a sound card's buffers."""
TAIL = 0.45
"""Seconds after a sentence's end (its delay aside) that its echo still comes: a living
room's reverberation (RT60 0.4 s)."""
WINDOW = 2.0
"""Seconds of sound the delay is estimated over."""
EVERY = 0.25
"""Seconds of the host's voice between two estimates, until the delay is found."""
EVERY_FOUND = 0.75
"""... and once it is (each estimate, 13 ms of FFTs over 2.5 s on a 2-core AVX2 machine,
is the canceller's dearest part: four microphones estimating every 0.25 s took a fifth
of a core while the host spoke, and a loaded machine's listener fell behind the table)."""
SURE = 8.0
"""An estimate counts when its correlation peak stands this many times over the
correlation's typical size (its RMS over the delays searched)."""
MOVE = 0.004
"""An estimate counts when the one before it agrees within this much (s): the first
such pair sets the delay, a later one moves it when this far from the one in use. One
estimate alone may be astray: a player talking over the host where no echo reaches
the microphone (headphones) once gave a sure peak, and the canceller then took the
player's first 0.3 s for echo."""
EARLY = 0.005
"""The host's audio is handed to the module this much before its echo is found to come
(s): the module's filter can reach later sound, never earlier, and the strongest path
the estimate finds may come after the direct one."""
CONVERGE = 1.0
"""Seconds of the host's voice, after the delay is first found, that the module takes
to learn the room (the echo gate covers them: ``[listening] echo_gate = "converging"``)."""


def reference(playbacks: list[HostPlayback], t0: float, n: int) -> np.ndarray:
    """What the host played over ``n`` samples from ``t0`` (the sum of every playback
    with samples; an interrupted one stops at its end)."""
    out = np.zeros(n, np.float32)
    for p in playbacks[-8:]:
        s = p.samples
        if s is None or not s.size or p.start > t0 + n / SAMPLE_RATE or t0 > p.end:
            continue
        played = min(s.size, max(0, round((p.end - p.start) * SAMPLE_RATE)))
        a = round((t0 - p.start) * SAMPLE_RATE)  # index in p of out[0]
        lo, hi = max(0, -a), min(n, played - a)
        if hi > lo:
            out[lo:hi] += s[a + lo:a + hi]
    return out


class DelayTracker:
    """Finds the delay from what the host plays to what a microphone hears of it."""

    def __init__(self, max_delay: float = MAX_DELAY, window: float = WINDOW, every: float = EVERY):
        self.max_delay, self.window, self.every = max_delay, window, every
        self.delay: float | None = None
        """The delay in use (s); None until the sound has said it."""
        self.found_at: float | None = None
        """When it was first found (source time)."""
        self.estimates: list[tuple[float, float, float]] = []
        """Every estimate made: (time, delay, sureness)."""
        self._last: float | None = None
        self._voiced = 0.0  # seconds of the host's voice since the last estimate

    def heard(self, voiced: float) -> bool:
        """Another ``voiced`` seconds of the host's voice were played; whether it is time
        to estimate."""
        self._voiced += voiced
        return self._voiced >= (self.every if self.delay is None else max(self.every, EVERY_FOUND))

    def estimate(self, t: float, mic: np.ndarray, ref: np.ndarray) -> float | None:
        """Estimate from ``mic`` (the microphone, ending at ``t``) and ``ref`` (what was
        played over the same samples): the delay found (s), or None when the peak is not
        sure. Moves :attr:`delay` as the class says."""
        self._voiced = 0.0
        n = mic.size
        size = 1 << int(math.ceil(math.log2(2 * n)))
        cross = np.fft.rfft(mic, size) * np.conj(np.fft.rfft(ref, size))
        freqs = np.fft.rfftfreq(size, 1 / SAMPLE_RATE)
        cross[(freqs < 200) | (freqs > 4000)] = 0  # speech's band: no hum, no hiss
        cross /= np.abs(cross) + 1e-12  # the phase transform: a sharp peak at the delay
        cc = np.fft.irfft(cross, size)[: int(self.max_delay * SAMPLE_RATE) + 1]
        k = int(np.argmax(cc))
        sure = float(cc[k] / (np.sqrt(np.mean(cc**2)) + 1e-12))
        self.estimates.append((t, k / SAMPLE_RATE, sure))
        if sure < SURE:
            return None
        found = k / SAMPLE_RATE
        agreed = self._last is not None and abs(found - self._last) <= MOVE
        if self.delay is None and agreed:
            self.delay, self.found_at = found, t
        elif self.delay is not None and abs(found - self.delay) > MOVE and agreed:
            self.delay = found
        self._last = found
        return found


class EchoCanceller:
    """One microphone channel's echo canceller (see the module's docstring).

    ``playbacks`` is the host's history (a list that keeps growing: TtsVoice.history),
    on the microphone's timeline. :meth:`process` takes each frame the listener reads
    (a whole number of 10 ms blocks, in order) and gives it back with the host's echo
    taken out; frames where the host cannot be heard pass unchanged.
    """

    def __init__(self, playbacks: list[HostPlayback], prior_delay: float = PRIOR_DELAY,
                 tracker: DelayTracker | None = None):
        self.playbacks = playbacks
        self.prior_delay = prior_delay
        self.tracker = tracker or DelayTracker()
        self._apm = None
        self._ring = np.zeros(int((self.tracker.window + self.tracker.max_delay) * SAMPLE_RATE), np.float32)
        self._ring_end: float | None = None  # source time of the ring's end
        self._cancelled = 0.0  # seconds of the host's voice cancelled since the delay was found
        self.took_out = False
        """Whether the last frame :meth:`process` gave back had the host's voice taken out
        (the delay found, the host heard): else it passed as it was."""

    @property
    def delay(self) -> float:
        """The delay the host's audio is handed to the module with (s)."""
        return self.tracker.delay - EARLY if self.tracker.delay is not None else self.prior_delay

    @property
    def converged(self) -> bool:
        """Whether the module has had CONVERGE seconds of the host's voice since the delay
        was found."""
        return self.tracker.delay is not None and self._cancelled >= CONVERGE

    def _module(self):
        if self._apm is None:
            from livekit import rtc

            self._apm = rtc.AudioProcessingModule(echo_cancellation=True)
        return self._apm

    def active(self, t0: float, t1: float) -> bool:
        """Whether the host's voice (with samples) may be heard in [t0, t1]."""
        d = self.delay
        return any(p.samples is not None and p.start + d - BLOCK / SAMPLE_RATE <= t1
                   and t0 <= p.end + d + TAIL and p.samples.size for p in self.playbacks[-8:])

    def covers(self, t0: float, t1: float) -> bool:
        """Whether every sentence the host may be heard saying in [t0, t1] has samples to
        cancel it with (one without is left to the echo gate, by time)."""
        d = self.delay
        return not any(p.samples is None and p.start - MAX_DELAY <= t1 and t0 <= p.end + d + TAIL
                       for p in self.playbacks[-8:])

    def process(self, t: float, frame: np.ndarray) -> np.ndarray:
        """The microphone's ``frame`` (mono float32, starting at ``t`` on the source's
        timeline), the host's echo taken out. The module hears every frame (it learns the
        microphone's own sound meanwhile: cancelling from its first frames it took 20 dB
        less of the echo), but a frame where the host cannot be heard comes back as it
        was, and so does every frame until the delay is found: a microphone that does not
        hear the host (headphones) has no echo to take out, and the module, given the
        host's voice, took a player's word said over it for echo and left nothing of it."""
        frame = np.asarray(frame, np.float32)
        n = frame.size
        self._remember(t, frame)
        active = self.active(t, t + n / SAMPLE_RATE)
        ref = reference(self.playbacks, t - self.delay, n) if active else np.zeros(n, np.float32)
        if active:
            voiced = _voiced(ref)
            if self.tracker.delay is not None:
                self._cancelled += voiced
            if self.tracker.heard(voiced):
                before = self.delay
                self._track(t + n / SAMPLE_RATE)
                if self.delay != before:
                    self._realign(t, n)
                    ref = reference(self.playbacks, t - self.delay, n)
        out = self._run(self._module(), ref, frame)
        self.took_out = active and self.tracker.delay is not None
        return out if self.took_out else frame

    def _run(self, apm, ref: np.ndarray, mic: np.ndarray) -> np.ndarray:
        """``mic`` through ``apm`` with ``ref`` as the far end, 10 ms at a time."""
        from livekit import rtc

        far, near = _pcm(ref), _pcm(mic)
        n = mic.size
        out = mic.copy()
        for i in range(0, n - BLOCK + 1, BLOCK):
            apm.process_reverse_stream(rtc.AudioFrame(far[i:i + BLOCK].tobytes(), SAMPLE_RATE, 1, BLOCK))
            apm.set_stream_delay_ms(0)  # the host's audio comes already aligned
            block = rtc.AudioFrame(near[i:i + BLOCK].tobytes(), SAMPLE_RATE, 1, BLOCK)
            apm.process_stream(block)
            out[i:i + BLOCK] = np.frombuffer(block.data, np.int16) / 32768.0
        return out

    def _realign(self, t: float, n: int) -> None:
        """A new delay, up to ``t``: a new module (one that learnt another alignment
        unlearns it slowly: moved by 0.12 s, it took out 4 dB of the echo), taught the
        microphone's last seconds with the host's audio at the new delay, so that it
        goes on as if it had had it all along (the ring ends with the ``n`` samples of
        the frame at ``t``, which are still to come)."""
        self._apm = None
        apm = self._module()
        past = self._ring[: self._ring.size - n]
        start = t - past.size / SAMPLE_RATE
        self._run(apm, reference(self.playbacks, start - self.delay, past.size), past)

    def _remember(self, t: float, frame: np.ndarray) -> None:
        """Keep the microphone's last WINDOW + MAX_DELAY seconds (raw), up to the end of
        ``frame``, for the tracker."""
        end = t + frame.size / SAMPLE_RATE
        if self._ring_end is not None and abs(t - self._ring_end) > 0.5 / SAMPLE_RATE:
            self._ring[:] = 0  # a gap in the sound: start over
        k = min(frame.size, self._ring.size)
        self._ring = np.roll(self._ring, -k)
        self._ring[-k:] = frame[-k:]
        self._ring_end = end

    def _track(self, now: float) -> None:
        """Estimate the delay anew from the microphone's last seconds, up to ``now``."""
        tr = self.tracker
        n = self._ring.size
        ref = reference(self.playbacks, now - n / SAMPLE_RATE, n)  # the newest's echo is yet to come: fewer to match
        tr.estimate(now, self._ring, ref)


def _pcm(x: np.ndarray) -> np.ndarray:
    return (np.clip(x, -1.0, 1.0) * 32767.0).astype(np.int16)


def _voiced(ref: np.ndarray) -> float:
    """Seconds of ``ref`` in which the host is heard (10 ms blocks over -50 dBFS)."""
    return float(np.count_nonzero(frame_rms(ref, BLOCK) > 10 ** (-50 / 20))) * BLOCK / SAMPLE_RATE


__all__ = ["DelayTracker", "EchoCanceller", "reference"]
