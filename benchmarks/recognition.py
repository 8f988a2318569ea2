"""Recognition benchmark: the right word from one utterance, per engine, free and
constrained, on a tuning split and a held-out split.

    .venv/bin/python benchmarks/recognition.py             # full: 320 words, 9 voices (~50 min)
    .venv/bin/python benchmarks/recognition.py --quick     # 2 x 40 words
    .venv/bin/python benchmarks/recognition.py --engines moonshine --json out.json
    .venv/bin/python benchmarks/recognition.py --quick --engines moonshine --splits tuning \
        --conditions "clean,20 dB"                                    # ~1 min: for tuning

What it does: picks game words from the dictionary (seeded; lengths 5-12, Zipf
frequency 2.0-4.5, i.e. mostly uncommon words), splits them into a TUNING half and
a HELD-OUT half, has each word said by two voices of its split (voices take turns),
clean and with pink noise (benchmarks/toolkit/synth.add_noise) at 20 and 10 dB SNR, and
recognizes each utterance alone (the turn detector's job is not measured here).

- tuning voices: the tests' voices (festival HTS slt, flite rms, awb, kal16);
- held-out voices, never used by the tests: piper's neural `joe`, and sox pitch/tempo
  shifted flite slt, kal, awb and joe (see VOICES_HELD_OUT).

Per engine:
- raw: the free decode, after the project's matcher (`Words.load().match(text).best`);
- constrained (moonshine): the search restricted to the game's language (a name
  optionally, then a dictionary word or a phrase); right when the text is the word;
- extra sets on each split's voices: "NAME, word" (the name and the word both right),
  commands/answers (the phrase right), and table chatter (right when NOT forced into
  the language, i.e. constrained=False);
- real-time factor (compute / audio duration, one utterance at a time), latency per
  utterance p50/p95 (compute from the end of the utterance), peak RSS of the engine's
  process (each engine runs in its own process).

Thresholds (moonshine's chatter margin) are chosen on the tuning split only and
printed; the held-out split is scored with them. Audio is cached on disk by
benchmarks/toolkit/synth ($VOICE_HOST_SYNTH_CACHE or ~/.cache/voice-host-synth).
"""

from __future__ import annotations

import argparse
import json
import math
import os
import resource
import subprocess
import sys
import time
import zlib
from pathlib import Path

import numpy as np

from toolkit import report as reporting
from toolkit.voices import add_noise, synth

VOICES_TUNING = ("fest_slt", "rms", "awb", "kal16")
VOICES_HELD_OUT = ("joe", "slt~p-250~t1.08", "kal~p200~t0.9", "awb~p350~t1.05", "joe~p250~t0.93")
CONDITIONS = (("clean", None), ("20 dB", 20.0), ("10 dB", 10.0))
NAMES = ("ann", "ben", "cat")
NATO = ("alfa alpha bravo charlie delta echo foxtrot golf hotel india juliett juliet kilo lima mike "
        "november oscar papa quebec romeo sierra tango uniform victor whiskey xray x-ray yankee zulu").split()
PHRASES = (
    "board", "scores", "whose turn", "words", "sheet", "repeat", "undo", "help", "timer", "pass",
    "challenge", "how much time", "yes", "no", "roll", "bell", "spend", "concede", "check",
    *(f"challenge {n}" for n in NAMES), *NAMES,
    *"abcdefghijklmnopqrstuvwxyz", *(w for w in NATO if "-" not in w),
)
COMMANDS = ("How much time?", "Challenge Ben.", "Yes.", "No.", "Whose turn?", "Board.", "Scores.", "Undo.")
CHATTER = (
    "I am Ann and I am ready to play.", "My name is Ben.", "That was a good one.", "Hold on a second.",
    "I need another coffee.", "Let me think about it.", "This is Cat speaking.", "Oh no, not again.",
    "Who wants some more tea?", "I can never find good words.", "Did you hear that noise outside?",
    "We should play this more often.",
)


