"""From heard utterances to input records: the word the player meant, and questions.

The speech layer says who spoke, when, and what it heard. Here that becomes the same
input record a typed line makes (host.records.Said, with ``heard``, the raw transcript,
for the log), after three checks a human host would make:

- **Which word?** Commands and questions pass as heard. Anything else is run through
  the words matcher (near-misses, homophones, "scrap booking", spelled letters, the
  NATO alphabet). Several words that do not make one word are table chatter.
- **Sure?** A word the recognizer was unsure of (a constrained search whose best
  sentence had a small margin over the next) or the matcher matched with low
  confidence is confirmed first ("Did you say cheers or tours?"); the speaker answers
  yes, no, the right word, or spells it ("tango oscar uniform romeo sierra"), which is
  heard again as the play, at the time of the first try; unanswered, the host takes
  its best guess after ``answer_within`` seconds and says so.
- **Not what I said.** A word the host took and announced can be put right by its
  player within ``answer_within`` seconds: "no, persons", "no, papa echo romeo ...",
  "I said persons". The play is taken back (logged as undos) with the plays made since
  (two at most), the right word is played at the time it was first said, and the
  others again after it.
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
from typing import Callable, NamedTuple, Protocol

from voice_host.config import tomllib
from voice_host.host import intents
from voice_host.host.records import Directive, Said, Wait
from voice_host.host.session import Session
from voice_host.host.voices import Voices
from voice_host.words.matcher import spelled_letters, tokens

SPELLED = re.compile(r"^([a-z] )+[a-z]$")


def is_spelled(text: str) -> bool:
    """Said letter by letter (or in the NATO alphabet): the spelling is known."""
    return spelled_letters(tokens(text.split(" ", 1)[-1] if text.startswith(("play ", "interrupt ")) else text)) is not None


def sounds_near(word: str, other: str) -> bool:
    """Could one have been heard for the other? (spelling or Metaphone keys at least
    half alike: persons / percents, tours / cheers; not body / jewelers)."""
    import jellyfish
    from rapidfuzz import fuzz

    return fuzz.ratio(word, other) >= 50 or fuzz.ratio(jellyfish.metaphone(word), jellyfish.metaphone(other)) >= 60


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
    confidence: float
    """Recognition confidence 0..1."""
    constrained: bool
    """The text is the best sentence of what may be said (a constrained search), and
    `confidence` its margin over the others."""
    alternatives: list
    """The constrained search's best sentences, (text, score), best first."""


@dataclass
class Again:
    """A word said again (or spelled) to answer "Did you say ...?": heard as the play,
    at the time of the first try, from the player who was asked."""

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

    @classmethod
    def of(cls, u: Heard, start: float, body: str, speaker: str | None) -> "Again":
        """Utterance `u` heard as `body` by `speaker`, as if said at `start`."""
        return cls(start, u.end, u.text, body, speaker, u.confidence, u.constrained, u.alternatives)


class Taken(NamedTuple):
    """A word the host took from a player (see Hearing.last_plays)."""

    announced: float
    """When it was played and announced (after the answer, for a word asked about)."""
    index: int
    """Its input record's index in the session."""
    prefix: str
    """What came before the word ("play ", "ann interrupts ")."""
    said_at: float
    """When it was said (the record's time)."""


