"""``[speech] model = "base" | "adapted"``: which Moonshine weights the host runs.

"base" (the default) is Moonshine base as moonshine-cpp ships it. "adapted" adds the
adaptation delta shipped with voice-host (SHIPPED, or $VOICE_HOST_MOONSHINE_DELTA; the
format: .delta), converted once into its own folder of the user cache. None is shipped
yet: asking for it says so in a sentence a player can act on. The deltas are made by
the training pipeline outside the package (training/, docs/ADAPTING.md).
"""

from __future__ import annotations

import os
from pathlib import Path

SHIPPED = Path(__file__).resolve().parent / "shipped" / "base-en.delta"
MODELS = ("base", "adapted")


class NoAdaptedModel(RuntimeError):
    """"adapted" was asked for and cannot be had."""


def delta_for(model: str | None) -> Path | None:
    """The delta file for the setting (None for "base")."""
    m = str(model or "base").strip().lower()
    if m == "base":
        return None
    if m != "adapted":
        raise NoAdaptedModel(f'[speech] model is "{model}"; it can be "base" or "adapted".')
    path = Path(os.environ.get("VOICE_HOST_MOONSHINE_DELTA") or SHIPPED)
    if not path.is_file():
        raise NoAdaptedModel('No adapted recognizer is installed; set [speech] model = "base".')
    return path


def recognizer_options(model: str, engine: str = "auto", second_ear: str = "off") -> dict:
    """Extra options for engines.make_recognizer from the ``[speech]`` settings
    (HearingSettings): the weights ``model`` names ({"delta": PATH} for "adapted",
    Moonshine only) and, for Moonshine, the second ear ``second_ear`` names (the
    registry builds it: engines.second_ear_for)."""
    from ..engines import recognizer_class, resolve_engine

    engine = resolve_engine(engine)
    takes = recognizer_class(engine)
    options = {"second_ear": second_ear} if takes.takes_second_ear else {}
    delta = delta_for(model)
    if delta is None:
        return options
    if not takes.takes_delta:
        raise NoAdaptedModel(f'The adapted recognizer is a Moonshine one, and the speech engine is {engine}; '
                             'set [speech] model = "base".')
    return {**options, "delta": delta}
