"""The page's server: Starlette on uvicorn, in a background thread beside the game.

Five paths, all GET, every other one 404:

- ``/``             the page, with the state now in it (it draws before any script runs)
- ``/display.css``, ``/display.js``   its style and script, from the package (static/)
- ``/state.json``   the state now (the same JSON the page gets)
- ``/events``       server-sent events: the state again after every announcement

The game's thread calls :meth:`Display.publish` (through :meth:`Display.said`); that
stores the message and wakes the server's loop, and never waits on a browser. Each
stream sends only the latest message, so a slow or stalled browser skips states
instead of queueing them, and a flood of them costs the game nothing but the lock.
"""

from __future__ import annotations

import asyncio
import json
import socket
import threading
import weakref
from importlib import resources
from typing import Callable

DEFAULT_PORT = 8765
MAX_STREAMS = 64
"""Pages open at once; the next one is told to try later (503) until one closes."""
KEEP_ALIVE = 15.0
"""Seconds between comments on an idle stream, so a browser gone is noticed."""
SECURITY = {
    "Content-Security-Policy": "default-src 'none'; script-src 'self'; style-src 'self'; connect-src 'self'; "
                               "img-src 'self'; base-uri 'none'; form-action 'none'; frame-ancestors 'none'",
    "X-Content-Type-Options": "nosniff",
    "Referrer-Policy": "no-referrer",
    "Cache-Control": "no-store",
}
"""Every answer's headers: nothing but this host's own script and style runs on the page."""


def asset(name: str) -> str:
    return resources.files("voice_host.display").joinpath("static", name).read_text(encoding="utf-8")


def embedded(message: str) -> str:
    """JSON safe inside the page's ``<script type="application/json">``: no ``<`` can
    close the element, whatever a player's name or word holds."""
    return message.replace("&", "\\u0026").replace("<", "\\u003c").replace(">", "\\u003e")


class Server:
    """The web server in its thread; ``publish(message)`` from any thread."""

    def __init__(self, sock: socket.socket, extra: Callable | None = None,
                 tls: tuple[str, str] | None = None, private: bool = False) -> None:
        self.sock = sock
        self.extra = extra
        """More routes: ``extra(server)`` -> a list (the phones' page and socket)."""
        self.tls = tls
        """(certificate, key) files: HTTPS instead of HTTP."""
        self.private = private
        """The scoreboard's own paths answer this machine only (the extra routes serve anyone)."""
        self.lock = threading.Lock()
        self.version, self.message = 0, "{}"
        self.streams: weakref.WeakSet = weakref.WeakSet()
        """The streams open now (each gone once its response is: ended, dropped or never started)."""
        self.closing = False
        self.loop: asyncio.AbstractEventLoop | None = None
        self.changed: asyncio.Event | None = None
        self.ready = threading.Event()
        self.server = None
        self.thread = threading.Thread(target=self._run, name="display", daemon=True)
        self.page = asset("index.html")
        self.assets = {"/display.css": (asset("display.css"), "text/css; charset=utf-8"),
                       "/display.js": (asset("display.js"), "text/javascript; charset=utf-8")}

    # ------------------------------------------------------------------ the game's side
    def publish(self, message: str) -> None:
        """The state to show now (JSON text); the streams are woken, nobody is waited on."""
        with self.lock:
            self.version += 1
            self.message = message
        loop = self.loop
        if loop is not None and not self.closing:
            try:
                loop.call_soon_threadsafe(self._wake)
            except RuntimeError:  # the loop has just closed: nobody is listening
                pass

    def latest(self) -> tuple[int, str]:
        with self.lock:
            return self.version, self.message

    def start(self, timeout: float = 30.0) -> None:
        self.thread.start()
        self.ready.wait(timeout)

    def close(self, timeout: float = 5.0) -> None:
        self.closing = True
        if self.server is not None:
            self.server.should_exit = True
        loop = self.loop
        if loop is not None:
            try:
                loop.call_soon_threadsafe(self._wake)
            except RuntimeError:
                pass
        self.thread.join(timeout)
        try:
            self.sock.close()
        except OSError:
            pass

    # ------------------------------------------------------------------ the server's side
    def _wake(self) -> None:
        if self.changed is not None:
            self.changed.set()
        self.changed = asyncio.Event()

    def _run(self) -> None:
        import uvicorn

        config = uvicorn.Config(self.app(), log_config=None, log_level="warning", access_log=False,
                                lifespan="on", limit_concurrency=MAX_STREAMS + 32, timeout_graceful_shutdown=2,
                                timeout_keep_alive=5, ws_max_size=512 * 1024,
                                **({"ssl_certfile": str(self.tls[0]), "ssl_keyfile": str(self.tls[1])} if self.tls else {}))
        self.server = uvicorn.Server(config)
        try:
            self.server.run(sockets=[self.sock])
        finally:
            self.ready.set()  # a server that could not start does not keep the game waiting

    def app(self):
        from contextlib import asynccontextmanager

        from starlette.applications import Starlette
        from starlette.responses import HTMLResponse, PlainTextResponse, Response, StreamingResponse
        from starlette.routing import Route

        @asynccontextmanager
        async def lifespan(_app):
            self.loop = asyncio.get_running_loop()
            self.changed = asyncio.Event()
            self.ready.set()
            yield

        async def page(_request):
            _, message = self.latest()
            return HTMLResponse(self.page.replace("{{STATE}}", embedded(message)), headers=SECURITY)

        async def state(_request):
            _, message = self.latest()
            return Response(message, media_type="application/json", headers=SECURITY)

        def static(path: str) -> Callable:
            text, kind = self.assets[path]

            async def serve(_request):
                return Response(text, media_type=kind, headers=SECURITY)
            return serve

        async def events(request):
            if len(self.streams) >= MAX_STREAMS:
                return PlainTextResponse("Too many pages are open; close one and reload.", 503,
                                         headers={**SECURITY, "Retry-After": "5"})
            stream = self._stream(request)
            self.streams.add(stream)
            return StreamingResponse(stream, media_type="text/event-stream",
                                     headers={**SECURITY, "X-Accel-Buffering": "no"})

        async def missing(_request, _exc):
            return PlainTextResponse("Not found: this page shows the game at / and nothing else.", 404,
                                     headers=SECURITY)

        async def not_allowed(_request, _exc):
            return PlainTextResponse("This page is read-only.", 405, headers={**SECURITY, "Allow": "GET, HEAD"})

        own = [Route("/", page), Route("/state.json", state), Route("/events", events),
               *(Route(path, static(path)) for path in self.assets)]
        app = Starlette(routes=[*own, *(self.extra(self) if self.extra else ())], lifespan=lifespan,
                        exception_handlers={404: missing, 405: not_allowed})
        return this_machine_only(app, {route.path for route in own}) if self.private else app

    async def _stream(self, request):
        """One page's stream: the latest state whenever it changes, a comment when idle."""
        sent = -1
        yield "retry: 1000\n\n"
        while not self.closing:
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


