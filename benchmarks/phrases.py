"""The table's own phrases: every question and command the host answers, said alone and
after a player's name, heard as the live host hears them on a real board, beside board
words said alone by the same voices in the same run.

    .venv/bin/python benchmarks/phrases.py --quick              # the table's phrasings, 8 boards a split (~6 min)
    .venv/bin/python benchmarks/phrases.py                      # every phrasing of host/intents.py (~25 min)
    .venv/bin/python benchmarks/phrases.py --quick --splits tuning   # tuning only (tune here, never on held-out)
    .venv/bin/python benchmarks/phrases.py --quick --json       # the figures as data

Phrases: with --quick, the phrasings a table uses for each question and command (TABLE:
"whose turn is it", "what's the score", "challenge Ben", "yes", ...); without, every
phrase of host/intents.py PHRASES the host answers in Prolix Classic (not another game's
questions, not the play lead-ins) and the game's own phrases (host/phrases: Prolix has
none beyond the table's). Each is said alone ("Whose turn is it?") and after a player's
name ("Ann, whose turn is it?"), a question with its question mark (the synthetic voices
raise their pitch at it), in a Classic game just begun on a real board (the host's own
bag, seeded; the prior favours that board's words, as live).

Heard as board_words.py hears a word: the phrase with 0.6 s of silence before it and 0.8
s after, the noise over all of it, cut into utterances by the live Listener's VAD at the
player's level less `background_below`, recognized by Moonshine with the hearing's own
language and prior (`Hearing.sayable()`). Right: one utterance, and intents.parse of what
was heard (the name said first taken off by the listener, the recognizer's usual slips
undone: host.hearing.understand.rewrite) is the same intent (kind, word, player) as that
of the text said. Beside it, in the same run: each board's word (board_words.py's plan:
a good play, or one board in five a weak one) said alone by the same voice, right when it
is heard as itself.

Splits (benchmarks/toolkit/splits.py): TUNING, even boards, the tuning voices (flite rms,
kal16, awb and kal varied with sox); HELD-OUT, odd boards, the voices no test or tuning
uses (piper's joe, festival's HTS slt, flite slt, joe varied with sox). REAL, when the
real-audio cache holds Speech Commands (benchmarks/real_speech.py's docstring): real
people's "yes" and "no" (the host's answers among its words), beside their single
dictionary words (bed, house, ...), both splits of its speakers (ids 0-7 tuning, 8-f
held-out), each on a board of its split. Conditions: clean and pink noise 20 dB
(`--conditions`: any of benchmarks/toolkit/rooms.py's). Target: the host's questions and
commands >= 95% right, held-out clean, alone and after a name.
"""

from __future__ import annotations

import sys
import time
import zlib

from toolkit import listening, report, rooms
from toolkit.boards import plan
from toolkit.voices import synth

CONDITIONS = ("clean", "20 dB")
"""The default conditions (any of toolkit.rooms' may be asked for)."""
NAMES = ("Ann", "Ben", "Cat")
"""The players of the game (toolkit.listening.hearing's)."""
FORMS = ("alone", "after a name")

TABLE = ("whose turn is it", "who's next", "whose turn", "what's the score", "who's winning", "scores",
         "what's on the board", "read the board", "how much time is left", "time left", "challenge",
         "i challenge that", "challenge {other}", "flip the timer", "timer", "what words have been played",
         "used words", "read my sheet", "{other}'s sheet", "read all the sheets", "how many tiles are left",
         "how many interrupts do i have", "which words were voided", "how did that score", "spell it",
         "say that again", "repeat", "undo that", "what can i say", "help", "speak slower", "speak up",
         "be brief", "yes", "no")
"""The phrasings a table uses (--quick): the common ways of asking each question and
giving each command; {other} is another player's name."""
OTHER_GAMES = ("dice", "reports", "banked", "marks", "penalties", "play_what")
"""PHRASES kinds Prolix Classic does not answer (another game's questions; the lead-ins of a play)."""
QUESTION_WORDS = ("what", "what's", "whats", "whose", "who", "who's", "whos", "how", "which", "is", "are", "do")
REAL_ANSWERS = ("yes", "no")
"""Speech Commands' words that are the host's own phrases."""
REAL_WORDS = ("bed", "bird", "house", "tree", "happy", "follow", "learn", "visual")
"""... and some of its dictionary words, said alone by the same speakers (the comparison)."""


def phrasings(quick: bool, game) -> list[str]:
    """The phrases to say in ``game``, lower case ({other}: another player's name)."""
    from voice_host.host import intents, phrases

    if quick:
        return list(TABLE)
    out = [p for kind, ps in intents.PHRASES.items() if kind not in OTHER_GAMES for p in ps]
    out += ["challenge {other}", "sheet {other}", "{other}'s sheet", *phrases.spoken(game).phrases]
    return list(dict.fromkeys(out))


