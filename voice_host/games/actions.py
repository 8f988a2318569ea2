"""What a game can be asked to do: plain data, made by the host from utterances and lines.

Every action carries ``t``, the game-clock second it happened at; the rules never read
a clock of their own.
"""

from __future__ import annotations

from dataclasses import dataclass


@dataclass(frozen=True)
class Action:
    t: float
    """Game-clock seconds."""


@dataclass(frozen=True)
class Begin(Action):
    """Set up and start the game (start player, board) unless the table already did."""


@dataclass(frozen=True)
class Tick(Action):
    """The clock moved on; timers may expire, simultaneous words get compared."""


@dataclass(frozen=True)
class Word(Action):
    player: str
    word: str
    """Lower-case letters only."""
    final: bool = False
    """Said as "my word is ...": committed (solo), rather than a scratch word."""


@dataclass(frozen=True)
class Challenge(Action):
    player: str
    """Who challenges."""
    target: str | None = None
    """Whose word; None: the most recent word by another player."""


@dataclass(frozen=True)
class Vote(Action):
    """A yes/no answer: in a challenge vote, yes means "I know that word"."""

    player: str
    yes: bool


@dataclass(frozen=True)
class FlipTimer(Action):
    player: str


@dataclass(frozen=True)
class SetStart(Action):
    """Table mode: the start player the table determined."""

    player: str


@dataclass(frozen=True)
class SetBoard(Action):
    """Table mode: the whole board, leftmost column first, top space before bottom."""

    letters: tuple[str, ...]


@dataclass(frozen=True)
class Draw(Action):
    """Table mode: the tiles just drawn, placed in the leftmost column."""

    letters: tuple[str, ...]
    player: str | None = None


@dataclass(frozen=True)
class Query(Action):
    """A question that changes nothing: board, scores, turn, words, sheet."""

    kind: str
    player: str | None = None
    about: str | None = None
    """For ``sheet``: whose scoresheet."""
