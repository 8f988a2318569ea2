"""A live, read-only, large-print page beside the voice: ``--display`` (docs/DISPLAY.md).

:class:`Display` follows a session: after every sentence the host says (the Speaker
calls :meth:`Display.said`), it takes the game's state as the page shows it (view.py:
one small function per game family, one shape for all) with the last sentences said,
and hands it to the server (server.py: Starlette on uvicorn in a background thread),
which sends it to every open page as a server-sent event. The page (static/) draws it
with the browser's own text nodes, so a name or a word is shown exactly as written.

Nothing here can change the game: the server only reads what it was last handed.
"""

from __future__ import annotations

import sys
import time
from collections import deque

from voice_host.display import server as _server
from voice_host.display.view import view
from voice_host.errors import UserError

DEFAULT_HOST = "127.0.0.1"
DEFAULT_PORT = _server.DEFAULT_PORT
KEPT = 12
"""Sentences the page keeps (the last one large, the others below it)."""


class Display:
    """The page for one game: ``Display.open(host, port)``, ``follow(session)``,
    ``said(line)`` after each sentence, ``close()`` at the end."""

    def __init__(self, sock, extra=None, tls=None, private=False, clock=time.monotonic) -> None:
        self.clock = clock
        """The server's clock (seconds): a timer's deadline is on it, and every page is told
        its time when served, so a page opened late counts down from the right second."""
        self.server = _server.Server(sock, extra, tls, private, clock=clock)
        self.scheme = "https" if tls else "http"
        self.host, self.port = sock.getsockname()[:2]
        self.session = None
        self.lines: deque[tuple[int, str]] = deque(maxlen=KEPT)
        self.count = 0
        self.failed = False
        self.also = None
        """A callable giving more to show beside the game (the phones: where to join)."""
        self.hidden = None
        """A callable giving what no page may show (the phones' join code, as printed and
        as said): the host says it and prints it; the page shows "(said aloud)"."""

    @classmethod
    def open(cls, host: str = DEFAULT_HOST, port: int | None = None, extra=None, tls=None,
             private: bool = False, clock=time.monotonic) -> "Display":
        """Serve the page on ``host``:``port`` (None: the usual port, or any free one
        when another program has it); a UserError when it can't. ``extra(server)``: more
        routes (the phones'); ``tls``: (certificate, key) files, to serve HTTPS;
        ``private``: the scoreboard to this machine only (the extra routes to anyone); ``clock``: the
        server's, a timer's deadline is on it."""
        try:
            sock = _server.bind(host, DEFAULT_PORT if port is None else port)
        except OSError as exc:
            if port is None:  # the usual port is taken: any other will do
                try:
                    sock = _server.bind(host, 0)
                except OSError as again:
                    raise UserError(cannot(host, again)) from None
            elif exc.errno in (98, 48, 10048):  # address in use (Linux, macOS, Windows)
                raise UserError(f"Port {port} is already in use on this machine, so the display can't use it; "
                                "choose another with --display-port.") from None
            else:
                raise UserError(cannot(host, exc)) from None
        display = cls(sock, extra, tls, private, clock)
        display.server.start()
        return display

    @property
    def url(self) -> str:
        """The address to open: on this machine, or (every address) from another device."""
        return f"{self.scheme}://{_server.reachable_address(self.host)}:{self.port}/"

    @property
    def scoreboard_url(self) -> str:
        """Where the scoreboard opens: this machine's own address when it answers this
        machine alone (with --phones the network address is the phones'), else ``url``."""
        if self.server.private:
            return f"{self.scheme}://127.0.0.1:{self.port}/"
        return self.url

    def follow(self, session) -> None:
        """Show ``session``'s game from now on (its state now, before anything is said)."""
        self.session = session
        self.publish()

    def said(self, line: str) -> None:
        """The host said ``line``: show it, with the state it was said about."""
        self.count += 1
        for secret in self.hidden() if self.hidden else ():
            line = line.replace(secret, "(said aloud)")
        self.lines.append((self.count, line))
        self.publish()

    def publish(self) -> None:
        """The state now, to every page; a display that fails never stops the game."""
        if self.session is None or self.failed:
            return
        try:
            shown = view(self.session.game)
            if shown["timer"] is not None and shown["timer"]["left"] is not None:
                shown["timer"]["deadline"] = round(self.clock() + shown["timer"]["left"], 3)
            message = {"version": self.count, "view": shown,
                       "said": [{"n": n, "line": line} for n, line in self.lines], **(self.also() if self.also else {})}
            self.server.publish(_server.dumps(message))
        except Exception as exc:  # noqa: BLE001  the game goes on without its page
            self.failed = True
            print(f"voice-host: the display stopped showing the game: {exc}", file=sys.stderr)

    def close(self) -> None:
        self.server.close()


def add_options(p) -> None:
    """--display and where it listens, for play, resume and demo."""
    p.add_argument("--display", action="store_true",
                   help="show the game on a live large-print page in a browser (its address is printed)")
    p.add_argument("--display-host", metavar="ADDR",
                   help="where the page listens: 0.0.0.0 lets a tablet or TV on this network open it "
                        f"(default: {DEFAULT_HOST}, this machine only; implies --display)")
    p.add_argument("--display-port", type=int, metavar="PORT",
                   help=f"the page's port, 0 for any free one (default: {DEFAULT_PORT}, or a free one "
                        "when that is taken; implies --display)")


def from_options(args, phones=None) -> Display | None:
    """The page the options ask for, serving and its address printed (None: not asked
    for); a UserError saying why it can't serve. ``phones`` (voice_host.phones.Phones):
    the players' page too, over HTTPS, on every address unless --display-host says; the
    scoreboard then answers this machine only, unless --display-host asked for more."""
    host, port = getattr(args, "display_host", None), getattr(args, "display_port", None)
    if not getattr(args, "display", False) and host is None and port is None and phones is None:
        return None
    if port is not None and not 0 <= port <= 65535:
        raise UserError(f"--display-port needs a port number from 1 to 65535 (or 0 for any free one), not {port}.")
    if host is not None and not host.strip():
        raise UserError("--display-host needs an address, e.g. 0.0.0.0 for every device on this network.")
    if phones is not None:
        from voice_host import phones as _phones

        display = _phones.serve(phones, host.strip() if host else None, port)
        print(f"display: {display.scoreboard_url} shows the game as it goes; open it in a browser on this machine.",
              flush=True)
        print(_phones.how_to_join(phones, display), flush=True)
        return display
    display = Display.open(host.strip() if host else DEFAULT_HOST, port)
    print(f"display: {display.url} shows the game as it goes; open it in a browser.", flush=True)
    return display


def announcement(display: Display) -> str:
    """What the host says about the page at the start of a live game."""
    return f"The scoreboard is on screen at {display.scoreboard_url}."


def cannot(host: str, exc: OSError) -> str:
    return f"I can't serve the display on {host}: {exc.strerror or exc}."


__all__ = ["Display", "DEFAULT_HOST", "DEFAULT_PORT", "add_options", "announcement", "from_options", "view"]
