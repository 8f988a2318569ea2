"""The phones' server under floods from many addresses of the loopback range (127.0.0.2
and up; only ever this machine): a player with the code gets in within 2 s while slow
requests, handshakes that never finish and sockets that never join fill the server; a
message too large closes its socket; the server's log private, and free of what a
client's early close leaves. The floods are small: the server's limits are lowered for
each test so that a few dozen connections fill it.
"""

from __future__ import annotations

import json
import os
import socket
import ssl
import time

import pytest
from test_phones_probed_from_the_network import PLAYERS, fetch, insecure, join, other, phone_socket

from voice_host.phones import Phones
from voice_host.web import server as web_server

pytestmark = pytest.mark.slow  # the phones' server, probed over the network


@pytest.fixture
def small(tmp_path, monkeypatch):
    """A server that holds 48 connections in all (and 8 sockets not joined): its floods
    fit in a test."""
    from voice_host.phones import web as phone_page

    monkeypatch.setattr(web_server, "MAX_CONNECTIONS", 48)
    monkeypatch.setattr(phone_page, "MAX_UNJOINED", 8, raising=False)
    return served(tmp_path, monkeypatch)


def served(tmp_path, monkeypatch):
    from voice_host.assembly import serve_phones

    monkeypatch.setenv("XDG_CONFIG_HOME", str(tmp_path / "config"))
    monkeypatch.setenv("XDG_STATE_HOME", str(tmp_path / "state"))
    phones = Phones(PLAYERS)
    return phones, serve_phones(phones, "127.0.0.1", 0)


def player_joins(phones, display, n: int) -> float:
    """A player with the code joining from an address of their own: the seconds it took
    (the join page asked first, as a phone does)."""
    t0 = time.monotonic()
    status, _, _ = fetch(display, "join", other(900 + n))
    assert status == 200, f"the join page answered {status}"
    name = PLAYERS[n % len(PLAYERS)]
    assert join(display, other(950 + n), phones.code, name).get("joined") == name
    took = time.monotonic() - t0
    phones.leave(phones.by_player[name]) if name in phones.by_player else None
    return took


def tls(display, source: str) -> ssl.SSLSocket:
    raw = socket.create_connection(("127.0.0.1", display.port), timeout=10, source_address=(source, 0))
    return insecure().wrap_socket(raw, server_hostname="127.0.0.1")


def closed_within(sock: socket.socket, seconds: float) -> bool:
    """Whether the server closes ``sock`` within ``seconds``."""
    sock.settimeout(seconds)
    try:
        return sock.recv(1) == b""
    except (socket.timeout, TimeoutError):
        return False
    except OSError:
        return True


