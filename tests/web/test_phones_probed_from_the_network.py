"""The phones' server on a shared network, probed as a stranger on the same Wi-Fi would:
from other addresses (the loopback range, 127.0.0.2 and up, gives many), only ever to
this machine. The join code in nothing another device can fetch; a player with the code
always gets in while others guess, hold sockets without joining and hold idle
connections; nothing a client sends printed on the host's terminal; the Host and Origin
checked, every answer with the security headers; a game resumed with --phones served
again with a fresh code.

The server's probes wait (generously) for a condition.
"""

from __future__ import annotations

import http.client
import json
import os
import socket
import ssl
import subprocess
import sys
import threading
import time

import pytest
import support

from voice_host import phones as hub
from voice_host.phones import Phones, Refused

pytestmark = pytest.mark.slow  # the phones' server, probed over the network

PLAYERS = ("Ann", "Ben", "Cat")
PATIENCE = 60.0


def insecure() -> ssl.SSLContext:
    context = ssl.create_default_context()
    context.check_hostname = False
    context.verify_mode = ssl.CERT_NONE
    return context


def other(n: int) -> str:
    """Another device's address: 127.0.0.2 to 127.0.0.254, then 127.0.1.x ..."""
    return f"127.0.{n // 253}.{n % 253 + 2}"


@pytest.fixture
def served(tmp_path, monkeypatch):
    """The phones' server on 127.0.0.1, its scoreboard open to every address (as with
    --display-host 0.0.0.0), over HTTPS with a fresh certificate; its log in tmp_path."""
    from voice_host.assembly import serve_phones

    monkeypatch.setenv("XDG_CONFIG_HOME", str(tmp_path / "config"))
    monkeypatch.setenv("XDG_STATE_HOME", str(tmp_path / "state"))
    phones = Phones(PLAYERS)
    display = serve_phones(phones, "127.0.0.1", 0)
    yield phones, display
    display.close()
    support.print_server_log(display)


def fetch(display, path: str, source: str, headers: dict | None = None, method: str = "GET"):
    """(status, headers, body) of ``path`` asked from ``source``."""
    conn = http.client.HTTPSConnection("127.0.0.1", display.port, source_address=(source, 0), context=insecure(),
                                       timeout=30)
    try:
        conn.request(method, "/" + path, headers=headers or {})
        answer = conn.getresponse()
        return answer.status, answer.headers, answer.read()
    finally:
        conn.close()


def first_event(display, source: str) -> bytes:
    """The first state /events streams to ``source``."""
    conn = http.client.HTTPSConnection("127.0.0.1", display.port, source_address=(source, 0), context=insecure(),
                                       timeout=30)
    try:
        conn.request("GET", "/events")
        answer = conn.getresponse()
        assert answer.status == 200
        for _ in range(20):
            line = answer.fp.readline()
            if line.startswith(b"data:"):
                return line
        pytest.fail("no state streamed")
    finally:
        conn.close()


def phone_socket(display, source: str, origin: str | None = None, connected=None):
    """A websocket to /phone from ``source``, as the page's script opens it; ``connected()``
    is called once the TCP connection is made, before the TLS handshake."""
    from websockets.sync.client import connect

    started = time.monotonic()
    raw = socket.create_connection(("127.0.0.1", display.port), timeout=30, source_address=(source, 0))
    if connected is not None:
        connected()
    try:
        return connect(f"wss://127.0.0.1:{display.port}/phone", sock=raw, ssl=insecure(), open_timeout=30,
                       origin=origin, server_hostname="127.0.0.1")
    except Exception as exc:
        if hasattr(exc, "add_note"):  # when it failed tells which of the server's limits it met
            exc.add_note(f"the websocket from {source} failed {time.monotonic() - started:.2f} s after connecting")
        raise


def join(display, source: str, code: str, name: str = "Ann") -> dict:
    """The host's answer to a join from ``source``."""
    with phone_socket(display, source) as ws:
        ws.send(json.dumps({"code": code, "name": name, "rate": 48000}))
        return json.loads(ws.recv(timeout=30))


# ---------------------------------------------------------------------- the code kept private
def test_the_join_code_is_in_nothing_another_device_can_fetch(served):
    from voice_host import config
    from voice_host.host.session import Session, new_header
    from voice_host.words import Words

    phones, display = served
    session = Session(new_header("prolix-classic", list(PLAYERS), 5, config.load()), Words.load(), lambda _: None,
                      watch=(display,))
    display.follow(session)
    session.say(session.announcer.phones_join(phones.url, phones.code))  # said at the table, on the page
    said = " ".join(phones.code)
    pages = [fetch(display, path, other(7))[2] for path in ("", "state.json", "join")] + [first_event(display, other(8))]
    assert b"(said aloud)" in pages[1]
    for page in pages:
        assert phones.code.encode() not in page and said.encode() not in page
    with phone_socket(display, other(9)) as ws:  # a player's own phone is not shown it either
        ws.send(json.dumps({"code": phones.code, "name": "Ann", "rate": 48000}))
        assert json.loads(ws.recv(timeout=30))["joined"] == "Ann"
        view = ws.recv(timeout=30)
        assert "(said aloud)" in view and phones.code not in view and said not in view


