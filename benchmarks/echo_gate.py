"""The echo gate's two sides: the host alone never heard, and a player talking over the
host always heard.

    .venv/bin/python benchmarks/echo_gate.py            # a few seconds

Frame by frame through voice_host.speech.listening.echo.EchoGate (no recognizer):

- **Host alone** (where the speakers reach the microphone): three of the host's sentences
  said by five voices (festival's HTS slt, flite's rms, awb and kal16, espeak-ng), as an
  echo at four gains, delays and room noises within the gate's reach, and on a phone's
  late gate (echo up to 0.3 s late). Reported: the cases in which any frame of the host
  alone passed the gate, and all such frames. Target: none.
- **A player over the host's first words, no echo** (headphones, a null sink: the live
  benchmarks' PulseAudio): a player's introduction begins 0.05-1 s after the host's
  sentence (piper's joe) begins. Reported: the player's voiced frames the gate took for
  the host. Target: none.

The two pull against each other while the gate learns its echo gain: an echo that
begins a moment late looks like a player who begins a moment late (docs/LISTENING.md,
"Known limits").
"""

from __future__ import annotations

import numpy as np

from toolkit import report
from toolkit.voices import say

from voice_host.speech.audio import SAMPLE_RATE
from voice_host.speech.listening.echo import EchoGate
from voice_host.speech.speaking.voice import HostPlayback

FRAME = 480  # 30 ms, as the listener's
LINES = ("Bob scores twelve points for jewelers. Alice, it is your turn, the timer is running.",
         "Board. Four points: C, R; three points: G, T.", "Cat, did you say objective or objection?")
VOICES = ("fest_slt", "rms", "awb", "kal16", "espeak:en")
ECHOES = ((0.5, 0.0, 0.0), (0.5, 0.04, 0.001), (1.0, 0.1, 0.003), (0.05, 0.02, 0.0005))
"""(gain, delay in s, room noise RMS) of the host's echo at a microphone by the speakers."""
LATE_ECHOES = ((0.5, 0.1, 0.001), (1.0, 0.3, 0.003), (0.05, 0.2, 0.0005))
"""The same on a phone's gate, which allows the echo 0.3 s later."""
INTRO = "I am Dee, and I am ready to play."
ASKED = "Dee, so I know your voice, please say: I am Dee, and I am ready to play."
PLAYERS = ("rms", "fest_slt", "kal16")
STARTS = (0.05, 0.1, 0.2, 0.4, 1.0)
"""When the player begins, in seconds after the host's sentence."""


def frames(gate: EchoGate, mic: np.ndarray) -> list[tuple[float, bool]]:
    """(time, gated) of each frame of `mic`, through `gate`."""
    return [(i / SAMPLE_RATE, gate.is_echo(i / SAMPLE_RATE, (i + FRAME) / SAMPLE_RATE, mic[i:i + FRAME]))
            for i in range(0, mic.size - FRAME + 1, FRAME)]


def host_alone(rng: np.random.Generator) -> list[dict]:
    rows = []
    for late, echoes in ((0.0, ECHOES), (0.3, LATE_ECHOES)):
        cases = leaked = passed = 0
        for voice in VOICES:
            for line in LINES:
                host = say(line, voice)
                start, end = 1.0, 1.0 + host.size / SAMPLE_RATE
                for gain, delay, noise in echoes:
                    mic = (rng.standard_normal(int((end + 1) * SAMPLE_RATE)) * noise).astype(np.float32)
                    at = int((start + delay) * SAMPLE_RATE)
                    mic[at:at + host.size] += gain * host
                    gate = EchoGate.later([HostPlayback(line, start, end, host)], late)
                    through = [t for t, gated in frames(gate, mic) if not gated and start <= t < end]
                    cases += 1
                    leaked += bool(through)
                    passed += len(through)
        rows.append({"gate": "phone (0.3 s late)" if late else "microphone", "cases": cases, "leaked": leaked,
                     "frames": passed})
    return rows


def player_over_the_start() -> list[dict]:
    host = say(ASKED, "joe")
    rows = []
    for voice in PLAYERS:
        intro = say(INTRO, voice)
        for after in STARTS:
            at = 1.0 + after
            mic = np.zeros(int((1.0 + host.size / SAMPLE_RATE + 1.0) * SAMPLE_RATE), np.float32)
            mic[int(at * SAMPLE_RATE):int(at * SAMPLE_RATE) + intro.size] += 0.3 * intro
            gate = EchoGate([HostPlayback(ASKED, 1.0, 1.0 + host.size / SAMPLE_RATE, host)])
            voiced = [gated for t, gated in frames(gate, mic)
                      if at <= t < at + intro.size / SAMPLE_RATE
                      and np.sqrt(np.mean(mic[int(t * SAMPLE_RATE):int(t * SAMPLE_RATE) + FRAME] ** 2)) > 0.01]
            rows.append({"voice": voice, "after": after, "voiced": len(voiced), "gated": sum(voiced)})
    return rows


def main(argv=None) -> int:
    ap = report.arguments(__doc__, "the same (the benchmark is quick)")
    args = ap.parse_args(argv)
    out = report.Report("echo_gate", args.json)
    alone = host_alone(np.random.default_rng(0))
    out.say("The host alone, as an echo (target: no case leaks)")
    out.table(alone, [("gate", "gate", "<s"), ("cases", "cases", ">d"), ("leaked", "leaked", ">d"),
                      ("frames", "frames through", ">d")], "  ")
    over = player_over_the_start()
    out.say("\nA player over the host's first words, no echo (target: no frame gated)")
    out.table(over, [("voice", "voice", "<s"), ("after", "begins after (s)", ">.2f"), ("voiced", "voiced frames", ">d"),
                     ("gated", "gated", ">d")], "  ")
    out.figures = {"host_alone": alone, "player_over_the_start": over,
                   "leaked": sum(r["leaked"] for r in alone), "cases": sum(r["cases"] for r in alone),
                   "player_frames_gated": sum(r["gated"] for r in over), "player_frames": sum(r["voiced"] for r in over)}
    out.say(f"\nhost alone leaked in {out.figures['leaked']} of {out.figures['cases']} cases; "
            f"{out.figures['player_frames_gated']} of {out.figures['player_frames']} of the players' voiced frames gated")
    return out.finish()


if __name__ == "__main__":
    raise SystemExit(main())
