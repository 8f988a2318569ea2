"""The conditions a word is heard in.

PINK noise at an SNR under the word's speech level (synth.add_noise), and
real ROOMS made from recordings under the real-audio cache (``--data``,
~/.cache/voice-host/real-audio or $VOICE_HOST_REAL_AUDIO; benchmarks/real_speech.py's
docstring says what goes there):

- kitchen 10 dB: Speech Commands' "doing the dishes", 10 dB under the word
- babble 15 dB, babble 5 dB: four other real speakers' words (Speech Commands, speakers
  of the benchmark's own split only) summed under the word
- reverb: the word through a real living-room impulse response (MIT IR survey,
  h010_Livingroom: its Schroeder decay gives T30 0.31 s, T20 0.21 s; the sample is
  0.3 s long), at the level it was said
- far mic: that reverberant word 12 dB quieter, with the kitchen 20 dB under the near word

Without the recordings, the room conditions are skipped with one sentence (``Room.open``).
"""

from __future__ import annotations

import os
import sys
import zlib
from pathlib import Path

import numpy as np

from voice_host.speech.audio import SAMPLE_RATE

from .splits import speech_commands, speech_commands_split
from .voices import add_noise

PINK = {"clean": None, "20 dB": 20.0, "10 dB": 10.0}
"""Pink-noise conditions: name -> SNR (None: clean)."""
ROOMS = ("kitchen 10 dB", "babble 15 dB", "babble 5 dB", "reverb", "far mic")
"""Real-room conditions (they need the real-audio cache)."""
SC_WORDS = ("bed", "bird", "cat", "dog", "happy", "house", "tree", "wow", "backward", "forward", "follow", "learn",
            "visual", "up", "down", "left", "right", "on", "off", "stop", "go", "zero", "one", "two", "three", "four",
            "five", "six", "seven", "eight", "nine")
"""Speech Commands' words that a player could say as a word (not yes/no, not names)."""
DSPSPEECH_WORDS = {"12": "speech", "13": "speaker", "14": "signal", "15": "process", "16": "print", "17": "open",
                   "18": "close", "19": "project"}
"""DSPSpeech-20's English words by the label in its file names (the other twelve are Mandarin)."""


def default_data() -> Path:
    return Path(os.environ.get("VOICE_HOST_REAL_AUDIO", Path.home() / ".cache" / "voice-host" / "real-audio"))


def real_clips(data: Path, per_word: int) -> list[dict]:
    """The real recordings of one word, each {source, split, word, speaker, path}: up to
    ``per_word`` a word and split (three times that of the held-out sources' words:
    Picovoice's "computer", DSPSpeech-20's), spread over speakers (sorted by a hash of
    the file name)."""
    found: dict[tuple[str, str], list[dict]] = {}
    for r in speech_commands(data / "speech_commands_test_v002", "speech commands"):
        if r["word"] in SC_WORDS:
            split = speech_commands_split(r["speaker"])
            found.setdefault((split, r["word"]), []).append(
                {"source": r["source"], "split": split, "word": r["word"], "speaker": r["speaker"],
                 "path": Path(r["path"])})
    for path in sorted(p for p in (data / "picovoice_wwb").rglob("*.wav") if p.parent.name == "computer"):
        found.setdefault(("held-out", "computer"), []).append(
            {"source": "picovoice", "split": "held-out", "word": "computer", "speaker": path.stem, "path": path})
    for path in sorted((data / "dspspeech20").glob("speech_data/*/*.wav")):
        speaker, label, _ = path.stem.split("-")
        word = DSPSPEECH_WORDS.get(label)
        if word is not None:
            found.setdefault(("held-out", f"dsp {word}"), []).append(
                {"source": "dspspeech-20", "split": "held-out", "word": word, "speaker": speaker, "path": path})
    out = []
    for group in found.values():
        group.sort(key=lambda c: zlib.crc32(c["path"].name.encode()))
        out += group[:per_word * (1 if group[0]["source"] == "speech commands" else 3)]
    return out


def talkers(data: Path, per_word: int, split: str | None = None) -> list[dict]:
    """The recordings other people's talk is made of (the babble, table.py's talk): real
    clips of Speech Commands and Picovoice (of ``split``; None: both), ``per_word`` a
    word and split as real_clips gives them."""
    return [c for c in real_clips(data, per_word)
            if c["source"] in ("speech commands", "picovoice") and split in (None, c["split"])]


