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

Splits, by speaker and by source, so that nothing held out was heard while tuning:
TUNING is Speech Commands' speakers whose id starts with 0-7; HELD-OUT is the speakers
whose id starts with 8-f, and the whole Picovoice source. Every threshold of the host is
tuned on synthetic voices (benchmarks/confidence.py, table.py), so both splits are
held out from the host's own tuning; the split keeps it so for whoever tunes on this.

Each clip is padded with 0.6 s of silence before it and 0.8 s after (as board_words.py
does), then cut into utterances by the live listener's VAD and heard with the host's own
language and prior on the board a game with no `--board` draws (`voice-host hear`
without a board). Right: one utterance, and the word heard (or a word of the same sound:
"for" for "four"). Conditions, besides clean:
real kitchen noise (Speech Commands' "doing the dishes") at 10 dB; babble, four other
speakers' words summed under the word at 15 dB; and a far microphone, the word through a
real living-room impulse response (MIT IR survey), 12 dB quieter than said near the
microphone, with the kitchen 20 dB under the near word (8 dB under the far one).

The recordings are not in the repository (GitHub is not reachable from CI, and the
project commits no fetched data). Put them under ``--data`` (default
``~/.cache/voice-host/real-audio``, or $VOICE_HOST_REAL_AUDIO):

    speech_commands_test_v002/**/<word>/*.wav and **/_unknown_/<word>_<speaker>_nohash_<n>.wav.wav
        (e.g. the folder MLTK_keyworkSpotting/dataset of thegtagamer/PICO-tinyML-benchmark)
    picovoice_wwb/audio/computer/*.wav             (Picovoice/wake-word-benchmark, audio/)
    sc_background_noise_wids/**/doing_the_dishes.wav   (Speech Commands' _background_noise_)
    mit_ir_survey_rir_stats/**/*.wav              (MIT IR survey samples, e.g. elifaber/RIR_stats +samples/)
"""

from __future__ import annotations

import argparse
import json
import os
import re
import sys
import time
import zlib
from collections import Counter
from pathlib import Path

import numpy as np

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

from voice_host.speech.audio import SAMPLE_RATE  # noqa: E402

WORDS = ("bed", "bird", "cat", "dog", "happy", "house", "tree", "wow", "backward", "forward", "follow", "learn",
         "visual", "up", "down", "left", "right", "on", "off", "stop", "go", "zero", "one", "two", "three", "four",
         "five", "six", "seven", "eight", "nine")
"""Speech Commands' words that a player could say as a word (not yes/no, not names)."""
CONDITIONS = ("clean", "kitchen 10 dB", "babble 15 dB", "far mic")
BEFORE, AFTER = 0.6, 0.8
SPEAKER = re.compile(r"([0-9a-f]{8})_nohash_\d+")


def default_data() -> Path:
    return Path(os.environ.get("VOICE_HOST_REAL_AUDIO", Path.home() / ".cache" / "voice-host" / "real-audio"))


def clips(data: Path, per_word: int) -> list[dict]:
    """The recordings, each {source, split, word, speaker, path}: up to ``per_word`` a
    word and split, spread over speakers (sorted by a hash of the file name)."""
    found: dict[tuple[str, str], list[dict]] = {}
    for path in sorted((data / "speech_commands_test_v002").rglob("*.wav")):
        m = SPEAKER.search(path.name)
        word = path.parent.name if path.parent.name != "_unknown_" else path.name.split("_")[0]
        if m is None or word not in WORDS:
            continue
        split = "tuning" if m.group(1)[0] in "01234567" else "held-out"
        found.setdefault((split, word), []).append(
            {"source": "speech commands", "split": split, "word": word, "speaker": m.group(1), "path": path})
    for path in sorted(p for p in (data / "picovoice_wwb").rglob("*.wav") if p.parent.name == "computer"):
        found.setdefault(("held-out", "computer"), []).append(
            {"source": "picovoice", "split": "held-out", "word": "computer", "speaker": path.stem, "path": path})
    out = []
    for group in found.values():
        group.sort(key=lambda c: zlib.crc32(c["path"].name.encode()))
        out += group[:per_word * (3 if group[0]["word"] == "computer" else 1)]
    return out


def load(path: Path) -> np.ndarray:
    """A recording as mono float32 at 16 kHz."""
    import soundfile as sf
    import soxr

    audio, rate = sf.read(str(path), dtype="float32", always_2d=True)
    audio = audio.mean(axis=1)
    return soxr.resample(audio, rate, SAMPLE_RATE).astype(np.float32) if rate != SAMPLE_RATE else audio


def level(x: np.ndarray) -> float:
    """RMS of the voiced 10 ms frames (those above 5% of the loudest): the speech level."""
    n = x.size // 160
    rms = np.sqrt(np.mean(x[: n * 160].reshape(n, 160) ** 2, axis=1) + 1e-12)
    return float(np.sqrt(np.mean(rms[rms > rms.max() * 0.05] ** 2)))


def under(x: np.ndarray, noise: np.ndarray, snr: float, ref: np.ndarray, seed: int) -> np.ndarray:
    """``x`` with ``noise`` (looped, from a seeded offset) at ``snr`` dB below ``ref``'s speech level."""
    start = seed % max(1, noise.size)
    track = np.resize(np.roll(noise, -start), x.size)
    track = track * level(ref) / (np.sqrt(np.mean(track ** 2)) + 1e-12) / 10 ** (snr / 20)
    return (x + track).astype(np.float32)


class Room:
    """The real noise and room the conditions use."""

    def __init__(self, data: Path, babble_from: list[dict]) -> None:
        dishes = next((data / "sc_background_noise_wids").rglob("doing_the_dishes.wav"))
        self.kitchen = load(dishes)
        rirs = sorted((data / "mit_ir_survey_rir_stats").rglob("*.wav"))
        living = next((p for p in rirs if "living" in p.name.lower()), rirs[0])
        rir = load(living)
        self.rir = rir / (np.abs(rir).max() + 1e-12)
        self.babble_from = babble_from

    def babble(self, clip: dict, n: int, seed: int, count: int = 4) -> np.ndarray:
        """``count`` other speakers' words summed, each placed at random over ``n`` samples."""
        rng = np.random.default_rng(seed)
        others = [c for c in self.babble_from if c["speaker"] != clip["speaker"]]
        track = np.zeros(n, np.float32)
        for i in rng.choice(len(others), count, replace=False):
            a = load(others[i]["path"])[:n]
            at = int(rng.integers(0, max(1, n - a.size)))
            track[at:at + a.size] += a / (level(a) + 1e-9)
        return track

    def apply(self, clip: dict, word: np.ndarray, condition: str) -> np.ndarray:
        seed = zlib.crc32(clip["path"].name.encode())
        pad = lambda a: np.concatenate([np.zeros(int(BEFORE * SAMPLE_RATE), np.float32), a,  # noqa: E731
                                        np.zeros(int(AFTER * SAMPLE_RATE), np.float32)])
        x = pad(word)
        if condition == "kitchen 10 dB":
            return under(x, self.kitchen, 10, word, seed)
        if condition == "babble 15 dB":
            return under(x, self.babble(clip, x.size, seed), 15, word, seed)
        if condition == "far mic":
            wet = np.convolve(x, self.rir)[: x.size].astype(np.float32)
            wet *= level(word) / (level(wet) + 1e-12) / 10 ** (12 / 20)  # 12 dB quieter
            return under(wet, self.kitchen, 20, word, seed)  # the kitchen 20 dB under the near word, 8 under this
        return x


def hearing_without_board(words):
    """What `voice-host hear` without --board hears with: a Classic game on the host's bag."""
    from voice_host import config
    from voice_host.host.hearing import Hearing, HearingSettings
    from voice_host.host.session import Session, new_header

    cfg = config.load()
    session = Session(new_header("prolix-classic", ["Ann", "Ben", "Cat"], 1, cfg), words, lambda _: None)
    session.begin(0.0, quiet=True)
    return Hearing(session, words, HearingSettings.from_config(cfg))


def false_starts(room: Room, config) -> dict[str, float]:
    """Utterances the live listener's VAD starts per minute in the room's own sound with
    nobody playing: the kitchen at the level it has under a word at 10 dB, and a
    television-like stream of other people's words (the babble) alone."""
    from voice_host.speech.listening.vad import segments

    speech = 0.1  # a player's speech level (RMS) the noise is set against
    kitchen = room.kitchen * speech / (np.sqrt(np.mean(room.kitchen ** 2)) + 1e-12) / 10 ** (10 / 20)
    n = 60 * SAMPLE_RATE
    talk = room.babble({"speaker": ""}, n, seed=1, count=40)
    talk = talk * speech / (level(talk) + 1e-12) / 10 ** (15 / 20)
    out = {}
    for name, track in (("kitchen", kitchen), ("talk 15 dB under", talk)):
        out[name] = round(len(segments(track.astype(np.float32), config)) / (track.size / SAMPLE_RATE / 60), 1)
    return out


def run(rows: list[dict], conditions, room: Room, config=None) -> dict:
    from voice_host.speech.listening.sources import ArraySource
    from voice_host.speech.listening.turns import Listener
    from voice_host.speech.recognizing.moonshine import MoonshineRecognizer
    from voice_host.words import Words

    rec = MoonshineRecognizer()
    words = Words.load()
    same_sound = words.homophones  # "for" for "four": nobody hears the difference
    hearing = hearing_without_board(words)
    listener = Listener(rec, hearing.session.players, config=config)
    listener.constrain(hearing.sayable())
    out: dict = {}
    for row in rows:
        word = load(row["path"])
        for cond in conditions:
            heard = list(listener.utterances(ArraySource(room.apply(row, word, cond))))
            text = " / ".join(u.text for u in heard)
            last = text.split(" ")[-1]
            right = len(heard) == 1 and (last == row["word"] or last in same_sound(row["word"]))
            s = out.setdefault(f"{row['split']}|{row['source']}|{cond}", {"n": 0, "right": 0, "misses": Counter()})
            s["n"] += 1
            s["right"] += right
            if not right:
                s["misses"][f"{row['word']}->{text or '(nothing)'}"] += 1
    return out


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--quick", action="store_true", help="4 clips a word and split (12 without)")
    ap.add_argument("--per-word", type=int, help="clips a word and split (overrides --quick)")
    ap.add_argument("--data", type=Path, default=default_data(), help="where the recordings are (see the docstring)")
    ap.add_argument("--conditions", default=",".join(CONDITIONS), help="comma-separated, of: " + ", ".join(CONDITIONS))
    ap.add_argument("--vad", choices=("webrtc", "silero"), help="[listening] vad (default: the config's)")
    ap.add_argument("--json", action="store_true", help="print the figures as JSON")
    args = ap.parse_args(argv)
    if not (args.data / "speech_commands_test_v002").exists():
        print(f"real_speech: no recordings under {args.data} (see the docstring for what to put there)",
              file=sys.stderr)
        return 2
    rows = clips(args.data, args.per_word or (4 if args.quick else 12))
    babble_from = clips(args.data, 3)
    conditions = [c for c in args.conditions.split(",") if c in CONDITIONS]
    from voice_host import config as settings
    from voice_host.speech.listening.config import TurnConfig

    config = TurnConfig.from_config(settings.load(overrides={"listening": {"vad": args.vad}} if args.vad else None))
    t0 = time.perf_counter()
    room = Room(args.data, babble_from)
    starts = false_starts(room, config)
    out = run(rows, conditions, room, config)
    figures = {k: {"n": v["n"], "right": round(100 * v["right"] / v["n"], 1),
                   "misses": [m for m, _ in v["misses"].most_common(8)]} for k, v in out.items()}
    if args.json:
        print(json.dumps({"vad": config.vad, "figures": figures, "false_starts_per_minute": starts,
                          "seconds": round(time.perf_counter() - t0)}, indent=1))
        return 0
    print(f"{'split':9} {'source':16} {'condition':14} {'n':>4} {'right':>6}  most frequent misses")
    for key, f in figures.items():
        split, source, cond = key.split("|")
        print(f"{split:9} {source:16} {cond:14} {f['n']:4} {f['right']:5.1f}%  {', '.join(f['misses'][:5])}")
    print(f"VAD {config.vad}: utterances started a minute with nobody playing: " +
          ", ".join(f"{k} {v}" for k, v in starts.items()))
    print(f"({time.perf_counter() - t0:.0f} s)")
    return 0


if __name__ == "__main__":
    sys.exit(main())
