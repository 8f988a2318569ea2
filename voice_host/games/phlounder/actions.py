"""What Phlounder can be asked, besides what every game can (re-exported here)."""

from __future__ import annotations

from voice_host.games.actions import *  # noqa: F401,F403  (the actions every game shares)
from voice_host.games.actions import Move


class Roll(Move):
    """The host rolls the dice for the round, on a player's request."""

    player: str


class SetDice(Move):
    """Table mode: the faces the table rolled (number die, letter die, children's die)."""

    faces: tuple[str, ...]


class Bell(Move):
    """The player rang the bell: the round stops."""

    player: str


class Report(Move):
    """After the bell: a player's word (None: no word) and the letters taken but not used."""

    player: str
    word: str | None
    unused: int