@dataclass
class HearingSettings:
    """config/default.toml [speech]."""

    confirm_below: float = 0.6
    """Match confidence under which a word is confirmed before it is played."""
    confirm_heard_below: float = 0.9
    """Recognition confidence (a constrained search's margin) under which a word is
    confirmed before it is played (chosen on the tuning split of benchmarks/recognition.py:
    docs/SPEECH.md, "Unsure words")."""
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
    sentence_gap: float = 3.0
    """The rest of an introduction heard within this many seconds is the same voice."""
    prior_points: float = 0.0
    """The game's prior (host.prior): nats for the best play on the board over a word
    that scores nothing."""
    prior_known: float = 0.0
    """The game's prior: nats for a word everyone knows over one nobody uses."""

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
    prefix: str = ""
    """For "word" and "spelling": what came before the word ("play ", "interrupt ")."""
    utterance: object = None
    """For "who": what was heard (its voice is learnt as the player's who claims it)."""


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
    last_plays: dict = field(default_factory=dict)
    """player -> the last word the host took from that player (a Taken), which they may
    still put right ("Not what I said"); newest last."""
    now: float = 0.0
    """The latest time the hearing has reached (an utterance's end, a tick): when
    what it says now is said, whatever time the game clock waits at."""
    _sayable: object = field(default=None, repr=False)
    _sayable_for: object = field(default=0, repr=False)
    _prior: object = field(default=None, repr=False)
    _prior_for: object = field(default=0, repr=False)

    def __post_init__(self) -> None:
        self.voices = Voices(self)
        """Introductions, voice prints and names by sound (host.voices)."""

    # ------------------------------------------------------------------ time
    def tick(self, t: float) -> None:
        """The clock reached ``t``: settle an unanswered question, then let the game run.

        While a question is open the game clock waits at the question's utterance, so
        that the word, once settled, is played at the moment it was said.
        """
        self.now = max(self.now, t)
        if self.voices.due(t):
            return
        q = self.question
        if q is not None and t >= q.asked_at + self.settings.answer_within:
            self._settled()
            if q.kind in ("word", "spelling"):
                self._say(self.announce.taking_guess(q.guess or q.options[0]))
                taken = q.prefix + q.guess if q.kind == "spelling" and q.guess else q.text
                self._feed(q.t, q.speaker, taken, q.heard)
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
        """One utterance from the speech layer; then the recognizer is told what the
        game expects now (the board moved on)."""
        self._receive(u)
        if self.settings.prior_points or self.settings.prior_known:
            self.listen()

    def _receive(self, u: Heard) -> None:
        if self.on_hear is not None:
            self.on_hear(u)
        self.now = max(self.now, u.end)
        if self.voices.enroll(u):
            return
        body = intents.normalize(u.body or u.text)
        if not body:
            return
        self.open(u.start)
        self.tick(u.start)
        if self.question is not None:
            if self._answer(u, body):
                self._catch_up()
            elif not self._put_right(u):
                self.waiting.append(u)
            return
        self._hear(u)

    def _hear(self, u: Heard) -> None:
        if self._put_right(u):
            return
        speaker, ask, body = u.speaker, u.ask, intents.normalize(u.body or u.text)
        named = self.voices.named_by_sound(body) if getattr(u, "speaker_method", None) not in ("channel", "name", "answer") else None
        if named is not None:
            speaker, body, (text, match) = named
            ask = False
        else:
            text, match = self.understand(body, speaker)
        if speaker is not None and (named is not None or getattr(u, "speaker_method", None) == "name"):
            self.voices.learn(speaker, u)
        if text is None:  # table chatter: not an input, so not logged
            self._say(self.announce.refusal("unclear", {"text": body}))
            return
        if speaker is None:
            self._ask(Question("who", u.start, u.end, None, text, u.text, utterance=u), self.announce.who_said(text))
            return
        if ask:
            self._ask(Question("who", u.start, u.end, speaker, text, u.text, [speaker], utterance=u),
                      self.announce.was_that(speaker))
            return
        spelled = is_spelled(body)
        prefix = text[: len(text) - len(match.best)] if match is not None else ""
        options = None
        if match is not None and match.confidence < self.settings.confirm_below and not (
                not spelled and len(match.alternatives) > 1 and match.alternatives[1][0] in self.words.homophones(match.best)):
            options = [w for w, _ in match.alternatives[:3]]
        elif match is not None and not spelled:
            options = self._doubts(u, match.best)
        if options:
            q = Question("word", u.start, u.end, speaker, prefix + options[0], u.text, options, prefix=prefix)
            self._ask(q, self.announce.did_you_say(options[:2]))
            return
        if match is not None and not spelled:
            spellings = self._spellings(match.best)
            if len(spellings) > 1:
                value = self.session.game.word_value
                values = {value(w) for w in spellings}
                if len(values) > 1 or None in values:
                    options = sorted(spellings, key=len, reverse=True)
                    guess = max(spellings, key=lambda w: value(w) or 0) if None not in values else match.best
                    q = Question("spelling", u.start, u.end, speaker, text, u.text, options, guess, prefix)
                    self._ask(q, self.announce.which_spelling(options))
                    return
                self._say(self.announce.took_spelling(match.best))
        self._feed(u.start, speaker, text, u.text)

    ORDINALS = {"first": 0, "the first": 0, "the first one": 0, "second": 1, "the second": 1, "the second one": 1,
                "the other": 1, "the other one": 1, "the last one": 1}
    """Answers to "Did you say X or Y?" that name the option by its place."""
    CORRECTIONS = ("no i said ", "i said ", "no ")
    """What a player says before the right word to put a misheard play right."""
    PUT_RIGHT_AFTER = 2
    """How many plays by others may have been made since, for a word to be put right."""

    def _put_right(self, u: Heard) -> bool:
        """'No, persons' from a player whose word was just taken (spelled, or a word that
        sounds near it: "no body" after jewelers is not a correction): take it back, with the
        plays made since (at most ``PUT_RIGHT_AFTER`` others), play the right word at the
        time it was first said, and play the others again after it. With nothing said
        since, the right word is heard like any play (asked about if the recognizer is
        unsure); otherwise it is played as heard."""
        body = intents.normalize(u.body or u.text)
        lead = next((c for c in self.CORRECTIONS if body.startswith(c)), None)
        player = u.speaker or next(reversed(self.last_plays), None)
        last = self.last_plays.get(player)
        if lead is None or last is None or u.start > last.announced + self.settings.answer_within:
            return False
        index, prefix, said_at = last.index, last.prefix, last.said_at
        word, undoable = body[len(lead):], self.session.undoable
        later = undoable[undoable.index(index) + 1:] if index in undoable else None
        if later is None or len(later) > self.PUT_RIGHT_AFTER or \
                not all(isinstance(self.session.records[i], Said) for i in later):
            return False
        text, _ = self.understand(word, player)
        taken = self.session.records[index].text
        if text is None or not (is_spelled(word) or sounds_near(text, taken.removeprefix(prefix))):
            return False  # "no body" after jewelers is nobody, a new word
        again = [self.session.records[i] for i in later]
        for _ in range(len(later) + 1):  # logged, so a replay does the same
            self.session.play(Directive(u.start, "undo", ()), quiet=True)
        del self.last_plays[player]
        self._say(self.announce.put_right(player, text, taken.removeprefix(prefix)))
        if later or self.question is not None:  # no second question: played as heard
            for r in [Said(said_at, player, prefix + text, u.text), *again]:
                self._feed(r.t, r.speaker, r.text, r.heard)
                settled = self.session.game.settles_at()  # each scored in turn, before a word being asked about
                if settled is not None:
                    self.session.feed(Wait(settled))  # logged: a replay scores them the same way
            return True
        self._hear(Again.of(u, said_at, prefix + word, player))
        return True

    def _doubts(self, u: Heard, word: str) -> list[str] | None:
        """The words a constrained recognizer weighed (`word` first) when it was unsure
        of `word` (confidence under ``confirm_heard_below``); None when it was sure."""
        if not u.constrained or u.confidence >= self.settings.confirm_heard_below:
            return None
        sayable = self.sayable()  # the language the sentences come from: strip its lead-ins
        leads = sorted(sayable.names if sayable is not None else (), key=len, reverse=True)
        options, same = [word], False
        for sentence, _ in u.alternatives:
            rest = next((sentence[len(lead) + 1:] for lead in leads if sentence.startswith(lead + " ")), sentence)
            other = spelled_letters(rest.split()) or (rest if " " not in rest else None)
            if other and other not in options and other in self.words:
                if self._same_play(word, other):
                    same = True
                else:
                    options.append(other)
        if same and len(options) == 1:  # torn only between spellings that score the same: no doubt
            return None
        return options[:3]

    def _same_play(self, word: str, other: str) -> bool:
        """Whether ``other`` is another spelling of ``word``'s sound that scores the same
        now (jewellers for jewelers): one play, not a choice to ask about."""
        value = self.session.game.word_value
        return other in self.words.homophones(word) and value(word) is not None and value(word) == value(other)

    def _spellings(self, word: str) -> list[str]:
        """``word`` and its most common homophone, if that is a word a table would say
        (night for knight, jewellers for jewelers)."""
        others = [w for w in self.words.homophones(word) if self.words.frequency(w) >= self.settings.homophone_zipf]
        if not others:
            return [word]
        return [word, max(others, key=self.words.frequency)]

    # ------------------------------------------------------------------ voices
    def start_enrollment(self, t: float) -> None:
        """The live opening with one microphone: ask each player whose voice the host
        does not know yet, in seating order, then open the game (host.voices)."""
        self.voices.start(t)

    def open(self, t: float) -> None:
        """Begin the game (the intro, the board, whose turn) before anything heard is judged."""
        unheard = self.voices.close()
        if unheard:
            self._say(self.announce.not_enrolled(unheard))
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
        from voice_host.speech.recognizing.sayable import Sayable

        if not self.session.game.name.startswith("prolix"):
            return None
        key = (self.question.kind, tuple(self.question.options)) if self.question else None
        if self._sayable_for != key:
            names = [p.lower() for p in self.session.players]
            lead_ins = names + [f"{n} {v}" for n in names for v in ("says", "interrupts", "interrupts with")]
            lead_ins += [c.strip() for c in self.CORRECTIONS]  # "no, persons": a play put right
            lead_ins += [f"{v} {n}" for n in names for v in ("i am", "my name is", "this is")]  # "I am Ann, and ..."
            phrases = [p for kind, ps in intents.PHRASES.items() if kind != "play_what" for p in ps]
            phrases += [f"{v} {n}" for n in names for v in ("challenge", "sheet", "it was", "that was", "i am",
                                                                "i'm", "my name is", "this is")]
            phrases += [f"{n}'s sheet" for n in names] + names + ["and i am ready to play", "i am ready to play"]
            if self.question is not None:
                phrases += self.question.options
            if self.question is not None and self.question.kind == "word":
                phrases += list(self.ORDINALS)
            self._sayable = Sayable.game(phrases, lead_ins + list(intents.PHRASES["play_what"]), spelling=True)
            self._sayable_for = key
        return self._sayable.with_prior(self.prior())

    def prior(self):
        """The game's prior over the dictionary for what it expects now (host.prior), or
        None when it is off (``prior_points`` and ``prior_known`` both 0)."""
        from voice_host.host.prior import search_prior

        expected = self.session.game.expectation()
        if self._prior_for != expected:
            self._prior = search_prior(expected, self.words, self.settings.prior_points, self.settings.prior_known)
            self._prior_for = expected
        return self._prior

    def _answer(self, u: Heard, body: str) -> bool:
        """Is this the answer to the open question? If so, settle it."""
        q = self.question
        said = intents.parse(body, self.session.players).kind
        if q.kind == "word" and u.speaker in (q.speaker, None):
            place = self.ORDINALS.get(body)
            if said in ("yes", "no") or body in q.options or place is not None:
                self._settled()
                if said == "no":
                    self._say(self.announce.say_again())
                    return True
                word = body if body in q.options else q.options[min(place or 0, len(q.options) - 1)]
                self._feed(q.t, q.speaker, q.prefix + word, q.heard)
                return True
            correction = body.removeprefix("no ")  # the word again, or spelled, by the player asked
            if intents.parse(correction, self.session.players).kind in ("word", "unclear") and \
                    self.understand(correction, q.speaker)[1] is not None:
                self._settled()
                self._hear(Again.of(u, q.t, q.prefix + correction, q.speaker))
                return True
        if q.kind == "spelling" and u.speaker in (q.speaker, None):
            word = self._spelling_answer(body, said, q.options)
            if word is not None:
                self._settled()
                self._feed(q.t, q.speaker, q.prefix + word, q.heard)
                return True
        if q.kind == "who":
            claim = body.removeprefix("it was ").removeprefix("that was ")
            name = intents.find_player(claim, self.session.players) or (  # "it was bus": Gus, the nearest
                self.voices.nearest_name(claim) if claim != body and " " not in claim else None)
            if name or (q.options and said in ("yes", "no")):
                self._settled()
                if name or said == "yes":
                    self.voices.learn(name or q.options[0], q.utterance)
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
        self.session.play(Said(t, speaker, text, heard))
        index = len(self.session.records) - 1
        match = intents.PLAY.match(text)
        word = match.group(2) if match else text
        taken = self.session.undoable[-1:] == [index] and intents.parse(word, self.session.players).kind == "word"
        if taken:
            self.last_plays.pop(speaker, None)
            self.last_plays[speaker] = Taken(max(self.now, self.session.t), index, text[: len(text) - len(word)], t)

    @property
    def announce(self):
        return self.session.announcer

    def _say(self, sentence: str) -> None:
        self.session.say(sentence)