def pick_words(n: int, seed: int = 7) -> list[str]:
    from voice_host.words import Words

    w = Words.load()
    words, zipf = w.data.words, np.asarray(w.data.zipf)
    pool = [x for x, z in zip(words, zipf) if 5 <= len(x) <= 12 and x.isalpha() and 2.0 <= z <= 4.5]
    rng = np.random.default_rng(seed)
    picked = [pool[i] for i in rng.choice(len(pool), size=n, replace=False)]
    return picked


def utterances(split: str, words: list[str], voices: tuple[str, ...], per_word: int, quick: bool):
    """(kind, text said, expected, voice) for one split."""
    out = []
    for i, word in enumerate(words):
        for k in range(per_word):
            out.append(("word", word, word, voices[(i * per_word + k) % len(voices)]))
    n_names = 8 if quick else 24
    for i, word in enumerate(words[:n_names]):
        name = NAMES[i % len(NAMES)]
        out.append(("name+word", f"{name.title()}, {word}.", f"{name} {word}", voices[i % len(voices)]))
    for i, c in enumerate(COMMANDS if not quick else COMMANDS[:4]):
        from voice_host.speech.recognizing.recognizer import normalize_text

        out.append(("command", c, normalize_text(c), voices[i % len(voices)]))
    for i, c in enumerate(CHATTER if not quick else CHATTER[:6]):
        out.append(("chatter", c, "", voices[(i + 1) % len(voices)]))
    return out


def noisy(audio: np.ndarray, snr: float | None, seed: int) -> np.ndarray:
    return audio if snr is None else add_noise(audio, snr, seed=seed)


def worker(engine: str, plan: list[dict], model: str = "base") -> dict:
    """Recognize every utterance of the plan with one engine (this process); `model`:
    Moonshine's weights, as [speech] model."""
    from voice_host.speech.recognizing.engines import make_recognizer
    from voice_host.speech.recognizing.moonshine.adapted import recognizer_options
    from voice_host.speech.recognizing.sayable import Sayable
    from voice_host.words import Words

    words = Words.load()
    t0 = time.perf_counter()
    if engine == "moonshine":
        rec = make_recognizer("moonshine", cpu_threads=2, **recognizer_options(model, "moonshine"))
    else:
        rec = make_recognizer("whisper", cpu_threads=2)
    load_s = time.perf_counter() - t0
    sayable = Sayable.game(PHRASES, NAMES)
    t1 = time.perf_counter()
    sayable.language()
    lang_s = time.perf_counter() - t1
    # warm up (first-run allocations)
    rec.transcribe(synth("hello", "rms"))
    rows = []
    for i, p in enumerate(plan):
        if i and i % 250 == 0:
            print(f"{engine}: {i}/{len(plan)}", file=sys.stderr, flush=True)
        audio = noisy(synth(p["said"], p["voice"]), p["snr"], p["seed"])
        t = time.perf_counter()
        if engine == "moonshine":
            tr = rec.transcribe(audio, sayable)
            d = rec.last
            extra = {"free_score": d.free_score, "alts": [list(a) for a in tr.alternatives[:6]],
                     "best_am": d.constrained[0][1] if d.constrained else None,
                     "constrained": tr.constrained, "text": tr.text, "conf": tr.confidence,
                     "encoder_s": d.encoder_seconds, "constraint_s": d.constraint_seconds}
            free = tr.free
        else:
            tr = rec.transcribe(audio)
            extra = {}
            free = tr.text
        secs = time.perf_counter() - t
        m = words.match(free).best if p["kind"] == "word" and free else None
        rows.append({**p, "free": free, "matched": m, "secs": secs, "dur": audio.size / 16000, **extra})
    return {"engine": engine, "rows": rows, "load_s": load_s, "lang_s": lang_s,
            "rss_mb": resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024}


# ----------------------------------------------------------------------- scoring

def constrained_text(row: dict, margin: float) -> tuple[str, bool]:
    """The moonshine result under chatter margin `margin` (re-derived from the scores)."""
    alts = row.get("alts") or []
    if not alts or row["best_am"] is None or row["free_score"] - row["best_am"] > margin:
        return row["free"], False
    return alts[0][0], True


