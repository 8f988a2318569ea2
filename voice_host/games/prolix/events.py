"""What Prolix (classic, solo, duel, Redux) says happened, besides what every game says
(re-exported here, so that the rules read one namespace: E.GameOver, E.BoardTile)."""

from __future__ import annotations

from voice_host.games.events import *  # noqa: F401,F403  (the events every game shares)
from voice_host.games.events import Event
from voice_host.games.records import Record


class BoardTile(Record):
    """A tile as a listener needs it."""

    letter: str
    bonus: int
    points: int
    """Column value plus bonus."""


class BoardShown(Event):
    """The board as it now stands, leftmost (most valuable) column first."""

    columns: tuple[tuple[int, tuple[BoardTile, ...]], ...]
    """(column value, tiles in it top to bottom)."""


class TilesDrawn(Event):
    """New tiles entered the leftmost column."""

    drawer: str | None
    """Who drew them (None: the host's own bag at setup)."""
    letters: tuple[str, ...]
    set_aside: tuple[str, ...] = ()
    """Unplayable draws that went back into the bag."""
    refilled: bool = False
    """The discards were mixed back into the bag first."""


class AwaitDraw(Event):
    """Table mode: a player must draw tiles and tell the host (``@draw``)."""

    drawer: str
    count: int


class LastChallenge(Event):
    """The game's last play is scored (Classic, Duel, Redux); its words may be challenged
    before the final scores, for ``seconds`` more."""

    words: tuple[tuple[str, str], ...]
    """(player, word) of each word that may still be challenged."""
    seconds: int


class WordScored(Event):
    """A regular word was scored."""

    player: str
    word: str
    value: int
    flips: tuple[tuple[str, int], ...]
    """(letter, points) for each flipped tile, best first."""


class Interrupted(Event):
    """An interrupting word was scored."""

    player: str
    word: str
    value: int
    penalty: int
    score: int
    """value - penalty."""
    active: str
    """Whose turn was interrupted."""
    flips: tuple[tuple[str, int], ...] = ()


class TimerFlipped(Event):
    player: str
    seconds: int


class TimerExpired(Event):
    """The sand ran out in front of a player: the active player is interrupted by the timer."""

    active: str
    interrupts: bool = True
    """False where running out just ends the round (solo, duel, Redux)."""


class TurnLost(Event):
    """Interrupted twice: the active player records a zero for the round."""

    player: str
    round: int


class TieBreak(Event):
    """Words said at the same moment, compared on the same board."""

    entries: tuple[tuple[str, str, int], ...]
    """(player, word, value before any penalty)."""
    winners: tuple[str, ...]


class VoteAsked(Event):
    """The table's vote: the uninvolved players say whether they know the word."""

    voters: tuple[str, ...]
    word: str


class PlayerOut(Event):
    """A player used every interrupt slot and is out of the game."""

    player: str


class SheetReport(Event):
    """One player's scoresheet read out."""

    player: str
    regular: tuple[tuple[str | None, int, bool, int], ...]
    """(word or None for a zero, score, counts, round)."""
    interrupts: tuple[tuple[str, int, int, int, int], ...]
    """(word, value, penalty, score, round)."""
    failed_challenges: int
    total: int


class TimerStarted(Event):
    """The timer starts: flipped by the host (solo) or by the first player with a word."""

    seconds: int
    player: str | None = None
    """Who started it; None: the host."""


class TimeLeft(Event):
    """A countdown call: this many seconds left on the timer."""

    seconds: int


class Scratch(Event):
    """Solo: a scratch word, scored aloud but not committed."""

    player: str
    word: str
    value: int


class TargetCheck(Event):
    """Solo: the cumulative score against the round's target."""

    player: str
    round: int
    total: int
    target: int
    reached: bool | None
    """None: the target is being announced, not checked."""


class BestWord(Event):
    """The best words the board allowed (from the solver), and what was played."""

    words: tuple[tuple[str, int], ...]
    played: int | None = None


class BestLater(Event):
    """Solo: the best word is asked for while the round is still open: it is said once
    the player has committed theirs."""

    player: str


class WordTaken(Event):
    """Duel and Redux: a player's word for the round is noted (scored when the round ends)."""

    player: str
    word: str


class DuelRoundStarted(Event):
    """A duel round begins; the leader carries a handicap."""

    round: int
    handicap: tuple[str, int] | None = None
    """(leader, points off their word), None when the marks are level."""


class DuelScored(Event):
    round: int
    entries: tuple[tuple[str, str | None, int, int], ...]
    """(player, word or None, value, value after the handicap)."""
    winner: str
    by_tie: bool = False
    """True: the words tied and the mark went to whoever flipped the timer."""


class MarkAwarded(Event):
    """A duel mark changes hands (after a challenge) or the marks are read out."""

    player: str
    marks: tuple[tuple[str, int], ...]
    reason: str = "round"
    """round, challenge."""


class Passed(Event):
    """Redux: a player has no word this turn."""

    player: str
    active: bool
    """The active player passed (no word: minus 1 at the end of the turn)."""


class ReduxScored(Event):
    """The end of a Redux turn: the active player's word, then each interjection."""

    round: int
    active: str
    entries: tuple[tuple[str, str | None, int, int], ...]
    """(player, word or None, value, bonus or penalty: +2, -1, -2 or 0), active player first."""


class InterruptsReport(Event):
    rows: tuple[tuple[str, int, int, bool], ...]
    """(player, interrupts used, left, out of the game)."""


class HowScored(Event):
    """The tiles behind a word's score: (letter, points) each, the value, the penalty."""

    player: str
    word: str
    tiles: tuple[tuple[str, int], ...]
    value: int
    penalty: int = 0
    round: int | None = None
    kind: str = "word"
    """word, interrupt, scratch, tiebreak (lost: scored nothing)."""
