"""Real people reading sentences, card names and commands: the recognizer's word errors, free.

    .venv/bin/python benchmarks/real_sentences.py                    # the base model
    .venv/bin/python benchmarks/real_sentences.py --model adapted    # an adapted delta
    .venv/bin/python benchmarks/real_sentences.py --json             # the figures as data

The recordings, real people, none of them synthetic; nothing in the project is trained
or tuned on them. They are the independent check an adapted recognizer must pass
(docs/ADAPTING.md, "The gates"): no more word errors than the base model in any
condition.

- pocketsphinx: Debian's pocketsphinx-testdata (installed by `.ci/setup`), CMU's test
  recordings: five LibriVox sentences of "Sense and Sensibility" and five strings of
  card names ("eight of spades four of clubs seven of hearts"), 92 words.
- an4: 40 recordings of CMU's AN4 (BSD-style licence), 30-odd speakers saying the
  commands and answers a host hears ("yes", "no", "repeat", "stop", "help") and a few
  numbers, from the test data of NVIDIA/NeMo (commit e4b742ce, tests/.data/
  test_data.tar.gz: asr/). Optional: put its asr/ folder's an4_train.json,
  an4_val.json, train/ and test/ under ``<real-audio>/an4_nemo/`` (the real-audio
  folder benchmarks/real_speech.py describes).

Each recording is decoded whole with no language and no prior (the recognizer's own
reading), clean, played 0.9x and 1.1x as fast, and under pink noise at 20 and 10 dB.
Word errors are the word-level edit distance from the transcript, with "mr" written out
and each number one token of digits, however it was written ("one fifty" and "150").
"""
from __future__ import annotations

import json
import re
import sys
import time
from pathlib import Path

from rapidfuzz.distance import Levenshtein
from text_to_num import alpha2digit

from toolkit import listening, report
from toolkit.rooms import default_data, load
from toolkit.voices import add_noise, speed

DATA = Path("/usr/share/pocketsphinx/test/data")
CONDITIONS = {"clean": lambda x, seed: x, "0.9x": lambda x, seed: speed(x, 0.9),
              "1.1x": lambda x, seed: speed(x, 1.1), "20 dB": lambda x, seed: add_noise(x, 20, seed=seed),
              "10 dB": lambda x, seed: add_noise(x, 10, seed=seed)}


def words(text: str) -> list[str]:
    """Lower-case words, punctuation and hyphens gone, "mr" written out, and a number
    as one token of digits however it was written ("one fifty", "1 50" and "150" alike)."""
    text = re.sub(r"[^a-z0-9' ]", " ", text.lower().replace("-", " "))
    text = re.sub(r"(?<=\d) (?=\d)", "", alpha2digit(text, "en"))
    return [w if w != "mr" else "mister" for w in text.split()]


def pocketsphinx(data: Path = DATA) -> list[tuple[Path, list[str]]]:
    """(recording, the words said) of the LibriVox sentences and the card names."""
    out = []
    for folder, listing in (("librivox", "transcription"), ("cards", "cards.transcription")):
        for line in (data / folder / listing).read_text().splitlines():
            text, _, name = line.replace("<s>", "").replace("</s>", "").rpartition("(")
            out.append((data / folder / (name.strip().rstrip(")") + ".wav"), words(text)))
    return out


def an4(data: Path) -> list[tuple[Path, list[str]]]:
    """(recording, the words said) of the AN4 recordings under ``data`` (none when absent)."""
    out = []
    for listing, folder in (("an4_train.json", "train"), ("an4_val.json", "test")):
        path = data / listing
        for line in path.read_text().splitlines() if path.exists() else ():
            row = json.loads(line)
            out.append((data / folder / "an4" / "wav" / Path(row["audio_filepath"]).name, words(row["text"])))
    return out


def run(items, model: str = "base") -> dict:
    """Per condition: the words said, the word errors, and each recording heard wrong."""
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
    ap = report.arguments(__doc__, "the same (there are 50 recordings)", model=True)
    ap.add_argument("--data", type=Path, default=default_data(), help="the real-audio folder (for an4_nemo/)")
    ap.add_argument("--verbose", action="store_true", help="also each recording heard wrong")
    args = ap.parse_args(argv)
    if not (DATA / "librivox").exists():
        print(f"real_sentences: {DATA} is missing (Debian's pocketsphinx-testdata; `.ci/setup` installs it)",
              file=sys.stderr)
        return 2
    out = report.Report("real_sentences", args.json)
    t0 = time.perf_counter()
    sources = {"pocketsphinx": pocketsphinx(), "an4": an4(args.data / "an4_nemo")}
    if not sources["an4"]:
        out.say(f"(no AN4 recordings under {args.data / 'an4_nemo'}: see the docstring)")
    out.figures = {name: run(items, args.model) for name, items in sources.items() if items}
    out.table([{"source": name, "condition": c, "words": r["words"], "errors": r["errors"]}
               for name, res in out.figures.items() for c, r in res.items()],
              [("source", "source", "<"), ("condition", "condition", "<"), ("words", "words", ">d"),
               ("errors", "word errors", ">d")])
    totals = {name: sum(r["errors"] for r in res.values()) for name, res in out.figures.items()}
    out.say(f"{args.model}: " + "; ".join(
        f"{name} {totals[name]} word errors in {sum(r['words'] for r in res.values())}"
        for name, res in out.figures.items()))
    if args.verbose:
        for name, res in out.figures.items():
            for c, r in res.items():
                for m in r["misses"]:
                    out.say(f"  {name}, {c}: {m}")
    out.say(f"({time.perf_counter() - t0:.0f} s)")
    return out.finish(model=args.model, errors=totals, seconds=round(time.perf_counter() - t0))


if __name__ == "__main__":
    sys.exit(main())
