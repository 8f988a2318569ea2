"""How sure may the host be of a word it heard? The recognizer's calibrated confidence,
fitted on the tuning split and checked on the held-out split.

    .venv/bin/python benchmarks/confidence.py                       # hear (~2-3 min here), fit, report
    .venv/bin/python benchmarks/confidence.py --cache heard.json    # keep what was heard; later runs refit from it

Words chosen on boards as players choose them (benchmarks/board_words.py's plan: a good
play among the 25 best known words, one board in five a weak play), heard as `voice-host
hear --board` hears a recording of each (silence around it, the VAD, the game's language
and prior): TUNING, 150 boards said by the tuning voices, none of their words among the
held-out ones; HELD-OUT, the 60 held-out boards of board_words.py, said by the held-out
voices. One word in four is said after its player's name ("Ben, jewelers"). Clean,
20 dB and 10 dB pink noise.

Each utterance gives the recognizer's evidence (speech/recognizing/moonshine/
confidence.py FEATURES) and whether the word heard was right. A logistic model is fitted
on TUNING (its coefficients are printed, to go into confidence.py's COEF when refitted), and two ways
of deciding when to ask are compared per split and condition, as asked % / silently
wrong % (a wrong word not asked about): the margin the host used before (ask under a
share of 0.98, or a fit under 0) and the shipped calibrated confidence at the threshold that
keeps silently wrong at or under 2% in every tuning condition with the fewest questions.
The host's own threshold ([speech] confirm_heard_below) is then chosen the same way on
whole games (benchmarks/table.py --confirm-heard X,Y), where questions cost more.
"""

from __future__ import annotations

import json
import time
import zlib
from pathlib import Path

import numpy as np

from board_words import heard_as_recorded
from toolkit import listening, report, rooms
from toolkit.boards import plan
from toolkit.voices import synth

CONDITIONS = ("clean", "20 dB", "10 dB")
HELD_OUT_BOARDS = 60
TUNING_BOARDS = 150
PLAYERS = ("Ann", "Ben", "Cat")
NAME_EVERY = 4
SILENT_MAX = 0.02


def rows(words, held_boards: int = HELD_OUT_BOARDS, tuning_boards: int = TUNING_BOARDS) -> list[dict]:
    """Held-out: board_words.py's 60 held-out boards; tuning: 150 other boards, none of
    whose words is a held-out one."""
    boards = plan(held_boards, words)
    held = [r for r in boards if r["split"] == "held-out"]
    avoid = frozenset(r["word"] for r in boards)
    tuning = [r for r in plan(tuning_boards, words, seed=23, first_board=5000, avoid=avoid)
              if r["split"] == "tuning"]
    return tuning + held


def hear(rows: list[dict], words, conditions=CONDITIONS, room=None) -> list[dict]:
    """Each row heard in each condition: its evidence and whether it was right."""
    from voice_host.speech.recognizing.moonshine import MoonshineRecognizer

    rec = MoonshineRecognizer()
    out = []
    for i, row in enumerate(rows):
        name = PLAYERS[i % len(PLAYERS)] if i % NAME_EVERY == NAME_EVERY - 1 else None
        audio = synth(f"{name}, {row['word']}." if name else row["word"], row["voice"])
        hearing = listening.hearing(words, row["seed"], 3.0, 1.0)
        for cond in conditions:
            heard = heard_as_recorded(rec, hearing, audio, cond, zlib.crc32(row["word"].encode()),
                                      (room or {}).get(row["split"]))
            if len(heard) != 1 or not heard[0].constrained or rec.evidence is None:
                continue  # not one word of the language: chatter or several utterances, never asked about
            u = heard[0]
            out.append({"split": row["split"], "cond": cond, "word": row["word"], "heard": u.text,
                        "right": u.text.split()[-1] == row["word"], "x": list(rec.evidence)})
    return out


def fit(data: list[dict]) -> tuple[np.ndarray, float]:
    from sklearn.linear_model import LogisticRegression

    tuning = [d for d in data if d["split"] == "tuning"]
    if len({d["right"] for d in tuning}) < 2:  # too few words heard (a small run): nothing to fit
        return np.zeros(len(data[0]["x"]) if data else 0), 0.0
    model = LogisticRegression(C=1.0, max_iter=1000).fit(np.array([d["x"] for d in tuning]),
                                                        np.array([d["right"] for d in tuning]))
    return model.coef_[0], float(model.intercept_[0])


