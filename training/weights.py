"""Moonshine base's whole state dict, read from the moonshine-cpp .ort files as numpy
arrays under the names of transformers' ``MoonshineForConditionalGeneration`` (the map
from ONNX constants to those names: voice_host/speech/recognizing/moonshine/weights.py).
"""

from __future__ import annotations

from pathlib import Path

import numpy as np

from voice_host.speech.recognizing.moonshine.files import find_model_dir
from voice_host.speech.recognizing.moonshine.weights import expected_shapes, graph_map

ENCODER, DECODER = "encoder_model.ort", "decoder_model_merged.ort"


def to_torch(arr: np.ndarray, layout: str) -> np.ndarray:
    """An ONNX constant in torch's layout (`layout` from graph_map)."""
    if layout == "T":
        return np.ascontiguousarray(arr.T)
    if layout == "col":
        return arr.reshape(-1)
    return arr


def read_graph(model_dir: Path, file: str):
    """(onnx graph, folded constants) of one .ort file (convert.py's reader)."""
    from voice_host.speech.recognizing.moonshine.ort_format import fold_constants, read_ort

    model = read_ort(Path(model_dir) / file)
    return model.graph, fold_constants(model.graph)


def base_weights(model_dir: Path | None = None) -> dict[str, np.ndarray]:
    """The whole state dict (float32 numpy arrays, torch layout, proj_out left to the
    tie); raises ValueError when a tensor is missing or has the wrong shape."""
    model_dir = Path(model_dir) if model_dir else find_model_dir()
    shapes = expected_shapes()
    out: dict[str, np.ndarray] = {}
    for file in (ENCODER, DECODER):
        graph, consts = read_graph(model_dir, file)
        for name, (onnx_name, layout) in graph_map(graph, consts).items():
            out[name] = to_torch(consts[onnx_name], layout).astype(np.float32)
        del graph, consts
    missing = sorted(set(shapes) - set(out))
    bad = [f"{k} {out[k].shape} != {shapes[k]}" for k in out if out[k].shape != shapes[k]]
    if missing or bad:
        raise ValueError(f"Moonshine weights not found: {missing[:5]} (of {len(missing)}); wrong shapes: {bad[:5]}")
    return out
