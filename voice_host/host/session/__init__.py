"""The host loop: input records in, logged first, understood, applied, announced.

A record (host.records: Said, Directive, Wait, Begin, Unreadable) comes from a script
line, a typed line or the speech layer. The session writes it to the event log before
anything else, turns it into a game action (host.intents, host.phrases), steps the game,
and hands the sentences of the resulting events to ``speak``. Undo drops the last input
that changed the game and replays the rest; repeat says the last announcement again.

``Session`` is the flow and the clock; its parts each do one job: ``history`` the log
and undo, ``inputs`` what players say, ``saying`` what the host says.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Callable

from voice_host.games import actions as A
from voice_host.games import events as E
from voice_host.host import announce, phrases
from voice_host.host.announce import Announcer
from voice_host.host.cues import Cues
from voice_host.host.log import EventLog
from voice_host.host.records import Begin, Directive, Header, Record, Said, Unreadable, Wait, record as as_record
from voice_host.host.session.history import Asking, History, create_game, new_header
from voice_host.host.session.inputs import Inputs
from voice_host.host.session.saying import Saying
from voice_host.words import Words

__all__ = ["Asking", "Session", "create_game", "new_header"]


@dataclass
class Session(Inputs, History, Saying):
    """One game at the table: every input logged, applied at its own time and answered.

    The rest of the host builds one from a log header and the dictionary, and calls
    ``play`` (or ``feed``) with each input record, ``tick`` as the clock runs and
    ``settle`` at the end; ``replay`` rebuilds it from a log's records (resume)."""

    header: Header
    words: Words
    speak: Callable[[str], None] = print
    log: EventLog | None = None
    announcer: Announcer = field(default_factory=Announcer)
    earcon: Callable[[str, float], None] | None = None
    """Plays an earcon by name at a game time (the Speaker's ``earcons``): the session
    cues it from each announced step's events, before their sentences are said
    (host.cues.Cues)."""

    def __post_init__(self) -> None:
        self.game = create_game(self.header, self.words)
        self.cue = Cues(self.earcon, lambda: self.game) if self.earcon is not None else None
        self.records: list[Record] = []
        self.undone: set[int] = set()
        self.refusals: set[int] = set()
        """Records refused when they were applied: refused for good, never replayed by an undo."""
        self.undoable: list[int] = []
        self.pauses: dict[int, float] = {}
        """Record taken back by an undo after the end -> when that undo came: the game
        stood still in between (ruling 98)."""
        self.last_said: list[str] = []
        self.begun = False
        self.t = 0.0
        self.refused: str | None = None
        """The refusal said for the last input applied, if it was refused."""
        self.addressee: str | None = None
        """The player whose input is being applied: a refusal that says "you" names them."""
        self._host_state()

    def _host_state(self) -> None:
        """What the host keeps besides the game (rebuilt with it on undo)."""
        self.asking: Asking | None = None
        """A yes or no question the host asked one player (a worthless interrupt, an undo)."""
        self.last_word: str | None = None
        """The last word said that the game took, for "spell it"."""
        self.brief = self.header.config.get("table", {}).get("verbosity", "full") == "brief"
        """Brief: scores and whose turn; full: the board after every move too."""
        self.held: list[int] = []
        """Questions and host requests said while words wait on the tie window: answered
        once those words are settled, so that they are about the game with them."""

    @property
    def players(self) -> list[str]:
        return list(self.header.players)

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
        self.records.append(record)
        return said + self._apply(len(self.records) - 1, quiet=quiet)

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
        said = self._remember(self._say(self.game.step(A.Tick(self.t)), quiet=quiet))
        if self.held and self.game.settles_at(windows=False) is None:  # the words before them are settled
            held, self.held = self.held, []
            for index in held:  # each answered in turn: a held 'repeat' says the answer just before it
                said += self._remember(self._utterance(index, self.records[index], quiet))
                if self.refused is not None:
                    self.refusals.add(index)
        return said

    def _held_until(self, record: Record, quiet: bool) -> list[str]:
        """Before the next input: the clock to its time, so that what was held for the tie
        window is answered first (and with the records it knew)."""
        if self.held and record.t is not None:
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
            self.records.append(record)
            self._apply(len(self.records) - 1, quiet=True)

    # ------------------------------------------------------------------ applying
    def _apply(self, index: int, *, quiet: bool) -> list[str]:
        said = self._apply_record(index, quiet=quiet)
        if self.refused is not None:
            self.refusals.add(index)
        return said

    def _apply_record(self, index: int, *, quiet: bool) -> list[str]:
        record = self.records[index]
        self.refused, self.addressee = None, None
        if record.t is not None:
            self.t = max(self.t, float(record.t))
        # the clock reaches the input's time before the input, whatever its source (a script,
        # typed or heard) and in a replay alike, so that a resumed game is the game played
        said = self.tick(self.t, quiet=quiet) if self.begun else []
        return said + self._remember(self._apply_input(index, record, quiet))  # the answer 'repeat' says again

    def _apply_input(self, index: int, record: Record, quiet: bool) -> list[str]:
        match record:
            case Begin():
                self.begun = True
                return self._say(self.game.step(A.Begin(self.t)), quiet=quiet)
            case Wait():
                return self.tick(self.t, quiet=quiet)
            case Unreadable(error=code, text=text):
                return self._refuse(code, {"text": text}, quiet)
            case Directive():
                return self._directive(index, record, quiet)
            case Said():
                return self._utterance(index, record, quiet)
        raise TypeError(f"not an input record: {record!r}")

    def _act(self, index: int, action: A.Action, quiet: bool, events: list | None = None) -> list[str]:
        """Apply `action` (or take the `events` the game already gave for it) and say what happened."""
        if events is None:
            events = self.game.step(action)
        refused = any(isinstance(e, E.Refused) for e in events)
        if self.begun and isinstance(action, self.game.undoable_actions) and not refused:
            self.undoable.append(index)
        said = getattr(action, "word", None) or [w for w, _ in getattr(action, "words", ())][-1:]
        if said and not refused:  # "spell it" spells the last word said
            self.last_word = said if isinstance(said, str) else said[0]
        asked = isinstance(action, A.Query)
        return self._say(events, quiet=quiet, answer=asked)

    def result(self) -> dict:
        """The game's result, its teams named as the table hears them."""
        return announce.labelled(self.game.result())
