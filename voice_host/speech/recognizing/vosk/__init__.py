"""The vosk (Kaldi) engine: streaming, partial results, its own endpoints, word timings,
runtime grammars for closed sets (``recognizer``: :class:`~.recognizer.VoskRecognizer`).
The registry (recognizing.engines) finds it by its name: ``available``, ``owns`` and
``create`` (its recognizer class) below.
"""

from __future__ import annotations

from pathlib import Path

from ..models import find_vosk_model, installed
from .recognizer import VoskRecognizer

name = "vosk"


def available() -> bool:
    """The vosk package and a vosk model are installed."""
    return installed("vosk", find_vosk_model)


def owns(model: Path) -> bool:
    """Any folder the other engines do not own: vosk is the last in AUTO_ORDER, and its
    error says what a vosk model folder needs."""
    return True


create = recognizer_class = VoskRecognizer
"""Its recognizers, made as the registry asks (``create(model, **options)``), declare what
they take (``searches``, ``takes_phrases``, ...)."""


__all__ = ["VoskRecognizer", "available", "create", "owns"]
