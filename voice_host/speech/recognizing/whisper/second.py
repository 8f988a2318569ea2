"""Whisper as a second ear (the recognizer protocol's ``SecondEar``): whisper tiny.en
reading the same utterance as the first recognizer, on a core of its own while the
first decodes, for a second opinion of what was said (docs/RECOGNIZING.md, "A second
opinion"). The registry builds it (engines.second_ear_for) and gives it to the first
recognizer, which never imports it.

Whisper encodes a 30 s window whatever the clip's length (about 0.5 s on a shared
2-core machine). The second ear encodes the clip and ``PAD`` seconds of silence after
it instead, about a fifth of the work: on 128 real recordings of single words the
window of the clip and 4 s heard 102 right where the full window heard 101 (1 s: 97).
A window that ends with the speech makes whisper repeat it ("dog dog dog"), so a
reading is the words said once (:func:`once`), numbers as words ("8," -> "eight").
"""

from __future__ import annotations

import math
import re
import time
from concurrent.futures import Future, ThreadPoolExecutor
from pathlib import Path

import numpy as np

from ...audio import SAMPLE_RATE
from ..recognizer import SecondReading, normalize_text
from .recognizer import load_whisper_model

PAD = 4.0
"""Seconds of silence after the clip in the window whisper encodes."""
WINDOW = 30.0
"""Whisper's longest window (its encoder's positions)."""
MAX_TOKENS = 32
"""Tokens a reading may run to: a word, a name and a word, or a sentence of the table's."""
PROMPT_TOKENS = 120
"""Tokens of a prompt kept (its end): whisper's own limit is about 220."""


def once(words: list[str]) -> list[str]:
    """The words said once: a word repeated at once is said once ("forward forward"),
    and a reading that is one phrase over and over is that phrase ("ben cat ben cat")."""
    out = [w for i, w in enumerate(words) if i == 0 or words[i - 1] != w]
    for k in range(1, len(out)):
        if all(out[i] == out[i % k] for i in range(len(out))):
            return out[:k]
    return out


def reading(text: str) -> str:
    """Whisper's text as a reading: lower case, numbers as words, said once."""
    words = [x for w in re.findall(r"[\w']+", text) for x in normalize_text(w).split()]
    return " ".join(once(words))


class WhisperEar:
    """A second ear (recognizer.SecondEar): whisper tiny.en (int8, one thread) reading an utterance in the background:
    :meth:`hear` starts it and returns at once, its future's result is what it heard."""

    def __init__(self, model_path: str | Path | None = None, *, pad: float = PAD, threads: int = 1,
                 _model=None):
        from faster_whisper.tokenizer import Tokenizer

        from ..models import find_whisper_model

        self.model = _model if _model is not None else load_whisper_model(
            model_path or find_whisper_model(), "int8", threads)
        self.pad = pad
        self.tokenizer = Tokenizer(self.model.hf_tokenizer, self.model.model.is_multilingual,
                                   task="transcribe", language="en")
        self._pool = ThreadPoolExecutor(1, thread_name_prefix="second-ear")

    def hear(self, audio: np.ndarray, prompt: str | None = None) -> Future:
        """Start reading ``audio`` (16 kHz mono) on the second ear's own thread."""
        return self._pool.submit(self.read, np.asarray(audio, np.float32).reshape(-1), prompt)

    def read(self, audio: np.ndarray, prompt: str | None = None) -> SecondReading:
        """What whisper hears in ``audio`` (``prompt``: words it is told to expect)."""
        import ctranslate2

        began = time.perf_counter()
        window = min(audio.size + int(self.pad * SAMPLE_RATE), int(WINDOW * SAMPLE_RATE))
        clip = np.zeros(window, np.float32)
        clip[: min(audio.size, window)] = audio[:window]
        features = self.model.feature_extractor(clip, padding=0)[:, : int(WINDOW * 100)]
        encoded = self.model.model.encode(ctranslate2.StorageView.from_array(np.ascontiguousarray(features[None])),
                                          to_cpu=False)
        tok = self.tokenizer
        start = [*tok.sot_sequence, tok.no_timestamps]
        if prompt:
            start = [tok.sot_prev, *tok.encode(" " + prompt.strip())[-PROMPT_TOKENS:], *start]
        result = self.model.model.generate(encoded, [start], beam_size=1, max_length=MAX_TOKENS + len(start),
                                           suppress_blank=True, return_scores=True)
        ids = [i for i in result[0].sequences_ids[0] if i < tok.eot]
        return SecondReading(reading(tok.decode(ids)), math.exp(result[0].scores[0]) if result[0].scores else 0.0,
                             time.perf_counter() - began)


__all__ = ["PAD", "SecondReading", "WhisperEar", "once", "reading"]
