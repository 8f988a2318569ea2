"""`voice-host demo`: synthetic players are heard by the real pipeline, the host answers.

The demo is a table with one microphone and the default recognizer: each player says
who they are, and the game begins once all three have; then words that score on the
board the host announced (one with the name first), a challenge, a question and a word
spelled in the spelling alphabet, each answered before the next is said.
"""

from __future__ import annotations

import shutil
import subprocess
import sys

import pytest
from support import ROOT, need

pytestmark = pytest.mark.model  # the demo hears its players with the default recognizer


def test_demo_runs_the_whole_pipeline():
    need(shutil.which("flite"), "flite is not installed")
    proc = subprocess.run([sys.executable, "-m", "voice_host.cli", "demo", "--no-voice"],
                          cwd=ROOT, capture_output=True, text=True, timeout=300)
    assert proc.returncode == 0, proc.stderr
    out = proc.stdout.splitlines()
    assert out[0] == "demo: 10 lines said by synthetic players, heard by moonshine:"
    said = [line for line in out if line.startswith(("host: ", "heard: at 1", "heard: at 2", "heard: at 3"))]
    assert said[1:9] == [
        "host: Thank you, Ann. I know your voice now.", "host: Thank you, Ben. I know your voice now.",
        "host: Thank you, Cat. I know your voice now.",
        "host: Prolix Classic for Ann, Ben and Cat: 6 rounds.",  # everyone introduced: the game begins
        "host: Cat draws G, X, D, M, G, T, S and T.",
        "host: Board. 4 points: G, X+2; 3 points: D, M; 2 points: G, T; 1 point: S, T.",
        "host: Round 1: Ann's turn.",
        "heard: at 14.1 s Ann (by voiceprint): 'midnight'",  # bare words: known by their voices
    ], proc.stdout
    heard = [line for line in out if line.startswith("heard: ")]
    assert heard[4:] == [
        "heard: at 17.4 s Ben (by voiceprint): 'hold on'",      # talk at the table: never a play
        "heard: at 20.8 s Ben (by voiceprint): 'relaxed'",
        "heard: at 25.4 s Cat (by name): 'cat wonderful'",     # a name said first still wins
        "heard: at 29.9 s Ann (by voiceprint): 'challenge'",
        "heard: at 33.8 s Ben (by voiceprint): 'what is the score'",
        "heard: at 38.3 s Cat (by voiceprint): 'sierra charlie romeo echo whiskey'",
    ], proc.stdout
    assert out[out.index("heard: at 17.4 s Ben (by voiceprint): 'hold on'") + 1] == "host: Take your time."
    # each answer comes before the next player is heard, as at the table
    turn = out.index("heard: at 25.4 s Cat (by name): 'cat wonderful'")
    assert out[turn + 1:turn + 4] == ["host: Cat scores 16 points for wonderful.", "host: Cat draws C and S.",
                                      "host: End of round 1. Scores: Cat 16; Ben 15; Ann 12."], proc.stdout
    assert "host: Ann challenges Cat's wonderful." in out
    assert "host: Round 2 of 6. Scores: Cat 16; Ben 15; Ann 10." in out
    assert out[-4] == "host: Cat interrupts Ann with screw: 14, minus 2, scores 12.", proc.stdout