# ---------------------------------------------------------------------- a player always gets in
def test_the_table_frees_a_seat_and_the_player_rejoins_from_another_phone(served):
    phones, display = served
    with phone_socket(display, other(20)) as squatter:
        squatter.send(json.dumps({"code": phones.code, "name": "Ann", "rate": 48000}))
        assert json.loads(squatter.recv(timeout=30))["joined"] == "Ann"
        assert "already connected" in join(display, other(21), phones.code)["refused"]
        assert phones.free("Ann") and not phones.free("Ann")
        told = [json.loads(m) for m in iter_messages(squatter)]
        assert any("left" in m for m in told)
    assert join(display, other(21), phones.code).get("joined") == "Ann"


def iter_messages(ws):
    """The messages ``ws`` gets until it is closed."""
    from websockets.exceptions import ConnectionClosed

    try:
        for _ in range(100):
            yield ws.recv(timeout=30)
    except ConnectionClosed:
        return


def test_a_player_with_the_code_gets_in_while_others_guess_wait_and_hold_idle_connections(served):
    phones, display = served
    stop = threading.Event()

    def guess(n: int) -> None:
        for _ in range(40):  # bounded: stops by itself
            if stop.is_set():
                return
            try:
                join(display, other(n), "000000")
            except Exception:  # noqa: BLE001  a guesser turned away is fine
                time.sleep(0.2)

    guessers = [threading.Thread(target=guess, args=(100 + n,), daemon=True) for n in range(40)]
    for thread in guessers:
        thread.start()
    waiting = []  # 20 sockets that never say who they are, from two addresses
    for n in range(20):
        try:
            waiting.append(phone_socket(display, other(10 + n % 2)))
        except Exception:  # noqa: BLE001  refused at once: fine
            pass
    idle = [socket.create_connection(("127.0.0.1", display.port), timeout=30, source_address=(other(300 + n), 0))
            for n in range(95)]
    try:
        for n, name in enumerate(["Ann", "Ben", "Cat", "Ann", "Ben"]):
            assert join(display, other(50 + n), phones.code, name).get("joined") == name
            assert fetch(display, "join", other(60 + n))[0] == 200
    finally:
        stop.set()
        for ws in waiting:
            ws.close()
        for sock in idle:
            sock.close()
        for thread in guessers:
            thread.join(PATIENCE)


def test_sockets_that_never_join_are_limited_per_address(served):
    phones, display = served
    held = [phone_socket(display, other(30)) for _ in range(4)]
    try:
        with phone_socket(display, other(30)) as fifth:
            assert "too many connections waiting" in json.loads(fifth.recv(timeout=30))["refused"]
        assert join(display, other(31), phones.code).get("joined") == "Ann"
        for ws in held:  # each closed within seconds of not joining
            assert list(iter_messages(ws)) == []
    finally:
        for ws in held:
            ws.close()


def test_an_idle_connection_is_closed_and_95_of_them_never_make_the_pages_busy(tmp_path, monkeypatch):
    from voice_host.display import Display

    monkeypatch.setenv("XDG_STATE_HOME", str(tmp_path / "state"))
    display = Display.open("127.0.0.1", 0)
    try:
        idle = [socket.create_connection(("127.0.0.1", display.port), timeout=PATIENCE,
                                         source_address=(other(400 + n), 0)) for n in range(95)]
        conn = http.client.HTTPConnection("127.0.0.1", display.port, source_address=(other(500), 0), timeout=30)
        conn.request("GET", "/state.json")
        assert conn.getresponse().status == 200
        conn.close()
        assert idle[0].recv(100) == b""  # closed by the server, not held forever
        for sock in idle:
            sock.close()
    finally:
        display.close()


