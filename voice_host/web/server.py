"""The host's web server: Starlette on uvicorn, in a background thread beside the game.

It serves nothing of its own but the pages' icon (``/favicon.ico``); what it serves is
mounted on it before it starts, each part giving its routes: the scoreboard
(voice_host.display) and the players' page (voice_host.phones). The assembly composes
them (voice_host.assembly). A mount may be ``private``: its paths answer this machine
alone (the scoreboard, when the phones' page is open to the network). Every path not
mounted is 404, any method not served 405, and any Host but the server's own 421.

What every page shares is here: the security headers, the Host check against DNS
rebinding, the limits on connections (all, and from one address) and on how long a
request may take, and the server's own log, never the host's terminal.
"""

from __future__ import annotations

import asyncio
import logging
import os
import socket
import threading
import time
from pathlib import Path
from typing import Callable

DEFAULT_PORT = 8765
MAX_MESSAGE = 64 * 1024
"""The largest websocket message read (bytes); a larger one closes its socket. Two are
queued at most a socket, so a client sending large messages holds little memory."""
MAX_CONNECTIONS = 512
"""Connections (handshakes, pages, streams, phones, idle ones) held at once. A new one
beyond it takes the place of the oldest that is doing nothing (a handshake under way,
a request not yet whole, a connection idle between requests), so a flood of slow or idle
connections never keeps a player out; only when none is doing nothing is it closed."""
PER_ADDRESS = 32
"""Connections one address may hold at once (a browser opens about six); another is
closed at once. This machine's own 127.0.0.1 and ::1 are not counted."""
REQUEST_WITHIN = 5.0
"""Seconds a connection has to send a whole request, once open and after each answer;
an idle or slow one is closed then, and holds no place for long."""
BACKLOG = 1024
"""Connections the system queues for the server to accept: under a flood a player's is
queued, not dropped (a dropped one is tried again only after 1, 3, 7 s)."""
HANDSHAKE_WITHIN = 5.0
"""Seconds a connection has to finish its TLS handshake; then it is closed."""
BUSY = 0.25
"""Seconds late the server's loop may check a deadline (a handshake's, a request's)
before the wait counts as the host's own: its process was held up (a model loading,
its memory collected, the machine busy), and the connection is given its whole time
again, so a phone is never cut off for the time the host could not answer it."""
PER_ADDRESS_HANDSHAKES = 8
"""TLS handshakes one address may have under way at once; another is closed at once."""
OPEN_FILES = 4096
"""Open files the server asks the system for (up to its hard limit): its connections
never come near the usual desktop limit of 1,024."""
SECURITY = {
    "Content-Security-Policy": "default-src 'none'; script-src 'self'; style-src 'self'; connect-src 'self'; "
                               "img-src 'self'; base-uri 'none'; form-action 'none'; frame-ancestors 'none'",
    "X-Content-Type-Options": "nosniff",
    "Referrer-Policy": "no-referrer",
    "Cache-Control": "no-store",
    "Cross-Origin-Resource-Policy": "same-origin",
}
"""Every answer's headers (uvicorn's own 503s and 400s, redirects and errors too): nothing
but this host's own script and style runs on the page."""
ICON = ('<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 16 16"><rect width="16" height="16" rx="3" '
        'fill="#111"/><text x="8" y="12.5" font-size="11" text-anchor="middle" fill="#ffd400" '
        'font-family="sans-serif">V</text></svg>')
"""The pages' own icon (/favicon.ico, SVG)."""


def embedded(message: str) -> str:
    """JSON safe inside the page's ``<script type="application/json">``: no ``<`` can
    close the element, whatever a player's name or word holds."""
    return message.replace("&", "\\u0026").replace("<", "\\u003c").replace(">", "\\u003e")


