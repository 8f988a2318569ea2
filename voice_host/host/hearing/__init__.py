"""From heard utterances to input records: the word the player meant, and questions.

The speech layer says who spoke, when, and what it heard. Here that becomes the same
input record a typed line makes (voice_host.messages.Said, with ``heard``, the raw transcript,
for the log), after the questions a human host would ask, one module each, asked in
this order of every utterance:

- **Put right?** (``correct``) "No, persons" from a player whose word was just taken
  puts that word right; nothing else is asked of it.
- **Which word?** (``understand``) Commands and questions pass as heard; anything else
  is matched to a dictionary word, or is table chatter. The recognizer is told what may
  be said, with the game's prior.
- **Who?** (``attribute``) As the speech layer said, or the player whose name was said
  first ("and jewelers": Ann's); introductions and voice prints.
- **Sure?** (``confirm``) Who said it, did you say, which spelling: a question waits
  for its answer, or the host settles it in time; what is said meanwhile and is not its
  answer is taken at once (``Hearing._meanwhile``), or waits where the player asked is
  owed the first say.

How loud the room is (``room``) is noted of every utterance; a word missed in a loud
room is told the table.

Then the word is played (``Hearing._take``) and its player may put it right. ``heard``
holds what the stages share: the utterance, its settings. Everything here is game-clock
time: the recording's timeline, or the live clock.
"""

from __future__ import annotations

from typing import Callable, Protocol

from voice_host.host import intents
from voice_host.host.hearing.attribute import Voices
from voice_host.host.hearing.confirm import Confirm, Question, Settled
from voice_host.host.hearing.correct import Correct
from voice_host.host.hearing.heard import Again, Heard, HearingSettings
from voice_host.host.hearing.room import Room
from voice_host.host.hearing.scorekeeper import Scorekeeper
from voice_host.host.hearing.understand import Understand
from voice_host.messages import Directive, Said, Wait


class Ears(Protocol):
    """The listener, as the hearing tells it what comes next: the assembly gives the
    hearing one when it builds them (voice_host.assembly.EngineEars, over
    speech.listening.turns.Listener), told only what its recognizer can take."""

    searches: bool
    """Whether its recognizer searches a language (moonshine): only then is it worth
    working out what may be said (:meth:`Hearing.sayable`) to tell it."""

    def constrain(self, sayable) -> None:
        """What may be said now, as a language (speech.recognizing.sayable.Sayable; None: anything)."""

    def expect(self, phrases: list[str] | None) -> None:
        """The phrases expected next (the answers to an open question; None: anything)."""

    def hear_above(self, level_db: float | None) -> None:
        """The level (dBFS) under which sound at the microphone is the room's, not the table's."""


