"""benchmarks/latency.py's phones: the players' page, and a websocket per player fed the fake microphone."""

from __future__ import annotations

import faulthandler
import select
import subprocess
import sys
import threading
import time

from .fake_audio import FakeMic
from .latency_script import PLAYERS

JOIN_WAIT = 40
"""Seconds the phones' process has to join the game (each phone's handshake may take 30)."""
JOIN_TRIES = 3
"""Phones' processes started before the run gives up: in two of three full test runs on
this machine one process did not join (its handshakes never answered, though a
second process joins in well under a second), and the reason is not known yet."""
PHONES_PROCESS = """
import json, ssl, sys
import numpy as np, soxr
from websockets.sync.client import connect
url, code, players = sys.argv[1], sys.argv[2], sys.argv[3:]
context = ssl.create_default_context()
context.check_hostname, context.verify_mode = False, ssl.CERT_NONE  # the host's own certificate
sockets = []
for player in players:
    ws = connect(url, ssl=context, max_queue=None, legacy=True, open_timeout=30)
    ws.send(json.dumps({"code": code, "name": player, "rate": 48000}))
    assert json.loads(ws.recv(timeout=30))["joined"] == player
    sockets.append(ws)
print("joined", flush=True)
up = soxr.ResampleStream(16000, 48000, 1, dtype="float32")
while True:
    head = sys.stdin.buffer.read(3)
    if len(head) < 3:
        break
    owner, size = head[0], int.from_bytes(head[1:], "little")
    block = np.frombuffer(sys.stdin.buffer.read(size), "<f4")
    pcm = (np.clip(up.resample_chunk(block), -1, 1) * 32767).astype("<i2").tobytes()
    if pcm:  # the resampler is still filling at first
        for i, ws in enumerate(sockets):
            ws.send(pcm if i == owner else bytes(len(pcm)))
for ws in sockets:
    ws.close()
"""
"""The players' phones, in a process of their own (as phones are devices of their own):
one websocket per player, joined with the code as the page's script does, each block
from stdin resampled to 48 kHz and sent as 16-bit PCM to its owner's phone, silence to
the others."""


class PhoneLink:
    """The players' phones, played by the fake microphone: the players' page served over
    HTTPS on this machine and the phones in another process (PHONES_PROCESS), handed
    each microphone block with the player whose line it holds (phones listen all the
    time: the others send silence). The host listens to ``source``, a PhoneSource."""

    def __init__(self, mic: FakeMic) -> None:
        from voice_host.assembly import serve_phones
        from voice_host.phones import Phones
        from voice_host.phones.source import PhoneSource

        self.mic = mic
        self.hub = Phones(list(PLAYERS))
        self.display = serve_phones(self.hub, "127.0.0.1", 0)
        self.source = PhoneSource(self.hub)
        self.thread = threading.Thread(target=self._send, name="phones", daemon=True)
        self.phones: subprocess.Popen | None = None

    def start(self) -> None:
        for _ in range(JOIN_TRIES):
            self.phones = subprocess.Popen([sys.executable, "-c", PHONES_PROCESS,
                                            self.display.url.replace("https", "wss") + "phone", self.hub.code, *PLAYERS],
                                           stdin=subprocess.PIPE, stdout=subprocess.PIPE)
            # a websocket handshake that times out can leave websockets' client waiting on
            # its reader thread for ever: the phones get JOIN_WAIT seconds, then go
            ready, _, _ = select.select([self.phones.stdout], [], [], JOIN_WAIT)
            if ready and self.phones.stdout.readline().strip() == b"joined":
                return
            self.phones.kill()
            self.phones.wait()
            for _ in range(50):  # the page lets the killed phones go before others take their names
                if len(self.hub.missing()) == len(PLAYERS):
                    break
                time.sleep(0.1)
            print(f"latency: the phones could not join in {JOIN_WAIT} s; this process's threads:", file=sys.stderr)
            faulthandler.dump_traceback(sys.stderr, all_threads=True)
        raise RuntimeError(f"the phones could not join in {JOIN_TRIES} tries")

    def play(self) -> None:
        """The players' lines, from now on."""
        self.source.start()
        self.thread.start()

    def _send(self) -> None:
        owners = {p: i for i, p in enumerate(PLAYERS)}
        try:
            for chunk in self.mic:
                block = chunk.samples[:, 0].astype("<f4").tobytes()
                self.phones.stdin.write(bytes([owners.get(self.mic.owner, 255)]) + len(block).to_bytes(2, "little")
                                        + block)
                self.phones.stdin.flush()
        finally:
            self.source.close()  # the script is over: the host stops listening

    def close(self) -> None:
        self.mic.close()
        if self.thread.ident is not None:  # started (not when the phones could not join)
            self.thread.join(10)
        if self.phones is not None:
            self.phones.stdin.close()
            self.phones.wait(10)
        self.display.close()
