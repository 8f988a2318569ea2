"""Real people saying one word each, heard as `voice-host hear` hears a recording of it.

    .venv/bin/python benchmarks/real_speech.py --quick          # 4 clips a word and split
    .venv/bin/python benchmarks/real_speech.py                  # 12 clips a word and split
    .venv/bin/python benchmarks/real_speech.py --quick --json   # the figures as data

The recordings are real human speech on many microphones, none of it synthetic:

- Google's Speech Commands (v0.02, its official test set; CC BY 4.0): about 240 speakers
  saying one word each, 1 s at 16 kHz. The dictionary words among them (bed, bird, cat,
  dog, happy, house, tree, wow, backward, forward, follow, learn, visual, up, down, left,
  right, on, off, stop, go and the digits; not "yes" and "no", which are answers, nor the
  names marvin and sheila).
- Picovoice's wake-word benchmark (Apache-2.0): more than 50 other speakers on other
  microphones saying "computer" (about 3 s each, silence included).
- DSPSpeech-20 (MIT): 34 students of a university signal-processing course, recorded through
  a web page on their own microphones, saying English words (speech, speaker, signal,
  process, print, open, close, project) with their own accents, about 2 s each.

Splits, by speaker and by source, so that nothing held out was heard while tuning:
TUNING is Speech Commands' speakers whose id starts with 0-7; HELD-OUT is the speakers
whose id starts with 8-f, and the whole of Picovoice and DSPSpeech-20. Every threshold of the host is
tuned on synthetic voices (benchmarks/confidence.py, table.py), so both splits are
held out from the host's own tuning; the split keeps it so for whoever tunes on this.

Each clip is padded with 0.6 s of silence before it and 0.8 s after (as board_words.py
does), then cut into utterances by the live listener's VAD and heard with the host's own
language and prior on the board a game with no `--board` draws (`voice-host hear`
without a board), which leaves out an utterance far quieter than the recording's
loudest, as the room's. Right: one utterance, and the word heard (or a word of the same
sound: "for" for "four"); asked: the host doubts an utterance heard (it asks, or takes
the word and says it in the score); silently wrong: an utterance heard as another word
without a doubt (in babble, the other talkers' words heard as plays too). Each is
printed for the host with and without its second ear (`--second-ear`, [speech]
second_ear). Conditions, besides clean:
real kitchen noise (Speech Commands' "doing the dishes") at 10 dB; babble, four other
speakers' words summed under the word at 15 dB; and a far microphone, the word through a
real living-room impulse response (MIT IR survey), 12 dB quieter than said near the
microphone, with the kitchen 20 dB under the near word (8 dB under the far one).
Also babble at 5 dB, and "reverb": the word through the living room alone, at the
level it was said. The rooms are benchmarks/toolkit/rooms.py's; `--conditions` also
takes its pink noise ("20 dB", "10 dB").

The recordings are not in the repository (GitHub is not reachable from CI, and the
project commits no fetched data). Put them under ``--data`` (default
``~/.cache/voice-host/real-audio``, or $VOICE_HOST_REAL_AUDIO):

    speech_commands_test_v002/**/<word>/*.wav and **/_unknown_/<word>_<speaker>_nohash_<n>.wav.wav
        (e.g. the folder MLTK_keyworkSpotting/dataset of thegtagamer/PICO-tinyML-benchmark)
    picovoice_wwb/audio/computer/*.wav             (Picovoice/wake-word-benchmark, audio/)
    dspspeech20/speech_data/<speaker>/<speaker>-<12..19>-<n>.wav   (zhongyuchen/DSPSpeech-20; its
        English words only: labels 12-19; two takes a speaker and word are enough)
    sc_background_noise_wids/**/doing_the_dishes.wav   (Speech Commands' _background_noise_)
    mit_ir_survey_rir_stats/**/*.wav              (MIT IR survey samples, e.g. elifaber/RIR_stats +samples/)
"""

from __future__ import annotations

import sys
import time
import zlib
from collections import Counter
from pathlib import Path

import numpy as np

from toolkit import listening, report, rooms
from toolkit.rooms import SC_WORDS as WORDS, Room, default_data, level, load, real_clips as clips  # noqa: F401

from voice_host.speech.audio import SAMPLE_RATE  # noqa: E402

CONDITIONS = ("clean", "kitchen 10 dB", "babble 15 dB", "babble 5 dB", "reverb", "far mic")
"""The default conditions (any of toolkit.rooms' may be asked for)."""


def false_starts(room: Room, config) -> dict[str, float]:
    """Utterances the live listener's VAD starts per minute in the room's own sound with
    nobody playing: the kitchen at the level it has under a word at 10 dB, and a
    television-like stream of other people's words (the babble) alone."""
    from voice_host.speech.listening.vad import segments

    speech = 0.1  # a player's speech level (RMS) the noise is set against
    kitchen = room.kitchen * speech / (np.sqrt(np.mean(room.kitchen ** 2)) + 1e-12) / 10 ** (10 / 20)
    n = 60 * SAMPLE_RATE
    talk = room.babble("", n, seed=1, count=40)
    talk = talk * speech / (level(talk) + 1e-12) / 10 ** (15 / 20)
    out = {}
    for name, track in (("kitchen", kitchen), ("talk 15 dB under", talk)):
        out[name] = round(len(segments(track.astype(np.float32), config)) / (track.size / SAMPLE_RATE / 60), 1)
    return out