def test_slow_requests_from_many_addresses_beyond_the_servers_connections_keep_no_player_out(small):
    phones, display = small
    slow = []
    try:
        for n in range(60):  # 6 an address, under its limit; 60 over the server's 48
            try:
                sock = tls(display, other(10 + n // 6))
                sock.sendall(b"GET /join HTTP/1.1\r\nHost: 127.0.0.1:%d\r\n" % display.port)  # never the rest
                slow.append(sock)
            except OSError:  # turned away: this address holds its share
                pass
        assert len(slow) >= 40
        for n in range(3):
            assert player_joins(phones, display, n) < 2.0
    finally:
        display.close()
        for sock in slow:
            sock.close()


def test_handshakes_that_never_finish_are_limited_per_address_and_closed_soon(small, monkeypatch):
    monkeypatch.setattr(web_server, "HANDSHAKE_WITHIN", 1.0, raising=False)
    phones, display = small
    hung = []
    try:
        for n in range(12):  # a TCP connection that never says hello
            hung.append(socket.create_connection(("127.0.0.1", display.port), timeout=10,
                                                 source_address=(other(40), 0)))
        time.sleep(0.5)
        turned_away = [closed_within(sock, 0.05) for sock in hung]
        assert sum(turned_away) == 12 - web_server.PER_ADDRESS_HANDSHAKES
        assert all(closed_within(sock, 3.0) for sock, away in zip(hung, turned_away) if not away)
        for n in range(80):  # more than the server holds, from ten addresses
            hung.append(socket.create_connection(("127.0.0.1", display.port), timeout=10,
                                                 source_address=(other(50 + n % 10), 0)))
        assert player_joins(phones, display, 0) < 2.0
    finally:
        display.close()
        for sock in hung:
            sock.close()


def host_busy(display, seconds: float, handshaking: bool) -> None:
    """Once the server holds a connection (still in its TLS handshake, or past it), its
    loop held up for ``seconds`` (the host's process busy: a model loading, its memory
    collected, the machine loaded)."""
    from support import wait_for

    server = display.server
    wait_for(lambda: any(c.handshaking() == handshaking for c in list(server.gate.held)),
             "the server to take the connection" + ("" if handshaking else " and finish its handshake"), 30.0)
    server.loop.call_soon_threadsafe(time.sleep, seconds)


def test_a_phone_is_not_cut_off_for_the_time_the_host_itself_was_busy(small, monkeypatch):
    """The host's own process may stall (a model loading, a collection of its memory):
    a phone whose handshake came in meanwhile is still let in, and the server's limit
    on slow handshakes counts only the time it could have answered."""
    monkeypatch.setattr(web_server, "HANDSHAKE_WITHIN", 1.0, raising=False)
    phones, display = small
    try:  # the host busy for twice the limit, as the handshake begins
        with phone_socket(display, other(600), connected=lambda: host_busy(display, 2.0, handshaking=True)) as ws:
            ws.send(json.dumps({"code": phones.code, "name": "Ann", "rate": 48000}))
            assert json.loads(ws.recv(timeout=30)).get("joined") == "Ann"
    finally:
        display.close()


def test_a_request_is_not_refused_for_the_time_the_host_itself_was_busy(small, monkeypatch):
    """The host's process held up past a connection's deadline for its request (the
    whole machine busy, the phone's request coming just after): the request is still
    answered."""
    monkeypatch.setattr(web_server, "REQUEST_WITHIN", 1.0, raising=False)
    phones, display = small
    try:
        sock = tls(display, other(601))  # the handshake done: the request's deadline runs
        host_busy(display, 2.0, handshaking=False)  # twice the limit
        time.sleep(2.2)
        sock.sendall(b"GET /join HTTP/1.1\r\nHost: 127.0.0.1:%d\r\n\r\n" % display.port)
        sock.settimeout(30)
        assert sock.recv(12) == b"HTTP/1.1 200"
        sock.close()
    finally:
        display.close()


def test_sockets_that_never_join_from_many_addresses_keep_no_player_out(small):
    phones, display = small
    waiting = []
    try:
        for n in range(48):  # four an address (its limit), as many as the server holds
            try:
                waiting.append(phone_socket(display, other(100 + n // 4)))
            except Exception:  # noqa: BLE001  turned away: the server is full
                pass
        for n in range(3):
            assert player_joins(phones, display, n) < 2.0
    finally:
        display.close()
        for ws in waiting:
            ws.close()


def test_a_message_too_large_closes_a_socket_before_it_is_read(small):
    phones, display = small
    try:
        ws = phone_socket(display, other(200))
        with pytest.raises(Exception):  # closed (1009, message too big), never read nor answered
            ws.send(b"\0" * 100_000)  # over 64 KiB, under the 512 KiB read before
            ws.recv(timeout=10)
        try:
            ws.close()
        except OSError:
            pass
        assert player_joins(phones, display, 0) < 2.0
    finally:
        display.close()


def test_a_tls_connection_closed_before_the_idle_check_leaves_nothing_in_the_servers_log(tmp_path, monkeypatch):
    phones, display = served(tmp_path, monkeypatch)
    try:
        for n in range(4):
            sock = tls(display, other(300))
            if n % 2:
                sock.sendall(b"GET /join HTTP/1.1\r\nHost: 127.0.0.1:%d\r\n\r\n" % display.port)
                sock.recv(100)
            sock.close()
        time.sleep(web_server.REQUEST_WITHIN + 1.0)
        log = display.server.log
        assert not log.exists() or "Error" not in log.read_text(), log.read_text()
    finally:
        display.close()


def test_the_servers_log_and_its_folder_are_this_users_alone_whatever_the_umask(tmp_path):
    import logging

    path = tmp_path / "state" / "voice-host" / "log" / "server.log"
    old = os.umask(0)
    try:
        web_server.OnceEach(path).emit(logging.makeLogRecord({"name": "uvicorn.error", "msg": "a kind of trouble"}))
    finally:
        os.umask(old)
    assert path.stat().st_mode & 0o777 == 0o600
    for folder in (path.parent, path.parent.parent, path.parent.parent.parent):
        assert folder.stat().st_mode & 0o777 == 0o700, folder
    assert "a kind of trouble" in path.read_text()


def test_a_players_join_message_still_fits(small):
    phones, display = small
    try:
        with phone_socket(display, other(400)) as ws:
            ws.send(json.dumps({"code": phones.code, "name": "Ann", "rate": 48000}))
            assert json.loads(ws.recv(timeout=10)).get("joined") == "Ann"
            ws.send(b"\0" * 3840)  # a 40 ms block at 48 kHz
            ws.send(b"\0" * 30720)  # a 40 ms block at 192 kHz ... and more
            time.sleep(0.3)
            assert phones.dropped == 0
    finally:
        display.close()


def test_event_streams_that_never_close_from_two_addresses_leave_the_tv_its_scoreboard(tmp_path, monkeypatch):
    """With --display-host 0.0.0.0 the scoreboard is every device's: streams held open by
    two addresses, as many as the server streams, leave a TV a stream of its own."""
    import http.client

    from voice_host.display import board

    monkeypatch.setattr(board, "MAX_STREAMS", 8)
    phones, display = served(tmp_path, monkeypatch)
    held = []
    try:
        for n in range(16):
            conn = http.client.HTTPSConnection("127.0.0.1", display.port, source_address=(other(500 + n % 2), 0),
                                               context=insecure(), timeout=10)
            conn.request("GET", "/events")
            answer = conn.getresponse()
            held.append(conn)
            if answer.status == 200:
                assert answer.fp.readline()  # the stream is open
        status, _, body = fetch(display, "", other(510))
        assert status == 200
        from test_phones_probed_from_the_network import first_event

        assert first_event(display, other(511)).startswith(b"data:")
    finally:
        display.close()
        for conn in held:
            conn.close()
