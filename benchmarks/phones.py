"""A microphone per player at a real table: each word once, to its speaker, while the room talks?

    .venv/bin/python benchmarks/phones.py --quick        # 3 and 5 players, 6 words each, a few minutes
    .venv/bin/python benchmarks/phones.py                # 12 words each
    .venv/bin/python benchmarks/phones.py --quick --json # the figures as data

Real people, real recordings: each player is one real speaker saying words of their own
(Speech Commands' dictionary words, DSPSpeech-20's English words; see
benchmarks/real_speech.py for where they go). Each player holds a phone (or has a
microphone channel of their own, ``--channels``: the listener is the same): their words
come into it at their own level (each player's 4 dB apart from the next, -20 dBFS on
average), and reach every other player's phone too, 10 to 20 dB under that phone's own
player (drawn for each pair of seats; a phone's gain follows its owner, and so does its
own noise, 45 dB under its owner) and 10 to 40 ms later. The words come one after another, 1.5 to 3 s apart,
and one turn in six two players speak at the same moment (an interrupt: both count).

Conditions: QUIET, and TALK DB: other people talking in the room all along (real
recordings of read speech, one after another: LibriVox from Debian's
pocketsphinx-testdata for the held-out split, Speech Commands' tuning speakers for the
tuning one), the same talk reaching every phone, DB under each phone's own player
(drawn from 15-25 for "talk", or a fixed 15, 20 or 25); the room starts talking once
every player has said a first word (their phone learns their level from it). MIXED: the
last player has no phone and speaks to the laptop's microphone, which hears every other
player 12 dB lower than their own phones do (their word on it must not count twice).

Every utterance the listener gives (`voice_host.speech.listening.turns.Listener`, the
host's [listening] settings, the recognizer told what `voice-host hear` tells it: the
game's language and prior on the board of a game with no --board) is matched with the words said over it. Reported per split,
players and condition: RIGHT, words heard once, on their speaker's channel, as the word
said; OTHER, words given to another player; TWICE, words heard more than once (a copy on
another phone, or a tie made of one word); STRAY, utterances while nobody at the table
spoke (the room's talk); and END, from the end of a word to the moment the listener gave
it, p95, beside the same words said one at a time into one microphone in a quiet room
(the quiet one-microphone path), in seconds of the recording (the listener waits for
its guesses, so the figure is the endpointing, whatever the machine's speed).

Splits: TUNING, Speech Commands speakers whose id starts with 0-7, the room's talk their
other clips; HELD-OUT, Speech Commands speakers 8-f and DSPSpeech-20's speakers, the
room's talk LibriVox. Targets (held-out): right >= 98%, other 0, twice 0, stray 0, with
and without talk; END p95 within 0.1 s of the quiet one-microphone path.
"""

from __future__ import annotations

import zlib
from collections import defaultdict
from pathlib import Path

import numpy as np

from toolkit import listening, report, rooms

from voice_host.speech.audio import SAMPLE_RATE  # noqa: E402
from voice_host.speech.listening.sources import ArraySource  # noqa: E402

NAMES = ("Ann", "Ben", "Cat", "Dee", "Eli")
LIBRIVOX = Path("/usr/share/pocketsphinx/test/data/librivox")
CONDITIONS = ("quiet", "talk", "mixed", "mixed+talk")


def db(x: float) -> float:
    return 10 ** (x / 20)


def players_of(split: str, n: int, seed: int) -> list[list[dict]]:
    """``n`` real speakers of ``split``, each with their clips (one a word, at least six words)."""
    clips = rooms.real_clips(rooms.default_data(), 1000)
    by: dict[tuple, dict[str, dict]] = defaultdict(dict)
    for c in clips:
        if c["split"] == split and c["source"] in ("speech commands", "dspspeech-20"):
            by[(c["source"], c["speaker"])].setdefault(c["word"], c)
    speakers = sorted((k for k, v in by.items() if len(v) >= 6), key=lambda k: zlib.crc32(f"{k}{seed}".encode()))
    if split == "held-out":  # both sources
        dsp = [k for k in speakers if k[0] == "dspspeech-20"]
        sc = [k for k in speakers if k[0] != "dspspeech-20"]
        speakers = [x for pair in zip(dsp, sc) for x in pair]
    if len(speakers) < n:
        raise SystemExit(f"{split}: {len(speakers)} speakers with six words under {rooms.default_data()} "
                         "(see benchmarks/real_speech.py for the recordings)")
    return [sorted(by[k].values(), key=lambda c: c["word"]) for k in speakers[:n]]


