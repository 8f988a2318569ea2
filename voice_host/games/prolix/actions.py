"""What a Prolix game can be asked, besides what every game can (re-exported here)."""

from __future__ import annotations

from voice_host.games.actions import *  # noqa: F401,F403  (the actions every game shares)
from voice_host.games.actions import Move


class Pass(Move):
    """Redux: the player has no word this turn (an interjector loses nothing; the active
    player has no word)."""

    player: str
