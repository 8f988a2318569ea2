"""The log and undo: the game a log's header sets up, the inputs so far, taking one back
(the game rebuilt from the rest), and what a damaged log's lost line may have changed."""

from __future__ import annotations

from typing import TYPE_CHECKING, Callable, NamedTuple

from voice_host.games import actions as A
from voice_host.games.base import REGISTRY, Game, Setup
from voice_host.games.errors import Unplayable
from voice_host.host import announce, intents
from voice_host.host.records import Directive, Header, Record, Said, Unreadable

if TYPE_CHECKING:
    from voice_host.host.announce import Announcer
    from voice_host.host.session import Session
    from voice_host.words import Words


def create_game(header: Header, words: Words) -> Game:
    """A fresh game from a log header (game, players, seed, config); a game that cannot be
    set up as asked is a ValueError saying why."""
    cls = REGISTRY[header.game]
    setup = Setup(tuple(header.players), header.seed)
    try:
        return cls.create(setup, header.config, words)
    except Unplayable as exc:
        raise ValueError(announce.reason(exc.code, exc.params)) from None


def new_header(game: str, players: list[str], seed: int | None, cfg: dict, **extra) -> Header:
    """What the event log's first line records; a missing seed is drawn once here."""
    if game not in REGISTRY:
        raise ValueError(f"There is no game called {game}; choose one of {', '.join(sorted(REGISTRY))}.")
    return Header.new(game, players, seed, cfg, **extra)


class Asking(NamedTuple):
    """A yes or no question the host asked one player."""

    player: str
    about: str
    """"interrupt" (a worthless interrupt heard) or "undo" (another player asked to undo it)."""
    what: str
    """The word, or the input's text."""
    mark: int
    """interrupt: how many changes the game had when asked; undo: the record it would take back."""


class History:
    """Undo over the session's inputs (a part of host.session.Session).

    Undo appends nothing special: the undo itself is logged, and applying it drops the
    last input that changed the game (``undoable``, in order) and replays the rest, less
    the undo commands and the inputs refused when said (``refusals``: refused for good).
    Another player's input is undone only after its player's yes. After the end as before
    it: the game reopens as it was before the input taken back (ruling 98)."""

    header: Header
    words: Words
    announcer: Announcer
    game: Game
    t: float
    begun: bool
    players: list[str]
    records: list[Record]
    undone: set[int]
    """The records taken back."""
    refusals: set[int]
    undoable: list[int]
    pauses: dict[int, float]
    asking: Asking | None
    _host_state: Callable[[], None]
    _apply: Callable[..., list[str]]
    _twin: Callable[[], Session]
    _refuse: Callable[[str, dict, bool], list[str]]
    _say_lines: Callable[[list[str], bool], list[str]]
    ask: Callable[..., list[str]]

    def _undo(self, player: str | None, quiet: bool) -> list[str]:
        """Take back the last input that changed the game: ``player``'s own, or (asked
        first) another player's; ``player`` None: the table's or the host's undo, anyone's.
        A finished game reopens as it was before that input (a mistyped last word put
        right: the final scores are said again when the game ends again)."""
        own = self._last_input_of(player) if player is not None else None
        refused_for_good = own is not None and own in self.refusals and not self.game.finished
        if refused_for_good and (not self.undoable or own > self.undoable[-1]):  # after the end all is refused
            return self._refuse("undo_refused", {"text": self.records[own].text}, quiet)  # it changed nothing
        if not self.undoable:
            return self._refuse("nothing_to_undo", {}, quiet)
        target = self.undoable[-1]
        record = self.records[target]
        owner = intents.find_player(record.speaker, self.players) if isinstance(record, Said) else None
        if player is not None and owner is not None and owner != player:
            self.asking = Asking(owner, "undo", record.text, target)
            return self._say_lines([self.announcer.confirm_undo(owner, player, record.text)], quiet)
        self.undone.add(target)
        if self.game.finished and record.t is not None:  # the game reopens as it was (ruling 98)
            self.pauses[target] = self.t
        self._rebuild()
        what = f"{record.speaker}: {record.text}" if isinstance(record, Said) else \
            self.announcer.directive(record.name, record.args)
        return self._say_lines([self.announcer.undone(what)], quiet) + self.ask(
            *self.game.status_questions, quiet=quiet)

    def _last_input_of(self, player: str) -> int | None:
        """The record of the player's last input before this one, undo requests aside."""
        said = [i for i, r in enumerate(self.records[:-1]) if isinstance(r, Said) and not self._is_undo(r)
                and intents.find_player(r.speaker, self.players) == player]
        return said[-1] if said else None

    def _rebuild(self) -> None:
        """Replay every record but the undone ones, the refused ones and the undo
        commands themselves."""
        self.game = create_game(self.header, self.words)
        self._host_state()
        self.undoable, self.begun, t_now, self.t = [], False, self.t, 0.0
        for i, record in enumerate(self.records):
            if i in self.pauses and self.begun:  # an end undone: the game reopens as it was then
                self.t = max(self.t, float(record.t))
                self.game.step(A.Tick(self.t))
                self.game.pause(self.pauses[i] - self.t)
            if i in self.undone or i in self.refusals or self._is_undo(record):
                continue
            self._apply(i, quiet=True)
        self.t = t_now
        self.game.step(A.Tick(t_now))

    def _is_undo(self, record: Record) -> bool:
        if isinstance(record, Directive):
            return record.name == "undo"
        return isinstance(record, (Said, Unreadable)) and intents.parse(record.text, self.players).kind == "undo"

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
                if i in self.refusals:
                    out.append((f"{record.speaker}'s '{record.text}'", "refused"))
                elif any((player, w) in interrupts for w in said):
                    out.append((f"{record.speaker}'s '{record.text}'", "interrupt"))
            elif isinstance(record, Directive) and i in self.refusals:
                out.append(("'@" + " ".join([record.name, *record.args]) + "'", "refused"))
        return out
