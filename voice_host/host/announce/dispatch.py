"""``sentence(event)``: one function per event type, registered by the family modules.

An event type with no sentence raises (a test failure), rather than being passed over
in silence; the few events that may say nothing return None on purpose.
"""

from __future__ import annotations

from functools import singledispatch

from voice_host.games.events import Event


@singledispatch
def sentence(event: Event) -> str | None:
    raise NotImplementedError(f"no sentence for {type(event).__name__}")
