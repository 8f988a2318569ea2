"""Writing an adaptation delta (the format: voice_host/speech/recognizing/moonshine/delta.py,
which the host reads), and adding one to a torch model.

:func:`make` takes the differences between the base and the tuned weights, :func:`save`
quantizes them (int8 with a float32 scale per row) or keeps low-rank factors as fp16,
deflates them and writes the file with its checksum; :func:`apply_torch` adds a loaded
delta to a torch model's parameters, as convert.py adds it to the ONNX graphs.
"""

from __future__ import annotations

import json
import struct
import zlib
from pathlib import Path

import numpy as np

from voice_host.speech.recognizing.moonshine.delta import FORMAT, MAGIC, Delta, digest


def quantize(d: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    """(int8 values, float32 scales: one per row, or one for a 1-D tensor)."""
    d = np.asarray(d, np.float32)
    rows = d.reshape(d.shape[0], -1) if d.ndim > 1 else d.reshape(1, -1)
    scale = (np.abs(rows).max(axis=1) / 127.0).astype(np.float32)
    safe = np.where(scale > 0, scale, 1.0).astype(np.float32)
    q = np.clip(np.rint(rows / safe[:, None]), -127, 127).astype(np.int8)
    return q.reshape(d.shape), scale


def make(base: dict[str, np.ndarray], tuned: dict[str, np.ndarray], rank: int = 0,
         min_change: float = 0.0) -> dict[str, np.ndarray]:
    """tuned - base per tensor, leaving out those that did not change (max |d| <=
    `min_change`); with `rank` > 0, 2-D differences are cut to that rank (SVD) and
    stored as the pair (A, B) under "NAME@A" / "NAME@B"."""
    out = {}
    for name, b in base.items():
        t = tuned.get(name)
        if t is None:
            continue
        d = np.asarray(t, np.float32) - np.asarray(b, np.float32)
        if not np.abs(d).max() > min_change:
            continue
        if rank and d.ndim == 2 and min(d.shape) > 2 * rank:
            u, s, vt = np.linalg.svd(d, full_matrices=False)
            out[name + "@A"] = (u[:, :rank] * s[:rank]).astype(np.float32)
            out[name + "@B"] = vt[:rank].astype(np.float32)
        else:
            out[name] = d
    return out


def save(path: Path, diffs: dict[str, np.ndarray], meta: dict | None = None, level: int = 6) -> str:
    """Write `diffs` (from :func:`make`) to `path`, deflated at zlib `level` (6: ~5%
    smaller than 1, 5x slower); the file's checksum."""
    entries, chunks, offset = [], [], 0
    for name in sorted(diffs):
        d = np.asarray(diffs[name], np.float32)
        if "@" in name:  # a low-rank factor: fp16
            blob, e = zlib.compress(d.astype(np.float16).tobytes(), level), {"kind": "f16"}
        else:
            q, scale = quantize(d)
            blob, e = zlib.compress(scale.tobytes() + q.tobytes(), level), {"kind": "q8", "rows": int(scale.size)}
        entries.append({"name": name, "shape": list(d.shape), "offset": offset, "length": len(blob), **e})
        chunks.append(blob)
        offset += len(blob)
    payload = b"".join(chunks)
    header = {"format": FORMAT, "tensors": entries, "meta": meta or {}}
    header["sha256"] = digest(header, payload)
    raw = json.dumps(header, sort_keys=True).encode()
    path = Path(path)
    tmp = path.with_suffix(path.suffix + ".tmp")
    tmp.write_bytes(MAGIC + struct.pack("<Q", len(raw)) + raw + payload)
    tmp.replace(path)
    return header["sha256"]


def apply_torch(model, delta: Delta) -> None:
    """Add the delta to a torch model's parameters in place."""
    import torch

    params = dict(model.named_parameters())
    with torch.no_grad():
        for name, d in delta.tensors.items():
            if name not in params:
                raise ValueError(f"the delta changes {name}, which the model does not have")
            params[name].add_(torch.from_numpy(d).to(params[name].dtype))
