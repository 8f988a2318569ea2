"""A microphone per player (phones, ``--channels``): each microphone's own player.

At a real table every microphone hears every player: a player's word reaches the other
players' microphones too, 10 to 20 dB lower and a little later, and the room's talk is
under them all. The listener learns the level each microphone's own player speaks at
from the words heard on it (:class:`Owners`), and with it (docs/LISTENING.md):

- sound ``owner_below`` dB under that level is not the player (the room, a voice
  further off): it neither starts nor holds an utterance on that microphone (the
  segmenter's floor for the channel), and an utterance at that level is the room's;
- an utterance that another player's microphone heard ``copy_db`` louder, each against
  its own player's level, rising and falling with it (``copy_likeness``), is that
  player's word heard again: one sound, one player; so is one that rises and falls
  exactly as another microphone's does (the same sound: their difference steady within
  ``copy_spread`` dB), heard louder there by any margin. Before the players' levels are
  known, each microphone counts against the room it hears. Two players who speak at the
  same moment are each loudest on their own microphone, and their words' shapes differ:
  both count;
- a sound that came as loud to two players' microphones, rising and falling the same
  on both, is neither's (:meth:`Owners.alike`): a player is nearest their own; what is
  no nearer to one than another is a loudspeaker (the laptop's own, where its echo is
  not taken out yet; a television);
- the room between a player's words is made quieter before the recognizer hears it
  (:func:`quieted`, at the level vad.Segmenter.room_under finds).
"""

from __future__ import annotations

import collections
from typing import Mapping

import numpy as np

from ..audio import frame_rms
from .config import TurnConfig

KEPT = 8
"""The owner's last utterances whose levels are remembered."""
VOICES = 4
VOICE_SAMPLES = 8000
"""The owner's last words (of half a second or more) kept for their voice ..."""
VOICE_BELOW = 3.0
"""... against which an utterance this many dB under their level is checked (dB)."""
LOUD = 10.0
"""An utterance's loud moments: its frames within this many dB of its loudest (its
player's vowels, where their own microphone hears them over anyone else)."""
QUIETED = 20.0
"""How much quieter the room between a player's words is made on their own microphone (dB)."""
QUIETED_AFTER = 3
"""... once this many frames in a row are that quiet (a word's soft sounds are near its loud ones)."""
ONE_MOUTH = 0.9
"""Two microphones' levels that rise and fall this alike (their correlation), their
difference steady (``copy_spread``), heard one sound: one mouth."""
SILENT = -100.0
"""A room at or under this (dBFS) is digital silence, no reference (a recording, not a microphone)."""
QUIETEST = -90.0
"""Frame levels are compared above this (dBFS): silence is all alike."""


