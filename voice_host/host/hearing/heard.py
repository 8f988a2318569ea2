"""What the hearing is given, and how it is set: an utterance as the speech layer gives
it (:class:`Heard`), the same utterance heard again as the answer to a question or a
correction (:class:`Again`), the ``[speech]`` settings (:class:`HearingSettings`), and
what every stage reads (:class:`Stage`).

Everything here is game-clock time: the recording's timeline, or the live clock.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Callable, Protocol

from voice_host.settings import Settings
from voice_host.host.hearing.scorekeeper import Scorekeeper


class Heard(Protocol):
    """What the speech layer gives (voice_host.messages.Utterance has these)."""

    start: float
    end: float
    text: str
    body: str
    speaker: str | None
    speaker_confidence: float
    ask: bool
    confidence: float
    """Recognition confidence 0..1."""
    constrained: bool
    """The text is the best sentence of what may be said (a constrained search), and
    `confidence` how likely it is the word said (calibrated)."""
    alternatives: list
    """The constrained search's best sentences, (text, score), best first."""


@dataclass
class Again:
    """A word said again (or spelled) to answer "Did you say ...?": heard as the play,
    at the time of the first try (or its own: Confirm._again), from the player who was
    asked."""

    start: float
    end: float
    text: str
    body: str
    speaker: str | None
    confidence: float
    constrained: bool
    alternatives: list
    speaker_confidence: float = 1.0
    ask: bool = False
    speaker_method: str = "answer"
    retry: bool = False
    """The word said again because the host asked for it ("Ann, I missed your word"): a
    word that is missed once more is left out, not asked for a third time."""
    refused: str | None = None
    """The word its player said no to ("No, persons" after percents): never offered or
    taken again for this play."""

    @classmethod
    def of(cls, u: Heard, start: float, body: str, speaker: str | None, retry: bool = False,
           refused: str | None = None, ask: bool = False) -> "Again":
        """Utterance `u` heard as `body` by `speaker`, as if said at `start` (``ask``: the
        voice is `u`'s own, and unsure: who said it is asked)."""
        return cls(start, u.end, u.text, body, speaker, u.confidence, u.constrained, u.alternatives, ask=ask,
                   retry=retry, refused=refused)


