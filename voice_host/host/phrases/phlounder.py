"""Phlounder's phrases: "roll", "bell", and after the bell "WORD, unused 3",
"no word, unused 2" (or "WORD, 3 unused"); the table's roll as ``@dice 5N``."""

from __future__ import annotations

import re

from voice_host.games.events import Refused
from voice_host.games.phlounder.actions import Bell, Report, Roll, SetDice
from voice_host.host.intents import WORDLIKE
from voice_host.host.phrases.language import Spoken
from voice_host.host.phrases.numbers import number, spoken as numbers

BELL = ("bell", "done", "phlounder", "ding", "ring the bell")
ROLL = ("roll", "roll the dice", "roll them")
REPORT = re.compile(r"^(no word|[a-z'\-]+),? unused (.+)$")
REPORT_AFTER = re.compile(r"^(no word|[a-z'\-]+),? (.+) unused$")
"""Also "WORD, 3 unused": the number before "unused" is how it is often said."""

MOST_UNUSED = 20
"""The most letters a report says were taken and not used, for the recognizer's language."""

HELP = {"Dice": "say 'roll'.", "Bell": "say 'bell' when your word is done.",
        "After the bell": "the ringer says the word; everyone else 'WORD, unused 3' or 'no word, unused 2'."}


def parse(said: str, text: str, player: str, t: float):
    """A Phlounder move, a refusal of a report half heard, or None (not a Phlounder phrase)."""
    if said in ROLL:
        return Roll(t, player)
    if said in BELL:
        return Bell(t, player)
    m = REPORT.match(said) or REPORT_AFTER.match(said)
    if m:
        unused = number(m.group(2))
        if unused is None:
            return Refused("bad_number", {"text": m.group(2)}, player)
        word = None if m.group(1) == "no word" else m.group(1)
        if word is not None and not WORDLIKE.match(word):
            return Refused("punctuation", {"word": word}, player)
        return Report(t, player, word, unused)
    if said == "no word":
        return Report(t, player, None, 0)
    return None


def spoken(game) -> Spoken:
    """"roll", "bell", and the reports: "ruin, unused 3", "ruin, 3 unused", "no word, unused 2"."""
    tails = [f for n in numbers(0, MOST_UNUSED) for f in (f"unused {n}", f"{n} unused")]
    return Spoken(phrases=(*ROLL, *BELL, "no word", *(f"no word {t}" for t in tails)), tails=tuple(tails))


def directive(t: float, name: str, args: list[str]):
    """``@dice 5N*``: the faces the table rolled."""
    if name == "dice":
        return SetDice(t, tuple("".join(args).upper()))
    return None
