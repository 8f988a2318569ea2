"""The player page and its websocket, as routes of the host's web server (voice_host.web).

- ``GET /join``: the page (code, name, Join); ``/join.js``, ``/join.css``,
  ``/phone-worklet.js``: its script, style and audio worklet, from static/;
  ``/join-qr.svg``: the page's address as a QR code, for the scoreboard to show.
- ``/phone``: the websocket. The first message is text, JSON ``{"code", "name",
  "rate"}``, within :data:`JOIN_WITHIN` seconds; the answer is ``{"joined": name,
  "listening": whether the host listens yet}`` (``{"listening": ...}`` follows when that
  changes: until the host listens the page says to wait and sends nothing) or
  ``{"refused": sentence, "retry": seconds or null}`` (then closed; the sentence says why
  and when to try again). A phone the table frees is told ``{"left": sentence}``. After it: binary frames of 16-bit PCM in, and
  ``{"view": ...}`` out (that player's score and turn, and the last sentence said) when
  the game changes. After the join, the only text a phone may send is ``{"talk": false}``
  (push-to-talk: the button was let go, the utterance ends) or ``{"talk": true}``;
  anything else is dropped as malformed.
"""

from __future__ import annotations

import asyncio
import json
from importlib import resources

from voice_host.web import embedded
from voice_host.web import server as web_server

JOIN_WITHIN = 5.0
"""Seconds a new websocket has to send its join message (the page sends it at once)."""
MAX_WAITING = 4
"""Websockets from one address that have not joined yet, at once; another from it is
refused, so sockets held open without joining never keep a player with the code out."""
MAX_UNJOINED = 32
"""Websockets not joined yet (silent, or being refused), from all addresses, at once: a
new one takes the place of the oldest being refused, else of the oldest silent one from
the address holding the most (if it holds two more than the new one's), else of the
oldest of all (which is closed), so sockets from many addresses hold no place for long."""
MAX_HELLO = 1024
"""The longest join message read (characters); a longer one is refused unread."""
MAX_MESSAGE = web_server.MAX_MESSAGE
"""The largest websocket message the server reads (bytes)."""


def asset(name: str) -> str:
    return resources.files("voice_host.phones").joinpath("static", name).read_text(encoding="utf-8")


def own_view(message: str, player: str) -> dict | None:
    """From the page's state (JSON text), what ``player``'s phone shows."""
    try:
        state = json.loads(message)
        view = state["view"]
    except (ValueError, KeyError, TypeError):
        return None
    me = next((p for p in view.get("players", ()) if p.get("name") == player), None)
    said = state.get("said") or []
    return {"name": player, "total": me.get("total") if me else None, "unit": me.get("unit") if me else None,
            "turn": view.get("turn"), "mine": view.get("turn") == player, "status": view.get("status", ""),
            "said": said[-1]["line"] if said else "", "n": said[-1]["n"] if said else 0}