def rates(data: list[dict], asks) -> dict:
    """(split, condition) -> (n, right %, asked %, silently wrong %)."""
    out = {}
    for key in sorted({(d["split"], d["cond"]) for d in data}):
        sub = [d for d in data if (d["split"], d["cond"]) == key]
        asked = [asks(d) for d in sub]
        silent = [not a and not d["right"] for d, a in zip(sub, asked)]
        out[key] = (len(sub), 100 * np.mean([d["right"] for d in sub]), 100 * np.mean(asked), 100 * np.mean(silent))
    return out


def main(argv: list[str] | None = None) -> int:
    ap = report.arguments(__doc__, "12 held-out and 30 tuning boards (60 and 150 without)", ",".join(CONDITIONS),
                          (*rooms.PINK, *rooms.ROOMS))
    ap.add_argument("--boards", type=int, metavar="N", help="N held-out boards and 2.5 N tuning ones")
    ap.add_argument("--cache", metavar="FILE", help="what was heard (JSON): read when it exists, else written")
    args = ap.parse_args(argv)
    out = report.Report("confidence", args.json)
    held = args.boards or (12 if args.quick else HELD_OUT_BOARDS)
    conditions, room = rooms.prepare(args.conditions, ",".join(CONDITIONS))

    from voice_host.speech.recognizing.moonshine import confidence
    from voice_host.words import Words

    t0 = time.time()
    if args.cache and Path(args.cache).is_file():
        data = json.loads(Path(args.cache).read_text())
    else:
        words = Words.load()
        data = hear(rows(words, held, int(held * TUNING_BOARDS / HELD_OUT_BOARDS)), words, conditions, room)
        if args.cache:
            Path(args.cache).write_text(json.dumps(data))
    coef, intercept = fit(data)
    out.say(f"confidence: {len(data)} utterances heard as one word "
          f"({sum(d['split'] == 'tuning' for d in data)} tuning), {time.time() - t0:.0f} s")
    out.say("fitted on tuning: COEF = (" + ", ".join(f"{c:.3f}" for c in coef) + f"), INTERCEPT = {intercept:.3f}"
          f"  [{', '.join(confidence.FEATURES)}]")
    share, fit_ = confidence.FEATURES.index("share"), confidence.FEATURES.index("fit")
    # the rule before: the share of the n-best (its log-odds in the evidence) under 0.98, or a fit under 0
    margin = rates(data, lambda d: d["x"][share] < np.log(0.98 / 0.02) or d["x"][fit_] < 0.0)
    best = None
    for t in np.round(np.arange(0.50, 0.995, 0.01), 2):
        r = rates(data, lambda d, t=t: confidence.calibrated(tuple(d["x"])) < t)
        tuning = [v for k, v in r.items() if k[0] == "tuning"]
        if all(s <= 100 * SILENT_MAX for *_, s in tuning):
            asked = np.mean([a for _, _, a, _ in tuning])
            if best is None or asked < best[1]:
                best = (t, asked, r)
    out.say("\nasked % / silently wrong %  (the calibrated confidence as shipped: confidence.COEF)")
    out.say(f"{'split':9} {'noise':6} {'n':>4} {'right':>6}   margin < 0.98 or fit < 0   calibrated < {best[0] if best else '-'}")
    for key, (n, right, a, s) in margin.items():
        cal = f"{best[2][key][2]:5.1f} / {best[2][key][3]:4.1f}" if best else "-"
        out.say(f"{key[0]:9} {key[1]:6} {n:4} {right:6.1f}   {a:5.1f} / {s:4.1f}                {cal}")
        out.figures[f"{key[0]}|{key[1]}"] = {
            "n": n, "right": round(right, 1), "margin": {"asked": round(a, 1), "silent": round(s, 1)},
            "calibrated": {"asked": round(best[2][key][2], 1), "silent": round(best[2][key][3], 1)} if best else None}
    return out.finish(coef=[round(float(c), 3) for c in coef], intercept=round(intercept, 3),
                      threshold=float(best[0]) if best else None)


if __name__ == "__main__":
    raise SystemExit(main())
