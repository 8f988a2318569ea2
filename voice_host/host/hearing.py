"""From heard utterances to input records: the word the player meant, and questions.

The speech layer says who spoke, when, and what it heard. Here that becomes the same
input record a typed line makes (``{"t", "speaker", "text"}``, plus ``"heard"``, the raw
transcript, for the log), after three checks a human host would make:

- **Which word?** Commands and questions pass as heard. Anything else is run through
  the words matcher (near-misses, homophones, "scrap booking", spelled letters, the
  NATO alphabet). Several words that do not make one word are table chatter.
- **Sure?** A word matched with low confidence is confirmed first ("Did you say
  jewelers?"); the speaker answers yes, no, or the right word; unanswered, the host
  takes its best guess after ``answer_within`` seconds and says so.
- **Who?** An utterance nobody could attribute is asked about ("Who said jewelers?");
  a weakly attributed one is confirmed ("Was that Bob?"). The answer is a player's name
  or yes/no; unanswered, the host keeps its guess, or drops the word and says so.

Everything here is game-clock time: the recording's timeline, or the live clock.
"""

from __future__ import annotations

import re
from dataclasses import dataclass, field
from functools import cache
from importlib import resources
from typing import Callable, Protocol

from voice_host.config import tomllib
from voice_host.host import intents
from voice_host.host.session import Session

SPELLED = re.compile(r"^([a-z] )+[a-z]$")


@cache
def _rewrites() -> tuple[tuple[re.Pattern, str], ...]:
    data = tomllib.loads(resources.files("voice_host.host").joinpath("data/heard.toml").read_text("utf-8"))
    return tuple((re.compile(r["heard"]), r["said"]) for r in data["rewrite"])


def rewrite(transcript: str) -> str:
    """Undo the recognizer's usual slips in the games' phrases (data/heard.toml)."""
    for pattern, said in _rewrites():
        transcript = pattern.sub(said, transcript)
    return transcript


class Heard(Protocol):
    """What the speech layer gives (voice_host.speech.turns.Utterance has these)."""

    start: float
    end: float
    text: str
    body: str
    speaker: str | None
    speaker_confidence: float
    ask: bool


@dataclass
class HearingSettings:
    """config/default.toml [speech]."""

    confirm_below: float = 0.6
    """Match confidence under which a word is confirmed before it is played."""
    join_above: float = 0.9
    """Several heard words count as one word only with at least this confidence."""
    answer_within: float = 6.0
    """Seconds a question waits for an answer before the host settles it."""
    ignore: tuple[str, ...] = ()
    """Lone words that are table chatter, not plays (``play okay`` still plays)."""

    @classmethod
    def from_config(cls, cfg: dict) -> "HearingSettings":
        d = cfg.get("speech", {})
        names = set(cls.__dataclass_fields__)
        return cls(**{k: tuple(v) if isinstance(v, list) else v for k, v in d.items() if k in names})


@dataclass
class Question:
    """A question the host asked and is waiting on."""

    kind: str
    """"word" (did you say X?) or "who" (who said it? / was that X?)."""
    t: float
    """When the utterance it is about started (the record keeps that time)."""
    asked_at: float
    speaker: str | None
    text: str
    """The understood text, waiting to be played."""
    heard: str
    options: list[str] = field(default_factory=list)
    """For "word": the alternatives (best first); for "who": the guessed speaker, if any."""


