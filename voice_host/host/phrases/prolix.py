"""Prolix's phrases (every mode): the table's own (host.intents: a word, 'challenge',
'timer', yes and no) cover its moves, and the table's ``@board`` and ``@draw``
directives its table mode (host.phrases.common)."""

from __future__ import annotations

from voice_host.host import intents
from voice_host.host.phrases.language import Spoken

HELP: dict[str, str] = {}


def parse(said: str, text: str, player: str, t: float):
    """Prolix has no phrases beyond the table's own."""
    return None


def spoken(game) -> Spoken:
    """A word, optionally after "play" or "my word is"."""
    return Spoken(lead_ins=intents.PHRASES["play_what"])
