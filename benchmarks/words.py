"""Benchmark of the words layer: build and load times, memory, lookup, matcher, solver.

    .venv/bin/python benchmarks/words.py [--seed 0] [--transcripts 3000] [--boards 1000]

Builds the default lexicon into a fresh cache directory (timed), loads it back in a new
process (timed, with its resident memory), then times lookups, the matcher on seeded
noisy transcripts (and its accuracy) and the solver on seeded random boards. Every
figure is printed next to its target.
"""

from __future__ import annotations

import argparse
import json
import os
import random
import subprocess
import sys
import tempfile
import time
from collections.abc import Callable, Sequence

import numpy as np

NATO = (
    "alfa bravo charlie delta echo foxtrot golf hotel india juliett kilo lima mike november "
    "oscar papa quebec romeo sierra tango uniform victor whiskey xray yankee zulu"
).split()

# Respellings a recognizer produces for words that sound alike (pattern -> replacement).
SOUND_ALIKE = [
    ("ph", "f"), ("f", "ph"), ("ck", "k"), ("c", "k"), ("k", "c"), ("ee", "ea"), ("ea", "ee"),
    ("ai", "ay"), ("ay", "ai"), ("ou", "ow"), ("tion", "shun"), ("sion", "shun"), ("s", "z"),
    ("z", "s"), ("y", "ie"), ("ie", "y"), ("oo", "u"), ("er", "or"), ("or", "er"), ("ight", "ite"),
    ("qu", "kw"), ("x", "ks"), ("wh", "w"), ("kn", "n"), ("wr", "r"), ("mb", "m"), ("ence", "ance"),
    ("ance", "ence"), ("able", "ible"), ("ible", "able"), ("ise", "ize"), ("ize", "ise"),
    ("ll", "l"), ("l", "ll"), ("tt", "t"), ("t", "tt"), ("ss", "s"), ("s", "ss"), ("mm", "m"),
    ("nn", "n"), ("pp", "p"), ("rr", "r"), ("dd", "d"), ("gh", "g"), ("ch", "tch"), ("dge", "ge"),
    ("al", "el"), ("el", "al"), ("ent", "ant"), ("ant", "ent"), ("our", "or"), ("ough", "uff"),
]
KINDS = ("swap", "drop", "split", "sound", "spelled", "nato")

TARGETS = {
    "cached load (s)": 0.5,
    "RSS of the words layer (MB)": 150,
    "lookup p99 (us)": 20,
    "matcher p99 (ms)": 15,
    "solver p99 (ms)": 30,
    "matcher top-1 (%)": 95,
    "matcher top-n contains (%)": 99,
}


def _noisy(word: str, kind: str, rng: random.Random) -> str | None:
    """One noisy transcript of `word`, or None if this kind does not apply."""
    if kind == "swap":
        i = rng.randrange(len(word) - 1)
        return None if word[i] == word[i + 1] else word[:i] + word[i + 1] + word[i] + word[i + 2 :]
    if kind == "drop":
        i = rng.randrange(len(word))
        return word[:i] + word[i + 1 :]
    if kind == "split":
        i = rng.randrange(2, len(word) - 1)
        return word[:i] + " " + word[i:]
    if kind == "sound":
        options = [(a, b) for a, b in SOUND_ALIKE if a in word]
        if not options:
            return None
        a, b = rng.choice(options)
        starts = [i for i in range(len(word)) if word.startswith(a, i)]
        i = rng.choice(starts)
        return word[:i] + b + word[i + len(a) :]
    if kind == "spelled":
        return " ".join(word)
    return " ".join(NATO[ord(c) - ord("a")] for c in word)


def noisy_transcripts(words: Sequence[str], zipf: np.ndarray, count: int, seed: int) -> list[tuple[str, str, str]]:
    """`count` (transcript, meant word, noise kind) triples, the kinds in turn. Meant
    words are dictionary words of 5+ letters with Zipf >= 3 (what players say). Noise
    that lands on another dictionary word is drawn again: no matcher can tell it from
    that word."""
    rng = random.Random(seed)
    known = set(words)
    pool = [w for w, z in zip(words, zipf) if len(w) >= 5 and z >= 3.0]
    out: list[tuple[str, str, str]] = []
    while len(out) < count:
        kind = KINDS[len(out) % len(KINDS)]
        word = rng.choice(pool)
        heard = _noisy(word, kind, rng)
        if heard is None or (heard.replace(" ", "") in known and heard.replace(" ", "") != word):
            continue
        out.append((heard, word, kind))
    return out


def percentiles(samples: Sequence[float]) -> tuple[float, float]:
    """(p50, p99) of `samples`."""
    return float(np.percentile(samples, 50)), float(np.percentile(samples, 99))


def timed(fn: Callable[[], object]) -> float:
    """Seconds one call of `fn` takes."""
    t = time.perf_counter()
    fn()
    return time.perf_counter() - t


def rss_mb() -> float:
    """This process's resident set size in MB (Linux)."""
    with open("/proc/self/status") as f:
        for line in f:
            if line.startswith("VmRSS:"):
                return int(line.split()[1]) / 1024
    return float("nan")


