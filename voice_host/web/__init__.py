"""The host's web server (server.py: Starlette on uvicorn, in a thread beside the game),
which the scoreboard (voice_host.display) and the players' page (voice_host.phones)
mount; voice_host.assembly composes them. Nothing here knows either of them."""

from __future__ import annotations

from voice_host.errors import UserError
from voice_host.web.server import DEFAULT_PORT, Server, bind, embedded, reachable_address


def listen(host: str, port: int | None):
    """A socket listening on ``host``:``port`` (None: the usual port, or any free one when
    another program has it); a UserError when it can't."""
    try:
        return bind(host, DEFAULT_PORT if port is None else port)
    except OSError as exc:
        if port is None:  # the usual port is taken: any other will do
            try:
                return bind(host, 0)
            except OSError as again:
                raise UserError(cannot(host, again)) from None
        elif exc.errno in (98, 48, 10048):  # address in use (Linux, macOS, Windows)
            raise UserError(f"Port {port} is already in use on this machine, so the display can't use it; "
                            "choose another with --display-port.") from None
        raise UserError(cannot(host, exc)) from None


def cannot(host: str, exc: OSError) -> str:
    return f"I can't serve the display on {host}: {exc.strerror or exc}."


__all__ = ["DEFAULT_PORT", "Server", "embedded", "listen", "reachable_address"]
