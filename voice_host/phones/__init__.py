"""Every player's phone as their microphone: ``voice-host play --phones`` (docs/PHONES.md).

The host's web server (voice_host/web, beside the scoreboard: voice_host.assembly
composes them) also serves a player page, ``/join``, over HTTPS (browsers give a microphone only to a secure page; cert.py makes a self-signed
certificate on the first run). A player opens it, types the six-digit join code the
host says and prints, picks their name, and the page sends the phone's microphone as
16-bit PCM frames over a websocket (web.py). :class:`Phones` (here) checks the code,
keeps one device per player, resamples each phone's audio to 16 kHz and buffers it;
source.PhoneSource reads the buffers as one channel per player, like ``--channels``:
attribution by channel. A phone in push-to-talk sends audio only while its button is
held, and says when it is let go: the utterance ends there, with no silence waited for.

Nothing but audio comes in: a phone can join (code, name, sample rate), send PCM
frames and say its talk button was let go, and receive its own player's view. A
malformed packet is dropped (too many and the phone is disconnected); a flood of audio
overwrites only that phone's own buffer. Wrong codes are limited per address and for
the whole server (:meth:`Phones.join`); the table can free a seat and change the code
(``free``, ``renew``); the code is never shown to another device (``hidden``).
"""

from __future__ import annotations

import hashlib
import hmac
import sys
import secrets
import threading
import time
from collections import deque
from dataclasses import dataclass, field
from pathlib import Path

import numpy as np

from voice_host.speech.audio import SAMPLE_RATE, rms

RATES = (8000, 192000)
"""The sample rates a phone may announce (Hz), both included."""
MAX_FRAME_SECONDS = 0.5
"""The longest frame a phone may send at once (its page sends 40 ms); a longer one is
malformed (and one over the server's 64 KiB closes the socket)."""
BUFFERED = 5.0
"""Seconds of a phone's audio kept while the host has not read it; older audio goes first."""
LATE = 0.3
"""Seconds the host waits for a phone's audio that is due (the network's jitter, a busy
phone) before it goes on without it; what comes later is still heard, after."""
LATE_IN_WORD = 1.0
"""... and for a phone whose audio stopped in the middle of a word (its last 20 ms as
loud as a voice): silence put in a word ends the utterance there and loses the rest."""
VOICE_LEVEL = 10 ** (-45 / 20)
"""The level (RMS) of a phone's audio that is a voice, not the room's quiet."""
MAX_MALFORMED = 50
"""Malformed packets a phone may send before it is disconnected."""
CODE_DIGITS = 6
"""Digits in the join code: a million codes."""
MAX_FAILURES = 5
"""Wrong join codes from one address before it must wait :data:`LOCKOUT` seconds."""
LOCKOUT = 60.0
WRONG_PER_MINUTE = 10
"""Wrong join codes the whole server checks a minute, from addresses that have already
given :data:`FREE_TRIES` wrong ones (an address's first tries are always checked):
guessing one of a million codes takes 50,000 minutes (35 days) on average at this rate,
from any number of addresses, while a player with the code always gets in."""
WRONG_BURST = 10
"""Wrong codes checked at once before :data:`WRONG_PER_MINUTE` holds them back."""
FREE_TRIES = 3
"""Wrong codes from one address always checked, whatever others guess: a player who
mistypes the code once or twice still gets in at once."""
TRIED_SLOTS = 1 << 22
"""Slots the addresses' wrong codes are counted in (a byte each, 4 MiB): an address is
counted in the slot a secret hash gives it, so millions of guessing addresses are told
apart from a new one in all but about one case in 4 million for each."""
REMEMBERED = 4096
"""Addresses whose wrong codes in a row (the lockout) are remembered; beyond it the
longest unheard is forgotten (its tries still count in its slot)."""
JOINED_REMEMBERED = 64
"""Addresses that joined this game: always checked, never counted among guessers."""
CHURN = 10.0
"""Seconds after the host said a player's phone joined or was lost before it says it
again: a phone that joins and leaves in a loop is said once, then its last state."""
RELEASED = None
"""In a phone's queue: its talk button was let go here (the utterance ends)."""


