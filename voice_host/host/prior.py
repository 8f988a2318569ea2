"""The game's prior: what a scorekeeper expects to hear, as a score bonus per word.

A human scorekeeper hears "blazers" when the Z, R and S are on the board, because
"blazes" would be a poor play, and hears the words people know. The game says what it
expects as plain data (``Game.expectation()``: games.expect); this turns it, with how
well-known each word is, into a bonus in nats per dictionary word that the recognizer's
search adds (words.prior.SearchPrior), and into the same bonus for one word, to choose
between spellings or to settle a question nobody answered.

    bonus(word) = points * value / best  +  known * min(zipf, 6) / 6

``value`` is what the word would be worth now, ``best`` the best value of all:
- Prolix (``BoardPoints``): what it would score on the board (0 when it was used or is
  a cheapie: it stays sayable, so the host can refuse it, but is not favoured);
- Phlounder after the bell (``WordLength``): 2 for the length the dice asked for, 1
  for a shorter word the others may report, 0 for any other.
A name alone or a spelling gets ``other`` (by default what a middling known word gets),
so the prior neither pushes words into them nor the other way; a whole phrase (a
question, a command, an answer) gets ``phrase``, what the best known play gets (PHRASE),
as a table asks and commands as often as it plays (the search gives a phrase ``other``
until it is whole: words.prior.SearchPrior). While the
game waits for a move that is no word (``NoWord``: Phlounder's roll and bell) no word is
favoured: each gets nothing and ``other`` what a well-known word would.
"""

from __future__ import annotations

import numpy as np

from voice_host.games.expect import BoardPoints, NoWord, WordLength
from voice_host.words.prior import SearchPrior

PHRASE = 1.0
"""A phrase's bonus (a command, a question, an answer: "whose turn is it", "help") as a
share of the best known play's (``points + known``): a table asks and commands as often
as it plays. Chosen on the tuning split of benchmarks/phrases.py."""

ZIPF_KNOWN = 6.0
"""Zipf frequency from which a word counts as known by everyone (the, house, board)."""


def word_bonus(values: np.ndarray | None, zipf: np.ndarray, points: float, known: float) -> np.ndarray:
    """The bonus of each word from its value now (None: the game cannot tell) and its Zipf
    frequency, ``points`` and ``known`` nats at most."""
    bonus = known * np.minimum(np.maximum(zipf, 0.0), ZIPF_KNOWN) / ZIPF_KNOWN
    if values is not None:
        bonus = bonus + points * values / max(int(values.max(initial=0)), 1)
    return bonus.astype(np.float32)


def search_prior(expectation, words, points: float, known: float) -> SearchPrior | None:
    """The prior over ``words`` (the dictionary, in ``words.data.words`` order) for what
    the game expects now (``points`` nats for the best play on the board, ``known`` for
    a word everyone knows: [speech] prior_points, prior_known); None when both are 0."""
    if not (points or known):
        return None
    if isinstance(expectation, NoWord):
        return SearchPrior(np.zeros(len(words.data.words), np.float32), known)
    values = _values(expectation, words)
    other = 0.5 * (points if values is not None else 0.0) + 0.5 * known
    phrase = PHRASE * ((points if values is not None else 0.0) + known)
    return SearchPrior(word_bonus(values, words.data.zipf, points, known), other, max(phrase, other))


def _values(expectation, words) -> np.ndarray | None:
    """What each word is worth to the game now (see the module doc); None: it cannot tell."""
    if isinstance(expectation, BoardPoints):
        return words.values(expectation.tiles, expectation.used)
    if isinstance(expectation, WordLength):
        n = words.lengths
        low, high = expectation.asked
        return (((n >= low) & (n <= high)).astype(np.int32)
                + ((n >= expectation.shortest) & (n <= expectation.longest)).astype(np.int32))
    return None
