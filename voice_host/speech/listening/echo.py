"""The echo gate: what the microphone may hear of the host's own voice.

Every sentence the host plays is kept as a :class:`~voice_host.speech.speaking.voice.HostPlayback`
(its samples, start and end on the audio source's timeline). For each microphone frame
the :class:`EchoGate` predicts the loudest echo the host's audio could cause (an
adaptive echo gain times the host's own level around that moment, over the room's own
noise heard while the host is quiet) and calls the frame the host's unless it is
clearly louder: a Geigel-style double-talk detector, with a hangover (a player found
talking over the host stays found for HANGOVER seconds). Host-only
audio never starts an utterance; a player talking over the host does (and the listener
then stops the host: barge-in). Transcripts that repeat what the host just said are
dropped as a second check. Without reference audio the gate works by time alone.
"""

from __future__ import annotations

import math
from collections import deque

import numpy as np

from ..audio import SAMPLE_RATE
from ..speaking.voice import HostPlayback

MAX_DELAY = 0.15
"""Longest expected delay from the host's playback to a microphone next to it (s)."""
TAIL = 0.25
"""Echo lasting after a sentence ends (room reverberation), in seconds."""
UNGATED = ("heard",)
"""Earcons the microphone is not gated for: the tick the host plays in a player's pause
while the utterance goes on. A player who goes on over it is not the host's echo, and
its own echo is too short to pass for speech (``[listening] min_speech``)."""
ROOM_FRAMES = 150
"""How many of the latest frames heard while the host is quiet tell the room's noise
(about 4.5 s of 30 ms frames)."""
ROOM_MARGIN = 1.5
"""The room's noise reaches this far above its floor (the 20th percentile of those
frames) from frame to frame: 3.5 dB."""
STEADY = 0.25
"""Once learnt, the echo gain follows the echo path only on frames where the host's
quietest moment of the last MAX_DELAY seconds is at least this part of its loudest (12
dB): the host sounded all through, so the microphone hears its echo whatever the delay.
In the host's pauses the microphone hears next to nothing against the loud sound just
before, and such frames would drag the gain down."""
HANGOVER = 0.3
"""Seconds a player found talking over the host stays found (a double-talk detector's
hangover): the weaker sounds of the same word, no louder than the echo and the room's
noise, are the player's too, so the word is not cut into pieces before the host stops."""


