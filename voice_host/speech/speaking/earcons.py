"""Earcons: short sounds for the moments a player should notice without words.

Generated with numpy (no sound files): each is a few tones with smooth attack and
decay, at most half a second, peak 0.5 (softer than the voice), distinct in pitch and
rhythm so they can be told apart by ear:

- ``timer``: the sand timer flipped: two quick rising notes, like a tick-tock.
- ``ten_left``: ten seconds left on the timer: three short high beeps.
- ``time_up``: the sand ran out: a falling two-note chime.
- ``challenge``: a word is challenged: a rising sweep.
- ``refused``: a word is refused: a low double buzz.
- ``heard``: the host heard a player and its answer is still coming: one soft short tick.
"""

from __future__ import annotations

from functools import lru_cache

import numpy as np

NAMES = ("timer", "ten_left", "time_up", "challenge", "refused", "heard")
PEAK = 0.5


def _envelope(n: int, rate: int, attack: float = 0.005, decay: float = 4.0) -> np.ndarray:
    t = np.arange(n) / rate
    a = max(1, int(attack * rate))
    env = np.exp(-decay * t)
    env[:a] *= np.linspace(0.0, 1.0, a)
    r = max(1, int(0.01 * rate))
    env[-r:] *= np.linspace(1.0, 0.0, r)
    return env


def _tone(freq: float, dur: float, rate: int, decay: float = 4.0, harmonics=(1.0, 0.3, 0.1)) -> np.ndarray:
    n = int(dur * rate)
    t = np.arange(n) / rate
    wave = sum(a * np.sin(2 * np.pi * freq * (k + 1) * t) for k, a in enumerate(harmonics))
    return (wave * _envelope(n, rate, decay=decay)).astype(np.float32)


def _sweep(f0: float, f1: float, dur: float, rate: int) -> np.ndarray:
    n = int(dur * rate)
    t = np.arange(n) / rate
    freq = f0 * (f1 / f0) ** (t / dur)
    phase = 2 * np.pi * np.cumsum(freq) / rate
    wave = np.sin(phase) + 0.25 * np.sin(2 * phase)
    return (wave * _envelope(n, rate, decay=1.5)).astype(np.float32)


def _buzz(freq: float, dur: float, rate: int) -> np.ndarray:
    # a soft square-ish wave: odd harmonics
    return _tone(freq, dur, rate, decay=2.0, harmonics=(1.0, 0.0, 0.33, 0.0, 0.2))


def _seq(parts, rate: int) -> np.ndarray:
    out = []
    for p in parts:
        out.append(p if isinstance(p, np.ndarray) else np.zeros(int(p * rate), np.float32))
    return np.concatenate(out)


@lru_cache(maxsize=None)
def _make(name: str, rate: int) -> np.ndarray:
    if name == "timer":
        audio = _seq([_tone(660, 0.09, rate, 20), 0.05, _tone(990, 0.12, rate, 15)], rate)
    elif name == "ten_left":
        beep = _tone(1320, 0.06, rate, 10)
        audio = _seq([beep, 0.07, beep, 0.07, beep], rate)
    elif name == "time_up":
        audio = _seq([_tone(784, 0.2, rate, 6), 0.02, _tone(523, 0.3, rate, 5)], rate)
    elif name == "challenge":
        audio = _sweep(400, 1000, 0.25, rate)
    elif name == "refused":
        audio = _seq([_buzz(180, 0.12, rate), 0.06, _buzz(180, 0.12, rate)], rate)
    elif name == "heard":
        audio = _tone(1047, 0.05, rate, 40)
    else:
        raise ValueError(f"no earcon {name!r} (there are {', '.join(NAMES)})")
    peak = PEAK / 2 if name == "heard" else PEAK  # a tick, softer than the others
    audio = (audio / max(1e-9, float(np.abs(audio).max())) * peak).astype(np.float32)
    audio.setflags(write=False)
    return audio


def earcon(name: str, rate: int = 16000) -> np.ndarray:
    """The earcon ``name`` as mono float32 samples at ``rate`` Hz (read-only, cached)."""
    return _make(name, int(rate))


__all__ = ["NAMES", "earcon"]
