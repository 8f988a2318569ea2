"""The benchmarks' figures as charts: each benchmark's ``--json`` output, kept in
docs/figures/data/BENCHMARK.json, drawn into docs/figures/BENCHMARK.png with matplotlib.

    .venv/bin/python benchmarks/phrases.py --quick --json docs/figures/data/phrases.json  # a run, kept
    .venv/bin/python tools/figures.py                  # redraw every chart from docs/figures/data
    .venv/bin/python tools/figures.py --check          # say which charts were not drawn from their data

One chart a benchmark: its figures as bars, one bar a condition, a colour a split
(held-out, tuning), the value written on each bar and the target as a dashed line where
the benchmark has one. A benchmark this script has no chart for is said, not guessed at.
docs/FIGURES.md shows the charts; the README keeps a short table of headline figures.
"""

from __future__ import annotations

import argparse
import hashlib
import json
import struct
import sys
from dataclasses import dataclass
from pathlib import Path
from typing import Callable

ROOT = Path(__file__).resolve().parent.parent
FIGURES = ROOT / "docs" / "figures"
DATA = FIGURES / "data"


@dataclass(frozen=True)
class Chart:
    """How one benchmark's figures are drawn: ``bars(figures)`` gives (group, label,
    value) rows (a group: a split, a colour), ``unit`` the axis's, ``target`` its line."""

    title: str
    unit: str
    bars: Callable[[dict], list[tuple[str, str, float]]]
    target: float | None = None
    lower_is_better: bool = False


def keyed(metric: str, *, skip: tuple[str, ...] = ()) -> Callable[[dict], list[tuple[str, str, float]]]:
    """Bars from figures keyed "split|what|condition[|...]": the split is the group, the
    rest the label, ``metric`` the value (rows without it, or whose key holds a ``skip``
    part, are left out)."""

    def bars(figures: dict) -> list[tuple[str, str, float]]:
        out = []
        for key, row in figures.items():
            parts = str(key).split("|")
            if not isinstance(row, dict) or row.get(metric) is None or any(p in skip for p in parts):
                continue
            out.append((parts[0], " / ".join(parts[1:]) or parts[0], float(row[metric])))
        return out

    return bars


def share(done: str, of: str) -> Callable[[dict], list[tuple[str, str, float]]]:
    """Bars from figures {name: {done: n, of: m}}: the percentage done, one group."""

    def bars(figures: dict) -> list[tuple[str, str, float]]:
        return [("all", f"{name} ({row[of]})", 100.0 * row[done] / row[of]) for name, row in figures.items()
                if isinstance(row, dict) and row.get(of)]

    return bars


def flat(unit: str) -> Callable[[dict], list[tuple[str, str, float]]]:
    """Bars from flat figures {"matcher p99 (ms)": 9.0}: those in ``unit``, one group."""

    def bars(figures: dict) -> list[tuple[str, str, float]]:
        tail = f" ({unit})"
        return [("all", key[:-len(tail)], float(v)) for key, v in figures.items()
                if key.endswith(tail) and isinstance(v, (int, float))]

    return bars


CHARTS: dict[str, Chart] = {
    "real_speech": Chart("Real people's single words heard right", "% right", keyed("right"), target=88),
    "phrases": Chart("The table's questions and commands heard right", "% right", keyed("right"), target=95),
    "board_words": Chart("A word chosen on a board, heard right", "% right", keyed("right")),
    "endings": Chart("One-word plays whose turn ended early, at 0.3 s of silence", "% ended early",
                     keyed("early")),
    "kill": Chart("Resumes exact after kill -9 at random moments", "% exact", share("exact", "kills"), target=100),
    "words": Chart("The words layer: the matcher and the solver (one board, one transcript)", "ms", flat("ms")),
}
"""The benchmarks drawn, by the name their ``--json`` output gives (its "benchmark")."""


def load(path: Path) -> dict:
    """A benchmark's ``--json`` output, or a SystemExit saying why it can't be drawn."""
    try:
        data = json.loads(path.read_text(encoding="utf-8"))
    except (OSError, ValueError) as exc:
        raise SystemExit(f"figures: {path} is no benchmark's --json output: {exc}") from None
    if not isinstance(data, dict) or "figures" not in data:
        raise SystemExit(f"figures: {path} is no benchmark's --json output (it has no figures).")
    return data


def source(path: Path) -> str:
    """What a chart records of the data it was drawn from: its file's name and SHA-256."""
    return f"{path.name} sha256 {hashlib.sha256(path.read_bytes()).hexdigest()}"


