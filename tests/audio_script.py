"""Scripts said aloud: render a text script as a recording, one voice per player.

Each utterance of a script (host.script format) is synthesized in its speaker's voice
and laid at its script time on the speaker's channel (or, with ``channels=False``, on one
mixed channel). Used by the tests that play a game from a recording and compare the
result with the same script played as text.
"""

from __future__ import annotations

import json
from pathlib import Path

import numpy as np
from support import voice_host
from toolkit import synth as _synth

from voice_host.host.script import parse_script
from voice_host.messages import Said
from voice_host.speech.audio import write_wav


def render(script: str, say, voices: dict[str, str], channels: bool = True) -> np.ndarray:
    """The script as audio: (samples, players) with one channel per player, or (samples, 1)."""
    players = list(voices)
    clips = [(r.t, say(r.text, voices[r.speaker]), players.index(r.speaker) if channels else 0)
             for r in parse_script(script) if isinstance(r, Said)]
    return _synth.place(clips, channels=len(players) if channels else 1)


def play(tmp_path: Path, name: str, *args: str) -> tuple[dict, str]:
    """Run `voice-host play ARGS --no-voice`; (result JSON, printed output)."""
    out = tmp_path / f"{name}.json"
    proc = voice_host("play", "--no-voice", "--result-json", str(out), *args, timeout=900)
    assert proc.returncode == 0, proc.stderr
    return json.loads(out.read_text()), proc.stdout


def text_and_audio(tmp_path: Path, say, script: str, voices: dict[str, str], *args: str,
                   engine: str = "whisper") -> tuple[tuple[dict, str], tuple[dict, str]]:
    """Play ``script`` as text and as a recording (attributed by channel) with the same options."""
    path = tmp_path / "script.txt"
    path.write_text(script)
    text = play(tmp_path, "text", "--script", str(path), *args)
    wav = tmp_path / "game.wav"
    write_wav(wav, render(script, say, voices))
    audio = play(tmp_path, "audio", "--audio", str(wav), "--channels", ",".join(voices), "--engine", engine, *args)
    return text, audio
