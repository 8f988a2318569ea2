"""Game words said alone, chosen the way players choose them on a board, heard with and
without the game's prior: what `voice-host hear --board` hears.

    .venv/bin/python benchmarks/board_words.py --quick              # 2 x 24 boards (~5 min a setting)
    .venv/bin/python benchmarks/board_words.py                      # 2 x 60 boards
    .venv/bin/python benchmarks/board_words.py --quick --splits tuning --weights "0:0,4:1,8:2"   # tuning
    .venv/bin/python benchmarks/board_words.py --quick --conditions default,rooms --json      # real rooms too, as data

Boards: deals of the Prolix tile set from the host's own bag (seeded). Words, per board,
as a player would choose them: four boards in five a good play, a known word (Zipf
>= 3.3, 4 letters or more) among the 25 best-scoring known words on that board; one in
five a weak play, a known word worth at most a third of the best. Splits: even boards
and their words are TUNING, said by the tuning voices (flite rms, kal16, and awb and kal
varied with sox); odd boards are HELD-OUT, said by the voices no test or tuning uses
(piper's joe, festival's HTS slt, flite slt, and joe varied with sox), and a word
chosen on a tuning board is never chosen on a held-out one (benchmarks/toolkit/boards.py).
Conditions (`--conditions`, benchmarks/toolkit/rooms.py): clean, 20 dB and 10 dB pink
noise by default; `--conditions default,rooms` adds the real rooms (kitchen, babble of
real talkers of the split at 15 and 5 dB, a living room's reverberation, a far microphone).

Each word is heard as `voice-host hear --board` hears a recording of it, in a game that
knows the player's voice: the word with 0.6 s of silence before it and 0.8 s after (the
noise over all of it), cut into utterances by the live listener's VAD at the player's
level less `background_below` (what is quieter is the room's, set aside), and each
utterance recognized with the hearing's own language and prior (host.hearing:
`Hearing.sayable()`, the Moonshine search), per weight setting POINTS:KNOWN ([speech]
prior_points, prior_known; 0:0 is the search without the prior). `--trimmed` gives the
recognizer the clip alone instead (the measure before 2026-11-24: it overstates what a
table gets). Reported per split, condition and setting, for good and weak plays: right
(one utterance, the word heard), asked (heard with confidence under confirm_heard_below,
or fitting the sound under confirm_fit_below: the host doubts it, and asks, or takes it
and says it in the score for its player to put right: docs/HEARING.md), silently wrong
(a wrong word the host had no doubt of), and the misses by kind (MISSES: a wrong ending,
"no" + a word, a collapse, ...)."""

from __future__ import annotations

import os
import sys
import time
import zlib

import numpy as np

from toolkit import listening, report, rooms
from toolkit.boards import KNOWN_ZIPF, WEAK_EVERY, choose, plan  # noqa: F401  (others' imports)
from toolkit.splits import WORD_VOICES as VOICES
from toolkit.voices import synth

CONDITIONS = ("clean", "20 dB", "10 dB")
"""The default conditions (any of toolkit.rooms' may be asked for)."""


def heard_as_recorded(rec, hearing, audio: np.ndarray, condition: str, seed: int, room=None) -> list:
    """The utterances the live listener cuts from a recording of `audio` with silence
    around it, in `condition` (noise over all of it, set against the word), and hears,
    as a game that knows the player's voice hears them: the listener cuts at the
    player's level at the microphone (the word in `condition`) less `background_below`,
    and what is quieter than that is the room's, set aside (host.hearing.attribute:
    the talk of a room in babble)."""
    from voice_host.speech.audio import speech_level

    x = rooms.in_condition(listening.padded(audio), audio, condition, seed, room)
    ear = listening.listener(rec, hearing.session.players, hearing.sayable())
    voice = speech_level(rooms.in_condition(audio, audio, condition, seed, room))  # as the microphone hears it
    table = voice - hearing.settings.background_below
    ear.hear_above(table)
    return [u for u in listening.cut(ear, x) if speech_level(u.audio) >= table]


MISSES = ("ending", "no + word", "collapse", "split", "chatter", "nothing", "other word")
"""The kinds of miss: ENDING, the word said with another ending (register for
registered, horizontal for horizontally: a form of it, or a word sharing its first five
letters or more and at least 60% of the shorter's); NO +
WORD, heard as a word put right ("no infected" for unaffected); COLLAPSE, a word of half
the syllables or fewer (eighty for babysitting); SPLIT, two utterances or more; CHATTER,
heard as free speech; NOTHING, no utterance; OTHER WORD, any other."""


def miss_kind(said: str, heard: list) -> str:
    """Which kind of miss (MISSES) hearing the utterances ``heard`` for the word ``said`` is."""
    from voice_host.speech.recognizing.duration import syllables
    from voice_host.words.morphology import forms_of_one_word

    if not heard:
        return "nothing"
    if len(heard) > 1:
        return "split"
    text = heard[0].text
    word = text.split()[-1] if text.split() else ""
    if text.startswith(("no ", "i said ")):
        return "no + word"
    if not heard[0].constrained:
        return "chatter"
    stem = len(os.path.commonprefix([word, said]))
    if word and (forms_of_one_word(word, said) or (stem >= 5 and stem >= 0.6 * min(len(word), len(said)))):
        return "ending"
    if syllables(text) * 2 <= syllables(said):
        return "collapse"
    return "other word"


