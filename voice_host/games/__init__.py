"""The games: pure rules cores, one module (or package) each, found by name in REGISTRY."""

from voice_host.games import dexikon, phlounder, road  # noqa: F401  (each game registers itself)
from voice_host.games.base import REGISTRY, Game, Setup
from voice_host.games.prolix import classic, duel, redux, solo  # noqa: F401

__all__ = ["REGISTRY", "Game", "Setup"]
