"""Speaker turns: cut the audio into utterances, recognize them, say who spoke.

Per input channel, a voice-activity detector (WebRTC VAD, plus an adaptive noise
floor) finds where speech starts and ends; an utterance ends after
`trailing_silence` seconds without speech. Each utterance is fed to a recognizer
while it is spoken and finished at its end. Utterances by different players whose
starts lie within the tie window, or that overlap, are marked simultaneous (the
Prolix tiebreaker). Each one is then attributed to a player, strongest evidence
first: the input channel (one microphone per player), an enrolled voice print, the
player's name said first ("Bob: jewelers", "Bob interrupts jewelers", "Bob says
jewelers"), else nobody (speaker None: the host asks). The host's own voice is kept
out by an :class:`~voice_host.speech.voice.EchoGate`.

Entry point: :func:`listen` (or :class:`Listener` to change the expected phrases
between utterances).
"""

from __future__ import annotations

import collections
import re
from dataclasses import dataclass, field
from typing import Callable, Iterable, Iterator, Mapping, Sequence

import numpy as np

from .recognizer import Recognizer, Transcript, Word, normalize_text
from .sources import SAMPLE_RATE, AudioSource
from .voice import EchoGate, HostVoice
from .voiceprint import VoicePrints


@dataclass
class TurnConfig:
    """Settings of segmentation and attribution."""

    frame_ms: int = 30
    """VAD frame length (10, 20 or 30 ms)."""
    vad_aggressiveness: int = 2
    """WebRTC VAD mode 0 (lenient) .. 3 (strict)."""
    trailing_silence: float = 0.5
    """Seconds without speech that end an utterance."""
    start_frames: int = 3
    """Voiced frames among the last `start_window` needed to start an utterance."""
    start_window: int = 5
    """Frames looked at to start an utterance."""
    min_speech: float = 0.2
    """Utterances with less voiced time than this (s) are dropped as noise."""
    pre_roll: float = 0.3
    """Audio (s) kept from before the detected start and given to the recognizer."""
    max_utterance: float = 20.0
    """An utterance longer than this (s) is cut."""
    min_level_db: float = -55.0
    """Frames quieter than this (dBFS) are never speech."""
    noise_margin_db: float = 6.0
    """Speech frames must be this much above the tracked noise floor."""
    crosstalk_db: float = 15.0
    """With one microphone per player, a channel's frame is speech only if it is
    within this many dB of the loudest channel (other players' voices leak in)."""
    tie_window: float = 0.5
    """Utterances by different players starting within this many seconds are simultaneous."""
    ask_below: float = 0.6
    """Attribution confidence below which the host should ask ("Was that Bob?")."""
    channel_confidence: float = 0.95
    """Confidence of an attribution by input channel."""
    name_confidence: float = 0.8
    """Confidence of an attribution by a spoken name that matches exactly."""


@dataclass
class Attribution:
    """Who said an utterance, and how sure the host is."""

    speaker: str | None
    """The player (None: unknown, ask)."""
    confidence: float
    """0..1."""
    method: str | None
    """"channel", "voiceprint", "name" or None."""
    body: str
    """The text without the spoken-name prefix ("Bob says jewelers" -> "jewelers";
    "Bob interrupts jewelers" -> "interrupts jewelers")."""


@dataclass
class Utterance:
    """One player's turn at speaking: what was said, when, and by whom."""

    id: int
    """Sequence number within the session (0, 1, ...), in order of emission."""
    start: float
    """Start time in seconds on the source timeline (recording or game clock)."""
    end: float
    """End time (end of the last voiced frame), seconds."""
    text: str
    """Everything recognized, normalized (lower case, no punctuation)."""
    body: str
    """`text` without the spoken-name prefix used for attribution."""
    words: list[Word]
    """Recognized words with times on the source timeline."""
    confidence: float
    """Recognition confidence 0..1."""
    speaker: str | None
    """Who said it; None when unknown (the host should ask)."""
    speaker_confidence: float
    """Attribution confidence 0..1."""
    speaker_method: str | None
    """How the speaker was found: "channel", "voiceprint", "name" or None."""
    channel: int
    """Input channel it came from (0 for a mono source)."""
    ask: bool = False
    """True when speaker_confidence is below the ask threshold: confirm with the table."""
    simultaneous_with: tuple[int, ...] = ()
    """Ids of earlier-emitted utterances by other players said at the same moment."""
    engine: str = ""
    """Recognizer that produced the text."""
    audio: np.ndarray | None = field(default=None, repr=False, compare=False)
    """The utterance's mono 16 kHz audio (pre-roll included), e.g. for enrollment."""


