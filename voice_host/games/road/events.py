"""What The road game says happened, besides what every game says (re-exported here, so
that the rules read one namespace: E.GameOver, E.RoadStarted)."""

from __future__ import annotations

from voice_host.games.events import *  # noqa: F401,F403  (the events every game shares)
from voice_host.games.events import Event


class RoadStarted(Event):
    players: tuple[str, ...]
    rack: int
    """Tiles each player draws."""
    bag: int | None
    """Tiles left in the bag after the draw, when the host counts them."""


class RoadPlayed(Event):
    player: str
    words: tuple[tuple[str, int], ...]
    points: int
    total: int
    bag: int | None = None
    """Tiles left in the bag after the redraw, when the host counts them."""


class Mulliganed(Event):
    player: str


class Passed(Event):
    player: str


class BagEmptied(Event):
    """No more mulligans."""

    player: str | None
    """Who said so; None: the host's count reached zero."""


class LastChance(Event):
    """Road game: every other player has passed in a row; this player's pass ends the game."""

    player: str
