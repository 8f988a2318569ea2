"""The road game scorekeeper (rules.py), its actions and events."""

from voice_host.games.road.rules import RoadGame, RoadSettings

__all__ = ["RoadGame", "RoadSettings"]
