"""Words chosen on boards the way players choose them, split into tuning and held-out.

Boards: deals of the Prolix tile set from the host's own bag (seeded). Per board, four
boards in five a good play, a known word (Zipf >= 3.3, 4 letters or more) among the 25
best-scoring known words on that board; one in five a weak play, a known word worth at
most a third of the best. Even boards are TUNING, said by the tuning voices; odd boards
HELD-OUT, said by the held-out voices (splits.WORD_VOICES); a word chosen on a tuning
board is never chosen on a held-out one.
"""

from __future__ import annotations

import numpy as np

from .listening import hearing as board
from .splits import WORD_VOICES

KNOWN_ZIPF = 3.3
WEAK_EVERY = 5


def choose(words, hearing, rng, weak: bool, taken: set[str]) -> str:
    """The word a player would say on this board (a good play, or a weak one)."""
    expected = hearing.session.game.expectation()
    values = words.values(expected.tiles)
    zipf = np.asarray(words.data.zipf)
    known = np.array([z >= KNOWN_ZIPF and len(w) >= 4 and w not in taken for w, z in zip(words.data.words, zipf)])
    best = int(values[known].max())
    if weak:
        pool = np.flatnonzero(known & (values > 0) & (values <= best / 3))
    else:
        ranked = np.flatnonzero(known)[np.argsort(-values[known], kind="stable")]
        pool = ranked[:25]
    return words.data.words[int(rng.choice(pool))]


def plan(n_boards: int, words, seed: int = 19, first_board: int = 1000, avoid: frozenset = frozenset()) -> list[dict]:
    """The boards, the words chosen on them and their voices, tuning and held-out (the
    boards seeded from `first_board` on, never a word of `avoid`): rows {split, seed,
    word, weak, voice}."""
    rng = np.random.default_rng(seed)
    taken: dict[str, set[str]] = {"tuning": set(avoid), "held-out": set(avoid)}
    rows = []
    for b in range(2 * n_boards):
        split = "tuning" if b % 2 == 0 else "held-out"
        other = taken["held-out" if split == "tuning" else "tuning"]
        hearing = board(words, first_board + b, 0.0, 0.0)
        weak = b // 2 % WEAK_EVERY == WEAK_EVERY - 1
        word = choose(words, hearing, rng, weak, other | taken[split])
        taken[split].add(word)
        voices = WORD_VOICES[split]
        rows.append({"split": split, "seed": first_board + b, "word": word, "weak": weak,
                     "voice": voices[(b // 2) % len(voices)]})
    return rows
