"""The log and undo: the game a log's header sets up, and the inputs so far with what
became of each (taken back, refused, a change an undo may take back)."""

from __future__ import annotations

from typing import TYPE_CHECKING, NamedTuple

from voice_host.games.base import REGISTRY, Game, Setup
from voice_host.games.errors import Unplayable
from voice_host.host import announce, intents
from voice_host.host.log import Header
from voice_host.messages import Directive, Record, Said, Unreadable

if TYPE_CHECKING:
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
    """The inputs so far and what became of each: taken back by an undo (``undone``),
    refused when applied (``refusals``: refused for good, never replayed), or a change
    to the game an undo may take back (``undoable``, in order).

    Undo appends nothing special: the undo itself is logged, and applying it drops the
    last input that changed the game and replays the rest (host.session.Session.rebuild),
    less the undo commands and the inputs refused when said. After the end as before it:
    the game reopens as it was before the input taken back (ruling 98, ``pauses``)."""

    def __init__(self) -> None:
        self.records: list[Record] = []
        self.undone: set[int] = set()
        self.refusals: set[int] = set()
        self.undoable: list[int] = []
        self.pauses: dict[int, float] = {}
        """Record taken back by an undo after the end -> when that undo came: the game
        stood still in between (ruling 98)."""

    def add(self, record: Record) -> int:
        """Keep a new input; its index."""
        self.records.append(record)
        return len(self.records) - 1

    def refuse(self, index: int) -> None:
        """The input was refused when applied: refused for good."""
        self.refusals.add(index)

    def changed(self, index: int) -> None:
        """The input changed the game: an undo may take it back."""
        self.undoable.append(index)

    def take_back(self, index: int, paused_at: float | None) -> None:
        """An undo takes back the input (``paused_at``: the game had ended, and stood
        still from the input's time until then)."""
        self.undone.add(index)
        if paused_at is not None:
            self.pauses[index] = paused_at

    def replaying(self) -> None:
        """The game is rebuilt: what changed it is counted again as it is replayed."""
        self.undoable = []

    def replayed(self, index: int, players: list[str]) -> bool:
        """Whether a rebuilt game replays the input: not undone, not refused when said,
        and not an undo itself."""
        return index not in self.undone and index not in self.refusals and not is_undo(self.records[index], players)

    def last_input_of(self, player: str, players: list[str]) -> int | None:
        """The record of ``player``'s last input before the newest, undo requests aside."""
        said = [i for i, r in enumerate(self.records[:-1]) if isinstance(r, Said) and not is_undo(r, players)
                and intents.find_player(r.speaker, players) == player]
        return said[-1] if said else None


def is_undo(record: Record, players: list[str]) -> bool:
    """Whether an input asks for an undo."""
    if isinstance(record, Directive):
        return record.name == "undo"
    return isinstance(record, (Said, Unreadable)) and intents.parse(record.text, players).kind == "undo"
