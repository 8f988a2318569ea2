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
import sys
from dataclasses import dataclass, field
from functools import cache
from importlib import resources
from typing import Callable, Protocol

import jellyfish

from voice_host.config import tomllib
from voice_host.host import intents
from voice_host.host.session import Session
from voice_host.words.matcher import spelled_letters, tokens

SPELLED = re.compile(r"^([a-z] )+[a-z]$")
ENROLL = re.compile(r"^(?:i am|i'm|im|my name is|my name's|this is)\s+(\S+)")
"""A player naming themself ("I am Ann, and I am ready to play"): their voice print."""
READY = re.compile(r"\bready to play\b")
CONNECTORS = ("says", "said", "saying")


def is_spelled(text: str) -> bool:
    """Said letter by letter (or in the NATO alphabet): the spelling is known."""
    return spelled_letters(tokens(text.split(" ", 1)[-1] if text.startswith(("play ", "interrupt ")) else text)) is not None


def sounds_like(heard: str, name: str) -> bool:
    """Does the heard word sound like the name? ("and" for Ann, "been" for Ben, "cut" for Cat.)

    Metaphone keys equal, or equal once a final T/D the recognizer added is dropped."""
    heard, name = heard.lower(), name.lower()
    if heard == name:
        return True
    a, b = jellyfish.metaphone(heard), jellyfish.metaphone(name)
    return bool(b) and (a == b or (a[:-1] == b and a[-1:] in ("T", "D") and len(b) >= 1))


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
    homophone_zipf: float = 2.5
    """A homophone this common (wordfreq Zipf) is a spelling worth asking about."""
    enroll_within: float = 15.0
    """Seconds the live opening waits for each player to say who they are."""
    sentence_gap: float = 3.0
    """The rest of an introduction heard within this many seconds is the same voice."""

    @classmethod
    def from_config(cls, cfg: dict) -> "HearingSettings":
        d = cfg.get("speech", {})
        names = set(cls.__dataclass_fields__)
        return cls(**{k: tuple(v) if isinstance(v, list) else v for k, v in d.items() if k in names})


