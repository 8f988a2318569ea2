"""Utterances: cut the audio into turns at speaking, recognize them, say who spoke.

The stages, one module each: :mod:`.vad` finds where speech starts and ends on each
input channel (:class:`~.vad.Segmenter`); :mod:`.echo` keeps the host's own voice out
(:class:`~.echo.EchoGate`); a recognizer (:mod:`..recognizing`) is fed each utterance
while it is spoken and finished at its end; :mod:`.attribution` says who spoke
(channel > voice print > spoken name > unknown). This module runs them in order and
gives :class:`Utterance` objects, and :class:`SpeechStarted`, :class:`Waiting`,
:class:`SpeechEnded`, :class:`Partial` and :class:`Discarded` events as they happen. Which utterances tie is the game's decision
(its tie window, on the utterances' start times), not this layer's.

Entry point: :func:`listen` (or :class:`Listener` to change the expected phrases
between utterances).
"""

from __future__ import annotations

from collections import deque
from concurrent.futures import Future, ThreadPoolExecutor
from dataclasses import dataclass
from typing import Callable, Iterator, Mapping, Sequence

import numpy as np

from voice_host.messages import Transcript, Utterance, Word

from .attribution import Attributor
from .config import TurnConfig
from .cancel import EchoCanceller
from .echo import CUT_TAIL, EchoGate
from .owners import Owners, quieted
from ..audio import SAMPLE_RATE
from ..recognizing.recognizer import Recognizer
from ..speaking.voice import HostVoice
from .sources import AudioSource, local_channels
from .vad import Segment, SegmentAudio, SegmentEnd, SegmentPause, Segmenter, SegmenterEvent, SegmentStart
from .voiceprint import VoicePrints


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
class SpeechEnded:
    """A player stopped speaking: the utterance is over and is being recognized (fires
    before recognition and attribution; the Utterance, if any, follows)."""

    channel: int
    """Input channel."""
    time: float
    """End of the last voiced frame (s, source timeline)."""
    early: bool = False
    """Ended at a short pause (Utterance.early)."""


