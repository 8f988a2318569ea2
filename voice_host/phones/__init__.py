"""Every player's phone as their microphone: ``voice-host play --phones`` (docs/PHONES.md).

The live page's server (voice_host/display) also serves a player page, ``/join``, over
HTTPS (browsers give a microphone only to a secure page; cert.py makes a self-signed
certificate on the first run). A player opens it, types the four-digit join code the
host says and prints, picks their name, and the page sends the phone's microphone as
16-bit PCM frames over a websocket (web.py). :class:`Phones` (here) checks the code,
keeps one device per player, resamples each phone's audio to 16 kHz and buffers it;
source.PhoneSource reads the buffers as one channel per player, like ``--channels``:
attribution by channel.

Nothing but audio comes in: a phone can join (code, name, sample rate), send PCM
frames, and receive its own player's view. A malformed packet is dropped (too many and
the phone is disconnected); a flood of audio overwrites only that phone's own buffer.
"""

from __future__ import annotations

import hmac
import secrets
import threading
import time
from collections import deque
from dataclasses import dataclass, field
from pathlib import Path

import numpy as np

from voice_host.speech.audio import SAMPLE_RATE

RATES = (8000, 192000)
"""The sample rates a phone may announce (Hz), both included."""
MAX_FRAME_SECONDS = 1.0
"""The longest frame a phone may send at once; a longer one is malformed."""
BUFFERED = 5.0
"""Seconds of a phone's audio kept while the host has not read it; older audio goes first."""
PRIME = 0.12
"""Seconds of a phone's audio gathered before it is heard, after it ran dry: the network's
jitter is absorbed there, not as gaps in a word."""
MAX_MALFORMED = 50
"""Malformed packets a phone may send before it is disconnected."""
MAX_FAILURES = 5
"""Wrong join codes from one address before it must wait :data:`LOCKOUT` seconds."""
LOCKOUT = 60.0


def new_code() -> str:
    """A fresh four-digit join code."""
    return f"{secrets.randbelow(10000):04d}"


def spoken(code: str) -> str:
    """The code as the host says it, digit by digit: '4 8 1 5'."""
    return " ".join(code)


@dataclass
class _Phone:
    player: str
    rate: float
    resampler: object
    chunks: deque = field(default_factory=deque)
    buffered: int = 0
    primed: bool = False
    malformed: int = 0


class Refused(Exception):
    """A phone that may not join, with the sentence that says why."""