def new_code() -> str:
    """A fresh six-digit join code."""
    return f"{secrets.randbelow(10 ** CODE_DIGITS):0{CODE_DIGITS}d}"


def _who(address: str) -> str:
    """The key an address's wrong codes are kept under: itself, or its /64 for IPv6 (one
    device may hold a whole /64)."""
    import ipaddress

    try:
        ip = ipaddress.ip_address(address.removeprefix("::ffff:"))
    except ValueError:
        return address
    return str(ipaddress.ip_network(f"{ip}/64", strict=False)) if ip.version == 6 else str(ip)


@dataclass
class _Phone:
    player: str
    rate: float
    resampler: object
    chunks: deque = field(default_factory=deque)
    """Resampled audio, and :data:`RELEASED` where its talk button was let go."""
    buffered: int = 0
    arrived: float = 0.0
    """When its last audio came (time.monotonic)."""
    talking: bool = False
    """It sent audio since its talk button was last let go."""
    in_word: bool = False
    """Its audio handed out last ended as loud as a voice: a word may be under way."""
    malformed: int = 0

    @property
    def patience(self) -> float:
        """How long its audio is waited for once due: :data:`LATE`, or
        :data:`LATE_IN_WORD` when it stopped in a word."""
        return LATE_IN_WORD if self.in_word else LATE


def refusal(why: str, player: str | None = None, retry: float | None = None) -> str:
    """What a phone's page says when it may not join or is let go: ``why`` (the
    announcer's phone_refused kinds)."""
    from voice_host.host.announcer import Announcer

    return Announcer().phone_refused(why, player, retry)


class Refused(Exception):
    """A phone that may not join: ``why`` (the announcer's phone_refused kinds), and the
    sentence its page says (:func:`refusal`); ``retry``: the seconds after which trying
    again may work (None: try again now, with the right code or name)."""

    def __init__(self, why: str, player: str | None = None, retry: float | None = None) -> None:
        super().__init__(refusal(why, player, retry))
        self.why, self.retry = why, retry


