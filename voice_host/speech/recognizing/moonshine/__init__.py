"""The Moonshine engine (the default, "moonshine"): Moonshine base (English) run with
ONNX Runtime and a decoding loop of our own, which can search only what may be said.

- ``files``: where the model's files are (in the moonshine-cpp package).
- ``model``: the tokenizer, the ONNX sessions, and which tokens keep a text inside a
  language (:class:`~.model.MoonshineModel`).
- ``decode``: the encoder once, then the free greedy decode and the beams of the
  constrained search in one batch (:func:`~.decode.decode`).
- ``convert``: the shipped .ort files converted once into the user's cache (run as
  ``python -m voice_host.speech.recognizing.moonshine.convert``).
- ``recognizer``: :class:`~.recognizer.MoonshineRecognizer`, the Recognizer protocol
  (constrained or free text, chatter, the second pass after a name).
- ``adapted``: ``[speech] model = "base" | "adapted"``, the shipped adaptation delta;
  ``delta``: its file format, read and checked; ``weights``: the .ort weights under
  transformers' names, where convert adds a delta. The deltas are trained outside the
  package (training/, docs/ADAPTING.md).

The registry (recognizing.engines) finds it by its name: ``available``, ``owns`` and
``create`` below.
"""

from __future__ import annotations

from pathlib import Path

from ..recognizer import SecondEar
from .files import find_model_dir, moonshine_available
from .recognizer import CHATTER_MARGIN, MoonshineRecognizer

name = "moonshine"
recognizer_class = MoonshineRecognizer  # what its recognizers take, declared by the class (searches, ...)


def available() -> bool:
    """The model files and onnxruntime are installed."""
    return moonshine_available()


def owns(model: Path) -> bool:
    """A Moonshine folder (encoder_model.ort)."""
    return (model / "encoder_model.ort").is_file()


def create(model: str | Path | None = None, delta: str | Path | None = None, second_ear: SecondEar | None = None,
           **options) -> MoonshineRecognizer:
    """The recognizer; with `delta` (an adaptation delta, see .adapted), the adapted model;
    with ``second_ear`` (recognizer.SecondEar, built by the registry from ``[speech]
    second_ear``: engines.second_ear_for), its reading weighed with this one's."""
    options["second_ear"] = second_ear
    if delta is not None:
        from .model import load_moonshine_model

        options["_model"] = load_moonshine_model(model, options.get("cpu_threads"), options.get("convert", True), delta)
    return MoonshineRecognizer(model, **options)


__all__ = ["CHATTER_MARGIN", "MoonshineRecognizer", "available", "create", "find_model_dir", "owns"]
