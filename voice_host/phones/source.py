"""The phones as an audio source: one channel per player (its phone), and, at a mixed
table, the laptop's microphone as the last channel.

A chunk is handed out once it is due (by the clock, or when the laptop's microphone
gives its own) and every phone that is sending has its audio for it there: a phone
whose audio is late (the network's jitter) is waited for, up to phones.LATE seconds
(phones.LATE_IN_WORD when its audio stopped in a word), so a word is not cut by a
gap; after that the source goes on and the late audio follows. A chunk is handed out
before it is due only when the phones' audio for it is all there (a phone's blocks and
our clock are not in step), so a quiet table costs nothing and a word reaches the
listener as soon as it has arrived.
"""

from __future__ import annotations

import threading
import time
from typing import Iterator

import numpy as np

from voice_host.messages import AudioChunk
from voice_host.phones import LATE
from voice_host.speech.audio import SAMPLE_RATE


class PhoneSource:
    """Each player's phone as a channel (``phones.players`` in order), then ``base``'s
    (the table's microphone, mixed to one channel) when there is one."""

    def __init__(self, phones, base=None, chunk_seconds: float = 0.02) -> None:
        self.phones, self.base = phones, base
        self.channels = len(phones.players) + (1 if base is not None else 0)
        self.step = max(1, int(round(chunk_seconds * SAMPLE_RATE)))
        self.delay = LATE
        """How much later than the clock a phone's audio may come (the listener's echo gate
        expects the host's voice back on a phone this much later than on a microphone)."""
        self._t0: float | None = None
        self.now = phones.clock
        """The clock the source keeps pace by (the phones')."""
        self._closed = threading.Event()

    @property
    def realtime(self) -> bool:
        """Paced by the world: the clock, or the table's microphone (a recording in tests is not)."""
        return getattr(self.base, "realtime", True) if self.base is not None else True

    @property
    def channel_players(self) -> list[str | None]:
        """The player on each channel (None: the table's microphone, attributed by name)."""
        return list(self.phones.players) + ([None] if self.base is not None else [])

    def start(self) -> None:
        if callable(getattr(self.base, "start", None)):
            self.base.start()
        if self._t0 is None:
            self._t0 = self.now()

    def clock(self) -> float:
        if callable(getattr(self.base, "clock", None)):
            return self.base.clock()
        return 0.0 if self._t0 is None else self.now() - self._t0

    def _wait_for_phones(self, frames: int, due: float) -> None:
        """Until the phones that are sending have ``frames`` samples each, or they are too
        late (:meth:`Phones.waiting_for`; ``due`` on the source's clock)."""
        while not self._closed.is_set() and self.phones.waiting_for(frames, self.now() - due):
            time.sleep(0.005)

    def __iter__(self) -> Iterator[AudioChunk]:
        self.start()
        self.phones.listen(True)  # the phones may speak now: the listener reads them
        if self.base is not None:
            for chunk in self.base:
                if self._closed.is_set():
                    break
                table = chunk.samples.mean(axis=1, keepdims=True)
                if self.realtime:
                    self._wait_for_phones(table.shape[0], self.now())
                phones, done = self.phones.take(table.shape[0])
                yield AudioChunk(chunk.start, np.hstack([phones, table]), done)
            return
        produced = 0
        while not self._closed.is_set():
            due = self._t0 + (produced + self.step) / SAMPLE_RATE
            wait = due - self.now()
            if wait > 0 and not self.phones.ahead(self.step):
                time.sleep(min(0.01, wait))
                continue
            self._wait_for_phones(self.step, due)
            yield AudioChunk(produced / SAMPLE_RATE, *self.phones.take(self.step))
            produced += self.step

    def close(self) -> None:
        self._closed.set()
        self.phones.listen(False)
        if self.base is not None:
            self.base.close()


__all__ = ["PhoneSource"]
