"""Real people and real rooms in the training mix.

The synthetic clips (.synth) teach the table's words and sentences; this module adds what
no synthesizer gives: real people (the tuning split of the real recordings that
benchmarks/real_speech.py describes) and, on the training machine, the rooms they are
heard in: other people talking under the word (babble), real household noise, a room's
reverberation and a far microphone.

- :func:`real_rows` lists the real recordings a training set may hold, and
  :func:`check_training_recording` refuses every held-out one (Speech Commands speakers
  8-f by the benchmarks' own split, benchmarks/toolkit/splits.py; Picovoice,
  DSPSpeech-20, the pocketsphinx recordings), as voices.check_training_voice refuses
  the held-out voices. :func:`guard_rows` lists held-out ones for the guard, which only
  measures.
- :func:`pack` writes clips as Opus at about 10 kbit/s into one file, so that a
  training set fits what travels to a GPU machine; :func:`unpack` reads it back.
- :class:`MixedBatches` draws batches from packs (a share of real speech in each) and
  puts each clip in a random room (:func:`in_room`).

Rooms held out of training: the benchmarks' kitchen ("doing the dishes") and their
living-room impulse response (MIT IR survey). Training uses the other Speech Commands
background recordings (a running tap, an exercise bike, a cat), a real seminar room's
clap (spatialaudio exercises, CC0) and generated rooms (decaying noise, RT60 0.2-0.7 s).
"""

from __future__ import annotations

import io
import pickle
from pathlib import Path

import numpy as np

from toolkit.splits import speech_commands, speech_commands_split

from . import augment

RATE = 16000
DIGITS = ("zero", "one", "two", "three", "four", "five", "six", "seven", "eight", "nine")
TRAINING_NOISES = ("running_tap", "exercise_bike", "dude_miaowing")


class HeldOutRecording(ValueError):
    """A held-out real recording was asked into a training set."""


def check_training_recording(row: dict) -> dict:
    """`row` itself when its recording may be trained on; raises HeldOutRecording."""
    source, speaker = row.get("source", ""), row.get("speaker", "")
    if source in ("speech commands", "speech commands v1") and speech_commands_split(speaker) == "tuning":
        return row
    if source == "fsdd":
        return row
    raise HeldOutRecording(f"{row.get('path')}: {source} speaker {speaker!r} is held out of every training set")


def _all_real(data: Path) -> list[dict]:
    rows = speech_commands(data / "speech_commands_test_v002", "speech commands")
    rows += speech_commands(data / "speech_commands_vinsis", "speech commands v1")
    for path in sorted((data / "fsdd").rglob("*.wav")):
        digit, speaker, _ = path.stem.split("_")
        rows.append({"source": "fsdd", "speaker": speaker, "word": DIGITS[int(digit)],
                     "text": DIGITS[int(digit)].capitalize() + ".", "path": str(path)})
    return rows