def room_talk(split: str, seconds: float, seed: int) -> np.ndarray:
    """Other people talking for ``seconds`` (speech level 1): real recordings one after another."""
    if split == "held-out":
        paths = sorted(LIBRIVOX.glob("*.wav"))
    else:
        paths = [c["path"] for c in rooms.talkers(rooms.default_data(), 6, "tuning")]
    if not paths:
        raise SystemExit(f"no recordings of people talking for the {split} split")
    rng = np.random.default_rng(seed)
    return rooms.one_after_another(int(seconds * SAMPLE_RATE), lambda: rooms.load(paths[int(rng.integers(len(paths)))]),
                                   rng)


def table(speakers: list[list[dict]], words: int, seed: int, talk: str | None, mixed: bool, split: str):
    """(audio (samples, channels), channel players, the words said [(start, end, player, word)],
    the same words said one at a time into one quiet microphone)."""
    rng = np.random.default_rng(seed)
    n = len(speakers)
    names = list(NAMES[:n])
    level = {p: db(-20 + 4 * (i - (n - 1) / 2)) for i, p in enumerate(names)}
    leak = {(a, b): db(-rng.uniform(10, 20)) for a in names for b in names if a != b}
    late = {(a, b): rng.uniform(0.01, 0.04) for a in names for b in names if a != b}
    turns, t = [], 1.0
    queue = [(p, c) for k in range(words) for p, cs in zip(names, speakers) for c in [cs[k % len(cs)]]]
    i = 0
    while i < len(queue):
        together = i >= n and (len(turns) % 6 == 5) and i + 1 < len(queue) and queue[i][0] != queue[i + 1][0]
        group = queue[i:i + (2 if together else 1)]
        i += len(group)
        clips = [(p, c, rooms.load(c["path"])) for p, c in group]
        for p, c, a in clips:
            a = a / (rooms.level(a) + 1e-9) * level[p]
            lo, hi = _bounds(a)
            turns.append((t, p, c["word"], a, lo, hi))
        t += max(a.size for *_, a in clips) / SAMPLE_RATE + rng.uniform(1.5, 3.0)
    seconds = t + 1.0
    phones = names[:-1] if mixed else names
    channels = len(phones) + (1 if mixed else 0)
    audio = np.zeros((int(seconds * SAMPLE_RATE), channels), np.float32)
    quiet = np.zeros(int(seconds * SAMPLE_RATE), np.float32)
    said = []
    for at, p, word, a, lo, hi in turns:
        said.append((at + lo, at + hi, p, word))
        j = int(at * SAMPLE_RATE)
        quiet[j:j + a.size] += a
        for ch, owner in enumerate(phones):
            gain, delay = (1.0, 0.0) if owner == p else (leak[(p, owner)] * level[owner] / level[p], late[(p, owner)])
            k = int((at + delay) * SAMPLE_RATE)
            audio[k:k + a.size, ch] += gain * a
        if mixed:  # the laptop: its own player near, the phones' players further off
            audio[j:j + a.size, -1] += (1.0 if p == names[-1] else db(-12)) * a
    for ch, owner in enumerate(phones):  # each phone's own noise, at its gain
        audio[:, ch] += rng.standard_normal(audio.shape[0]).astype(np.float32) * level[owner] * db(-45)
    if mixed:
        audio[:, -1] += rng.standard_normal(audio.shape[0]).astype(np.float32) * db(-65)
    if talk is not None:  # once every player has said a first word
        start = int((said[n - 1][1] + 0.5) * SAMPLE_RATE)
        voices = room_talk(split, seconds, seed)[start:]
        for ch, owner in enumerate(phones + ([names[-1]] if mixed else [])):
            under = rng.uniform(15, 25) if talk == "talk" else float(talk)
            audio[start:, ch] += voices * level[owner] * db(-under)
    return audio, phones + ([None] if mixed else []), said, quiet


def _bounds(a: np.ndarray) -> tuple[float, float]:
    """Where the speech in a clip begins and ends (s): 10 ms frames within 20 dB of its loudest."""
    n = a.size // 160
    rms = 20 * np.log10(np.sqrt(np.mean(a[:n * 160].reshape(n, 160) ** 2, axis=1)) + 1e-9)
    loud = np.flatnonzero(rms > rms.max() - 20)
    return loud[0] * 0.01, (loud[-1] + 1) * 0.01


def heard(rec, audio: np.ndarray, channel_players, names) -> list[tuple]:
    """[(utterance, the recording's time it was given at)] from the live listener."""
    from voice_host.words import Words

    ear = listening.listener(rec, names, listening.hearing(Words.load()).sayable(), channel_players=channel_players)
    source = ArraySource(audio, chunk_seconds=0.03)
    at = [0.0]

    class Timed:
        channels, realtime = source.channels, False

        def __iter__(self):
            for chunk in source:
                at[0] = chunk.end
                yield chunk

        def close(self):
            pass

    return [(u, at[0]) for u in ear.utterances(Timed())]