def load(path: Path) -> np.ndarray:
    """A recording as mono float32 at 16 kHz."""
    import soundfile as sf
    import soxr

    audio, rate = sf.read(str(path), dtype="float32", always_2d=True)
    audio = audio.mean(axis=1)
    return soxr.resample(audio, rate, SAMPLE_RATE).astype(np.float32) if rate != SAMPLE_RATE else audio


def level(x: np.ndarray) -> float:
    """RMS of the voiced 10 ms frames (those above 5% of the loudest): the speech level."""
    n = x.size // 160
    rms = np.sqrt(np.mean(x[: n * 160].reshape(n, 160) ** 2, axis=1) + 1e-12)
    return float(np.sqrt(np.mean(rms[rms > rms.max() * 0.05] ** 2)))


def one_after_another(n: int, clip, rng: np.random.Generator, pause: tuple[float, float] = (0.1, 0.6),
                      at: int = 0, track: np.ndarray | None = None) -> np.ndarray:
    """People talking through ``n`` samples from sample ``at``: the recordings ``clip()``
    gives, one after another, each at speech level 1 (:func:`level`), with a pause of
    ``pause`` seconds (uniform, from ``rng``) after each; added into ``track`` when given.
    The talk of a room, for Room.talk, table_game.talk and phones.py's room_talk."""
    track = np.zeros(n, np.float32) if track is None else track
    while at < n:
        a = clip()
        a = a / (level(a) + 1e-9)
        track[at:at + a.size] += a[: n - at]
        at += a.size + int(rng.uniform(*pause) * SAMPLE_RATE)
    return track


def under(x: np.ndarray, noise: np.ndarray, snr: float, ref: np.ndarray, seed: int) -> np.ndarray:
    """``x`` with ``noise`` (looped, from a seeded offset) at ``snr`` dB below ``ref``'s speech level."""
    start = seed % max(1, noise.size)
    track = np.resize(np.roll(noise, -start), x.size)
    track = track * level(ref) / (np.sqrt(np.mean(track ** 2)) + 1e-12) / 10 ** (snr / 20)
    return (x + track).astype(np.float32)


def _convolve(x: np.ndarray, rir: np.ndarray) -> np.ndarray:
    if x.size < 20 * SAMPLE_RATE:
        return np.convolve(x, rir)[: x.size].astype(np.float32)
    from scipy.signal import fftconvolve  # a whole game: minutes of audio

    return fftconvolve(x, rir)[: x.size].astype(np.float32)


