"""What every game may say happened: plain data, turned into sentences by the host
(voice_host.host.announce). Each game's own events live next to its rules
(games/prolix/events.py, games/phlounder/events.py, ...) and re-export these.
"""

from __future__ import annotations

from dataclasses import field

from voice_host.games.records import Record

__all__ = [
    'Event', 'Refused', 'GameStarted', 'StartDraws', 'StartSet', 'TurnStarted', 'ChallengeRaised',
    'ChallengeResolved', 'Standing', 'RoundOver', 'GameOver', 'ScoresReport', 'TurnReport', 'WordsReport',
    'StandingsReport', 'TimeReport', 'BagReport', 'VoidedReport', 'RoundsSheet',
]


class Event(Record):
    """Base class of everything a game emits."""


class Refused(Event):
    """An input was refused; nothing changed."""

    code: str
    """Why, e.g. ``"cheapie"``, ``"not_your_turn"``."""
    params: dict = field(default_factory=dict)
    """Details for the sentence (the earlier word, who used it, ...)."""
    player: str | None = None
    """Whose input it was, when known."""


class GameStarted(Event):
    """A game begins."""

    game: str
    """Registry name, e.g. ``"prolix-classic"``."""
    players: tuple[str, ...]
    """Clockwise seating order."""
    rounds: int
    """How many rounds the game lasts (0: it ends on marks)."""
    marks: int = 0
    """Duel: marks that win the game."""


class StartDraws(Event):
    """Each player drew a tile to choose the start player (letter closest to A starts)."""

    draws: tuple[tuple[tuple[str, str], ...], ...]
    """One tuple of (player, letter) per drawing; later ones are redraws of ties."""
    start: str
    """The start player."""


class StartSet(Event):
    """The table named its start player."""

    player: str


class TurnStarted(Event):
    player: str
    round: int
    again: bool = False
    """True when the active player goes again after an interrupt."""


class ChallengeRaised(Event):
    challenger: str
    player: str
    word: str


class ChallengeResolved(Event):
    challenger: str
    player: str
    word: str
    stands: bool
    """True: the word is good and the challenge failed."""
    by_vote: bool = False
    """Settled by the table's vote rather than the dictionary."""
    reason: str | None = None
    """Why the dictionary refused the word (not_found, proper_noun, ...)."""
    penalty: int = 0
    """Points the challenger loses at the end when the challenge failed."""


class Standing(Record):
    player: str | tuple[str, ...]
    """A player, or a team's members (Phlounder partners)."""
    total: int


class RoundOver(Event):
    round: int
    standings: tuple[Standing, ...]


class GameOver(Event):
    standings: tuple[Standing, ...]
    """Best first."""
    winners: tuple[str, ...]
    tiebreak: str | None = None
    """``"best_word"`` when the best-single-word chain decided, ``"shared"`` when it persisted,
    ``"tie"`` when equal totals share the victory with no words to compare."""
    details: tuple[str, ...] = ()
    """Scoresheet lines per player, for the announcer."""


class ScoresReport(Event):
    standings: tuple[Standing, ...]
    round: int
    rounds: int


class TurnReport(Event):
    player: str | None
    round: int
    timer_holder: str | None = None
    timer_left: float | None = None
    waiting_for: str | None = None
    """Table mode: the player who must draw, if any."""
    over: bool = False
    """Nobody's turn because the game is over."""
    then: str | None = None
    """Who plays after ``player`` (None: nobody, the game ends, or the game cannot tell)."""


class WordsReport(Event):
    words: tuple[tuple[str, str], ...]
    """(word, player) in play order."""
    notes: tuple[str | None, ...] = ()
    """Beside each word, what became of it where the game keeps it on the list: "voided"
    (a challenge voided it), "illegal_bell" (it made the bell illegal); None: nothing."""


class StandingsReport(Event):
    """The scores now, best first (games without a fixed number of rounds)."""

    standings: tuple[Standing, ...]


class TimeReport(Event):
    """Time left: on the timer (in front of ``holder`` or in the middle), or for
    challenging an open word (``word``); ``seconds`` None: nothing is running."""

    seconds: int | None
    holder: str | None = None
    timer: bool = True
    """False: this game has no timer at all."""
    word: str | None = None
    """Dexikon: the word still open to challenge."""


class BagReport(Event):
    tiles: int | None
    """Tiles left in the bag; None: not counted (the players say when it is empty)."""
    empty: bool = False


class VoidedReport(Event):
    words: tuple[tuple[str, str | None, int | None], ...]
    """(word, player if known, round if known) voided by a challenge, in order."""


class RoundsSheet(Event):
    """A player's sheet, a line per round: (round, word, what it scored, notes)."""

    player: str
    lines: tuple[tuple[int, str | tuple[tuple[str, int], ...] | None, int, tuple[str | int, ...]], ...]
    """The word: None for no word, or (word, points) pairs (a road play's words); the
    notes: codes (mark, void, counts, scratch, rang, not_counted, illegal_bell, pass,
    mulligan) and a number for a bonus (+) or penalty (-)."""
    total: int
    unit: str = "point"
    """What ``total`` counts: points, or a duel's marks."""


FAMILIES = ("prolix", "phlounder", "dexikon", "road")
"""The game families, each with its own events module."""
