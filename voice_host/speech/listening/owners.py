"""A microphone per player (phones, ``--channels``): each microphone's own player.

At a real table every microphone hears every player: a player's word reaches the other
players' microphones too, 10 to 20 dB lower and a little later, and the room's talk is
under them all. The listener learns the level each microphone's own player speaks at
from the words heard on it (:class:`Owners`), and with it:

- sound ``owner_below`` dB under that level is not the player (the room, a voice
  further off): it neither starts nor holds an utterance on that microphone (the
  segmenter's floor for the channel), and an utterance at that level is the room's;
- an utterance that another player's microphone heard ``copy_db`` louder, each against
  its own player's level, rising and falling with it (``copy_likeness``), is that
  player's word heard again: one sound, one player. Two players who speak at the same
  moment are each loudest on their own microphone, and their words' shapes differ:
  both count.
"""

from __future__ import annotations

from typing import Mapping

import numpy as np

from .config import TurnConfig

KEPT = 8
"""The owner's last utterances whose levels are remembered."""
LOUD = 10.0
"""An utterance's loud moments: its frames within this many dB of its loudest (its
player's vowels, where their own microphone hears them over anyone else)."""
QUIETED = 20.0
"""How much quieter the room between a player's words is made on their own microphone (dB)."""
QUIETED_AFTER = 5
"""... once this many frames in a row are that quiet (a word's soft sounds are near its loud ones)."""
QUIETEST = -70.0
"""Frame levels are compared above this (dBFS): silence is all alike."""


class Owners:
    """The players of a listener's channels and the level each speaks at on their own."""

    def __init__(self, channel_players: Mapping[int, str | None], channels: int, config: TurnConfig) -> None:
        self.config = config
        self.owned = [c for c in range(channels) if channel_players.get(c)]
        """The channels with a player of their own (a shared microphone has none)."""
        self.levels: dict[int, list[float]] = {}
        """Per owned channel: its player's speech level in their last utterances (dBFS)."""

    def level(self, ch: int) -> float | None:
        """The level channel ``ch``'s own player speaks at on it (dBFS); None: not known yet."""
        heard = self.levels.get(ch)
        if not heard:
            return None
        loud = max(heard)  # what was far under it was the room's, before the player spoke
        return float(np.median([x for x in heard if x >= loud - self.config.owner_below]))

    def floor(self, ch: int) -> float | None:
        """Under this (dBFS), sound on channel ``ch`` is not its player's."""
        own = self.level(ch)
        return None if own is None or not self.config.owner_below else own - self.config.owner_below

    def learn(self, ch: int, audio: np.ndarray) -> None:
        """An utterance heard on channel ``ch`` as its player's: their level, learnt."""
        if ch in self.owned:
            self.levels[ch] = self.levels.get(ch, [])[-(KEPT - 1):] + [peak_level(audio)]

    def too_quiet(self, ch: int, audio: np.ndarray) -> bool:
        """Whether an utterance on channel ``ch`` is far under its player's level: not them."""
        floor = self.floor(ch)
        return floor is not None and peak_level(audio) < floor


    def quieted(self, ch: int, frame: np.ndarray, loudness: list[float]) -> np.ndarray:
        """A frame of an utterance on channel ``ch`` as the recognizer is to hear it: on a
        player's own microphone, a frame ``owner_below`` dB under the loudest of the
        utterance so far (``loudness``, its frames' levels, this one's last) is the room
        between the player's words, made ``QUIETED`` dB quieter still: the word is heard
        as in a quiet room."""
        if ch not in self.owned or not self.config.owner_below or len(loudness) < 2 \
                or max(loudness[-QUIETED_AFTER:]) >= max(loudness) - self.config.owner_below:
            return frame  # within a word: its soft sounds stay as they are
        return frame * np.float32(10 ** (-QUIETED / 20))

    def before(self, ch: int, audio: np.ndarray, loudness: list[float], frame: int = 480) -> np.ndarray:
        """An utterance's pre-roll (``audio``, the frames before its start and the first
        voiced ones, whose levels ``loudness`` ends with) as the recognizer is to hear it:
        each frame as :meth:`quieted` would hand it on."""
        if ch not in self.owned or not self.config.owner_below or not loudness:
            return audio
        out = np.array(audio, np.float32)
        floor = self.floor(ch)
        loudest = max(max(loudness) - self.config.owner_below, -120.0 if floor is None else floor)
        for i in range(0, out.size - frame + 1, frame):
            part = out[i:i + frame]
            if 10 * np.log10(float(np.mean(part.astype(np.float64) ** 2)) + 1e-12) < loudest:
                out[i:i + frame] = part * np.float32(10 ** (-QUIETED / 20))
        return out

    def copy_of(self, ch: int, start: float, end: float, times: np.ndarray, levels: np.ndarray) -> int | None:
        """The other owned channel whose player's sound channel ``ch`` heard in
        [``start``, ``end``] (None: its own), from the frames' levels of every channel
        (``times`` the frames' starts, ``levels`` (frames, channels) in dBFS): louder there
        by ``copy_db`` against each channel's own player, its level rising and falling with
        this one's, up to ``own_microphone_lead`` seconds earlier or later."""
        c = self.config
        if ch not in self.owned or len(self.owned) < 2 or not c.copy_db:
            return None
        i0, i1 = np.searchsorted(times, [start, end])
        if i1 - i0 < 3:
            return None
        frame = float(times[1] - times[0]) if times.size > 1 else 0.03
        lag = int(round(c.own_microphone_lead / frame))
        levels = np.maximum(levels, QUIETEST)
        heard = levels[i0:i1, ch]
        loud = heard >= heard.max() - LOUD
        if np.ptp(heard) < 1e-6:
            return None
        louder = {}
        for other in self.owned:
            own, theirs_own = self.level(ch), self.level(other)
            if other == ch:
                continue
            known = own is not None and theirs_own is not None  # else each as heard
            mine = heard - own if known else heard
            best = None
            for k in range(max(-lag, -i0), min(lag, levels.shape[0] - i1) + 1):
                theirs = levels[i0 + k:i1 + k, other] - (theirs_own if known else 0.0)
                if np.ptp(theirs) < 1e-6:
                    continue
                likeness = float(np.corrcoef(mine, theirs)[0, 1])
                if best is None or likeness > best[0]:
                    best = likeness, theirs[loud] - mine[loud]
            if best is not None and best[0] >= c.copy_likeness:
                louder[other] = best[1]
        if not louder:
            return None
        # each of its loud moments heard louder on some other microphone: not its own player's
        if float(np.median(np.max(list(louder.values()), axis=0))) < c.copy_db:
            return None
        return max(louder, key=lambda o: float(np.median(louder[o])))
        return None


def peak_level(audio: np.ndarray, frame: int = 480) -> float:
    """How loud a clip is at its loudest (dBFS): its loudest 30 ms frame, as the
    segmenter measures frames. The room's talk under a word, or the silence around it,
    leaves it as it is."""
    x = np.asarray(audio, np.float32).reshape(-1)
    n = x.size // frame
    if n == 0:
        return -120.0
    rms = np.mean(x[:n * frame].astype(np.float64).reshape(n, frame) ** 2, axis=1)
    return float(10 * np.log10(rms.max() + 1e-12))


__all__ = ["Owners", "peak_level"]
