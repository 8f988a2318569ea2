"""How soon the host's sentence sounds once it is said, and how steady the voice's own
timing of it stays, through a real audio server (PulseAudio, ALSA's pulse plugin, as a
Linux laptop plays it), for each output latency the voice may open its stream with.

    .venv/bin/python benchmarks/output_latency.py                      # low, 0.03, 0.06; idle and loaded
    .venv/bin/python benchmarks/output_latency.py --latencies 0.02,0.03 --sentences 40

A private PulseAudio server (benchmarks/toolkit/pulse.py) plays the voice into a null
sink whose monitor is followed, each sample placed by its count (toolkit/pulse.py's
Speakers). The voice (TtsVoice, its real threads and a real PortAudio stream) says N
sentences of 0.3 s of noise (rendered at once: the synthesizer's time is
benchmarks/voice.py's) at random 0.4-1.2 s pauses, as it does beside a cancelled
microphone (``follow(steady=True)``: the output goes on with silence between sentences)
with the latency given, or answering soonest (``low``: stopped between sentences, as
with no canceller). Per latency and condition:

- said -> heard: from ``say()`` to the sentence's first sound on the monitor, median and
  p95 (the monitor's own delay included: compare latencies with each other);
- the offset, the sentence's first sound on the monitor less where the voice says it
  starts (``HostPlayback.start``), sentence by sentence: its spread (max - min) and its
  steps (changes over 2 ms from one sentence to the next) are what the echo canceller's
  delay tracker must follow (its reference is the voice's timing);
- underruns ALSA reported (the output ran dry).

Loaded: two busy processes beside it, and four threads in the voice's own process doing
FFTs and pure Python in turn (the listener's cancellers and the recognizer, holding the
interpreter's lock), the busy 2-core machine of a game with a microphone per player.
"""

from __future__ import annotations

import argparse
import json
import os
import random
import subprocess
import sys
import tempfile
import threading
import time
from pathlib import Path

import numpy as np

RATE = 16000


class Bursts:
    """A synthesizer of 0.3 s bursts of noise, rendered at once."""

    engine, sample_rate, volume = "bursts", RATE, 1.0

    def __init__(self) -> None:
        self.rng = np.random.default_rng(0)

    def pieces(self, text):
        yield (self.rng.standard_normal(int(RATE * 0.3)) * 0.2).astype(np.float32)

    def close(self) -> None:
        pass


def _busy(stop: threading.Event) -> None:
    x = np.random.default_rng(1).standard_normal(40000).astype(np.float32)
    while not stop.is_set():
        for _ in range(40):
            sum(i * i for i in range(2000))  # pure Python: holds the interpreter's lock
            np.fft.rfft(x, 65536)
        time.sleep(0.001)


def speak(latency: str, sentences: int, threads: int) -> dict:
    """In the process PortAudio reaches the server from: say the sentences, follow the
    monitor; what was said when, where the voice timed it, and what the monitor heard."""
    from toolkit.pulse import Speakers

    import voice_host.speech.speaking.voice as voice_module
    from voice_host.speech.speaking.voice import TtsVoice

    speakers = Speakers(dict(os.environ))
    time.sleep(0.5)
    steady = latency != "low"
    if steady:
        voice_module.STEADY_LATENCY = float(latency)
    stop = threading.Event()
    for _ in range(threads):
        threading.Thread(target=_busy, args=(stop,), daemon=True).start()
    voice = TtsVoice(synthesizer=Bursts())
    voice.follow(time.monotonic, 0.0, steady=steady)
    voice.say("the first, not counted")
    voice.wait(5)
    said, rng = [], random.Random(1)
    for k in range(sentences):
        time.sleep(rng.uniform(0.4, 1.2))
        said.append(time.monotonic())
        voice.say(f"sentence {k}")
        voice.wait(5)
    time.sleep(0.5)
    stop.set()
    audio = speakers.stop()
    starts = [r.start for r in voice.history[1:]]
    voice.close()
    loud = np.flatnonzero(np.abs(audio) >= Speakers.HEARD)
    firsts = loud[np.r_[True, np.diff(loud) > RATE // 5]] if loud.size else loud  # each after 0.2 s of quiet
    return {"said": said, "starts": starts, "onsets": [speakers.first_at + j / RATE for j in firsts]}


def measure(latency: str, sentences: int, loaded: bool) -> dict:
    """One latency, one condition: the server, the busy processes, the voice's process."""
    from toolkit.pulse import Pulse, missing

    why = missing()
    if why:
        raise SystemExit(why)
    with tempfile.TemporaryDirectory() as folder, Pulse(Path(folder)) as pulse:
        hogs = [subprocess.Popen([sys.executable, "-c", "while True: pass"]) for _ in range(2 if loaded else 0)]
        try:
            proc = subprocess.run([sys.executable, __file__, "--speak", latency, str(sentences), str(4 if loaded else 0)],
                                  env=pulse.env, capture_output=True, text=True, timeout=300)
        finally:
            for h in hogs:
                h.kill()
    if proc.returncode != 0:
        raise SystemExit(proc.stderr)
    got = json.loads(proc.stdout.strip().splitlines()[-1])
    offsets, waits = [], []
    for start, said in zip(got["starts"], got["said"]):
        onset = min(got["onsets"], key=lambda t: abs(t - start))
        offsets.append(1000 * (onset - start))
        waits.append(1000 * (onset - said))
    offsets = np.array(offsets)
    return {"latency": latency, "loaded": loaded, "sentences": len(waits),
            "heard_median_ms": float(np.median(waits)), "heard_p95_ms": float(np.percentile(waits, 95)),
            "offset_spread_ms": float(offsets.max() - offsets.min()),
            "offset_steps": int(np.count_nonzero(np.abs(np.diff(offsets)) > 2.0)),
            "underruns": proc.stderr.count("underrun")}


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--latencies", default="low,0.03,0.06",
                    help="comma-separated: 'low' (stopped between sentences) or seconds (steady)")
    ap.add_argument("--sentences", type=int, default=20)
    ap.add_argument("--conditions", default="idle,loaded")
    ap.add_argument("--speak", nargs=3, help=argparse.SUPPRESS)  # the voice's own process
    args = ap.parse_args(argv)
    if args.speak:
        latency, sentences, threads = args.speak
        print(json.dumps(speak(latency, int(sentences), int(threads))))
        return 0
    print(f"{'latency':>8} {'condition':>9}  said->heard median / p95   offset spread, steps   underruns")
    for condition in args.conditions.split(","):
        for latency in args.latencies.split(","):
            r = measure(latency, args.sentences, condition == "loaded")
            print(f"{latency:>8} {condition:>9}  {r['heard_median_ms']:6.1f} / {r['heard_p95_ms']:6.1f} ms"
                  f"          {r['offset_spread_ms']:5.1f} ms, {r['offset_steps']:2d}"
                  f"            {r['underruns']}", flush=True)
    return 0


if __name__ == "__main__":
    sys.path.insert(0, str(Path(__file__).resolve().parent))
    raise SystemExit(main())