@dataclass
class Waiting:
    """A player has been silent `acknowledge_after` seconds and the utterance is not over
    yet (being recognized, or waiting for the rest): the moment to show it was heard."""

    channel: int
    """Input channel."""
    time: float
    """End of the last voiced frame (s, source timeline)."""


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
    """"no words", "host echo", "too short", "a player's microphone" (a shared microphone
    heard a voice a player's own microphone was hearing), "another player's microphone"
    (a player's microphone heard another player's word, louder on theirs), "overtaken"
    (quieter talk that a louder voice came into: the room's), "the room" (far under the
    level its microphone's own player speaks at)."""
    text: str = ""
    """Whatever was recognized."""


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
        self.gate = gate
        """An echo gate given for every channel (else each channel has its own over the
        voice's history: each microphone hears the speakers at its own level and delay)."""
        self._history = history
        self._gates: list[EchoGate | None] = []
        self._cancellers: list[EchoCanceller | None] = []
        self._raw: deque = deque()
        self.on_event = on_event
        self.keep_audio = keep_audio
        self._recognizers: list[Recognizer] = []
        self._guesses: dict[int, tuple[float, Future]] = {}
        """Per channel: the pause a guess was made at, and the guess (see SegmentPause),
        recognized in the background while the listener goes on listening."""
        self._barged: dict[int, bool] = {}
        """Channel -> whether the host stopped talking for its utterance under way."""
        self._pool: ThreadPoolExecutor | None = None
        self._told: dict[int, float] = {}
        """Per channel: the pause a Waiting event was sent for."""
        self._expected: Sequence[str] | None = None
        self._sayable = None
        self._hear_above: float | None = None
        self._segmenter: Segmenter | None = None
        self._owners = Owners({}, 1, self.config)
        """Each microphone's own player, their level and voice (a microphone per player)."""
        self.expect(None)
        self._next_id = 0

    def expect(self, phrases: Sequence[str] | None) -> None:
        """What the players may say next; None: anything.

        With vosk, phrases become a grammar (only they can be heard; player names are
        added so "Bob: yes" still parses); with whisper they become the decoder
        prompt. A recognizer whose class declares ``takes_phrases`` (a prompt that
        biases without shutting out, whisper's) is always told the player names.
        Takes effect at the next utterance.
        """
        self._expected = phrases
        players = self.attributor.players
        for r in self._recognizers or [self.recognizer]:
            if phrases:
                r.expect(list(phrases) + [p for p in players if p not in phrases])
            elif getattr(r, "takes_phrases", False) and players:  # declared by its class (Takes)
                r.expect(players)
            else:
                r.expect(None)

    def hear_above(self, level_db: float | None) -> None:
        """Hear as speech only what is louder than ``level_db`` (dBFS; None: anything), from
        now on: the table's level less a margin, so that the room's talk is not cut into
        the players' utterances (vad.Segmenter.hear_above)."""
        self._hear_above = level_db
        if self._segmenter is not None:
            self._segmenter.listen_above(level_db)

    def constrain(self, sayable) -> None:
        """What may be said next, as a language (speech.recognizing.sayable.Sayable; None: anything),
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
        per_channel = bool(self.attributor.channel_players) and source.channels > 1
        n_ch = source.channels if per_channel else 1
        self._recognizers = [self.recognizer] + [self.recognizer.clone() for _ in range(n_ch - 1)]
        if self._sayable is not None:
            self.constrain(self._sayable)
        for r in self._recognizers:
            r.reset()
        if self.gate is not None or self._history is None:
            self._gates = [self.gate] * n_ch
        else:  # a source whose audio comes late (phones, over the network) hears the echo late
            self._gates = [EchoGate.later(self._history, getattr(source, "delay", 0.0)) for _ in range(n_ch)]
        self._cancellers = self._echo_cancellers(source, n_ch, per_channel)
        self._raw = deque(maxlen=int(2 * SAMPLE_RATE) // frame_samples(self.config))
        """The microphone's last 2 s before the canceller (the echo gate judges them; the
        recognizer may hear them: ``[listening] recognize_from``)."""
        self._owners = Owners(self.attributor.channel_players if per_channel else {}, n_ch, self.config)
        seg = self._segmenter = Segmenter(n_ch, self.config, owned=self._owners.owned, hear_above=self._hear_above)
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
                taken = None
                if any(self._cancellers):
                    self._raw.append(frames)
                    cancelled = frames.copy()
                    for c, canceller in enumerate(self._cancellers):
                        if canceller is not None:
                            cancelled[:, c] = canceller.process(t, frames[:, c])
                    frames = cancelled
                    taken = [c is not None and c.took_out for c in self._cancellers]
                blocked = None
                if self._gates[0] is not None:  # the gate judges the microphone's own sound, as it learnt it
                    heard = self._raw[-1] if any(self._cancellers) else frames
                    blocked = [self._gated(c, t, t + frame / SAMPLE_RATE, heard[:, c]) for c in range(n_ch)]
                for ev in seg.push(t, frames, blocked, taken):
                    yield from self._handle(ev, pending)
                yield from self._end_early(t + frame / SAMPLE_RATE, pending, wait=not getattr(source, "realtime", False))
            for ch in chunk.done if per_channel else ():
                if seg.states[ch].in_speech:  # the player is done: no silence to wait for
                    yield from self._handle(seg.end(ch), pending)
            used = n_frames * frame
            buf = buf[used:]
            buf_t += used / SAMPLE_RATE
            for ch in range(n_ch):  # feed the recognizers about every chunk
                if pending[ch]:
                    self._feed(ch, pending[ch], buf_t)
        for ev in seg.flush():
            yield from self._handle(ev, pending)

    @property
    def _playbacks(self) -> list | None:
        """The host's sentences as played (its voice's history, or the given gate's);
        None when the host's voice is unknown."""
        return self._history if self._history is not None else getattr(self.gate, "playbacks", None)

    def _echo_cancellers(self, source: AudioSource, n_ch: int, per_channel: bool) -> list[EchoCanceller | None]:
        """An echo canceller for each channel of a local microphone (the host's history as
        its reference); None for a phone's (the browser cancels its echo), and for all
        when the host's voice is unknown or ``[listening] echo_cancel`` is off. Which
        channels are local: sources.local_channels."""
        playbacks = self._playbacks
        if playbacks is None or not self.config.echo_cancel:
            return [None] * n_ch
        local = local_channels(source)
        if not per_channel:  # one channel, the microphones mixed: cancel only if all are local
            local = [0] if set(range(source.channels)) <= set(local) else []
        return [EchoCanceller(playbacks) if c in local else None for c in range(n_ch)]

    def _heard(self, ch: int, audio: np.ndarray) -> np.ndarray:
        """What the recognizer is given of ``audio``, channel ``ch``'s latest samples as
        voice activity heard them, as ``[listening] recognize_from`` says: the same, or
        the microphone's own samples over the same time."""
        if self.config.recognize_from == "cancelled" or not self._cancellers or self._cancellers[ch] is None \
                or not self._raw:
            return audio
        raw = np.concatenate([f[:, ch] for f in self._raw])
        return raw[raw.size - audio.size:] if raw.size >= audio.size else audio

    def _gated(self, c: int, t0: float, t1: float, frame: np.ndarray) -> bool:
        """Whether channel ``c``'s frame [t0, t1] is the host's echo: the echo gate's
        judgement, which a cancelled channel keeps only as ``[listening] echo_gate`` says
        (the gate still hears every frame, to know the room)."""
        gated = self._gates[c].is_echo(t0, t1, frame)
        return gated and self._gate_judges(c, t0, t1)

    def _gate_judges(self, c: int, t0: float, t1: float) -> bool:
        """Whether the echo gate decides which of channel ``c``'s frames in [t0, t1] are
        the host's (else the canceller's sound alone does)."""
        canceller = self._cancellers[c] if self._cancellers else None
        if canceller is None or not canceller.covers(t0, t1):
            return True
        mode = self.config.echo_gate
        return mode == "on" or (mode == "converging" and not canceller.converged)

    def _feed(self, ch: int, pending: list[np.ndarray], t: float) -> None:
        partial = self._recognizers[ch].feed(np.concatenate(pending))
        pending.clear()
        if partial is not None and not partial.final:
            self._emit(Partial(ch, partial.text, t))


    def _handle(self, ev: SegmenterEvent, pending: list[list[np.ndarray]], early: bool = False) -> Iterator[Utterance]:
        ch = ev.channel
        match ev:
            case SegmentStart():
                self._guesses.pop(ch, None)
                barge = False
                if self.voice is not None and self.voice.speaking:
                    self.voice.stop()
                    self._segmenter.keep_whole(ch)
                    barge = True
                self._barged[ch] = barge
                self._recognizers[ch].reset()
                audio = self._heard(ch, ev.audio)
                pending[ch] = [quieted(audio, self._segmenter.room_under(ch, talking=True), self._segmenter.frame)]
                self._emit(SpeechStarted(ch, ev.time, barge))
            case SegmentAudio():
                pending[ch].append(quieted(self._heard(ch, ev.frame), self._segmenter.room_under(ch, talking=True),
                                           self._segmenter.frame, self._segmenter.states[ch].loudness))
            case SegmentPause():
                recognizer = self._recognizers[ch]
                if not hasattr(recognizer, "snapshot") or ev.voiced < self.config.min_speech:
                    return  # a streaming engine keeps its own endpoints; a burst of noise is no sentence
                if self._owners.heard_elsewhere(ch, self._segmenter.states[ch].start, ev.time, self._segmenter):
                    return  # another player's word heard again, or nobody's: no guess to make
                if pending[ch]:
                    self._feed(ch, pending[ch], ev.time)
                if self._pool is None:  # one worker: guesses run one after another, never two at once
                    self._pool = ThreadPoolExecutor(max_workers=1, thread_name_prefix="guess")
                audio = settled(recognizer.snapshot(), self.config.guess_after)
                self._guesses[ch] = (ev.time, self._pool.submit(recognizer.transcribe, audio))
            case SegmentEnd():
                why = self._owners.not_its_speakers(ev, self._segmenter)
                if why:
                    self._recognizers[ch].reset()
                    self._guesses.pop(ch, None)
                    pending[ch] = []
                    self._emit(Discarded(ch, ev.segment.start, ev.segment.end, why))
                    return
                if not early and self.config.acknowledge_after:
                    self._wait_said(ch, ev.segment.end)  # its recognition is still to come
                self._told.pop(ch, None)
                self._emit(SpeechEnded(ch, ev.segment.end, early))
                recognizer = self._recognizers[ch]
                at, guess = self._guesses.get(ch, (None, None))
                if guess is not None and at == ev.segment.end:  # no more speech since the guess
                    transcript = guess.result()
                    recognizer.reset()
                else:
                    self._settle(ch)
                    if pending[ch]:
                        self._feed(ch, pending[ch], ev.segment.end)
                    transcript = recognizer.finish()
                self._guesses.pop(ch, None)
                pending[ch] = []
                u = self._utterance(ev.segment, transcript, ev.audio, early)
                if u is not None:
                    yield u

    def _wait_said(self, ch: int, at: float) -> None:
        """Send Waiting for the pause at `at` on channel `ch`, once."""
        if self._told.get(ch) != at:
            self._told[ch] = at
            self._emit(Waiting(ch, at))

    def _settle(self, ch: int) -> None:
        """Let a guess still under way on channel `ch` finish (its recognizer is needed)."""
        at, guess = self._guesses.pop(ch, (None, None))
        if guess is not None:
            guess.result()

    def _end_early(self, now: float, pending: list[list[np.ndarray]], wait: bool) -> Iterator[Utterance]:
        """End each utterance silent for `end_early_after` whose guess says it is over.
        Live, a guess not yet made is not waited for (the silence may run to its end
        meanwhile); from a recording (`wait`) it is, so a recording is heard the same
        however fast the machine."""
        for ch, (at, guess) in list(self._guesses.items()):
            if self._segmenter.silent_since(ch) != at:
                continue  # speech came back
            if now - at >= self.config.end_early_after - 1e-9 and (wait or guess.done()) \
                    and guess.result().complete >= self.config.end_early_above:
                yield from self._handle(self._segmenter.end(ch), pending, early=True)  # its answer, no tick
            elif self.config.acknowledge_after and now - at >= self.config.acknowledge_after - 1e-9:
                self._wait_said(ch, at)

    def _heard_back(self, segment: Segment) -> bool:
        """Whether the host's voice was heard on the segment's microphone as it began
        (EchoGate.heard_back over its first OVER_ONSET seconds; with no gate, it may be)."""
        gate = self._gates[segment.channel]
        return gate is None or gate.heard_back(segment.start, segment.start + OVER_ONSET)

    def _clear_of_host(self, segment: Segment, audio: np.ndarray) -> np.ndarray:
        """The part of ``audio`` (``segment``'s, said over the host) once the sentence it
        stopped has died away (CUT_TAIL after the cut: the sound on its way, the room's
        echo), for the voice print: the host's voice under the word's first sounds made
        it find the wrong player. All of it when too little would be left."""
        cut = max((p.end for p in list(self._playbacks or [])[-4:] if p.interrupted and p.start <= segment.end
                   and p.end >= segment.start - CUT_TAIL), default=None)
        if cut is None:
            return audio
        skip = round((cut + CUT_TAIL - segment.audio_start) * SAMPLE_RATE)
        return audio[skip:] if 0 < skip and audio.size - skip >= CLEAR_PRINT * SAMPLE_RATE else audio

    def _utterance(self, segment: Segment, tr: Transcript, audio: np.ndarray, early: bool) -> Utterance | None:
        c = self.config
        gate = self._gates[segment.channel]
        short = segment.voiced < c.min_speech
        # too short a sound to weigh against the echo's level: the host's own words are its echo
        echo = gate.echo_of(tr.text, segment.start, segment.end, None if short else audio) if gate is not None else None
        # the host's own first words stopped it: no word of a player's was lost under them
        onset = echo is not None and echo.interrupted and segment.start - echo.start <= OWN_ONSET
        drowned = short or echo is not None
        if drowned or not tr.text:
            why = "too short" if short else "host echo" if echo else "no words"
            self._emit(Discarded(segment.channel, segment.start, segment.end, why, tr.text))
            # the host stopped talking for it, then heard only its own words in it, or too
            # little of it past the echo gate or the canceller (the rest taken for the
            # host's echo, or held down with it): a word said over the host, lost under it
            lost = not short or echo is None
            if not (self._barged.get(segment.channel) and tr.text and lost) or onset:
                return None
            tr = Transcript("", engine=tr.engine)
        barged = self._barged.get(segment.channel, False) and self._heard_back(segment)
        attr = self.attributor.attribute(tr.text, self._clear_of_host(segment, audio) if barged else audio,
                                         segment.channel)
        offset = segment.audio_start
        words = [Word(w.text, round(w.start + offset, 3), round(w.end + offset, 3), w.conf) for w in tr.words]
        if not drowned:  # the host's voice is no player's level
            self._owners.learn(segment.channel, audio)
            self._segmenter.set_floor(segment.channel, self._owners.floor(segment.channel))
        u = Utterance(
            id=self._next_id, start=round(segment.start, 3), end=round(segment.end, 3),
            text=tr.text, body=attr.body, words=words, confidence=tr.confidence,
            speaker=attr.speaker, speaker_confidence=round(attr.confidence, 4),
            speaker_method=attr.method, channel=segment.channel,
            ask=attr.confidence < c.ask_below, engine=tr.engine,
            constrained=tr.constrained, alternatives=list(tr.alternatives),
            audio=audio if self.keep_audio else None, early=early, opinion=tr.opinion,
            barged=barged, drowned=drowned,
            room=self._owners.room_before(segment, self._segmenter),
        )
        self._next_id += 1
        return u


