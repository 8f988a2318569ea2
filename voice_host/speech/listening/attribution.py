"""Attribution: who said an utterance, strongest evidence first.

The input channel (one microphone per player) > an enrolled voice print > the
player's name said first ("Bob: jewelers", "Bob interrupts jewelers", "Bob says
jewelers") > nobody (speaker None: the host asks). A voice print that agrees with the
spoken name makes it surer; one below `ask_below` loses to a spoken name. While a
player has no voice print yet (their introduction was lost), a voice like no print
(under `min_similarity`) is not the nearest player's: it is that player's, to be
asked about ("Was that Cat?"), or nobody's when several have no print ("Who said
...?"); and only a voice very like a print (`sure_similarity`) is not asked about.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Mapping, Sequence

import numpy as np

from .config import TurnConfig
from ..recognizing.recognizer import normalize_text
from .voiceprint import VoicePrints


@dataclass
class Attribution:
    """Who said an utterance, and how sure the host is."""

    speaker: str | None
    """The player (None: unknown, ask)."""
    confidence: float
    """0..1."""
    method: str | None
    """"channel", "voiceprint", "name" or None."""
    body: str
    """The text without the spoken-name prefix ("Bob says jewelers" -> "jewelers";
    "Bob interrupts jewelers" -> "interrupts jewelers")."""


CONNECTORS = ("says", "said", "saying")
"""The words that join a name said first to what its player said ("Bob says jewelers"):
dropped with the name. "interrupts" is what was said ("Bob interrupts jewelers"), and stays."""


def said_after_name(words: Sequence[str], k: int) -> list[str]:
    """What a player said after their name, said as the first ``k`` of ``words``: the
    words that follow it, a connector ("says") after the name dropped. The one place a
    name said first is parsed off (here, and host.hearing.attribute's names by sound)."""
    rest = list(words[k:])
    return rest[1:] if rest and rest[0] in CONNECTORS else rest


def split_name_prefix(text: str, players: Sequence[str], min_score: float = 80.0) -> tuple[str | None, str, float]:
    """("Bob", "jewelers", 1.0) for "bob says jewelers" when Bob is a player.

    The first one or two words are compared with each player's name (rapidfuzz
    ratio, so a recognizer's "allice" for "Alice" may still match, but no word of two
    letters but the name itself); "says" after the name is dropped, "interrupts" is
    kept. Returns (None, text, 0.0) when no name leads.
    """
    from rapidfuzz import fuzz

    words = normalize_text(text).split()
    if not words or not players:
        return None, normalize_text(text), 0.0
    best: tuple[str | None, int, float] = (None, 0, 0.0)
    for name in players:
        target = normalize_text(name)
        n = len(target.split())
        for k in {n, 1, 2}:
            if k > len(words):
                continue
            said = " ".join(words[:k])
            if len(said) <= 2 and said != target:  # "be" is no near miss of "ben", nor "an" of "ann"
                continue
            score = fuzz.ratio(said, target)
            if score > best[2] or (score == best[2] and k > best[1]):
                best = (name, k, score)
    name, k, score = best
    if name is None or score < min_score:
        return None, " ".join(words), 0.0
    return name, " ".join(said_after_name(words, k)), score / 100.0


class Attributor:
    """Attribution chain: channel > voice print > spoken name > unknown."""

    def __init__(
        self,
        players: Sequence[str] = (),
        channel_players: Mapping[int, str | None] | Sequence[str | None] | None = None,
        voiceprints: VoicePrints | None = None,
        config: TurnConfig | None = None,
    ):
        self.players = list(players)
        """All player names (seating order)."""
        if channel_players is not None and not isinstance(channel_players, Mapping):
            channel_players = dict(enumerate(channel_players))
        self.channel_players: dict[int, str | None] = dict(channel_players or {})
        """Player per input channel (one microphone each)."""
        for name in self.channel_players.values():
            if name and name not in self.players:
                self.players.append(name)
        self.voiceprints = voiceprints
        """Enrolled voice prints, if any."""
        self.config = config or TurnConfig()

    def attribute(self, text: str, audio: np.ndarray | None = None, channel: int = 0) -> Attribution:
        c = self.config
        name, body, score = split_name_prefix(text, self.players)
        by_name = name, (c.name_confidence * score if name else 0.0)
        if not name:
            body = normalize_text(text)
        who = self.channel_players.get(channel)
        if who:
            return Attribution(who, c.channel_confidence, "channel", body)
        ident = None
        if self.voiceprints is not None and self.voiceprints.players and audio is not None and audio.size:
            ident = self.voiceprints.identify(audio, candidates=[p for p in self.players] or None)
        if name:  # a name said first wins; a voice print that agrees makes it surer
            conf = by_name[1]
            if ident is not None and ident.speaker == name:
                conf = 1 - (1 - conf) * (1 - ident.confidence)
            return Attribution(name, conf, "name", body)
        if ident is not None and ident.speaker is not None:
            conf = ident.confidence
            new = [p for p in self.players if p not in self.voiceprints.players]
            like = max(ident.scores.values())
            if new and like < self.voiceprints.min_similarity:
                # like no print: a voice not enrolled yet, the one player without a print (asked), or nobody known
                return Attribution(new[0], c.ask_below / 2, "voiceprint", body) if len(new) == 1 else \
                    Attribution(None, 0.0, None, body)
            if new and like < self.voiceprints.sure_similarity:  # it may still be a new voice: asked
                conf = min(conf, c.ask_below / 2)
            return Attribution(ident.speaker, conf, "voiceprint", body)
        return Attribution(None, 0.0, None, body)


__all__ = ["CONNECTORS", "Attribution", "Attributor", "said_after_name", "split_name_prefix"]
