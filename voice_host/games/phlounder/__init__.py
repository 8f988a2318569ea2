"""Phlounder (rules.py), its actions and events."""

from voice_host.games.phlounder.rules import Phlounder, PhlounderSettings

__all__ = ["Phlounder", "PhlounderSettings"]