def run(rows: list[dict], conditions, room: Room, config=None, model: str = "base",
        ears: dict[str, str] | None = None) -> dict:
    """Each clip in each condition heard by each host of ``ears`` (name -> [speech]
    second_ear): right (one utterance, the word), asked (the host doubts an utterance:
    HearingSettings.unsure) and silently wrong (an utterance heard as another word and
    taken without a doubt: the babble's words too), by split, source, condition and
    host; with each utterance's second opinion (toolkit.listening.opinion)."""
    from voice_host.hear import table_and_room
    from voice_host.words import Words

    words = Words.load()
    same_sound = words.homophones  # "for" for "four": nobody hears the difference
    hearing = listening.hearing(words)  # what `voice-host hear` without --board hears with
    out: dict = {}
    for host, second_ear in (ears or {"with": "auto"}).items():
        rec = listening.recognizer(model, second_ear)
        ear = listening.listener(rec, hearing.session.players, hearing.sayable(), config)
        for row in rows:
            word = load(row["path"])
            seed = zlib.crc32(row["path"].name.encode())
            for cond in conditions:
                x = rooms.in_condition(listening.padded(word), word, cond, seed, room, row["speaker"])
                heard, _ = table_and_room(listening.cut(ear, x), hearing.settings.background_below)
                text = " / ".join(u.text for u in heard)
                said = [u.text.split(" ")[-1] in (row["word"], *same_sound(row["word"])) for u in heard]
                doubted = [hearing.settings.unsure(u) for u in heard]
                right = said == [True]
                s = out.setdefault(f"{row['split']}|{row['source']}|{cond}|{host}",
                                   {"n": 0, "right": 0, "asked": 0, "silent": 0, "misses": Counter(),
                                    "opinions": []})
                s["n"] += 1
                s["right"] += right
                s["asked"] += any(doubted)
                s["silent"] += any(not ok and not doubt for ok, doubt in zip(said, doubted))
                s["opinions"] += [{**listening.opinion(u, hearing.settings), "right": ok}
                                  for u, ok in zip(heard, said) if u.opinion is not None]
                if not right:
                    s["misses"][f"{row['word']}->{text or '(nothing)'}"] += 1
    return out


def main(argv: list[str] | None = None) -> int:
    ap = report.arguments(__doc__, "4 clips a word and split (12 without)", ",".join(CONDITIONS),
                          (*rooms.PINK, *rooms.ROOMS), model=True)
    ap.add_argument("--per-word", type=int, help="clips a word and split (overrides --quick)")
    ap.add_argument("--data", type=Path, default=default_data(), help="where the recordings are (see the docstring)")
    ap.add_argument("--vad", choices=("webrtc", "silero", "both"), help="[listening] vad (default: the config's)")
    listening.add_ear_option(ap)
    args = ap.parse_args(argv)
    if not (args.data / "speech_commands_test_v002").exists():
        print(f"real_speech: no recordings under {args.data} (see the docstring for what to put there)",
              file=sys.stderr)
        return 2
    out = report.Report("real_speech", args.json)
    rows = clips(args.data, args.per_word or (4 if args.quick else 12))
    conditions = rooms.choose(args.conditions, ",".join(CONDITIONS))
    from voice_host import config as settings
    from voice_host.speech.listening.config import TurnConfig

    config = TurnConfig.from_config(settings.load(overrides={"listening": {"vad": args.vad}} if args.vad else None))
    t0 = time.perf_counter()
    room = Room.open(args.data)  # babble: three clips a word and split, of every speaker but the one heard
    starts = false_starts(room, config) if room is not None else {}
    ears = listening.ears(args.second_ear)
    res = run(rows, conditions, room, config, args.model, ears)
    out.figures = {k: {"n": v["n"], "right": round(100 * v["right"] / v["n"], 1),
                       "asked": round(100 * v["asked"] / v["n"], 1), "silent": round(100 * v["silent"] / v["n"], 1),
                       "misses": [m for m, _ in v["misses"].most_common(8)], "opinions": v["opinions"]}
                   for k, v in res.items()}
    table = {}
    for k, f in out.figures.items():
        split, source, cond, host = k.split("|")
        row = table.setdefault((split, source, cond), {"split": split, "source": source, "condition": cond,
                                                       "n": f["n"]})
        row[host] = f"{f['right']:.1f} / {f['asked']:.1f} / {f['silent']:.1f}"
        row[f"misses {host}"] = ", ".join(f["misses"][:4])
    out.say("right / asked / silently wrong, % of clips, for each host (the second ear: [speech] second_ear)")
    out.table(list(table.values()),
              [("split", "split", "<"), ("source", "source", "<"), ("condition", "condition", "<"),
               ("n", "n", ">d"), *((h, f"{h} second ear", "<") for h in ears),
               (f"misses {list(ears)[-1]}", f"most frequent misses ({list(ears)[-1]})", "<")])
    out.say(f"VAD {config.vad}: utterances started a minute with nobody playing: " +
            ", ".join(f"{k} {v}" for k, v in starts.items()))
    out.say(f"({time.perf_counter() - t0:.0f} s)")
    return out.finish(model=args.model, vad=config.vad, false_starts_per_minute=starts,
                      seconds=round(time.perf_counter() - t0))


if __name__ == "__main__":
    sys.exit(main())