class EchoGate:
    """Decides whether microphone audio is the host's own voice coming back.

    `playbacks` is the host's history (a list that keeps growing, e.g.
    TtsVoice.history). Playbacks without samples are handled by time alone: while
    one is playing, nothing the microphone hears counts as a player (no barge-in).
    """

    @classmethod
    def later(cls, playbacks: list[HostPlayback] | None, delay: float) -> "EchoGate":
        """A gate for a microphone whose audio reaches the listener up to ``delay`` seconds
        late (a phone over the network): the host's voice, and its tail, come back later."""
        return cls(playbacks, max_delay=MAX_DELAY + delay, tail=TAIL + delay)

    def __init__(
        self,
        playbacks: list[HostPlayback] | None = None,
        max_delay: float = MAX_DELAY,
        tail: float = TAIL,
        double_talk_ratio: float = 1.5,
        text_similarity: float = 85.0,
        learn_frames: int = 20,
    ):
        self.playbacks = playbacks if playbacks is not None else []
        """The host's sentences (shared with the voice)."""
        self.max_delay = max_delay
        """Longest expected delay from playback to microphone (s)."""
        self.tail = tail
        """Echo lasting after a sentence ends (room reverberation), in seconds."""
        self.double_talk_ratio = double_talk_ratio
        """Mic level this many times the predicted echo level means a player is talking."""
        self.text_similarity = text_similarity
        """rapidfuzz partial_ratio at or above which a transcript is the host's words."""
        self.learn_frames = learn_frames
        """Frames of host speech at the start used to learn the echo gain."""
        self._gain: float | None = None
        self._learned: deque[tuple[float, np.ndarray]] = deque(maxlen=10 * learn_frames)  # bounds of the echo gain, a frame each
        self._room: deque[float] = deque(maxlen=ROOM_FRAMES)  # microphone levels while the host is quiet
        self._player_until = -math.inf  # a player talking over the host is heard until then (HANGOVER)
        self._player_found = -math.inf  # the end of the last frame found to be a player's

    @property
    def echo_gain(self) -> float | None:
        """The current estimate of microphone level / host playback level."""
        return self._gain

    def _active(self, t0: float, t1: float) -> list[HostPlayback]:
        return [p for p in self.playbacks[-8:] if p.start - self.max_delay <= t1 and t0 <= p.end + self.tail
                and p.earcon not in UNGATED]

    def host_active(self, t0: float, t1: float) -> bool:
        """True when the host's voice may be in the microphone during [t0, t1]."""
        return bool(self._active(t0, t1))

    def _reference_rms(self, p: HostPlayback, t0: float, t1: float) -> float:
        """The loudest 10 ms the host played in [t0 - max_delay, t1]."""
        return float(self._lag_levels(p, t0, t1, 0.01).max())

    def _lag_levels(self, p: HostPlayback, t0: float, t1: float, window: float) -> np.ndarray:
        """The host's level over `window` seconds ending at t1 - lag, for each lag from 0 to
        max_delay + (t1 - t0 - window) in 10 ms steps (silence outside its sentence): with
        the frame's own length, the level of its echo at each delay up to max_delay."""
        assert p.samples is not None
        step = SAMPLE_RATE // 100
        k = max(1, round(window * 100))
        lags = round((self.max_delay + t1 - t0 - window) * 100) + 1
        b = round((t1 - p.start) * SAMPLE_RATE)
        a = b - (lags + k - 1) * step
        seg = np.zeros(b - a, np.float32)
        lo, hi = max(a, 0), min(b, p.samples.size)
        if hi > lo:
            seg[lo - a:hi - a] = p.samples[lo:hi]
        energies = np.mean(seg.reshape(-1, step) ** 2, axis=1)
        return np.sqrt(np.convolve(energies, np.full(k, 1 / k), mode="valid"))[::-1]  # lag 0 first

    def is_echo(self, t0: float, t1: float, frame: np.ndarray) -> bool:
        """True when the microphone frame [t0, t1] is (just) the host's own voice."""
        active = self._active(t0, t1)
        mic = _level(frame)
        if not active:
            self._room.append(mic)
            return False
        if any(p.samples is None for p in active):
            return True  # no reference audio: gate by time
        return self._echo(active, t0, t1, mic) and t0 >= self._player_until

    def _echo(self, active: list[HostPlayback], t0: float, t1: float, mic: float) -> bool:
        """Whether a frame of level `mic` may be the echo of the `active` sentences."""
        # what the host played during the last max_delay seconds (echo is causal), at its
        # loudest and its quietest over the frame's length
        levels = np.max([self._lag_levels(p, t0, t1, t1 - t0) for p in active], axis=0)
        ref, quietest = float(levels.max()), float(levels.min())
        noise = ROOM_MARGIN * float(np.percentile(self._room, 20)) if self._room else 0.0
        echo = math.sqrt(max(mic * mic - noise * noise, 0.0))  # what of it may be the host's
        if ref < 1e-3:
            # the host is quiet now (a pause, or just after the end): reverberation only
            tail_ref = max(self._reference_rms(p, t0 - self.tail, t1) for p in active)
            if tail_ref < 1e-3 or self._gain is None:
                return False
            return mic <= self.double_talk_ratio * math.hypot(self._gain * tail_ref * 0.5, noise)
        if self._gain is None or len(self._learned) < self.learn_frames:
            # the host's quietest over each span of MAX_DELAY among the delays: the echo's
            # delay lies in one of them
            spans = np.lib.stride_tricks.sliding_window_view(levels, min(levels.size, round(MAX_DELAY * 100) + 1))
            quiet = spans.min(axis=1)
            return self._learn(echo / ref, np.where(quiet >= 1e-3, mic / np.maximum(quiet, 1e-3), np.inf))
        steady = quietest >= STEADY * ref
        if mic <= self.double_talk_ratio * math.hypot(self._gain * ref, noise):  # the echo over the room's noise
            if steady:  # follow slow changes of the echo path: a peak tracker, rising and decaying slowly
                self._gain = max(1e-3, self._gain * 0.998, min(echo / ref, self._gain * 1.02))
            return True
        # a player over the host; found again within 0.1 s, a player for sure, not a blip
        if t0 - self._player_found < 0.1:
            self._player_until = t1 + HANGOVER
        self._player_found = t1
        return False

    def _learn(self, low: float, highs: np.ndarray) -> bool:
        """Learn the echo gain from the first frames of the host's speech. A frame of echo
        brackets the gain: `low` (what the microphone heard over the room's noise, against
        the host's loudest level at any delay up to max_delay) <= gain <= its `highs` at
        the echo's own delay (all it heard, against the host's quietest level over each
        span of MAX_DELAY among the delays; infinite where the host paused). The echo's
        delay is not known, but it lies in one span: the highest of the spans' bounds (the
        10th percentile of the frames', with the double-talk margin) bounds the gain. A
        frame whose `low` lies above it is a player talking over the host: where the
        speakers do not reach the microphone (headphones, a null sink), or before anything
        is learnt. The gain is the highest `low` of the rest: as cautious as can be. In
        the host's pauses the microphone hears next to nothing against the loud sound just
        before; judged by such frames, a gain once came out near zero and the rest of the
        sentence passed for a player. The room's noise is not the host's echo: learnt as
        echo, a player's word said over the host in a loud room would be no louder than
        the "echo". Whether this frame is echo."""
        self._learned.append((low, highs))
        lows = np.array([x for x, _ in self._learned])
        bounds = np.array([h for _, h in self._learned])
        finite = np.isfinite(bounds)
        spans = [float(np.percentile(bounds[finite[:, j], j], 10)) for j in range(bounds.shape[1]) if finite[:, j].any()]
        if not spans:
            return True  # nothing bounds the gain yet: the host's voice
        upper = self.double_talk_ratio * max(max(spans), 1e-3)
        self._gain = max(float(lows[lows <= upper].max(initial=1e-3)), 1e-3)
        return low <= upper

    def is_echo_text(self, text: str, t0: float, t1: float, audio: np.ndarray | None = None) -> bool:
        """True when `text`, heard in [t0, t1], repeats what the host was saying, and the
        utterance's `audio` (when given) is no louder than the host's echo could be: a
        player asked to say "I am Dee, and I am ready to play" says the host's words."""
        if not text:
            return False
        from rapidfuzz import fuzz

        from ..recognizing.recognizer import normalize_text

        for p in self._active(t0, t1):
            if fuzz.partial_ratio(normalize_text(text), normalize_text(p.text)) >= self.text_similarity:
                return audio is None or not self._louder_than_echo(p, t0, t1, audio)
        return False

    def _louder_than_echo(self, p: HostPlayback, t0: float, t1: float, audio: np.ndarray) -> bool:
        """Whether `audio`, heard in [t0, t1], is too loud to be the echo of `p` (the learned
        gain with its double-talk margin, over the loudest stretch of the host's voice)."""
        if self._gain is None or p.samples is None:
            return False
        return _level(audio) > self.double_talk_ratio * self._gain * self._reference_rms(p, t0, t1)


def _level(audio: np.ndarray) -> float:
    """The RMS level of microphone audio."""
    return float(np.sqrt(np.mean(np.asarray(audio, dtype=np.float32) ** 2)))


__all__ = ["EchoGate"]
