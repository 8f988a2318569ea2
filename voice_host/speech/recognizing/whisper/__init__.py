"""The whisper engine (extra "whisper"): faster-whisper run once per utterance when it
ends (``recognizer``: :class:`~.recognizer.WhisperRecognizer`). The registry
(recognizing.engines) finds it by its name: ``available``, ``owns`` and ``create`` below.
"""

from __future__ import annotations

from pathlib import Path

from ..models import find_whisper_model, installed
from .recognizer import WhisperRecognizer

name = "whisper"


def available() -> bool:
    """faster-whisper and a Whisper model are installed."""
    return installed("faster_whisper", find_whisper_model)


def owns(model: Path) -> bool:
    """A CTranslate2 Whisper folder (model.bin)."""
    return (model / "model.bin").is_file()


def create(model: str | Path | None = None, **options) -> WhisperRecognizer:
    return WhisperRecognizer(model, **options)


__all__ = ["WhisperRecognizer", "available", "create", "owns"]