class Hearing:
    """Feeds utterances into a session, asking what a host would ask. ``ears``: the
    listener, told what may be said as the game goes on (None: nothing is told);
    ``host_speech``: see :attr:`host_speech`."""

    def __init__(self, session: Scorekeeper, words, settings: HearingSettings | None = None, *,
                 on_hear: Callable[[Heard], None] | None = None, voiceprints: object | None = None,
                 ears: Ears | None = None, host_speech: Callable[[float, float], float] | None = None):
        self.session = session
        self.words = words
        self.settings = settings = settings if settings is not None else HearingSettings()
        self.on_hear = on_hear
        """Called with every utterance as it arrives (to show what was heard)."""
        self.ears = ears
        self.now = 0.0
        """The latest time the hearing has reached (an utterance's end, a tick): when
        what it says now is said, whatever time the game clock waits at."""
        spoke = {"host_spoke": host_speech} if host_speech is not None else {}
        self.understand = Understand(session, words, settings, **spoke)
        self.voices = Voices(session, words, settings, self.understand, voiceprints,
                             on_floor=ears.hear_above if ears is not None else None, **spoke)
        self.room = Room(session, words, settings, **spoke)
        self.confirm = Confirm(session, words, settings, self.understand, self.room, **spoke)
        self.correct = Correct(session, words, settings, self.understand, **spoke)
        if ears is not None and ears.searches:
            self.listen()  # what may be said at first

    def warm(self) -> None:
        """Load now what the hearing would load at its first question (the forms of a
        word: "Did you say amendment or amendments?"), before anyone waits for an answer."""
        from voice_host.words import morphology

        morphology.warm()

    @property
    def voiceprints(self):
        """The table's voice prints (speech.listening.voiceprint.VoicePrints) with one
        microphone: a player who says "I am Ann ..." is enrolled, a name said first adds
        to the print."""
        return self.voices.voiceprints

    @property
    def host_speech(self) -> Callable[[float, float], float]:
        """Seconds the host's voice spoke between two times of the game clock: the table
        waits for the host to finish before it answers or puts a word right, so the
        ``answer_within`` seconds count only the rest (heard.Stage.waited). Given by the
        assembly with a live voice; a recording's host speaks in no time."""
        return self.confirm.host_spoke

    @property
    def question(self) -> Question | None:
        """The question the host asked and is waiting on."""
        return self.confirm.question

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
        if q is not None and self.confirm.waited(q.asked_at, t) >= self.settings.answer_within:
            self._settle(self.confirm.unanswered(q))
            self._catch_up()
        if self.question is None:
            self.session.tick(t)

    def finish(self, *, windows: bool = True) -> None:
        """The input ended (a recording's end, the microphone closed): settle an open
        question as its time would, then let the words waiting on the clock be scored
        (and, with ``windows``, the table's windows close: not when the table stopped)."""
        while self.question is not None:  # its time, once the host has said all it had to say
            q = self.question
            self.tick(q.asked_at + self.settings.answer_within + self.confirm.host_spoke(q.asked_at, float("inf")))
            if self.question is q:  # not settled by its time (a hair short of it in floating point): settle it now
                self._settle(self.confirm.unanswered(q))
                self._catch_up()
        self.session.settle(windows=windows)

    def start_enrollment(self, t: float) -> None:
        """The live opening with one microphone: ask each player whose voice the host
        does not know yet, in seating order, then open the game (hearing.attribute)."""
        self.voices.start(t)

    def open(self, t: float) -> None:
        """Begin the game (the intro, the board, whose turn) before anything heard is judged."""
        self.voices.open(t)

    # ------------------------------------------------------------------ utterances
    def hear(self, u: Heard) -> None:
        """One utterance from the speech layer; then the recognizer is told what the
        game expects now (the board moved on)."""
        self._receive(u)
        if self.settings.prior_points or self.settings.prior_known:
            self.listen()

    def _receive(self, u: Heard) -> None:
        if self.session.begun:
            self.tick(u.start)  # what the clock brought before this utterance is said before it is shown
        if self.on_hear is not None:
            self.on_hear(u)
        self.now = max(self.now, u.end)
        if self.voices.background(u):  # the room's talk (a television): not the table's, so nothing
            self.room.talk(u.start)
            return
        if getattr(u, "drowned", False):
            self._drowned(u)
            return
        self.room.hear(u)
        if self.voices.enroll(u):  # an introduction: a voice print, not an input
            return
        body = intents.normalize(u.body or u.text)
        if not body or self.voices.enrolling and not self._an_input(body, u):
            return  # while the opening asks a player, a fragment in another's voice is nobody's answer
        self.open(u.start)
        self.tick(u.start)
        if self.question is not None:  # an answer, a word put right, or it waits
            settled = self.confirm.answer(u, body)
            if settled is not None:
                self._settle(settled)
                self._catch_up()
            elif not self._put_right(u):
                self._meanwhile(u, body)
            return
        self._hear(u)

    def _drowned(self, u: Heard) -> None:
        """The host stopped talking for ``u``, then heard only its own words in it, or too
        little of it: a word said over the host, lost under it, is asked for again
        (ruling 100), of anyone: what was heard was mostly the host's own voice, so only a
        microphone of one player's own says whose it was. Not while a question is open
        (its answer would be taken for the word) nor before the game begins."""
        if not self.session.begun or self.question is not None:
            return
        self._ask(*self.confirm.say_again(u))

    def _meanwhile(self, u: Heard, body: str) -> None:
        """``u`` was said while a question waits and does not answer it: a question about
        the game is answered at once, about the game as it will stand once the word asked
        about is played as the host would take it unanswered (not logged: it changes
        nothing), a request of the host at the moment the game waits at, and the question
        is asked again; a play or a command of its own settles the question as the host
        would (hearing.confirm.Confirm.moved_on) and is heard at once; what is owed to
        the player asked, or an answer not its speaker's to give, waits for it; table talk
        ("wait") is answered and the question stays open."""
        q = self.question
        asked = intents.parse(body, self.session.players).kind
        if asked in intents.TALK and u.speaker is not None:  # "wait": answered, and the question stays open
            self._hear(u, at=self.session.t)
            return
        if asked in intents.QUESTIONS or (asked in intents.HOST and asked != "undo"):
            if u.speaker is None or u.ask:  # "Who said ...?" would take the open question's place
                self.confirm.waiting.append(u)
                return
            if asked in intents.QUESTIONS:  # about the game as it will stand with the word asked about
                for line in self.session.answer_once(self.confirm.unanswered_play(q), Said(u.start, u.speaker, body)):
                    self._say(line)
            else:
                self._hear(u, at=self.session.t)
            if asked != "repeat":  # "repeat" says the question itself
                self._say(self.announce.asking_again(q.speaker, q.sentence))
            return
        settled = self.confirm.moved_on(u, body)
        if settled is None:
            self.confirm.waiting.append(u)
            if self.confirm.owed(q) and u.speaker not in (q.speaker, None) and self.understand.read(body, u.speaker).text:
                self._say(self.announce.one_moment(u.speaker, q.speaker))
            return
        self._settle(settled)
        if settled.again is None and settled.ask is None:  # else it was the word asked for, said
            self.confirm.waiting.append(u)
        self._catch_up()

    def _an_input(self, body: str, u: Heard) -> bool:
        """Is ``body`` a command, or a word heard surely enough not to ask "Did you
        say ...?" (a player's name may come first), said without hesitation, and not
        over the host's own question (it may be that question heard back)? What the
        opening does not hold for."""
        if self.settings.unsure(u) or intents.hesitant(u.body or u.text) or getattr(u, "barged", False):
            return False  # "um and": a fragment, not an answer
        named = self.voices.named_by_sound(body)
        reading = named.reading if named is not None else self.understand.read(body, u.speaker)
        text, match = reading.text, reading.match
        return text is not None and (match is None or match.confidence >= self.settings.confirm_below)

    def _hear(self, u: Heard | Again, at: float | None = None) -> None:
        """The host's questions in order; the first that settles the utterance ends it.
        A word said again (an answer) is the word asked about, never a correction.
        ``at``: the time its input is played at (else when it was said)."""
        if not isinstance(u, Again) and self._put_right(u):                    # put right?
            return
        body = intents.normalize(u.body or u.text)
        at = u.start if at is None else at
        said = self.understand.read(body, u.speaker, at)                       # which word?
        who = self.voices.who(u, body, said)                                   # who?
        doubt = self.confirm.doubt(u, who)                                     # sure?
        if doubt.question is not None:
            self._ask(doubt.question, doubt.sentence)
            return
        if who.reading.text is None:  # table chatter: not an input, so not logged
            self.correct.missed(u, who.body)
            self._say(self.announce.refusal("unclear", {"text": who.body}))
            return
        if doubt.sentence is not None:
            self._say(doubt.sentence)
        self._take(Said(at, who.speaker, doubt.text, u.text,
                        parsed=self.understand.parse(doubt.text, who.speaker, at, who.reading.parsed)))

    def _catch_up(self) -> None:
        """Hear what was said while a question was open, in order, until a new question."""
        while self.question is None and self.confirm.waiting:
            self._hear(self.confirm.waiting.pop(0))

    def _take(self, said: Said) -> None:
        """Play ``said``; a word played may be put right by its player."""
        self.correct.taking(said, self.now)
        self.session.play(said)

    def _put_right(self, u: Heard) -> bool:
        """Put a word right if ``u`` says the right one (hearing.correct)."""
        c = self.correct.correction(u, asking=self.question is not None)
        if c is None:
            return False
        if not c.undo:  # heard as the same word again: the host asks for its spelling
            self._say(c.sentence)
            return True
        for _ in range(c.undo):  # logged, so a replay does the same
            self.session.play(Directive(u.start, "undo", ()), quiet=True)
        self.correct.forget(c.player)
        self._say(c.sentence)
        if c.again is not None:
            self._hear(c.again)
            return True
        for r in c.replay:
            self._take(r)
            settled = self.session.settles_at(windows=False)  # each scored in turn, before a word asked about
            if settled is not None:
                self.session.feed(Wait(settled))  # logged: a replay scores them the same way
        return True

    # ------------------------------------------------------------------ questions
    def _missed(self) -> None:
        """A word was missed: say so if the room is too loud (hearing.room)."""
        sentence = self.room.missed(self.now)
        if sentence is not None:
            self._say(sentence)

    def _ask(self, q: Question, sentence: str) -> None:
        if q.kind == "again" and not q.drowned:
            self._missed()
        self.confirm.ask(q, sentence)
        if self.ears is not None:  # the answers; a word asked for again is any word
            self.ears.expect(None if q.kind == "again" else ["yes", "no", *q.options, *self.session.players])
        self.listen()
        self._say(sentence)

    def _settle(self, settled: Settled) -> None:
        """The open question is settled: the recognizer may hear anything again; then
        whose voice it was, what the host says, plays and hears again."""
        self.confirm.settled()
        if self.ears is not None:
            self.ears.expect(None)
        self.listen()
        if settled.learn is not None:
            self.voices.learn(*settled.learn)
        if settled.say is not None:
            self._say(settled.say)
        if settled.play is not None:
            self._take(settled.play)
        if settled.again is not None:
            self._hear(settled.again)
        if settled.ask is not None:
            self._ask(*settled.ask)

    # ------------------------------------------------------------------ what may be said
    def listen(self) -> None:
        """Tell the recognizer what may be said now (when it can be told)."""
        if self.ears is not None and self.ears.searches:
            self.ears.constrain(self.sayable())

    def sayable(self):
        """What a player may say now (hearing.understand.Understand.sayable): "no" and a
        word only while a word may be put right, or one is asked about."""
        q = self.question
        correcting = (q is not None and q.kind in ("word", "again")) or self.correct.open(self.now)
        return self.understand.sayable(q, correcting=correcting)

    def prior(self):
        """The game's prior for what it expects now (hearing.understand.Understand.prior)."""
        return self.understand.prior()

    @property
    def announce(self):
        return self.session.announcer

    def _say(self, sentence: str) -> None:
        self.session.say(sentence)


__all__ = ["Again", "Ears", "Hearing", "HearingSettings", "Heard", "Question"]
