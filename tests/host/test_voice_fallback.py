"""`voice-host play` at a terminal listens; with no microphone it says so and takes typing."""

from __future__ import annotations

import argparse
import io

from voice_host import app, assembly
from voice_host.speech.listening import sources


def test_no_microphone_falls_back_to_typed_play(table, monkeypatch):
    monkeypatch.setattr(sources, "input_devices", lambda: [])
    monkeypatch.setattr("sys.stdin", io.StringIO("Ann: jewelers\nBen: scores\n"))
    t = table()
    args = argparse.Namespace(audio=None, device=None, engine=None, model=None, channels=None)
    assembly.run_by_voice(t.session, t.session.header.config, args, typed=app.run_typed)
    assert t.heard[-4:] == [
        "I can't hear the table: there is no microphone. Type instead, one line each, like 'Ann: jewelers'.",
        "Ann scores 15 points for jewelers.",
        "Ann, draw 2 tiles and tell me the letters.",
        "Round 1 of 6. Scores: Ann 15; Ben 0; Cat 0.",
    ]
