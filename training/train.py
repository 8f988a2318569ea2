"""Fine-tune Moonshine base on a synthesized manifest (.synth), and write what changed
as a delta (.delta).

    python -m training train MANIFEST OUT \\
        --steps 1200 --batch 128 --lr 3e-5 --warmup 200       # on a GPU: bf16

The recipe the first trial run found: AdamW, lr 3e-5, 200 warm-up steps, cosine down
to 10%, weight decay 0.01, batch 128, bf16 autocast on a GPU (fp32 on a CPU), ~1,200
steps. ``--part`` adapts only part of the model (decoder, encoder, upper layers), and
``--distill W`` adds W x KL(base || adapted) over the same batch, both to keep what
the base model knows about real people. OUT gets adapted.delta, train.json (the
settings, the loss curve, the time) and, with --save-torch, the full weights.
"""

from __future__ import annotations

import json
import math
import random
import time
from pathlib import Path

import numpy as np

from .synth import read_manifest
from .tokens import Tokenizer

MAX_SECONDS = 10.0
IGNORE = -100


def load_clip(root: Path, row: dict) -> np.ndarray:
    import soundfile as sf

    audio, rate = sf.read(str(Path(root) / row["path"]), dtype="float32", always_2d=True)
    if rate != 16000:
        raise ValueError(f"{row['path']}: {rate} Hz, not 16000")
    return audio[: int(MAX_SECONDS * 16000), 0]


def collate(clips: list[np.ndarray], ids: list[list[int]]):
    """Padded tensors: input_values, attention_mask, decoder_input_ids, labels."""
    import torch

    n = max(c.size for c in clips)
    audio = np.zeros((len(clips), n), np.float32)
    mask = np.zeros((len(clips), n), np.int64)
    for i, c in enumerate(clips):
        audio[i, :c.size], mask[i, :c.size] = c, 1
    t = max(len(x) for x in ids) - 1
    dec = np.full((len(ids), t), 2, np.int64)  # eos as padding (masked out of the loss)
    lab = np.full((len(ids), t), IGNORE, np.int64)
    for i, x in enumerate(ids):
        dec[i, :len(x) - 1], lab[i, :len(x) - 1] = x[:-1], x[1:]
    return {"input_values": torch.from_numpy(audio), "attention_mask": torch.from_numpy(mask),
            "decoder_input_ids": torch.from_numpy(dec), "labels": torch.from_numpy(lab)}


class Batches:
    """Shuffled batches of (audio, token ids) from a manifest, endlessly."""

    def __init__(self, manifest: Path, batch: int, seed: int = 0, tokenizer: Tokenizer | None = None):
        self.root = Path(manifest).parent
        self.rows = read_manifest(manifest)
        if not self.rows:
            raise ValueError(f"{manifest} holds no clips")
        self.tok = tokenizer or Tokenizer()
        self.batch = min(batch, len(self.rows))
        self.rng = random.Random(seed)
        self.order: list[int] = []

    def __iter__(self):
        return self

    def __next__(self):
        if len(self.order) < self.batch:
            more = list(range(len(self.rows)))
            self.rng.shuffle(more)
            self.order += more
        take, self.order = self.order[:self.batch], self.order[self.batch:]
        rows = [self.rows[i] for i in take]
        return collate([load_clip(self.root, r) for r in rows], [self.tok.encode(r["text"]) for r in rows])


def lr_at(step: int, steps: int, peak: float, warmup: int, floor: float = 0.1) -> float:
    """Linear warm-up, then cosine from `peak` down to floor x peak."""
    if warmup and step < warmup:
        return peak * (step + 1) / warmup
    p = (step - warmup) / max(1, steps - warmup)
    return peak * (floor + (1 - floor) * 0.5 * (1 + math.cos(math.pi * min(1.0, p))))


def steps_that_fit(steps: int, done: int, elapsed: float, per_step: float, budget: float) -> int:
    """The steps in all (at most `steps`, at least one more than `done`) that end within
    `budget` seconds, `done` having taken `elapsed` and each next one `per_step`."""
    return max(done + 1, min(steps, done + int((budget - elapsed) / per_step)))


PARTS = {"all": ("model.",), "decoder": ("model.decoder.",), "encoder": ("model.encoder.",),
         "upper": ("model.decoder.", *(f"model.encoder.layers.{i}." for i in range(4, 8)), "model.encoder.layer_norm")}


def trainable(model, part: str) -> list:
    prefixes = PARTS[part]
    params = []
    for name, p in model.named_parameters():
        p.requires_grad_(name.startswith(prefixes))
        if p.requires_grad:
            params.append(p)
    return params