class Server:
    """The web server in its thread: ``mount(routes)`` its parts, then ``start()``."""

    def __init__(self, sock: socket.socket, tls: tuple[str, str] | None = None, log: Path | None = None) -> None:
        self.sock = sock
        self.host, self.port = sock.getsockname()[:2]
        self.scheme = "https" if tls else "http"
        self.hosts = own_hosts(self.host, self.port)
        """The Host headers it answers (its own addresses and names, with its port)."""
        self.origins = {f"{self.scheme}://{host}" for host in self.hosts}
        """The pages' own origins, scheme included: the only ones whose sockets are let in."""
        self.log = log or server_log()
        """The server's own log: a line for each kind of trouble a client caused, never on
        the host's terminal."""
        self.tls = tls
        """(certificate, key) files: HTTPS instead of HTTP."""
        self.mounts: list[tuple[Callable[["Server"], list], bool]] = []
        """Its parts: each gives its routes (``routes(server)``), private or not."""
        self.closing = False
        self.loop: asyncio.AbstractEventLoop | None = None
        """The server's event loop, once it runs: another thread wakes a page through it."""
        self.ready = threading.Event()
        self.gate = Gate()
        """The connections it holds (:class:`Gate`)."""
        self.server = None
        self.thread = threading.Thread(target=self._run, name="web", daemon=True)

    @property
    def url(self) -> str:
        """The address to open: on this machine, or (every address) from another device."""
        return f"{self.scheme}://{reachable_address(self.host)}:{self.port}/"

    @property
    def private(self) -> bool:
        """Whether some of its paths answer this machine alone."""
        return any(private for _, private in self.mounts)

    def mount(self, routes: Callable[["Server"], list], private: bool = False) -> None:
        """Serve ``routes(server)`` (Starlette routes) too; ``private``: to this machine only."""
        self.mounts.append((routes, private))

    def wake(self, callback: Callable[[], None]) -> None:
        """Run ``callback`` on the server's loop, from any thread (nothing when it is not running)."""
        loop = self.loop
        if loop is not None and not self.closing:
            try:
                loop.call_soon_threadsafe(callback)
            except RuntimeError:  # the loop has just closed: nobody is listening
                pass

    def start(self, timeout: float = 30.0) -> None:
        self.thread.start()
        self.ready.wait(timeout)

    def close(self, timeout: float = 5.0, wake: Callable[[], None] | None = None) -> None:
        """Stop serving; ``wake``: run on the loop first, so open streams see it closing."""
        self.closing = True
        if self.server is not None:
            self.server.should_exit = True
        loop = self.loop
        if loop is not None and wake is not None:
            try:
                loop.call_soon_threadsafe(wake)
            except RuntimeError:
                pass
        self.thread.join(timeout)
        try:
            self.sock.close()
        except OSError:
            pass

    def _run(self) -> None:
        import uvicorn

        handler = OnceEach(self.log)
        before = {name: logging.getLogger(name).propagate for name in QUIET}
        for name in QUIET:
            logging.getLogger(name).addHandler(handler)
            logging.getLogger(name).propagate = False
        more_files()
        context = tls_context(*self.tls) if self.tls else None
        config = uvicorn.Config(self.app(), log_config=None, log_level="warning", access_log=False,
                                lifespan="on", limit_concurrency=MAX_CONNECTIONS + 64, timeout_graceful_shutdown=2,
                                timeout_keep_alive=int(REQUEST_WITHIN), http=protocol(context, self.gate),
                                h11_max_incomplete_event_size=16 * 1024, server_header=False,
                                headers=list(SECURITY.items()), ws_max_size=MAX_MESSAGE, ws_max_queue=2,
                                ws_ping_interval=10.0, ws_ping_timeout=10.0, ws_per_message_deflate=False)
        self.server = uvicorn.Server(config)
        try:
            self.server.run(sockets=[self.sock])
        except BaseException as exc:  # noqa: BLE001  never a traceback on the host's terminal
            logging.getLogger("uvicorn.error").error("the page's server stopped: %s", exc)
        finally:
            self.ready.set()  # a server that could not start does not keep the game waiting
            for name in QUIET:
                logging.getLogger(name).removeHandler(handler)
                logging.getLogger(name).propagate = before[name]

    def app(self):
        from contextlib import asynccontextmanager

        from starlette.applications import Starlette
        from starlette.responses import PlainTextResponse, Response
        from starlette.routing import Route

        @asynccontextmanager
        async def lifespan(_app):
            self.loop = asyncio.get_running_loop()
            self.ready.set()
            giving_back = asyncio.create_task(give_back(self.gate))
            yield
            giving_back.cancel()

        async def icon(_request):
            return Response(ICON, media_type="image/svg+xml")

        async def missing(_request, _exc):
            return PlainTextResponse("Not found: this page shows the game at / and nothing else.", 404)

        async def not_allowed(_request, _exc):
            return PlainTextResponse("This page is read-only.", 405, headers={"Allow": "GET, HEAD"})

        mounted = [(routes(self), private) for routes, private in self.mounts]
        private = {route.path for routes, hidden in mounted if hidden for route in routes}
        app = Starlette(routes=[Route("/favicon.ico", icon), *(route for routes, _ in mounted for route in routes)],
                        lifespan=lifespan, exception_handlers={404: missing, 405: not_allowed})
        app.router.redirect_slashes = False  # a redirect would name the Host the client sent
        app = this_machine_only(app, private) if private else app
        return own_host_only(app, self.hosts)


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
                answer = PlainTextResponse("The scoreboard is on the host's own screen; phones open /join.", 403)
                await answer(scope, receive, send)
                return
        await app(scope, receive, send)
    return guarded