class HearingSettings(Settings, sections=("speech",)):
    """config/default.toml [speech]."""

    engine: str = "auto"
    """The recognizer: "auto" (the best installed), "moonshine", "whisper" or "vosk"."""
    model: str = "base"
    """Moonshine's weights: "base", or "adapted" (speech.recognizing.moonshine.adapted)."""
    second_ear: str = "off"
    """A second recognizer reading each utterance beside Moonshine: "off", "auto" (whisper
    tiny.en where faster-whisper and its model are installed) or "whisper"
    (speech.recognizing.engines.second_ear_for; docs/RECOGNIZING.md, "A second opinion"). Off by
    default: it measured mixed (fewer words taken silently wrong at a table, a few more
    in real rooms, more questions) and cost the answer ~260 ms."""
    confirm_below: float = 0.6
    """Match confidence under which a word is confirmed before it is played."""
    confirm_heard_below: float = 0.86
    """Recognition confidence (a constrained search's calibrated confidence, the chance
    the word heard is the word said) under which a word is confirmed before it is
    played: of 0.80, 0.86 and 0.92, the lowest that kept the words scored silently wrong
    at or under 2% in every condition of the real-games benchmark's tuning split
    (benchmarks/table.py; docs/HEARING.md, "Which word")."""
    confirm_fit_below: float = 0.0
    """The constrained search's score of its best sentence (log-likelihood with the
    priors, in nats, Moonshine's scale) under which a word is confirmed however clear
    its margin: the best sentence of the language fits the sound this badly when it is
    noise or a word the language does not hold ("brie" for "prematurely", "thanks" in
    noise, at a margin of 1.00). Tuned on the real-games benchmark's tuning split. With
    the calibrated confidence it asks nothing more (the fit is one of its measures), but
    it still decides that such a word, unanswered, is left out rather than taken."""
    ask_within: float = 2.0
    """A word the recognizer was unsure of is asked about only when another reading
    within this many nats of the best scores differently on the board (or the
    recognizer was far from sure, under ``take_above``); otherwise the host takes the
    likelier and says it in the score, and its player may put it right ("No, ...").
    Readings further below are never offered. (Chosen on the tuning split of
    benchmarks/table.py; docs/HEARING.md, "Which word".)"""
    take_above: float = 0.5
    """... and the host takes a word on a doubt only when its calibrated confidence is
    at least this,"""
    take_over_noise: float = 14.0
    """... and the words lately stood out from the room at least this many dB
    (speech.audio.speech_over_noise: over 90 clean, 16-24 with pink noise 20 dB under
    the words, 8-11 at 10 dB). In a louder room a doubt is more often wrong and "No,
    ..." harder to hear: taking doubts at 10 dB cost the table that answers 8 points on
    the sheet (tuning split of benchmarks/table.py)."""
    form_within: float = 2.0
    """An unanswered "Did you say amendment or amendments?" takes the form that scores
    more on the board when the recognizer heard it at most this many nats less surely
    than its best (hearing.confirm.Confirm._meant); a form heard much less surely is not
    taken for its points."""
    join_above: float = 0.9
    """Several heard words count as one word only with at least this confidence."""
    answer_within: float = 8.0
    """Seconds a question waits for an answer before the host settles it."""
    ignore: tuple[str, ...] = ()
    """Lone words that are table chatter, not plays (``play okay`` still plays)."""
    homophone_zipf: float = 2.5
    """A homophone this common (wordfreq Zipf) is a spelling worth asking about."""
    enroll_within: float = 15.0
    """Seconds the live opening waits for each player to say who they are."""
    background_below: float = 12.0
    """With one microphone: speech this many dB quieter than the player whose voice it is
    nearest, at the microphone (their level learnt from their introduction and named
    words), is the room's, not the table's (a television, another conversation): never a
    play, an answer or an introduction. 0: off. (On the tuning table with talk 15 dB
    under the players: the players' words came at most 5 dB under their own level, the
    talk 12.6-15.6 dB.)"""
    background_unsure_below: float = 6.0
    """... and this many dB quieter in a voice the host would ask about ("Was that
    Ann?"), once every player has a voice print."""
    loud_below: float = 10.0
    """The room is loud when the last words stood out less than this from its noise (dB,
    speech.audio.speech_over_noise: about 8 for a word 10 dB over real kitchen noise or
    through a far microphone, over 80 for a clean recording); a word missed then is told
    the table ("It's loud here, and I'm missing words ...")."""
    talk_below: float = 15.0
    """... or when they stood out less than this from all the room's sound around them,
    other people's talk included (dB; the listener's Utterance.room)."""
    loud_every: float = 300.0
    """Seconds before the host says again that the room is loud."""
    sentence_gap: float = 3.0
    """The rest of an introduction heard within this many seconds is the same voice."""
    prior_points: float = 3.0
    """The game's prior (host.prior): nats for the best play on the board over a word
    that scores nothing (chosen on the tuning split of benchmarks/board_words.py)."""
    prior_known: float = 1.0
    """The game's prior: nats for a word everyone knows over one nobody uses (0 and 0:
    the search alone)."""

    def fits(self, u: Heard) -> bool:
        """Whether a constrained search's best sentence fits the sound at least
        ``confirm_fit_below`` (its score; True when there is none to judge)."""
        return not (u.constrained and u.alternatives) or u.alternatives[0][1] >= self.confirm_fit_below

    def unsure(self, u: Heard) -> bool:
        """Whether the host asks about the word a constrained search heard: less sure
        than ``confirm_heard_below``, or fitting the sound under ``confirm_fit_below``."""
        return u.constrained and (u.confidence < self.confirm_heard_below or not self.fits(u))


def no_voice(since: float, until: float) -> float:
    """The host spoke for none of that time (a recording, a typed game)."""
    return 0.0


@dataclass
class Stage:
    """What each stage of the hearing reads: the session it feeds (through its
    Scorekeeper seam), the dictionary, the settings, and how long the host's own voice
    spoke (``host_spoke``)."""

    session: Scorekeeper = field(repr=False)
    words: object = field(repr=False)
    settings: HearingSettings = field(repr=False)

    host_spoke: Callable[[float, float], float] = field(default=no_voice, repr=False, kw_only=True)
    """Seconds the host's voice spoke between two times of the game clock (live: the
    Hearing's ``host_speech``)."""

    def waited(self, since: float, until: float) -> float:
        """The table's time from ``since`` to ``until``: the seconds the host was not
        talking. A player waits for the host to finish before answering or putting a
        word right, so only these count towards ``answer_within``."""
        return until - since - self.host_spoke(since, until)
