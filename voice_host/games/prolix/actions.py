"""What a Prolix game can be asked, besides what every game can (re-exported here)."""

from __future__ import annotations

from voice_host.games.actions import *  # noqa: F401,F403  (the actions every game shares)
from voice_host.games.actions import Action, Move


class FlipTimer(Action):
    player: str


class Pass(Move):
    """Redux: the player has no word this turn (an interjector loses nothing; the active
    player has no word)."""

    player: str


class SetBoard(Action):
    """Table mode: the whole board, leftmost column first, top space before bottom."""

    letters: tuple[str, ...]


class Draw(Action):
    """Table mode: the tiles just drawn, placed in the leftmost column."""

    letters: tuple[str, ...]
    player: str | None = None
