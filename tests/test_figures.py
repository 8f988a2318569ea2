"""tools/figures.py: the benchmarks' --json output drawn as charts, by one command."""

from __future__ import annotations

import json
import sys

import pytest
from support import ROOT

sys.path.insert(0, str(ROOT / "tools"))
import figures  # noqa: E402

pytest.importorskip("matplotlib", reason="tools/figures.py needs matplotlib (bash .ci/setup test installs it)")

PHRASES = {"benchmark": "phrases", "model": "base", "figures": {
    "held-out|alone|clean": {"n": 35, "right": 97.1, "misses": []},
    "held-out|after a name|clean": {"n": 35, "right": 88.6, "misses": []},
    "tuning|alone|clean": {"n": 35, "right": 100.0, "misses": []}}}


def test_each_kept_run_is_drawn_and_a_stale_chart_is_found(tmp_path, capsys):
    data, out = tmp_path / "data", tmp_path / "charts"
    data.mkdir()
    (data / "phrases.json").write_text(json.dumps(PHRASES))
    kill = {"benchmark": "kill", "figures": {"prolix": {"exact": 49, "kills": 50}}}
    (data / "kill.json").write_text(json.dumps(kill))
    (data / "voice.json").write_text(json.dumps({"benchmark": "voice", "figures": {}}))
    assert figures.main(["--data", str(data), "--out", str(out)]) == 0
    said = capsys.readouterr()
    assert sorted(p.name for p in out.iterdir()) == ["kill.png", "phrases.png"]
    assert (out / "phrases.png").read_bytes()[:8] == b"\x89PNG\r\n\x1a\n"
    assert f"{out / 'phrases.png'}: 3 bars from phrases.json" in said.out
    assert "no chart for voice (voice.json)" in said.err
    assert figures.main(["--data", str(data), "--out", str(out), "--check"]) == 0
    (data / "phrases.json").write_text(json.dumps({**PHRASES, "model": "adapted"}))  # a new run, not drawn yet
    assert figures.main(["--data", str(data), "--out", str(out), "--check"]) == 1
    assert "redraw phrases.png" in capsys.readouterr().err


def test_the_bars_are_a_condition_each_coloured_by_split():
    assert figures.CHARTS["phrases"].bars(PHRASES["figures"]) == [
        ("held-out", "alone / clean", 97.1), ("held-out", "after a name / clean", 88.6),
        ("tuning", "alone / clean", 100.0)]
    assert figures.CHARTS["kill"].bars({"road": {"exact": 9, "kills": 10}}) == [("all", "road (10)", 90.0)]


def test_every_kept_run_has_its_chart_drawn():
    """docs/figures: each kept --json run's chart was drawn from it as it is."""
    assert figures.main(["--check"]) == 0
