"""`voice-host demo`: a short narrated game in which synthetic players speak.

Each line of the demo script is said by a synthetic voice (flite's or festival's when
installed, else espeak-ng's), laid on one recording with pauses, and played through the
real pipeline on one microphone: voice activity, the recognizer, each player's voice
learnt from "I am NAME" (the game begins once all three have said it), then words that
score on the board the host announced, attributed by voice print (or by the name said
first), the words matcher, the Prolix rules, and the host's answers (spoken unless
--no-voice).
"""

from __future__ import annotations

import shutil
import subprocess
import tempfile
from pathlib import Path
from typing import Callable

import numpy as np

from voice_host.speech.recognizing import engines

PLAYERS = ("Ann", "Ben", "Cat")
LINES = (  # (player, what they say, pause before it in seconds)
    ("Ann", "I am Ann, and I am ready to play.", 1.0),
    ("Ben", "I am Ben, and I am ready to play.", 1.5),
    ("Cat", "I am Cat, and I am ready to play.", 1.5),
    ("Ann", "midnight", 2.0),
    ("Ben", "Hold on.", 2.5),  # talk at the table, never a play
    ("Ben", "relaxed", 2.5),
    ("Cat", "Cat, wonderful", 3.5),
    ("Ann", "challenge", 3.0),
    ("Ben", "what is the score", 3.0),
    ("Cat", "Sierra, Charlie, Romeo, Echo, Whiskey.", 3.0),  # a word can always be spelled
)


def voices() -> dict[str, list[str]]:
    """A command line per player that writes a WAV of its text to the file named last."""
    if shutil.which("flite"):
        return {p: ["flite", "-voice", v, "-o"] for p, v in zip(PLAYERS, ("slt", "rms", "awb"))}
    if shutil.which("espeak-ng"):
        return {p: ["espeak-ng", "-v", v, "-w"] for p, v in zip(PLAYERS, ("en-us+f3", "en-us+m3", "en-gb"))}
    raise RuntimeError("the demo needs a speech synthesizer: install flite or espeak-ng (apt-get install flite)")


def synthesize(lines=LINES) -> tuple[np.ndarray, list[tuple[float, str, str]]]:
    """The demo recording (mono, 16 kHz) and what is said when."""
    from voice_host.speech.audio import SAMPLE_RATE, read_wav

    cmd = voices()
    parts: list[np.ndarray] = []
    said = []
    t = 0.0
    with tempfile.TemporaryDirectory() as tmp:
        for i, (player, text, pause) in enumerate(lines):
            wav = Path(tmp) / f"{i}.wav"
            argv = cmd[player] + [str(wav)]
            if argv[0] == "flite":
                argv[1:1] = ["-t", text]
            else:
                argv.append(text)
            subprocess.run(argv, check=True, capture_output=True)
            audio = read_wav(wav)[:, 0]
            parts += [np.zeros(int(pause * SAMPLE_RATE), np.float32), audio]
            t += pause
            said.append((t, player, text))
            t += audio.size / SAMPLE_RATE
    parts.append(np.zeros(SAMPLE_RATE, np.float32))
    return np.concatenate(parts), said


def run(args) -> int:
    from voice_host import app, config
    from voice_host.assembly import recognizer_for
    from voice_host.host.hearing import HearingSettings

    cfg = config.load()
    try:
        audio, said = synthesize()
        recognizer = recognizer_for(args, HearingSettings.from_config(cfg))
    except Exception as exc:
        raise app.UserError(f"The demo can't run here: {exc}") from exc
    print(f"demo: {len(said)} lines said by synthetic players, heard by {recognizer.name}:", flush=True)
    for t, player, text in said:
        print(f"demo: at {t:4.1f} s {player} says '{text}'", flush=True)

    def show(u) -> None:
        who = f"{u.speaker}{'?' if u.ask else ''} (by {u.speaker_method})" if u.speaker else "someone"
        print(f"heard: at {u.start:4.1f} s {who}: '{u.text}'", flush=True)

    return play(args, audio, show, PLAYERS, "Ann", recognizer, cfg)


def play(args, audio, show: Callable, players: tuple[str, ...], start: str, recognizer, cfg: dict) -> int:
    """``voice-host demo``: a recording of synthetic players, heard on one microphone."""
    from voice_host.app import attach, close, load_words, open_speaker, watching
    from voice_host.assembly import build, scoreboard
    from voice_host.host.session import Session, new_header
    from voice_host.messages import Directive
    from voice_host.speech.listening.sources import ArraySource
    from voice_host.speech.listening.voiceprint import VoicePrints

    display = scoreboard(args)
    speaker = open_speaker(args, cfg, display)
    try:
        session = Session(new_header("prolix-classic", list(players), 1, cfg), load_words(cfg), speaker,
                          earcon=speaker.earcons, watch=watching(display))
        attach(session, speaker, display)
        session.feed(Directive(0.0, "start", (start,)))
        build(session, recognizer, ArraySource(audio[:, None]), cfg=cfg, speaker=speaker, voiceprints=VoicePrints(),
              on_hear=show, recording=True).play_recording()
    finally:
        close(speaker, display)
    return 0


def register(subparsers) -> None:
    demo = subparsers.add_parser("demo", help="hear a short game played by synthetic voices (no microphone needed)")
    engines.add_options(demo)
    demo.add_argument("--no-voice", action="store_true", help="print the host's answers instead of speaking them")
    demo.add_argument("--speak-to", metavar="FILE.wav", help="also record the host's answers into this WAV")
    from voice_host import display

    display.add_options(demo)
    demo.set_defaults(func=run)
