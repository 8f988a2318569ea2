"""``sentence(event)``: one function per event type, registered by the family modules.

An event type with no sentence raises (a test failure), rather than being passed over
in silence; the few events that may say nothing return None on purpose.
"""

from __future__ import annotations

from functools import singledispatch
from typing import Callable

from voice_host.games.events import Event


@singledispatch
def sentence(event: Event) -> str | None:
    raise NotImplementedError(f"no sentence for {type(event).__name__}")


def register(table: dict[type, Callable[[Event], str | None]]) -> None:
    """Register a table of sentences (event type -> the function that says it)."""
    for cls, say in table.items():
        sentence.register(cls, say)