def own_host_only(app, hosts: set[str]):
    """``app``, answering only requests that name one of ``hosts`` (its own addresses, with
    the port): a page elsewhere that had a browser ask for this host under its own
    name (DNS rebinding) is turned away."""
    from starlette.responses import PlainTextResponse

    async def guarded(scope, receive, send):
        if scope["type"] in ("http", "websocket"):
            host = dict(scope.get("headers") or ()).get(b"host", b"").decode("latin-1").lower()
            if host not in hosts:
                if scope["type"] == "websocket":
                    await send({"type": "websocket.close", "code": 1008})
                    return
                answer = PlainTextResponse("This host answers only at its own address.", 421)
                await answer(scope, receive, send)
                return
        await app(scope, receive, send)
    return guarded


def own_hosts(host: str, port: int) -> set[str]:
    """The Host headers a server on ``host``:``port`` answers: this machine's loopback
    names, its name (and NAME.local, as mDNS has it), the address it listens on, and (on every address) its address on
    the network, each with the port."""
    name = socket.gethostname()
    names = {"localhost", "127.0.0.1", "[::1]", name, f"{name}.local", reachable_address(host)}
    if host not in ("0.0.0.0", "::", ""):
        names.add(f"[{host}]" if ":" in host else host)
    return {f"{name}:{port}".lower() for name in names}


QUIET = ("uvicorn", "asyncio", "websockets", "starlette")
"""The loggers whose lines go to the server's log, never to the host's terminal."""


def server_log() -> Path:
    """Where the page's server writes its log: the user's log folder, server.log."""
    import platformdirs

    return Path(platformdirs.user_log_dir("voice-host")) / "server.log"


class OnceEach(logging.Handler):
    """The server's log in a file: one line for each kind of trouble (the first time it
    happens), never a traceback; a file it can't write is left alone."""

    KINDS = 200

    def __init__(self, path: Path) -> None:
        super().__init__(logging.INFO)
        self.path = path
        self.seen: set[tuple[str, str]] = set()

    def emit(self, record: logging.LogRecord) -> None:
        kind = (record.name, str(record.msg)[:80])
        if kind in self.seen or len(self.seen) >= self.KINDS:
            return
        self.seen.add(kind)
        try:
            text = record.getMessage()
        except Exception:  # noqa: BLE001  a message that can't be formatted is still a kind of trouble
            text = str(record.msg)
        text = "".join(c if c.isprintable() else "?" for c in (text.splitlines() or [""])[0][:300])
        if record.exc_info and record.exc_info[1] is not None:
            text += f" ({type(record.exc_info[1]).__name__})"
        try:
            private_folder(self.path.parent)
            with open(os.open(self.path, os.O_WRONLY | os.O_APPEND | os.O_CREAT, 0o600), "a", encoding="utf-8") as log:
                log.write(f"{time.strftime('%Y-%m-%d %H:%M:%S')} {record.levelname.lower()} {record.name}: {text}\n")
        except OSError:
            pass


def more_files() -> None:
    """Ask the system for :data:`OPEN_FILES` open files (up to its hard limit), where it
    allows fewer: the server's connections never run out of descriptors."""
    try:
        import resource

        soft, hard = resource.getrlimit(resource.RLIMIT_NOFILE)
        want = OPEN_FILES if hard == resource.RLIM_INFINITY else min(OPEN_FILES, hard)
        if soft != resource.RLIM_INFINITY and soft < want:
            resource.setrlimit(resource.RLIMIT_NOFILE, (want, hard))
    except (ImportError, ValueError, OSError):
        pass


def tls_context(certificate, key):
    """The server's TLS: its own certificate and key."""
    import ssl

    context = ssl.SSLContext(ssl.PROTOCOL_TLS_SERVER)
    context.load_cert_chain(str(certificate), str(key))
    return context


def _address(transport) -> str:
    peer = transport.get_extra_info("peername")
    return peer[0] if isinstance(peer, tuple) and peer else ""