class Phones:
    """The phones of one game: ``join``, ``audio`` and ``leave`` from the server's thread,
    ``take`` from the listener's, ``notices`` from the game's."""

    def __init__(self, players, code: str | None = None, table_microphone: bool = False) -> None:
        self.players = list(players)
        self.code = code or new_code()
        self.table_microphone = table_microphone
        """Whether the laptop's microphone listens too (a dropped phone falls back to it)."""
        self.lock = threading.Lock()
        self.phones: dict[int, _Phone] = {}
        """Connection id -> the phone, while it is connected."""
        self.by_player: dict[str, int] = {}
        self.drained: dict[str, _Phone] = {}
        """Phones gone whose last audio is still to be heard."""
        self.failures: dict[str, tuple[int, float]] = {}
        self._notices: deque[str] = deque()
        self._next = 0
        self.dropped = 0
        """Malformed packets dropped so far (all phones)."""

    # ------------------------------------------------------------------ the server's side
    def join(self, code: object, name: object, rate: object, address: str = "") -> int:
        """A phone asks to be ``name``'s microphone; its connection id, or Refused."""
        now = time.monotonic()
        with self.lock:
            count, until = self.failures.get(address, (0, 0.0))
            if count >= MAX_FAILURES and now < until:
                raise Refused("Too many wrong codes from this device; wait a minute and try again.")
            if not isinstance(code, str) or not hmac.compare_digest(code.strip().encode(), self.code.encode()):
                count = 0 if now >= until and count >= MAX_FAILURES else count
                self.failures[address] = (count + 1, now + LOCKOUT)
                raise Refused("That is not the join code; the host says it and shows it on the laptop.")
            self.failures.pop(address, None)
            if not isinstance(name, str) or name not in self.players:
                raise Refused("Pick your name from the list.")
            if isinstance(rate, bool) or not isinstance(rate, (int, float)) or not RATES[0] <= rate <= RATES[1]:
                raise Refused("This browser's microphone rate is not one I can hear.")
            if name in self.by_player:
                raise Refused(f"{name} is already connected from another device.")
            from voice_host.speech.listening.sources import _Resampler

            self._next += 1
            self.phones[self._next] = _Phone(name, float(rate), _Resampler(float(rate), 1))
            self.by_player[name] = self._next
            self.drained.pop(name, None)
            return self._next

    def audio(self, conn: int, data: object) -> bool:
        """A frame from phone ``conn``: 16-bit little-endian mono PCM at its rate. False
        when it is malformed (dropped; the phone is to be disconnected after too many)."""
        with self.lock:
            phone = self.phones.get(conn)
            if phone is None:
                return False
            ok = isinstance(data, (bytes, bytearray)) and 0 < len(data) and len(data) % 2 == 0 \
                and len(data) <= 2 * MAX_FRAME_SECONDS * phone.rate
            if not ok:
                phone.malformed += 1
                self.dropped += 1
                return False
            samples = np.frombuffer(bytes(data), dtype="<i2").astype(np.float32) / 32768.0
            out = phone.resampler(samples.reshape(-1, 1))[:, 0]
            if out.size:
                phone.chunks.append(out)
                phone.buffered += out.size
                while phone.buffered > BUFFERED * SAMPLE_RATE and len(phone.chunks) > 1:
                    phone.buffered -= phone.chunks.popleft().size
            return True

    def too_malformed(self, conn: int) -> bool:
        with self.lock:
            phone = self.phones.get(conn)
            return phone is not None and phone.malformed > MAX_MALFORMED

    def leave(self, conn: int) -> None:
        """Phone ``conn`` is gone (closed, dropped or disconnected): its player is free
        again, the audio it sent is still heard, and the host says so."""
        with self.lock:
            phone = self.phones.pop(conn, None)
            if phone is None:
                return
            if self.by_player.get(phone.player) == conn:
                del self.by_player[phone.player]
            phone.primed = True  # what it sent last is heard to the end
            self.drained[phone.player] = phone
            if self.table_microphone:
                self._notices.append(f"{phone.player}, I lost your phone; I'll listen on the table's microphone.")
            else:
                self._notices.append(f"{phone.player}, I lost your phone; open the page again to rejoin.")

    def connected(self) -> list[str]:
        with self.lock:
            return [p for p in self.players if p in self.by_player]

    # ------------------------------------------------------------------ the host's side
    def take(self, frames: int) -> np.ndarray:
        """The next ``frames`` samples of each player's phone, (frames, players): silence
        where a phone has sent nothing (or is still gathering its first moments)."""
        out = np.zeros((frames, len(self.players)), np.float32)
        with self.lock:
            live = {self.phones[c].player: self.phones[c] for c in self.by_player.values()}
            for i, player in enumerate(self.players):
                phone = live.get(player) or self.drained.get(player)
                if phone is None:
                    continue
                if not phone.primed:
                    if phone.buffered < PRIME * SAMPLE_RATE:
                        continue
                    phone.primed = True
                got = 0
                while got < frames and phone.chunks:
                    chunk = phone.chunks[0]
                    n = min(frames - got, chunk.size)
                    out[got:got + n, i] = chunk[:n]
                    got += n
                    if n == chunk.size:
                        phone.chunks.popleft()
                    else:
                        phone.chunks[0] = chunk[n:]
                phone.buffered -= got
                if not phone.chunks:
                    if player in self.drained and self.drained[player] is phone:
                        del self.drained[player]
                    phone.primed = False
        return out

    def notices(self) -> list[str]:
        """Sentences for the host to say (a phone lost), once each."""
        with self.lock:
            lines = list(self._notices)
            self._notices.clear()
        return lines

    def join_sentence(self, url: str) -> str:
        """What the host says so the players can join."""
        return f"To use your phone as your microphone, open {url} and enter the code {spoken(self.code)}."





def serving(phones: Phones, host: str):
    """(extra routes, (certificate, key)) for the live page's server to serve the phones."""
    from voice_host.display.server import reachable_address
    from voice_host.phones import cert, web
    from voice_host.errors import UserError

    try:
        tls = cert.certificate(reachable_address(host).strip("[]"))
    except OSError as exc:
        raise UserError(f"I can't keep the phones' certificate in {cert.folder()}: {exc.strerror or exc}.") from exc
    return (lambda server: web.routes(phones, server.latest)), tls


def join_url(display) -> str:
    return display.url + "join"


def how_to_join(phones: Phones, display) -> str:
    """What the terminal shows: where to go, the code, and how to accept the certificate."""
    from voice_host.phones import cert

    cert_path = display.server.tls[0] if display.server.tls else None
    lines = [f"phones: each player opens {join_url(display)} on their phone (same network), "
             f"enters the code {phones.code} and picks their name.",
             "phones: the page's certificate is this host's own, so the browser warns once: choose "
             "'Advanced', then 'Proceed' (Chrome) or 'Show details', then 'visit this website' (Safari)."]
    if cert_path is not None:
        lines.append(f"phones: its fingerprint (SHA-256) is {cert.fingerprint(Path(cert_path))}.")
    return "\n".join(lines)


__all__ = ["Phones", "Refused", "how_to_join", "join_url", "new_code", "serving", "spoken"]
