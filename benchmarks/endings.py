"""Ending a turn early: how often the listener ends a one-word play at
its first short pause, whether it still hears the same word, and how often it cuts a
sentence at a pause inside it (a false ending).

    .venv/bin/python benchmarks/endings.py --quick     # 12 words and 24 sentences a split (~4 min)
    .venv/bin/python benchmarks/endings.py             # 40 words and 84 sentences a split
    .venv/bin/python benchmarks/endings.py --quick --set listening.end_early_after=0.2   # another setting

Words: chosen on Prolix boards the way players choose them (benchmarks/board_words.py's
plan: good plays among the best known words, one in five a weak play), said alone by
that split's voices, clean and at 10 dB pink noise (`--conditions default,rooms`: the real
rooms of benchmarks/toolkit/rooms.py too), through the real Listener (VAD,
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

import sys
import time
import zlib

import numpy as np

from toolkit import listening, report, rooms
from toolkit.boards import plan
from toolkit.voices import place, speech_bounds, synth

PAUSES = (0.2, 0.3, 0.45)
CONDITIONS = ("clean", "10 dB")
"""The default conditions of the one-word plays (any of toolkit.rooms' may be asked for)."""
SENTENCES = (("{name},", "{word}."), ("{name} says", "{word}."), ("I am {name},", "and I am ready to play."),
             ("Whose turn", "is it?"), ("What's the", "score?"), ("Challenge", "{name}."))
NAMES = ("Ann", "Ben", "Cat")


def heard(recognizer, audio: np.ndarray, sayable, config) -> list:
    ear = listening.listener(recognizer, NAMES, sayable, config, keep_audio=False)
    return listening.cut(ear, audio[:, None], chunk_seconds=0.02)


def with_pause(first: np.ndarray, rest: np.ndarray, pause: float) -> np.ndarray:
    """`first`, then `pause` seconds from its last sound to the first sound of `rest`."""
    start = 0.4 + first.size / 16000 + pause - (first.size / 16000 - speech_bounds(first)[1]) - speech_bounds(rest)[0]
    return place([(0.4, first, 0), (start, rest, 0)], duration=start + rest.size / 16000 + 1.0)[:, 0]


def run(rows: list[dict], n_sentences: int, words, conditions=CONDITIONS, room=None, turns=None) -> dict:
    from voice_host.speech.listening.config import TurnConfig
    from voice_host.speech.recognizing.moonshine import MoonshineRecognizer

    rec = MoonshineRecognizer()
    on, off = TurnConfig(**(turns or {})), TurnConfig(**{**(turns or {}), "guess_after": 0.0})
    out: dict = {}
    for row in rows:  # one-word plays
        hearing = listening.hearing(words, row["seed"], 0.0, 0.0)
        audio = synth(row["word"], row["voice"])
        for cond in conditions:
            x = place([(0.4, audio, 0)], duration=0.4 + audio.size / 16000 + 1.2)[:, 0]
            x = rooms.in_condition(x, x, cond, zlib.crc32(row["word"].encode()), (room or {}).get(row["split"]))
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
            hearing = listening.hearing(words, row["seed"], 0.0, 0.0)
            n_on = len(heard(rec, x, hearing.sayable(), on))
            n_off = len(heard(rec, x, hearing.sayable(), off))
            s = out.setdefault((split, "clean", "sentences"), {"n": 0, "false": 0, "cut": []})
            s["n"] += 1
            if n_on > n_off:
                s["false"] += 1
                s["cut"].append(f"{first} ... {rest} ({row['voice']}, {pause * 1000:.0f} ms)".format(name=name, word=row["word"]))
    return out


def main(argv: list[str] | None = None) -> int:
    ap = report.arguments(__doc__, "12 words and 24 sentences a split", ",".join(CONDITIONS),
                          (*rooms.PINK, *rooms.ROOMS), settings=True)
    ap.add_argument("--words", type=int, help="one-word plays a split (overrides --quick)")
    ap.add_argument("--sentences", type=int, help="sentences with a pause inside a split (overrides --quick)")
    args = ap.parse_args(argv)
    from voice_host.words import Words

    out = report.Report("endings", args.json)
    words = Words.load()
    n_words, n_sentences = (12, 24) if args.quick else (40, 84)
    n_words, n_sentences = args.words or n_words, args.sentences if args.sentences is not None else n_sentences
    conditions, room = rooms.prepare(args.conditions, ",".join(CONDITIONS))
    t0 = time.time()
    rows = plan(n_words, words)
    res = run(rows, n_sentences, words, conditions, room, report.overrides(args.set).get("listening", {}))
    false_total = []
    for split in ("tuning", "held-out"):
        out.say(f"\n{split}: one-word plays (n, ended early, right with early ends / without)")
        for cond in conditions:
            s = res[(split, cond, "words")]
            out.figures[f"{split}|words|{cond}"] = {
                "n": s["n"], "early": round(100 * s["early"] / s["n"], 1),
                "right": round(100 * s["right on"] / s["n"], 1), "right without": round(100 * s["right off"] / s["n"], 1),
                "heard differently": s["changed"]}
            out.say(f"  {cond:6s} n={s['n']:3d}  early {100 * s['early'] / s['n']:5.1f}%  "
                    f"right {100 * s['right on'] / s['n']:5.1f}% / {100 * s['right off'] / s['n']:5.1f}%")
            for change in s["changed"]:
                out.say(f"         heard differently: {change}")
        s = res.get((split, "clean", "sentences"))
        if s is None:
            continue
        false_total.append(100 * s["false"] / s["n"])
        out.figures[f"{split}|sentences|clean"] = {"n": s["n"], "false endings": round(false_total[-1], 1),
                                                   "cut": s["cut"]}
        out.say(f"  sentences with a pause inside: n={s['n']}  false endings {s['false']} ({false_total[-1]:.1f}%)")
        for cut in s["cut"]:
            out.say(f"         cut: {cut}")
    early = [100 * res[("held-out", c, "words")]["early"] / res[("held-out", c, "words")]["n"] for c in conditions]
    out.say(f"\n({time.time() - t0:.0f} s)")
    if len(false_total) == 2:
        out.say(f"endings: false {false_total[0]:.1f}% tuning, {false_total[1]:.1f}% held-out; one-word plays ended "
                "early " + ", ".join(f"{e:.0f}% {c}" for e, c in zip(early, conditions)) + " (held-out)")
    return out.finish()


if __name__ == "__main__":
    sys.exit(main())
