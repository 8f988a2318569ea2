"""How loud the room is, as the host hears it around the words.

A person keeping score at a loud table says so: "It's loud here, and I'm missing words."
Each utterance holds a little of the room before and after the word (the listener's
pre-roll and trailing silence), so how far its speech stood out from that sound
(speech.audio.speech_over_noise) is the noise the word met. When the words lately stood
out less than ``loud_below`` dB and the host has just missed one, it tells the table, at
most once every ``loud_every`` seconds. A quiet table, or a loud one where every word is
heard, is told nothing. In a room that is not quiet the host asks about the words it
doubts rather than take them (:attr:`Room.quiet`).
"""

from __future__ import annotations

import collections
from dataclasses import dataclass, field

import numpy as np

from voice_host.host.hearing.heard import Stage
from voice_host.speech.audio import speech_over_noise


@dataclass
class Room(Stage):
    """The room's noise around the last few words, and when the host last said it was loud."""

    heard: collections.deque = field(default_factory=lambda: collections.deque(maxlen=3))
    """How far each of the last few utterances stood out from the room (dB)."""
    told_at: float | None = None

    def hear(self, u) -> None:
        """Note how far utterance ``u`` stood out from the room (when its audio is known)."""
        audio = getattr(u, "audio", None)
        if audio is not None and len(audio):
            self.heard.append(speech_over_noise(audio))

    @property
    def loud(self) -> bool:
        """Whether the words lately stood out less than ``loud_below`` dB (the median of the last few)."""
        return len(self.heard) >= 2 and float(np.median(self.heard)) < self.settings.loud_below

    @property
    def quiet(self) -> bool:
        """Whether the words lately stood out at least ``take_over_noise`` dB (the median of
        the last few; True before any is measured): quiet enough to take a doubted word
        and let its player put it right (hearing.confirm)."""
        return not self.heard or float(np.median(self.heard)) >= self.settings.take_over_noise

    def missed(self, t: float) -> str | None:
        """A word was missed at ``t``: the sentence that says the room is too loud, when it
        is and the table was not told so in the last ``loud_every`` seconds."""
        if not self.loud or (self.told_at is not None and t - self.told_at < self.settings.loud_every):
            return None
        self.told_at = t
        return self.session.announcer.too_loud()