def test_one_address_holding_hundreds_of_connections_keeps_nobody_else_out(tmp_path, monkeypatch):
    from voice_host.display import Display
    from voice_host.web import server
    from voice_host.web.server import MAX_CONNECTIONS, PER_ADDRESS

    monkeypatch.setenv("XDG_STATE_HOME", str(tmp_path / "state"))
    monkeypatch.setattr(server, "REQUEST_WITHIN", 600.0)  # idle ones not closed meanwhile: only the limit counts
    display = Display.open("127.0.0.1", 0)
    held = []
    try:
        for _ in range(MAX_CONNECTIONS + 20):  # more than the server serves at once, from one address
            held.append(socket.create_connection(("127.0.0.1", display.port), timeout=PATIENCE,
                                                 source_address=(other(900), 0)))
        conn = http.client.HTTPConnection("127.0.0.1", display.port, source_address=(other(901), 0), timeout=30)
        conn.request("GET", "/state.json")
        assert conn.getresponse().status == 200
        conn.close()
        assert all(sock.recv(1) == b"" for sock in held[PER_ADDRESS:PER_ADDRESS + 20])  # closed at once
    finally:
        for sock in held:
            sock.close()
        display.close()


# ---------------------------------------------------------------------- the host's terminal
HOST = """
import sys, time
from voice_host.assembly import serve_phones
from voice_host.phones import Phones
display = serve_phones(Phones(["Ann", "Ben"]), "127.0.0.1", 0)
print(display.port, flush=True)
sys.stdin.readline()
display.close()
"""


def test_malformed_messages_print_nothing_on_the_hosts_terminal(tmp_path):
    env = {**os.environ, "XDG_CONFIG_HOME": str(tmp_path / "config"), "XDG_STATE_HOME": str(tmp_path / "state")}
    host = subprocess.Popen([sys.executable, "-c", HOST], stdin=subprocess.PIPE, stdout=subprocess.PIPE,
                            stderr=subprocess.PIPE, env=env, text=True)
    try:
        port = int(host.stdout.readline())

        class At:
            pass
        display = At()
        display.port = port
        bad = ["[" * 200_000, "x" * 600_000, "{" * 5000, '{"code": ' * 3000, "[]", "null", "1e999999",
               '{"code": [], "name": {}, "rate": "x"}', "\x00\xff", b"\x00" * 1000]
        for n in range(20):
            try:
                with phone_socket(display, other(600 + n)) as ws:
                    ws.send(bad[n % len(bad)])
                    ws.recv(timeout=30)
            except Exception:  # noqa: BLE001  closed: fine
                pass
        for n in range(5):  # not even HTTP
            with socket.create_connection(("127.0.0.1", port), timeout=30, source_address=(other(700 + n), 0)) as s:
                s.sendall(b"\x16\x03\x01 garbage\r\n\r\n" * 10)
    finally:
        out, err = host.communicate("\n", timeout=PATIENCE)
    assert "Traceback" not in err and len(err.splitlines()) <= 3, err[:2000]
    log = (tmp_path / "state" / "voice-host" / "log" / "server.log")
    if log.exists():
        lines = log.read_text().splitlines()
        assert "Traceback" not in log.read_text() and len(lines) <= 10, lines


# ---------------------------------------------------------------------- trust
def test_the_host_and_the_origin_must_be_the_hosts_own(served):
    phones, display = served
    status, headers, body = fetch(display, "join", other(40), headers={"Host": "attacker.example:8765"})
    assert status == 421 and b"attacker" not in body and "default-src 'none'" in headers["Content-Security-Policy"]
    status, headers, _ = fetch(display, "join/", other(40))
    assert status == 404 and "Location" not in headers
    for origin in (f"http://127.0.0.1:{display.port}", "https://elsewhere.example", "null"):
        with pytest.raises(Exception):
            with phone_socket(display, other(41), origin=origin) as ws:
                ws.send(json.dumps({"code": phones.code, "name": "Ann", "rate": 48000}))
                ws.recv(timeout=30)
    with phone_socket(display, other(42), origin=f"https://127.0.0.1:{display.port}") as ws:
        ws.send(json.dumps({"code": phones.code, "name": "Ann", "rate": 48000}))
        assert json.loads(ws.recv(timeout=30))["joined"] == "Ann"


def test_every_answer_carries_the_security_headers_and_the_icon_is_served(served):
    _, display = served
    for path, method, status in (("", "GET", 200), ("join", "GET", 200), ("nowhere", "GET", 404),
                                 ("join", "POST", 405), ("favicon.ico", "GET", 200)):
        got, headers, _ = fetch(display, path, other(45), method=method)
        assert got == status, path
        assert "default-src 'none'" in headers["Content-Security-Policy"] and headers["X-Content-Type-Options"]
        assert len(headers.get_all("Content-Security-Policy")) == 1
    assert fetch(display, "favicon.ico", other(45))[1]["Content-Type"].startswith("image/svg+xml")


