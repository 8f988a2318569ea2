"""What any game can be asked to do: plain data, made by the host from utterances and lines.

Every action carries ``t``, the game-clock second it happened at; the rules never read
a clock of their own. Each game's own actions live next to its rules
(games/prolix/actions.py, games/phlounder/actions.py, ...) and re-export these.
"""

from __future__ import annotations

from voice_host.games.records import Record


__all__ = ["Action", "Begin", "Tick", "PlayWord", "Challenge", "Answer", "SetStart", "FlipTimer", "SetBoard", "Draw",
           "Query", "Move"]


class Action(Record):
    t: float
    """Game-clock seconds."""


class Begin(Action):
    """Set up and start the game (start player, board) unless the table already did."""


class Tick(Action):
    """The clock moved on; timers may expire, simultaneous words get compared."""


class PlayWord(Action):
    """A player said a word (Prolix plays it; Phlounder takes it as the ringer's report)."""

    player: str
    word: str
    """Lower-case letters only."""
    final: bool = False
    """Said as "my word is ...": committed (solo), rather than a scratch word."""


class Challenge(Action):
    player: str
    """Who challenges."""
    target: str | None = None
    """Whose word; None: the most recent word by another player."""


class Answer(Action):
    """A yes/no answer: in a challenge vote, yes means "I know that word"; to a
    Dexikon challenge, yes concedes."""

    player: str
    yes: bool


class SetStart(Action):
    """Table mode: the start player the table determined."""

    player: str


class FlipTimer(Action):
    """A player flipped the sand timer (a game without one refuses it)."""

    player: str


class SetBoard(Action):
    """Table mode: the whole board, leftmost column first, top space before bottom (a game
    without a board refuses it)."""

    letters: tuple[str, ...]


class Draw(Action):
    """Table mode: the tiles just drawn, placed in the leftmost column (a game without a
    board refuses it)."""

    letters: tuple[str, ...]
    player: str | None = None


class Query(Action):
    """A question that changes nothing: board, scores, turn, words, sheet, ..."""

    kind: str
    player: str | None = None
    about: str | None = None
    """For ``sheet``: whose scoresheet; for ``how``: which word."""


class Move(Action):
    """A game's own input that changes the game (not a question): undo can take it back."""