def real_rows(data: Path, fsdd: int | None = None) -> list[dict]:
    """The real recordings a training set may hold, each {source, speaker, word, text,
    path}; at most `fsdd` of the spoken digits (evenly spread), when given."""
    out = []
    for r in _all_real(Path(data)):
        try:
            out.append(check_training_recording(r))
        except HeldOutRecording:
            continue
    digits = [r for r in out if r["source"] == "fsdd"]
    if fsdd is not None and len(digits) > fsdd:
        keep = {id(r) for r in digits[::-(-len(digits) // fsdd)]}
        out = [r for r in out if r["source"] != "fsdd" or id(r) in keep]
    return out


def guard_rows(data: Path, per_word: int = 8, computer: int = 60) -> list[dict]:
    """Held-out real recordings for the guard: Speech Commands' held-out speakers (up to
    `per_word` a word) and Picovoice's "computer" (another source)."""
    data = Path(data)
    by_word: dict[str, list[dict]] = {}
    for r in speech_commands(data / "speech_commands_test_v002", "speech commands"):
        if speech_commands_split(r["speaker"]) == "held-out" and r["word"] not in ("yes", "no"):
            by_word.setdefault(r["word"], []).append(r)
    out = [r for rows in by_word.values() for r in rows[:per_word]]
    pico = sorted(p for p in (data / "picovoice_wwb").rglob("*") if p.parent.name == "computer")
    out += [{"source": "picovoice", "speaker": p.stem, "word": "computer", "text": "Computer.", "path": str(p)}
            for p in pico[:computer]]
    return out


def read_16k(path: str | Path) -> np.ndarray:
    """A recording as 16 kHz mono float32."""
    from voice_host.speech.audio import read_wav

    return read_wav(path)[:, 0]


def trim_speech(audio: np.ndarray, below_peak_db: float = 30.0, keep: float = 0.1) -> np.ndarray:
    """`audio` without what lies before and after its speech (10 ms frames more than
    `below_peak_db` under the loudest), keeping `keep` seconds each side: real
    recordings carry their room's noise, so a fixed threshold would trim nothing."""
    frame = 160
    n = audio.size // frame
    if n == 0:
        return audio
    rms = np.sqrt(np.mean(audio[:n * frame].reshape(n, frame) ** 2, axis=1) + 1e-12)
    loud = np.flatnonzero(rms > rms.max() * 10 ** (-below_peak_db / 20))
    a = max(0, loud[0] * frame - int(keep * RATE))
    b = min(audio.size, (loud[-1] + 1) * frame + int(keep * RATE))
    return audio[a:b]


def encode(audio: np.ndarray) -> bytes:
    import soundfile as sf

    buf = io.BytesIO()
    sf.write(buf, np.clip(audio, -1, 1), RATE, format="OGG", subtype="OPUS", compression_level=1.0)
    return buf.getvalue()


def decode(data: bytes) -> np.ndarray:
    import soundfile as sf

    audio, rate = sf.read(io.BytesIO(data), dtype="float32", always_2d=True)
    if rate != RATE:
        raise ValueError(f"a packed clip is at {rate} Hz, not {RATE}")
    return audio[:, 0]


def pack(rows: list[dict], out: Path, trim: bool = True) -> int:
    """Write `rows` (each with a `path`) and their audio, Opus-coded, to the file `out`;
    its size in bytes."""
    items = []
    for r in rows:
        audio = read_16k(r["path"])
        items.append(({k: v for k, v in r.items() if k != "path"}, encode(trim_speech(audio) if trim else audio)))
    Path(out).write_bytes(pickle.dumps(items, protocol=4))
    return Path(out).stat().st_size


def unpack(path: Path) -> list[tuple[dict, np.ndarray]]:
    """(row, 16 kHz float32 audio) of each clip in a pack."""
    return [(row, decode(data)) for row, data in pickle.loads(Path(path).read_bytes())]


# ---------------------------------------------------------------- rooms

level = augment.speech_rms
"""The RMS of the voiced 10 ms frames (those within 26 dB of the loudest)."""


def generated_room(rng: np.random.Generator, rt60: float, drr_db: float) -> np.ndarray:
    """An impulse response: a direct path, then 4 ms later noise decaying by 60 dB in
    `rt60` s, `drr_db` quieter in all than the direct path (about +5 dB near a speaker,
    -5 dB across a room)."""
    n = int(rt60 * RATE)
    t = np.arange(n) / RATE
    tail = rng.standard_normal(n) * 10 ** (-3 * t / rt60)
    tail[: int(0.004 * RATE)] = 0
    tail *= 10 ** (-drr_db / 20) / np.sqrt(np.sum(tail ** 2))
    tail[0] = 1.0
    return (tail / np.sqrt(np.sum(tail ** 2))).astype(np.float32)


def reverberate(x: np.ndarray, rir: np.ndarray) -> np.ndarray:
    n = x.size + rir.size - 1
    size = 1 << (n - 1).bit_length()
    y = np.fft.irfft(np.fft.rfft(x, size) * np.fft.rfft(rir, size), size)[:x.size]
    return (y * level(x) / (level(y) + 1e-9)).astype(np.float32)


def under(x: np.ndarray, noise: np.ndarray, snr_db: float, ref: float, rng: np.random.Generator) -> np.ndarray:
    """`x` with `noise` (looped or cut to fit, from a random point) `snr_db` under `ref`."""
    if noise.size < x.size:
        noise = np.tile(noise, x.size // max(1, noise.size) + 1)
    start = int(rng.integers(0, noise.size - x.size + 1))
    part = noise[start:start + x.size]
    return x + part * (ref / (np.sqrt(np.mean(part ** 2)) + 1e-9) / 10 ** (snr_db / 20))


def babble(others: list[np.ndarray], n: int, rng: np.random.Generator) -> np.ndarray:
    """Other people's words summed over `n` samples, each at a random place and level."""
    out = np.zeros(n, np.float32)
    for o in others:
        o = o[:n] / (level(o) + 1e-9) * 10 ** (rng.uniform(-6, 0) / 20)
        at = int(rng.integers(-o.size // 2, n - o.size // 2 + 1))
        a, b = max(0, at), min(n, at + o.size)
        if b > a:
            out[a:b] += o[a - at:b - at]
    return out


def in_room(x: np.ndarray, rng: np.random.Generator, noises: list[np.ndarray], rirs: list[np.ndarray],
            talk: list[np.ndarray]) -> tuple[np.ndarray, list[str]]:
    """A clean clip `x` as a table might hear it, and what was done: speed, a room or a far
    microphone, silence around it, other people talking under it, household noise, level."""
    done = []
    if rng.random() < 0.5:
        f = rng.uniform(0.9, 1.1)
        x = augment.speed(x, f)
        done.append(f"speed {f:.2f}")
    ref = level(x)
    far = False
    if rng.random() < 0.25:
        far = rng.random() < 0.4
        rir = rirs[int(rng.integers(len(rirs)))] if rirs and rng.random() < 0.3 else \
            generated_room(rng, rng.uniform(0.2, 0.7), rng.uniform(-5, 2) if far else rng.uniform(0, 10))
        x = reverberate(x, rir)
        if far:
            x = x * 10 ** (-12 / 20)
        done.append("far microphone" if far else "room")
    x = np.concatenate([np.zeros(int(rng.uniform(0.05, 0.5) * RATE), np.float32), x,
                        np.zeros(int(rng.uniform(0.05, 0.6) * RATE), np.float32)])
    if talk and rng.random() < 0.35:
        k = int(rng.integers(1, 5))
        picks = [talk[int(i)] for i in rng.integers(0, len(talk), size=k)]
        snr = rng.uniform(0, 20)
        x = under(x, babble(picks, x.size, rng), snr, ref, rng)
        done.append(f"babble of {k} {snr:.0f} dB")
    if far or rng.random() < 0.35:
        snr = rng.uniform(5, 25) if far else rng.uniform(0, 30)
        src = noises[int(rng.integers(len(noises)))] if noises and rng.random() < 0.6 else \
            augment.noise(("pink", "white")[int(rng.integers(2))], x.size, rng)
        x = under(x, src, snr, ref, rng)
        done.append(f"noise {snr:.0f} dB")
    x = x * 10 ** (rng.uniform(-12, 6) / 20)
    peak = float(np.abs(x).max() or 1.0)
    return (x / peak * 0.99 if peak > 0.99 else x).astype(np.float32), done


class MixedBatches:
    """Batches of (audio, token ids) from packs, endlessly: `real_share` of each batch is
    real speech, every clip in a random room (:func:`in_room`); other real speakers'
    clips are the babble."""

    def __init__(self, synthetic: Path, real: Path, rooms: Path | None, batch: int, seed: int = 0,
                 real_share: float = 0.4, tokenizer=None):
        from .tokens import Tokenizer

        self.synthetic, self.real = unpack(synthetic), unpack(real)
        for row, _ in self.real:
            check_training_recording(row)
        room = pickle.loads(Path(rooms).read_bytes()) if rooms else {"noises": [], "rirs": []}
        self.noises = [decode(b) for b in room["noises"]]
        self.rirs = [np.asarray(r, np.float32) for r in room["rirs"]]
        self.talk = [a for _, a in self.real]
        self.tok = tokenizer or Tokenizer()
        self.batch, self.real_share, self.seed = batch, real_share, seed
        self.rng = np.random.default_rng(seed)
        self.rows = self.synthetic + self.real

    def __iter__(self):
        return self

    def __next__(self):
        from .train import collate

        clips, ids = [], []
        for _ in range(self.batch):
            pool = self.real if self.real and self.rng.random() < self.real_share else self.synthetic
            row, audio = pool[int(self.rng.integers(len(pool)))]
            x, _ = in_room(audio, self.rng, self.noises, self.rirs, self.talk)
            clips.append(x)
            ids.append(self.tok.encode(row["text"]))
        return collate(clips, ids)


class Prefetched:
    """A MixedBatches drawn in `workers` processes (torch's DataLoader), each with its own
    seed, so that the rooms are made while the GPU trains."""

    def __init__(self, batches: MixedBatches, workers: int = 8):
        import torch

        class Stream(torch.utils.data.IterableDataset):
            def __iter__(self):
                info = torch.utils.data.get_worker_info()
                if info is not None:
                    batches.rng = np.random.default_rng([batches.seed, info.id])
                return batches

        self.rows, self.batch = batches.rows, batches.batch
        self._it = iter(torch.utils.data.DataLoader(Stream(), batch_size=None, num_workers=workers,
                                                    prefetch_factor=4 if workers else None,
                                                    multiprocessing_context="fork" if workers else None))

    def __iter__(self):
        return self

    def __next__(self):
        return next(self._it)


def pack_rooms(data: Path, out: Path) -> int:
    """The training rooms (never the benchmarks' kitchen or living room) into one file."""
    data = Path(data)
    noises = [encode(read_16k(p)) for p in sorted((data / "sc_background_noise_wids").rglob("*.wav"))
              if p.stem in TRAINING_NOISES]
    rirs = [read_16k(p)[: RATE] for p in sorted((data / "spatialaudio_exercises").rglob("rir_clap.wav"))]
    rirs = [(r / (np.sqrt(np.sum(r ** 2)) + 1e-9)).astype(np.float16) for r in rirs]
    Path(out).write_bytes(pickle.dumps({"noises": noises, "rirs": rirs}, protocol=4))
    return Path(out).stat().st_size
