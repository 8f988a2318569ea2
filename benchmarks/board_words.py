"""Game words said alone, chosen the way players choose them on a board, heard with and
without the game's prior: what `voice-host hear --board` hears.

    .venv/bin/python benchmarks/board_words.py --quick              # 2 x 24 boards (~5 min a setting)
    .venv/bin/python benchmarks/board_words.py                      # 2 x 60 boards
    .venv/bin/python benchmarks/board_words.py --quick --splits tuning --weights "0:0,4:1,8:2"   # tuning

Boards: deals of the Prolix tile set from the host's own bag (seeded). Words, per board,
as a player would choose them: four boards in five a good play, a known word (Zipf
>= 3.3, 4 letters or more) among the 25 best-scoring known words on that board; one in
five a weak play, a known word worth at most a third of the best. Splits: even boards
and their words are TUNING, said by the tuning voices (flite rms, kal16, and awb and kal
varied with sox); odd boards are HELD-OUT, said by the voices no test or tuning uses
(piper's joe, festival's HTS slt, flite slt, and joe varied with sox), and a word
chosen on a tuning board is never chosen on a held-out one. Conditions: clean, 20 dB and
10 dB pink noise (tests/speech/synth.add_noise).

Each word is heard as `voice-host hear --board` hears a recording of it: the word with
0.6 s of silence before it and 0.8 s after (the noise over all of it), cut into
utterances by the live listener's VAD, and each utterance recognized with the hearing's
own language and prior (host.hearing: `Hearing.sayable()`, the Moonshine search), per
weight setting POINTS:KNOWN ([speech] prior_points, prior_known; 0:0 is the search
without the prior). `--trimmed` gives the recognizer the clip alone instead (the
measure before 2026-11-24: it overstates what a table gets). Reported per split,
condition and setting, for good and weak plays: right (one utterance, the word heard),
asked (heard with confidence under confirm_heard_below, or fitting the sound under
confirm_fit_below: the host would ask), silently wrong (a wrong word not asked about).
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

from synth import add_noise, synth  # noqa: E402

from voice_host.speech.audio import SAMPLE_RATE  # noqa: E402

VOICES = {"tuning": ("rms", "kal16", "awb~p200~t0.95", "kal~p-150~t1.05"),
          "held-out": ("joe", "fest_slt", "slt", "joe~p250~t0.93")}
CONDITIONS = (("clean", None), ("20 dB", 20.0), ("10 dB", 10.0))
KNOWN_ZIPF = 3.3
WEAK_EVERY = 5


def table(seed: int, words, points: float = 0.0, known: float = 0.0):
    """A Classic game on the host's own bag (seeded), begun, with its hearing."""
    from voice_host import config
    from voice_host.host.hearing import Hearing, HearingSettings
    from voice_host.host.session import Session, new_header

    session = Session(new_header("prolix-classic", ["Ann", "Ben", "Cat"], seed, config.load()), words, lambda _: None)
    session.begin(0.0, quiet=True)
    return Hearing(session, words, HearingSettings(prior_points=points, prior_known=known))


def choose(words, hearing, rng, weak: bool, taken: set[str]) -> str:
    """The word a player would say on this board (a good play, or a weak one)."""
    expected = hearing.session.game.expectation()
    values = words.values(expected.tiles)
    zipf = np.asarray(words.data.zipf)
    known = np.array([z >= KNOWN_ZIPF and len(w) >= 4 and w not in taken for w, z in zip(words.data.words, zipf)])
    best = int(values[known].max())
    if weak:
        pool = np.flatnonzero(known & (values > 0) & (values <= best / 3))
    else:
        ranked = np.flatnonzero(known)[np.argsort(-values[known], kind="stable")]
        pool = ranked[:25]
    return words.data.words[int(rng.choice(pool))]


