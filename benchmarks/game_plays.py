"""Phlounder's, Dexikon's and the road game's plays said aloud, heard freely and in the
game's own language: what `voice-host hear --game G` hears.

    .venv/bin/python benchmarks/game_plays.py --quick     # 6 plays a game and split (~6 min)
    .venv/bin/python benchmarks/game_plays.py             # 16 plays a game and split

Plays, as players make them: Dexikon "bank WORD for N", "spend WORD for N", "last word
WORD for N"; Phlounder (after the bell) "WORD, unused N", "WORD, N unused", "no word,
unused N"; the road game "play WORD for N", "play WORD for N, WORD for N", "play WORD
for N with K tiles". Words: known words (Zipf >= 3.3) of 4 to 8 letters, each in one
split only (by a hash of the word); numbers as a table says them (points 2-30,
unused 0-4, tiles 2-7). Voices: the tuning split's are flite rms and kal16 and awb
varied with sox; the held-out split's are piper's joe, festival's HTS slt, flite slt
and joe varied with sox (benchmarks/board_words.py's). Clean, 20 dB and 10 dB pink noise.

Each play is heard by Moonshine twice on the same audio: freely (what those games had
before), and in the game's language with its prior (`Hearing.sayable()` of a game at
the moment the play is made: Phlounder after the bell). A play is right when the game's
phrases read it as the same move (the word and every number; "five" and "5" alike).
"""

from __future__ import annotations

import time
import zlib

import numpy as np

from toolkit import report, rooms
from toolkit.boards import KNOWN_ZIPF
from toolkit.splits import WORD_VOICES as VOICES
from toolkit.voices import synth

CONDITIONS = ("clean", "20 dB", "10 dB")
"""The default conditions (any of toolkit.rooms' may be asked for)."""

GAMES = ("dexikon", "phlounder", "road")
SLURS = {100789435, 270014096, 409826008, 472111804, 472629405, 473818942, 833910794, 978184484, 1035958843,
         1186385747, 1526089560, 1550114237, 1629054164, 1824217138, 1946027313, 1978780460, 2120350278,
         2128928906, 2151295802, 2219298928, 2505687883, 2511080242, 2927781095, 2971116582, 3207166401,
         3227747740, 3476492552, 3653571446, 3756821336, 3911874954, 3943777369, 4143701574, 4186136012,
         4204072656, 4221564851, 4250742589}
"""crc32 of the slurs and vulgar words a table does not say aloud (kept out of the plays; the
dictionary has them, as players may play them, but a benchmark should not pick them)."""


def sentence(game: str, rng, word: str, other: str) -> str:
    """A play of ``game`` with ``word`` (and ``other`` where a play holds two)."""
    n = int(rng.integers(2, 31))
    kind = int(rng.integers(3))
    if game == "dexikon":
        return (f"bank {word} for {n}", f"spend {word} for {n}", f"last word {word} for {n}")[kind]
    if game == "phlounder":
        unused = int(rng.integers(0, 5))
        return (f"{word}, unused {unused}", f"{word}, {unused} unused", f"no word, unused {unused}")[kind]
    tiles = int(rng.integers(2, 8))
    return (f"play {word} for {n}", f"play {word} for {n}, {other} for {int(rng.integers(2, 31))}",
            f"play {word} for {n} with {tiles} tiles")[kind]


def plan(n: int, words) -> list[dict]:
    """The plays said: n a game and split, each word in one split only."""
    rng = np.random.default_rng(4)
    known = [w for w, z in zip(words.data.words, words.data.zipf) if z >= KNOWN_ZIPF and 4 <= len(w) <= 8
             and w.isalpha() and zlib.crc32(w.encode()) not in SLURS]
    pools = {s: [w for w in known if (zlib.crc32(w.encode()) % 2 == 0) == (s == "tuning")] for s in VOICES}
    rows = []
    for split, voices in VOICES.items():
        for game in GAMES:
            for i in range(n):
                word, other = (str(w) for w in rng.choice(pools[split], 2, replace=False))
                rows.append({"split": split, "game": game, "said": sentence(game, rng, word, other),
                             "voice": voices[i % len(voices)]})
    return rows


def hearing_for(game: str, words):
    """A game of ``game`` at the moment its plays are made, with its hearing."""
    from voice_host import config
    from voice_host.host.hearing import Hearing, HearingSettings
    from voice_host.host.session import Session, new_header
    from voice_host.messages import Directive, Said

    session = Session(new_header(game, ["Ann", "Ben"], 7, config.load()), words, lambda _: None)
    session.feed(Directive(0.0, "start", ["Ann"]), quiet=True)
    session.begin(0.0, quiet=True)
    if game == "phlounder":  # the plays come after the bell
        for t, text in ((1.0, "roll"), (2.0, "bell")):
            session.feed(Said(t, "Ann", text), quiet=True)
    return Hearing(session, words, HearingSettings.from_config(config.load()))