def score_rows(rows: list[dict], margin: float | None) -> dict:
    out: dict = {}
    for cond, _ in CONDITIONS:
        rs = [r for r in rows if r["cond"] == cond]
        w = [r for r in rs if r["kind"] == "word"]
        res = {"n_words": len(w),
               "raw": _pct(sum(r["matched"] == r["expected"] for r in w), len(w)),
               "raw_exact": _pct(sum(r["free"] == r["expected"] for r in w), len(w))}
        if margin is not None:
            res["constrained"] = _pct(sum(constrained_text(r, margin) == (r["expected"], True) for r in w), len(w))
            for kind in ("name+word", "command"):
                k = [r for r in rs if r["kind"] == kind]
                res[kind] = _pct(sum(constrained_text(r, margin) == (r["expected"], True) for r in k), len(k))
            ch = [r for r in rs if r["kind"] == "chatter"]
            res["chatter kept free"] = _pct(sum(not constrained_text(r, margin)[1] for r in ch), len(ch))
            res["words taken as chatter"] = _pct(sum(not constrained_text(r, margin)[1] for r in w), len(w))
        out[cond] = res
    secs = np.array([r["secs"] for r in rows] or [math.nan])
    durs = np.array([r["dur"] for r in rows] or [math.nan])
    out["rtf"] = float(secs.sum() / durs.sum())
    out["p50_ms"] = float(np.percentile(secs, 50) * 1000)
    out["p95_ms"] = float(np.percentile(secs, 95) * 1000)
    return out


def _pct(k: int, n: int) -> float | None:
    return round(100.0 * k / n, 1) if n else None


def tune_margin(rows: list[dict]) -> float:
    """The chatter margin that maximizes (words + names + commands right) + chatter
    kept free, on the tuning rows."""
    best, best_m = -1.0, 6.0
    for m in np.arange(1.0, 20.01, 0.5):
        ok = 0
        for r in rows:
            text, c = constrained_text(r, m)
            if r["kind"] == "chatter":
                ok += not c
            else:
                ok += (text, c) == (r["expected"], True)
        if ok > best:
            best, best_m = ok, float(m)
    return best_m


