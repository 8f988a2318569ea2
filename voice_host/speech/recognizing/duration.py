"""How long a sentence takes to say, against how long the player spoke.

A search restricted to a language may end a long utterance as a one-syllable word
("workforce" heard "good", "predominantly" heard "breathe"): the decoder's end token
after a short word can cost less than the long word it half heard. A scorekeeper
would not take one syllable for a second of speech. :class:`LengthFit` turns the
voiced duration of an utterance into a penalty (in nats, Moonshine's scale) on every
sentence with too few syllables to fill it; the search applies it where a sentence
ends, so the longer readings stay in its beam.

Only too short is penalized: a word said fast, or half lost in noise (the voiced
duration shrinks as noise covers the quiet parts), is never pushed down. The bounds
come from the single words the benchmarks say (the toolkit's synthetic voices, tuning split):
voiced at most 0.56 s for one syllable, 0.88 s for two, 1.12 s for five, with 0.3 s
before and up to 0.5 s after the word, as the VAD cuts it.
"""

from __future__ import annotations

import re
from functools import lru_cache

import numpy as np

from ..audio import SAMPLE_RATE, frame_rms

FRAME = 320
"""20 ms frames."""
ABOVE_FLOOR_DB = 8.0
"""A frame is voiced this far above the utterance's quietest tenth (the room)..."""
BELOW_PEAK_DB = 35.0
"""...and no further below its loudest frame (digital silence has no floor)."""


def voiced_seconds(audio: np.ndarray) -> float:
    """Seconds of `audio` (mono, 16 kHz) loud enough to be speech (see the constants)."""
    level = 20 * np.log10(frame_rms(audio, FRAME))
    if not level.size:
        return 0.0
    threshold = max(float(np.percentile(level, 10)) + ABOVE_FLOOR_DB, float(level.max()) - BELOW_PEAK_DB)
    return float(np.count_nonzero(level > threshold)) * FRAME / SAMPLE_RATE


_GROUPS = re.compile(r"[aeiouy]+")
_TWO = re.compile(r"(?<![qg])(ia|io|iu|eo|ua|uo)")


@lru_cache(maxsize=65536)
def syllables(sentence: str) -> int:
    """Syllables of a lower-case sentence, from its spelling (vowel groups; a silent
    final e, -es and -ed after most consonants; "io", "ia" as two). It errs towards more
    syllables, as it should for a bound that only punishes too few. (CMUdict's
    pronunciations are read only when the dictionary is built, and loading them per
    game would cost more than this bound needs.)"""
    total = 0
    for word in sentence.split():
        word = re.sub(r"[^a-z]", "", word)
        if not word:
            continue
        n = len(_GROUPS.findall(word)) + len(_TWO.findall(word))
        if n > 1 and word.endswith("e") and not word.endswith(("le", "ee", "ye")):
            n -= 1
        elif n > 1 and re.search(r"[^sxzgch]es$", word):
            n -= 1
        elif n > 1 and re.search(r"[^aeiouytd]ed$", word):
            n -= 1
        total += max(1, n)
    return total


class LengthFit:
    """The penalty on a sentence too short for an utterance voiced for `voiced` seconds:
    ``weight`` nats per second of voice beyond ``base + per_syllable * syllables``."""

    def __init__(self, voiced: float, weight: float = 8.0, base: float = 0.45, per_syllable: float = 0.2):
        self.voiced, self.weight, self.base, self.per_syllable = voiced, weight, base, per_syllable

    @classmethod
    def of(cls, audio: np.ndarray, **settings) -> "LengthFit":
        return cls(voiced_seconds(audio), **settings)

    def __call__(self, sentence: str) -> float:
        """0, or minus the nats `sentence` loses for being too short (normalized text)."""
        over = self.voiced - (self.base + self.per_syllable * syllables(sentence))
        return -self.weight * over if over > 0 else 0.0
