"""Augmentations of a clean clip (numpy; 16 kHz float32): speed (the benchmarks' own,
benchmarks/toolkit/voices.py), level, leading and trailing silence, pink or white noise
at 0-30 dB below the speech level (the level of the voiced frames, as the benchmarks'
add_noise measures it)."""

from __future__ import annotations

import random

import numpy as np

from toolkit.voices import speed

RATE = 16000


def speech_rms(audio: np.ndarray, frame: int = 160) -> float:
    n = audio.size // frame
    if n == 0:
        return float(np.sqrt(np.mean(audio**2) + 1e-12))
    rms = np.sqrt(np.mean(audio[: n * frame].reshape(n, frame) ** 2, axis=1) + 1e-12)
    return float(np.sqrt(np.mean(rms[rms > rms.max() * 0.05] ** 2)))


def noise(kind: str, n: int, rng: np.random.Generator) -> np.ndarray:
    white = rng.standard_normal(n).astype(np.float32)
    if kind == "white":
        return white
    spec = np.fft.rfft(white)
    spec /= np.sqrt(np.arange(1, spec.size + 1))
    return np.fft.irfft(spec, n).astype(np.float32)


def draw(rng: random.Random) -> dict:
    """Random augmentation settings: a third of the clips stay clean."""
    a = {"speed": round(rng.uniform(0.85, 1.15), 3), "gain_db": round(rng.uniform(-12, 6), 1),
         "lead_s": round(rng.uniform(0.05, 0.6), 2), "trail_s": round(rng.uniform(0.05, 0.6), 2)}
    if rng.random() < 2 / 3:
        a["noise"] = rng.choice(("pink", "white"))
        a["snr_db"] = round(rng.uniform(0, 30), 1)
    return a


def apply(audio: np.ndarray, aug: dict, seed: int = 0) -> np.ndarray:
    """`audio` with the settings of :func:`draw` (deterministic for a seed)."""
    x = speed(audio.astype(np.float32), aug.get("speed", 1.0))
    x = np.concatenate([np.zeros(int(aug.get("lead_s", 0) * RATE), np.float32), x,
                        np.zeros(int(aug.get("trail_s", 0) * RATE), np.float32)])
    ref = speech_rms(audio)
    if aug.get("noise"):
        nz = noise(aug["noise"], x.size, np.random.default_rng(seed))
        nz *= ref / (np.sqrt(np.mean(nz**2)) + 1e-12) / (10 ** (aug["snr_db"] / 20))
        x = x + nz
    x = x * (10 ** (aug.get("gain_db", 0.0) / 20))
    peak = float(np.abs(x).max() or 1.0)
    return (x / peak * 0.99 if peak > 0.99 else x).astype(np.float32)