def written(phrase: str, name: str | None) -> str:
    """The text a voice says: the names and "I" capitalized, a question with its
    question mark, the name first after a comma ("Ann, whose turn is it?")."""
    def cap(w: str) -> str:
        return w.capitalize() if w == "i" or w.removesuffix("'s") in ("ann", "ben", "cat") else w

    body = " ".join(cap(w) for w in phrase.split())
    body += "?" if phrase.split()[0] in QUESTION_WORDS else "."
    return f"{name}, {body}" if name else body[0].upper() + body[1:]


def meaning(text: str):
    """The intent of `text` (kind, word, player)."""
    from voice_host.host import intents
    from voice_host.host.hearing.understand import rewrite

    i = intents.parse(rewrite(intents.normalize(text)), list(NAMES))
    return i.kind, i.word, i.target


def wanted(text: str, name: str | None):
    """The intent of `text` said after `name` (None: alone): "Ann, sheet." is Ann's sheet."""
    from voice_host.host import intents

    body = text.removeprefix(f"{name}, ") if name else text
    kind, word, target = meaning(body)
    plain = intents.normalize(body)
    return kind, word, target or (name if kind == "sheet" and plain == "sheet" else None)


def heard_meaning(heard: list, hearing=None):
    """The intent the host takes one utterance for, or None: the name said first taken
    off by the listener, or by the hearing when the first word sounds like a player's
    and the rest is a play or a question ("and what's the score": Ann's; host.hearing's
    ``named_by_sound``); "sheet" after a name is that player's sheet."""
    if len(heard) != 1:
        return None
    from voice_host.host import intents

    u = heard[0]
    body, speaker = intents.normalize(u.body or u.text), u.speaker if u.speaker_method == "name" else None
    named = hearing.voices.named_by_sound(body) if hearing is not None and speaker is None else None
    if named is not None:
        speaker, body = named.player, named.body
    kind, word, target = meaning(body)
    return kind, word, target or (speaker if kind == "sheet" and body == "sheet" else None)


def hear(rec, hearing, audio, cond: str, seed: int, room) -> list:
    from board_words import heard_as_recorded

    return heard_as_recorded(rec, hearing, audio, cond, seed, room)


def run(rows: list[dict], said: list[str], conditions, words, room, real: list[dict], model: str = "base") -> dict:
    rec = listening.recognizer(model)
    out: dict = {}

    def count(key, right: bool, miss: str) -> None:
        s = out.setdefault(key, {"n": 0, "right": 0, "misses": []})
        s["n"] += 1
        s["right"] += right
        if not right:
            s["misses"].append(miss)

    for split in ("tuning", "held-out"):
        boards = [r for r in rows if r["split"] == split]
        if not boards:
            continue
        hearings = {r["seed"]: listening.hearing(words, r["seed"]) for r in boards}
        for row in boards:  # the board words, alone
            audio = synth(row["word"], row["voice"])
            for cond in conditions:
                got = hear(rec, hearings[row["seed"]], audio, cond, zlib.crc32(row["word"].encode()), room[split])
                text = " / ".join(u.text for u in got)
                count((split, cond, "board words"), len(got) == 1 and got[0].text == row["word"] and got[0].constrained,
                      f"{row['word']}->{text or '?'}")
        for i, phrase in enumerate(said):
            for f, form in enumerate(FORMS):
                row = boards[(2 * i + f) % len(boards)]
                name = NAMES[(i + f) % len(NAMES)] if form != "alone" else None
                other = NAMES[(i + f + 1) % len(NAMES)]
                text = written(phrase.format(other=other), name)
                want = wanted(text, name)
                audio = synth(text, row["voice"])
                for cond in conditions:
                    got = hear(rec, hearings[row["seed"]], audio, cond, zlib.crc32(text.encode()), room[split])
                    heard = " / ".join(u.text for u in got)
                    count((split, cond, form), heard_meaning(got, hearings[row["seed"]]) == want, f"{text!r} ({row['voice']})->{heard or '?'}")
    for clip in real:
        from toolkit.rooms import load

        hearing = clip["hearing"]
        audio = load(clip["path"])
        kind = "phrases" if clip["word"] in REAL_ANSWERS else "single words"
        for cond in conditions:
            got = hear(rec, hearing, audio, cond, zlib.crc32(clip["path"].name.encode()), room.get("real"))
            heard = " / ".join(u.text for u in got)
            if kind == "phrases":
                right = heard_meaning(got, hearing) == meaning(clip["word"])
            else:
                right = len(got) == 1 and got[0].text == clip["word"]
            count((f"real {clip['split']}", cond, kind), right, f"{clip['word']} ({clip['speaker']})->{heard or '?'}")
    return out


