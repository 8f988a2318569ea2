"""python -m training synth|pack|train|mixed|export|evaluate|info|heldout (from the repository root)"""

from __future__ import annotations

import argparse
import json
import sys
import time
from pathlib import Path


def _synth(a) -> int:
    from .synth import read_manifest, synthesize
    from .texts import training_words

    words = training_words(seed=a.seed, games=not a.no_games)
    voices = a.voices.split(",") if a.voices else None
    t = time.monotonic()
    m = synthesize(Path(a.out), a.clips, voices, a.seed, a.jobs, words)
    rows = read_manifest(m)
    hours = sum(r["seconds"] for r in rows) / 3600
    print(f"{len(rows)} clips ({hours:.2f} h) in {m} in {time.monotonic() - t:.0f} s")
    return 0


def _train(a) -> int:
    from .train import train

    s = train(Path(a.manifest), Path(a.out), a.steps, a.batch, a.lr, a.warmup, a.weight_decay, a.part, a.distill,
              a.rank, a.seed, a.device, a.save_torch)
    print(json.dumps({k: v for k, v in s.items() if k != "loss_curve"}, indent=1))
    return 0


def _pack(a) -> int:
    from . import mix
    from .synth import read_manifest

    out, data = Path(a.out), Path(a.data)
    out.mkdir(parents=True, exist_ok=True)
    t = time.monotonic()
    synthetic = read_manifest(Path(a.manifest))
    root = Path(a.manifest).parent
    rows = [dict(r, path=str(root / r["path"])) for r in synthetic[:a.synthetic or None]]
    sizes = {"synthetic.pack": mix.pack(rows, out / "synthetic.pack", trim=False),
             "real.pack": mix.pack(mix.real_rows(data, fsdd=a.fsdd), out / "real.pack"),
             "rooms.pack": mix.pack_rooms(data, out / "rooms.pack"),
             "guard.pack": mix.pack(mix.guard_rows(data), out / "guard.pack")}
    print(json.dumps({k: f"{v / 1e6:.1f} MB" for k, v in sizes.items()}), f"in {time.monotonic() - t:.0f} s")
    return 0


