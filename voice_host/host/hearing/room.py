"""How loud the room is, as the host hears it around the words.

A person keeping score at a loud table says so: "It's loud here, and I'm missing words."
Each utterance holds a little of the room before and after the word (the listener's
pre-roll and trailing silence), so how far its speech stood out from that sound
(speech.audio.speech_over_noise) is the noise the word met. When the words lately stood
out less than ``loud_below`` dB and the host has just missed one, it tells the table, at
most once every ``loud_every`` seconds. Talk in the room (a television, another
conversation) stands out from the room as clearly as the players do, so it is known
otherwise: by the room's own speech the hearing set aside (hearing.attribute,
``Voices.background``), ``TALK_COUNT`` utterances within ``TALK_WITHIN`` seconds; a word
missed then is told the table the same way ("I can hear other people talking ..."). A
quiet table, or a loud one where every word is heard, is told nothing. In a room that
is not quiet the host asks about the words it doubts rather than take them
(:attr:`Room.quiet`). Talk has gaps, and a word stands out from them as from a quiet
room: the listener also says how loud all the room's sound was around each utterance
(its ``room``), and a word that stood out less than ``talk_below`` dB from that is in a
loud room too. With one microphone, the first word missed in a loud or talking room (or
the third missed within a few minutes, whatever the room) makes the host offer the
players their phones as microphones, once; on a player's own microphone the advice is
to hold it close.
"""

from __future__ import annotations

import collections
from dataclasses import dataclass, field

import numpy as np

from voice_host.host.hearing.heard import Stage
from voice_host.speech.audio import speech_level, speech_over_noise


TALK_COUNT = 3
TALK_WITHIN = 30.0
"""The room talks when the hearing set aside this many utterances of the room's speech
within this many seconds (with talk 15 dB under the players, the benchmark's table set
one aside every 2-10 s; a cough or a door is one)."""

MISSES = 3
MISSED_WITHIN = 180.0
"""One microphone that missed this many words within this many seconds cannot hear the
table, however quiet the room seems: the host offers the players their phones."""


@dataclass
class Room(Stage):
    """The room's noise around the last few words, and when the host last said it was loud."""

    heard: collections.deque = field(default_factory=lambda: collections.deque(maxlen=3))
    """How far each of the last few utterances stood out from the room (dB)."""
    over_room: collections.deque = field(default_factory=lambda: collections.deque(maxlen=3))
    """How far each of the last few utterances stood out from all the room's sound the
    microphone heard around it, talk included (dB; the listener's ``room``)."""
    own: bool = False
    """The last utterance came from its player's own microphone (a phone, a channel)."""
    misses: collections.deque = field(default_factory=lambda: collections.deque(maxlen=MISSES))
    """When the last few words were missed on one microphone."""
    offered: bool = False
    """The host has offered the players their phones."""
    told_at: float | None = None
    talk_at: collections.deque = field(default_factory=lambda: collections.deque(maxlen=TALK_COUNT))
    """When the last few utterances of the room's own speech began."""

    def hear(self, u) -> None:
        """Note how far utterance ``u`` stood out from the room (when its audio is known)."""
        audio = getattr(u, "audio", None)
        self.own = getattr(u, "speaker_method", None) == "channel"
        if audio is not None and len(audio):
            self.heard.append(speech_over_noise(audio))
            room = getattr(u, "room", None)
            if room is not None:
                self.over_room.append(speech_level(audio) - room)

    @property
    def stood_out(self) -> float | None:
        """How far the last few utterances stood out from the room (their median, dB;
        None before any is measured)."""
        return float(np.median(self.heard)) if self.heard else None

    @property
    def loud(self) -> bool:
        """Whether the words lately stood out less than ``loud_below`` dB from the room's
        noise, or less than ``talk_below`` from all its sound, talk included (two
        measured at least)."""
        over_room = float(np.median(self.over_room)) if len(self.over_room) >= 2 else None
        return len(self.heard) >= 2 and self.stood_out < self.settings.loud_below \
            or over_room is not None and over_room < self.settings.talk_below

    @property
    def quiet(self) -> bool:
        """Whether the words lately stood out at least ``take_over_noise`` dB (True before
        any is measured): quiet enough to take a doubted word and let its player put it
        right (hearing.confirm)."""
        return self.stood_out is None or self.stood_out >= self.settings.take_over_noise

    def talk(self, t: float) -> None:
        """Speech of the room's own (not the table's) began at ``t``."""
        self.talk_at.append(t)

    def talking(self, t: float) -> bool:
        """Whether the room has been talking lately (``TALK_COUNT`` within ``TALK_WITHIN`` s)."""
        return len(self.talk_at) == TALK_COUNT and t - self.talk_at[0] <= TALK_WITHIN

    def missed(self, t: float) -> str | None:
        """A word was missed at ``t``: the sentence that says the room is too loud, or
        talks, when it does and the table was not told so in the last ``loud_every``
        seconds; with one microphone that cannot hear the table, once, the offer of the
        players' phones."""
        announce = self.session.announcer
        if not self.own:
            self.misses.append(t)
            many = len(self.misses) == MISSES and t - self.misses[0] <= MISSED_WITHIN
            if (self.loud or self.talking(t) or many) and not self.offered:
                self.offered, self.told_at = True, t
                return announce.offer_phones()
        if self.told_at is not None and t - self.told_at < self.settings.loud_every:
            return None
        sentence = announce.too_loud(self.own) if self.loud else \
            announce.room_talks(self.own) if self.talking(t) else None
        if sentence is not None:
            self.told_at = t
        return sentence
