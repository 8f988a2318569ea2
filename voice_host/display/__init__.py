"""A live, read-only, large-print page beside the voice: ``--display`` (docs/DISPLAY.md).

:class:`Display` watches a session's game: the session hands it every step the host
says (a voice_host.messages.Step: the game's events and the sentences said for them;
``Session(watch=...)``), and it takes the game's state as the page shows it (view.py:
one small function per game family, one shape for all) with the last sentences said,
and hands it to its part of the host's web server (board.py, mounted on a
voice_host.web.Server), which sends it to every open page as a server-sent event. The
page (static/) draws it with the browser's own text nodes, so a name or a word is
shown exactly as written. The assembly composes the server with the players' page
(voice_host.assembly.scoreboard).

Nothing here can change the game: the server only reads what it was last handed.
"""

from __future__ import annotations

import sys
import time
from collections import deque
from typing import Callable

from voice_host import web
from voice_host.display.board import Board, dumps
from voice_host.display.view import view
from voice_host.messages import Step

DEFAULT_HOST = "127.0.0.1"
DEFAULT_PORT = web.DEFAULT_PORT
KEPT = 12
"""Sentences the page keeps (the last one large, the others below it)."""


class Display:
    """The page for one game on ``server`` (a voice_host.web.Server, not started yet):
    ``follow(session)``, called with each step the host says, ``close()`` at the end
    (``Display.open(host, port)``: on a server of its own, serving).

    ``private``: its paths answer this machine only; ``also``: a callable giving more to
    show beside the game (the phones: where to join); ``hidden``: a callable giving what
    no page may show (the phones' join code, as printed and as said): the host says it
    and prints it, the page shows "(said aloud)"; ``clock``: the server's (seconds): a
    timer's deadline is on it, and every page is told its time when served, so a page
    opened late counts down from the right second."""

    def __init__(self, server: web.Server, private: bool = False, also: Callable[[], dict] | None = None,
                 hidden: Callable[[], list[str]] | None = None, clock=time.monotonic) -> None:
        self.server = server
        self.clock = clock
        self.board = Board(server, clock)
        server.mount(self.board.routes, private)
        self.also, self.hidden = also, hidden
        self.session = None
        self.lines: deque[tuple[int, str]] = deque(maxlen=KEPT)
        self.count = 0
        self.failed = False

    @classmethod
    def open(cls, host: str = DEFAULT_HOST, port: int | None = None, private: bool = False,
             clock=time.monotonic) -> "Display":
        """Serve the page alone on ``host``:``port`` (None: the usual port, or any free one
        when another program has it); a UserError when it can't."""
        display = cls(web.Server(web.listen(host, port)), private, clock=clock)
        display.server.start()
        return display

    @property
    def host(self) -> str:
        return self.server.host

    @property
    def port(self) -> int:
        return self.server.port

    @property
    def url(self) -> str:
        """The address to open: on this machine, or (every address) from another device."""
        return self.server.url

    @property
    def scoreboard_url(self) -> str:
        """Where the scoreboard opens: this machine's own address when it answers this
        machine alone (with --phones the network address is the phones'), else ``url``."""
        if self.server.private:
            return f"{self.server.scheme}://127.0.0.1:{self.port}/"
        return self.url

    def follow(self, session) -> None:
        """Show ``session``'s game from now on (its state now, before anything is said)."""
        self.session = session
        self.publish()

    def __call__(self, step: Step) -> None:
        """The host said ``step``: show its sentences, with the state they were said about."""
        hidden = self.hidden() if self.hidden else ()
        for line in step.said:
            self.count += 1
            for secret in hidden:
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
            self.board.publish(dumps(message))
        except Exception as exc:  # noqa: BLE001  the game goes on without its page
            self.failed = True
            print(f"voice-host: the display stopped showing the game: {exc}", file=sys.stderr)

    def close(self) -> None:
        self.server.close(wake=self.board.wake)


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


def announcement(display: Display) -> str:
    """What the host says about the page at the start of a live game."""
    return f"The scoreboard is on screen at {display.scoreboard_url}."


__all__ = ["Display", "DEFAULT_HOST", "DEFAULT_PORT", "add_options", "announcement", "view"]