def this_machine_only(app, paths: set[str]):
    """``app``, with ``paths`` answering only requests from this machine (loopback)."""
    import ipaddress

    from starlette.responses import PlainTextResponse

    async def guarded(scope, receive, send):
        if scope["type"] == "http" and scope["path"] in paths:
            client = (scope.get("client") or ("",))[0]
            try:
                local = ipaddress.ip_address(client.removeprefix("::ffff:")).is_loopback
            except ValueError:
                local = False
            if not local:
                answer = PlainTextResponse("The scoreboard is on the host's own screen; phones open /join.", 403,
                                           headers=SECURITY)
                await answer(scope, receive, send)
                return
        await app(scope, receive, send)
    return guarded


def bind(host: str, port: int) -> socket.socket:
    """A listening socket on ``host``:``port`` (0: any free port); OSError when it can't."""
    family = socket.AF_INET6 if ":" in host else socket.AF_INET
    sock = socket.socket(family, socket.SOCK_STREAM)
    try:
        sock.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
        sock.bind((host, port))
        sock.listen(128)
    except OSError:
        sock.close()
        raise
    sock.set_inheritable(True)
    return sock


def reachable_address(host: str) -> str:
    """The address another device types for ``host``: for every address (0.0.0.0), this
    machine's address on its network (found without sending anything), else the host."""
    if host not in ("0.0.0.0", "::", ""):
        return f"[{host}]" if ":" in host else host
    try:
        with socket.socket(socket.AF_INET, socket.SOCK_DGRAM) as probe:
            probe.connect(("192.0.2.1", 9))  # a documentation address: a UDP connect sends no packet
            return probe.getsockname()[0]
    except OSError:
        try:
            return socket.gethostbyname(socket.gethostname())
        except OSError:
            return socket.gethostname()


def dumps(message: dict) -> str:
    return json.dumps(message, ensure_ascii=False, separators=(",", ":"))