class Owners:
    """The players of a listener's channels and the level each speaks at on their own."""

    def __init__(self, channel_players: Mapping[int, str | None], channels: int, config: TurnConfig) -> None:
        self.config = config
        self.owned = [c for c in range(channels) if channel_players.get(c)]
        """The channels with a player of their own (a shared microphone has none)."""
        self.shared = [c for c in range(channels) if c not in self.owned] if self.owned else []
        """Beside them, the channels of a microphone the table shares (the laptop's)."""
        self.clips: dict[int, collections.deque] = {}
        """Per channel: its player's last words heard at their own level, for their voice."""
        self._prints = None
        self.heard: list[tuple[float, float]] = []
        """The last 30 s of utterances on the players' own microphones, as (start, end)."""
        self.levels: dict[int, list[float]] = {}
        """Per channel: its speaker's level in their last utterances (dBFS, :func:`peak_level`)."""

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
        """An utterance heard on channel ``ch`` as its speaker's: the level its own player
        (or on a shared microphone, whoever speaks to it) speaks at, learnt."""
        if ch in self.owned or ch in self.shared:
            own, peak = self.level(ch), peak_level(audio)
            self.levels[ch] = self.levels.get(ch, [])[-(KEPT - 1):] + [peak]
            if ch in self.owned and (own is None or peak >= own - VOICE_BELOW) and audio.size >= VOICE_SAMPLES:
                self.clips.setdefault(ch, collections.deque(maxlen=VOICES)).append(audio)

    def unlike(self, ch: int, audio: np.ndarray) -> bool:
        """Whether an utterance on player's own microphone ``ch``, quieter than they
        usually speak by ``VOICE_BELOW`` dB or more, is in another voice than theirs (the
        room's talk): its voice print against the words they said at their own level."""
        own, clips = self.level(ch), self.clips.get(ch)
        if own is None or not clips or len(clips) < 2 or peak_level(audio) >= own - VOICE_BELOW:
            return False
        if self._prints is None:
            from .voiceprint import VoicePrints

            self._prints = VoicePrints()
        name = f"channel {ch}"
        self._prints.forget(name)
        self._prints.enroll(name, list(clips))  # each clip embedded once: the embedder keeps the last ones
        return self._prints.identify(audio, [name]).scores[name] < self._prints.min_similarity

    def too_quiet(self, ch: int, audio: np.ndarray) -> bool:
        """Whether an utterance on channel ``ch`` is far under its player's level: not them."""
        floor = self.floor(ch)
        return floor is not None and peak_level(audio) < floor

    def not_its_speakers(self, ev, segmenter) -> str:
        """Why the utterance that ended (a vad.SegmentEnd) is not to be heard as said by its
        channel's speaker ("": it is): on a player's own microphone, another's voice louder
        on theirs (or on a shared microphone), or the room (far under its player, or a
        little under in another voice); on a shared microphone, a voice a player's own
        microphone heard, or the room; quieter talk a louder voice came into."""
        seg = ev.segment
        ch = seg.channel
        if ch in self.owned:
            elsewhere = self.heard_elsewhere(ch, seg.start, seg.end, segmenter)
            if elsewhere:
                return elsewhere
            if not ev.overtaken and (self.too_quiet(ch, ev.audio) or self.unlike(ch, ev.audio)):
                return "the room"
            if not ev.overtaken:  # theirs: a shared microphone that heard it meanwhile heard them
                self.heard = [s for s in self.heard if s[1] > seg.end - 30.0] + [(seg.start, seg.end)]
        elif self.heard_on_own(seg, segmenter):
            return "a player's microphone"
        elif not ev.overtaken and self.too_quiet(ch, ev.audio):
            return "the room"
        return "overtaken" if ev.overtaken else ""

    def heard_elsewhere(self, ch: int, start: float, end: float, segmenter) -> str:
        """Why the sound player's own microphone ``ch`` heard in [start, end] is not its
        player's, by what the other microphones heard meanwhile ("": nothing says so):
        another player's word heard again (:meth:`copy`), or nobody's (:meth:`alike`)."""
        if self.copy(ch, start, end, segmenter):
            return "another player's microphone"
        if self.alike(ch, start, end, segmenter):
            return "as loud on another player's microphone"
        return ""

    def copy(self, ch: int, start: float, end: float, segmenter) -> bool:
        """Whether channel ``ch`` heard in [start, end] a sound another microphone heard
        louder (:meth:`copy_of`, on what the segmenter heard)."""
        return self.copy_of(ch, start, end, *segmenter.levels(), segmenter.rooms()) is not None

    def heard_on_own(self, segment, segmenter) -> bool:
        """Whether ``segment``, on a shared microphone (the laptop's, beside players' own),
        was mostly said while a player's own microphone heard that player's speech: their
        voice, heard again from further away (counted from ``own_microphone_lead`` before
        it, as a phone's audio comes later)."""
        if not self.owned:
            return False
        now = segmenter.history[-1][0] if segmenter.history else segment.end
        speaking = [c for c, st in enumerate(segmenter.states) if st.in_speech and c in self.owned]
        heard = (*segmenter.levels(), segmenter.rooms()) if speaking else ()
        live = [(segmenter.states[c].start, float("inf")) for c in speaking
                if self.copy_of(c, segmenter.states[c].start, now, *heard) is None]
        lead = self.config.own_microphone_lead
        overlap = sum(max(0.0, min(end, segment.end) - max(start - lead, segment.start))
                      for start, end in self.heard + live)
        return overlap >= 0.5 * (segment.end - segment.start)

    @staticmethod
    def room_before(segment, segmenter, seconds: float = 3.0) -> float | None:
        """How loud channel ``segment.channel`` was in the ``seconds`` before ``segment``
        (dBFS, the median of its frames, talk included); None when nothing was heard."""
        times, levels = segmenter.levels()
        before = (times >= segment.start - seconds) & (times < segment.start)
        return round(float(np.median(levels[before, segment.channel])), 2) if before.any() else None

    def copy_of(self, ch: int, start: float, end: float, times: np.ndarray, levels: np.ndarray,
                rooms: list[float | None]) -> int | None:
        """The other channel (a player's own, or a shared one) whose sound channel ``ch``, a
        player's own, heard in [``start``, ``end``] (None: its own), from the frames' levels
        of every channel (``times`` the frames' starts, ``levels`` (frames, channels) in
        dBFS): louder there by ``copy_db``, its level rising and falling with this one's,
        up to ``own_microphone_lead`` seconds earlier or later. Each microphone's levels
        count against its own player's level, or before both players are known, against
        the level of the room each hears (``rooms``, dBFS; a microphone's gain changes both
        alike), or else as heard."""
        c = self.config
        if not c.copy_db:
            return None
        compared = self._compared(ch, start, end, times, levels, rooms)
        if not compared:
            return None
        louder = {}
        for other, (likeness, by) in compared.items():
            if likeness < c.copy_likeness:
                continue
            if self._one_sound(likeness, by) and float(np.median(by)) > 0:
                return other  # one sound, the same at every moment: louder on the other's microphone
            louder[other] = by
        if not louder:
            return None
        # each of its loud moments heard louder on some other microphone: not its own player's
        if float(np.median(np.max(list(louder.values()), axis=0))) < c.copy_db:
            return None
        return max(louder, key=lambda o: float(np.median(louder[o])))

    def alike(self, ch: int, start: float, end: float, segmenter) -> bool:
        """Whether the sound channel ``ch``, a player's own, heard in [start, end] came as
        loud to another player's microphone: one sound, rising and falling the same on
        both (``ONE_MOUTH``), at the same level within ``copy_spread`` dB (each against its
        own reference, as :meth:`copy_of` weighs them). A player is heard loudest on their
        own microphone (10-20 dB over the others); a sound no nearer to one of them than
        to another is neither's: the laptop's own speaker heard in every microphone where
        its echo is not taken out yet, a television. As heard, too: weighed against the
        players' levels alone, the same sound came out loudest on the quietest player's
        microphone and was that player's word ("up", the host's echo, Dan's)."""
        c = self.config
        heard = segmenter.levels()
        for rooms in (segmenter.rooms(), None):  # against each one's own reference, and as heard
            compared = self._compared(ch, start, end, *heard, rooms)
            if any(self._one_sound(likeness, by) and abs(float(np.median(by))) <= c.copy_spread
                   for other, (likeness, by) in compared.items() if other in self.owned):
                return True
        return False

    def _one_sound(self, likeness: float, by: np.ndarray) -> bool:
        """Whether two microphones heard one sound: their levels rising and falling as one
        (``ONE_MOUTH``), their difference (``by``, dB a frame) steady within ``copy_spread``."""
        return likeness >= ONE_MOUTH and float(np.std(by)) <= self.config.copy_spread

    def _compared(self, ch: int, start: float, end: float, times: np.ndarray, levels: np.ndarray,
                  rooms: list[float | None] | None) -> dict[int, tuple[float, np.ndarray]]:
        """Channel ``ch``'s sound in [start, end] against each other microphone's (a
        player's own, or a shared one) that heard something then, as :meth:`copy_of`
        weighs them (``rooms`` None: as heard, neither against its reference): per
        channel, how alike the two rise and fall at the best lag (their levels'
        correlation) and by how much the other was louder at ``ch``'s loud moments (dB,
        each frame). Empty where there is nothing to compare."""
        c = self.config
        if ch not in self.owned or len(self.owned) < 2:
            return {}
        i0, i1 = np.searchsorted(times, [start, end])
        if i1 - i0 < 3:
            return {}
        frame = float(times[1] - times[0]) if times.size > 1 else 0.03
        lag = int(round(c.own_microphone_lead / frame))
        levels = np.maximum(levels, QUIETEST)
        heard = levels[i0:i1, ch]
        loud = heard >= heard.max() - LOUD
        if np.ptp(heard) < 1e-6:
            return {}
        compared = {}
        for other in self.owned + self.shared:
            if other == ch:
                continue
            mine, offset = self._against(heard, ch, other, rooms) if rooms is not None else (heard, 0.0)
            best = None
            for k in range(max(-lag, -i0), min(lag, levels.shape[0] - i1) + 1):
                theirs = levels[i0 + k:i1 + k, other] - offset
                if np.ptp(theirs) < 1e-6:
                    continue
                likeness = float(np.corrcoef(mine, theirs)[0, 1])
                if best is None or likeness > best[0]:
                    best = likeness, theirs[loud] - mine[loud]
            if best is not None:
                compared[other] = best
        return compared

    def _against(self, heard: np.ndarray, ch: int, other: int, rooms) -> tuple[np.ndarray, float]:
        """Channel ``ch``'s levels and ``other``'s offset, each against the same kind of
        reference: its own player's level, else the room it hears, else none."""
        mine, theirs = self.level(ch), self.level(other)
        if mine is None or theirs is None:
            mine, theirs = rooms[ch], rooms[other]
        if mine is None or theirs is None or min(mine, theirs) <= SILENT:
            return heard, 0.0
        return heard - mine, theirs


