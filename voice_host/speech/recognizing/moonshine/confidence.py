"""How likely the constrained search's best sentence is what was said: a calibrated
confidence from the search's own evidence.

The best sentence's share of the n-best's probability (the "margin") says only how far
the runner-up is; it is 1.0 when every sentence of the language fits the sound badly
and one of them still takes it all ("brie" for "prematurely"), and low when two forms
of one word are torn although either would do. A logistic model over a few measures of
the search (:data:`FEATURES`) says instead how often such a sentence was right, fitted
on the tuning split's words heard as a table says them (benchmarks/confidence.py
refits it and prints :data:`COEF`; docs/RECOGNIZING.md, "How sure, calibrated").
"""

from __future__ import annotations

import math

from ..recognizer import normalize_text

FEATURES = ("share", "fit", "gap", "agree", "free_over", "letters")
"""What the model reads, each clipped to a range the tuning split covers:
- share: log-odds of the best sentence's share of the n-best (the margin), -5..10;
- fit: the best sentence's score (log-likelihood with the priors, nats), -15..10;
- gap: how far ahead of the runner-up it is, 0..15 nats (15 with no runner-up);
- agree: 1 when the free decode wrote the same sentence, else 0;
- free_over: how much better the free decode explains the sound, -10..15 nats;
- letters: the sentence's letters / 10, 0..2."""

COEF = (-0.218, 0.598, 0.511, -0.039, 0.349, 1.252)
INTERCEPT = -2.235
"""Fitted on 422 words of the tuning split, clean, 20 and 10 dB (benchmarks/confidence.py):
a sentence that fits the sound well, far ahead of the next, of a long word, is surer;
once those are known, the share and the free decode agreeing add next to nothing."""


def _clip(x: float, lo: float, hi: float) -> float:
    return lo if x < lo else hi if x > hi else x


def evidence(alternatives: list[tuple[str, float]], share: float, free: str, free_over: float) -> tuple[float, ...]:
    """The measures of :data:`FEATURES` for a constrained result: its n-best (normalized
    text, score; best first), the best one's share, the free decode (normalized) and its
    score over the best sentence's before the game's prior."""
    best_text, best = alternatives[0]
    second = alternatives[1][1] if len(alternatives) > 1 else best - 15.0
    odds = math.log(max(share, 1e-6) / max(1.0 - share, 1e-6))
    return (_clip(odds, -5.0, 10.0), _clip(best, -15.0, 10.0), _clip(best - second, 0.0, 15.0),
            1.0 if normalize_text(free) == best_text else 0.0,
            _clip(free_over if math.isfinite(free_over) else 15.0, -10.0, 15.0),
            _clip(sum(c.isalpha() for c in best_text) / 10.0, 0.0, 2.0))


def calibrated(x: tuple[float, ...]) -> float:
    """The probability that the sentence is right (logistic over :func:`evidence`)."""
    z = INTERCEPT + sum(c * v for c, v in zip(COEF, x))
    return 1.0 / (1.0 + math.exp(-z))
