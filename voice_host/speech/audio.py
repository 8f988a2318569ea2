"""Audio every stage shares: the one sample rate, resampling, WAV files, the devices.

Listening (voice_host.speech.listening) reads sources at :data:`SAMPLE_RATE`, recognizing
takes utterances at that rate, speaking renders the host's voice and plays it on an
output device: all three use this module, which uses none of them.
"""

from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path

import numpy as np

SAMPLE_RATE = 16000
"""The rate every source delivers, and every recognizer and detector expects (Hz)."""


@dataclass
class DeviceInfo:
    """One audio device as sounddevice reports it."""

    index: int
    """sounddevice's device index (what `--device` takes)."""
    name: str
    """The device's name."""
    max_input_channels: int
    """How many input channels it offers (0 for output-only devices)."""
    max_output_channels: int
    """How many output channels it offers."""
    default_samplerate: float
    """The device's native sample rate (Hz)."""
    hostapi: str
    """The host API (ALSA, PulseAudio, CoreAudio, ...)."""
    default_input: bool = False
    """True for the system's default input device."""
    default_output: bool = False
    """True for the system's default output device."""


def rms(audio: np.ndarray) -> float:
    """The RMS level of a clip (0 for none)."""
    x = np.asarray(audio, dtype=np.float32).reshape(-1)
    return float(np.sqrt(np.mean(x ** 2))) if x.size else 0.0


def frame_rms(audio: np.ndarray, frame: int = 160, hop: int | None = None) -> np.ndarray:
    """The RMS of each whole ``frame`` samples of a clip (10 ms at 16 kHz), one every
    ``hop`` samples (default: ``frame``, frames side by side); none for a clip shorter
    than a frame. Never 0 (1e-6 for silence), for the decibels of it."""
    x = np.asarray(audio, dtype=np.float32).reshape(-1)
    if x.size < frame:
        return np.zeros(0)
    hop = hop or frame
    frames = np.lib.stride_tricks.sliding_window_view(x, frame)[::hop]
    return np.sqrt(np.mean(frames ** 2, axis=1) + 1e-12)


def _speech_db(levels: np.ndarray) -> float:
    voiced = levels[levels > levels.max() * 0.05]
    return float(20 * np.log10(np.sqrt(np.mean(voiced ** 2)) + 1e-6))


def speech_level(audio: np.ndarray) -> float:
    """The speech level of a clip in dB full scale: the RMS of its voiced 10 ms frames
    (those within 26 dB of the loudest), so that the silence around a word does not
    lower it. -120 for silence."""
    levels = frame_rms(audio)
    return _speech_db(levels) if levels.size else -120.0


def speech_over_noise(audio: np.ndarray) -> float:
    """How far the speech in a clip stands out from the sound around it (dB): its speech
    level over the level of its quietest tenth of 10 ms frames. An utterance as the
    listener hands it on holds some of the room before and after the word (the pre-roll,
    the trailing silence), so this is the room's noise as the word met it."""
    levels = frame_rms(audio)
    if levels.size < 10:
        return 0.0
    return _speech_db(levels) - float(20 * np.log10(np.percentile(levels, 10) + 1e-6))


def resample(samples: np.ndarray, rate: float, to: int = SAMPLE_RATE) -> np.ndarray:
    """Resample a whole signal ((n,) or (n, channels)) from `rate` to `to` Hz with soxr."""
    samples = np.asarray(samples, dtype=np.float32)
    if int(round(rate)) == to:
        return samples
    import soxr

    return np.asarray(soxr.resample(samples, rate, to, quality="HQ"), dtype=np.float32)


def read_wav(path: str | Path) -> np.ndarray:
    """Read a whole audio file as float32 (frames, channels) at SAMPLE_RATE."""
    import soundfile as sf

    data, rate = sf.read(str(path), dtype="float32", always_2d=True)
    return resample(data, rate).reshape(-1, data.shape[1])


def write_wav(path: str | Path, samples: np.ndarray, rate: int = SAMPLE_RATE) -> None:
    """Write float32 samples ((n,) or (n, channels)) as a 16-bit PCM WAV file."""
    import soundfile as sf

    sf.write(str(path), np.clip(samples, -1.0, 1.0), rate, subtype="PCM_16")


def trim(audio: np.ndarray, threshold_db: float = -45.0, keep: float = 0.02) -> np.ndarray:
    """`audio` (16 kHz) without its leading and trailing silence (frames under
    `threshold_db`), keeping `keep` seconds of each."""
    frame = 160
    if audio.size < frame:
        return audio
    loud = np.flatnonzero(20 * np.log10(frame_rms(audio, frame)) > threshold_db)
    if loud.size == 0:
        return audio
    a = max(0, loud[0] * frame - int(keep * SAMPLE_RATE))
    b = min(audio.size, (loud[-1] + 1) * frame + int(keep * SAMPLE_RATE))
    return audio[a:b]


def list_devices() -> list[DeviceInfo]:
    """All audio devices sounddevice (PortAudio) can see; empty when there are none."""
    try:
        import sounddevice as sd
    except OSError:  # PortAudio library missing
        return []
    try:
        devices = sd.query_devices()
        apis = sd.query_hostapis()
        default_in, default_out = sd.default.device
    except Exception:
        return []
    out = []
    for i, d in enumerate(devices):
        out.append(
            DeviceInfo(
                index=i,
                name=d["name"],
                max_input_channels=int(d["max_input_channels"]),
                max_output_channels=int(d["max_output_channels"]),
                default_samplerate=float(d["default_samplerate"]),
                hostapi=apis[d["hostapi"]]["name"],
                default_input=(i == default_in),
                default_output=(i == default_out),
            )
        )
    return out


__all__ = ["SAMPLE_RATE", "DeviceInfo", "list_devices", "read_wav", "resample", "trim", "write_wav"]