@dataclass
class Hearing:
    """Feeds utterances into a session, asking what a host would ask."""

    session: Session
    words: object
    settings: HearingSettings = field(default_factory=HearingSettings)
    question: Question | None = None
    waiting: list = field(default_factory=list)
    """Utterances heard while a question was open, to be heard once it is settled."""
    on_hear: Callable[[Heard], None] | None = None
    """Called with every utterance as it arrives (to show what was heard)."""
    expect: Callable[[list[str] | None], None] | None = None
    """Tells the recognizer what it may hear next (the answers to an open question)."""

    # ------------------------------------------------------------------ time
    def tick(self, t: float) -> None:
        """The clock reached ``t``: settle an unanswered question, then let the game run.

        While a question is open the game clock waits at the question's utterance, so
        that the word, once settled, is played at the moment it was said.
        """
        q = self.question
        if q is not None and t >= q.asked_at + self.settings.answer_within:
            self._settled()
            if q.kind == "word":
                self._say(self.announce.taking_guess(q.options[0]))
                self._feed(q.t, q.speaker, q.text, q.heard)
            elif q.options:
                self._feed(q.t, q.options[0], q.text, q.heard)
            else:
                self._say(self.announce.nobody_claimed(q.text))
            self._catch_up()
        if self.question is None:
            self.session.tick(t)

    def _catch_up(self) -> None:
        """Hear what was said while a question was open, in order, until a new question."""
        while self.question is None and self.waiting:
            self._hear(self.waiting.pop(0))

    # ------------------------------------------------------------------ utterances
    def hear(self, u: Heard) -> None:
        """One utterance from the speech layer."""
        if self.on_hear is not None:
            self.on_hear(u)
        self.tick(u.start)
        body = intents.normalize(u.body or u.text)
        if not body:
            return
        if self.question is not None:
            if self._answer(u, body):
                self._catch_up()
            else:
                self.waiting.append(u)
            return
        self._hear(u)

    def _hear(self, u: Heard) -> None:
        body = intents.normalize(u.body or u.text)
        text, match = self.understand(body, u.speaker)
        if text is None:  # table chatter: not an input, so not logged
            self._say(self.announce.refusal("unclear", {"text": body}))
            return
        if u.speaker is None:
            self._ask(Question("who", u.start, u.end, None, text, u.text), self.announce.who_said(text))
            return
        if u.ask:
            self._ask(Question("who", u.start, u.end, u.speaker, text, u.text, [u.speaker]),
                      self.announce.was_that(u.speaker))
            return
        if match is not None and match.confidence < self.settings.confirm_below:
            options = [w for w, _ in match.alternatives[:3]]
            prefix = text[: len(text) - len(match.best)]
            q = Question("word", u.start, u.end, u.speaker, text, u.text, options)
            q.text = prefix + options[0]
            self._ask(q, self.announce.did_you_say(options[:2]))
            return
        self._feed(u.start, u.speaker, text, u.text)

    def understand(self, body: str, speaker: str | None):
        """(the text to play, the match behind it): commands pass as heard (match None),
        words are matched; chatter gives (None, None)."""
        body = rewrite(body)
        players = self.session.players
        intent = intents.parse(body, players)
        if self.session.game.interpret(intent, speaker or players[0], self.session.t) is not None:
            return body, None
        if intent.kind not in ("word", "unclear"):
            return body, None
        prefix, rest = "", body
        m = intents.PLAY.match(body)
        if m:
            prefix, rest = m.group(1) + " ", m.group(2)
        elif intent.kind == "unclear":
            phrase = next((p for p in ("play ", "my word is ", "interrupt ") if body.startswith(p)), None)
            if phrase:
                prefix, rest = phrase, body[len(phrase):]
        if not prefix and rest in self.settings.ignore:
            return None, None
        match = self.words.match(rest)
        if match.best is None:
            return None, None
        if len(rest.split()) > 1 and not SPELLED.match(rest) and match.confidence < self.settings.join_above:
            return None, None  # several words that do not make one: chatter
        return prefix + match.best, match

    # ------------------------------------------------------------------ questions
    def _ask(self, q: Question, sentence: str) -> None:
        self.question = q
        if self.expect is not None:
            self.expect(["yes", "no", *q.options, *self.session.players])
        self._say(sentence)

    def _settled(self) -> None:
        self.question = None
        if self.expect is not None:
            self.expect(None)

    def _answer(self, u: Heard, body: str) -> bool:
        """Is this the answer to the open question? If so, settle it."""
        q = self.question
        said = intents.parse(body, self.session.players).kind
        if q.kind == "word" and u.speaker in (q.speaker, None):
            if said in ("yes", "no") or body in q.options:
                self._settled()
                if said == "no":
                    self._say(self.announce.say_again())
                    return True
                word = body if body in q.options else q.options[0]
                self._feed(q.t, q.speaker, q.text[: len(q.text) - len(q.options[0])] + word, q.heard)
                return True
        if q.kind == "who":
            name = intents.find_player(body.removeprefix("it was ").removeprefix("that was "), self.session.players)
            if name or (q.options and said in ("yes", "no")):
                self._settled()
                if name or said == "yes":
                    self._feed(q.t, name or q.options[0], q.text, q.heard)
                else:
                    self._say(self.announce.who_then(q.text))
                return True
        return False

    def _feed(self, t: float, speaker: str | None, text: str, heard: str) -> None:
        record = {"t": t, "speaker": speaker, "text": text, "heard": heard}
        if self.session.needs_begin(record):
            self.session.begin(t)
        self.session.feed(record)

    @property
    def announce(self):
        return self.session.announcer

    def _say(self, sentence: str) -> None:
        self.session.say(sentence)


