"""The host loop: input records in, logged first, understood, applied, announced.

A record (voice_host.messages: Said, Directive, Wait, Begin, Unreadable) comes from a script
line, a typed line or the speech layer. The session writes it to the event log before
anything else, turns it into a game action (host.intents, host.phrases), steps the game,
and hands the sentences of the resulting events to ``speak``. Undo drops the last input
that changed the game and replays the rest; repeat says the last announcement again.

``Session`` is the flow, the game and its clock; its collaborators each keep their own
state: ``history`` the inputs and what became of each (host.session.history),
``inputs`` the reading of each input and the host's answers (host.session.inputs),
``saying`` what the host says (host.session.saying).
"""

from __future__ import annotations

from dataclasses import InitVar, dataclass, field
from typing import Callable

from voice_host.games import actions as A
from voice_host.host import announce, intents, phrases
from voice_host.host.announce import Announcer
from voice_host.host.log import EventLog, Header
from voice_host.host.session.history import Asking, History, create_game, new_header
from voice_host.host.session.inputs import Inputs
from voice_host.host.session.saying import Saying
from voice_host.messages import Begin, Directive, Parsed, Record, Said, Step, Unreadable, Wait, record as as_record
from voice_host.words import Words

__all__ = ["Asking", "Session", "create_game", "new_header"]


