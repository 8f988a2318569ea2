"""The messages that pass between the host's stages (docs/ARCHITECTURE.md, the pipeline),
in the order they pass:

- ``AudioChunk``: a source's audio, a column a channel;
- ``Transcript`` (its ``Word`` list, a second ear's ``Opinion``): what a recognizer heard;
- ``Utterance``: the listener's turn of one player: who, when, what;
- ``HeardUtterance``, ``ClockMark``, ``EndOfAudio``: the live loop's queue, from the
  listener's thread to the game's;
- ``Reading`` (which word), with the session's ``Parsed`` (``Intent``: its meaning at the
  table, and the game's own phrase): what the hearing decides on;
- the input records (``Said``, ``Directive``, ``Wait``, ``Begin``, ``Unreadable``): what
  the session logs and applies; their JSON is the event log's line (host.log);
- the game's events (voice_host.games.events: the rules' own, kept in the pure core) and
  ``Step``: the events of one moment and the sentences said for them, for whoever watches
  the game (the scoreboard).

Each is immutable: a stage that wants one otherwise makes a new one
(``dataclasses.replace``). The records' log lines, as ever::

    {"line": 7, "t": 12.0, "speaker": "Alice", "text": "jewelers"}      Said (+ "heard")
    {"line": 1, "t": 1.0, "directive": "board", "args": ["W", ...]}     Directive
    {"line": 8, "t": 58.0, "wait": 46}                                  Wait (+ "pause")
    {"t": 3.0, "begin": true}                                           Begin
    {"line": 9, "t": 13.0, "error": "bad_line", "text": "..."}          Unreadable

``line`` is the script line a record came from (absent for what was typed live, heard
or the host's own marks); ``t`` is game-clock seconds (None: the session's time now).
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import TYPE_CHECKING, NamedTuple, Union

import numpy as np

from voice_host.speech.audio import SAMPLE_RATE

if TYPE_CHECKING:
    from voice_host.games.events import Event


@dataclass(frozen=True)
class AudioChunk:
    """A block of multi-channel audio on the source's timeline."""

    start: float
    """Time of the first sample, in seconds since the source started."""
    samples: np.ndarray
    """float32 samples in [-1, 1], shape (frames, channels), at SAMPLE_RATE."""
    done: tuple[int, ...] = ()
    """Channels whose player said they were done speaking within this block (a phone's
    talk button let go): their utterances end with it, no trailing silence waited for."""

    @property
    def channels(self) -> int:
        """Number of channels (columns) in :attr:`samples`."""
        return int(self.samples.shape[1])

    @property
    def end(self) -> float:
        """Time just after the last sample, in seconds."""
        return self.start + self.samples.shape[0] / SAMPLE_RATE


@dataclass(frozen=True)
class Word:
    """One recognized word."""

    text: str
    """The word, lower case, without punctuation."""
    start: float
    """Start time in seconds (relative to the utterance audio unless shifted)."""
    end: float
    """End time in seconds."""
    conf: float
    """The engine's confidence in this word, 0..1."""


@dataclass(frozen=True)
class Opinion:
    """A second recognizer's reading of an utterance, weighed with the first's
    (recognizing.moonshine.opinion; the benchmarks count what each changed)."""

    reading: str
    """What the second ear heard (normalized; "" for nothing)."""
    candidates: tuple[str, ...]
    """The sentences of the language its reading stands for."""
    agreed: bool
    """Its reading is the first ear's best."""
    lead: float | None
    """How far the better of the two readings leads the other (nats); None when the
    ears agree or the reading stands for no sentence of the language."""
    confidence: float
    """The first ear's confidence before the second opinion."""
    second_confidence: float = 0.0
    """How sure the second ear was of its reading (0..1)."""
    seconds: float = 0.0
    """How long the second ear took to read the utterance."""


