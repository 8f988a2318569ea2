"""The road game's phrases: "play fire for 7, fir for 6 with 4 tiles", "mulligan",
"pass", "bag empty"."""

from __future__ import annotations

import re

from voice_host.games.events import Refused
from voice_host.games.road.actions import BagEmpty, Mulligan, Pass, RoadPlay
from voice_host.host.intents import WORDLIKE
from voice_host.host.phrases.language import Spoken
from voice_host.host.phrases.numbers import number, spoken as numbers

PLAY = re.compile(r"^play (.+?)(?: with (.+?) tiles?)?$")
MULLIGAN = ("mulligan", "take a mulligan", "i take a mulligan", "a mulligan")
PASS = ("pass", "i pass", "i'll pass")
BAG_EMPTY = ("bag empty", "the bag is empty", "bag is empty", "the bag is empty now")

MOST_POINTS = 99
"""The most points a word is said to score, for the recognizer's language."""

HELP = {"Your turn": "'play WORD for N, WORD for N' (with 'with K tiles' when I count the bag), "
                     "'mulligan' or 'pass'.", "Bag": "'bag empty'."}


def parse_play(text: str) -> tuple[tuple[str, int], ...] | None:
    """``fire for 7, fir for six and re for 2`` -> ((fire, 7), (fir, 6), (re, 2)); None if unreadable."""
    tokens = [t for t in text.split() if t != "and"]
    fors = [i for i, t in enumerate(tokens) if t == "for"]
    if not fors or fors[0] != 1:
        return None
    out = []
    for j, i in enumerate(fors):
        end = fors[j + 1] - 1 if j + 1 < len(fors) else len(tokens)
        word, points = tokens[i - 1], number(" ".join(tokens[i + 1:end])) if i + 1 < end else None
        if points is None or not WORDLIKE.match(word):
            return None
        out.append((word, points))
    return tuple(out)


def spoken(game) -> Spoken:
    """"play fire for 7, fir for 6 and re for 2" (", with 4 tiles" after the last),
    "mulligan", "pass", "bag empty"."""
    points = [f for n in numbers(0, MOST_POINTS) for f in (f"for {n}", f"for {n} points")]
    tiles = [f"with {n} tiles" for n in numbers(1, game.settings.rack)]
    return Spoken(lead_ins=("play",), tails=(*points, *(f"{p} {t}" for p in points for t in tiles)),
                  phrases=(*MULLIGAN, *PASS, *BAG_EMPTY), repeat=True, bare=False)


def parse(said: str, text: str, player: str, t: float):
    """A road game move, a refusal of an unreadable play, or None (not a road phrase)."""
    if said in MULLIGAN:
        return Mulligan(t, player)
    if said in PASS:
        return Pass(t, player)
    if said in BAG_EMPTY:
        return BagEmpty(t, player)
    m = PLAY.match(said)
    if m:
        words = parse_play(m.group(1))
        tiles = number(m.group(2)) if m.group(2) else None
        if words is None or (m.group(2) and tiles is None):
            return Refused("bad_play", {"text": text}, player)
        return RoadPlay(t, player, words, tiles)
    return None