class Phones:
    """The phones of one game: ``join``, ``audio`` and ``leave`` from the server's thread,
    ``take`` from the listener's, ``events`` from the game's."""

    def __init__(self, players, code: str | None = None, table_microphone: bool = False, clock=time.monotonic) -> None:
        self.players = list(players)
        self.code = code or new_code()
        self.clock = clock
        """The clock the limits and the churn are counted on (a test drives its own)."""
        self.table_microphone = table_microphone
        """Whether the laptop's microphone listens too (a dropped phone falls back to it)."""
        self.lock = threading.Lock()
        self.phones: dict[int, _Phone] = {}
        """Connection id -> the phone, while it is connected."""
        self.by_player: dict[str, int] = {}
        self.drained: dict[str, _Phone] = {}
        """Phones gone whose last audio is still to be heard."""
        self.failures: dict[str, tuple[int, float]] = {}
        """Address -> (wrong codes in a row, until when it waits after too many), the
        longest unheard first (at most :data:`REMEMBERED`)."""
        self.tried = np.zeros(TRIED_SLOTS, np.uint8)
        """Wrong codes from each address (in its slot) this code."""
        self.salt = secrets.token_bytes(16)
        self.joined_from: dict[str, None] = {}
        """Addresses that joined this game (the table's own phones): always checked."""
        self.allowance = float(WRONG_BURST)
        """Wrong codes the server may still check now from addresses already wrong once."""
        self.refilled = clock()
        self.guessing_said = False
        self.said: dict[str, tuple[str, float]] = {}
        """Player -> what the host last said of their phone ("joined" or "lost"), and when."""
        self._events: deque[tuple[str, str]] = deque()
        self._next = 0
        self.dropped = 0
        self.checked = 0
        """Wrong codes checked so far (what a guesser learns something from)."""
        """Malformed packets dropped so far (all phones)."""
        self.listening = False
        """Whether the host is listening to the phones yet (:meth:`listen`, by the phones'
        source as the listener starts reading it): until then a phone is told to wait,
        and sends nothing."""
        self.url = ""
        """Where the players open the page (:meth:`served_at`, once the server listens)."""

    # ------------------------------------------------------------------ the host's side
    def listen(self, listening: bool) -> None:
        """The host starts (True) or stops listening to the phones."""
        self.listening = listening

    def served_at(self, url: str) -> None:
        """The players open the page at ``url`` (the server listens)."""
        self.url = url

    def table_has_microphone(self, present: bool) -> None:
        """Whether the table's own microphone is heard beside the phones (the host says
        so when a phone is lost)."""
        self.table_microphone = present

    # ------------------------------------------------------------------ the server's side
    def join(self, code: object, name: object, rate: object, address: str = "") -> int:
        """A phone asks to be ``name``'s microphone; its connection id, or Refused.

        A wrong code is counted against its address (after :data:`MAX_FAILURES` the
        address waits :data:`LOCKOUT` seconds, the right code or not) and, from an address
        already wrong :data:`FREE_TRIES` times, against the whole server
        (:data:`WRONG_PER_MINUTE`): when that is spent, such addresses are told to wait
        and their code is not checked. An address's first tries are always checked, and
        an address that joined is always checked, so a player with the code (or one who
        mistyped it once or twice) gets in however many others guess."""
        now = self.clock()
        who = _who(address)
        with self.lock:
            self.allowance = min(float(WRONG_BURST), self.allowance + (now - self.refilled) * WRONG_PER_MINUTE / 60)
            self.refilled = now
            count, until = self.failures.get(who, (0, 0.0))
            if count >= MAX_FAILURES and now < until:
                raise Refused(why="locked", retry=until - now)
            if count >= MAX_FAILURES:
                count = 0
            slot = self._slot(who)
            known = self.tried[slot] >= FREE_TRIES and who not in self.joined_from
            if known and self.allowance < 1:
                self._guessed()
                raise Refused(why="guessing", retry=(1 - self.allowance) * 60 / WRONG_PER_MINUTE)
            if not isinstance(code, str) or not hmac.compare_digest(code.strip().encode(), self.code.encode()):
                self.checked += 1
                if known:
                    self.allowance -= 1
                self.tried[slot] = min(255, int(self.tried[slot]) + 1)
                self.failures.pop(who, None)  # the longest unheard first
                self.failures[who] = (count + 1, now + LOCKOUT)
                while len(self.failures) > REMEMBERED:
                    del self.failures[next(iter(self.failures))]
                raise Refused(why="code")
            self.failures.pop(who, None)
            self.joined_from.pop(who, None)
            self.joined_from[who] = None
            while len(self.joined_from) > JOINED_REMEMBERED:
                del self.joined_from[next(iter(self.joined_from))]
            if not isinstance(name, str) or name not in self.players:
                raise Refused(why="name")
            if isinstance(rate, bool) or not isinstance(rate, (int, float)) or not RATES[0] <= rate <= RATES[1]:
                raise Refused(why="rate")
            if name in self.by_player:
                raise Refused(why="taken", player=name)
            from voice_host.speech.listening.sources import Resampler

            self._next += 1
            self.phones[self._next] = _Phone(name, float(rate), Resampler(float(rate), 1))
            self.by_player[name] = self._next
            self.drained.pop(name, None)
            self._events.append(("joined", name))
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
            phone.arrived, phone.talking = self.clock(), True
            if out.size:
                if phone.chunks and phone.chunks[-1] is RELEASED:
                    phone.chunks.pop()  # talking again before the release was heard: one utterance
                phone.chunks.append(out)
                phone.buffered += out.size
                while phone.buffered > BUFFERED * SAMPLE_RATE and len(phone.chunks) > 1:
                    oldest = phone.chunks.popleft()
                    phone.buffered -= 0 if oldest is RELEASED else oldest.size
            return True

    def release(self, conn: int) -> None:
        """Phone ``conn``'s talk button was let go: its utterance ends after the audio it sent."""
        with self.lock:
            phone = self.phones.get(conn)
            if phone is not None and phone.talking:
                phone.chunks.append(RELEASED)
                phone.talking = False

    def _slot(self, who: str) -> int:
        """The slot ``who``'s wrong codes are counted in (a keyed hash: nobody can aim at another's)."""
        digest = hashlib.blake2b(who.encode(), key=self.salt, digest_size=8).digest()
        return int.from_bytes(digest, "little") % TRIED_SLOTS

    def _guessed(self) -> None:
        """Someone keeps trying wrong codes: the host says so, once a code (the lock held)."""
        if not self.guessing_said:
            self.guessing_said = True
            self._events.append(("guessing", ""))

    def renew(self) -> str:
        """A new join code ("new code" at the table): the old one no longer lets anyone in,
        and every address is forgiven its wrong tries at the old one."""
        with self.lock:
            self.code = new_code()
            self.failures.clear()
            self.tried[:] = 0
            self.salt = secrets.token_bytes(16)
            self.allowance, self.refilled = float(WRONG_BURST), self.clock()
            self.guessing_said = False
            return self.code

    def free(self, player: str) -> bool:
        """Disconnect ``player``'s phone ("free Ann's phone": lost, or someone else's):
        their seat is free for the phone that joins next with the code. False when no
        phone was connected for them."""
        with self.lock:
            conn = self.by_player.get(player)
        if conn is None:
            return False
        self.leave(conn)
        with self.lock:  # the host says it freed the seat: not also that it lost the phone
            self.said[player] = ("lost", float("-inf"))
        return True

    def is_connected(self, conn: int) -> bool:
        """Whether phone ``conn`` is still a player's (not left, nor freed by the table)."""
        with self.lock:
            return conn in self.phones

    def hidden(self) -> list[str]:
        """What no other device may be shown: the join code, as printed and as said."""
        code = self.code
        return [" ".join(code), code]

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
            self.drained[phone.player] = phone  # what it sent last is heard to the end
            self._events.append(("lost", phone.player))

    def connected(self) -> list[str]:
        with self.lock:
            return [p for p in self.players if p in self.by_player]

    def missing(self) -> list[str]:
        """The players without a phone connected, in order."""
        with self.lock:
            return [p for p in self.players if p not in self.by_player]

    # ------------------------------------------------------------------ the host's side
    def _sending(self) -> list[_Phone]:
        """The phones whose audio is on the way (the lock held): each sent some within
        :data:`LATE` seconds, or :data:`LATE_IN_WORD` when it stopped in a word."""
        now = self.clock()
        return [p for p in self.phones.values() if now - p.arrived < p.patience]

    def ahead(self, frames: int) -> bool:
        """Whether the phones have ``frames`` samples ready before they fall due: one is
        sending and every phone that is has them (the listener may have them now)."""
        with self.lock:
            sending = self._sending()
            return bool(sending) and all(p.buffered >= frames for p in sending)

    def waiting_for(self, frames: int, late: float) -> bool:
        """Whether a phone that is sending has less than ``frames`` samples ready, for
        samples ``late`` seconds past due: its audio is on the way, and waited for
        :data:`LATE` seconds (:data:`LATE_IN_WORD` in a word). A phone gone quiet
        (push-to-talk, a stalled network) is not waited for."""
        with self.lock:
            return any(p.buffered < frames and (not p.chunks or p.chunks[-1] is not RELEASED)
                       and late < p.patience for p in self._sending())

    def take(self, frames: int) -> tuple[np.ndarray, tuple[int, ...]]:
        """The next ``frames`` samples of each player's phone, (frames, players): silence
        where a phone has sent nothing (the rest of its audio comes in the next takes);
        and the players (their indexes) whose talk button was let go within them."""
        out = np.zeros((frames, len(self.players)), np.float32)
        released = []
        with self.lock:
            live = {self.phones[c].player: self.phones[c] for c in self.by_player.values()}
            for i, player in enumerate(self.players):
                phone = live.get(player) or self.drained.get(player)
                if phone is None:
                    continue
                got = 0
                while got < frames and phone.chunks:
                    chunk = phone.chunks[0]
                    if chunk is RELEASED:
                        phone.chunks.popleft()
                        released.append(i)
                        break  # the rest of this take is silence: the utterance is over
                    n = min(frames - got, chunk.size)
                    out[got:got + n, i] = chunk[:n]
                    got += n
                    if n == chunk.size:
                        phone.chunks.popleft()
                    else:
                        phone.chunks[0] = chunk[n:]
                phone.buffered -= got
                if got:
                    phone.in_word = rms(out[max(0, got - SAMPLE_RATE // 50):got, i]) >= VOICE_LEVEL
                if not phone.chunks and self.drained.get(player) is phone:
                    del self.drained[player]
        return out, tuple(released)

    def events(self) -> list[tuple[str, str]]:
        """What happened to the phones since last asked, once each: ("joined", player) or
        ("lost", player), for the host to say."""
        with self.lock:
            happened = list(self._events)
            self._events.clear()
        return happened

    def notices(self, announcer) -> list[str]:
        """What the host says about the phones since last asked, in ``announcer``'s words:
        each player's phone joined or lost, said once for a change that holds (a phone
        that joins and leaves again and again is said at most once in :data:`CHURN`
        seconds, then its last state); someone trying wrong codes, once."""
        now = self.clock()
        lines = []
        for happened, player in self.events():
            if happened == "guessing":
                lines.append(announcer.phone_guessing())
        with self.lock:
            for player in self.players:
                state = "joined" if player in self.by_player else "lost"
                last, when = self.said.get(player, ("lost", float("-inf")))
                if state != last and now - when >= CHURN:
                    self.said[player] = (state, now)
                    lines.append(announcer.phone(state, player, self.table_microphone))
        return lines


def qr_code(url: str):
    """The join address as a QR code (segno), for the terminal and the scoreboard."""
    import segno

    return segno.make(url, error="m")


def terminal_qr(url: str, colour: bool = False) -> str:
    """The join address as a QR code drawn in text, two modules a character (half
    blocks). ``colour``: black on white whatever the terminal's own colours (ANSI codes,
    for a terminal); else light modules as blocks, right on a dark terminal."""
    rows = [list(row) for row in qr_code(url).matrix_iter(scale=1, border=4)]  # 1: dark
    if len(rows) % 2:
        rows.append([0] * len(rows[0]))
    lines = []
    for top, bottom in zip(rows[::2], rows[1::2]):
        if colour:  # the upper half's colour in front, the lower's behind
            lines.append("".join(f"\x1b[{30 if t else 97};{40 if b else 107}m▀" for t, b in zip(top, bottom))
                         + "\x1b[0m")
        else:
            lines.append("".join(" ▄▀█"[(not t) * 2 + (not b)] for t, b in zip(top, bottom)))
    return "\n".join(lines)


def how_to_join(phones: Phones, display) -> str:
    """What the terminal shows: where to go (as text and a QR code), the code, and how to
    accept the certificate of ``display``'s server (the one serving the players' page)."""
    from voice_host.phones import cert

    cert_path = display.server.tls[0] if display.server.tls else None
    lines = [f"phones: each player opens {phones.url} on their phone (same network), or scans this code, "
             f"enters the code {phones.code} and picks their name.", terminal_qr(phones.url, sys.stdout.isatty()),
             "phones: the page's certificate is this host's own, so the browser warns once: choose "
             "'Advanced', then 'Proceed' (Chrome) or 'Show details', then 'visit this website' (Safari)."]
    if cert_path is not None:
        lines.append(f"phones: its fingerprint (SHA-256) is {cert.fingerprint(Path(cert_path))}.")
    return "\n".join(lines)


__all__ = ["Phones", "Refused", "how_to_join", "new_code", "qr_code", "terminal_qr"]