class Room:
    """The real noise and room the room conditions use: the kitchen, the living room's
    impulse response, and the real talkers babble is made of (``babble_from``)."""

    def __init__(self, data: Path, babble_from: list[dict]) -> None:
        dishes = next((data / "sc_background_noise_wids").rglob("doing_the_dishes.wav"))
        self.kitchen = load(dishes)
        rirs = sorted((data / "mit_ir_survey_rir_stats").rglob("*.wav"))
        living = next((p for p in rirs if "living" in p.name.lower()), rirs[0])
        rir = load(living)
        self.rir = rir / (np.abs(rir).max() + 1e-12)
        self.babble_from = babble_from
        self._loaded: dict[Path, np.ndarray] = {}

    @classmethod
    def open(cls, data: Path | None = None, split: str | None = None, why: str = "") -> "Room | None":
        """The room of the recordings under ``data``, its babble from Speech Commands
        speakers of ``split`` (None: every speaker); None, said in one sentence on
        stderr, when the recordings are missing."""
        data = data or default_data()
        try:
            babble_from = talkers(data, 3, split)
            if not babble_from:
                raise StopIteration
            return cls(data, babble_from)
        except (StopIteration, IndexError, OSError):
            print(f"room conditions skipped{why}: no real recordings under {data} "
                  "(benchmarks/real_speech.py's docstring says what goes there)", file=sys.stderr)
            return None

    def of_split(self, split: str) -> "Room":
        """The same room, its babble from the speakers of ``split`` only."""
        other = object.__new__(Room)
        other.__dict__.update(self.__dict__)
        other.babble_from = [c for c in self.babble_from if c["split"] == split]
        return other

    def _load(self, path: Path) -> np.ndarray:
        if path not in self._loaded:
            self._loaded[path] = load(path)
        return self._loaded[path]

    def babble(self, speaker: str, n: int, seed: int, count: int = 4) -> np.ndarray:
        """``count`` other speakers' words summed, each placed at random over ``n`` samples
        (none of ``speaker``'s)."""
        rng = np.random.default_rng(seed)
        others = [c for c in self.babble_from if c["speaker"] != speaker]
        track = np.zeros(n, np.float32)
        for i in rng.choice(len(others), count, replace=False):
            a = self._load(others[i]["path"])[:n]
            at = int(rng.integers(0, max(1, n - a.size)))
            track[at:at + a.size] += a / (level(a) + 1e-9)
        return track

    def talk(self, n: int, seed: int, talkers: int = 4) -> np.ndarray:
        """``talkers`` people talking at once all through ``n`` samples (a long recording):
        each one word after another, with short pauses."""
        rng = np.random.default_rng(seed)
        track = np.zeros(n, np.float32)
        for _ in range(talkers):
            one_after_another(n, lambda: self._load(self.babble_from[int(rng.integers(len(self.babble_from)))]["path"]),
                              rng, at=int(rng.integers(0, SAMPLE_RATE)), track=track)
        return track

    def reverberant(self, x: np.ndarray, ref: np.ndarray, quieter: float = 0.0) -> np.ndarray:
        """``x`` through the living room, ``quieter`` dB under ``ref``'s speech level."""
        wet = _convolve(x, self.rir)
        wet *= level(ref) / (level(wet) + 1e-12) / 10 ** (quieter / 20)
        return wet

    def apply(self, x: np.ndarray, word: np.ndarray, condition: str, seed: int, speaker: str = "") -> np.ndarray:
        """``x`` (the word with silence around it, or a whole recording) in a room
        condition; levels are set against ``word``'s speech level."""
        if condition == "kitchen 10 dB":
            return under(x, self.kitchen, 10, word, seed)
        if condition.startswith("babble "):
            snr = float(condition.split()[1])
            noise = self.babble(speaker, x.size, seed) if x.size < 20 * SAMPLE_RATE else self.talk(x.size, seed)
            return under(x, noise, snr, word, seed)
        if condition == "reverb":
            return self.reverberant(x, word)
        if condition == "far mic":  # 12 dB quieter; the kitchen 20 dB under the near word, 8 under this
            return under(self.reverberant(x, word, 12), self.kitchen, 20, word, seed)
        raise ValueError(f"not a room condition: {condition!r}")


def choose(asked: str, default: str, available=(*PINK, *ROOMS)) -> list[str]:
    """The conditions named in ``--conditions`` (comma-separated; "default" stands for
    ``default``, "rooms" for every room condition), those not available dropped with a word."""
    names: list[str] = []
    for item in (x.strip() for x in asked.split(",")):
        expand = default.split(",") if item == "default" else ROOMS if item == "rooms" else (item,)
        names += [x for x in expand if x not in names]
    if available is None:
        return names
    unknown = [x for x in names if x not in available]
    if unknown:
        print(f"unknown conditions left out: {', '.join(unknown)} (of: {', '.join(available)})", file=sys.stderr)
    return [x for x in names if x in available]


def in_condition(x: np.ndarray, word: np.ndarray, condition: str, seed: int, room: Room | None,
                 speaker: str = "") -> np.ndarray | None:
    """``x`` heard in ``condition``: pink noise over all of it at the SNR under ``word``,
    or a room; None for a room condition without a room."""
    if condition in PINK:
        snr = PINK[condition]
        return x if snr is None else add_noise(x, snr, seed=seed, reference=word)
    return None if room is None else room.apply(x, word, condition, seed, speaker)


def prepare(asked: str, default: str, splits=("tuning", "held-out"), available=(*PINK, *ROOMS)):
    """(the conditions to run, each split's room): those of ``--conditions`` (see
    ``choose``), a room condition left out when the recordings are missing."""
    conditions = choose(asked, default, available)
    room = by_split(conditions, splits)
    conditions = [c for c in conditions if c not in ROOMS or room[splits[0]] is not None]
    if not conditions:
        raise SystemExit("no condition left to run")
    return conditions, room


def by_split(conditions, splits=("tuning", "held-out"), data: Path | None = None) -> dict[str, Room | None]:
    """Each split's room (its babble of that split's real speakers only), when a room
    condition is asked for and the recordings are there; else None (said once)."""
    room = Room.open(data) if any(c in ROOMS for c in conditions) else None
    return {split: room.of_split(split) if room is not None else None for split in splits}