@dataclass
class Question:
    """A question the host asked and is waiting on."""

    kind: str
    """"word" (did you say X?), "spelling" (knight with a K, or night?) or "who" (who
    said it? / was that X?)."""
    t: float
    """When the utterance it is about started (the record keeps that time)."""
    asked_at: float
    speaker: str | None
    text: str
    """The understood text, waiting to be played."""
    heard: str
    options: list[str] = field(default_factory=list)
    """For "word": the alternatives (best first); for "spelling": the two spellings
    (the one with the extra letter first); for "who": the guessed speaker, if any."""
    guess: str | None = None
    """For "spelling": what the host takes if nobody answers."""


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
    voiceprints: object | None = None
    """The table's voice prints (speech.voiceprint.VoicePrints) with one microphone: a
    player who says "I am Ann ..." is enrolled, a name said first adds to the print."""
    listen_for: Callable[[object], None] | None = None
    """Tells a recognizer that can be constrained what may be said now (a
    speech.sayable.Sayable, or None for anything): see :meth:`sayable`."""
    enrolling: list[str] = field(default_factory=list)
    """Players the host is still asking to say who they are (the live opening)."""
    enroll_asked_at: float = 0.0
    """When the host asked the first of ``enrolling``."""
    unheard: list[str] = field(default_factory=list)
    """Players who did not answer the opening's question (told to say their name first)."""
    _last_enrolled: tuple[str, float] | None = field(default=None, repr=False)
    _sayable: object = field(default=None, repr=False)
    _sayable_for: object = field(default=0, repr=False)

    # ------------------------------------------------------------------ time
    def tick(self, t: float) -> None:
        """The clock reached ``t``: settle an unanswered question, then let the game run.

        While a question is open the game clock waits at the question's utterance, so
        that the word, once settled, is played at the moment it was said.
        """
        if self.enrolling:
            if t >= self.enroll_asked_at + self.settings.enroll_within:
                self._next_enrollment(t, heard=False)
            return
        q = self.question
        if q is not None and t >= q.asked_at + self.settings.answer_within:
            self._settled()
            if q.kind in ("word", "spelling"):
                self._say(self.announce.taking_guess(q.guess or q.options[0]))
                self._feed(q.t, q.speaker, q.text, q.heard)
            elif q.options:
                self._feed(q.t, q.options[0], q.text, q.heard)
            else:
                self._say(self.announce.nobody_claimed(q.text))
            self._catch_up()
        if self.question is None:
            self.session.tick(t)

    def finish(self) -> None:
        """The input ended (a recording's end, the microphone closed): settle an open
        question as its time would, then let the words waiting on the clock be scored."""
        while self.question is not None:
            self.tick(self.question.asked_at + self.settings.answer_within)
        self.session.settle()

    def _catch_up(self) -> None:
        """Hear what was said while a question was open, in order, until a new question."""
        while self.question is None and self.waiting:
            self._hear(self.waiting.pop(0))

    # ------------------------------------------------------------------ utterances
    def hear(self, u: Heard) -> None:
        """One utterance from the speech layer."""
        if self.on_hear is not None:
            self.on_hear(u)
        if self._enroll(u):
            return
        body = intents.normalize(u.body or u.text)
        if not body:
            return
        self.open(u.start)
        self.tick(u.start)
        if self.question is not None:
            if self._answer(u, body):
                self._catch_up()
            else:
                self.waiting.append(u)
            return
        self._hear(u)

    def _hear(self, u: Heard) -> None:
        speaker, ask, body = u.speaker, u.ask, intents.normalize(u.body or u.text)
        named = self._named_by_sound(body) if getattr(u, "speaker_method", None) not in ("channel", "name") else None
        if named is not None:
            speaker, body = named
            ask = False
        if speaker is not None and (named is not None or getattr(u, "speaker_method", None) == "name"):
            self._learn_voice(speaker, u)
        text, match = self.understand(body, speaker)
        if text is None:  # table chatter: not an input, so not logged
            self._say(self.announce.refusal("unclear", {"text": body}))
            return
        if speaker is None:
            self._ask(Question("who", u.start, u.end, None, text, u.text), self.announce.who_said(text))
            return
        if ask:
            self._ask(Question("who", u.start, u.end, speaker, text, u.text, [speaker]),
                      self.announce.was_that(speaker))
            return
        spelled = is_spelled(body)
        if match is not None and match.confidence < self.settings.confirm_below and not (
                not spelled and len(match.alternatives) > 1 and match.alternatives[1][0] in self.words.homophones(match.best)):
            options = [w for w, _ in match.alternatives[:3]]
            prefix = text[: len(text) - len(match.best)]
            q = Question("word", u.start, u.end, speaker, text, u.text, options)
            q.text = prefix + options[0]
            self._ask(q, self.announce.did_you_say(options[:2]))
            return
        if match is not None and not spelled:
            spellings = self._spellings(match.best)
            if len(spellings) > 1:
                prefix = text[: len(text) - len(match.best)]
                values = {self.session.game.word_value(w) for w in spellings}
                if len(values) > 1 or None in values:
                    options = sorted(spellings, key=len, reverse=True)
                    q = Question("spelling", u.start, u.end, speaker, text, u.text, options, guess=match.best)
                    self._ask(q, self.announce.which_spelling(options))
                    return
                self._say(self.announce.took_spelling(match.best))
        self._feed(u.start, speaker, text, u.text)

    def _spellings(self, word: str) -> list[str]:
        """``word`` and its most common homophone, if that is a word a table would say
        (night for knight, jewellers for jewelers)."""
        others = [w for w in self.words.homophones(word) if self.words.frequency(w) >= self.settings.homophone_zipf]
        if not others:
            return [word]
        return [word, max(others, key=self.words.frequency)]

    # ------------------------------------------------------------------ voices
    def _player_named(self, said: str) -> str | None:
        players = self.session.players
        return intents.find_player(said, players) or next((p for p in players if sounds_like(said, p)), None)

    def _nearest_name(self, said: str) -> str | None:
        """The player whose name is closest in spelling to what was heard after "I am"
        ("man" for Ann, "kat" for Cat), if close enough and closer than any other."""
        from rapidfuzz import fuzz, process

        best = process.extract(said, [p.lower() for p in self.session.players], scorer=fuzz.ratio, limit=2)
        if best and best[0][1] >= 60 and (len(best) == 1 or best[1][1] < best[0][1]):
            return self.session.players[best[0][2]]
        return None

    def _named_by_sound(self, body: str) -> tuple[str, str] | None:
        """("Ann", "jewelers") for "and jewelers": a first word that sounds like a player's
        name, when what follows is a play and the whole is not."""
        first, _, rest = body.partition(" ")
        name = next((p for p in self.session.players if sounds_like(first, p)), None) if rest else None
        if name is None:
            return None
        rest = rest.split(" ", 1)[1] if rest.split(" ", 1)[0] in CONNECTORS and " " in rest else rest
        if self.understand(body, name)[0] is not None or self.understand(rest, name)[0] is None:
            return None
        return name, rest

    def _introduced(self, text: str) -> str | None:
        """The player who says who they are: "i am ann ...", "my name is ben", or a name
        in the opening's sentence however the start was heard ("hi ann and i am ready to play")."""
        m = ENROLL.match(text)
        if m:
            return self._player_named(m.group(1)) or self._nearest_name(m.group(1))
        if READY.search(text):  # only a name as such: "and i am ready" is not Ann's
            return next(filter(None, (intents.find_player(w, self.session.players) for w in text.split()[:4])), None)
        return None

    def _enroll(self, u: Heard) -> bool:
        """A player saying who they are gives their voice print (again, if they had one)."""
        audio = getattr(u, "audio", None)
        if self.voiceprints is None or audio is None or not len(audio):
            return False
        text = intents.normalize(u.text)
        name, more = self._introduced(text), False
        last = self._last_enrolled
        if name is None and READY.search(text) and last and u.start - last[1] <= self.settings.sentence_gap:
            name, more = last[0], True  # the rest of the sentence ("..., and I am ready to play"): more of that voice
        if name is None and self.enrolling and not self.session.begun:
            name = self.enrolling[0]  # the player the host asked, whatever they said
        if name is None:
            return False
        try:
            if not more:
                self.voiceprints.forget(name)
            self.voiceprints.enroll(name, audio)
        except Exception as exc:  # a voice print is a help, never a reason to stop the game
            print(f"voice print for {name} failed: {exc}", file=sys.stderr)
            return False
        self._last_enrolled = (name, u.end)
        if more:
            return True
        self._say(self.announce.enrolled(name))
        if name in self.enrolling:
            self.enrolling.remove(name)
            self.enrolling.insert(0, name)
            self._next_enrollment(u.end, heard=True)
        return True

    def _next_enrollment(self, t: float, heard: bool) -> None:
        """The first player asked has answered (or not, in time): ask the next, or open."""
        skipped = [] if heard else [self.enrolling[0]]
        self.enrolling.pop(0)
        self.unheard += skipped
        if self.enrolling:
            self.enroll_asked_at = t
            self._say(self.announce.enroll_prompt(self.enrolling[0]))
        else:
            self.open(t)

    def _learn_voice(self, player: str, u: Heard) -> None:
        """A word with the name said first adds to that player's voice print."""
        audio = getattr(u, "audio", None)
        if self.voiceprints is None or audio is None or len(audio) < 8000:
            return
        try:
            self.voiceprints.enroll(player, audio)
        except Exception as exc:
            print(f"voice print for {player} failed: {exc}", file=sys.stderr)

    def start_enrollment(self, t: float) -> None:
        """The live opening with one microphone: ask each player whose voice the host
        does not know yet, in seating order, then open the game."""
        known = set(getattr(self.voiceprints, "players", ()))
        self.enrolling = [p for p in self.session.players if p not in known]
        self.enroll_asked_at = t
        if self.enrolling:
            self._say(self.announce.enroll_prompt(self.enrolling[0]))
        else:
            self.open(t)

    def open(self, t: float) -> None:
        """Begin the game (the intro, the board, whose turn) before anything heard is judged."""
        self.unheard += self.enrolling
        self.enrolling = []
        if self.unheard:
            self._say(self.announce.not_enrolled(self.unheard))
            self.unheard = []
        if not self.session.begun:
            self.session.begin(t)

    def understand(self, body: str, speaker: str | None):
        """(the text to play, the match behind it): commands pass as heard (match None),
        words are matched; chatter gives (None, None)."""
        body = rewrite(body)
        players = self.session.players
        intent = intents.parse(body, players)
        if self.session.interpret(intent, speaker or players[0], self.session.t) is not None:
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
        self.listen()
        self._say(sentence)

    def _settled(self) -> None:
        self.question = None
        if self.expect is not None:
            self.expect(None)
        self.listen()

    # ------------------------------------------------------------------ what may be said
    def listen(self) -> None:
        """Tell the recognizer what may be said now (when it can be told)."""
        if self.listen_for is not None:
            self.listen_for(self.sayable())

    def sayable(self):
        """What a player may say now, for a recognizer that searches a language: in
        Prolix, a dictionary word, optionally after a name or a play phrase ("Ann,
        jewelers", "Ben interrupts jewelers", "play time"), a command or question, a
        player saying who they are, the answers to an open question. None (anything)
        in the games whose plays are sentences (Phlounder's reports, Dexikon's banks)."""
        from voice_host.speech.sayable import Sayable

        if not self.session.game.name.startswith("prolix"):
            return None
        key = (self.question.kind, tuple(self.question.options)) if self.question else None
        if self._sayable_for != key:
            names = [p.lower() for p in self.session.players]
            lead_ins = names + [f"{n} {v}" for n in names for v in ("says", "interrupts", "interrupts with")]
            lead_ins += [f"{v} {n}" for n in names for v in ("i am", "my name is", "this is")]  # "I am Ann, and ..."
            phrases = [p for kind, ps in intents.PHRASES.items() if kind != "play_what" for p in ps]
            phrases += [f"{v} {n}" for n in names for v in ("challenge", "sheet", "it was", "that was", "i am",
                                                                "i'm", "my name is", "this is")]
            phrases += [f"{n}'s sheet" for n in names] + names + ["and i am ready to play", "i am ready to play"]
            if self.question is not None:
                phrases += self.question.options
            self._sayable = Sayable.game(phrases, lead_ins + list(intents.PHRASES["play_what"]))
            self._sayable_for = key
        return self._sayable

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
        if q.kind == "spelling" and u.speaker in (q.speaker, None):
            word = self._spelling_answer(body, said, q.options)
            if word is not None:
                self._settled()
                self._feed(q.t, q.speaker, q.text[: len(q.text) - len(q.guess or "")] + word, q.heard)
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

    @staticmethod
    def _spelling_answer(body: str, said: str, options: list[str]) -> str | None:
        """Which of two spellings an answer means: the extra letter named ("with a k",
        "two l's", "k"), "yes" for the first, "no" or "the other" for the second, or
        the word spelled out."""
        first, second = options[:2]
        letters = body.replace("'s", "").split()
        spelled = "".join(letters) if all(len(w) == 1 for w in letters) else None
        if spelled in options:
            return spelled
        extra = {c for c in first if first.count(c) > second.count(c)}
        if said == "yes" or any(w in ("first", "two", "double") for w in letters) or \
                (letters and letters[-1] in extra and (len(letters) == 1 or letters[-2] in ("a", "an", "with"))):
            return first
        if said == "no" or any(w in ("second", "other", "without", "single", "one") for w in letters):
            return second
        return None

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
    hearing.open(end)
    hearing.tick(max(duration, end))
    hearing.finish()


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
    if hearing.voiceprints is not None and not channel_players:
        hearing.start_enrollment(offset)  # one microphone: learn each voice first
    else:
        hearing.open(offset)
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
    hearing.finish()


def _listener(hearing: Hearing, recognizer, channel_players=None, voiceprints=None, voice=None, on_event=None):
    """The speech layer's listener for this table; whisper is told the answers it may hear."""
    from voice_host.speech.turns import Listener, TurnConfig

    if voiceprints is None and not channel_players:
        voiceprints = hearing.voiceprints
    listener = Listener(recognizer, hearing.session.players, channel_players, voiceprints, voice,
                        config=TurnConfig(tie_window=hearing.session.tie_window), on_event=on_event)
    if recognizer.name == "moonshine":  # it searches a whole language; a prompt or grammar would not
        hearing.listen_for = listener.constrain
        hearing.listen()
    if recognizer.name == "whisper":  # a prompt only biases whisper; a vosk grammar would shut out other words
        hearing.expect = listener.expect
    return listener
