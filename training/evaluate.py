"""Score a recognizer, base or base + delta, on HELD-OUT words said by HELD-OUT voices:
the right word chosen among N by the decoder's own scores, and the word written
exactly by free decoding, per voice and noise condition.

    python -m training evaluate [--delta D] \\
        [--choices 500] [--voices joe,fest_slt,slt] [--conditions clean,20,10] [--json out.json]

Words: the held-out split of benchmarks/recognition.py (its --words list otherwise);
the N-1 other choices are drawn (seeded) from the other held-out words and from
dictionary words of about the same length. Audio: the benchmarks' toolkit's voices
(benchmarks/toolkit/synth.py: their own held-out voices) with its add_noise (pink, at
the speech level).
"""

from __future__ import annotations

import json
import random
import sys
import time
from pathlib import Path

from .heldout import _bench

VOICES = ("joe", "fest_slt", "slt")
CONDITIONS = ("clean", "20", "10")


def held_out_words() -> list[str]:
    words = _bench("recognition").pick_words(320)
    return words[160:]


def choices_for(word: str, pool: list[str], n: int, rng: random.Random) -> list[str]:
    others = [w for w in pool if w != word]
    rng.shuffle(others)
    return [word, *others[:max(0, n - 1)]]


def evaluate(delta: Path | None = None, words: list[str] | None = None, choices: int = 500,
             voices=VOICES, conditions=CONDITIONS, seed: int = 0, cpu_threads: int | None = None,
             quiet: bool = False) -> dict:
    """{"rows": [...per utterance], "table": {(voice, cond): {...}}} for one model."""
    from toolkit import synth
    from voice_host.speech.recognizing.moonshine.model import load_moonshine_model
    from voice_host.speech.recognizing.moonshine.recognizer import MoonshineRecognizer
    from voice_host.words import Words

    words = words or held_out_words()
    rng = random.Random(seed)
    lengths = {len(w) for w in words}
    pool = list(words) + [w for w in Words.load().data.words if w.isalpha() and len(w) in lengths]
    pool = list(dict.fromkeys(pool))
    rec = MoonshineRecognizer(cpu_threads=cpu_threads, _model=load_moonshine_model(None, cpu_threads, True, delta))
    rows, t0 = [], time.monotonic()
    for voice in voices:
        for cond in conditions:
            for i, word in enumerate(words):
                audio = synth.synth(word, voice)
                if cond != "clean":
                    audio = synth.add_noise(audio, float(cond), seed=i)
                cands = choices_for(word, pool, choices, random.Random(rng.random()))
                ranked = rec.rank(audio, cands)
                free = rec.transcribe(audio, None).text
                rows.append({"voice": voice, "condition": cond, "word": word, "chosen": ranked[0][0],
                             "free": free, "choice_ok": ranked[0][0] == word, "free_ok": free == word})
            if not quiet:
                print(f"  {voice} {cond}: {time.monotonic() - t0:.0f} s", file=sys.stderr, flush=True)
    table = {}
    for voice in voices:
        for cond in conditions:
            sel = [r for r in rows if r["voice"] == voice and r["condition"] == cond]
            table[f"{voice} {cond}" + (" dB" if cond != "clean" else "")] = {"n": len(sel), "choice": 100.0 * sum(r["choice_ok"] for r in sel) / len(sel),
                                        "free": 100.0 * sum(r["free_ok"] for r in sel) / len(sel)}
    return {"model": "base" if delta is None else f"base+{Path(delta).name}", "choices": choices,
            "seconds": round(time.monotonic() - t0, 1), "table": table, "rows": rows}


def format_table(*results: dict) -> str:
    """One line per voice and condition; a column pair per model."""
    head = f"{'voice, condition':<22}" + "".join(
        f" | {r['model'][:24]:>24}: choose/{r['choices']}, free" for r in results)
    lines = [head, "-" * len(head)]
    for key in results[0]["table"]:
        cells = "".join(f" | {r['table'][key]['choice']:>24.1f} % {r['table'][key]['free']:>10.1f} %" for r in results)
        lines.append(f"{key:<22}{cells}")
    return "\n".join(lines)


def main(args) -> int:
    words = Path(args.words).read_text().split() if args.words else None
    results = []
    if args.compare or not args.delta:
        results.append(evaluate(None, words, args.choices, args.voices.split(","), args.conditions.split(","),
                                args.seed, args.threads))
    if args.delta:
        results.append(evaluate(Path(args.delta), words, args.choices, args.voices.split(","),
                                args.conditions.split(","), args.seed, args.threads))
    print(format_table(*results))
    if args.json:
        Path(args.json).write_text(json.dumps(results, indent=1))
    return 0