def _mixed(a) -> int:
    import torch

    from voice_host.speech.recognizing.moonshine.delta import load

    from . import guard, mix
    from .delta import apply_torch
    from .tokens import Tokenizer
    from .torchmodel import load_base
    from .train import train
    from .weights import base_weights

    packs, out = Path(a.packs), Path(a.out)
    out.mkdir(parents=True, exist_ok=True)
    dev = torch.device(a.device or ("cuda" if torch.cuda.is_available() else "cpu"))
    t = time.monotonic()
    weights, tok = base_weights(), Tokenizer()
    clips = mix.unpack(packs / "guard.pack")
    base = mix.MixedBatches(packs / "synthetic.pack", packs / "real.pack", packs / "rooms.pack", a.batch)
    print(f"{len(base.synthetic)} synthetic and {len(base.real)} real clips, {len(clips)} to guard with, "
          f"read in {time.monotonic() - t:.0f} s", flush=True)
    heard = guard.guard({"base": load_base(weights=weights).to(dev)}, clips, tok, dev)
    print(guard.format_guard(heard), flush=True)
    trained, scores = {}, {}
    for variant in a.variant:
        name, part, steps, lr, distill, share, seconds = variant.split(":")
        base.real_share = float(share)
        batches = mix.Prefetched(base, a.workers)
        s = train(packs, out / name, int(steps), a.batch, float(lr), min(200, int(steps) // 5), part=part,
                  distill=float(distill), device=str(dev), weights=weights, batches=batches, log_every=50,
                  max_seconds=float(seconds))
        trained[name] = s
        print(json.dumps({k: v for k, v in s.items() if k != "loss_curve"}), flush=True)
        model = load_base(weights=weights)
        apply_torch(model, load(out / name / "adapted.delta"))
        heard.update(guard.guard({name: model.to(dev)}, clips, tok, dev))
        print(guard.format_guard({name: heard[name]}), flush=True)
        (out / "guard.json").write_text(json.dumps(heard, indent=1))
        scores[name] = guard.right(heard[name])
        if a.copy_to:  # what comes back from a GPU machine: the guard's best deltas, in parts of 15 MiB
            dest = Path(a.copy_to)
            dest.mkdir(parents=True, exist_ok=True)
            (dest / "guard.json").write_text(json.dumps(heard, indent=1))
            (dest / "train.json").write_text(json.dumps(trained, indent=1))
            copy_best(out, dest, scores, a.keep)
        print(f"{name}: {scores[name]} right (base {guard.right(heard['base'])})", flush=True)
    return 0


PART_BYTES = 15 << 20


def copy_best(out: Path, dest: Path, scores: dict, keep: int) -> None:
    """Leave in DEST, in parts of 15 MiB, the deltas of the `keep` variants the guard
    ranked best (an earlier one before a later one of the same score)."""
    best = sorted(scores, key=lambda n: -scores[n])[:keep]
    for old in dest.glob("*.delta.*"):
        if old.name.split(".")[0] not in best:
            old.unlink()
    for name in best:
        if not any(dest.glob(f"{name}.delta.*")):
            data = (out / name / "adapted.delta").read_bytes()
            for i in range(0, len(data), PART_BYTES):
                (dest / f"{name}.delta.{i >> 20:03d}").write_bytes(data[i:i + PART_BYTES])


def _export(a) -> int:
    from voice_host.speech.recognizing.moonshine.convert import convert_model
    from voice_host.speech.recognizing.moonshine.files import find_model_dir

    t = time.monotonic()
    convert_model(find_model_dir(), Path(a.out), Path(a.delta))
    print(f"encoder.onnx, decoder_first.onnx, decoder_next.onnx (base + {a.delta}) in {a.out} "
          f"in {time.monotonic() - t:.0f} s")
    return 0


def _info(a) -> int:
    from voice_host.speech.recognizing.moonshine.delta import load, read_header

    header, payload = read_header(Path(a.delta))
    d = load(Path(a.delta))
    print(json.dumps({"sha256": d.sha256, "tensors": len(d), "bytes": Path(a.delta).stat().st_size,
                      "payload_bytes": len(payload), "meta": header.get("meta", {})}, indent=1))
    return 0


def _heldout(a) -> int:
    from .heldout import benchmark_words

    words = sorted(benchmark_words(games=not a.no_games))
    print("\n".join(words) if a.list else f"{len(words)} words held out")
    return 0


def main(argv: list[str] | None = None) -> int:
    p = argparse.ArgumentParser(prog="python -m training",
                                description="Adapt Moonshine base to the table: synthesize, train, export, evaluate.")
    sub = p.add_subparsers(dest="cmd", required=True)
    s = sub.add_parser("synth", help="synthesize the training set (training voices only)")
    s.add_argument("out")
    s.add_argument("--clips", type=int, default=66000)
    s.add_argument("--voices", help="comma-separated training voices (default: all of voices.training_voices)")
    s.add_argument("--jobs", type=int, default=1)
    s.add_argument("--seed", type=int, default=0)
    s.add_argument("--no-games", action="store_true", help="skip the board games' words when holding words out")
    s.set_defaults(run=_synth)
    t = sub.add_parser("train", help="fine-tune on a manifest and write OUT/adapted.delta")
    t.add_argument("manifest")
    t.add_argument("out")
    t.add_argument("--steps", type=int, default=1200)
    t.add_argument("--batch", type=int, default=128)
    t.add_argument("--lr", type=float, default=3e-5)
    t.add_argument("--warmup", type=int, default=200)
    t.add_argument("--weight-decay", type=float, default=0.01)
    t.add_argument("--part", choices=("all", "decoder", "encoder", "upper"), default="all")
    t.add_argument("--distill", type=float, default=0.0, help="weight of KL(base || adapted)")
    t.add_argument("--rank", type=int, default=0, help="store 2-D differences at this rank (0: int8 in full)")
    t.add_argument("--seed", type=int, default=0)
    t.add_argument("--device", help="cuda or cpu (default: cuda when there is one)")
    t.add_argument("--save-torch", action="store_true")
    t.set_defaults(run=_train)
    k = sub.add_parser("pack", help="pack synthetic clips, real training speech, rooms and the guard for a GPU machine")
    k.add_argument("manifest", help="a synth manifest (its clips said plainly: the mix adds the rooms)")
    k.add_argument("data", help="the real-audio folder (benchmarks/real_speech.py says what it holds)")
    k.add_argument("out")
    k.add_argument("--synthetic", type=int, default=0, help="pack only the first N synthetic clips")
    k.add_argument("--fsdd", type=int, help="at most N of the spoken digits (six speakers), spread over them")
    k.set_defaults(run=_pack)
    m = sub.add_parser("mixed", help="train on packs (synthetic and real speech, in rooms); guard on held-out people")
    m.add_argument("packs")
    m.add_argument("out")
    m.add_argument("--variant", action="append", required=True, help="NAME:PART:STEPS:LR:DISTILL:REAL_SHARE:SECONDS")
    m.add_argument("--batch", type=int, default=128)
    m.add_argument("--workers", type=int, default=8)
    m.add_argument("--device")
    m.add_argument("--copy-to", help="also copy the best deltas (in parts of 15 MiB), train.json and guard.json here")
    m.add_argument("--keep", type=int, default=1, help="how many of the guard's best deltas --copy-to keeps")
    m.set_defaults(run=_mixed)
    x = sub.add_parser("export", help="write the host's ONNX graphs (int8) for base + delta into OUT")
    x.add_argument("delta")
    x.add_argument("out")
    x.set_defaults(run=_export)
    e = sub.add_parser("evaluate", help="held-out words and voices: choose among N, free decoding")
    e.add_argument("--delta", help="an adapted.delta (default: the base model)")
    e.add_argument("--compare", action="store_true", help="with --delta: the base model too, side by side")
    e.add_argument("--words", help="a file of held-out words (default: benchmarks/recognition.py's held-out half)")
    e.add_argument("--choices", type=int, default=500)
    e.add_argument("--voices", default="joe,fest_slt,slt")
    e.add_argument("--conditions", default="clean,20,10")
    e.add_argument("--seed", type=int, default=0)
    e.add_argument("--threads", type=int)
    e.add_argument("--json")
    e.set_defaults(run=lambda a: __import__(f"{__package__}.evaluate", fromlist=["main"]).main(a))
    i = sub.add_parser("info", help="check a delta's checksum and print its header")
    i.add_argument("delta")
    i.set_defaults(run=_info)
    h = sub.add_parser("heldout", help="the words no training set may hold")
    h.add_argument("--list", action="store_true")
    h.add_argument("--no-games", action="store_true")
    h.set_defaults(run=_heldout)
    a = p.parse_args(argv)
    return a.run(a)


if __name__ == "__main__":
    sys.exit(main())