def run(rows: list[dict], weights: list[tuple[float, float]], conditions, words, trimmed: bool = False,
        room=None, model: str = "base", ears: dict[str, str] | None = None) -> dict:
    """Each word in each condition, heard with each prior setting of ``weights`` by each
    host of ``ears`` (name -> [speech] second_ear)."""
    recs = {host: listening.recognizer(model, second_ear) for host, second_ear in (ears or {"with": "auto"}).items()}
    out: dict = {}
    seconds = []
    for row in rows:
        audio = synth(row["word"], row["voice"])
        hearings = {w: listening.hearing(words, row["seed"], *w) for w in weights}
        for cond in conditions:
            seed = zlib.crc32(row["word"].encode())
            for (host, rec), (w, hearing) in ((r, h) for r in recs.items() for h in hearings.items()):
                t0 = time.perf_counter()
                if trimmed:
                    x = rooms.in_condition(audio, audio, cond, seed, room[row["split"]])
                    heard_all = [rec.transcribe(x, hearing.sayable())]
                else:
                    heard_all = heard_as_recorded(rec, hearing, audio, cond, seed, room[row["split"]])
                seconds.append(time.perf_counter() - t0)
                tr = heard_all[0] if len(heard_all) == 1 else None
                heard = " / ".join(u.text for u in heard_all).split(" ")[-1] if heard_all else ""
                right = tr is not None and heard == row["word"] and tr.constrained
                asked = tr is not None and hearing.settings.unsure(tr)
                key = (row["split"], cond, (*w, host), "weak" if row["weak"] else "good")
                s = out.setdefault(key, {"n": 0, "right": 0, "asked": 0, "silent": 0, "misses": [], "opinions": []})
                if tr is not None and getattr(tr, "opinion", None) is not None:
                    s["opinions"].append({**listening.opinion(tr, hearing.settings), "right": right})
                s["n"] += 1
                s["right"] += right
                s["asked"] += asked
                s["silent"] += (not right) and not asked
                if not right:
                    s["misses"].append(f"{row['word']}->{heard or '?'}")
                    kinds = s.setdefault("kinds", dict.fromkeys(MISSES, 0))
                    kinds[miss_kind(row["word"], heard_all)] += 1
    out["latency"] = (float(np.percentile(seconds, 50)), float(np.percentile(seconds, 95)))
    return out


def main(argv: list[str] | None = None) -> int:
    ap = report.arguments(__doc__, "24 boards a split instead of 60", ",".join(CONDITIONS),
                          (*rooms.PINK, *rooms.ROOMS), model=True)
    ap.add_argument("--boards", type=int, help="boards a split")
    ap.add_argument("--splits", default="tuning,held-out")
    ap.add_argument("--weights", default="0:0,DEFAULT", help="POINTS:KNOWN settings to compare; DEFAULT: config")
    ap.add_argument("--misses", action="store_true", help="list the words missed")
    ap.add_argument("--trimmed", action="store_true", help="give the recognizer the word's clip alone, not a recording")
    listening.add_ear_option(ap)
    args = ap.parse_args(argv)

    from voice_host import config
    from voice_host.host.hearing import HearingSettings
    from voice_host.words import Words

    out = report.Report("board_words", args.json)
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
    conditions, room = rooms.prepare(args.conditions, ",".join(CONDITIONS), splits)
    t0 = time.time()
    ears = listening.ears(args.second_ear)
    res = run(rows, weights, conditions, words, args.trimmed, room, args.model, ears)
    weights = [(*w, host) for w in weights for host in ears]
    out.say(f"board words ({'clips alone' if args.trimmed else 'as recorded, through the VAD'}): "
            f"{len(rows)} words ({sum(r['weak'] for r in rows)} weak plays), "
            f"{len(conditions)} conditions, settings {', '.join(f'{p:g}:{k:g} {h}' for p, k, h in weights)}; "
            f"{time.time() - t0:.0f} s; latency p50/p95 {res['latency'][0] * 1000:.0f}/{res['latency'][1] * 1000:.0f} ms")
    for (split, cond, w, kind), s in (item for item in res.items() if item[0] != "latency"):
        out.figures[f"{split}|{kind}|{cond}|{w[0]:g}:{w[1]:g}|{w[2]}"] = {
            "n": s["n"], "right": round(100 * s["right"] / s["n"], 1), "asked": round(100 * s["asked"] / s["n"], 1),
            "silent": round(100 * s["silent"] / s["n"], 1), "misses": s["misses"],
            "kinds": s.get("kinds", dict.fromkeys(MISSES, 0)), "opinions": s["opinions"]}
    for split in splits:
        for kind in ("good", "weak"):
            out.say(f"\n{split}, {kind} plays: right / asked / silently wrong, % ({' / '.join(conditions)})")
            for w in weights:
                cells = []
                for cond in conditions:
                    s = res.get((split, cond, w, kind))
                    if not s:
                        continue
                    cells.append(f"{100 * s['right'] / s['n']:.1f} / {100 * s['asked'] / s['n']:.1f} / "
                                 f"{100 * s['silent'] / s['n']:.1f}")
                n_words = next((res[(split, c, w, kind)]["n"] for c in conditions if (split, c, w, kind) in res), 0)
                out.say(f"  prior {w[0]:g}:{w[1]:g}, {w[2]} second ear (n={n_words}): " + "   ".join(cells))
                kinds = [res[(split, c, w, kind)].get("kinds", {}) for c in conditions if (split, c, w, kind) in res]
                out.say("      misses by kind: " + ", ".join(
                    f"{m} {' / '.join(str(k.get(m, 0)) for k in kinds)}" for m in MISSES
                    if any(k.get(m, 0) for k in kinds)))
                if args.misses:
                    for cond in conditions:
                        s = res.get((split, cond, w, kind))
                        if s and s["misses"]:
                            out.say(f"      {cond}: {', '.join(s['misses'])}")
    return out.finish(model=args.model,
                      latency_ms={"p50": round(res["latency"][0] * 1000), "p95": round(res["latency"][1] * 1000)})


if __name__ == "__main__":
    raise SystemExit(main())