def score(out: list[tuple], said: list[tuple], by_speaker: bool = True, laptop: str | None = None) -> dict:
    """Each word said against the utterances given over it (and each utterance given
    over no word, or over another player's); ``by_speaker`` False: whoever they are
    given to (one microphone, nobody known). ``laptop``: the player without a phone, whose
    words the laptop's microphone gives to nobody yet (the hearing asks, or knows the
    voice: benchmarks/table.py measures that)."""
    over: list[list] = [[] for _ in said]
    stray = other = 0
    misses = []
    for u, at in out:
        hits = [i for i, (s, e, *_) in enumerate(said) if u.start < e + 0.3 and u.end > s - 0.3]
        mine = [i for i in hits if said[i][2] == u.speaker or not by_speaker or (u.speaker is None and said[i][2] == laptop)]
        if mine:
            over[mine[0]].append((u, at))
        elif hits:
            other += 1
            misses.append(f"{u.speaker}:{u.body} over " + "|".join(f"{said[i][2]}:{said[i][3]}" for i in hits))
        else:
            stray += 1
            misses.append(f"stray {u.speaker}:{u.body} at {u.start:.1f}")
    right = twice = 0
    ends = []
    for (s, e, p, word), got in zip(said, over):
        twice += len(got) > 1
        ok = len(got) == 1 and word in got[0][0].body.split()
        right += ok
        if got:
            ends.append(got[0][1] - e)
        if not ok:
            misses.append(f"{p}:{word}->" + ("|".join(u.body for u, _ in got) or "nothing"))
    n = len(said)
    return {"n": n, "right": right / n, "other": other, "twice": twice, "stray": stray,
            "end_p95": float(np.percentile(ends, 95)) if ends else None, "misses": misses}


def main(argv=None) -> int:
    ap = report.arguments(__doc__, "6 words a player instead of 12", ",".join(CONDITIONS),
                          ("quiet", "talk", "talk 15", "talk 20", "talk 25", "mixed", "mixed+talk"))
    ap.add_argument("--players", default="3,5", help="table sizes (3 to 5), comma-separated")
    ap.add_argument("--splits", default="tuning,held-out")
    ap.add_argument("--seed", type=int, default=0, help="another draw of speakers, levels and turns")
    args = ap.parse_args(argv)
    out = report.Report("phones", args.json)
    words = 6 if args.quick else 12
    rec = listening.recognizer()
    rows = []
    for split in args.splits.split(","):
        for n in (int(x) for x in args.players.split(",")):
            speakers = players_of(split, n, seed=n + args.seed)
            names = list(NAMES[:n])
            _, _, said, quiet = table(speakers, words, n + args.seed, None, False, split)
            base = score(heard(rec, quiet[:, None], None, names), said, by_speaker=False)
            for cond in args.conditions.split(","):
                talk = cond.split("+")[-1].replace("talk ", "") if "talk" in cond else None
                talk = "talk" if talk == "talk" else talk
                audio, channels, said, _ = table(speakers, words, n + args.seed, talk, cond.startswith("mixed"), split)
                r = score(heard(rec, audio, channels, names), said, laptop=names[-1] if None in channels else None)
                r.update(split=split, players=n, condition=cond, quiet_end_p95=base["end_p95"], quiet_right=base["right"])
                r["late"] = r["end_p95"] - base["end_p95"] if r["end_p95"] is not None else None
                rows.append(r)
                out.say(f"{split:9} {n} players {cond:11} right {r['right']:6.1%} other {r['other']} "
                        f"twice {r['twice']} stray {r['stray']} end p95 {r['end_p95']:.2f} s "
                        f"(one quiet microphone: right {base['right']:.1%}, end p95 {base['end_p95']:.2f} s)  n={r['n']}")
                if r["misses"]:
                    out.say("    missed: " + ", ".join(r["misses"]))
    out.say()
    out.table(rows, [("split", "split", "<"), ("players", "players", ">d"), ("condition", "condition", "<"),
                     ("n", "n", ">d"), ("right", "right", ">.1%"), ("other", "other", ">d"),
                     ("quiet_right", "1-mic right", ">.1%"), ("twice", "twice", ">d"), ("stray", "stray", ">d"), ("end_p95", "end p95", ">.2f"),
                     ("quiet_end_p95", "quiet 1-mic", ">.2f"), ("late", "later", ">+.2f")])
    out.figures = {"rows": [{k: v for k, v in r.items() if k != "misses"} for r in rows]}
    return out.finish()


if __name__ == "__main__":
    raise SystemExit(main())
