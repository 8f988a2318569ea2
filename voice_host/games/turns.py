"""Whose turn it is, the same way in every game: seating from the start player, play
passing clockwise, rounds counted, and the draw for the start player."""

from __future__ import annotations

import random
from dataclasses import dataclass, field
from typing import Callable


def clockwise(players: list[str], first: str) -> list[str]:
    """The seating order starting with ``first``."""
    i = players.index(first)
    return players[i:] + players[:i]


def right_of(players: list[str], player: str) -> str:
    """The player to one's right: the previous one in clockwise seating."""
    return players[(players.index(player) - 1) % len(players)]


@dataclass(kw_only=True)
class TurnOrder:
    """A game state with turns: the order from the start player, the active player's
    place in it, and the round (a state dataclass subclasses it)."""

    order: list[str] = field(default_factory=list)
    """Turn order from the start player."""
    pos: int = 0
    """Index of the active player in ``order``."""
    round: int = 1

    @property
    def active(self) -> str:
        return self.order[self.pos]

    def seat(self, players: list[str], first: str, pos: int = 0) -> None:
        self.order, self.pos = clockwise(players, first), pos

    def following(self) -> str:
        """Who plays after the active player."""
        return self.order[(self.pos + 1) % len(self.order)]

    def pass_turn(self) -> bool:
        """Play passes clockwise; True when it is back at the start player (a new round,
        unless the game ends there: the caller counts ``round``)."""
        self.pos = (self.pos + 1) % len(self.order)
        return self.pos == 0


def draw_for_start(players: list[str], rng: random.Random, pool: Callable[[], list[str]],
                   shown: Callable[[str], str] = str) -> tuple[str, tuple[tuple[tuple[str, str], ...], ...]]:
    """Each player draws a tile from a fresh ``pool()``; the lowest letter starts; ties
    draw again. Returns the start player and every drawing as (player, ``shown(letter)``)."""
    contenders, rounds = list(players), []
    while True:
        letters = pool()
        drawn = [(p, letters.pop(rng.randrange(len(letters)))) for p in contenders]
        rounds.append(tuple((p, shown(x)) for p, x in drawn))
        low = min(x for _, x in drawn)
        contenders = [p for p, x in drawn if x == low]
        if len(contenders) == 1:
            return contenders[0], tuple(rounds)
