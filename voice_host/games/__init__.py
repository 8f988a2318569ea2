"""The games: pure rules cores, one module (or package) each, found by name in REGISTRY."""

from voice_host.games.base import REGISTRY, Game, Setup
from voice_host.games.prolix import classic as _classic  # noqa: F401  (registers itself)

__all__ = ["REGISTRY", "Game", "Setup"]
