"""The messages that pass between the host's stages (docs/ARCHITECTURE.md, the pipeline).

Each is immutable: a stage that wants one otherwise makes a new one
(``dataclasses.replace``).
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from voice_host.games.events import Event


@dataclass(frozen=True)
class Step:
    """One moment of the game as the session answered it, for whoever watches the game
    (the scoreboard): the game's ``events`` at game time ``t`` and the sentences ``said``
    for them. A sentence of the host's own (a question, a refusal) is a step with no
    events; a step that changed the game silently has no sentences."""

    t: float
    events: tuple[Event, ...]
    said: tuple[str, ...]


__all__ = ["Step"]
