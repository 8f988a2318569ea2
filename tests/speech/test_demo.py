"""`voice-host demo`: synthetic players are heard by the real pipeline, the host answers.

The demo is a table with one microphone and the default recognizer: each player says
who they are, then bare words (one with the name first, confirmed when the host asks),
a challenge, a question and a word spelled in the spelling alphabet.
"""

from __future__ import annotations

import shutil
import subprocess
import sys
from pathlib import Path

from support import need

ROOT = Path(__file__).resolve().parents[2]


def test_demo_runs_the_whole_pipeline():
    need(shutil.which("flite"), "flite is not installed")
    proc = subprocess.run([sys.executable, "-m", "voice_host.cli", "demo", "--no-voice"],
                          cwd=ROOT, capture_output=True, text=True, timeout=300)
    assert proc.returncode == 0, proc.stderr
    out = proc.stdout.splitlines()
    assert out[0] == "demo: 10 lines said by synthetic players, heard by moonshine:"
    host = [line for line in out if line.startswith("host: ")]
    assert host[1:5] == ["host: Thank you, Ann. I know your voice now.", "host: Thank you, Ben. I know your voice now.",
                         "host: Thank you, Cat. I know your voice now.",
                         "host: Prolix Classic for Ann, Ben and Cat: 6 rounds."], proc.stdout
    heard = [line for line in out if line.startswith("heard: ")]
    assert heard[3:] == [
        "heard: at 14.1 s Ann (by voiceprint): 'window'",      # bare words: known by their voices
        "heard: at 18.0 s Ben (by voiceprint): 'market'",
        "heard: at 22.3 s Cat (by name): 'cat basket'",        # a name said first still wins
        "heard: at 25.4 s Cat (by voiceprint): 'yes'",
        "heard: at 29.2 s Ann (by voiceprint): 'challenge'",
        "heard: at 33.1 s Ben (by voiceprint): 'what is the score'",
        "heard: at 37.6 s Cat (by voiceprint): 'juliet echo whiskey echo lima'",
    ], proc.stdout
    assert "host: Did you say basket or blasted?" in out and "host: Cat scores 0 points for basket." in out
    assert "host: Ann challenges Cat's basket." in out
    assert "host: Round 2 of 6. Scores: Ben 7; Ann 1; Cat 0." in out
    assert "host: Cat interrupts Ann with jewel: 6, minus 2, scores 4." in out, proc.stdout
