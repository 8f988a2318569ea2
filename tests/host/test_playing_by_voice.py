"""`voice-host play` by voice: at a terminal it listens from before its first sentence;
with no microphone it says so and takes typing; VOICE_HOST_TRACE=1 shows what the
listener heard and set aside."""

from __future__ import annotations

import argparse
import io
import types

from voice_host import app, assembly, cli
from voice_host.speech.listening import sources


class Terminal(io.StringIO):
    """Standard input at a terminal (live play), with nothing typed."""

    def isatty(self) -> bool:
        return True


def test_no_microphone_falls_back_to_typed_play(table, monkeypatch):
    monkeypatch.setattr(sources, "input_devices", lambda: [])
    monkeypatch.setattr("sys.stdin", io.StringIO("Ann: jewelers\nBen: scores\n"))
    t = table()
    args = argparse.Namespace(audio=None, device=None, engine=None, model=None, channels=None)
    assembly.run_by_voice(t.session, t.session.header.config, args, assembly.open_input(args), typed=app.run_typed)
    assert t.heard[-4:] == [
        "I can't hear the table: there is no microphone. Type instead, one line each, like 'Ann: jewelers'.",
        "Ann scores 15 points for jewelers.",
        "Ann, draw 2 tiles and tell me the letters.",
        "Round 1 of 6. Scores: Ann 15; Ben 0; Cat 0.",
    ]


def test_the_microphone_records_before_the_host_says_a_word(tmp_path, monkeypatch, capsys):
    """A player who speaks the moment the host names who starts is heard, however long the
    audio server takes to open the microphone: it records before the host's first sentence."""
    said_before_recording = []
    closed = []

    class Microphone:
        channels = 1

        def start(self) -> None:
            said_before_recording.append(capsys.readouterr().out)

        def close(self) -> None:
            closed.append(True)

    heard = []
    monkeypatch.setattr(sources, "open_source", lambda **options: Microphone())
    monkeypatch.setattr(assembly, "recognizer_for", lambda args, settings: None)
    monkeypatch.setattr(assembly, "build", lambda session, recognizer, source, **parts: types.SimpleNamespace(
        play_live=lambda: heard.append(source)))
    monkeypatch.setattr("sys.stdin", Terminal())
    code = cli.main(["play", "--players", "Ann,Ben,Cat", "--start", "Ann", "--no-voice",
                     "--log", str(tmp_path / "g.log")])
    assert code == 0
    assert said_before_recording == [""]
    assert "host: Ann starts." in capsys.readouterr().out  # the game's set-up, said once the microphone records
    assert len(heard) == 1 and isinstance(heard[0], Microphone) and closed == [True]


def test_the_trace_shows_what_the_listener_set_aside_and_passes_every_event_on(monkeypatch, capsys):
    from voice_host.speech.listening.turns import Discarded, Partial, SpeechStarted

    seen = []
    on_event = assembly.traced(seen.append)
    events = [SpeechStarted(0, 1.25), Partial(0, "comp", 1.5), Discarded(0, 1.25, 1.75, "host echo", "complete")]
    for e in events:
        on_event(e)
    assert seen == events
    assert capsys.readouterr().err.splitlines() == [
        "listener: SpeechStarted(channel=0, time=1.25, barge_in=False)",
        "listener: Discarded(channel=0, start=1.25, end=1.75, reason='host echo', text='complete')",
    ]
