"""The phones' server under a stranger's floods, from many addresses of this machine.

    .venv/bin/python benchmarks/phones_probe.py                # every flood, about 12 minutes
    .venv/bin/python benchmarks/phones_probe.py --quick        # shorter windows, about 8 minutes
    .venv/bin/python benchmarks/phones_probe.py --quick --json # the figures as JSON too
    .venv/bin/python benchmarks/phones_probe.py --stops 20     # 20 Ctrl-C stops instead (about 3 minutes)

A host serves the phones' page (``voice_host.assembly.serve_phones``) in a process of
its own, on 127.0.0.1 over HTTPS, with the usual desktop limit of 1,024 open files (soft
and hard). Only loopback is ever sent to; every loop stops by itself. An attacker in
another process, at normal priority (one asyncio loop: it takes what a device of its own
would), floods it from other addresses of the loopback range, one flood after another,
then all at once:

- **guess**: ``--addresses`` (200) addresses, each sending a wrong six-digit code, then
  again two seconds after each answer.
- **addresses**: 4,200 addresses (more than the 4,096 once remembered), one wrong code each.
- **slow**: 600 requests from 50 addresses (12 each, under the per-address limit, over
  the server's 512 connections), a header line trickled every second, opened again when closed.
- **handshakes**: 5,000 TLS handshakes that never finish (TCP connections that send
  nothing), 8 an address, opened again when closed (``--quick``: 1,100).
- **big**: 200 websockets from 50 addresses that never join and send 512 KiB messages,
  opened again when closed.
- **held**: 16 websockets from 4 addresses that never join and 95 idle TCP connections.
- **all**: every flood above at once (the window, after every guesser's free tries and
  the 4,200 addresses' one try each; the other floods go on).

During each flood's window, five times, a player with the code asks for ``/join`` and
joins from an address of their own (in **guess** and **all** after one mistyped code,
which must be answered "not the join code"): the time from asking for the page to
"joined". The host's memory (resident) is sampled all along: its
peak during the flood and where it settles 10 s after. With guessers, the wrong codes
the server checked in the window (counted by the host, less the players' typos; each new
address's free tries are among them): that rate, against a million codes, is the expected
time to guess the code (half the codes tried). Targets: 5 of 5 joins within 2 s; at most
600 MB (the full host rests at about 520 MB; this server alone at far less, so its
growth is the figure to read: at most 80 MB); >= 30 days.

``--stops N``: ``voice-host play --phones`` itself, N times, with two phones streaming
noise and a tone, stopped by Ctrl-C (SIGINT) 2-8 s after they joined: how many ended
as a stop should (exit 130), how many aborted (a recognizer's native thread running at
exit: "terminate called without an active exception", exit 134). Target: 0 aborts.
"""

from __future__ import annotations

import argparse
import json
import os
import random
import socket
import ssl
import subprocess
import sys
import tempfile
import threading
import time

HOST = """
import sys
from voice_host.assembly import serve_phones
from voice_host.phones import Phones
phones = Phones(["Ann", "Ben", "Cat", "Dan", "Eve"])
display = serve_phones(phones, "127.0.0.1", 0)
print(display.port, phones.code, flush=True)
for line in sys.stdin:  # "checked": the wrong codes checked so far; an empty line: stop
    if not line.strip():
        break
    print(phones.checked, flush=True)
display.close()
"""
CODES = 10 ** 6
REOPEN = 1.0
"""Seconds before a flood's connection turned away or closed is opened again."""
FREE_TRIES = 3
"""Wrong codes from one address the server always checks (voice_host.phones.FREE_TRIES)."""


def insecure() -> ssl.SSLContext:
    context = ssl.create_default_context()
    context.check_hostname, context.verify_mode = False, ssl.CERT_NONE
    return context


def address(n: int) -> str:
    return f"127.0.{n // 253 + 1}.{n % 253 + 2}"


def ask(port: int, source: str, code: str, name: str = "Ann") -> dict:
    """The host's answer to a join from ``source``."""
    from websockets.sync.client import connect

    raw = socket.create_connection(("127.0.0.1", port), timeout=10, source_address=(source, 0))
    with connect(f"wss://127.0.0.1:{port}/phone", sock=raw, ssl=insecure(), open_timeout=10,
                 server_hostname="127.0.0.1") as ws:
        ws.send(json.dumps({"code": code, "name": name, "rate": 48000}))
        return json.loads(ws.recv(timeout=10))


