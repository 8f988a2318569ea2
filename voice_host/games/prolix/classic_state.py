"""Prolix Classic's state: the scoresheets, the words waiting for the tie window, the
last play (kept so that a challenge can undo it) and a challenge vote."""

from __future__ import annotations

import math
from dataclasses import dataclass, field

from voice_host.games.prolix.common import ProlixState, Timer


@dataclass
class Entry:
    """One line of a scoresheet."""

    word: str | None
    """None for the zero of a lost turn."""
    value: int
    """What the tiles scored."""
    penalty: int = 0
    """Interrupt penalty."""
    round: int = 0
    tiles: tuple[tuple[str, int], ...] = ()
    """(letter, points) of each tile the word flipped."""
    at: float = 0.0
    """Game-clock seconds when it was said (a lost turn: when it was lost): the order the
    sheet's three lists were played in, as the scoreboard shows them."""

    @property
    def score(self) -> int:
        return self.value - self.penalty


@dataclass
class Sheet:
    """A player's scoresheet."""

    regular: list[Entry] = field(default_factory=list)
    interrupts: list[Entry] = field(default_factory=list)
    lost_ties: list[Entry] = field(default_factory=list)
    """Words that lost a tiebreak: written down, never scored."""
    failed_challenges: int = 0
    out: bool = False
    """Used every interrupt slot: no more turns, no more interrupts."""


@dataclass
class Pending:
    """A word said by a player, waiting for the tie window to close."""

    t: float
    player: str
    word: str


@dataclass
class LastPlay:
    """The most recent scoring, kept so that a successful challenge can undo it."""

    before: "ClassicState"
    said: list[Pending]
    scored: list[str]
    """Players whose words counted."""
    challenged: list[str] = field(default_factory=list)
    """Players whose words already stood a challenge."""

    def open(self) -> tuple[tuple[str, str], ...]:
        """(player, word) of the words that counted and stood no challenge yet."""
        return tuple((x.player, x.word) for x in self.said if x.player in self.scored and x.player not in self.challenged)


@dataclass
class Ballot:
    """A challenge waiting for the uninvolved players' vote (table option)."""

    challenger: str
    player: str
    word: str
    voters: list[str]
    yes: list[str] = field(default_factory=list)
    no: list[str] = field(default_factory=list)

    @property
    def needed(self) -> int:
        return math.ceil(len(self.voters) / 2)


@dataclass
class ClassicState(ProlixState):
    sheets: dict[str, Sheet] = field(default_factory=dict)
    interrupts: int = 0
    """Times the active player has been interrupted this turn."""
    timer: Timer = field(default_factory=Timer)
    pending: list[Pending] = field(default_factory=list)
    """Words waiting for the tie window to close."""
    last: LastPlay | None = None
    vote: Ballot | None = None
    then: str = "next"
    """After the draw, the ``next`` player or the active player ``again``."""
