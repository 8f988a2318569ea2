"""The guard on the training machine: held-out real people (mix.guard_rows, packed), heard
by the base model and by adapted ones, free decoding in PyTorch, side by side.

It only measures, on recordings no training set holds (mix.check_training_recording
refuses them): Speech Commands' held-out speakers and Picovoice's "computer" (another
source), clean, under four other held-out clips' words at 10 dB, and through a
generated room as a far microphone (RT60 0.4 s, the reverberation as loud as the direct
sound, 12 dB quieter, pink noise 20 dB under the near word). A word is right when the
decode, without punctuation and case, is the word ("4" reads "four"). The host's own
benchmarks (benchmarks/real_speech.py) judge a delta; this picks one.
"""

from __future__ import annotations

import re

import numpy as np

from . import augment, mix

CONDITIONS = ("clean", "babble 10 dB", "far mic")
NUMBERS = {str(i): w for i, w in enumerate(mix.DIGITS)}


def normalize(text: str) -> str:
    words = re.sub(r"[^a-z0-9' ]", " ", text.lower()).split()
    return " ".join(NUMBERS.get(w, w) for w in words)


def condition(audio: np.ndarray, name: str, others: list[np.ndarray], rng: np.random.Generator) -> np.ndarray:
    x = mix.trim_speech(audio, keep=0.1)
    ref = mix.level(x)
    if name == "far mic":
        x = mix.reverberate(x, mix.generated_room(rng, 0.4, 0.0)) * 10 ** (-12 / 20)
    pad = np.zeros(int(0.3 * mix.RATE), np.float32)
    x = np.concatenate([pad, x, pad])
    if name == "babble 10 dB":
        picks = [others[int(i)] for i in rng.integers(0, len(others), size=4)]
        x = mix.under(x, mix.babble(picks, x.size, rng), 10, ref, rng)
    elif name == "far mic":
        x = mix.under(x, augment.noise("pink", x.size, rng), 20, ref, rng)
    return x.astype(np.float32)


def transcribe(model, clips: list[np.ndarray], tok, device, batch: int = 64) -> list[str]:
    """Greedy decodes of `clips` (16 kHz float32)."""
    import torch

    out = []
    for i in range(0, len(clips), batch):
        part = clips[i:i + batch]
        n = max(c.size for c in part)
        audio = np.zeros((len(part), n), np.float32)
        mask = np.zeros((len(part), n), np.int64)
        for j, c in enumerate(part):
            audio[j, :c.size], mask[j, :c.size] = c, 1
        with torch.no_grad(), torch.autocast(device.type, dtype=torch.bfloat16, enabled=device.type == "cuda"):
            ids = model.generate(input_values=torch.from_numpy(audio).to(device),
                                 attention_mask=torch.from_numpy(mask).to(device), max_new_tokens=24)
        out += [tok.decode([t for t in seq.tolist() if t > 2]) for seq in ids]
    return out


def guard(models: dict, clips: list[tuple[dict, np.ndarray]], tok, device, seed: int = 0) -> dict:
    """{model: {condition: {source: [right, of]}}} and every miss, for each model."""
    others = [a for _, a in clips]
    heard = {}
    for cond in CONDITIONS:
        rng = np.random.default_rng(seed)
        audio = [condition(a, cond, others[:k] + others[k + 1:], rng) for k, (_, a) in enumerate(clips)]
        for name, model in models.items():
            said = transcribe(model, audio, tok, device)
            table = heard.setdefault(name, {}).setdefault(cond, {})
            for (row, _), text in zip(clips, said):
                cell = table.setdefault(row["source"], [0, 0, []])
                cell[1] += 1
                if normalize(text) == row["word"]:
                    cell[0] += 1
                else:
                    cell[2].append(f"{row['word']} -> {text!r}")
    return heard


def right(heard: dict) -> int:
    """One model's words right over every condition and source."""
    return sum(cell[0] for sources in heard.values() for cell in sources.values())


def format_guard(heard: dict) -> str:
    lines = []
    for name, conds in heard.items():
        for cond, sources in conds.items():
            cells = ", ".join(f"{src} {r}/{n} ({100 * r / max(1, n):.1f}%)" for src, (r, n, _) in sources.items())
            lines.append(f"{name:10} {cond:13} {cells}")
    return "\n".join(lines)