@dataclass
class Session:
    """One game at the table: every input logged, applied at its own time and answered.

    The rest of the host builds one from a log header and the dictionary, and calls
    ``play`` (or ``feed``) with each input record, ``tick`` as the clock runs and
    ``settle`` at the end; ``replay`` rebuilds it from a log's records (resume)."""

    header: Header
    words: Words
    speak: InitVar[Callable[[str], None]] = print
    """Says one sentence (printed, spoken, recorded)."""
    log: EventLog | None = None
    announcer: Announcer = field(default_factory=Announcer)
    earcon: InitVar[Callable[[str, float], None] | None] = None
    """Plays an earcon by name at a game time (the Speaker's ``earcons``): the session
    cues it from each announced step's events, before their sentences are said
    (host.cues.Cues)."""
    watch: InitVar[tuple[Callable[[Step], None], ...]] = ()
    """Watchers of the game (the scoreboard): each is handed every step the host says
    (messages.Step: the game's events and the sentences said for them)."""

    def __post_init__(self, speak: Callable[[str], None], earcon: Callable[[str, float], None] | None,
                      watch: tuple[Callable[[Step], None], ...]) -> None:
        self.game = create_game(self.header, self.words)
        self.begun = False
        self.t = 0.0
        self.history = History()
        self.saying = Saying(speak, self.announcer, lambda: self.game, lambda: self.t, earcon, self._brief(),
                             tuple(watch))
        self.inputs = Inputs(self)

    def _brief(self) -> bool:
        """Whether the table asked for a brief host (scores and whose turn only)."""
        return self.header.config.get("table", {}).get("verbosity", "full") == "brief"

    @property
    def players(self) -> list[str]:
        return list(self.header.players)

    @property
    def records(self) -> list[Record]:
        """Every input so far, in order (the log's lines after its header)."""
        return self.history.records

    @property
    def undoable(self) -> list[int]:
        """The inputs that changed the game, in order: what an undo may take back."""
        return self.history.undoable

    @property
    def refused(self) -> str | None:
        """The refusal said for the last input applied, if it was refused."""
        return self.saying.refused

    def say(self, line: str) -> None:
        """Say one host sentence that is not about the game state (questions to the table)."""
        self.saying.say(line)

    def ask(self, *kinds: str, quiet: bool = False) -> list[str]:
        """Answer questions (board, scores, turn, words) aloud."""
        events = [e for kind in kinds for e in self.game.step(A.Query(self.t, kind))]
        return self.saying.remember(self.saying.events(events, quiet=quiet, answer=True))

    def read(self, text: str, player: str, t: float) -> Parsed:
        """``text`` said by ``player`` at ``t``, read once: its meaning at the table and
        as the game's own phrase (host.session.inputs.Inputs.read)."""
        return self.inputs.read(text, player, t)

    # ------------------------------------------------------------------ the game, for the hearing
    def word_value(self, word: str) -> int | None:
        """What ``word`` would score played now (None: the game cannot tell)."""
        return self.game.word_value(word)

    def settles_at(self, windows: bool = True) -> float | None:
        """When what waits on the clock settles (games.base.Game.settles_at)."""
        return self.game.settles_at(windows)

    def expectation(self):
        """What the game expects to be said now (games.base.Game.expectation)."""
        return self.game.expectation()

    def spoken(self):
        """What this game's players say beyond the table's own phrases (host.phrases.spoken)."""
        return phrases.spoken(self.game)

    # ------------------------------------------------------------------ feeding
    def feed(self, record: Record | dict, *, quiet: bool = False, logged: bool = True) -> list[str]:
        """Log, apply and announce one input record (a dict: its JSON); returns the
        sentences said. ``logged=False``: the log holds it already (the table's setup,
        written with the header). Where saving stops (a full disk), the host says so
        once, and the game goes on."""
        record = as_record(record)
        said = self._held_until(record, quiet)
        failed = self.log.append(record) if self.log is not None and logged else None
        if failed is not None:
            self.say(self.announcer.cannot_save(str(self.log.path), failed.strerror or str(failed)))
        return said + self._apply(self.history.add(record), quiet=quiet)

    def begin(self, t: float, *, quiet: bool = False) -> list[str]:
        """Begin the game at ``t`` unless it has begun (logged: the opening is an input)."""
        return [] if self.begun else self.feed(Begin(t), quiet=quiet)

    def play(self, record: Record, *, quiet: bool = False) -> list[str]:
        """Feed a record, beginning the game first when the record needs it running
        (everything but table setup and unreadable lines)."""
        match record:
            case Directive(name="start" | "board") | Unreadable():
                said = []
            case _:
                said = self.begin(record.t, quiet=quiet)
        return said + self.feed(record, quiet=quiet)

    def opening(self) -> list[str]:
        """What the host will say when the game begins (its intro, the draw, the board,
        whose turn), known before it does: a silent twin of the session begins it. Empty
        once begun."""
        return [] if self.begun else self._twin().begin(self.t)

    def answer_once(self, played: Record | None, question: Said) -> list[str]:
        """What the host would answer to ``question`` (about the game) once ``played``, a
        word it is still asking about, were played and scored: a silent twin of the game
        plays it, then hears the question. Nothing here is logged or changed."""
        twin = self._twin()
        if played is not None:
            twin.play(played, quiet=True)
            twin.settle(windows=False, quiet=True)
        return twin.play(question)

    def _twin(self) -> "Session":
        """A silent copy of the game so far."""
        twin = Session(self.header, self.words, speak=lambda _: None, announcer=self.announcer)
        twin.replay(self.records)
        return twin

    def tick(self, t: float, *, quiet: bool = False) -> list[str]:
        """Let the clock run to ``t`` (not logged: replay reaches the same events)."""
        self.t = max(self.t, t)
        said = self.saying.remember(self.saying.events(self.game.step(A.Tick(self.t)), quiet=quiet))
        return said + self.inputs.answer_held(quiet)

    def _held_until(self, record: Record, quiet: bool) -> list[str]:
        """Before the next input: the clock to its time, so that what was held for the tie
        window is answered first (and with the records it knew)."""
        if self.inputs.held and record.t is not None:
            return self.tick(float(record.t), quiet=quiet)
        return []

    def settle(self, *, windows: bool = True, quiet: bool = False) -> list[str]:
        """Let the clock run until nothing waits on it (end of a script): the words in
        the tie window scored, then (with ``windows``) the windows the table could still
        act in closed, such as the last word's challenge window. A break (Ctrl-C, a
        resume at a terminal) settles without ``windows``: they stay open for later."""
        said, last = [], None
        while (t := self.game.settles_at(windows)) is not None and t != last:
            said += self.tick(t, quiet=quiet)
            last = t
        return said

    def replay(self, records: list[Record]) -> None:
        """Rebuild from a log's records, silently."""
        for record in map(as_record, records):
            self._held_until(record, quiet=True)
            self._apply(self.history.add(record), quiet=True)

    def rebuild(self) -> None:
        """The game again from its records, less those an undo took back, those refused
        when said and the undo commands themselves (host.session.history.History)."""
        self.game = create_game(self.header, self.words)
        self.inputs.restart()
        self.saying.detail(self._brief())
        self.history.replaying()
        self.begun, t_now, self.t = False, self.t, 0.0
        for i, record in enumerate(self.records):
            if i in self.history.pauses and self.begun:  # an end undone: the game reopens as it was then
                self.t = max(self.t, float(record.t))
                self.game.step(A.Tick(self.t))
                self.game.pause(self.history.pauses[i] - self.t)
            if self.history.replayed(i, self.players):
                self._apply(i, quiet=True)
        self.t = t_now
        self.game.step(A.Tick(t_now))

    # ------------------------------------------------------------------ applying
    def _apply(self, index: int, *, quiet: bool) -> list[str]:
        record = self.records[index]
        if record.t is not None:
            self.t = max(self.t, float(record.t))
        # the clock reaches the input's time before the input, whatever its source (a script,
        # typed or heard) and in a replay alike, so that a resumed game is the game played
        said = self.tick(self.t, quiet=quiet) if self.begun else []
        self.saying.applying()
        said += self.saying.remember(self._apply_input(index, record, quiet))  # the answer 'repeat' says again
        if self.saying.refused is not None:
            self.history.refuse(index)
        return said

    def _apply_input(self, index: int, record: Record, quiet: bool) -> list[str]:
        match record:
            case Begin():
                self.begun = True
                return self.saying.events(self.game.step(A.Begin(self.t)), quiet=quiet)
            case Wait():
                return self.tick(self.t, quiet=quiet)
            case Unreadable(error=code, text=text):
                return self.saying.refuse(code, {"text": text}, quiet)
            case Directive():
                return self.inputs.directive(index, record, quiet)
            case Said():
                return self.inputs.utterance(index, record, quiet)
        raise TypeError(f"not an input record: {record!r}")

    # ------------------------------------------------------------------ after the game, or a damaged log
    def meanings_after(self, first: int) -> list[tuple[str, str]]:
        """From record ``first`` on (the inputs after a line a damaged log lost), each input
        that counted as an interrupt or was refused: (what was said, "interrupt" or
        "refused"), for the table to check what the lost line changed. Words still waiting
        on the tie window are taken as they will be scored (a silent twin settles them)."""
        twin = self._twin()
        twin.settle(windows=False, quiet=True)
        interrupts = {(p["name"], w["word"]) for p in twin.game.result()["players"] for w in p.get("words", ())
                      if w.get("kind") == "interrupt"}
        out = []
        for i in range(first, len(self.records)):
            record = self.records[i]
            if isinstance(record, Said):
                player = intents.find_player(record.speaker, self.players)
                said = intents.normalize(record.text).split()
                if i in self.history.refusals:
                    out.append((f"{record.speaker}'s '{record.text}'", "refused"))
                elif any((player, w) in interrupts for w in said):
                    out.append((f"{record.speaker}'s '{record.text}'", "interrupt"))
            elif isinstance(record, Directive) and i in self.history.refusals:
                out.append(("'@" + " ".join([record.name, *record.args]) + "'", "refused"))
        return out

    def result(self) -> dict:
        """The game's result, its teams named as the table hears them."""
        return announce.labelled(self.game.result())