def load_probe() -> None:
    """Child process: time the cached load and measure RSS, print them as JSON."""
    base = rss_mb()
    t = time.perf_counter()
    from voice_host.words import Words

    words = Words.load()
    load = time.perf_counter() - t
    words.match("jewelers")
    words.best([("j", 5)])
    words.cheapie("jumped", [("jump", "a")])
    words.cheapie("zorbing", [("zorbed", "a")])  # unknown words load lemminflect too
    print(json.dumps({"load": load, "rss": rss_mb(), "rss_python": base, "n": len(words)}))


def random_board(rng: random.Random) -> list[tuple[str, int]]:
    """Eight tiles as in Prolix: four columns worth 4..1, a few blue (+1) or red (+2)."""
    consonants = "bcdfghlmnprst"
    rare = {"k": 1, "v": 1, "w": 1, "y": 1, "j": 2, "q": 2, "x": 2, "z": 2}
    tiles = []
    for col in range(8):
        if rng.random() < 0.2:
            letter = rng.choice(sorted(rare))
            tiles.append((letter, 4 - col // 2 + rare[letter]))
        else:
            tiles.append((rng.choice(consonants), 4 - col // 2))
    return tiles


def main(argv: list[str] | None = None) -> int:
    from toolkit import report

    parser = report.arguments(__doc__, "300 transcripts and 100 boards")
    parser.add_argument("--seed", type=int, default=0)
    parser.add_argument("--transcripts", type=int, default=3000)
    parser.add_argument("--boards", type=int, default=1000)
    parser.add_argument("--probe", action="store_true", help=argparse.SUPPRESS)
    args = parser.parse_args(argv)
    if args.probe:
        load_probe()
        return 0
    if args.quick:
        args.transcripts, args.boards = min(args.transcripts, 300), min(args.boards, 100)
    out = report.Report("words", args.json)
    figures: dict[str, float] = {}
    with tempfile.TemporaryDirectory() as cache:
        os.environ["VOICE_HOST_CACHE"] = cache
        from voice_host.words import Words, lexicon

        figures["dictionary build (s)"] = timed(lambda: lexicon.load_lexicon(lexicon.LexiconSettings()))
        probes = [
            json.loads(subprocess.run([sys.executable, __file__, "--probe"], capture_output=True, text=True, check=True).stdout)
            for _ in range(3)
        ]
        figures["cached load (s)"] = min(p["load"] for p in probes)
        figures["RSS of the words layer (MB)"] = probes[0]["rss"] - probes[0]["rss_python"]
        figures["RSS of the process (MB)"] = probes[0]["rss"]
        words = Words.load()
    figures["dictionary words"] = len(words)
    sizes = _family_sizes(words)
    figures["largest No Cheapies family (words)"] = int(sizes.max())
    largest = words.data.families.nodes[int(sizes.argmax())]

    rng = random.Random(args.seed)
    sample = [rng.choice(words.data.words) for _ in range(20000)]
    sample += [w + "q" for w in sample[:5000]]
    lookups = []
    for w in sample:
        t = time.perf_counter()
        words.check(w)
        lookups.append(time.perf_counter() - t)
    figures["lookup p50 (us)"], figures["lookup p99 (us)"] = (x * 1e6 for x in percentiles(lookups))

    cases = noisy_transcripts(words.data.words, words.data.zipf, args.transcripts, args.seed)
    times, top1, topn = [], 0, 0
    misses: dict[str, int] = {k: 0 for k in KINDS}
    for heard, meant, kind in cases:
        t = time.perf_counter()
        m = words.match(heard)
        times.append(time.perf_counter() - t)
        top1 += m.best == meant
        topn += any(w == meant for w, _ in m.alternatives)
        misses[kind] += m.best != meant
    figures["matcher p50 (ms)"], figures["matcher p99 (ms)"] = (x * 1e3 for x in percentiles(times))
    figures["matcher top-1 (%)"] = 100 * top1 / len(cases)
    figures["matcher top-n contains (%)"] = 100 * topn / len(cases)

    boards = [random_board(rng) for _ in range(args.boards)]
    solve = [timed(lambda b=b: words.best(b, 5)) for b in boards]
    figures["solver p50 (ms)"], figures["solver p99 (ms)"] = (x * 1e3 for x in percentiles(solve))

    out.say(f"words layer benchmark (seed {args.seed}, {len(cases)} transcripts, {len(boards)} boards)")
    for name, value in figures.items():
        target = TARGETS.get(name)
        verdict = ""
        if target is not None:
            good = value >= target if "%" in name else value < target
            verdict = f"  target {'>=' if '%' in name else '<'} {target}: {'ok' if good else 'MISSED'}"
        out.say(f"{name:38s} {value:10.3f}{verdict}")
    out.say("matcher misses by noise kind: " + ", ".join(f"{k} {v}" for k, v in misses.items()))
    out.say(f"largest No Cheapies family: the one of {largest!r}")
    out.figures = {k: round(v, 3) for k, v in figures.items()}
    return out.finish(seed=args.seed, transcripts=len(cases), boards=len(boards), misses_by_kind=misses)


def _family_sizes(words: object) -> np.ndarray:
    from voice_host.words.morphology import family_sizes

    return family_sizes(words.data.families, len(words))  # type: ignore[attr-defined]


if __name__ == "__main__":
    sys.exit(main())
