"""Moonshine base's weights, read from the moonshine-cpp .ort files, under the names
of transformers' ``MoonshineForConditionalGeneration`` (no torch needed here).

The .ort weights are int8 with a per-tensor float scale and an offset added after
scaling (w = q * scale + offset: a Cast -> Mul -> Add chain); convert.py's flatbuffer
reader and constant folder give them as float arrays. The decoder's weights live in
the merged graph's main graph and are used by the If node's branches (the first step
is the else-branch). Most MatMul weights are anonymous ("onnx::MatMul_1947"): each is
named here by the node that consumes it ("/layers.0/self_attn/q_proj/MatMul" ->
``model.encoder.layers.0.self_attn.q_proj.weight``), and MatMul weights are stored
(in, out), the transpose of torch's Linear (out, in).

:func:`graph_map` gives, for one graph, torch name -> (ONNX constant name, layout);
convert.py adds an adaptation delta (see .delta) to the constants with
:func:`apply_to_consts` before it writes the converted graphs. The training pipeline
(training/weights.py, outside the package) reads the whole state dict with the same map.
"""

from __future__ import annotations

import numpy as np

HIDDEN, INTERMEDIATE, LAYERS, VOCAB_PADDED = 416, 1664, 8, 32768


def expected_shapes() -> dict[str, tuple[int, ...]]:
    """Every tensor of the torch model's state dict (proj_out is tied to the embedding)."""
    h, i = HIDDEN, INTERMEDIATE
    out: dict[str, tuple[int, ...]] = {
        "model.encoder.conv1.weight": (h, 1, 127), "model.encoder.conv2.weight": (2 * h, h, 7),
        "model.encoder.conv2.bias": (2 * h,), "model.encoder.conv3.weight": (h, 2 * h, 3),
        "model.encoder.conv3.bias": (h,), "model.encoder.groupnorm.weight": (h,),
        "model.encoder.groupnorm.bias": (h,), "model.encoder.layer_norm.weight": (h,),
        "model.decoder.embed_tokens.weight": (VOCAB_PADDED, h), "model.decoder.norm.weight": (h,),
    }
    for n in range(LAYERS):
        e, d = f"model.encoder.layers.{n}.", f"model.decoder.layers.{n}."
        for p in ("q", "k", "v", "o"):
            out[f"{e}self_attn.{p}_proj.weight"] = (h, h)
            out[f"{d}self_attn.{p}_proj.weight"] = (h, h)
            out[f"{d}encoder_attn.{p}_proj.weight"] = (h, h)
        out.update({f"{e}mlp.fc1.weight": (i, h), f"{e}mlp.fc1.bias": (i,), f"{e}mlp.fc2.weight": (h, i),
                    f"{e}mlp.fc2.bias": (h,), f"{e}input_layernorm.weight": (h,),
                    f"{e}post_attention_layernorm.weight": (h,)})
        # the gated MLP: fc1's output holds the value half first, then the gate half
        out.update({f"{d}mlp.fc1.weight": (2 * i, h), f"{d}mlp.fc1.bias": (2 * i,), f"{d}mlp.fc2.weight": (h, i),
                    f"{d}mlp.fc2.bias": (h,), f"{d}input_layernorm.weight": (h,),
                    f"{d}post_attention_layernorm.weight": (h,), f"{d}final_layernorm.weight": (h,)})
    return out


_RENAME = ((".dense", ".o_proj"), (".up_proj", ".fc1"), (".down_proj", ".fc2"))
_OPS = {"MatMul", "Gather", "Mul", "Add", "Conv"}


def _torch_name(node_name: str, op: str, pos: int) -> str | None:
    parts = node_name.strip("/").split("/")[:-1]  # drop the op ("MatMul", "Add_1", ...)
    if not parts:
        return None
    base = ".".join(parts)
    if not base.startswith("model."):
        base = "model.encoder." + base
    for a, b in _RENAME:
        base = base.replace(a, b)
    if op == "Add" or (op == "Conv" and pos == 2):
        return base + ".bias"
    return base + ".weight"


def _subgraphs(graph):
    yield graph
    for n in graph.node:
        for a in n.attribute:
            if a.type == 5:  # GRAPH
                yield from _subgraphs(a.g)


def graph_map(graph, consts: dict[str, np.ndarray]) -> dict[str, tuple[str, str]]:
    """torch name -> (name of the folded constant in `graph`, layout) for the weights
    the graph (or its branches) consumes; layout "T" (MatMul, stored transposed), "col"
    ((n, 1) -> (n,)) or "id"."""
    shapes = expected_shapes()
    found: dict[str, tuple[str, str]] = {}
    for g in _subgraphs(graph):
        for n in g.node:
            if n.op_type not in _OPS:
                continue
            for pos, inp in enumerate(n.input):
                arr = consts.get(inp)
                if arr is None or arr.dtype != np.float32 or arr.size < 8:
                    continue
                name = _torch_name(n.name, n.op_type, pos)
                if name not in shapes:
                    continue
                layout = "T" if n.op_type == "MatMul" else ("col" if arr.ndim == 2 and arr.shape[1] == 1 else "id")
                old = found.get(name)
                if old is not None and old[0] != inp:
                    raise ValueError(f"{name} is consumed from two constants: {old[0]} and {inp}")
                found[name] = (inp, layout)
    return found


def to_onnx(arr: np.ndarray, layout: str, shape: tuple[int, ...]) -> np.ndarray:
    """A tensor in torch's layout as the ONNX constant of `shape` holds it."""
    if layout == "T":
        return np.ascontiguousarray(arr.T)
    return arr.reshape(shape)


def apply_to_consts(graph, consts: dict[str, np.ndarray], diffs: dict[str, np.ndarray],
                    weight_ops: set[str] = frozenset({"Cast", "Mul", "Add"})) -> list[str]:
    """Add `diffs` (torch names and layout) to the folded constants of `graph` (and to
    its initializers of those names) in place, a weight the graph computed becoming a
    constant (its `weight_ops` nodes left unused are dropped); the torch names applied."""
    from onnx import numpy_helper

    inits = {t.name: t for t in graph.initializer}
    producers = {o: n for n in graph.node for o in n.output}
    done = []
    for name, (onnx_name, layout) in graph_map(graph, consts).items():
        d = diffs.get(name)
        if d is None:
            continue
        base = consts[onnx_name]
        new = (base + to_onnx(d.astype(np.float32), layout, base.shape)).astype(base.dtype)
        consts[onnx_name] = new
        if onnx_name in inits:  # a float initializer (a bias, a norm) the graph keeps as it is
            inits[onnx_name].CopyFrom(numpy_helper.from_array(new, onnx_name))
        elif onnx_name in producers:  # a weight the graph computes (Cast -> Mul -> Add): now a constant
            graph.node.remove(producers.pop(onnx_name))
            graph.initializer.append(numpy_helper.from_array(new, onnx_name))
        done.append(name)
    while True:
        used = {i for n in graph.node for i in n.input} | {o.name for o in graph.output}
        dead = [n for n in graph.node if n.op_type in weight_ops and not any(o in used for o in n.output)]
        if not dead:
            return done
        for n in dead:
            graph.node.remove(n)