def plan(n_boards: int, words, seed: int = 19, first_board: int = 1000, avoid: frozenset = frozenset()) -> list[dict]:
    """The boards, the words chosen on them and their voices, tuning and held-out (the
    boards seeded from `first_board` on, never a word of `avoid`)."""
    rng = np.random.default_rng(seed)
    taken: dict[str, set[str]] = {"tuning": set(avoid), "held-out": set(avoid)}
    rows = []
    for b in range(2 * n_boards):
        split = "tuning" if b % 2 == 0 else "held-out"
        other = taken["held-out" if split == "tuning" else "tuning"]
        hearing = table(first_board + b, words)
        weak = b // 2 % WEAK_EVERY == WEAK_EVERY - 1
        word = choose(words, hearing, rng, weak, other | taken[split])
        taken[split].add(word)
        voices = VOICES[split]
        rows.append({"split": split, "seed": first_board + b, "word": word, "weak": weak,
                     "voice": voices[(b // 2) % len(voices)]})
    return rows


BEFORE, AFTER = 0.6, 0.8
"""Seconds of silence around a word in the recording `hear` is given."""


def heard_as_recorded(rec, hearing, audio: np.ndarray, snr: float | None, seed: int) -> list:
    """The transcripts of the utterances the live listener cuts from a recording of
    `audio` with silence around it (noise over all of it at `snr` dB below the word)."""
    from voice_host.speech.listening.sources import ArraySource
    from voice_host.speech.listening.turns import Listener

    x = np.concatenate([np.zeros(int(BEFORE * SAMPLE_RATE), np.float32), audio,
                        np.zeros(int(AFTER * SAMPLE_RATE), np.float32)])
    if snr is not None:
        x = add_noise(x, snr, seed=seed, reference=audio)
    listener = Listener(rec, hearing.session.players)
    listener.constrain(hearing.sayable())
    return list(listener.utterances(ArraySource(x)))


def run(rows: list[dict], weights: list[tuple[float, float]], conditions, words, trimmed: bool = False) -> dict:
    from voice_host.speech.recognizing.moonshine import MoonshineRecognizer

    rec = MoonshineRecognizer()
    out: dict = {}
    seconds = []
    for row in rows:
        audio = synth(row["word"], row["voice"])
        hearings = {w: table(row["seed"], words, *w) for w in weights}
        for cond, snr in conditions:
            seed = zlib.crc32(row["word"].encode())
            for w, hearing in hearings.items():
                t0 = time.perf_counter()
                if trimmed:
                    x = audio if snr is None else add_noise(audio, snr, seed=seed)
                    heard_all = [rec.transcribe(x, hearing.sayable())]
                else:
                    heard_all = heard_as_recorded(rec, hearing, audio, snr, seed)
                seconds.append(time.perf_counter() - t0)
                tr = heard_all[0] if len(heard_all) == 1 else None
                heard = " / ".join(u.text for u in heard_all).split(" ")[-1] if heard_all else ""
                right = tr is not None and heard == row["word"] and tr.constrained
                asked = tr is not None and hearing.settings.unsure(tr)
                key = (row["split"], cond, w, "weak" if row["weak"] else "good")
                s = out.setdefault(key, {"n": 0, "right": 0, "asked": 0, "silent": 0, "misses": []})
                s["n"] += 1
                s["right"] += right
                s["asked"] += asked
                s["silent"] += (not right) and not asked
                if not right:
                    s["misses"].append(f"{row['word']}->{heard or '?'}")
    out["latency"] = (float(np.percentile(seconds, 50)), float(np.percentile(seconds, 95)))
    return out


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--quick", action="store_true", help="24 boards a split instead of 60")
    ap.add_argument("--boards", type=int, help="boards a split")
    ap.add_argument("--splits", default="tuning,held-out")
    ap.add_argument("--conditions", default="clean,20 dB,10 dB")
    ap.add_argument("--weights", default="0:0,DEFAULT", help="POINTS:KNOWN settings to compare; DEFAULT: config")
    ap.add_argument("--misses", action="store_true", help="list the words missed")
    ap.add_argument("--trimmed", action="store_true", help="give the recognizer the word's clip alone, not a recording")
    args = ap.parse_args(argv)

    from voice_host import config
    from voice_host.host.hearing import HearingSettings
    from voice_host.words import Words

    words = Words.load()
    speech = HearingSettings.from_config(config.load())
    weights = []
    for item in args.weights.split(","):
        if item == "DEFAULT":
            weights.append((float(speech.prior_points), float(speech.prior_known)))
        else:
            p, k = item.split(":")
            weights.append((float(p), float(k)))
    weights = list(dict.fromkeys(weights))
    n = args.boards or (24 if args.quick else 60)
    splits = args.splits.split(",")
    rows = [r for r in plan(n, words) if r["split"] in splits]
    conditions = [c for c in CONDITIONS if c[0] in args.conditions.split(",")]
    t0 = time.time()
    res = run(rows, weights, conditions, words, args.trimmed)
    print(f"board words ({'clips alone' if args.trimmed else 'as recorded, through the VAD'}): "
          f"{len(rows)} words ({sum(r['weak'] for r in rows)} weak plays), "
          f"{len(conditions)} conditions, settings {', '.join(f'{p:g}:{k:g}' for p, k in weights)}; "
          f"{time.time() - t0:.0f} s; latency p50/p95 {res['latency'][0] * 1000:.0f}/{res['latency'][1] * 1000:.0f} ms")
    for split in splits:
        for kind in ("good", "weak"):
            print(f"\n{split}, {kind} plays: right / asked / silently wrong, % ({' / '.join(c for c, _ in conditions)})")
            for w in weights:
                cells = []
                for cond, _ in conditions:
                    s = res.get((split, cond, w, kind))
                    if not s:
                        continue
                    cells.append(f"{100 * s['right'] / s['n']:.1f} / {100 * s['asked'] / s['n']:.1f} / "
                                 f"{100 * s['silent'] / s['n']:.1f}")
                n_words = next((res[(split, c, w, kind)]["n"] for c, _ in conditions if (split, c, w, kind) in res), 0)
                print(f"  prior {w[0]:g}:{w[1]:g} (n={n_words}): " + "   ".join(cells))
                if args.misses:
                    for cond, _ in conditions:
                        s = res.get((split, cond, w, kind))
                        if s and s["misses"]:
                            print(f"      {cond}: {', '.join(s['misses'])}")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
