"""What the road game can be asked, besides what every game can (re-exported here)."""

from __future__ import annotations

from voice_host.games.actions import *  # noqa: F401,F403  (the actions every game shares)
from voice_host.games.actions import Move


class RoadPlay(Move):
    """A turn's play: the words it formed with their points, and the tiles played if said."""

    player: str
    words: tuple[tuple[str, int], ...]
    tiles: int | None = None


class Mulligan(Move):
    player: str


class Pass(Move):
    player: str


class BagEmpty(Move):
    """A player says the bag has run out: no more mulligans."""

    player: str
