"""The road game's sentences: plays, mulligans, passes, the bag."""

from __future__ import annotations

from typing import Callable

from voice_host.games.road import events as R
from voice_host.host.announce.dispatch import register, sentence
from voice_host.host.announce.text import clip, names, plural, points


REFUSALS: dict[str, Callable[..., str]] = {
    "bad_play": lambda text, **_: f"I can't read '{clip(text)}'. Say 'play', then each word and its points, like 'play fire for 7, fir for 6'.",
    "need_tiles": lambda **_: "I'm counting the bag: say how many tiles you played too, like 'play fire for 7 with 4 tiles'.",
    "no_mulligan": lambda **_: "The bag is empty, so there are no more mulligans.",
    "bag_already_empty": lambda **_: "The bag is already empty.",
    "words_checked": lambda **_: "I check every word as it is played, so there is nothing to challenge.",
    "say_play_points": lambda word: f"Say 'play {word} for' its points, with the other words your tiles made.",
    "bad_tiles": lambda tiles, rack: (f"A rack holds {plural(rack, 'tile')}, so a play can't use {tiles}." if tiles > rack
                                      else "A play puts at least one tile on the board."),
    "set_too_small": lambda set_size, players, rack: (
        f"A set of {plural(set_size, 'tile')} can't fill {players} racks of {rack}: "
        f"it needs at least {plural(players * rack, 'tile')}."),
}


SAID: dict[type, Callable[..., str]] = {
    R.LastChance: lambda e: f"{e.player}, everyone else has passed: if you pass too, the game ends.",
    R.Mulliganed: lambda e: f"{e.player} takes a mulligan.",
    R.Passed: lambda e: f"{e.player} passes.",
    R.BagEmptied: lambda e: "The bag is empty: no more mulligans.",
}
"""The sentences said in one line; the longer ones are functions below."""
register(SAID)


@sentence.register
def _(e: R.RoadStarted) -> str:
    text = f"Road game for {names(e.players)}. Each player draws {plural(e.rack, 'tile')}."
    if e.bag == 0:
        return text + " The racks take every tile: the bag is empty, so there are no mulligans."
    return text + (f" I'm counting the bag: {plural(e.bag, 'tile')} left." if e.bag is not None else "")


@sentence.register
def _(e: R.RoadPlayed) -> str:
    said = names(f"{w} {n}" for w, n in e.words)
    text = f"{e.player} plays {said}: {points(e.points)}, {e.total} in all."
    return text + (f" {plural(e.bag, 'tile')} left in the bag." if e.bag else "")