def loss_of(model, batch: dict, device, base=None, distill: float = 0.0, dtype=None):
    import torch
    import torch.nn.functional as F

    b = {k: v.to(device) for k, v in batch.items()}
    labels = b.pop("labels")
    with torch.autocast(device.type, dtype=dtype, enabled=dtype is not None):
        logits = model(**b).logits.float()
    loss = F.cross_entropy(logits.reshape(-1, logits.shape[-1]), labels.reshape(-1), ignore_index=IGNORE)
    if base is not None and distill > 0:
        with torch.no_grad(), torch.autocast(device.type, dtype=dtype, enabled=dtype is not None):
            ref = base(**b).logits.float()
        keep = (labels != IGNORE).reshape(-1)
        lp = F.log_softmax(logits.reshape(-1, logits.shape[-1])[keep], -1)
        lq = F.log_softmax(ref.reshape(-1, ref.shape[-1])[keep], -1)
        loss = loss + distill * F.kl_div(lp, lq, log_target=True, reduction="batchmean")
    return loss


def train(manifest: Path, out: Path, steps: int = 1200, batch: int = 128, lr: float = 3e-5, warmup: int = 200,
          weight_decay: float = 0.01, part: str = "all", distill: float = 0.0, rank: int = 0, seed: int = 0,
          device: str | None = None, save_torch: bool = False, log_every: int = 10, model_dir: Path | None = None,
          quiet: bool = False, weights: dict | None = None, level: int = 6, batches=None,
          max_seconds: float | None = None) -> dict:
    """Fine-tune and write OUT/adapted.delta and OUT/train.json; the summary
    (`weights`: base_weights() already read; `batches`: batches to train on instead of
    the manifest's, with `rows` and `batch`, as mix.MixedBatches; `max_seconds`: fewer
    steps when that many would not fit, fixed at the 15th step from the time of the ten
    before it: the first ones also start the data's workers and the GPU)."""
    import torch

    from . import delta as deltas
    from .torchmodel import load_base, state_arrays
    from .weights import base_weights

    torch.manual_seed(seed)
    dev = torch.device(device or ("cuda" if torch.cuda.is_available() else "cpu"))
    dtype = torch.bfloat16 if dev.type == "cuda" else None
    out = Path(out)
    out.mkdir(parents=True, exist_ok=True)
    base_w = weights if weights is not None else base_weights(model_dir)
    model = load_base(weights=base_w).to(dev)
    base = load_base(weights=base_w).to(dev).eval() if distill > 0 else None
    params = trainable(model, part)
    opt = torch.optim.AdamW(params, lr=lr, weight_decay=weight_decay, betas=(0.9, 0.98), eps=1e-8)
    data = batches if batches is not None else Batches(manifest, batch, seed)
    curve, t0 = [], time.monotonic()
    first = next(data)
    model.train()
    step = 0
    while step < steps:
        b = first if step == 0 else next(data)
        if max_seconds and step == 5:
            t5 = time.monotonic()
        if max_seconds and step == 15:
            fit = steps_that_fit(steps, step, time.monotonic() - t0, (time.monotonic() - t5) / 10, max_seconds)
            if fit < steps:
                steps, warmup = fit, min(warmup, fit // 5)
                print(f"{steps} steps fit in {max_seconds:.0f} s", flush=True)
        for g in opt.param_groups:
            g["lr"] = lr_at(step, steps, lr, warmup)
        loss = loss_of(model, b, dev, base, distill, dtype)
        opt.zero_grad(set_to_none=True)
        loss.backward()
        torch.nn.utils.clip_grad_norm_(params, 1.0)
        opt.step()
        curve.append(round(float(loss.detach()), 5))
        if not quiet and (step % log_every == 0 or step == steps - 1):
            print(f"step {step + 1}/{steps} loss {float(loss.detach()):.4f} lr {opt.param_groups[0]['lr']:.2e} "
                  f"{time.monotonic() - t0:.0f} s", flush=True)
        step += 1
    model.eval()
    with torch.no_grad():
        after_first = float(loss_of(model, first, dev, None, 0.0, dtype))
    tuned = state_arrays(model.float().cpu())
    diffs = deltas.make(base_w, tuned, rank=rank)
    summary = {"manifest": str(manifest), "clips": len(data.rows), "steps": steps, "batch": data.batch, "lr": lr,
               "warmup": warmup, "weight_decay": weight_decay, "part": part, "distill": distill, "rank": rank,
               "seed": seed, "device": str(dev), "dtype": "bf16" if dtype else "fp32",
               "seconds": round(time.monotonic() - t0, 1), "loss_first_batch_before": curve[0],
               "loss_first_batch_after": round(after_first, 5), "loss_curve": curve,
               "changed_tensors": len(diffs)}
    meta = {k: v for k, v in summary.items() if k != "loss_curve"}
    summary["sha256"] = deltas.save(out / "adapted.delta", diffs, meta, level)
    summary["delta_bytes"] = (out / "adapted.delta").stat().st_size
    (out / "train.json").write_text(json.dumps(summary, indent=1))
    if save_torch:
        torch.save(model.state_dict(), out / "adapted.pt")
    return summary