def routes(phones, server, latest) -> list:
    """Starlette routes for ``phones`` (a Phones hub) on ``server`` (a voice_host.web.Server:
    its own origins); ``latest()``: the scoreboard's latest state, (version, JSON text),
    from which each phone shows its player's view (display.board.Board.latest)."""
    from starlette.responses import HTMLResponse, Response
    from starlette.routing import Route, WebSocketRoute
    from starlette.websockets import WebSocketDisconnect

    page = asset("join.html")
    files = {"/join.js": (asset("join.js"), "text/javascript; charset=utf-8"),
             "/phone-worklet.js": (asset("phone-worklet.js"), "text/javascript; charset=utf-8"),
             "/join.css": (asset("join.css"), "text/css; charset=utf-8")}
    waiting: dict[str, int] = {}  # address -> its sockets not joined yet
    unjoined: dict[object, list] = {}  # sockets not joined yet, oldest first -> [their address, an event set
    # to close it, whether they have spoken (and are being refused)]

    def make_way(address: str) -> None:
        """A socket not joined closed, for a new one's place: the oldest being refused (its
        code was checked already: it loses only its answer); else the oldest silent one
        of the address holding the most, if it holds two more than ``address``; else the
        oldest of all."""
        victim = next((ws for ws, (_, _, spoke) in unjoined.items() if spoke), None)
        if victim is None:
            counts: dict[str, int] = {}
            for held, _, _ in unjoined.values():
                counts[held] = counts.get(held, 0) + 1
            most = max(counts, key=counts.get)
            fair = counts[most] >= counts.get(address, 0) + 2
            victim = next(ws for ws, (held, _, _) in unjoined.items() if not fair or held == most)
        unjoined.pop(victim)[1].set()

    qr = []  # the join address as SVG, made on first asking (the address is known by then)

    async def join_qr(_request):
        if not qr:
            import io

            from voice_host.phones import qr_code

            svg = io.BytesIO()
            qr_code(phones.url).save(svg, kind="svg", scale=8, border=4, xmldecl=False,
                                     title="The join page's address")
            qr.append(svg.getvalue())
        return Response(qr[0], media_type="image/svg+xml")

    async def join_page(_request):
        boot = json.dumps({"players": phones.players}, ensure_ascii=False)
        return HTMLResponse(page.replace("{{BOOT}}", embedded(boot)))

    def static(path):
        text, kind = files[path]

        async def serve(_request):
            return Response(text, media_type=kind)
        return serve

    from voice_host.phones import refusal as say

    async def refuse(ws, sentence: str, retry: float | None = None, pause: float = 0.5,
                     evicted: asyncio.Event | None = None) -> None:
        """Tell ``ws`` why it may not join, after ``pause`` seconds (a guesser gets one try
        every half second a socket), and close it; closed with no answer if ``evicted``
        is set meanwhile (another socket needs its place)."""
        if pause:
            try:
                await asyncio.wait_for((evicted or asyncio.Event()).wait(), pause)
                await ws.close(code=1013)  # made way for another: try again later
                return
            except (asyncio.TimeoutError, TimeoutError):
                pass
            except (WebSocketDisconnect, RuntimeError):
                return
        try:
            await ws.send_text(json.dumps({"refused": sentence, "retry": None if retry is None else round(retry)}))
            await ws.close(code=1008)
        except (WebSocketDisconnect, RuntimeError):
            pass  # it has gone meanwhile

    async def socket(ws):
        origin = ws.headers.get("origin")
        if origin is not None and origin.lower() not in server.origins:
            await ws.close(code=1008)  # another site's page (or ours over another scheme): never let in
            return
        address = ws.client.host if ws.client else ""
        await ws.accept()
        if waiting.get(address, 0) >= MAX_WAITING:
            await refuse(ws, say("waiting"), JOIN_WITHIN, pause=0)
            return
        waiting[address] = waiting.get(address, 0) + 1
        while len(unjoined) >= MAX_UNJOINED:
            make_way(address)
        evicted = asyncio.Event()
        unjoined[ws] = [address, evicted, False]
        conn = None
        try:
            try:
                first = await first_message(ws, evicted)
                if ws in unjoined:
                    unjoined[ws][2] = True  # it has spoken: the first to make way now
                if first.get("type") == "websocket.disconnect":  # gone (or closed for a message too large)
                    return
                text = first.get("text")
                hello = json.loads(text) if isinstance(text, str) and len(text) <= MAX_HELLO else None
            except (asyncio.TimeoutError, TimeoutError, WebSocketDisconnect, RuntimeError):
                await ws.close(code=1008)
                return
            except (ValueError, RecursionError):
                hello = None
            if not isinstance(hello, dict):
                await refuse(ws, say("unreadable"), evicted=evicted)
                return
            from voice_host.phones import Refused

            try:
                conn = phones.join(hello.get("code"), hello.get("name"), hello.get("rate"), address)
            except Refused as why:
                await refuse(ws, str(why), why.retry, evicted=evicted)
                return
        finally:
            unjoined.pop(ws, None)
            waiting[address] -= 1
            if not waiting[address]:
                del waiting[address]
        player = hello["name"]
        listening = phones.listening
        await ws.send_text(json.dumps({"joined": player, "listening": listening}))
        pusher = asyncio.create_task(push_views(ws, player, conn, listening))
        try:
            while True:
                message = await ws.receive()
                if message["type"] == "websocket.disconnect":
                    break
                if message.get("text") is not None:
                    ok = talk(conn, message["text"])
                else:
                    ok = phones.audio(conn, message.get("bytes"))
                if not ok and phones.too_malformed(conn):
                    await ws.close(code=1008)
                    break
        except (WebSocketDisconnect, RuntimeError):
            pass
        finally:
            pusher.cancel()
            phones.leave(conn)

    async def first_message(ws, evicted: asyncio.Event) -> dict:
        """The socket's first message, within :data:`JOIN_WITHIN` seconds and while it is
        not made to make way (TimeoutError then)."""
        receiving = asyncio.ensure_future(ws.receive())
        closing = asyncio.ensure_future(evicted.wait())
        try:
            await asyncio.wait({receiving, closing}, timeout=JOIN_WITHIN, return_when=asyncio.FIRST_COMPLETED)
        finally:
            closing.cancel()
            if not receiving.done():
                receiving.cancel()
        if not receiving.done() or receiving.cancelled():
            raise TimeoutError
        return receiving.result()

    def talk(conn, text) -> bool:
        """A push-to-talk message: ``{"talk": false}`` ends the utterance; True when it is one."""
        try:
            said = json.loads(text) if len(text) < 64 else None
        except ValueError:
            said = None
        if not isinstance(said, dict) or set(said) != {"talk"} or not isinstance(said["talk"], bool):
            return phones.audio(conn, text)  # counted as malformed, as any other text
        if not said["talk"]:
            phones.release(conn)
        return True

    async def push_views(ws, player, conn, listening: bool):
        """What the phone is to show, as it changes: whether the host listens (it was told
        ``listening`` as it joined), and that player's view."""
        sent = None
        try:
            while True:
                if not phones.is_connected(conn):  # the table freed this seat
                    await ws.send_text(json.dumps({"left": say("freed")}))
                    await ws.close(code=1000)
                    return
                if phones.listening != listening:  # the host began (or stopped) listening
                    listening = phones.listening
                    await ws.send_text(json.dumps({"listening": listening}))
                version, message = latest()
                if version != sent:
                    sent = version
                    shown = own_view(message, player)
                    if shown is not None:
                        await ws.send_text(json.dumps({"view": shown}, ensure_ascii=False))
                await asyncio.sleep(0.25)
        except asyncio.CancelledError:
            raise
        except Exception:  # noqa: BLE001  the socket is gone: the reader notices
            return

    return [Route("/join", join_page), WebSocketRoute("/phone", socket), Route("/join-qr.svg", join_qr),
            *(Route(path, static(path)) for path in files)]


__all__ = ["routes", "own_view", "MAX_MESSAGE"]
