"""Sure? The questions a host asks before it plays a word, and their answers.

- **Did you say?** A word the recognizer was unsure of (a constrained search whose best
  sentence had a small margin over the next) is taken and said in the score when the
  doubt does not change the score and the room is quiet, for its player to put right
  (hearing.correct); otherwise, or when the matcher matched it with low confidence, it
  is confirmed first ("Did you say cheers or tours?"); the speaker answers yes, no, the
  right word, its place ("the second one"), or spells it ("tango oscar uniform romeo
  sierra"), which is heard again as the play, at the time of the first try. A bare
  word that is not an option counts as the word said again only if it sounds close to
  an option (hearing.correct.said_again); otherwise it is the player's next play, and
  waits.
- **Which spelling?** A word with a common homophone that scores otherwise on the board
  ("knight with a K, or night?"); spellings that score the same are one play.
- **Who?** An utterance nobody could attribute is asked about ("Who said jewelers?"); a
  weakly attributed one is confirmed ("Was that Bob?"). The answer is a player's name or
  yes/no.
- **Again?** A word the host would leave out (it fits no word well and nobody answered),
  or one its player said "no" to, is asked for by name ("Ann, I missed your word. Say it
  again, or spell it."), as a scorekeeper would before the game goes on: the next
  player's word waits, so it is not taken as an interrupt of a turn that only seems
  open. The word said again is played at the time of the first try; missed once more,
  it is left out.

Unanswered, the host settles the question itself after ``answer_within`` seconds: it
takes its best guess and says so, keeps its guess of the player, asks for the word
again, or drops it and says so. What is said while a question is open and is not its
answer settles it at once as unanswered (:meth:`Confirm.moved_on`), or waits
(``waiting``) where the player asked is owed the word first, and is heard once it is
settled. A question and its answer come back as
a :class:`Settled`: what the hearing then says, plays, hears again or asks next.
"""

from __future__ import annotations

from dataclasses import dataclass, field, replace
from typing import NamedTuple

from voice_host.host import intents
from voice_host.host.hearing.attribute import Attributed, nearest_name
from voice_host.host.hearing.correct import said_again
from voice_host.host.hearing.heard import Again, Heard, Stage
from voice_host.host.hearing.room import Room
from voice_host.host.hearing.understand import ORDINALS, Understand, is_spelled
from voice_host.messages import Said
from voice_host.words.morphology import forms_of_one_word


DOUBTED_OVER_HOST = frozenset((None, *intents.TALK, *intents.QUESTIONS, *(k for k in intents.HOST if k != "undo"),
                               "yes", "no"))
"""What a player may say that is not a game's command (a word, talk, a question, a
request of the host, an answer nobody asked for; a Reading's kind, None for a word):
heard over the host's own voice and not surely, it is asked for again (ruling 100). A
word said over the host, garbled by its voice, was heard "thank you", "yeah" or "say
again" and lost without a word, or as a word nobody said ("battery" for "prescribe")
and asked about."""
OVER_HOST = 0.1
"""Seconds of an utterance the host's voice must have spoken over for that."""


@dataclass
class Question:
    """A question the host asked and is waiting on."""

    kind: str
    """"word" (did you say X?), "spelling" (knight with a K, or night?), "who" (who
    said it? / was that X?) or "again" (Ann, say it again)."""
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
    """For "word" and "spelling": what the host takes if nobody answers."""
    prefix: str = ""
    """For "word" and "spelling": what came before the word ("play ", "interrupt ")."""
    utterance: object = None
    """For "who": what was heard (its voice is learnt as the player's who claims it)."""
    fits: bool = True
    """For "word": whether the word fits the sound well enough to be taken should nobody
    answer (else it is left out: noise, or a word the recognizer's language lacks)."""
    retry: bool = False
    """The word is already the one said again on the host's asking: not asked for again."""
    refused: str | None = None
    """For "word" and "again": the word its player said no to (heard.Again.refused)."""
    sentence: str = ""
    """What the host asked, to ask it again after answering something else meanwhile."""
    drowned: bool = False
    """For "again": asked for what the host's own voice drowned (heard unsurely over it,
    or only as its own words: Utterance.drowned): there may have been no word, so
    unanswered, nothing is said, and nor is the room blamed for it."""