@pytest.mark.browser
def test_the_phone_page_says_why_it_was_refused_and_when_to_try_again(served):
    from selenium.webdriver.common.by import By
    from selenium.webdriver.support.ui import Select

    phones, display = served
    for _ in range(hub.MAX_FAILURES):  # this phone got the code wrong too often
        with pytest.raises(Refused):
            phones.join("wrong", "Ann", 48000, "127.0.0.1")
    browser = support.chromium("--use-fake-ui-for-media-stream", "--use-fake-device-for-media-stream", insecure=True)
    try:
        browser.get(display.url + "join")
        browser.find_element(By.ID, "code").send_keys(phones.code)
        Select(browser.find_element(By.ID, "name")).select_by_visible_text("Ann")
        browser.find_element(By.ID, "join").click()
        status = browser.find_element(By.ID, "status")
        support.wait_for(lambda: "Too many wrong codes" in status.text, "the refusal said", PATIENCE)
        support.wait_for(lambda: browser.execute_script("return document.getElementById('join').disabled"),
                         "Join held back", PATIENCE)
        time.sleep(1.0)  # the socket is closed by then: the reason stays, Join waits its minute
        assert status.text == "Too many wrong codes from this phone; try again in a minute."
        assert browser.execute_script("return document.getElementById('join').disabled")
    finally:
        browser.quit()


# ---------------------------------------------------------------------- stopping
def test_resume_with_phones_serves_them_again_with_a_fresh_code(tmp_path, moonshine_ready):
    """A phones game stopped (or crashed) and resumed with --phones: the state returns,
    and the phones join again with a new code."""
    import re
    import signal

    from support import ROOT

    log = tmp_path / "game.log"
    script = tmp_path / "game.txt"
    script.write_text("@start Ann\nAnn: jewelers\n")
    env = {**os.environ, "PYTHONFAULTHANDLER": "1", "XDG_CONFIG_HOME": str(tmp_path / "c"),
           "XDG_STATE_HOME": str(tmp_path / "s"), "XDG_DATA_HOME": str(tmp_path / "d")}
    played = subprocess.run([sys.executable, "-m", "voice_host.cli", "play", "--players", "Ann,Ben,Cat", "--seed", "3",
                             "--script", str(script), "--no-voice", "--log", str(log)], cwd=ROOT, env=env,
                            capture_output=True, text=True, timeout=120)
    assert played.returncode == 0, played.stderr
    host = subprocess.Popen([sys.executable, "-m", "voice_host.cli", "resume", str(log), "--phones", "--no-voice",
                             "--display-host", "127.0.0.1", "--display-port", "0"], cwd=ROOT, env=env,
                            stdin=subprocess.DEVNULL, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True,
                            preexec_fn=support.ctrl_c_reaches_it)  # the Ctrl-C below, even from a runner in the background
    lines: list[str] = []
    errors: list[str] = []  # read as it comes: a host that fills the pipe would wait on it for ever
    readers = [threading.Thread(target=lambda: lines.extend(host.stdout), daemon=True),
               threading.Thread(target=lambda: errors.extend(host.stderr), daemon=True)]
    for reader in readers:
        reader.start()
    try:
        said = support.wait_for(lambda: next((re.search(r"opens https://127\.0\.0\.1:(\d+)/join .*enters the code "
                                                        r"(\d{6})", line) for line in lines if "enters the code" in line),
                                             None), "the join address printed", PATIENCE)

        class At:
            port = int(said.group(1))
        assert said.group(2) not in log.read_text()  # a fresh code: the old one was never kept anywhere
        with phone_socket(At, other(70)) as ben:  # kept open: the host says Ben's phone is there
            ben.send(json.dumps({"code": said.group(2), "name": "Ben", "rate": 48000}))
            assert json.loads(ben.recv(timeout=30))["joined"] == "Ben"
            support.wait_for(lambda: "host: Ben, I'm listening on your phone.\n" in lines, "Ben's phone said",
                             PATIENCE)
            host.send_signal(signal.SIGINT)
            try:
                host.wait(PATIENCE)
            except subprocess.TimeoutExpired:  # where it hangs: its threads' stacks (PYTHONFAULTHANDLER)
                host.send_signal(signal.SIGABRT)
                host.wait(10)
                for reader in readers:
                    reader.join(10)
                pytest.fail(f"the host did not stop in {PATIENCE} s after Ctrl-C; it said:\n{''.join(lines)}\n"
                            f"and its threads were:\n{''.join(errors)}")
    finally:
        if host.poll() is None:
            host.kill()
    for reader in readers:
        reader.join(10)
    out, err = "".join(lines), "".join(errors)
    assert host.returncode == 130 and "Traceback" not in err, err
    assert "Ben, I'm listening on your phone." in out and "voice-host resume" in out
