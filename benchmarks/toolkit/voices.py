"""Synthetic voices: synth.py's, voices varied with sox effects, and any clip played faster."""

from __future__ import annotations

import subprocess

import numpy as np

from voice_host.speech.audio import SAMPLE_RATE

from .synth import MissingTool, add_noise, place, speech_bounds, synth, tool_missing  # noqa: F401  (the benchmarks')


def say(text: str, spec: str) -> np.ndarray:
    """`text` in voice `spec`: a synth voice ("awb", or "awb~p200~t0.95" for synth.py's
    own effects), optionally '|'-separated sox effects after it ("rms|pitch -250")."""
    base, *effects = spec.split("|")
    audio = synth(text, base)
    for effect in effects:
        raw = (np.clip(audio, -1, 1) * 32767).astype("<i2").tobytes()
        fmt = ["-t", "raw", "-r", str(SAMPLE_RATE), "-e", "signed", "-b", "16", "-c", "1"]
        out = subprocess.run(["sox", "-R", *fmt, "-", *fmt, "-", *effect.split()], input=raw,  # -R: the same dither
                             capture_output=True, check=True)
        audio = np.frombuffer(out.stdout, "<i2").astype(np.float32) / 32768.0
    return audio


def speed(audio: np.ndarray, factor: float) -> np.ndarray:
    """Played `factor` times faster (pitch moves with it, like sox speed)."""
    if abs(factor - 1.0) < 1e-6:
        return audio
    n = max(1, int(round(audio.size / factor)))
    return np.interp(np.arange(n) * factor, np.arange(audio.size), audio).astype(np.float32)