def real_clips(words, per_word: int, boards: list[dict]) -> list[dict]:
    """Speech Commands' "yes" and "no" and some of its dictionary words, ``per_word`` a
    word and split (spread over speakers), each heard on a board of its split."""
    from pathlib import Path

    from toolkit.splits import speech_commands, speech_commands_split

    data = rooms.default_data() / "speech_commands_test_v002"
    if not data.exists():
        return []
    found: dict[tuple[str, str], list[dict]] = {}
    for r in speech_commands(data, "speech commands"):
        if r["word"] in REAL_ANSWERS + REAL_WORDS:
            split = speech_commands_split(r["speaker"])
            found.setdefault((split, r["word"]), []).append({**r, "split": split, "path": Path(r["path"])})
    hearings = {}
    out = []
    for (split, word), group in sorted(found.items()):
        group.sort(key=lambda c: zlib.crc32(c["path"].name.encode()))
        mine = [b for b in boards if b["split"] == split] or boards
        n = per_word * (3 if word in REAL_ANSWERS else 1)
        for i, clip in enumerate(group[:n]):
            seed = mine[i % len(mine)]["seed"]
            if seed not in hearings:
                hearings[seed] = listening.hearing(words, seed)
            out.append({**clip, "hearing": hearings[seed]})
    return out


def main(argv: list[str] | None = None) -> int:
    ap = report.arguments(__doc__, "the table's phrasings (TABLE), 8 boards a split; without: every phrasing",
                          ",".join(CONDITIONS), (*rooms.PINK, *rooms.ROOMS), model=True)
    ap.add_argument("--boards", type=int, help="boards a split (default 8, 16 without --quick)")
    ap.add_argument("--splits", default="tuning,held-out,real", help="of tuning, held-out, real")
    ap.add_argument("--per-word", type=int, help="real clips a word and split (default 4, 12 without --quick; "
                                                  "three times that of yes and no)")
    args = ap.parse_args(argv)

    from voice_host.words import Words

    out = report.Report("phrases", args.json)
    words = Words.load()
    splits = args.splits.split(",")
    n = args.boards or (8 if args.quick else 16)
    rows = [r for r in plan(n, words, first_board=3000) if r["split"] in splits]
    conditions, room = rooms.prepare(args.conditions, ",".join(CONDITIONS), ("tuning", "held-out"))
    room["real"] = room.get("held-out")
    said = phrasings(args.quick, listening.hearing(words).session.game)
    real = real_clips(words, args.per_word or (4 if args.quick else 12), plan(n, words, first_board=3000)) \
        if "real" in splits else []
    t0 = time.time()
    res = run(rows, said, conditions, words, room, real, args.model)
    out.say(f"phrases: {len(said)} phrasings, alone and after a name, on {n} boards a split; "
            f"{len(real)} real clips; {len(conditions)} conditions; {time.time() - t0:.0f} s")
    groups = [g for g in ("tuning", "held-out", "real tuning", "real held-out") if any(k[0] == g for k in res)]
    for split in groups:
        kinds = ("phrases", "single words") if split.startswith("real") else (*FORMS, "board words")
        out.say(f"\n{split}: right % ({' / '.join(conditions)})")
        for kind in kinds:
            cells = [res.get((split, c, kind)) for c in conditions]
            if not any(cells):
                continue
            label = kind if kind in ("board words", "single words") else f"phrases {kind}" if kind in FORMS else kind
            out.say(f"  {label:22s} n={next(s['n'] for s in cells if s):3d}  " + " / ".join(
                f"{100 * s['right'] / s['n']:5.1f}" if s else "-" for s in cells))
            for cond, s in zip(conditions, cells):
                if s:
                    out.figures[f"{split}|{kind}|{cond}"] = {"n": s["n"], "right": round(100 * s["right"] / s["n"], 1),
                                                             "misses": s["misses"]}
                    if s["misses"]:
                        out.say(f"      {cond}: " + "; ".join(s["misses"]))
    summary = []
    for split in ("held-out", "tuning"):
        cells = [res.get((split, "clean", k)) for k in (*FORMS, "board words")]
        if all(cells):
            a, b, w = (100 * s["right"] / s["n"] for s in cells)
            summary.append(f"{split} clean {a:.1f}% alone, {b:.1f}% after a name (board words {w:.1f}%)")
    for split in ("real held-out", "real tuning"):
        s, w = res.get((split, "clean", "phrases")), res.get((split, "clean", "single words"))
        if s:
            summary.append(f"{split} yes/no {100 * s['right'] / s['n']:.1f}%"
                           + (f" (single words {100 * w['right'] / w['n']:.1f}%)" if w else ""))
    out.say(f"\n({time.time() - t0:.0f} s)")
    out.say("phrases: " + "; ".join(summary))
    return out.finish(model=args.model, phrasings=len(said), boards=n)


if __name__ == "__main__":
    sys.exit(main())