CLEAR_PRINT = 0.4
"""Seconds of an utterance said over the host, clear of its voice, that a voice print is
taken from instead of the whole (Listener._clear_of_host)."""
OVER_ONSET = 0.3
"""Seconds from an utterance's start over which the host's voice, heard back on its
microphone, makes it said over the host (Utterance.barged)."""
OWN_ONSET = 0.6
"""Seconds into a sentence of the host's within which an utterance that stopped it and
is heard as its words is its own first sound heard back, not a player's word under it."""


GUESS_PAUSE = 0.2
"""Seconds of pause a guess is made on: the recognizer writes a word cut off by the end
of its audio as a longer one ("sandwich" heard "sandwiched" with 0.1 s after it), so
a guess made sooner hears its pause drawn out to this length with silence (the pause's
own sound repeated cost words at 10 dB: "balances" heard "valences")."""


def frame_samples(config: TurnConfig) -> int:
    """Samples in one of voice activity's frames."""
    return config.frame_ms * SAMPLE_RATE // 1000


def settled(audio: np.ndarray, pause: float) -> np.ndarray:
    """``audio`` ending in ``pause`` seconds without speech, that pause drawn out to
    GUESS_PAUSE with silence, as if the player had stopped there."""
    have, want = int(pause * SAMPLE_RATE), int(GUESS_PAUSE * SAMPLE_RATE)
    if have <= 0 or want <= have or audio.size < have:
        return audio
    return np.concatenate([audio, np.zeros(want - have, audio.dtype)])


def listen(source: AudioSource, recognizer: Recognizer, players: Sequence[str] = (), **options) -> Iterator[Utterance]:
    """Utterances heard on `source`, attributed to `players`, in order of their end.

    `options` are :class:`Listener`'s, by keyword:

    - `channel_players`: player per input channel ("Alice,Bob,Carol" -> [..]); with
      it each channel is its own stream; without it all channels are mixed to one.
    - `voiceprints`: enrolled voice prints (attribution when there is no channel).
    - `voice`: the host's voice, with a live microphone (not with a recording): its
      history, on the microphone's clock (the assembly puts it there), feeds the echo
      gate (host audio is never a player's utterance), and it is stopped when a player
      starts speaking over it (barge-in).
    - `gate`: an echo gate of one's own (else one over `voice`'s history).
    - `config`: a :class:`TurnConfig`.
    - `on_event`: gets SpeechStarted / Partial / Discarded events as they happen.
    """
    yield from Listener(recognizer, players, **options).utterances(source)


__all__ = ["Discarded", "Listener", "Partial", "SpeechEnded", "SpeechStarted", "Waiting", "TurnConfig", "listen"]