@dataclass
class Settled:
    """A question settled: in this order, whose voice the utterance was, what the host
    says, what it plays, what it hears again as a play."""

    learn: tuple[str, object] | None = None
    """(player, utterance): the utterance's voice is that player's."""
    say: str | None = None
    play: Said | None = None
    again: Again | None = None
    ask: tuple[Question, str] | None = None
    """A question to ask next, and its sentence (the word asked for again)."""


class Doubt(NamedTuple):
    """What the host asks before a word is played (Confirm.doubt), if anything."""

    question: Question | None
    """Who said it, did you say, which spelling; None: nothing is asked."""
    sentence: str | None
    """The question's sentence; with no question, a remark to make first (or None)."""
    text: str | None
    """What is played once the question is settled (or at once); None for words that make no word."""


@dataclass
class Confirm(Stage):
    """The host's open question, if any, and the utterances waiting on it."""

    understand: Understand = field(repr=False)
    room: Room = field(repr=False)
    question: Question | None = None
    """The question open now (:meth:`ask`, :meth:`settled`)."""
    waiting: list = field(default_factory=list)
    """Utterances heard while a question was open, to be heard once it is settled."""

    @property
    def announce(self):
        return self.session.announcer

    def ask(self, q: Question, sentence: str) -> None:
        """``q`` is asked now, in ``sentence``: the open question."""
        self.question = replace(q, sentence=sentence)

    def settled(self) -> None:
        """The open question is settled: none is open."""
        self.question = None

    # ------------------------------------------------------------------ asking
    def doubt(self, u: Heard, who: Attributed) -> Doubt:
        """What the host asks before what ``who`` said is played: say that again (heard
        unsurely over the host's voice, a word or words that make none), who said it,
        did you say, which spelling; or nothing (a remark to make first, perhaps) when it
        is sure, or its doubt is not worth the table's time (:meth:`_worth_asking`)."""
        speaker, ask, body, reading = who
        text, match = reading.text, reading.match
        if self._talked_over(u, reading):
            return Doubt(*self.say_again(u), text)
        if text is None:  # words that make no word, heard surely or with the host quiet: nothing to ask
            return Doubt(None, None, None)
        if speaker is None:
            return Doubt(Question("who", u.start, u.end, None, text, u.text, utterance=u), self.announce.who_said(text),
                         text)
        if ask:
            return Doubt(Question("who", u.start, u.end, speaker, text, u.text, [speaker], utterance=u),
                         self.announce.was_that(speaker), text)
        spelled = is_spelled(body)
        prefix = text[: len(text) - len(match.best)] if match is not None else ""
        word = match.best if match is not None else None
        options, guess = None, None
        if match is not None and match.confidence < self.settings.confirm_below and not (
                not spelled and len(match.alternatives) > 1 and match.alternatives[1][0] in self.words.homophones(match.best)):
            options = [w for w, _ in match.alternatives if self._sayable(w)][:3]  # as heard: its form is what was said
        elif match is not None and (not spelled or self.settings.unsure(u)):  # a spelling heard unsurely too
            weighed = self._doubts(u, match.best, getattr(u, "refused", None))
            if weighed:
                guess = self._meant(weighed)
                options = self._worth_asking(u, weighed, guess)
                if not options:  # taken, and said in the score: its player may put it right
                    word, text = guess, prefix + guess
        if options:
            q = Question("word", u.start, u.end, speaker, prefix + options[0], u.text, options, guess, prefix,
                         fits=self.settings.fits(u), retry=getattr(u, "retry", False),
                         refused=getattr(u, "refused", None))
            return Doubt(q, self.announce.did_you_say(options[:2]), text)
        if match is not None and not spelled:
            spellings = [w for w in self._spellings(word) if w == word or self._sayable(w)]
            if len(spellings) > 1:
                value = self.session.word_value
                values = {value(w) for w in spellings}
                if len(values) > 1 or None in values:
                    options = sorted(spellings, key=len, reverse=True)
                    guess = max(spellings, key=lambda w: value(w) or 0) if None not in values else word
                    q = Question("spelling", u.start, u.end, speaker, text, u.text, options, guess, prefix)
                    return Doubt(q, self.announce.which_spelling(options), text)
                return Doubt(None, self.announce.took_spelling(word), text)
        return Doubt(None, None, text)

    def say_again(self, u: Heard) -> tuple[Question, str]:
        """"Sorry, I was talking. Say that again?": the question for what the host's own
        voice drowned (ruling 100), anyone's to answer, since the voice print heard the
        host's voice with it (named "Sorry, Ann, ..." only for a microphone of Ann's
        own), and the sentence."""
        named = u.speaker if getattr(u, "speaker_method", None) == "channel" and not u.ask else None
        return Question("again", u.start, u.end, named, "", u.text, drowned=True), self.announce.talked_over(named)

    def _talked_over(self, u: Heard, reading) -> bool:
        """Whether ``u`` is a word the host's own voice garbled (ruling 100), with no
        question open: begun as the host spoke, with its voice heard back on the
        microphone (``barged``: the host stopped for it, but its echo and the room's
        tail go on under the word's first sounds), a word the host would not take as
        heard (under ``take_above``, or fitting the sound poorly), a free reading of what
        fits no sentence of the game (at most 0.2 sure), or words that make none; or,
        begun so or said while the host spoke over ``OVER_HOST`` of it, talk, a
        question, a request or an answer nobody asked for heard unsurely. A word said
        again is not: it is the answer to the host, timed from the first try."""
        if reading.kind not in DOUBTED_OVER_HOST or self.question is not None or isinstance(u, Again):
            return False
        if not getattr(u, "barged", False) and (reading.kind is None or self.host_spoke(u.start, u.end) < OVER_HOST):
            return False  # a word: only where the host's voice was heard under it
        if u.confidence < self.settings.take_above or not self.settings.fits(u):
            return True
        return (reading.text is None or reading.kind is not None) and self.settings.unsure(u)

    def _worth_asking(self, u: Heard, weighed: dict[str, float], guess: str) -> list[str]:
        """The readings to ask about (best first, ``guess`` among the first two), or none
        when the host takes ``guess`` and says it in the score, as a scorekeeper does with
        most doubts: the word fits the sound, the recognizer is not far from sure of it
        (``take_above``), no other reading near it (within ``ask_within`` nats of the
        best) scores differently on the board, and the room is quiet enough for "No, ..."
        to be heard (hearing.room). A reading far below the best is never offered,
        except what the second ear heard instead."""
        value = self.session.word_value
        top = next(iter(weighed.values()))
        second = self._second_reading(u, guess)
        near = [w for w, score in weighed.items()
                if top - score <= self.settings.ask_within or w in (guess, second)]
        torn = any(value(w) != value(guess) for w in near)
        if self.settings.fits(u) and u.confidence >= self.settings.take_above and not torn and self.room.quiet:
            return []
        asked = list(dict.fromkeys([near[0], guess]))  # the guess is always one of the two asked about,
        if len(asked) == 1 and second is not None:  # and so is the second ear's reading where it differed
            asked.append(second)
        return asked + [w for w in near if w not in asked]

    def _meant(self, weighed: dict[str, float]) -> str:
        """The word a player would have meant, should nobody answer, among the words the
        recognizer was torn between (word -> its score, best first): its best, or a form
        of it that scores more on the board now and sounded nearly as likely (within
        ``form_within`` nats: "amendments" for "amendment" at 6.86 against 6.87 with an S
        on the board, as the recognizer loses a final consonant before it mistakes a
        word; not "kitchens" for a "kitchen" heard 5 nats surer). Words that are not
        forms of one word keep the recognizer's order."""
        value = self.session.word_value
        best, top = next(iter(weighed.items()))
        forms = [w for w, score in weighed.items()
                 if w == best or (forms_of_one_word(w, best) and top - score <= self.settings.form_within)]
        return max(forms, key=lambda w: value(w) or 0)  # ties and no values: the best heard

    def _doubts(self, u: Heard, word: str, refused: str | None = None) -> dict[str, float] | None:
        """The words a constrained recognizer weighed, with the score of the best sentence
        each was heard in (`word` first, at the best score), when it was unsure of `word`
        (confidence under ``confirm_heard_below``, or its sentence fits the sound under
        ``confirm_fit_below``); None when it was sure. The word its player said no to
        (``refused``) is not among them."""
        if not self.settings.unsure(u):
            return None
        options, same = {word: u.alternatives[0][1] if u.alternatives else 0.0}, False
        for other, score in self.understand.readings(u.alternatives, self.question):
            if other not in options and other != refused and not self._an_answer(other):
                if self._same_play(word, other):
                    same = True
                else:
                    options[other] = score
        if same and len(options) == 1:  # torn only between spellings that score the same: no doubt
            return None
        options = {w: score for w, score in options.items() if self._sayable(w) and (w == word or self._plausible(w))}
        kept = dict(list(options.items())[:3])
        second = self._second_reading(u, word)
        if second in options and second not in kept:  # what the second ear heard is always weighed
            kept.popitem()
            kept[second] = options[second]
        return kept or None  # alone, it is asked about alone: "Did you say snack?"

    def _second_reading(self, u: Heard, word: str) -> str | None:
        """The word the second ear heard instead of ``word``, when the two ears differed
        (speech.recognizing.moonshine.opinion): offered whenever the host asks."""
        o = getattr(u, "opinion", None)
        if o is None or o.agreed:
            return None
        heard = self.understand.readings([(c, 0.0) for c in o.candidates], self.question)
        return next((w for w, _ in heard if w != word), None)

    def _plausible(self, word: str) -> bool:
        """Whether a reading is a play a player would make: not one that scores nothing on
        the board ("aa" with no A tile, offered for "accomplice"); True where the game
        cannot tell."""
        return self.session.word_value(word) != 0

    def _sayable(self, word: str) -> bool:
        """Whether the host may say `word` as a reading of its own: never an offensive or
        vulgar one (a player who said one may still play it)."""
        offensive = getattr(self.words, "offensive", None)
        return offensive is None or not offensive(word)

    def _an_answer(self, word: str) -> bool:
        """Whether `word`, offered as another reading, would be taken for an answer to the
        question ("yes", "no", "the second"): the player who says it means the answer."""
        return word in ORDINALS or intents.parse(word, self.session.players).kind in ("yes", "no")

    def _same_play(self, word: str, other: str) -> bool:
        """Whether ``other`` is another spelling of ``word``'s sound that scores the same
        now (jewellers for jewelers): one play, not a choice to ask about."""
        value = self.session.word_value
        return other in self.words.homophones(word) and value(word) is not None and value(word) == value(other)

    def _spellings(self, word: str) -> list[str]:
        """``word`` and its most common homophone, if that is a word a table would say
        (night for knight, jewellers for jewelers)."""
        others = [w for w in self.words.homophones(word) if self.words.frequency(w) >= self.settings.homophone_zipf]
        if not others:
            return [word]
        return [word, max(others, key=self.words.frequency)]

    # ------------------------------------------------------------------ answers
    def answer(self, u: Heard, body: str) -> Settled | None:
        """How this utterance settles the open question, if it answers it."""
        q = self.question
        said = intents.parse(body, self.session.players).kind
        if q.kind == "word" and u.speaker in (q.speaker, None):
            place = ORDINALS.get(body)
            if said in ("yes", "no") or body in q.options or place is not None:
                if said == "no":
                    return self._ask_again(q, u.end, self.announce.say_again(q.speaker))
                word = body if body in q.options else q.options[min(place or 0, len(q.options) - 1)]
                return Settled(play=Said(q.t, q.speaker, q.prefix + word, q.heard))
            correction = body.removeprefix("no ")  # the word again, or spelled, by the player asked
            if intents.parse(correction, self.session.players).kind in ("word", "unclear"):
                match = self.understand.read(correction, q.speaker).match
                heard_before = [*q.options, *([q.refused] if q.refused else [])]
                if match is not None and (correction != body or is_spelled(correction) or
                                          said_again(match.best, heard_before)):  # else a new play: it waits
                    return self._again(q, u, correction)
        if q.kind == "again" and (q.speaker is None or u.speaker in (q.speaker, None)):
            if said == "no":  # "no", "never mind": nothing to play, as unanswered
                return self._as_unanswered(q)
            if said in ("word", "unclear"):
                return self._again(q, u, body, retry=True)
        if q.kind == "spelling" and u.speaker in (q.speaker, None):
            word = self._spelling_answer(body, said, q.options)
            if word is not None:
                return Settled(play=Said(q.t, q.speaker, q.prefix + word, q.heard))
        if q.kind == "who":
            claim = body.removeprefix("it was ").removeprefix("that was ")
            name = intents.find_player(claim, self.session.players) or (  # "it was bus": Gus, the nearest
                nearest_name(claim, self.session.players) if claim != body and " " not in claim else None)
            if name or (q.options and said in ("yes", "no")):
                if name or said == "yes":  # the word itself may still be doubted: heard again as theirs
                    player = name or q.options[0]
                    return Settled(learn=(player, q.utterance), again=Again.of(q.utterance, q.t, q.text, player))
                return Settled(say=self.announce.who_then(q.text))
        return None

    def _again(self, q: Question, u: Heard, body: str, retry: bool = False) -> Settled:
        """``u`` says the word asked about again (``body``): heard again as the play, at
        the time of the first try (at its own time when the table was asked to say again
        what the host talked over: that may have been nobody's word, the host's own voice
        heard back), unless it is heard as the word its player said no to, whose
        spelling is asked for."""
        if q.refused is not None and self.understand.read(body, q.speaker).text == q.refused:
            return self._ask_again(q, u.end, self.announce.spell_it(q.speaker, q.refused))
        at = u.start if q.drowned and q.speaker is None else q.t
        return Settled(again=Again.of(u, at, q.prefix + body, q.speaker or u.speaker, retry=retry,
                                      refused=q.refused, ask=q.speaker is None and u.ask))

    @staticmethod
    def _ask_again(q: Question, at: float, sentence: str) -> Settled:
        """Ask ``q``'s player for the word again (the next words wait for it)."""
        return Settled(ask=(Question("again", q.t, at, q.speaker, "", q.heard, prefix=q.prefix, refused=q.refused),
                            sentence))

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

    def unanswered(self, q: Question) -> Settled:
        """Nobody answered in time: the host takes its best guess and says so, keeps its
        guess of the player, or drops the word and says so."""
        if q.kind == "word" and self.owed(q):  # what fit no word well is not played on a guess: asked for
            return self._ask_again(q, q.asked_at + self.settings.answer_within, self.announce.missed_word(q.speaker))
        return self._as_unanswered(q)

    @staticmethod
    def owed(q: Question) -> bool:
        """Whether the host asks ``q``'s player for the word before the game goes on (the
        word was missed, or fit no word well): the table's next word waits for theirs.
        Asked of the table ("Sorry, I was talking. Say that again?"), nothing waits: any
        word answers it, and a command lets it go."""
        return q.kind == "again" and q.speaker is not None or (q.kind == "word" and not q.fits and not q.retry)

    def moved_on(self, u: Heard, body: str) -> Settled | None:
        """``u``, said while the open question waits, is no answer to it but a play or a
        command of its own (the hearing answers questions about the game itself). Going
        on settles the question as the host would have unanswered (its best guess, its
        guess of the player), unless the host owes the player asked a chance to say the
        word (:meth:`owed`): then the player asked who says a word says it again (what
        the host would ask for: a question misheard as a word, then the player's real
        word), and another player's input waits (None). An answer that is not the
        speaker's to give ("yes" from another player) waits too."""
        q = self.question
        said = intents.parse(body, self.session.players).kind
        if said in ("yes", "no") or body in q.options or body in ORDINALS or is_spelled(body):
            return None  # an answer, not theirs to give
        if q.kind == "word" and u.speaker == q.speaker and self.owed(q) and said in ("word", "unclear"):
            return self._again(q, u, body)  # what the host would ask for: the word, said again
        return None if self.owed(q) else self._as_unanswered(q)

    def unanswered_play(self, q: Question) -> Said | None:
        """The play the host would make of ``q`` unanswered, if any (asked for again or
        left out: none)."""
        return None if self.owed(q) else self._as_unanswered(q).play

    def _as_unanswered(self, q: Question) -> Settled:
        """The host's own settling of ``q``: its best guess taken and said, its guess of
        the player kept, or the word left out and said so."""
        if q.drowned:
            return Settled()
        if q.kind == "again" or (q.kind == "word" and not q.fits):
            return Settled(say=self.announce.left_out_again(q.speaker))
        if q.kind in ("word", "spelling"):
            taken = q.prefix + q.guess if q.guess else q.text
            return Settled(say=self.announce.taking_guess(q.guess or q.options[0]),
                           play=Said(q.t, q.speaker, taken, q.heard))
        if q.options:
            return Settled(play=Said(q.t, q.options[0], q.text, q.heard))
        return Settled(say=self.announce.nobody_claimed(q.text))
