"""A whole Prolix game heard from one recording: the same result as its text script.

The script is synthesized line by line into one 3-channel WAV (one synthetic voice and
one channel per player, each line at its script time: pauses, a 46-second silence for
the timer, and two words said at the same moment), then `voice-host play --audio` runs
the game on it with the whisper engine, attributing by channel.
"""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

import synth as _synth

from voice_host.host.script import parse_script
from voice_host.speech.sources import write_wav

ROOT = Path(__file__).resolve().parents[2]
PLAYERS = ("Ann", "Ben", "Cat")
VOICES = {"Ann": "fest_slt", "Ben": "rms", "Cat": "awb"}
"""Each player says only words the whisper model hears right in their voice (checked with
the same pipeline): the test is about the host, not about synthetic voices' accents."""

SCRIPT = """
# round 1 (the host draws the tiles: seeded)
Ann: pocket
[+3] Ben: market
[+3] Cat: window
# round 2: Ann and Ben at the same moment (a tiebreak), then the timer on Ben
[+3] Ann: basket
[+0.2] Ben: kitchen
[+3] Ann: timer
@wait 46
[+2] Cat: forest
[+3] Cat: tiger
# round 3, with a challenge that fails
[+3] Ann: rocket
[+3] Ben: monkey
[+3] Ann: challenge
[+3] Cat: pencil
# rounds 4 to 6
[+3] Ann: button
[+3] Ben: summer
[+3] Cat: winter
[+3] Ann: silver
[+3] Ben: yellow
[+3] Cat: orange
[+3] Ann: purple
[+3] Ben: castle
[+3] Cat: island
"""


def render(script: str, say):
    """The script as a recording: each utterance on its speaker's channel at its time."""
    clips = []
    for record in parse_script(script):
        if "speaker" in record:
            clips.append((record["t"], say(record["text"], VOICES[record["speaker"]]), PLAYERS.index(record["speaker"])))
    return _synth.place(clips, channels=len(PLAYERS))


def play(tmp_path: Path, name: str, *args: str) -> dict:
    out = tmp_path / f"{name}.json"
    proc = subprocess.run(
        [sys.executable, "-m", "voice_host.cli", "play", "--players", ",".join(PLAYERS), "--start", "Ann",
         "--seed", "5", "--no-voice", "--result-json", str(out), *args],
        cwd=ROOT, capture_output=True, text=True, timeout=600,
    )
    assert proc.returncode == 0, proc.stderr
    return json.loads(out.read_text()), proc.stdout


def test_a_recorded_game_gives_the_same_result_as_its_script(tmp_path, say, whisper_rec):
    script = tmp_path / "game.txt"
    script.write_text(SCRIPT)
    expected, text_out = play(tmp_path, "text", "--script", str(script))
    assert expected["finished"] is True
    assert "host: Time! The timer interrupts Ben." in text_out
    assert any(line.startswith("host: Tiebreaker: Ann basket") for line in text_out.splitlines())

    wav = tmp_path / "game.wav"
    write_wav(wav, render(SCRIPT, say))
    heard, audio_out = play(tmp_path, "audio", "--audio", str(wav), "--channels", ",".join(PLAYERS),
                            "--engine", "whisper")
    assert heard == expected, audio_out
    # the audio run said the same things about the game as the text run
    assert "host: Time! The timer interrupts Ben." in audio_out
    assert any(line.startswith("host: Tiebreaker: Ann basket") for line in audio_out.splitlines())