@dataclass(frozen=True)
class Transcript:
    """What a recognizer heard in (part of) an utterance."""

    text: str
    """Normalized text: lower case words separated by single spaces, no punctuation."""
    words: list[Word] = field(default_factory=list)
    """The words with their times; may be empty for partial results."""
    confidence: float = 0.0
    """Overall confidence 0..1 (mean word confidence; 0 when nothing was heard)."""
    final: bool = True
    """False for a partial result that may still change."""
    engine: str = ""
    """Which engine produced it ("vosk", "whisper" or "moonshine")."""
    raw: str = ""
    """The engine's own text before normalization (case, punctuation)."""
    constrained: bool = False
    """True when `text` is a sentence of the language the recognizer was constrained
    to (Recognizer.constrain / expect, moonshine); False for free text, including a
    constrained recognizer's fall-back to free text for chatter."""
    alternatives: list[tuple[str, float]] = field(default_factory=list)
    """Constrained recognition's n-best sentences (normalized), best first, with the
    decoder's log-likelihoods (nats; higher is better)."""
    free: str = ""
    """The unconstrained decode of the same audio, normalized (moonshine)."""
    free_score: float | None = None
    """The free decode's log-likelihood, comparable with `alternatives`' scores."""
    opinion: Opinion | None = None
    """A second recognizer's reading of the same audio, weighed with this one's (None: none)."""
    complete: float = 0.0
    """How sure the recognizer is that this is a whole sentence of its language that
    cannot go on (0..1; 0 when it cannot tell): the listener ends an utterance at a
    short pause only when this is high (docs/LISTENING.md, "A turn ends as soon as it is over")."""


@dataclass(frozen=True)
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
    engine: str = ""
    """Recognizer that produced the text."""
    constrained: bool = False
    """The text is a sentence of what the recognizer was told may be said, and
    `confidence` how likely it is what was said (Transcript.constrained)."""
    alternatives: list[tuple[str, float]] = field(default_factory=list)
    """A constrained recognizer's best sentences, best first (Transcript.alternatives)."""
    audio: np.ndarray | None = field(default=None, repr=False, compare=False)
    """The utterance's mono 16 kHz audio (pre-roll included), e.g. for enrollment."""
    early: bool = False
    """Ended at a short pause (TurnConfig.guess_after) because what was said so far is a
    whole sentence that cannot go on, not after the full trailing silence."""
    opinion: Opinion | None = None
    """A second recognizer's reading, weighed with the first's (Transcript.opinion)."""
    barged: bool = False
    """The host was talking as it began, and stopped for it (barge-in), with its voice
    heard back on this microphone (a laptop's speaker beside it: EchoGate.heard_back):
    said over the host's voice, whose echo and room may have garbled its first sounds."""
    drowned: bool = False
    """The host stopped talking for it (barge-in), then heard nothing in it but its own
    words, or too little of it to be sure it was speech (under ``min_speech`` of voice
    past the echo gate): whatever its speaker said was drowned by the host's voice, and
    is lost (its text is empty; the hearing asks for it again)."""
    room: float | None = None
    """How loud all the sound on its microphone was before it (dBFS: the median of the 3 s
    of frames before its start, other people's talk included), for the host to judge
    the room by; None when nothing was heard before it."""


@dataclass(frozen=True)
class HeardUtterance:
    """The listener heard an utterance (an Utterance; its times on the
    source's timeline)."""

    utterance: object


@dataclass(frozen=True)
class ClockMark:
    """The game clock may reach ``at`` (seconds on the source's timeline): the audio read
    so far, held back to where a player still speaking began."""

    at: float


@dataclass(frozen=True)
class EndOfAudio:
    """The source has ended (or the listener stopped): nothing more comes."""


@dataclass(frozen=True)
class Intent:
    """The meaning of one utterance."""

    kind: str
    """word, challenge, flip, board, scores, turn, words, sheet, repeat, undo, help,
    yes, no, or unclear."""
    word: str | None = None
    """For ``word``: the word as said (lower case; may hold punctuation to refuse); for
    ``how`` and ``spell``: the word asked about (None: the last one)."""
    target: str | None = None
    """For ``challenge`` and ``sheet``: the player named, if any."""
    text: str = ""
    """The utterance as heard."""
    final: bool = False
    """For ``word``: said as "my word is ...", a word the player commits to."""


@dataclass(frozen=True)
class Parsed:
    """An utterance read once (host.session's ``read``): what it means at the table and as
    the game's own phrase, for ``player`` at game time ``t``. The hearing reads what it
    heard and hands this on with the record, so the session acts on it without parsing
    the words again."""

    text: str
    player: str
    t: float
    intent: Intent
    phrase: object | None
    """The game's own reading (host.phrases.parse): an Action, a Refused, or None when it
    is none of the game's phrases."""

    def of(self, text: str, player: str, t: float) -> bool:
        """Whether this is the reading of ``text`` said by ``player`` at ``t``."""
        return (self.text, self.player, self.t) == (text, player, t)


