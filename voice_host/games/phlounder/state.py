"""Phlounder's settings and state: the rounds, each with its dice, bell and reports."""

from __future__ import annotations

import random
from dataclasses import dataclass, field
from enum import StrEnum

from voice_host.settings import Settings
from voice_host.games.phlounder import events as E


class Phase(StrEnum):
    """Where the game stands."""

    SETUP = "setup"
    ROLL = "roll"
    """Waiting for the dice."""
    RACE = "race"
    """Waiting for the bell."""
    REPORTS = "reports"
    """After the bell, waiting for the words."""
    OVER = "over"


class PhlounderSettings(Settings, sections=("table", "phlounder")):
    """config/default.toml [phlounder] (and [table] auto_reject)."""

    rounds: int = 11
    min_length: int = 4
    max_length: int = 7
    number_die: tuple[str, ...] = ("4", "5", "6", "7", "*", "*")
    letter_die: tuple[str, ...] = ("N", "N", "V", "V", "*", "*")
    children_letter_die: tuple[str, ...] = ("N", "V", "*", "*", "*", "*")
    win_bonus: int = 2
    child_win_bonus: int = 4
    illegal_bell_penalty: int = 5
    illegal_bell_bonus: int = 7
    report_reminder: float = 20
    teams: tuple[str, ...] = ()
    """Partners as "Ann+Ben" strings."""
    children: tuple[str, ...] = ()
    auto_reject: bool = False


@dataclass
class Reported:
    """A player's report after the bell."""

    t: float
    word: str | None
    unused: int


@dataclass
class Round:
    number: int
    target: E.Target | None = None
    children: E.Target | None = None
    ringer: str | None = None
    reports: dict[str, Reported] = field(default_factory=dict)
    void: dict[str, str] = field(default_factory=dict)
    """player -> the dictionary's reason, after a successful challenge."""
    stood: list[str] = field(default_factory=list)
    """Players whose word stood a challenge."""
    scored: bool = False


@dataclass
class PhlounderState:
    players: list[str]
    sides: list[tuple[str, ...]]
    """Teams, or one side per player without partners."""
    rng: random.Random
    rounds: list[Round] = field(default_factory=list)
    phase: Phase = Phase.SETUP
    clock: float = 0.0
    prompted: float = 0.0
    """When the host last asked for the missing reports."""

    @property
    def round(self) -> Round:
        return self.rounds[-1]
