"""The whisper engine (extra "whisper"): faster-whisper run once per utterance when it
ends (``recognizer``: :class:`~.recognizer.WhisperRecognizer`), and whisper tiny.en as a
second ear beside another engine (``second``: :class:`~.second.WhisperEar`). The registry
(recognizing.engines) finds it by its name: ``available``, ``owns``, ``create`` and
``second_ear`` below.
"""

from __future__ import annotations

from pathlib import Path

from ..models import find_whisper_model, installed
from .recognizer import WhisperRecognizer

name = "whisper"
recognizer_class = WhisperRecognizer
"""What its recognizers can take, declared by the class (searches, takes_phrases, ...)."""


def available() -> bool:
    """faster-whisper and a Whisper model are installed."""
    return installed("faster_whisper", find_whisper_model)


def owns(model: Path) -> bool:
    """A CTranslate2 Whisper folder (model.bin)."""
    return (model / "model.bin").is_file()


def create(model: str | Path | None = None, **options) -> WhisperRecognizer:
    return WhisperRecognizer(model, **options)


def second_ear():
    """Whisper tiny.en as a second ear (recognizer.SecondEar), for the registry's
    ``second_ear_for``."""
    from .second import WhisperEar

    return WhisperEar()


__all__ = ["WhisperRecognizer", "available", "create", "owns", "second_ear"]
