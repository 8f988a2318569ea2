"""The Dexikon scorekeeper (rules.py), its actions and events."""

from voice_host.games.dexikon.rules import Dexikon, DexikonSettings

__all__ = ["Dexikon", "DexikonSettings"]