def main(argv: list[str] | None = None) -> int:
    ap = reporting.arguments(__doc__, "2 x 40 words, fewer extra sentences", ",".join(c for c, _ in CONDITIONS),
                             [c for c, _ in CONDITIONS], model=True)
    ap.add_argument("--engines", default="moonshine,whisper")
    ap.add_argument("--splits", default="tuning,held-out",
                    help="which splits to run (the chatter margin is tuned on the tuning split when it runs, "
                         "else the recognizer's own is used)")
    ap.add_argument("--worker", help=argparse.SUPPRESS)
    ap.add_argument("--plan", help=argparse.SUPPRESS)
    args = ap.parse_args(argv)
    if args.worker:
        plan = json.loads(Path(args.plan).read_text())
        print(json.dumps(worker(args.worker, plan, args.model)))
        return 0
    out = reporting.Report("recognition", args.json)

    n = 80 if args.quick else 320
    words = pick_words(n)
    half = n // 2
    splits = {"tuning": (words[:half], VOICES_TUNING), "held-out": (words[half:], VOICES_HELD_OUT)}
    wanted = args.splits.split(",")
    conds = args.conditions.split(",")
    plan = []
    for split, (ws, voices) in splits.items():
        if split not in wanted:
            continue
        for kind, said, expected, voice in utterances(split, ws, voices, 2, args.quick):
            for ci, (cond, snr) in enumerate(CONDITIONS):
                if cond not in conds:
                    continue
                plan.append({"split": split, "kind": kind, "said": said, "expected": expected, "voice": voice,
                             "cond": cond, "snr": snr, "seed": (zlib.crc32(said.encode()) & 0xFFFF) + ci})
    out.say(f"{len(plan)} utterances per engine ({n} words; tuning voices {', '.join(VOICES_TUNING)}; "
          f"held-out voices {', '.join(VOICES_HELD_OUT)})")
    t = time.perf_counter()
    for p in {(p["said"], p["voice"]) for p in plan}:
        synth(*p)
    out.say(f"audio ready in {time.perf_counter() - t:.0f} s")

    import tempfile

    results = {}
    with tempfile.NamedTemporaryFile("w", suffix=".json", delete=False) as f:
        json.dump(plan, f)
        plan_path = f.name
    for engine in args.engines.split(","):
        t = time.perf_counter()
        proc = subprocess.run([sys.executable, __file__, "--worker", engine, "--plan", plan_path,
                               "--model", args.model],
                              stdout=subprocess.PIPE, stderr=None, text=True)  # progress on stderr
        if proc.returncode != 0:
            out.say(f"{engine}: failed (see above)")
            continue
        results[engine] = json.loads(proc.stdout.strip().splitlines()[-1])
        out.say(f"{engine}: {time.perf_counter() - t:.0f} s")
    os.unlink(plan_path)

    report = {}
    for engine, res in results.items():
        rows = res["rows"]
        tun = [r for r in rows if r["split"] == "tuning"]
        held = [r for r in rows if r["split"] == "held-out"]
        margin = None
        if engine == "moonshine":
            from voice_host.speech.recognizing.moonshine import CHATTER_MARGIN

            margin = tune_margin(tun) if tun else CHATTER_MARGIN
            if not tun:
                report[engine] = {"margin_from": "the recognizer's own: the tuning split did not run"}
        report[engine] = {**report.get(engine, {}), "tuning": score_rows(tun, margin),
                          "held-out": score_rows(held, margin),
                          "margin": margin, "rss_mb": res["rss_mb"], "load_s": res["load_s"],
                          "lang_s": res["lang_s"]}
        if engine == "moonshine":
            report[engine]["constraint_ms_mean"] = float(np.mean([r["constraint_s"] for r in rows]) * 1000)
            report[engine]["encoder_ms_mean"] = float(np.mean([r["encoder_s"] for r in rows]) * 1000)
    with out.text():
        print_report(report)
    out.figures = report
    return out.finish(results=results)


def print_report(report: dict) -> None:
    for engine, r in report.items():
        print(f"\n== {engine}: peak RSS {r['rss_mb']:.0f} MB, load {r['load_s']:.1f} s"
              + (f", chatter margin {r['margin']} nats ({r.get('margin_from', 'tuned on the tuning split')})"
                 if r["margin"] is not None else "")
              + (f", language built in {r['lang_s'] * 1000:.0f} ms, constraint walk {r['constraint_ms_mean']:.1f} ms"
                 f"/utterance, encoder {r['encoder_ms_mean']:.0f} ms/utterance" if "constraint_ms_mean" in r else ""))
        keys = ["raw", "raw_exact"] + (["constrained", "name+word", "command", "chatter kept free",
                                        "words taken as chatter"] if r["margin"] is not None else [])
        print(f"{'':26}" + "".join(f"{s + ' ' + c:>17}" for s in ("tuning", "held-out") for c, _ in CONDITIONS))
        for k in keys:
            vals = [r[s][c].get(k) for s in ("tuning", "held-out") for c, _ in CONDITIONS]
            print(f"{k + ' %':26}" + "".join(f"{'-' if v is None else v:>17}" for v in vals))
        for s in ("tuning", "held-out"):
            if not r[s]["clean"].get("n_words") and not r[s][CONDITIONS[-1][0]].get("n_words"):
                continue  # not run
            print(f"{s}: RTF {r[s]['rtf']:.2f}, latency p50 {r[s]['p50_ms']:.0f} ms, p95 {r[s]['p95_ms']:.0f} ms "
                  f"(words: {max(r[s][c].get('n_words') or 0 for c, _ in CONDITIONS)} per condition)")


if __name__ == "__main__":
    sys.exit(main())
