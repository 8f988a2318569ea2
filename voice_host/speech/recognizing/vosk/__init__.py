"""The vosk (Kaldi) engine: streaming, partial results, its own endpoints, word timings,
runtime grammars for closed sets (``recognizer``: :class:`~.recognizer.VoskRecognizer`).
The registry (recognizing.engines) finds it by its name: ``available``, ``owns`` and
``create`` below.
"""

from __future__ import annotations

from pathlib import Path

from ..models import find_vosk_model, installed
from .recognizer import VoskRecognizer

name = "vosk"
recognizer_class = VoskRecognizer
"""What its recognizers can take, declared by the class (searches, takes_phrases, ...)."""


def available() -> bool:
    """The vosk package and a vosk model are installed."""
    return installed("vosk", find_vosk_model)


def owns(model: Path) -> bool:
    """Any folder the other engines do not own: vosk is the last in AUTO_ORDER, and its
    error says what a vosk model folder needs."""
    return True


def create(model: str | Path | None = None, **options) -> VoskRecognizer:
    return VoskRecognizer(model, **options)


__all__ = ["VoskRecognizer", "available", "create", "owns"]