class Reading(NamedTuple):
    """What the host understood of what was said: the text to play (None: table chatter),
    and the words matcher's match behind it (None: a command or question, as heard)."""

    text: str | None
    match: object | None = None
    """words.matcher.Match: the best word, how sure, the others weighed."""
    kind: str | None = None
    """For a command or question passed as heard: what it is (Intent.kind)."""
    parsed: Parsed | None = None
    """The session's reading of ``text`` where ``text`` is what was heard (a word the
    matcher put right is read again by the session)."""


def _head(line: int | None, t: float | None) -> dict:
    out: dict = {} if line is None else {"line": line}
    if t is not None:
        out["t"] = t
    return out


class _Record:
    """Shared by the input records: ``Kind.from_json(d)`` reads ``d`` as that kind."""

    __slots__ = ()

    @classmethod
    def from_json(cls, d: dict):
        r = from_json(d)
        if not isinstance(r, cls):
            raise ValueError(f"not a {cls.__name__} record: {d!r}")
        return r


@dataclass(frozen=True)
class Said(_Record):
    """A player's line, typed, scripted or heard (``heard``: the raw transcript)."""

    t: float | None
    speaker: str | None
    text: str
    heard: str | None = None
    line: int | None = None
    parsed: Parsed | None = field(default=None, compare=False, repr=False)
    """The hearing's reading of ``text`` (a Parsed), handed on so the session
    does not parse it again; never logged (a replay reads the text)."""

    def to_json(self) -> dict:
        out = {**_head(self.line, self.t), "speaker": self.speaker, "text": self.text}
        if self.heard is not None:
            out["heard"] = self.heard
        return out


@dataclass(frozen=True)
class Directive(_Record):
    """``@name args...``: table setup (``@start``, ``@board``) or a game's own directive."""

    t: float | None
    name: str
    args: tuple[str, ...] = ()
    line: int | None = None

    def to_json(self) -> dict:
        return {**_head(self.line, self.t), "directive": self.name, "args": list(self.args)}


@dataclass(frozen=True)
class Wait(_Record):
    """The clock moved on (``@wait N``); ``pause``: a mark of the clock, not an input
    (Ctrl-C kept the clock here, or at a terminal the clock changed the game)."""

    t: float | None
    seconds: float = 0
    pause: bool = False
    line: int | None = None

    def to_json(self) -> dict:
        out = {**_head(self.line, self.t), "wait": self.seconds}
        if self.pause:
            out["pause"] = True
        return out


@dataclass(frozen=True)
class Begin(_Record):
    """The game began (the opening: draws, board, whose turn)."""

    t: float | None

    def to_json(self) -> dict:
        return {**_head(None, self.t), "begin": True}


@dataclass(frozen=True)
class Unreadable(_Record):
    """A script line the host could not read: refused as ``error`` when applied."""

    t: float | None
    error: str
    text: str = ""
    line: int | None = None

    def to_json(self) -> dict:
        return {**_head(self.line, self.t), "error": self.error, "text": self.text}


Record = Union[Said, Directive, Wait, Begin, Unreadable]


def from_json(d: dict) -> Record:
    """A log line's dict as its record (told apart by its keys, as the log always was)."""
    t, line = d.get("t"), d.get("line")
    if d.get("begin"):
        return Begin(t)
    if "wait" in d:
        return Wait(t, d["wait"], bool(d.get("pause")), line)
    if "error" in d:
        return Unreadable(t, d["error"], d.get("text", ""), line)
    if "directive" in d:
        return Directive(t, d["directive"], tuple(d.get("args", ())), line)
    return Said(t, d.get("speaker"), d["text"], d.get("heard"), line)


def record(r: Record | dict) -> Record:
    """A record, from itself or from its JSON dict."""
    return from_json(r) if isinstance(r, dict) else r


@dataclass(frozen=True)
class Step:
    """One moment of the game as the session answered it, for whoever watches the game
    (the scoreboard): the game's ``events`` at game time ``t`` and the sentences ``said``
    for them. A sentence of the host's own (a question, a refusal) is a step with no
    events; a step that changed the game silently has no sentences."""

    t: float
    events: tuple[Event, ...]
    said: tuple[str, ...]


__all__ = ["AudioChunk", "Word", "Opinion", "Transcript", "Utterance", "HeardUtterance", "ClockMark", "EndOfAudio", "Intent", "Parsed", "Reading", "Said", "Directive", "Wait", "Begin", "Unreadable", "Record", "from_json", "record", "Step"]
