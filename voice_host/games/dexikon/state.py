"""Dexikon's settings and state: each player's ledger, the words open to challenge, the turns."""

from __future__ import annotations

from dataclasses import dataclass, field
from enum import StrEnum

from voice_host.settings import Settings
from voice_host.games.errors import Unplayable
from voice_host.games.turns import TurnOrder


class Phase(StrEnum):
    """Where the game stands."""

    SETUP = "setup"
    TURNS = "turns"
    LAST = "last"
    """Last words."""
    OVER = "over"


class DexikonSettings(Settings, sections=("table", "dexikon")):
    """config/default.toml [dexikon] (and [table] auto_reject)."""

    variant: str = "standard"
    variants: dict | None = None
    """name -> [banked words that end the game, best banked words that count]."""
    challenge_window: float = 10
    penalty_points: int = 2
    auto_reject: bool = False

    @property
    def limits(self) -> tuple[int, int]:
        """(banked words that end the game, best banked words that count)."""
        variants = self.variants or {"standard": [7, 5]}
        if self.variant not in variants:
            raise Unplayable("no_variant", variant=self.variant, variants=tuple(variants))
        target, best = variants[self.variant]
        return target, best


@dataclass
class Ledger:
    """A player's score sheet."""

    banked: list[tuple[str, int]] = field(default_factory=list)
    banked_in: dict[str, int] = field(default_factory=dict)
    """The round each banked word was banked in."""
    spent: list[tuple[str, int | None]] = field(default_factory=list)
    last: tuple[str, int] | None = None
    last_tries: int = 0
    marks: int = 0
    """Challenges won: a bonus point each."""
    penalties: int = 0
    """Penalty cards: from lost challenges, from attacks, less those returned."""
    bonus: int = 0
    """Points from N and P cards."""
    aside: int = 0
    """Solo: penalties set aside with attack cards, a bonus point each."""


@dataclass
class Open:
    """A word said and still open to challenge."""

    t: float
    player: str
    word: str
    points: int | None
    kind: str
    """bank, spend or last."""
    attempt: int
    until: float
    """When it closes unchallenged."""
    challengers: list[str] = field(default_factory=list)
    asked: float | None = None
    """When the speller was asked to concede (a challenge is pending)."""


@dataclass
class DexikonState(TurnOrder):
    players: list[str]
    sheets: dict[str, Ledger]
    start: str | None = None
    phase: Phase = Phase.SETUP
    attempt: int = 0
    """Words the active player has tried this turn (a second is the last)."""
    open: list[Open] = field(default_factory=list)
    voided: list[tuple[str, str, int]] = field(default_factory=list)
    """(word, player, round) of each word a challenge voided or its speller conceded, in order."""
    final_turn: bool = False
    """Solo: the pool deck ran out, so this turn is the last."""
    clock: float = 0.0
