"""What a game can be asked to do: plain data, made by the host from utterances and lines.

Every action carries ``t``, the game-clock second it happened at; the rules never read
a clock of their own.
"""

from __future__ import annotations

from dataclasses import dataclass


@dataclass(frozen=True)
class Action:
    t: float
    """Game-clock seconds."""


@dataclass(frozen=True)
class Begin(Action):
    """Set up and start the game (start player, board) unless the table already did."""


@dataclass(frozen=True)
class Tick(Action):
    """The clock moved on; timers may expire, simultaneous words get compared."""


@dataclass(frozen=True)
class Word(Action):
    player: str
    word: str
    """Lower-case letters only."""
    final: bool = False
    """Said as "my word is ...": committed (solo), rather than a scratch word."""


@dataclass(frozen=True)
class Challenge(Action):
    player: str
    """Who challenges."""
    target: str | None = None
    """Whose word; None: the most recent word by another player."""


@dataclass(frozen=True)
class Vote(Action):
    """A yes/no answer: in a challenge vote, yes means "I know that word"."""

    player: str
    yes: bool


@dataclass(frozen=True)
class FlipTimer(Action):
    player: str


@dataclass(frozen=True)
class SetStart(Action):
    """Table mode: the start player the table determined."""

    player: str


@dataclass(frozen=True)
class SetBoard(Action):
    """Table mode: the whole board, leftmost column first, top space before bottom."""

    letters: tuple[str, ...]


@dataclass(frozen=True)
class Draw(Action):
    """Table mode: the tiles just drawn, placed in the leftmost column."""

    letters: tuple[str, ...]
    player: str | None = None


@dataclass(frozen=True)
class Query(Action):
    """A question that changes nothing: board, scores, turn, words, sheet."""

    kind: str
    player: str | None = None
    about: str | None = None
    """For ``sheet``: whose scoresheet."""


# ---------------------------------------------------------------------- Phlounder, Dexikon, road game
@dataclass(frozen=True)
class Move(Action):
    """A game's own input that changes the game (not a question): undo can take it back."""


# Phlounder
@dataclass(frozen=True)
class Roll(Move):
    """The host rolls the dice for the round, on a player's request."""

    player: str


@dataclass(frozen=True)
class SetDice(Move):
    """Table mode: the faces the table rolled (number die, letter die, children's die)."""

    faces: tuple[str, ...]


@dataclass(frozen=True)
class Bell(Move):
    """The player rang the bell: the round stops."""

    player: str


@dataclass(frozen=True)
class Report(Move):
    """After the bell: a player's word (None: no word) and the letters taken but not used."""

    player: str
    word: str | None
    unused: int


# Dexikon
@dataclass(frozen=True)
class Declare(Move):
    """The active player's word for the turn: banked or spent (spent without a word: None)."""

    player: str
    word: str | None
    points: int | None
    bank: bool


@dataclass(frozen=True)
class LastWord(Move):
    """At the end of the game: the player's last word and its points."""

    player: str
    word: str
    points: int


@dataclass(frozen=True)
class ChallengeAnswer(Move):
    """The challenged speller concedes the word, or insists and has it looked up."""

    player: str
    concede: bool


@dataclass(frozen=True)
class Tally(Move):
    """A count a player tells the scorekeeper: ``penalty`` cards gained from attacks,
    ``returned`` penalty cards, ``bonus`` points from N and P cards, penalties set
    ``aside`` with attack cards (solo)."""

    player: str
    kind: str
    count: int


@dataclass(frozen=True)
class PoolEmpty(Move):
    """Solo: the pool deck is empty at the start of the turn, so this turn is the last."""

    player: str


# road game
@dataclass(frozen=True)
class RoadPlay(Move):
    """A turn's play: the words it formed with their points, and the tiles played if said."""

    player: str
    words: tuple[tuple[str, int], ...]
    tiles: int | None = None


@dataclass(frozen=True)
class Mulligan(Move):
    player: str


@dataclass(frozen=True)
class Pass(Move):
    player: str


@dataclass(frozen=True)
class BagEmpty(Move):
    """A player says the bag has run out: no more mulligans."""

    player: str
