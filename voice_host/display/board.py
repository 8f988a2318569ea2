"""The scoreboard's part of the host's web server (voice_host.web): its routes, and the
latest state sent to every open page.

Five paths, all GET (the server adds ``/favicon.ico``):

- ``/``             the page, with the state now in it (it draws before any script runs)
- ``/display.css``, ``/display.js``   its style and script, from the package (static/)
- ``/state.json``   the state now (the same JSON the page gets)
- ``/events``       server-sent events: the state again after every announcement

The game's thread calls :meth:`Board.publish` (through Display.said); that stores the
message and wakes the server's loop, and never waits on a browser. Each stream sends
only the latest message, so a slow or stalled browser skips states instead of queueing
them, and a flood of them costs the game nothing but the lock.
"""

from __future__ import annotations

import asyncio
import json
import threading
import time
import weakref
from importlib import resources
from typing import Callable

from voice_host.web.server import embedded

MAX_STREAMS = 64
"""Pages open at once. When all are open, a new one from an address holding fewer than
the most by two takes the place of that address's oldest (which ends; its page
reconnects in a second); else it is told to try later (503)."""
STREAMS_PER_ADDRESS = 4
"""Pages one address may have open at once (a TV has one); the next is told to close one (429)."""
KEEP_ALIVE = 15.0
"""Seconds between comments on an idle stream, so a browser gone is noticed."""


def asset(name: str) -> str:
    return resources.files("voice_host.display").joinpath("static", name).read_text(encoding="utf-8")


class Board:
    """The scoreboard's routes on ``web`` (a voice_host.web.Server) and the state they show;
    ``publish(message)`` from any thread."""

    def __init__(self, web, clock: Callable[[], float] = time.monotonic) -> None:
        self.web = web
        self.clock = clock
        """Its time is each message's ``now`` as it is sent (a timer's deadline is on it)."""
        self.lock = threading.Lock()
        self.version, self.message = 0, "{}"
        self.streams: weakref.WeakKeyDictionary = weakref.WeakKeyDictionary()
        """The streams open now -> their :class:`Ticket` (each gone once its response is:
        ended, dropped or never started)."""
        self.changed = asyncio.Event()
        """Set (on the server's loop) when the state changes, then replaced by a fresh one."""
        self.page = asset("index.html")
        self.assets = {"/display.css": (asset("display.css"), "text/css; charset=utf-8"),
                       "/display.js": (asset("display.js"), "text/javascript; charset=utf-8")}

    # ------------------------------------------------------------------ the game's side
    def publish(self, message: str) -> None:
        """The state to show now (JSON text); the streams are woken, nobody is waited on."""
        with self.lock:
            self.version += 1
            self.message = message
        self.web.wake(self.wake)

    def latest(self) -> tuple[int, str]:
        """The latest message, stamped with the server's time now (``now``): a page counts a
        timer down from its deadline, however long after the state it is served."""
        with self.lock:
            version, message = self.version, self.message
        return version, stamped(message, self.clock())

    # ------------------------------------------------------------------ the server's side
    def wake(self) -> None:
        """On the server's loop: every stream looks at the state again."""
        self.changed.set()
        self.changed = asyncio.Event()

    def routes(self, _web) -> list:
        from starlette.responses import HTMLResponse, PlainTextResponse, Response, StreamingResponse
        from starlette.routing import Route

        async def page(_request):
            _, message = self.latest()
            return HTMLResponse(self.page.replace("{{STATE}}", embedded(message)))

        async def state(_request):
            _, message = self.latest()
            return Response(message, media_type="application/json")

        def static(path: str) -> Callable:
            text, kind = self.assets[path]

            async def serve(_request):
                return Response(text, media_type=kind)
            return serve

        async def events(request):
            address = request.client.host if request.client else ""
            open_now = [t for t in self.streams.values() if not t.ended]
            mine = sum(t.address == address for t in open_now)
            if mine >= STREAMS_PER_ADDRESS:
                return PlainTextResponse("Too many pages are open on this device; close one and reload.", 429,
                                         headers={"Retry-After": "5"})
            if len(open_now) >= MAX_STREAMS and not self._make_way(open_now, mine):
                return PlainTextResponse("Too many pages are open; close one and reload.", 503,
                                         headers={"Retry-After": "5"})
            ticket = Ticket(address)
            stream = self._stream(request, ticket)
            self.streams[stream] = ticket
            return StreamingResponse(stream, media_type="text/event-stream",
                                     headers={"X-Accel-Buffering": "no"})

        return [Route("/", page), Route("/state.json", state), Route("/events", events),
                *(Route(path, static(path)) for path in self.assets)]

    def _make_way(self, open_now: list, holds: int) -> bool:
        """End the oldest stream of the address holding the most, if it holds at least two
        more than ``holds`` (the new page's address); whether one was ended."""
        counts: dict[str, int] = {}
        for ticket in open_now:
            counts[ticket.address] = counts.get(ticket.address, 0) + 1
        most = max(counts, key=counts.get)
        if counts[most] < holds + 2:
            return False
        oldest = min((t for t in open_now if t.address == most), key=lambda t: t.opened)
        oldest.ended = True
        self.wake()
        return True

    async def _stream(self, request, ticket: "Ticket"):
        """One page's stream: the latest state whenever it changes, a comment when idle;
        until the page goes, or its ``ticket`` is ended to make way for another page."""
        sent = -1
        yield "retry: 1000\n\n"
        while not self.web.closing and not ticket.ended:
            changed = self.changed
            version, message = self.latest()
            if version != sent:
                sent = version
                yield f"id: {version}\ndata: {message}\n\n"
                continue
            try:
                await asyncio.wait_for(changed.wait(), KEEP_ALIVE)
            except (asyncio.TimeoutError, TimeoutError):
                if await request.is_disconnected():
                    break
                yield ": still here\n\n"


class Ticket:
    """An open stream's place: its address, when it opened, whether it is to end."""

    def __init__(self, address: str) -> None:
        self.address, self.opened, self.ended = address, time.monotonic(), False


def stamped(message: str, now: float) -> str:
    """A message (a JSON object's text) with ``"now"`` first in it."""
    rest = message.strip()[1:].lstrip()
    return f'{{"now":{round(now, 3)}' + ("}" if rest == "}" else "," + rest)


def dumps(message: dict) -> str:
    return json.dumps(message, ensure_ascii=False, separators=(",", ":"))
