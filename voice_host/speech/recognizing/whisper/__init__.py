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


def available() -> bool:
    """faster-whisper and a Whisper model are installed."""
    return installed("faster_whisper", find_whisper_model)


def owns(model: Path) -> bool:
    """A CTranslate2 Whisper folder (model.bin)."""
    return (model / "model.bin").is_file()


def second_ear():
    """Whisper tiny.en as a second ear (recognizer.SecondEar), for the registry's
    ``second_ear_for``."""
    from .second import WhisperEar

    return WhisperEar()


create = recognizer_class = WhisperRecognizer
"""Its recognizers, made as the registry asks (``create(model, **options)``), declare what
they take (``searches``, ``takes_phrases``, ...)."""


__all__ = ["WhisperRecognizer", "available", "create", "owns", "second_ear"]
