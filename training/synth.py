"""Synthesize the training set: texts (.texts) said by training voices (.voices) with
augmentations (.augment), written as 16 kHz mono WAV files and a manifest.

    python -m training synth OUT --clips 66000 --jobs 16

OUT/manifest.jsonl holds one JSON object a clip: path (relative to OUT), text, kind,
word, voice, augmentation, seconds. Every voice passes check_training_voice before it
says anything: a held-out voice raises HeldOutVoice.
"""

from __future__ import annotations

import json
import os
import random
import tempfile
from pathlib import Path

import numpy as np

from . import augment, voices

RATE = 16000


def render(text: str, voice: str, aug: dict, seed: int) -> np.ndarray:
    """`text` said by `voice`, augmented: 16 kHz float32."""
    from voice_host.speech.audio import read_wav, trim

    voices.check_training_voice(voice)
    with tempfile.TemporaryDirectory(prefix="adapt-say-") as tmp:
        wav = voices.say(text, voice, Path(tmp) / "say.wav")
        audio = read_wav(wav)[:, 0]
    return augment.apply(trim(audio), aug, seed)


def _job(args) -> dict | None:
    i, out, kind, text, word, voice, aug = args
    import soundfile as sf

    try:
        audio = render(text, voice, aug, seed=i)
    except voices.HeldOutVoice:
        raise
    except Exception as e:  # noqa: BLE001 - one voice failing on one text: skip the clip
        return {"error": f"{voice}: {text!r}: {type(e).__name__}: {e}"}
    rel = f"wav/{i // 1000:03d}/{i:07d}.wav"
    path = Path(out) / rel
    path.parent.mkdir(parents=True, exist_ok=True)
    sf.write(str(path), audio, RATE, subtype="PCM_16")
    return {"path": rel, "text": text, "kind": kind, "word": word, "voice": voice, "augmentation": aug,
            "seconds": round(audio.size / RATE, 3)}


def synthesize(out: Path, clips: int, voice_list: list[str] | None = None, seed: int = 0, jobs: int = 1,
               words: list[str] | None = None, shares: dict[str, float] | None = None,
               games: bool = False) -> Path:
    """Write `clips` clips and OUT/manifest.jsonl; the manifest's path."""
    from . import texts  # the host's sentences: only synthesis needs them, never the training on a GPU

    out = Path(out)
    out.mkdir(parents=True, exist_ok=True)
    voice_list = [voices.check_training_voice(v) for v in (voice_list or voices.training_voices())]
    missing = {v: why for v in voice_list if (why := voices.tool_missing(v))}
    if missing:
        raise RuntimeError(f"cannot synthesize: {next(iter(missing.values()))}")
    words = words or texts.training_words(seed=seed, games=games)
    rng = random.Random(seed)
    engines: dict[str, list[str]] = {}
    for v in voice_list:  # each engine gets an equal share, whatever its number of voices
        engines.setdefault(v.split(":", 1)[0], []).append(v)
    groups = list(engines.values())
    todo = [(i, str(out), kind, text, word, rng.choice(rng.choice(groups)), augment.draw(rng))
            for i, (kind, text, word) in enumerate(texts.plan(clips, words, seed, shares))]
    rows, errors = [], []
    if jobs > 1:
        from multiprocessing import get_context

        with get_context("spawn").Pool(jobs) as pool:
            results = list(pool.imap(_job, todo, chunksize=16))
    else:
        results = [_job(t) for t in todo]
    for r in results:
        (errors if "error" in r else rows).append(r)
    manifest = out / "manifest.jsonl"
    tmp = manifest.with_suffix(f".{os.getpid()}.tmp")
    tmp.write_text("".join(json.dumps(r) + "\n" for r in rows))
    tmp.replace(manifest)
    if errors:
        (out / "errors.txt").write_text("\n".join(e["error"] for e in errors) + "\n")
    return manifest


def read_manifest(path: Path) -> list[dict]:
    return [json.loads(line) for line in Path(path).read_text().splitlines() if line.strip()]