def page(port: int, source: str) -> int:
    import http.client

    conn = http.client.HTTPSConnection("127.0.0.1", port, source_address=(source, 0), context=insecure(), timeout=10)
    try:
        conn.request("GET", "/join")
        answer = conn.getresponse()
        answer.read()
        return answer.status
    finally:
        conn.close()


FLOODS = ("guess", "addresses", "slow", "handshakes", "big", "held", "all")


def attack(port: int, code: str, kinds: list[str], addresses: int, handshakes: int) -> int:
    """The attacker's process: the floods ``kinds`` at once until "stop" on stdin; counts
    the wrong codes checked between "count" and "stop"; prints the tally as JSON."""
    import asyncio

    tally = {"checked": 0, "held": 0, "cut": 0, "other": 0, "opened": 0}
    counting = [False]
    stopping = [False]  # every loop ends when it is set (a cancellation can be lost in wait_for)
    context = insecure()

    async def tcp(source: str):
        loop = asyncio.get_running_loop()
        sock = socket.socket(socket.AF_INET, socket.SOCK_STREAM)
        sock.setblocking(False)
        try:
            sock.bind((source, 0))
            await asyncio.wait_for(loop.sock_connect(sock, ("127.0.0.1", port)), 10)
        except BaseException:
            sock.close()
            raise
        tally["opened"] += 1
        return sock

    async def websocket(source: str):
        from websockets.asyncio.client import connect

        sock = await tcp(source)
        return await connect(f"wss://127.0.0.1:{port}/phone", sock=sock, ssl=context, server_hostname="127.0.0.1",
                             open_timeout=10, proxy=None, max_size=None, ping_interval=None, close_timeout=1)

    async def guess_once(source: str, rng: random.Random) -> str:
        """One wrong code from ``source``: "checked" (answered "not the join code"), "held"
        (told to wait), "cut" (sent, then closed unanswered: the server made way for
        another socket after it had seen the code) or "other" (never sent)."""
        guess = f"{rng.randrange(CODES):06d}"
        if guess == code:
            return "other"
        sent = False
        try:
            ws = await websocket(source)
            try:
                await ws.send(json.dumps({"code": guess, "name": "Ann", "rate": 48000}))
                sent = True
                said = json.loads(await asyncio.wait_for(ws.recv(), 10)).get("refused", "")
            finally:
                await ws.close()
        except Exception:  # noqa: BLE001  turned away before an answer
            said = ""
        kind = "checked" if "not the join code" in said else "held" if "Too many" in said \
            else "cut" if sent else "other"
        tally[kind] = tally.get(kind, 0) + 1
        return kind

    answers = [0] * addresses  # each guesser's answers so far

    async def guesser(n: int) -> None:
        rng = random.Random(n)
        while not stopping[0]:
            if await guess_once(address(n), rng) == "other":  # never sent: its free tries not spent
                await asyncio.sleep(REOPEN)
                continue
            answers[n] += 1
            if min(answers) == FREE_TRIES and answers[n] == FREE_TRIES and not tally.get("warm"):
                tally["warm"] = 1
                print("warm", flush=True)  # every guesser has had its free tries
            await asyncio.sleep(2.0)

    async def many() -> None:
        rng = random.Random(1)
        gate = asyncio.Semaphore(100)

        async def one(n: int) -> None:
            async with gate:
                if not stopping[0]:
                    await guess_once(address(10000 + n), rng)
        await asyncio.gather(*(one(n) for n in range(4200)))
        print("spread", flush=True)  # every address has tried once

    async def reopen(open_one, hold) -> None:
        """Keep one connection open: ``open_one()``, then ``hold(it)`` until it is closed, again."""
        while not stopping[0]:
            try:
                it = await open_one()
            except Exception:  # noqa: BLE001  refused: try again shortly
                await asyncio.sleep(REOPEN)
                continue
            try:
                await hold(it)
            except Exception:  # noqa: BLE001  closed by the server
                pass
            finally:
                close = getattr(it, "close")
                try:
                    result = close()
                    if asyncio.iscoroutine(result):
                        await asyncio.wait_for(result, 2)
                except Exception:  # noqa: BLE001
                    pass
            await asyncio.sleep(REOPEN)  # closed: open another

    async def slow_one(n: int) -> None:
        async def open_one():
            sock = await tcp(address(15000 + n // 12))
            reader, writer = await asyncio.open_connection(sock=sock, ssl=context, server_hostname="127.0.0.1",
                                                           ssl_handshake_timeout=10)
            writer.write(b"GET /join HTTP/1.1\r\nHost: 127.0.0.1:%d\r\n" % port)
            return writer

        async def hold(writer) -> None:
            while not writer.is_closing() and not stopping[0]:
                await asyncio.sleep(1.0)
                writer.write(b"X-Slow: 1\r\n")  # a header line a second, never the end
                await writer.drain()
        await reopen(open_one, hold)

    async def handshake_one(n: int) -> None:
        async def open_one():
            return await tcp(address(16000 + n // 8))

        async def hold(sock) -> None:
            loop = asyncio.get_running_loop()
            while not stopping[0] and await loop.sock_recv(sock, 1024):  # says nothing: never a hello
                pass
        await reopen(open_one, hold)

    async def big_one(n: int) -> None:
        async def hold(ws) -> None:
            block = b"\0" * (512 * 1024)
            while not stopping[0]:
                await ws.send(block)
                await asyncio.sleep(0.1)
        await reopen(lambda: websocket(address(17000 + n // 4)), hold)

    async def waiting_one(n: int) -> None:
        async def hold(ws) -> None:
            await ws.wait_closed()
        await reopen(lambda: websocket(address(1000 + n % 4)), hold)

    async def idle_one(n: int) -> None:
        await handshake_one_from(address(1100 + n))

    async def handshake_one_from(source: str) -> None:
        async def hold(sock) -> None:
            loop = asyncio.get_running_loop()
            while not stopping[0] and await loop.sock_recv(sock, 1024):
                pass
        await reopen(lambda: tcp(source), hold)

    async def main() -> None:
        tasks = []
        if "guess" in kinds:
            tasks += [asyncio.create_task(guesser(n)) for n in range(addresses)]
        if "addresses" in kinds:
            tasks.append(asyncio.create_task(many()))
        if "slow" in kinds:
            tasks += [asyncio.create_task(slow_one(n)) for n in range(600)]
        if "handshakes" in kinds:
            tasks += [asyncio.create_task(handshake_one(n)) for n in range(handshakes)]
        if "big" in kinds:
            tasks += [asyncio.create_task(big_one(n)) for n in range(200)]
        if "held" in kinds:
            tasks += [asyncio.create_task(waiting_one(n)) for n in range(16)]
            tasks += [asyncio.create_task(idle_one(n)) for n in range(95)]
        loop = asyncio.get_running_loop()
        while True:
            line = (await loop.run_in_executor(None, sys.stdin.readline)).strip()
            if line == "count":
                counting[0] = True
            else:
                break
        counting[0] = False
        stopping[0] = True
        for task in tasks:
            task.cancel()
        await asyncio.wait(tasks, timeout=20)

    import warnings

    warnings.simplefilter("ignore")
    asyncio.run(main())
    print(json.dumps(tally), flush=True)
    os._exit(0)  # sockets still closing are the system's to close


def resident(pid: int) -> float:
    """A process's resident memory now (MB)."""
    try:
        with open(f"/proc/{pid}/status") as status:
            for line in status:
                if line.startswith("VmRSS:"):
                    return int(line.split()[1]) / 1024
    except OSError:
        pass
    return 0.0


def checked(host) -> int:
    """The wrong codes the host has checked so far."""
    host.stdin.write("checked\n")
    host.stdin.flush()
    return int(host.stdout.readline())


def flood(kind: str, port: int, code: str, host, args, n: int) -> dict:
    """One flood (``kind``, or every one for "all") for its window: five joins, the host's
    memory, the wrong codes checked."""
    kinds = FLOODS[:-1] if kind == "all" else [kind]
    handshakes = 1100 if args.quick else 5000
    pid = host.pid
    rest = resident(pid)
    peak = [rest]
    sampling = threading.Event()

    def sample() -> None:
        while not sampling.is_set():
            peak[0] = max(peak[0], resident(pid))
            sampling.wait(0.2)

    sampler = threading.Thread(target=sample, daemon=True)
    sampler.start()
    attacker = subprocess.Popen([sys.executable, __file__, "--attack", str(port), code, "--kinds", ",".join(kinds),
                                 "--addresses", str(args.addresses), "--handshakes", str(handshakes)],
                                stdin=subprocess.PIPE, stdout=subprocess.PIPE, text=True)
    players = ["Ann", "Ben", "Cat", "Dan", "Eve"]
    guessing = "guess" in kinds
    window = args.seconds if guessing else args.window
    joins: list[tuple[bool, float]] = []
    why: list[str] = []  # what a join that failed was told
    try:
        awaited = {"warm"} if guessing else set()  # every guesser past its free tries
        if "addresses" in kinds and kind == "all":  # and the addresses' one try each made before the window
            awaited.add("spread")
        while awaited:
            line = attacker.stdout.readline().strip()
            assert line in awaited, f"the attacker said {line!r}"
            awaited.discard(line)
        time.sleep(args.warm if guessing else 5.0)  # the flood under way
        attacker.stdin.write("count\n")
        attacker.stdin.flush()
        began, checked_before = time.monotonic(), checked(host)
        for k in range(5):
            time.sleep(max(0.0, began + (k + 0.5) * window / 5 - time.monotonic()))
            source = address(20000 + 20 * n + k)
            try:
                if guessing:  # one typo first (answered after half a second, as every wrong code is)
                    typo = ask(port, source, "000000" if code != "000000" else "111111", players[k])
                    if "not the join code" not in typo.get("refused", ""):
                        why.append(f"the typo: {typo}"[:120])
            except Exception as exc:  # noqa: BLE001
                why.append(f"the typo: {type(exc).__name__}: {exc}"[:120])
            t0 = time.monotonic()
            try:
                status = page(port, source)
                answer = ask(port, source, code, players[k]) if status == 200 else {"page": status}
                ok = answer.get("joined") == players[k]
                if not ok:
                    why.append(str(answer)[:120])
            except Exception as exc:  # noqa: BLE001
                ok = False
                why.append(f"{type(exc).__name__}: {exc}"[:120])
            joins.append((ok, time.monotonic() - t0))
        time.sleep(max(0.0, began + window - time.monotonic()))
        window = time.monotonic() - began
        in_window = checked(host) - checked_before - (5 if guessing else 0)  # less the players' typos
        tally = json.loads(attacker.communicate("stop\n", timeout=120)[0].strip().splitlines()[-1])
        tally.pop("warm", None)
    finally:
        if attacker.poll() is None:
            attacker.kill()
    time.sleep(args.settle)
    sampling.set()
    sampler.join()
    settled = resident(pid)
    rate = in_window / window * 60
    days = CODES / 2 / rate / 60 / 24 if guessing and rate else None
    return {"flood": kind, "joins_within_2s": sum(ok and took <= 2.0 for ok, took in joins), "joins": 5,
            "join_seconds": [round(took, 2) if ok else None for ok, took in joins],
            "rest_mb": round(rest), "peak_mb": round(peak[0]), "settled_mb": round(settled),
            "checked_a_minute": round(rate, 1) if guessing else None,
            "days_to_guess": None if days is None else round(days, 1) if rate else float("inf"),
            "failed": why, "attacker": tally}


def stop_once(delay: float, rng: random.Random) -> tuple[int, str]:
    """``voice-host play --phones`` with two phones streaming, Ctrl-C after ``delay``
    seconds: its exit status and the end of what it wrote on stderr."""
    import re
    import signal

    from websockets.sync.client import connect

    state = tempfile.mkdtemp(prefix="phones-stop-")
    env = {**os.environ, "XDG_CONFIG_HOME": state, "XDG_STATE_HOME": state, "XDG_DATA_HOME": state}
    host = subprocess.Popen([sys.executable, "-m", "voice_host.cli", "play", "--players", "Ann,Ben,Cat", "--phones",
                             "--no-voice", "--display-host", "127.0.0.1", "--display-port", "0"],
                            stdout=subprocess.PIPE, stderr=subprocess.PIPE, stdin=subprocess.DEVNULL, env=env, text=True)
    try:
        found = None
        for line in host.stdout:
            found = re.search(r"opens (https://\S+)/join .*enters the code (\d+)", line)
            if found:
                break
        assert found, "the host printed no join address"
        threading.Thread(target=lambda: [_ for _ in host.stdout], daemon=True).start()
        phones = []
        for name in ("Ann", "Ben"):
            ws = connect(found.group(1).replace("https", "wss") + "/phone", ssl=insecure(), open_timeout=30)
            ws.send(json.dumps({"code": found.group(2), "name": name, "rate": 48000}))
            assert json.loads(ws.recv(timeout=30)).get("joined") == name
            phones.append(ws)
        import numpy as np

        t = np.arange(1920) / 48000
        end = time.monotonic() + delay
        while time.monotonic() < end:
            for ws in phones:  # 40 ms blocks: a tone in noise, as loud as a voice
                block = 0.2 * np.sin(2 * np.pi * rng.uniform(150, 600) * t) + 0.05 * rng.gauss(0, 1)
                ws.send((block * 32767).astype("<i2").tobytes())
            time.sleep(0.04)
        errors: list[str] = []
        reader = threading.Thread(target=lambda: errors.append(host.stderr.read()), daemon=True)
        reader.start()
        host.send_signal(signal.SIGINT)
        try:
            code = host.wait(60)
        except subprocess.TimeoutExpired:
            return None, "still running a minute after Ctrl-C"
        reader.join(10)
        return code, "".join(errors)[-300:]
    finally:
        if host.poll() is None:
            host.kill()


def stops(n: int) -> int:
    import warnings

    warnings.simplefilter("ignore", DeprecationWarning)
    rng = random.Random(7)
    results = [stop_once(rng.uniform(2, 8), rng) for _ in range(n)]
    aborted = [err for code, err in results if code in (134, -6) or "terminate called" in err]
    print(f"Ctrl-C stops with phones streaming: {n}; exit 130: {sum(code == 130 for code, _ in results)}; "
          f"aborted: {len(aborted)} (target 0); still running a minute later: "
          f"{sum(code is None for code, _ in results)}; other exits: "
          f"{sorted(code for code, _ in results if code not in (130, None))}")
    for err in aborted[:3]:
        print("  " + err.strip().replace("\n", " | "))
    return 0


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--addresses", type=int, default=200, help="guessing addresses")
    parser.add_argument("--seconds", type=float, default=60.0, help="the window the guessers' rate is counted over")
    parser.add_argument("--window", type=float, default=20.0, help="the window of the other floods")
    parser.add_argument("--warm", type=float, default=15.0, help="seconds the guessers guess before the window "
                        "(their free tries spent)")
    parser.add_argument("--settle", type=float, default=10.0, help="seconds after a flood its settled memory is read")
    parser.add_argument("--floods", default=",".join(FLOODS), help=f"which, of {', '.join(FLOODS)}")
    parser.add_argument("--quick", action="store_true", help="shorter windows (30 s of guessing, 15 s of each "
                        "other flood), 1,100 handshakes")
    parser.add_argument("--json", action="store_true", help="the figures as JSON too, on the last line")
    parser.add_argument("--stops", type=int, default=0, help="instead: stop the real command N times by Ctrl-C")
    parser.add_argument("--attack", nargs=2, metavar=("PORT", "CODE"), help=argparse.SUPPRESS)
    parser.add_argument("--kinds", default="", help=argparse.SUPPRESS)
    parser.add_argument("--handshakes", type=int, default=5000, help=argparse.SUPPRESS)
    args = parser.parse_args()
    if args.stops:
        return stops(args.stops)
    if args.attack:
        return attack(int(args.attack[0]), args.attack[1], args.kinds.split(","), args.addresses, args.handshakes)
    if args.quick:
        args.seconds, args.window, args.warm = min(args.seconds, 30.0), min(args.window, 15.0), min(args.warm, 10.0)

    import resource

    def desktop() -> None:
        resource.setrlimit(resource.RLIMIT_NOFILE, (1024, 1024))  # the usual desktop limit

    state = tempfile.mkdtemp(prefix="phones-probe-")
    env = {**os.environ, "XDG_CONFIG_HOME": state, "XDG_STATE_HOME": state}
    host = subprocess.Popen([sys.executable, "-c", HOST], stdin=subprocess.PIPE, stdout=subprocess.PIPE,
                            stderr=subprocess.PIPE, env=env, text=True, preexec_fn=desktop)
    port_text, code = host.stdout.readline().split()
    port = int(port_text)
    results = []
    try:
        for n, kind in enumerate(k for k in args.floods.split(",") if k):
            result = flood(kind, port, code, host, args, n)
            results.append(result)
            print(f"{kind:>10}: joins within 2 s {result['joins_within_2s']} of 5 "
                  f"({', '.join('refused' if t is None else f'{t:.2f} s' for t in result['join_seconds'])}); "
                  f"memory {result['rest_mb']} MB before, peak {result['peak_mb']}, settled {result['settled_mb']}"
                  + (f"; {result['checked_a_minute']} codes checked a minute -> {result['days_to_guess']} days "
                     "to guess" if result["days_to_guess"] is not None else ""), flush=True)
    finally:
        _, err = host.communicate("\n", timeout=60)
    guessed = [r["days_to_guess"] for r in results if r["days_to_guess"] is not None]
    summary = {"floods": results, "host_stderr_lines": len(err.splitlines()),
               "days_to_guess_at_best_rate": min(guessed) if guessed else None,
               "targets": {"joins_within_2s": 5, "memory_mb": 600, "days_to_guess": 30}}
    print(f"targets: 5 of 5 joins within 2 s, at most 600 MB, >= 30 days; host's terminal: "
          f"{summary['host_stderr_lines']} lines{'' if not err else ': ' + err[:300]!r}")
    if args.json:
        print(json.dumps(summary))
    return 0


if __name__ == "__main__":
    sys.exit(main())
