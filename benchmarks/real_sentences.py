"""Real people reading sentences and card names: the recognizer's word errors, free.

    .venv/bin/python benchmarks/real_sentences.py                    # the base model
    .venv/bin/python benchmarks/real_sentences.py --model adapted    # an adapted delta
    .venv/bin/python benchmarks/real_sentences.py --json             # the figures as data

The recordings are Debian's pocketsphinx-testdata (installed by `.ci/setup`): CMU's
test recordings of real people, five LibriVox sentences of "Sense and Sensibility" and
five strings of card names ("eight of spades four of clubs seven of hearts"), 92 words
in all. Nothing in the project is trained or tuned on them: they are the independent
check an adapted recognizer must pass (docs/ADAPTING.md, "The gates"): no more word
errors than the base model in any condition.

Each recording is decoded whole with no language and no prior (the recognizer's own
reading), clean, played 0.9x and 1.1x as fast, and under pink noise at 20 and 10 dB.
Word errors are the word-level edit distance from the transcript, after numbers and
"mr" are written out as words.
"""

from __future__ import annotations

import re
import sys
import time
from pathlib import Path

from rapidfuzz.distance import Levenshtein

from toolkit import listening, report
from toolkit.rooms import load
from toolkit.voices import add_noise
from voice_host.speech.recognizing.moonshine.adapt.augment import speed

DATA = Path("/usr/share/pocketsphinx/test/data")
CONDITIONS = {"clean": lambda x, seed: x, "0.9x": lambda x, seed: speed(x, 0.9),
              "1.1x": lambda x, seed: speed(x, 1.1), "20 dB": lambda x, seed: add_noise(x, 20, seed=seed),
              "10 dB": lambda x, seed: add_noise(x, 10, seed=seed)}
SPELLED = {"mr": "mister", "0": "zero", "1": "one", "2": "two", "3": "three", "4": "four", "5": "five", "6": "six",
           "7": "seven", "8": "eight", "9": "nine", "10": "ten"}


def words(text: str) -> list[str]:
    """Lower-case words, numbers and "mr" spelled out, punctuation and hyphens gone."""
    return [SPELLED.get(w, w) for w in re.sub(r"[^a-z0-9' ]", " ", text.lower().replace("-", " ")).split()]


def recordings(data: Path = DATA) -> list[tuple[Path, list[str]]]:
    """(recording, the words said) of the LibriVox sentences and the card names."""
    out = []
    for folder, listing in (("librivox", "transcription"), ("cards", "cards.transcription")):
        for line in (data / folder / listing).read_text().splitlines():
            text, _, name = line.replace("<s>", "").replace("</s>", "").rpartition("(")
            out.append((data / folder / (name.strip().rstrip(")") + ".wav"), words(text)))
    return out


def run(items, model: str = "base") -> dict:
    rec = listening.recognizer(model)
    out = {}
    for cond, change in CONDITIONS.items():
        errors, misses = 0, []
        for seed, (path, said) in enumerate(items):
            heard = words(rec.transcribe(change(load(path), seed), None).text)
            e = Levenshtein.distance(heard, said)
            errors += e
            if e:
                misses.append(f"{' '.join(said)} -> {' '.join(heard)}")
        out[cond] = {"words": sum(len(s) for _, s in items), "errors": errors, "misses": misses}
    return out


def main(argv: list[str] | None = None) -> int:
    ap = report.arguments(__doc__, "the same (there are 10 recordings)", model=True)
    ap.add_argument("--verbose", action="store_true", help="also each recording heard wrong")
    args = ap.parse_args(argv)
    if not (DATA / "librivox").exists():
        print(f"real_sentences: {DATA} is missing (Debian's pocketsphinx-testdata; `.ci/setup` installs it)",
              file=sys.stderr)
        return 2
    out = report.Report("real_sentences", args.json)
    t0 = time.perf_counter()
    res = run(recordings(), args.model)
    out.figures = res
    out.table([{"condition": c, "words": r["words"], "errors": r["errors"]} for c, r in res.items()],
              [("condition", "condition", "<"), ("words", "words", ">d"), ("errors", "word errors", ">d")])
    total = sum(r["errors"] for r in res.values())
    out.say(f"{args.model}: {total} word errors in {sum(r['words'] for r in res.values())}")
    if args.verbose:
        for c, r in res.items():
            for m in r["misses"]:
                out.say(f"  {c}: {m}")
    out.say(f"({time.perf_counter() - t0:.0f} s)")
    return out.finish(model=args.model, errors=total, seconds=round(time.perf_counter() - t0))


if __name__ == "__main__":
    sys.exit(main())