def move(game: str, text: str):
    """The move ``text`` says in ``game`` (its fields, the time left out), or None."""
    from voice_host.host import phrases

    action = phrases.parse(game, text, "Ann", 0.0) if text else None
    if action is None or not hasattr(action, "t"):
        return None
    fields = dict(vars(action))
    fields.pop("t", None)
    return type(action).__name__, tuple(sorted(fields.items(), key=lambda kv: kv[0]))


def run(rows: list[dict], conditions, words, room=None) -> dict:
    from voice_host.speech.recognizing.moonshine import MoonshineRecognizer

    rec = MoonshineRecognizer()
    hearings = {g: hearing_for(g, words) for g in GAMES}
    out: dict = {}
    seconds = []
    for row in rows:
        audio = synth(row["said"], row["voice"])
        want = move(row["game"], row["said"])
        assert want is not None, row
        for cond in conditions:
            x = rooms.in_condition(audio, audio, cond, zlib.crc32(row["said"].encode()), (room or {}).get(row["split"]))
            for how, sayable in (("free", None), ("game", hearings[row["game"]].sayable())):
                t0 = time.perf_counter()
                heard = rec.transcribe(x, sayable).text
                if how == "game":
                    seconds.append(time.perf_counter() - t0)
                s = out.setdefault((row["split"], row["game"], cond, how), {"n": 0, "right": 0, "misses": []})
                s["n"] += 1
                right = move(row["game"], heard.lower().strip(" .!?")) == want
                s["right"] += right
                if not right:
                    s["misses"].append(f"{row['said']!r} -> {heard!r}")
    out["latency"] = (float(np.percentile(seconds, 50)), float(np.percentile(seconds, 95)))
    return out


def main(argv: list[str] | None = None) -> int:
    ap = report.arguments(__doc__, "6 plays a game and split instead of 16", ",".join(CONDITIONS),
                          (*rooms.PINK, *rooms.ROOMS))
    ap.add_argument("--plays", type=int, help="plays a game and split")
    ap.add_argument("--splits", default=",".join(VOICES))
    ap.add_argument("--misses", action="store_true", help="list the plays missed in the game's language")
    args = ap.parse_args(argv)

    from voice_host.words import Words

    words = Words.load()
    splits = args.splits.split(",")
    rows = [r for r in plan(args.plays or (6 if args.quick else 16), words) if r["split"] in splits]
    conditions, room = rooms.prepare(args.conditions, ",".join(CONDITIONS))
    out = report.Report("game_plays", args.json)
    t0 = time.time()
    res = run(rows, conditions, words, room)
    out.say(f"game plays: {len(rows)} plays, {len(conditions)} conditions; {time.time() - t0:.0f} s; "
            f"latency in the game's language p50/p95 {res['latency'][0] * 1000:.0f}/{res['latency'][1] * 1000:.0f} ms")

    def share(split: str, game: str, cond: str, how: str) -> float:
        cells = [v for k, v in res.items() if k != "latency" and k[0] == split and k[2] == cond and k[3] == how
                 and game in ("all", k[1])]
        return 100 * sum(v["right"] for v in cells) / max(1, sum(v["n"] for v in cells))

    out.say(f"\nplays heard right, % free -> in the game's language ({' / '.join(c for c in conditions)})")
    for split in splits:
        for game in (*GAMES, "all"):
            cells = [f"{share(split, game, c, 'free'):.0f} -> {share(split, game, c, 'game'):.0f}" for c in conditions]
            out.say(f"  {split:9s} {game:10s} " + "   ".join(cells))
            for c in conditions:
                out.figures[f"{split}|{game}|{c}"] = {"free": round(share(split, game, c, "free"), 1),
                                                      "game": round(share(split, game, c, "game"), 1)}
    if args.misses:
        for key, s in res.items():
            if key != "latency" and key[3] == "game" and s["misses"]:
                out.say(f"\n{key[0]}, {key[1]}, {key[2]}: " + "; ".join(s["misses"]))
    first = conditions[0]
    out.say(f"\ngame plays right ({first}): " + ", ".join(
        f"{split} {share(split, 'all', first, 'free'):.0f} -> {share(split, 'all', first, 'game'):.0f}%"
        for split in splits))
    return out.finish(latency_ms={"p50": round(res["latency"][0] * 1000), "p95": round(res["latency"][1] * 1000)})


if __name__ == "__main__":
    raise SystemExit(main())
