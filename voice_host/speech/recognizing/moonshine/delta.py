"""The delta format: what adaptation changes in Moonshine base, stored small, and its reader.

A delta file is::

    b"VHDELTA1\\n" | 8-byte little-endian header length | JSON header | payload

The header lists the tensors (torch names, see .weights), each stored as int8 with one
float32 scale per row (per tensor for 1-D tensors), deflated (zlib), or as two fp16
low-rank factors (``kind: "f16"``, "NAME@A" @ "NAME@B"). Tensors that did not change
are left out. ``sha256`` is the SHA-256 of the header without that field (canonical
JSON) followed by the payload (:func:`digest`): :func:`load` recomputes it and refuses a
damaged file with a sentence a player can act on. ``meta`` says what the delta was
trained on and how (free form).

The host only reads deltas: the training pipeline (training/delta.py, outside the
package) writes them. Applying one is exact up to its own quantization: the converted
ONNX graphs get base + dequantized difference added to their folded float weights
(convert.py, before its int8 re-quantization, with .weights).
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


def dequantize(q: np.ndarray, scale: np.ndarray) -> np.ndarray:
    """int8 values times their scales (one per row), as float32."""
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


def digest(header: dict, payload: bytes) -> str:
    """The checksum of a delta: its header without "sha256", then its payload."""
    h = dict(header)
    h.pop("sha256", None)
    return hashlib.sha256(json.dumps(h, sort_keys=True, separators=(",", ":")).encode() + payload).hexdigest()


def read_header(path: Path) -> tuple[dict, bytes]:
    """(the header, the payload) of the delta in `path`, unverified (DamagedDelta when
    it is not one)."""
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
    if header.get("sha256") != digest(header, payload):
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
