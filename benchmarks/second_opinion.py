"""How the host weighs its second ear, chosen on the tuning split and shown on held-out:
what each way of weighing would have asked and taken silently wrong.

    .venv/bin/python benchmarks/real_speech.py --quick --json real.json
    .venv/bin/python benchmarks/board_words.py --quick --weights DEFAULT --json board.json
    .venv/bin/python benchmarks/second_opinion.py real.json board.json

It reads what the benchmarks recorded of each word heard with the second ear (their
--json: the first ear's confidence, the second ear's reading, whether they agreed, how
far the better reading led the other, whether the word fits the sound, and whether the
word taken was right) and replays the weighing of speech.recognizing.moonshine.opinion
with each setting of a grid:

- AGREED: the confidence of a word both ears heard (0: agreeing changes nothing),
  AGREED_FROM: ... when the first ear was at least this sure of it, FORMS: ... and no
  other form of its word was within this many nats of it (0: off);
- CLEAR: the lead (nats) at which differing ears still take the better reading;
- DOUBTED: the confidence, at most, of a word they differ on with neither clearly ahead;
- LONE: whether a reading that stands for no sentence of the language (the second ear
  heard something else entirely) doubts the word too.

A word is asked about when its confidence ends under ``[speech] confirm_heard_below``
or it fits the sound badly (HearingSettings.unsure), and silently wrong when it is wrong
and not asked about. The setting chosen asks the fewest questions (summed over the
tuning split's conditions) among those that take no more words silently wrong than the
first ear alone in any tuning condition: a second ear may save the table questions,
never cost it a mistake nobody hears. (Weighing the two together instead, a silent
mistake as three questions, chose agreement from 0.2 and took 7.5% of held-out board
words silently wrong.) Held-out is printed beside it, beside the first ear unweighed
and the shipped constants.
"""

from __future__ import annotations

import itertools
import json
import sys
from collections import defaultdict

from toolkit import report

GRID = {"agreed": (0.0, 0.86, 0.9, 0.95), "agreed_from": (0.0, 0.2, 0.4, 0.5, 0.6, 0.7, 0.8, 0.85), "forms": (0.0, 2.0, 4.0),
        "clear": (1.0, 2.0, 3.0, 4.0, 6.0, float("inf")), "doubted": (0.45, 0.85), "lone": (False, True)}


def confidence(o: dict, agreed: float, agreed_from: float, forms: float, clear: float, doubted: float,
               lone: bool) -> float:
    """The word's confidence once weighed with this setting (as moonshine.opinion.weigh)."""
    c = o["confidence"]
    if not o["reading"]:
        return c
    if o["agreed"]:
        form_near = o.get("form") is not None and o["form"] <= forms
        return c if c < agreed_from or form_near else max(c, agreed)
    if o["lead"] is None:
        return min(c, doubted) if lone else c
    return c if o["lead"] >= clear else min(c, doubted)


def rates(records: list[dict], setting: dict, below: float) -> tuple[float, float]:
    """(asked %, silently wrong %) of ``records`` weighed with ``setting``."""
    asked = silent = 0
    for o in records:
        doubt = confidence(o, **setting) < below or not o["fits"]
        asked += doubt
        silent += (not o["right"]) and not doubt
    n = max(1, len(records))
    return 100 * asked / n, 100 * silent / n


def groups(paths: list[str]) -> dict[tuple[str, str], list[dict]]:
    """The records of each file, by split and benchmark + condition."""
    out: dict[tuple[str, str], list[dict]] = defaultdict(list)
    for path in paths:
        data = json.load(open(path))
        for key, figures in data["figures"].items():
            parts = key.split("|")
            if parts[-1] != "with" or not figures.get("opinions"):
                continue
            out[(parts[0], f"{data['benchmark']} {parts[2]}")] += figures["opinions"]  # split, condition
    return out


def main(argv: list[str] | None = None) -> int:
    ap = report.arguments(__doc__, "(no effect)")
    ap.add_argument("files", nargs="+", help="--json outputs of real_speech.py, board_words.py")
    args = ap.parse_args(argv)
    from voice_host import config
    from voice_host.host.hearing import HearingSettings
    from voice_host.speech.recognizing.moonshine import opinion

    below = HearingSettings.from_config(config.load()).confirm_heard_below
    data = groups(args.files)
    out = report.Report("second_opinion", args.json)
    tuning = [k for k in data if k[0] == "tuning"]
    if not tuning:
        print("second_opinion: no tuning split in the files given", file=sys.stderr)
        return 2
    shipped = {"agreed": opinion.AGREED, "agreed_from": opinion.AGREED_FROM, "forms": opinion.FORMS,
               "clear": opinion.CLEAR, "doubted": opinion.DOUBTED, "lone": False}
    alone = {**shipped, "agreed": 0.0, "clear": 0.0, "doubted": 1.0}  # the first ear's own confidence
    floor = {k: rates(data[k], alone, below)[1] for k in tuning}
    best, fewest = alone, sum(rates(data[k], alone, below)[0] for k in tuning)
    for values in itertools.product(*GRID.values()):
        setting = dict(zip(GRID, values))
        figures = {k: rates(data[k], setting, below) for k in tuning}
        asked = sum(a for a, _ in figures.values())
        if all(s <= floor[k] + 1e-9 for k, (_, s) in figures.items()) and asked < fewest - 1e-9:
            best, fewest = setting, asked
    out.say(f"chosen on tuning: {best}; shipped: {shipped}")
    rows = []
    for key in sorted(data):
        cells = {name: rates(data[key], s, below) for name, s in (("alone", alone), ("shipped", shipped),
                                                                   ("chosen", best))}
        rows.append({"split": key[0], "where": key[1], "n": len(data[key]),
                     **{name: f"{a:.1f} / {s:.1f}" for name, (a, s) in cells.items()}})
        out.figures["|".join(key)] = {name: {"asked": round(a, 1), "silent": round(s, 1)}
                                      for name, (a, s) in cells.items()}
    out.say("asked / silently wrong, % of the words heard as one utterance with the second ear's reading "
            "(alone: the first ear's confidence, as if unweighed)")
    out.table(rows, [("split", "split", "<"), ("where", "benchmark and condition", "<"), ("n", "n", ">d"),
                     ("alone", "unweighed", ">"), ("shipped", "shipped", ">"), ("chosen", "chosen", ">")])
    return out.finish(chosen=best, shipped=shipped)


if __name__ == "__main__":
    sys.exit(main())