def play_recording(hearing: Hearing, source, recognizer, *, channel_players=None, voiceprints=None) -> None:
    """Run a game on a recorded session, as fast as the machine allows.

    The game clock follows the recording: each utterance happens at its start time, and
    the clock runs on to the end of the recording (timers may run out in a silence).
    """
    listener = _listener(hearing, recognizer, channel_players, voiceprints)
    end = 0.0
    for u in listener.utterances(source):
        hearing.hear(u)
        end = max(end, u.end)
    duration = getattr(source, "duration", None) or end
    if not hearing.session.begun:
        hearing.session.begin(0.0)
    hearing.tick(max(duration, end))
    while hearing.question is not None:  # the recording ended on a question: settle it now
        hearing.tick(hearing.question.asked_at + hearing.settings.answer_within)
    hearing.session.settle()


def play_live(hearing: Hearing, source, recognizer, *, channel_players=None, voiceprints=None, voice=None) -> None:
    """Play by voice at the table: listen in a thread, keep the game clock on real time.

    The clock is held back while anyone is speaking, so that a word said at the same
    moment as another is compared with it however long it takes to say.
    """
    import queue
    import threading
    import time

    from voice_host.speech.turns import Discarded, SpeechStarted

    inbox: queue.Queue = queue.Queue()
    speaking: dict[int, float] = {}
    offset = hearing.session.t

    def on_event(event) -> None:
        if isinstance(event, SpeechStarted):
            speaking[event.channel] = event.time
        elif isinstance(event, Discarded):
            speaking.pop(event.channel, None)

    def run() -> None:
        try:
            for u in listener.utterances(source):
                speaking.pop(u.channel, None)
                inbox.put(u)
        finally:
            inbox.put(None)

    listener = _listener(hearing, recognizer, channel_players, voiceprints, voice, on_event)
    threading.Thread(target=run, daemon=True, name="listener").start()
    start = time.monotonic()
    while True:
        try:
            u = inbox.get(timeout=0.2)
        except queue.Empty:
            now = offset + time.monotonic() - start
            hold = min(speaking.values(), default=None)
            hearing.tick(now if hold is None else min(now, offset + hold))
            continue
        except KeyboardInterrupt:
            break
        if u is None:
            break
        u.start += offset
        u.end += offset
        hearing.hear(u)
    hearing.session.settle()


def _listener(hearing: Hearing, recognizer, channel_players=None, voiceprints=None, voice=None, on_event=None):
    """The speech layer's listener for this table; whisper is told the answers it may hear."""
    from voice_host.speech.turns import Listener, TurnConfig

    listener = Listener(recognizer, hearing.session.players, channel_players, voiceprints, voice,
                        config=TurnConfig(tie_window=hearing.session.tie_window), on_event=on_event)
    if recognizer.name == "whisper":  # a prompt only biases whisper; a vosk grammar would shut out other words
        hearing.expect = listener.expect
    return listener
