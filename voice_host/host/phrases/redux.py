"""Prolix Redux's phrases: Prolix's, and a pass ("pass", "no word", "nothing"): an
interjector may sit a turn out, and the active player may say they have no word. The word
"pass" itself is played with "play pass"."""

from __future__ import annotations

from dataclasses import replace

from voice_host.games.prolix.actions import Pass
from voice_host.host.phrases import prolix, road
from voice_host.host.phrases.language import Spoken

PASS = (*road.PASS, "no word", "i have no word", "nothing", "i have nothing")
"""The road game's pass, and saying there is no word."""

HELP = {"No word": "say 'pass' (or 'no word'): an interjector loses nothing, the active player gets minus 1; "
                   "'play pass' plays the word pass."}


def parse(said: str, text: str, player: str, t: float):
    """A pass, else Prolix's reading."""
    if said in PASS:
        return Pass(t, player)
    return prolix.parse(said, text, player, t)


def spoken(game) -> Spoken:
    """Prolix's sentences and the pass phrases."""
    return replace(prolix.spoken(game), phrases=PASS)
