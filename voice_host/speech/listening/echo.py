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

from ..audio import SAMPLE_RATE, frame_rms, rms
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
LEARN_OUTLIER = 10.0
"""While the echo gain is learned, a frame this many times the typical ratio is a player
talking, not the host's echo."""
HANGOVER = 0.3
"""Seconds a player found talking over the host stays found (a double-talk detector's
hangover): the weaker sounds of the same word, no louder than the echo and the room's
noise, are the player's too, so the word is not cut into pieces before the host stops.
It starts once a player is found again within CONFIRM seconds: one frame standing out of
the echo may be a blip of the host's own voice, and 0.3 s of it would be a word."""
CONFIRM = 0.1
"""Seconds within which a player found over the host must be found again to start the
hangover."""
TALKING = 4.0
"""A frame this many times the room's noise floor (12 dB over it; and over -60 dBFS) is
someone talking."""
CARRY = 1.5
"""Seconds, at most, that a player already talking when the host's voice begins is
carried on as the player while the echo gain is not yet learnt (see EchoGate._carried)."""
PACE = 18.0
"""Characters of a sentence the host says a second, at most (piper's joe: 13-18, median
14.6): of a sentence cut off, the words it may have said by then."""
HEARD_OVER_ROOM = 2.0
HEARD_FLOOR = 1e-3
"""The host's echo is heard back (EchoGate.heard_back) where it is at least this many
times the room's own sound, and above this level (-60 dBFS) in a silent one: with no
echo path the gain learnt is its floor (1e-3), the echo of a full-scale voice -60 dBFS."""
CUT_TAIL = 0.3
"""Seconds of a sentence cut off that may still be heard after the cut: the sound already
on its way to the speaker, and the room's echo of it."""


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
        self._learned: list[tuple[float, float]] = []  # microphone / host levels, and its echo's, while learnt
        self._room: deque[float] = deque(maxlen=ROOM_FRAMES)  # microphone levels while the host is quiet
        self._player_until = -math.inf  # a player talking over the host is heard until then (HANGOVER)
        self._before = 0.0  # the level of the last frame before the host could be heard
        self._carry: tuple[float, float, float] | None = None
        """A player talking as the host's voice began: (carried until at most, their level,
        carried until while they pause); None until the first frame the gain is learnt from."""
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

    def heard_back(self, t0: float, t1: float) -> bool:
        """Whether the host's voice over [t0, t1] is heard on this microphone: the echo
        of its loudest so far in the sentence, as learnt, over the room's own sound (a
        laptop's speaker beside it), not lost under it (headphones, a null sink, a
        microphone the speakers do not reach). A pause between its words is no less
        heard back. Until the echo is learnt, it may be."""
        active = self._active(t0, t1)
        if not active:
            return False
        if self._gain is None or any(p.samples is None for p in active):
            return True
        ref = max(self._reference_rms(p, p.start + self.max_delay, t1) for p in active)  # from its start
        return self._gain * ref > max(HEARD_OVER_ROOM * self._noise(), HEARD_FLOOR)

    def _noise(self) -> float:
        """The room's own sound while the host is quiet (its 20th percentile, with
        ROOM_MARGIN): under it, nothing is the host's echo."""
        return ROOM_MARGIN * float(np.percentile(self._room, 20)) if self._room else 0.0

    def _reference_rms(self, p: HostPlayback, t0: float, t1: float) -> float:
        """The loudest 10 ms the host played in [t0 - max_delay, t1]."""
        assert p.samples is not None
        a = max(0, round((t0 - self.max_delay - p.start) * SAMPLE_RATE))
        b = min(round((min(t1, p.end) - p.start) * SAMPLE_RATE), p.samples.size)
        if b <= a:
            return 0.0
        seg = p.samples[a:b]
        frame = 160
        if seg.size < frame:
            return rms(seg)
        # the 10 ms pieces end at t1: the newest sound is the one an onset echo holds
        return float(frame_rms(seg[seg.size % frame:], frame).max())

    def is_echo(self, t0: float, t1: float, frame: np.ndarray) -> bool:
        """True when the microphone frame [t0, t1] is (just) the host's own voice."""
        active = self._active(t0, t1)
        mic = rms(frame)
        if not active:
            self._room.append(mic)
            self._before = mic
            return False
        if any(p.samples is None for p in active):
            return True  # no reference audio: gate by time
        return self._echo(active, t0, t1, mic) and t0 >= self._player_until

    def _echo(self, active: list[HostPlayback], t0: float, t1: float, mic: float) -> bool:
        """Whether a frame of level `mic` may be the echo of the `active` sentences."""
        # what the host played during the last max_delay seconds (echo is causal)
        ref = max(self._reference_rms(p, t0, t1) for p in active)
        noise = self._noise()
        echo = math.sqrt(max(mic * mic - noise * noise, 0.0))  # what of it may be the host's
        if ref < 1e-3:
            # the host is quiet now (a pause, or just after the end): reverberation only
            tail_ref = max(self._reference_rms(p, t0 - self.tail, t1) for p in active)
            if self._gain is None:
                self._before = mic  # the host not heard yet
            if tail_ref < 1e-3 or self._gain is None:
                return False
            return mic <= self.double_talk_ratio * math.hypot(self._gain * tail_ref * 0.5, noise)
        if len(self._learned) < self.learn_frames:
            if self._carried(t0, t1, mic, noise):
                return False
            return self._learn(mic / ref, echo / ref)
        if mic <= self.double_talk_ratio * math.hypot(self._gain * ref, noise):  # the echo over the room's noise
            # follow slow changes of the echo path: a peak tracker, rising and decaying slowly
            self._gain = max(1e-3, self._gain * 0.998, min(echo / ref, self._gain * 1.02))
            return True
        # a player over the host, once the echo is known (a frame of the host's quiet
        # moments, while it is learnt, may stand out of it without anyone talking)
        if t0 - self._player_found < CONFIRM:  # found again: a player for sure, not a blip of the echo
            self._player_until = t1 + HANGOVER
        self._player_found = t1
        return False

    def _carried(self, t0: float, t1: float, mic: float, noise: float) -> bool:
        """Whether a frame the echo gain would be learnt from is a player's who was
        already talking when the host's voice began: their word goes on (no more than
        12 dB under their level before, a pause of HANGOVER at most, CARRY seconds at
        most) and is neither the host's echo nor learnt as it. Learnt as echo, a word
        begun 0.1-0.3 s before the host's first sentence, with no echo path at all, set
        the gain at the player's own level, and 6 to 12 of its 12 loud frames were gated."""
        if self._carry is None:  # the first frame learnt from: was someone talking just before?
            talking = self._before > max(TALKING * noise / ROOM_MARGIN, 1e-3)
            self._carry = (t0 + CARRY, self._before, t0 + HANGOVER) if talking else (-math.inf, 0.0, -math.inf)
        until, level, paused = self._carry
        if t0 >= min(until, paused):
            return False
        if mic >= level / TALKING:
            self._carry = (until, level, t1 + HANGOVER)
        return True

    def _learn(self, ratio: float, echo: float) -> bool:
        """Learn the echo gain from the first frames of the host's speech (the loudest
        ratio of the echo, heard over the room's noise, to the host: as cautious as can
        be), leaving out frames far above the typical one (the 20th percentile of the
        microphone's ratios, the host alone before anyone joins in): a player talking
        over them where the speakers do not reach the microphone (headphones, a null
        sink). The room's noise is not the host's echo: learnt as echo, a player's word
        said over the host in a loud room would be no louder than the "echo". Whether
        this frame is echo."""
        self._learned.append((ratio, echo))
        ratios, echoes = np.array(self._learned).T
        typical = max(float(np.percentile(ratios, 20)), 1e-3)
        self._gain = max(float(echoes[ratios <= LEARN_OUTLIER * typical].max(initial=1e-3)), 1e-3)
        return ratio <= LEARN_OUTLIER * typical

    def echo_of(self, text: str, t0: float, t1: float, audio: np.ndarray | None = None) -> HostPlayback | None:
        """The host's sentence whose echo `text`, heard in [t0, t1], is: one it repeats,
        when the utterance's `audio` (when given) is no louder than the host's echo could
        be (a player asked to say "I am Dee, and I am ready to play" says the host's
        words), or when the sentence was cut off (its words said by then are its own: its
        first words, heard back as they stopped it, were louder than the echo gain learnt
        where it pauses); None when it repeats none."""
        if not text:
            return None
        from rapidfuzz import fuzz

        from ..recognizing.recognizer import normalize_text

        for p in self._active(t0, t1):
            said = _said(p)
            if said and fuzz.partial_ratio(normalize_text(text), normalize_text(said)) >= self.text_similarity:
                loud = audio is not None and not p.interrupted and self._louder_than_echo(p, t0, t1, audio)
                return None if loud else p
        return None

    def _louder_than_echo(self, p: HostPlayback, t0: float, t1: float, audio: np.ndarray) -> bool:
        """Whether `audio`, heard in [t0, t1], is too loud to be the echo of `p` (the learned
        gain with its double-talk margin, over the loudest stretch of the host's voice)."""
        if self._gain is None or p.samples is None:
            return False
        return rms(audio) > self.double_talk_ratio * self._gain * self._reference_rms(p, t0, t1)


def _said(p: HostPlayback) -> str:
    """What the host said of ``p``: all of it, or of a sentence cut off (a player
    talking over it), the words it may have said by then (at PACE), with its tail
    (CUT_TAIL): cut off by its own first sound ("Sorry, Eli, ..."), the host heard
    "sorry" as a player's word. Live, the host asked
    "Fay, so I know your voice, please say: I am Fay, ..." and was cut off after "Fay,
    so"; Eli's "I am Eli, and I am ready to play", said just then, was taken for the
    echo of the rest, never said, and Eli was never enrolled."""
    if not p.interrupted:
        return p.text
    n = int((p.end - p.start + CUT_TAIL) * PACE)
    cut = p.text.find(" ", n)  # the word under way at the cut was heard
    return p.text if cut < 0 else p.text[:cut]


__all__ = ["EchoGate"]