# ----------------------------------------------------------------- events (on_event)

@dataclass
class SpeechStarted:
    """A player started speaking (fires early, before recognition)."""

    channel: int
    """Input channel."""
    time: float
    """Start time on the source timeline (s)."""
    barge_in: bool = False
    """True when the host was speaking and was told to stop."""


@dataclass
class Partial:
    """A partial recognition result while the player is still speaking (vosk)."""

    channel: int
    """Input channel."""
    text: str
    """Text so far (may change)."""
    time: float
    """Source time of the audio that produced it (s)."""


@dataclass
class Discarded:
    """Speech that was not emitted as an utterance, and why."""

    channel: int
    """Input channel."""
    start: float
    """Start time (s)."""
    end: float
    """End time (s)."""
    reason: str
    """"no words", "host echo", "too short"."""
    text: str = ""
    """Whatever was recognized."""


# ----------------------------------------------------------------- segmentation

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


class _ChannelState:
    def __init__(self, channel: int, config: TurnConfig):
        self.channel = channel
        self.config = config
        self.frame = SAMPLE_RATE * config.frame_ms // 1000
        pre = max(config.start_window, int(round(config.pre_roll * 1000 / config.frame_ms)))
        self.ring: collections.deque = collections.deque(maxlen=pre)
        self.in_speech = False
        self.start = 0.0
        self.last_voiced_end = 0.0
        self.voiced = 0.0
        self.audio_start = 0.0
        self.run = 0
        self.levels: collections.deque = collections.deque(maxlen=max(10, 3000 // config.frame_ms))
        self.audio: list[np.ndarray] = []


class Segmenter:
    """Streaming VAD over frames of one or more channels (WebRTC VAD + noise floor).

    :meth:`push` takes one frame per channel and returns events:
    ("start", channel, time, pre_roll_audio), ("audio", channel, time, frame),
    ("end", channel, Segment, audio).
    """

    def __init__(self, channels: int, config: TurnConfig | None = None):
        import webrtcvad

        self.config = config or TurnConfig()
        self.vads = [webrtcvad.Vad(self.config.vad_aggressiveness) for _ in range(channels)]
        self.states = [_ChannelState(c, self.config) for c in range(channels)]
        self.frame = self.states[0].frame

    def is_voiced(self, channel: int, frame: np.ndarray, level_db: float, loudest_db: float) -> bool:
        st = self.states[channel]
        c = self.config
        # noise floor: the 10th percentile of the last 3 s of frame levels
        st.levels.append(level_db)
        noise_db = float(np.percentile(st.levels, 10)) if len(st.levels) >= 10 else min(st.levels)
        if level_db < c.min_level_db or level_db < noise_db + c.noise_margin_db:
            return False
        if level_db < loudest_db - c.crosstalk_db:
            return False
        pcm = (np.clip(frame, -1, 1) * 32767).astype("<i2").tobytes()
        return self.vads[channel].is_speech(pcm, SAMPLE_RATE)

    def push(self, t: float, frames: np.ndarray, blocked: Sequence[bool] | None = None) -> list[tuple]:
        """Process one frame per channel (frames: (frame, channels)) starting at t.

        `blocked[c]` marks a channel's frame as not a player (e.g. the host's echo).
        """
        c = self.config
        fdur = self.frame / SAMPLE_RATE
        levels = 10 * np.log10(np.mean(frames.astype(np.float64) ** 2, axis=0) + 1e-12)
        loudest = float(levels.max())
        events: list[tuple] = []
        for ch, st in enumerate(self.states):
            frame = frames[:, ch]
            voiced = not (blocked and blocked[ch]) and self.is_voiced(ch, frame, float(levels[ch]), loudest)
            if not st.in_speech:
                st.ring.append((t, frame, voiced))
                recent = list(st.ring)[-c.start_window :]
                if sum(v for _, _, v in recent) >= c.start_frames:
                    st.in_speech = True
                    first_voiced = next(i for i, (_, _, v) in enumerate(recent) if v)
                    st.start = recent[first_voiced][0]
                    st.voiced = sum(fdur for _, _, v in recent if v)
                    st.audio_start = st.ring[0][0]
                    st.run = 0
                    st.last_voiced_end = t + fdur
                    pre = np.concatenate([f for _, f, _ in st.ring])
                    st.audio = [pre]
                    st.ring.clear()
                    events.append(("start", ch, st.start, pre))
                continue
            st.audio.append(frame)
            events.append(("audio", ch, t, frame))
            if voiced:
                st.voiced += fdur
                st.run += 1
                if st.run >= 2:  # a lone voiced frame (a noise burst) does not extend
                    st.last_voiced_end = t + fdur
            else:
                st.run = 0
            too_long = t + fdur - st.start >= c.max_utterance
            if t + fdur - st.last_voiced_end >= c.trailing_silence or too_long:
                events.append(self._end(ch))
        return events

    def _end(self, ch: int) -> tuple:
        st = self.states[ch]
        st.in_speech = False
        seg = Segment(ch, st.start, st.last_voiced_end, st.voiced, st.audio_start)
        audio = np.concatenate(st.audio) if st.audio else np.zeros(0, np.float32)
        st.audio = []
        return ("end", ch, seg, audio)

    def flush(self) -> list[tuple]:
        """End every utterance still open (end of the recording)."""
        return [self._end(st.channel) for st in self.states if st.in_speech]


def segments(audio: np.ndarray, config: TurnConfig | None = None) -> list[Segment]:
    """All speech segments of a whole signal ((n,) or (n, channels), 16 kHz)."""
    audio = np.asarray(audio, dtype=np.float32)
    audio = audio.reshape(audio.shape[0], -1)
    seg = Segmenter(audio.shape[1], config)
    out = []
    n = seg.frame
    for i in range(0, audio.shape[0] - n + 1, n):
        for ev in seg.push(i / SAMPLE_RATE, audio[i : i + n]):
            if ev[0] == "end":
                out.append(ev[2])
    out += [ev[2] for ev in seg.flush()]
    return [s for s in out if s.voiced >= seg.config.min_speech]


# ----------------------------------------------------------------- attribution

_CONNECTORS = ("says", "said", "saying")


def split_name_prefix(text: str, players: Sequence[str], min_score: float = 80.0) -> tuple[str | None, str, float]:
    """("Bob", "jewelers", 1.0) for "bob says jewelers" when Bob is a player.

    The first one or two words are compared with each player's name (rapidfuzz
    ratio, so a recognizer's "rob" for "Bob" may still match); "says" after the name
    is dropped, "interrupts" is kept. Returns (None, text, 0.0) when no name leads.
    """
    from rapidfuzz import fuzz

    words = normalize_text(text).split()
    if not words or not players:
        return None, normalize_text(text), 0.0
    best: tuple[str | None, int, float] = (None, 0, 0.0)
    for name in players:
        target = normalize_text(name)
        n = len(target.split())
        for k in {n, 1, 2}:
            if k > len(words):
                continue
            score = fuzz.ratio(" ".join(words[:k]), target)
            if score > best[2] or (score == best[2] and k > best[1]):
                best = (name, k, score)
    name, k, score = best
    if name is None or score < min_score:
        return None, " ".join(words), 0.0
    rest = words[k:]
    if rest and rest[0] in _CONNECTORS:
        rest = rest[1:]
    return name, " ".join(rest), score / 100.0


class Attributor:
    """Attribution chain: channel > voice print > spoken name > unknown."""

    def __init__(
        self,
        players: Sequence[str] = (),
        channel_players: Mapping[int, str | None] | Sequence[str | None] | None = None,
        voiceprints: VoicePrints | None = None,
        config: TurnConfig | None = None,
    ):
        self.players = list(players)
        """All player names (seating order)."""
        if channel_players is not None and not isinstance(channel_players, Mapping):
            channel_players = dict(enumerate(channel_players))
        self.channel_players: dict[int, str | None] = dict(channel_players or {})
        """Player per input channel (one microphone each)."""
        for name in self.channel_players.values():
            if name and name not in self.players:
                self.players.append(name)
        self.voiceprints = voiceprints
        """Enrolled voice prints, if any."""
        self.config = config or TurnConfig()

    def attribute(self, text: str, audio: np.ndarray | None = None, channel: int = 0) -> Attribution:
        c = self.config
        name, body, score = split_name_prefix(text, self.players)
        by_name = name, (c.name_confidence * score if name else 0.0)
        if not name:
            body = normalize_text(text)
        who = self.channel_players.get(channel)
        if who:
            return Attribution(who, c.channel_confidence, "channel", body)
        ident = None
        if self.voiceprints is not None and self.voiceprints.players and audio is not None and audio.size:
            ident = self.voiceprints.identify(audio, candidates=[p for p in self.players] or None)
        if name:  # a name said first wins; a voice print that agrees makes it surer
            conf = by_name[1]
            if ident is not None and ident.speaker == name:
                conf = 1 - (1 - conf) * (1 - ident.confidence)
            return Attribution(name, conf, "name", body)
        if ident is not None and ident.speaker is not None:
            conf = ident.confidence
            if set(self.players) - set(self.voiceprints.players):  # it may be a voice not enrolled yet
                conf = min(conf, c.ask_below / 2)
            return Attribution(ident.speaker, conf, "voiceprint", body)
        return Attribution(None, 0.0, None, body)


def are_simultaneous(a: Utterance, b: Utterance, tie_window: float = 0.5) -> bool:
    """True when two utterances by different players start within the tie window or overlap."""
    if a.speaker is not None and a.speaker == b.speaker:
        return False
    return abs(a.start - b.start) <= tie_window or (a.start < b.end and b.start < a.end)


def simultaneous_groups(utterances: Iterable[Utterance], tie_window: float = 0.5) -> list[list[Utterance]]:
    """Groups (2 or more) of utterances said at the same moment by different players."""
    items = sorted(utterances, key=lambda u: u.start)
    groups: list[list[Utterance]] = []
    for u in items:
        for g in groups:
            if any(are_simultaneous(u, v, tie_window) for v in g):
                g.append(u)
                break
        else:
            groups.append([u])
    return [g for g in groups if len(g) > 1]


# ----------------------------------------------------------------- the listener

class Listener:
    """Turns audio into attributed utterances (see :func:`listen`)."""

    def __init__(
        self,
        recognizer: Recognizer,
        players: Sequence[str] = (),
        channel_players: Mapping[int, str | None] | Sequence[str | None] | None = None,
        voiceprints: VoicePrints | None = None,
        voice: HostVoice | None = None,
        gate: EchoGate | None = None,
        config: TurnConfig | None = None,
        on_event: Callable[[object], None] | None = None,
        keep_audio: bool = True,
    ):
        self.config = config or TurnConfig()
        self.recognizer = recognizer
        self.attributor = Attributor(players, channel_players, voiceprints, self.config)
        self.voice = voice
        history = getattr(voice, "history", None) if voice is not None else None
        self.gate = gate if gate is not None else (EchoGate(history) if history is not None else None)
        self.on_event = on_event
        self.keep_audio = keep_audio
        self._recognizers: list[Recognizer] = []
        self._expected: Sequence[str] | None = None
        self._sayable = None
        self.expect(None)
        self._recent: collections.deque = collections.deque(maxlen=32)
        self._next_id = 0

    def expect(self, phrases: Sequence[str] | None) -> None:
        """What the players may say next; None: anything.

        With vosk, phrases become a grammar (only they can be heard; player names are
        added so "Bob: yes" still parses); with whisper they become the decoder
        prompt. Player names are always in whisper's prompt. Takes effect at the
        next utterance.
        """
        self._expected = phrases
        players = self.attributor.players
        for r in self._recognizers or [self.recognizer]:
            if phrases:
                r.expect(list(phrases) + [p for p in players if p not in phrases])
            elif r.name == "whisper" and players:
                r.expect(players)
            else:
                r.expect(None)

    def constrain(self, sayable) -> None:
        """What may be said next, as a language (speech.sayable.Sayable; None: anything),
        for the recognizers that search one (moonshine). Takes effect at the next utterance."""
        self._sayable = sayable
        for r in self._recognizers or [self.recognizer]:
            if hasattr(r, "constrain"):
                r.constrain(sayable)

    def _emit(self, event: object) -> None:
        if self.on_event is not None:
            self.on_event(event)

    def utterances(self, source: AudioSource) -> Iterator[Utterance]:
        """Read `source` to its end (or forever, for a microphone), yielding utterances."""
        clock = getattr(source, "clock", None)
        if clock is not None and self.voice is not None and hasattr(self.voice, "clock"):
            self.voice.clock = clock  # the host's speech on the microphone's timeline
        per_channel = bool(self.attributor.channel_players) and source.channels > 1
        n_ch = source.channels if per_channel else 1
        self._recognizers = [self.recognizer] + [self.recognizer.clone() for _ in range(n_ch - 1)]
        if self._sayable is not None:
            self.constrain(self._sayable)
        for r in self._recognizers:
            r.reset()
        seg = Segmenter(n_ch, self.config)
        frame = seg.frame
        buf = np.zeros((0, n_ch), np.float32)
        buf_t = None
        pending: list[list[np.ndarray]] = [[] for _ in range(n_ch)]
        for chunk in source:
            data = chunk.samples if per_channel else chunk.samples.mean(axis=1, keepdims=True)
            if buf_t is None:
                buf_t = chunk.start
            buf = np.concatenate([buf, data]) if buf.size else data
            n_frames = buf.shape[0] // frame
            for i in range(n_frames):
                t = buf_t + i * frame / SAMPLE_RATE
                frames = buf[i * frame : (i + 1) * frame]
                blocked = None
                if self.gate is not None:
                    blocked = [self.gate.is_echo(t, t + frame / SAMPLE_RATE, frames[:, c]) for c in range(n_ch)]
                for ev in seg.push(t, frames, blocked):
                    yield from self._handle(ev, pending)
            used = n_frames * frame
            buf = buf[used:]
            buf_t += used / SAMPLE_RATE
            for ch in range(n_ch):  # feed the recognizers about every chunk
                if pending[ch]:
                    self._feed(ch, pending[ch], buf_t)
        for ev in seg.flush():
            yield from self._handle(ev, pending)

    def _feed(self, ch: int, pending: list[np.ndarray], t: float) -> None:
        partial = self._recognizers[ch].feed(np.concatenate(pending))
        pending.clear()
        if partial is not None and not partial.final:
            self._emit(Partial(ch, partial.text, t))

    def _handle(self, ev: tuple, pending: list[list[np.ndarray]]) -> Iterator[Utterance]:
        kind, ch = ev[0], ev[1]
        if kind == "start":
            barge = False
            if self.voice is not None and self.voice.speaking:
                self.voice.stop()
                barge = True
            self._recognizers[ch].reset()
            pending[ch] = [ev[3]]
            self._emit(SpeechStarted(ch, ev[2], barge))
        elif kind == "audio":
            pending[ch].append(ev[3])
        elif kind == "end":
            segment: Segment = ev[2]
            if pending[ch]:
                self._feed(ch, pending[ch], segment.end)
            transcript = self._recognizers[ch].finish()
            u = self._utterance(segment, transcript, ev[3])
            if u is not None:
                yield u

    def _utterance(self, segment: Segment, tr: Transcript, audio: np.ndarray) -> Utterance | None:
        c = self.config
        if segment.voiced < c.min_speech:
            self._emit(Discarded(segment.channel, segment.start, segment.end, "too short", tr.text))
            return None
        if not tr.text:
            self._emit(Discarded(segment.channel, segment.start, segment.end, "no words"))
            return None
        if self.gate is not None and self.gate.is_echo_text(tr.text, segment.start, segment.end):
            self._emit(Discarded(segment.channel, segment.start, segment.end, "host echo", tr.text))
            return None
        attr = self.attributor.attribute(tr.text, audio, segment.channel)
        offset = segment.audio_start
        words = [Word(w.text, round(w.start + offset, 3), round(w.end + offset, 3), w.conf) for w in tr.words]
        u = Utterance(
            id=self._next_id, start=round(segment.start, 3), end=round(segment.end, 3),
            text=tr.text, body=attr.body, words=words, confidence=tr.confidence,
            speaker=attr.speaker, speaker_confidence=round(attr.confidence, 4),
            speaker_method=attr.method, channel=segment.channel,
            ask=attr.confidence < c.ask_below, engine=tr.engine,
            audio=audio if self.keep_audio else None,
        )
        self._next_id += 1
        u.simultaneous_with = tuple(v.id for v in self._recent if are_simultaneous(u, v, c.tie_window))
        self._recent.append(u)
        return u


def listen(
    source: AudioSource,
    recognizer: Recognizer,
    players: Sequence[str] = (),
    *,
    channel_players: Mapping[int, str | None] | Sequence[str | None] | None = None,
    voiceprints: VoicePrints | None = None,
    voice: HostVoice | None = None,
    gate: EchoGate | None = None,
    config: TurnConfig | None = None,
    on_event: Callable[[object], None] | None = None,
) -> Iterator[Utterance]:
    """Utterances heard on `source`, attributed to `players`, in order of their end.

    - `channel_players`: player per input channel ("Alice,Bob,Carol" -> [..]); with
      it each channel is its own stream; without it all channels are mixed to one.
    - `voiceprints`: enrolled voice prints (attribution when there is no channel).
    - `voice`: the host's voice, with a live microphone (not with a recording): its
      history feeds the echo gate (host audio is never a player's utterance), it is
      put on the microphone's clock, and it is stopped when a player starts speaking
      over it (barge-in).
    - `on_event`: gets SpeechStarted / Partial / Discarded events as they happen.
    """
    yield from Listener(
        recognizer, players, channel_players, voiceprints, voice, gate, config, on_event
    ).utterances(source)


__all__ = [
    "Attribution",
    "Attributor",
    "Discarded",
    "Listener",
    "Partial",
    "Segment",
    "Segmenter",
    "SpeechStarted",
    "TurnConfig",
    "Utterance",
    "are_simultaneous",
    "listen",
    "segments",
    "simultaneous_groups",
    "split_name_prefix",
]
