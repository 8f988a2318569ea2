"""Prolix's phrases (every mode): the table's own (host.intents: a word, 'challenge',
'timer', yes and no) cover its moves, and the table's ``@board`` and ``@draw``
directives its table mode (host.phrases.common)."""

from __future__ import annotations

HELP: dict[str, str] = {}


def parse(said: str, text: str, player: str, t: float):
    """Prolix has no phrases beyond the table's own."""
    return None
