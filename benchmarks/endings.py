"""Ending a turn early: how often the listener ends a one-word play at
its first short pause, whether it still hears the same word, and how often it cuts a
sentence at a pause inside it (a false ending).

    .venv/bin/python benchmarks/endings.py --quick     # 12 words and 24 sentences a split (~4 min)
    .venv/bin/python benchmarks/endings.py             # 40 words and 84 sentences a split

Words: chosen on Prolix boards the way players choose them (benchmarks/board_words.py's
plan: good plays among the best known words, one in five a weak play), said alone by
that split's voices, clean and at 10 dB pink noise, through the real Listener (VAD,
the guess at `guess_after`, the early end at `end_early_after`) and the hearing's own
language and prior (Hearing.sayable()), fed in 20 ms blocks. Each is heard twice: with
today's settings, and with guessing off (guess_after = 0: every utterance waits for the
full trailing silence, as before turns ended early). Reported: ended early (the share of plays
that end at the short pause), right (the word heard) with and without, and where the
two hear differently.

Sentences with a pause inside: "NAME, ... WORD", "NAME says ... WORD", "I am NAME, ... and
I am ready to play.", "Whose turn ... is it?", "What's the ... score?", "Challenge ...
NAME", with pauses of 200, 300 and 450 ms (longer than 500 ms, the trailing silence ends
any utterance, early or not). A false ending: the sentence comes out as more than one
utterance with guessing on, and as one with it off.

Splits: TUNING (board_words' tuning voices and words) and HELD-OUT (the voices no test or
tuning uses: piper's joe, festival's HTS slt, flite slt, joe varied with sox). Target:
false endings <= 2%.
"""

from __future__ import annotations

import argparse
import sys
import time
import zlib
from pathlib import Path

import numpy as np

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))
sys.path.insert(0, str(ROOT / "tests" / "speech"))
sys.path.insert(0, str(ROOT / "benchmarks"))

from board_words import plan, table  # noqa: E402
from synth import add_noise, place, speech_bounds, synth  # noqa: E402

PAUSES = (0.2, 0.3, 0.45)
CONDITIONS = (("clean", None), ("10 dB", 10.0))
SENTENCES = (("{name},", "{word}."), ("{name} says", "{word}."), ("I am {name},", "and I am ready to play."),
             ("Whose turn", "is it?"), ("What's the", "score?"), ("Challenge", "{name}."))
NAMES = ("Ann", "Ben", "Cat")


def heard(recognizer, audio: np.ndarray, sayable, config) -> list:
    from voice_host.speech.listening.sources import ArraySource
    from voice_host.speech.listening.turns import Listener

    listener = Listener(recognizer, NAMES, config=config, keep_audio=False)
    listener.constrain(sayable)
    return list(listener.utterances(ArraySource(audio[:, None], chunk_seconds=0.02)))


def with_pause(first: np.ndarray, rest: np.ndarray, pause: float) -> np.ndarray:
    """`first`, then `pause` seconds from its last sound to the first sound of `rest`."""
    start = 0.4 + first.size / 16000 + pause - (first.size / 16000 - speech_bounds(first)[1]) - speech_bounds(rest)[0]
    return place([(0.4, first, 0), (start, rest, 0)], duration=start + rest.size / 16000 + 1.0)[:, 0]


def run(rows: list[dict], n_sentences: int, words) -> dict:
    from voice_host.speech.listening.config import TurnConfig
    from voice_host.speech.recognizing.moonshine import MoonshineRecognizer

    rec = MoonshineRecognizer()
    on, off = TurnConfig(), TurnConfig(guess_after=0.0)
    out: dict = {}
    for row in rows:  # one-word plays
        hearing = table(row["seed"], words)
        audio = synth(row["word"], row["voice"])
        for cond, snr in CONDITIONS:
            x = place([(0.4, audio, 0)], duration=0.4 + audio.size / 16000 + 1.2)[:, 0]
            x = x if snr is None else add_noise(x, snr, seed=zlib.crc32(row["word"].encode()))
            got = {name: heard(rec, x, hearing.sayable(), cfg) for name, cfg in (("on", on), ("off", off))}
            s = out.setdefault((row["split"], cond, "words"), {"n": 0, "early": 0, "right on": 0, "right off": 0,
                                                                "changed": []})
            s["n"] += 1
            s["early"] += bool(got["on"]) and got["on"][0].early
            text = {k: " ".join(u.text for u in v) for k, v in got.items()}
            s["right on"] += text["on"] == row["word"]
            s["right off"] += text["off"] == row["word"]
            if text["on"] != text["off"]:
                s["changed"].append(f"{row['word']}: {text['off'] or '-'} -> {text['on'] or '-'}")
    for split in ("tuning", "held-out"):  # sentences with a pause inside
        mine = [r for r in rows if r["split"] == split]
        for i in range(n_sentences):
            row = mine[i % len(mine)]
            first, rest = SENTENCES[i % len(SENTENCES)]
            name = NAMES[i % len(NAMES)]
            pause = PAUSES[(i // len(SENTENCES)) % len(PAUSES)]
            a = synth(first.format(name=name, word=row["word"]), row["voice"])
            b = synth(rest.format(name=name, word=row["word"]), row["voice"])
            x = with_pause(a, b, pause)
            hearing = table(row["seed"], words)
            n_on = len(heard(rec, x, hearing.sayable(), on))
            n_off = len(heard(rec, x, hearing.sayable(), off))
            s = out.setdefault((split, "clean", "sentences"), {"n": 0, "false": 0, "cut": []})
            s["n"] += 1
            if n_on > n_off:
                s["false"] += 1
                s["cut"].append(f"{first} ... {rest} ({row['voice']}, {pause * 1000:.0f} ms)".format(name=name, word=row["word"]))
    return out


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--quick", action="store_true", help="12 words and 24 sentences a split")
    args = ap.parse_args(argv)
    from voice_host.words import Words

    words = Words.load()
    n_words, n_sentences = (12, 24) if args.quick else (40, 84)
    t0 = time.time()
    rows = plan(n_words, words)
    out = run(rows, n_sentences, words)
    false_total = []
    for split in ("tuning", "held-out"):
        print(f"\n{split}: one-word plays (n, ended early, right with early ends / without)")
        for cond, _ in CONDITIONS:
            s = out[(split, cond, "words")]
            print(f"  {cond:6s} n={s['n']:3d}  early {100 * s['early'] / s['n']:5.1f}%  "
                  f"right {100 * s['right on'] / s['n']:5.1f}% / {100 * s['right off'] / s['n']:5.1f}%")
            for change in s["changed"]:
                print(f"         heard differently: {change}")
        s = out[(split, "clean", "sentences")]
        false_total.append(100 * s["false"] / s["n"])
        print(f"  sentences with a pause inside: n={s['n']}  false endings {s['false']} ({false_total[-1]:.1f}%)")
        for cut in s["cut"]:
            print(f"         cut: {cut}")
    early = [100 * out[("held-out", c, "words")]["early"] / out[("held-out", c, "words")]["n"] for c, _ in CONDITIONS]
    print(f"\n({time.time() - t0:.0f} s)")
    print(f"endings: false {false_total[0]:.1f}% tuning, {false_total[1]:.1f}% held-out; one-word plays ended early "
          f"{early[0]:.0f}% clean, {early[1]:.0f}% at 10 dB (held-out)")
    return 0


if __name__ == "__main__":
    sys.exit(main())