def peak_level(audio: np.ndarray, frame: int = 480) -> float:
    """How loud a clip is at its loudest (dBFS): its loudest 30 ms frame, as the
    segmenter measures frames. The room's talk under a word, or the silence around it,
    leaves it as it is."""
    levels = frame_rms(audio, frame)
    return float(20 * np.log10(levels.max())) if levels.size else -120.0


def quieted(audio: np.ndarray, room: float | None, frame: int, loudness: list[float] | None = None) -> np.ndarray:
    """``audio`` as the recognizer is to hear it, on a player's own microphone where the
    room's sound is under ``room`` dBFS (vad.Segmenter.room_under; None: as it is): its
    frames under that level made ``QUIETED`` dB quieter still, so that the player's word
    is heard as in a quiet room. With ``loudness`` (the levels of the utterance's frames
    so far, ``audio`` its last frame), only once ``QUIETED_AFTER`` frames in a row are
    under it: a word's soft sounds, between its loud ones, stay as they are."""
    if room is None:
        return audio
    if loudness is not None:
        return audio * np.float32(10 ** (-QUIETED / 20)) if max(loudness[-QUIETED_AFTER:]) < room else audio
    out = np.array(audio, np.float32)
    under = np.flatnonzero(20 * np.log10(frame_rms(out, frame)) < room)
    whole = out[: out.size // frame * frame].reshape(-1, frame)  # a view: the whole frames of out
    whole[under] *= np.float32(10 ** (-QUIETED / 20))
    return out


__all__ = ["Owners", "peak_level", "quieted"]