def drawn_from(chart: Path) -> str | None:
    """The ``source`` a chart records (its PNG's "Source" text), None when it has none."""
    try:
        data = chart.read_bytes()
    except OSError:
        return None
    at = 8  # after the PNG signature: chunks of length, type, data, CRC
    while at + 8 <= len(data):
        length, kind = struct.unpack(">I4s", data[at:at + 8])
        if kind == b"tEXt":
            key, _, text = data[at + 8:at + 8 + length].partition(b"\0")
            if key == b"Source":
                return text.decode("latin-1")
        at += 12 + length
    return None


def draw(name: str, data: dict, out: Path, drawn: str = "") -> int:
    """Draw ``data`` (a benchmark's --json output) into ``out``, recording ``drawn`` (its
    ``source``); the number of bars."""
    import matplotlib

    matplotlib.use("Agg")
    import matplotlib.pyplot as plt

    chart = CHARTS[name]
    rows = chart.bars(data["figures"])
    if not rows:
        raise SystemExit(f"figures: {name}'s --json output has no figures to draw.")
    groups = sorted(dict.fromkeys(g for g, _, _ in rows), key=lambda g: g != "held-out")  # the headline split first
    labels = list(dict.fromkeys(label for _, label, _ in rows))
    height = 0.8 / len(groups)
    fig, ax = plt.subplots(figsize=(8, 1.2 + 0.45 * len(labels) * max(1, len(groups) * 0.7)), dpi=100)
    for i, group in enumerate(groups):
        values = {label: v for g, label, v in rows if g == group}
        ys = [labels.index(label) + i * height for label in values]
        bars = ax.barh(ys, list(values.values()), height=height * 0.9, label=group)
        ax.bar_label(bars, fmt="%.1f", padding=3, fontsize=9)
    ax.set_yticks([k + height * (len(groups) - 1) / 2 for k in range(len(labels))], labels, fontsize=9)
    ax.invert_yaxis()
    if chart.target is not None:
        ax.axvline(chart.target, color="black", linestyle="--", linewidth=1,
                   label=f"target {'at most' if chart.lower_is_better else ''} {chart.target:g}".replace("  ", " "))
    top = max([v for _, _, v in rows] + [chart.target or 0])
    ax.set_xlim(0, top * 1.15 if top > 0 else 1)
    ax.set_xlabel(chart.unit)
    keyed_by = len(groups) > 1 or chart.target is not None  # a legend, between the title and the bars
    ax.set_title(chart.title, fontsize=11, pad=22 if keyed_by else 6)
    if keyed_by:
        ax.legend(fontsize=8, loc="lower center", bbox_to_anchor=(0.5, 1.0), ncol=3, frameon=False)
    fig.tight_layout()
    out.parent.mkdir(parents=True, exist_ok=True)
    fig.savefig(out, metadata={"Software": None, "Source": drawn})  # the data it shows, not matplotlib's version
    plt.close(fig)
    return len(rows)


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.strip().split("\n\n")[0])
    ap.add_argument("--data", type=Path, default=DATA, help="the folder of --json outputs (default: docs/figures/data)")
    ap.add_argument("--out", type=Path, default=FIGURES, help="where the charts go (default: docs/figures)")
    ap.add_argument("--check", action="store_true", help="draw nothing: fail when a chart was not drawn from its "
                    "data as it is now")
    args = ap.parse_args(argv)
    found = sorted(args.data.glob("*.json"))
    if not found:
        print(f"figures: no benchmark's --json output in {args.data}; run a benchmark with "
              f"--json {args.data}/NAME.json",
              file=sys.stderr)
        return 1
    stale = []
    for path in found:
        data = load(path)
        name = data.get("benchmark", path.stem)
        if name not in CHARTS:
            print(f"figures: no chart for {name} ({path.name}); add one to CHARTS in tools/figures.py", file=sys.stderr)
            continue
        out = args.out / f"{name}.png"
        if args.check:
            if drawn_from(out) != source(path):
                stale.append(out.name)
            continue
        n = draw(name, data, out, source(path))
        print(f"{out.relative_to(ROOT) if out.is_relative_to(ROOT) else out}: {n} bars from {path.name}")
    if stale:
        print(f"figures: redraw {', '.join(stale)}: .venv/bin/python tools/figures.py", file=sys.stderr)
        return 1
    return 0


if __name__ == "__main__":
    sys.exit(main())