class Gate:
    """Every connection the server holds, from the moment it is accepted (before its TLS
    handshake): at most :data:`PER_ADDRESS` from one address (this machine's own
    127.0.0.1 and ::1 not counted), :data:`PER_ADDRESS_HANDSHAKES` of them in a
    handshake, and :data:`MAX_CONNECTIONS` in all. When all are held, a new connection
    takes the place of one doing nothing (a handshake under way, a request not yet whole,
    idle between requests) from the address that holds the most, if that address holds
    at least two more than the new one's: a flood from many addresses makes way for a
    player's one connection, and its own connections do not churn each other."""

    OWN = ("127.0.0.1", "::1", "::ffff:127.0.0.1")

    def __init__(self, limit: int | None = None) -> None:
        self.limit = MAX_CONNECTIONS if limit is None else limit
        self.held: dict = {}
        """Connection -> (its address, its socket's transport), oldest first."""
        self.by_address: dict[str, dict] = {}
        """Address -> its connections (-> their transports), oldest first."""
        self.holding: dict[int, dict[str, None]] = {}
        """How many connections -> the addresses holding that many (so the address
        holding the most is found at once, however many addresses there are)."""
        self.purged = 0.0
        self.closed = 0
        """Connections closed so far."""

    def admit(self, transport) -> bool:
        """Whether the connection on ``transport`` may come in (a place made for it if
        need be); then :meth:`enter`."""
        address = _address(transport)
        mine = self.by_address.get(address, {})
        for c in [c for c, t in mine.items() if t.is_closing()]:
            self.drop(c)
        if address not in self.OWN and (len(mine) >= PER_ADDRESS
                                        or sum(c.handshaking() for c in mine) >= PER_ADDRESS_HANDSHAKES):
            return False
        if len(self.held) >= self.limit and time.monotonic() - self.purged > 0.25:
            self.purged = time.monotonic()  # connections closed unseen (a websocket's, over plain HTTP)
            for c in [c for c, (_, t) in self.held.items() if t.is_closing()]:
                self.drop(c)
        if len(self.held) >= self.limit:
            victim = self._victim(len(mine))
            if victim is None:
                return False  # nobody holds more than its share: the new one waits its turn
            self.held[victim][1].abort()
            self.drop(victim)
        return True

    def enter(self, conn, transport) -> None:
        """``conn`` (with ``idle()`` and ``handshaking()``), admitted, is held."""
        address = _address(transport)
        self.held[conn] = (address, transport)
        conns = self.by_address.setdefault(address, {})
        self._count(address, len(conns), len(conns) + 1)
        conns[conn] = transport

    def _count(self, address: str, before: int, after: int) -> None:
        if before:
            bucket = self.holding[before]
            bucket.pop(address, None)
            if not bucket:
                del self.holding[before]
        if after:
            self.holding.setdefault(after, {})[address] = None

    def _victim(self, holds: int):
        """A connection doing nothing from the address holding the most, if it holds at
        least two more than ``holds``; None when there is none."""
        for count in sorted((c for c in self.holding if c >= holds + 2), reverse=True):
            for address in self.holding[count]:
                conns = self.by_address[address]
                victim = next((c for c, t in conns.items() if not t.is_closing() and c.idle()), None)
                if victim is not None:
                    return victim
        return None

    def drop(self, conn) -> None:
        held = self.held.pop(conn, None)
        if held is not None:
            self.closed += 1
            conns = self.by_address.get(held[0], {})
            if conns.pop(conn, None) is not None:
                self._count(held[0], len(conns) + 1, len(conns))
            if not conns:
                self.by_address.pop(held[0], None)


GIVE_BACK_EVERY = 1.0
"""Seconds between looks at how many connections have closed: after a flood, the memory
its connections held goes back to the system."""


async def give_back(gate: "Gate") -> None:
    """On the server's loop: the memory freed by connections that closed goes back to the
    system (glibc keeps freed memory for later otherwise: a flood of connections would
    leave the host 100 MB larger for good)."""
    try:
        import ctypes

        trim = ctypes.CDLL(None).malloc_trim
    except (OSError, AttributeError):  # not glibc: its allocator gives memory back itself
        return
    seen = gate.closed
    while True:
        await asyncio.sleep(GIVE_BACK_EVERY)
        if gate.closed - seen >= 64:
            seen = gate.closed
            trim(0)


def private_folder(path: Path) -> None:
    """``path`` and each folder made above it, 0700 (this user's alone) whatever the umask."""
    missing = []
    while not path.exists() and path != path.parent:
        missing.append(path)
        path = path.parent
    for folder in reversed(missing):
        folder.mkdir(mode=0o700, exist_ok=True)
        os.chmod(folder, 0o700)


def late(loop, deadline) -> bool:
    """Whether ``loop`` runs the timer ``deadline`` more than :data:`BUSY` seconds late."""
    return loop.time() - deadline.when() > BUSY


