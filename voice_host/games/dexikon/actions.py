"""What Dexikon can be asked, besides what every game can (re-exported here)."""

from __future__ import annotations

from voice_host.games.actions import *  # noqa: F401,F403  (the actions every game shares)
from voice_host.games.actions import Move


class Declare(Move):
    """The active player's word for the turn: banked or spent (spent without a word: None)."""

    player: str
    word: str | None
    points: int | None
    bank: bool


class LastWord(Move):
    """At the end of the game: the player's last word and its points."""

    player: str
    word: str
    points: int


class ChallengeAnswer(Move):
    """The challenged speller concedes the word, or insists and has it looked up."""

    player: str
    concede: bool


class Tally(Move):
    """A count a player tells the scorekeeper: ``penalty`` cards gained from attacks,
    ``returned`` penalty cards, ``bonus`` points from N and P cards, penalties set
    ``aside`` with attack cards (solo)."""

    player: str
    kind: str
    count: int


class PoolEmpty(Move):
    """Solo: the pool deck is empty at the start of the turn, so this turn is the last."""

    player: str
