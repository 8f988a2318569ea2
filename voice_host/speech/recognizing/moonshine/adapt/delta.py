"""The delta format: what adaptation changes in Moonshine base, stored small.

A delta file is::

    b"VHDELTA1\\n" | 8-byte little-endian header length | JSON header | payload

The header lists the tensors (torch names, see .weights), each stored as int8 with one
float32 scale per row (per tensor for 1-D tensors), deflated (zlib), or as two fp16
low-rank factors (``kind: "lowrank"``, A @ B). Tensors that did not change are left out.
``sha256`` is the SHA-256 of the header without that field (canonical JSON) followed by
the payload: :func:`load` recomputes it and refuses a damaged file with a sentence a
player can act on. ``meta`` says what the delta was trained on and how (free form).

Applying a delta is exact up to its own quantization: the converted ONNX graphs get
base + dequantized difference added to their folded float weights (convert.py, before
its int8 re-quantization), and :func:`apply_torch` does the same to torch weights.
"""

from __future__ import annotations

import hashlib
import json
import struct
import zlib
from dataclasses import dataclass, field
from pathlib import Path

import numpy as np

MAGIC = b"VHDELTA1\n"
FORMAT = 1


class DamagedDelta(ValueError):
    """The delta file is not one, or its checksum does not match."""


def _refuse(path, why: str) -> DamagedDelta:
    return DamagedDelta(f"The adapted recognizer's file {path} is damaged ({why}). Reinstall voice-host, or set "
                        '[speech] model = "base" in your settings to use the base recognizer.')


def quantize(d: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    """(int8 values, float32 scales: one per row, or one for a 1-D tensor)."""
    d = np.asarray(d, np.float32)
    rows = d.reshape(d.shape[0], -1) if d.ndim > 1 else d.reshape(1, -1)
    scale = (np.abs(rows).max(axis=1) / 127.0).astype(np.float32)
    safe = np.where(scale > 0, scale, 1.0).astype(np.float32)
    q = np.clip(np.rint(rows / safe[:, None]), -127, 127).astype(np.int8)
    return q.reshape(d.shape), scale


def dequantize(q: np.ndarray, scale: np.ndarray) -> np.ndarray:
    rows = q.reshape(scale.size, -1).astype(np.float32) * scale[:, None]
    return rows.reshape(q.shape)


@dataclass
class Delta:
    tensors: dict[str, np.ndarray]
    """The differences, float32, as stored (dequantized / low-rank product)."""
    meta: dict = field(default_factory=dict)
    sha256: str = ""

    def __len__(self) -> int:
        return len(self.tensors)


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


def _digest(header: dict, payload: bytes) -> str:
    h = dict(header)
    h.pop("sha256", None)
    return hashlib.sha256(json.dumps(h, sort_keys=True, separators=(",", ":")).encode() + payload).hexdigest()


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
    header["sha256"] = _digest(header, payload)
    raw = json.dumps(header, sort_keys=True).encode()
    path = Path(path)
    tmp = path.with_suffix(path.suffix + ".tmp")
    tmp.write_bytes(MAGIC + struct.pack("<Q", len(raw)) + raw + payload)
    tmp.replace(path)
    return header["sha256"]


def read_header(path: Path) -> tuple[dict, bytes]:
    data = Path(path).read_bytes()
    if not data.startswith(MAGIC) or len(data) < len(MAGIC) + 8:
        raise _refuse(path, "it is not a voice-host delta")
    n = struct.unpack("<Q", data[len(MAGIC):len(MAGIC) + 8])[0]
    try:
        header = json.loads(data[len(MAGIC) + 8:len(MAGIC) + 8 + n])
    except (ValueError, UnicodeDecodeError):
        raise _refuse(path, "its header cannot be read") from None
    if not isinstance(header, dict) or header.get("format") != FORMAT:
        raise _refuse(path, "its format is unknown")
    return header, data[len(MAGIC) + 8 + n:]


def checksum(path: Path) -> str:
    """The checksum the file claims (its cache key); :func:`load` verifies it."""
    return read_header(path)[0].get("sha256", "")


def load(path: Path) -> Delta:
    """The delta in `path`, its checksum verified (DamagedDelta otherwise)."""
    header, payload = read_header(path)
    if header.get("sha256") != _digest(header, payload):
        raise _refuse(path, "its checksum does not match")
    stored: dict[str, np.ndarray] = {}
    for e in header["tensors"]:
        blob = zlib.decompress(payload[e["offset"]:e["offset"] + e["length"]])
        shape = tuple(e["shape"])
        if e["kind"] == "f16":
            stored[e["name"]] = np.frombuffer(blob, np.float16).astype(np.float32).reshape(shape)
        else:
            rows = e["rows"]
            scale = np.frombuffer(blob[:4 * rows], np.float32)
            q = np.frombuffer(blob[4 * rows:], np.int8).reshape(shape)
            stored[e["name"]] = dequantize(q, scale)
    tensors = {}
    for name, arr in stored.items():
        if name.endswith("@A"):
            tensors[name[:-2]] = arr @ stored[name[:-2] + "@B"]
        elif not name.endswith("@B"):
            tensors[name] = arr
    return Delta(tensors, header.get("meta", {}), header["sha256"])


def apply_numpy(weights: dict[str, np.ndarray], delta: Delta) -> dict[str, np.ndarray]:
    """base weights (torch names) + delta, as a new dict."""
    unknown = sorted(set(delta.tensors) - set(weights))
    if unknown:
        raise ValueError(f"the delta changes tensors the model does not have: {unknown[:3]}")
    return {k: (v + delta.tensors[k]).astype(np.float32) if k in delta.tensors else v for k, v in weights.items()}


def apply_torch(model, delta: Delta) -> None:
    """Add the delta to a torch model's parameters in place."""
    import torch

    params = dict(model.named_parameters())
    with torch.no_grad():
        for name, d in delta.tensors.items():
            if name not in params:
                raise ValueError(f"the delta changes {name}, which the model does not have")
            params[name].add_(torch.from_numpy(d).to(params[name].dtype))
