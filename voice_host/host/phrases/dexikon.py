"""Dexikon's phrases: "bank catch for 5", "spend catch for five", "spend", "concede",
"check", "penalty 2", "returned penalty 1", "bonus 2", "set aside 1", "pool empty",
"last word counterfeiting for 15"."""

from __future__ import annotations

import re

from voice_host.games.dexikon.actions import ChallengeAnswer, Declare, LastWord, PoolEmpty, Tally
from voice_host.games.events import Refused
from voice_host.host.intents import WORDLIKE
from voice_host.host.phrases.language import Spoken
from voice_host.host.phrases.numbers import number, spoken as numbers

POINTS = r"(?: for (.+?))?(?: points?)?"
PATTERNS = [
    ("bank", re.compile(rf"^bank (\S+){POINTS}$")),
    ("spend", re.compile(rf"^spend(?: (\S+){POINTS})?$")),
    ("last", re.compile(rf"^(?:my )?last word(?: is)? (\S+){POINTS}$")),
    ("returned", re.compile(r"^returned? (?:a )?penalt(?:y|ies)(?: cards?)?(?: (.+))?$")),
    ("penalty", re.compile(r"^(?:a )?penalt(?:y|ies)(?: cards?)?(?: (.+))?$")),
    ("bonus", re.compile(r"^bonus(?: points?)? (.+?)(?: points?)?$")),
    ("aside", re.compile(r"^set aside(?: penalt(?:y|ies))?(?: (.+))?$")),
]
CONCEDE = ("concede", "i concede", "conceded")
INSIST = ("check", "check it", "insist", "i insist", "look it up")
MOST_POINTS = 60
"""The most points a word is said to be worth, for the recognizer's language."""
MOST_CARDS = 10
"""The most penalty, bonus or set-aside cards said at once, likewise."""
POOL_EMPTY = ("pool empty", "the pool is empty", "pool deck empty", "the pool deck is empty")


def help(game) -> dict[str, str]:
    """Dexikon's phrases for help (solo has two more)."""
    return {"Your turn": "'bank WORD for N', 'spend WORD for N' or 'spend'.",
            "Challenged": "'concede', or 'check' to look it up.",
            "Cards": "'penalty N', 'returned penalty N', 'bonus N'" + (", 'set aside N', 'pool empty'."
                                                                      if game.solo else "."),
            "At the end": "'last word WORD for N'."}


def spoken(game) -> Spoken:
    """"bank catch for 5", "spend catch for five points", "spend", "last word catch for
    7", "concede", "check", "penalty 2", "returned penalty 1", "bonus 2", ..."""
    points = [f for n in numbers(0, MOST_POINTS) for f in (f"for {n}", f"for {n} points")]
    cards = [f"{kind} {n}" for kind in ("penalty", "returned penalty", "bonus", "set aside")
             for n in numbers(1, MOST_CARDS)]
    return Spoken(lead_ins=("bank", "spend", "last word", "last word is", "my last word", "my last word is"),
                  tails=tuple(points), bare=False,
                  phrases=("spend", *CONCEDE, *INSIST, *POOL_EMPTY, "penalty", "returned penalty", *cards))


def parse(said: str, text: str, player: str, t: float):
    """A Dexikon move, a refusal of a phrase half heard, or None (not a Dexikon phrase)."""
    if said in CONCEDE or said in INSIST:
        return ChallengeAnswer(t, player, said in CONCEDE)
    if said in POOL_EMPTY:
        return PoolEmpty(t, player)
    for kind, pattern in PATTERNS:
        m = pattern.match(said)
        if m:
            return _phrase(kind, m.groups(), player, t)
    return None


def _phrase(kind: str, groups: tuple, player: str, t: float):
    if kind in ("bank", "spend", "last"):
        word, points_said = groups
        if word is not None and not WORDLIKE.match(word):
            return Refused("punctuation", {"word": word}, player)
        points = number(points_said) if points_said else None
        if points_said and points is None:
            return Refused("bad_number", {"text": points_said}, player)
        if points is None and kind != "spend":
            return Refused("need_points", {"phrase": "last word" if kind == "last" else kind, "word": word}, player)
        if kind == "last":
            return LastWord(t, player, word, points)
        return Declare(t, player, word, points, kind == "bank")
    count = number(groups[0]) if groups[0] else 1
    if count is None or count < 1:
        return Refused("bad_number", {"text": groups[0]}, player)
    return Tally(t, player, kind, count)
