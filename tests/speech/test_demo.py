"""`voice-host demo`: synthetic players are heard by the real pipeline, the host answers."""

from __future__ import annotations

import shutil
import subprocess
import sys
from pathlib import Path

from support import need

ROOT = Path(__file__).resolve().parents[2]


def test_demo_runs_the_whole_pipeline(whisper_rec):
    need(shutil.which("flite"), "flite is not installed")
    proc = subprocess.run([sys.executable, "-m", "voice_host.cli", "demo", "--no-voice", "--engine", "whisper"],
                          cwd=ROOT, capture_output=True, text=True, timeout=300)
    assert proc.returncode == 0, proc.stderr
    out = proc.stdout.splitlines()
    assert "heard: at  1.2 s Ann (by name): 'ann window'" in out
    assert "host: Ann challenges Cat's basket." in out
    assert out[-1].startswith("host: Round 2 of 6. Scores: Ben 7; Ann 1; Cat 0.")
