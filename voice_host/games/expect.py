"""What a game expects a player to say next, as plain data (no English): the host turns
it into a prior for the recognizer, so it hears the words a player would really say.

A game that can tell offers one of these from ``Game.expectation()`` (None: it cannot).
"""

from __future__ import annotations

from voice_host.games.records import Record


class BoardPoints(Record):
    """Prolix: a word is worth the points of the board tiles it flips (each letter flips
    at most one tile with that letter, the best first). A word in ``used`` or a cheapie
    of one may still be said (and refused), but is worth nothing to its player."""

    tiles: tuple[tuple[str, int], ...]
    """(letter, points) of every tile on the board."""
    used: tuple[tuple[str, str], ...] = ()
    """(word, player) of the words played so far, in play order."""


class WordLength(Record):
    """Phlounder after the bell: the ringer's word has the length the dice asked for
    (``asked``, shortest and longest); everyone else's may be any word from ``shortest``
    to ``longest`` letters."""

    asked: tuple[int, int]
    shortest: int
    longest: int


class NoWord(Record):
    """A game waiting for a move that is not a word (Phlounder's roll, its bell): a word
    said now is refused, so none is favoured over the moves."""