def protocol(tls=None, gate: Gate | None = None):
    """uvicorn's HTTP/1.1 (h11) behind a :class:`Gate` (and, given an ``ssl.SSLContext``,
    TLS with a handshake of at most :data:`HANDSHAKE_WITHIN` seconds), closing a
    connection that sends no whole request within :data:`REQUEST_WITHIN` seconds of
    opening or of its last answer (idle and slow clients hold no place), its own 400s
    with :data:`SECURITY`'s headers. Returns the protocol factory uvicorn is given."""
    import h11
    from uvicorn.protocols.http.h11_impl import H11Protocol

    gate = gate if gate is not None else Gate()

    class Protocol(H11Protocol):
        def connection_made(self, transport) -> None:  # type: ignore[override]
            super().connection_made(transport)
            if tls is None:
                if not gate.admit(transport):
                    transport.abort()
                    return
                gate.enter(self, transport)
            self._deadline()

        def connection_lost(self, exc) -> None:  # type: ignore[override]
            if tls is None:
                gate.drop(self)
            super().connection_lost(exc)

        def handshaking(self) -> bool:
            return False

        def idle(self) -> bool:
            """Waiting for a request: none yet whole, or its last one answered (not a websocket)."""
            return self.transport.get_protocol() is self and (self.cycle is None or self.cycle.response_complete)

        def on_response_complete(self) -> None:
            super().on_response_complete()
            self._deadline()

        def _deadline(self) -> None:
            cycle = self.cycle

            def check() -> None:
                if self.cycle is cycle and not self.transport.is_closing() and self.transport.get_protocol() is self:
                    if late(self.loop, handle):
                        self._deadline()  # the host was busy, not the client slow: its whole time again
                    else:
                        self.transport.close()  # no request since (a websocket's protocol is another's)
            handle = self.loop.call_later(REQUEST_WITHIN, check)

        def send_400_response(self, msg: str) -> None:
            headers = [(b"content-type", b"text/plain; charset=utf-8"), (b"connection", b"close"),
                       *((k.lower().encode(), v.encode()) for k, v in SECURITY.items())]
            for event in (h11.Response(status_code=400, headers=headers, reason=b"Bad Request"),
                          h11.Data(data=b"This host did not understand that request."), h11.EndOfMessage()):
                self.transport.write(self.conn.send(event))
            self.transport.close()

    if tls is None:
        return Protocol

    import asyncio
    from asyncio import sslproto

    class Tls(sslproto.SSLProtocol):
        """TLS over one accepted socket, gated before its handshake begins."""

        max_size = 16 * 1024  # the read buffer each connection holds (asyncio's own is 256 KiB)

        def connection_lost(self, exc) -> None:
            gate.drop(self)
            super().connection_lost(exc)

        def handshaking(self) -> bool:
            return self._state == sslproto.SSLProtocolState.DO_HANDSHAKE

        def _check_handshake_timeout(self) -> None:  # asyncio's deadline, checked late when the host was busy
            handle = self._handshake_timeout_handle
            if self.handshaking() and handle is not None and late(self._loop, handle):
                self._handshake_timeout_handle = self._loop.call_later(self._ssl_handshake_timeout,
                                                                       self._check_handshake_timeout)
                return
            super()._check_handshake_timeout()

        def idle(self) -> bool:
            app = self._app_protocol
            return self.handshaking() or (isinstance(app, Protocol) and app.idle())

    class Door(asyncio.Protocol):
        """An accepted socket at the gate: turned away at once (nothing made for it), or
        handed to TLS and HTTP."""

        def __init__(self, *args, **kwargs) -> None:
            self.made = (args, kwargs)

        def connection_made(self, transport) -> None:
            if not gate.admit(transport):
                transport.abort()
                return
            args, kwargs = self.made
            inside = Tls(asyncio.get_running_loop(), Protocol(*args, **kwargs), tls, None, server_side=True,
                         ssl_handshake_timeout=HANDSHAKE_WITHIN, ssl_shutdown_timeout=REQUEST_WITHIN)
            gate.enter(inside, transport)
            transport.set_protocol(inside)
            inside.connection_made(transport)

        def connection_lost(self, exc) -> None:
            pass

    def factory(*args, **kwargs):
        return Door(*args, **kwargs)
    return factory


def bind(host: str, port: int) -> socket.socket:
    """A listening socket on ``host``:``port`` (0: any free port); OSError when it can't."""
    family = socket.AF_INET6 if ":" in host else socket.AF_INET
    sock = socket.socket(family, socket.SOCK_STREAM)
    try:
        sock.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
        sock.bind((host, port))
        sock.listen(BACKLOG)
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


__all__ = ["DEFAULT_PORT", "SECURITY", "Server", "bind", "embedded", "reachable_address"]
