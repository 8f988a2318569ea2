"""The host's voice, measured: how soon a reply starts sounding, and how well it is understood.

    .venv/bin/python benchmarks/voice.py                 # both engines, moonshine (else whisper)
    .venv/bin/python benchmarks/voice.py --engines piper --recognizers moonshine,whisper

1. Latency: the time from a reply's text to its first audio sample, for every distinct
   sentence the host says in a whole scripted game (the three-player Prolix Classic game
   of tests/games/prolix/test_classic_games.py), said one at a time through TtsVoice (the real
   render thread and play thread; no sound card here, so "first sample" is the moment
   the first piece is handed to the output). Piper's cache of rendered clauses is off
   (cold figures: every sentence rendered for the first time); the warm figure is with
   the cache, after the game has been said once. Target: p95 <= 150 ms.
2. Intelligibility: the same game played with ``--speak-to`` (every sentence laid into
   one WAV on the game's timeline), each sentence cut back out of the file (0.3 s
   margins) and recognized by the project's own recognizer, free decoding (no grammar):
   Moonshine when it is installed, whisper otherwise. Words right = hits of a Levenshtein
   alignment of the words / words said, after the same normalization on both sides
   (lower case, punctuation and apostrophes out, numbers as digits with text2num: "15"
   = "fifteen", "+" = "plus", letter names as letters: "double u" = "w"). "By sound"
   also counts a word the recognizer spelled differently but that sounds the same
   (equal Metaphone codes: "Kat" for Cat, "Anne" for Ann): what a listener hears is the
   voice's part; the spelling is the recognizer's. Target: >= 97% for the default voice,
   by sound.
"""

from __future__ import annotations

import os
import re
import statistics
import sys
import tempfile
import time
from pathlib import Path

from toolkit import report as reporting

B = "@board W B J S L C D G"
GAME = f"""
@start Ann
{B}
Ann: jewelers
{B}
Cat: jawbones
{B}
Ben: cowbell
{B}
Cat: jumbled
{B}
Ben: timer
Ben: jigsaw
Cat: timer
@wait 46
{B}
Cat: jigsaw
{B}
Ben: wildcards
[+0] Ann: bewildering
{B}
Ann: swindle
[+0] Ben: lowball
{B}
Cat: jackals
{B}
Ann: jibblewock
Ben: challenge
Ann: jaywalks
Cat: challenge Ann
{B}
Ben: jeweler
Ben: jobs
{B}
Ann: gawks
[+0] Ben: globs
{B}
Cat: scrabble
{B}
Ann: wedge
{B}
Ben: bulbs
{B}
Cat: wisdom
{B}
Ann: jabbed
{B}
Ben: club
{B}
Cat: bold
{B}
Ann: sledge
{B}
Ben: gloves
{B}
Cat: brag
"""
PLAYERS = ["Ann", "Ben", "Cat"]
TARGET_LATENCY_P95 = 0.150
TARGET_WORDS = 0.97

LETTERS = {"double u": "w", "double you": "w", "bee": "b", "be": "b", "see": "c", "sea": "c", "dee": "d",
           "gee": "g", "jay": "j", "el": "l", "ell": "l", "es": "s", "ess": "s", "em": "m", "en": "n"}


def normalize(text: str) -> list[str]:
    """Words for scoring: the same on both sides (see the module's docstring)."""
    from text_to_num import alpha2digit

    t = text.lower().replace("+", " plus ").replace("-", " ").replace("'", "")
    t = re.sub(r"[^a-z0-9 ]+", " ", t)
    t = alpha2digit(t, "en", threshold=0)
    t = re.sub(r"(\d+)\s*(st|nd|rd|th)\b", r"\1", t)
    for name, letter in LETTERS.items():
        t = re.sub(rf"\b{name}\b", letter, t)
    # letters run together ("lc" for "L, C"): a short token with no vowel is its letters
    t = re.sub(r"\b[b-df-hj-np-tv-xz]{2,3}\b", lambda m: " ".join(m.group(0)), t)
    return t.split()


def sounds_same(a: str, b: str) -> bool:
    """The same word to the ear: equal Metaphone codes ("kat" = "cat", "anne" = "ann",
    "cats" = "cat's"); digits only when equal."""
    import jellyfish

    if a.isdigit() or b.isdigit():
        return a == b
    return jellyfish.metaphone(a) == jellyfish.metaphone(b)


def words_right(ref: list[str], hyp: list[str]) -> tuple[int, int, list[str]]:
    """(words right as written, words right by sound, the words missed by sound) of a
    Levenshtein alignment of the words: a substitution by a word that sounds the same
    counts by sound."""
    from rapidfuzz.distance import Levenshtein

    ops = Levenshtein.editops(ref, hyp)
    missed = [ref[op.src_pos] for op in ops if op.tag == "delete"]
    replaced = [(ref[op.src_pos], hyp[op.dest_pos]) for op in ops if op.tag == "replace"]
    missed += [a for a, b in replaced if not sounds_same(a, b)]
    strict = len(ref) - sum(1 for op in ops if op.tag in ("delete", "replace"))
    return strict, len(ref) - len(missed), missed


def percentile(xs: list[float], q: float) -> float:
    xs = sorted(xs)
    return xs[min(len(xs) - 1, int(round(q * (len(xs) - 1))))]


def game_sentences() -> list[str]:
    from voice_host import config
    from voice_host.app import load_words, run_records
    from voice_host.host.script import parse_script
    from voice_host.host.session import Session, new_header

    cfg = config.load()
    said: list[str] = []
    session = Session(new_header("prolix-classic", PLAYERS, 1, cfg), load_words(cfg), said.append)
    run_records(session, parse_script(GAME))
    return said


def settings_for(engine: str):
    from voice_host.speech.speaking.tts import VoiceSettings

    return VoiceSettings(engine=engine, piper={"rate": 1.0, "volume": 1.0}, pyttsx3={"rate": 175, "volume": 1.0})


def latency(engine: str, sentences: list[str]) -> dict:
    from voice_host.speech.speaking.voice import TtsVoice

    voice = TtsVoice(play=False, settings=settings_for(engine))
    if hasattr(voice.synth, "cache_size"):
        voice.synth.cache_size = 0
    out = {}
    for label, texts in (("cold", sentences), ("warm", sentences)):
        if label == "warm":
            if not hasattr(voice.synth, "cache_size"):
                continue
            voice.synth.cache_size = 1000
            for s in sentences:  # fill the cache: the game said once
                list(voice.synth.pieces(s))
        times = []
        for text in texts:
            n = len(voice.history)
            voice.say(text)
            t0 = time.monotonic()
            while len(voice.history) == n and time.monotonic() - t0 < 10:
                time.sleep(0.0005)
            times.append(voice.history[-1].latency if len(voice.history) > n else float("inf"))
            voice.stop()
            voice.wait(5)
        out[label] = times
    voice.close()
    return out


def speak_to(engine: str, path: Path):
    """The game played with --speak-to (no loudspeakers): (placed sentences, file audio, rate)."""
    import soundfile as sf

    from voice_host import config
    from voice_host.app import load_words, run_records
    from voice_host.host.output import Speaker
    from voice_host.host.script import parse_script
    from voice_host.host.session import Session, new_header

    cfg = config.load(overrides={"voice": {"engine": engine}})
    speaker = Speaker(True, cfg, str(path))
    session = Session(new_header("prolix-classic", PLAYERS, 1, cfg), load_words(cfg), speaker, earcon=speaker.earcons)
    speaker.attach(session)
    import contextlib
    import io

    with contextlib.redirect_stdout(io.StringIO()):
        run_records(session, parse_script(GAME))
        speaker.close()
    audio, rate = sf.read(str(path), dtype="float32")
    return speaker.file.placed, audio, rate, speaker.engine


def recognizer(name: str):
    from voice_host.speech.recognizing.engines import make_recognizer

    if name == "whisper":  # as the Listener gives it: the player names in its prompt
        rec = make_recognizer(name, prompt_prefix=", ".join(PLAYERS) + ".")
        return lambda audio: rec.transcribe(audio).text
    rec = make_recognizer(name)
    if name == "moonshine":
        return lambda audio: rec.transcribe(audio, sayable=None).text
    return lambda audio: rec.transcribe(audio).text


def intelligibility(placed, audio, rate, recognize) -> tuple[float, int, list[tuple[str, str]]]:
    from voice_host.speech.audio import SAMPLE_RATE, resample

    hits = by_sound = total = 0
    names = {n.lower() for n in PLAYERS} | {n.lower() + "s" for n in PLAYERS}
    name_words = name_misses = 0
    misses = []
    for i, p in enumerate(placed):
        if p.kind != "say":
            continue
        before = placed[i - 1].end if i else 0.0
        after = placed[i + 1].start if i + 1 < len(placed) else audio.size / rate
        a = int(max(before, p.start - 0.3) * rate)  # margins, never into the neighbours
        b = int(min(after, p.end + 0.3) * rate)
        heard = recognize(resample(audio[a:b], rate, SAMPLE_RATE))
        ref, hyp = normalize(p.what), normalize(heard)
        h, s, missed = words_right(ref, hyp)
        hits += h
        by_sound += s
        total += len(ref)
        name_words += sum(1 for w in ref if w in names)
        name_misses += sum(1 for w in missed if w in names)
        if s < len(ref):
            misses.append((p.what, heard))
    others = (by_sound - (name_words - name_misses)) / max(1, total - name_words)
    return hits / max(1, total), by_sound / max(1, total), total, misses, (name_misses, name_words, others)


def main(argv: list[str] | None = None) -> int:
    ap = reporting.arguments(__doc__, "piper only, the latency of the first 20 distinct sentences")
    ap.add_argument("--engines", default="piper,pyttsx3")
    ap.add_argument("--recognizers", default="auto", help="moonshine, whisper, or auto (moonshine, else whisper)")
    ap.add_argument("--show-misses", type=int, default=8)
    ap.add_argument("--latency-only", action="store_true", help="skip the intelligibility part")
    args = ap.parse_args(argv)
    if args.quick:
        args.engines = "piper"
    out = reporting.Report("voice", args.json)

    out.say(f"load average {os.getloadavg()[0]:.1f} on {os.cpu_count()} cores")
    sentences = game_sentences()
    distinct = list(dict.fromkeys(sentences))
    out.say(f"the game: {len(sentences)} sentences said, {len(distinct)} distinct, "
          f"{sum(len(s.split()) for s in sentences)} words")
    names = [] if args.latency_only else args.recognizers.split(",")
    if names == ["auto"]:
        try:
            recognizer("moonshine")
            names = ["moonshine"]
        except Exception as exc:  # noqa: BLE001
            out.say(f"(no moonshine: {exc}; using whisper)")
            names = ["whisper"]
    recognizers = {n: recognizer(n) for n in names}
    rows = []
    with tempfile.TemporaryDirectory() as tmp:
        for engine in args.engines.split(","):
            lat = latency(engine, distinct[:20] if args.quick else distinct)
            if args.latency_only:
                rows.append({"engine": engine, "lat": lat, "distinct": distinct, "words": {}})
                continue
            t0 = time.monotonic()
            placed, audio, rate, used = speak_to(engine, Path(tmp) / f"{engine}.wav")
            render_s = time.monotonic() - t0
            if used != engine:
                out.say(f"{engine}: not available here ({used} used instead); skipped")
                continue
            row = {"engine": engine, "lat": lat, "distinct": distinct, "render_s": render_s, "audio_s": audio.size / rate, "words": {}}
            for n, rec in recognizers.items():
                row["words"][n] = intelligibility(placed, audio, rate, rec)
            rows.append(row)

    out.say()
    out.say(f"{'voice engine':14} {'first sample p50 / p95 (cold)':>30} {'warm p50 / p95':>16} "
          + " ".join(f"{'words right by sound / as written, ' + n:>46}" for n in recognizers))
    for r in rows:
        cold = r["lat"]["cold"]
        warm = r["lat"].get("warm")
        p50, p95 = statistics.median(cold) * 1000, percentile(cold, 0.95) * 1000
        ok = "ok" if p95 <= TARGET_LATENCY_P95 * 1000 else "MISSED"
        warm_s = f"{statistics.median(warm) * 1000:.1f} / {percentile(warm, 0.95) * 1000:.1f} ms" if warm else "-"
        words = " ".join(f"{100 * snd:>25.1f}% / {100 * acc:.1f}% of {n}" for acc, snd, n, _, _ in r["words"].values())
        out.say(f"{r['engine']:14} {p50:>14.0f} / {p95:.0f} ms ({ok:6}) {warm_s:>16} {words}")
        out.figures[r["engine"]] = {
            "first sample ms": {"p50": round(p50), "p95": round(p95)},
            "warm ms": {"p50": round(statistics.median(warm) * 1000, 1),
                        "p95": round(percentile(warm, 0.95) * 1000, 1)} if warm else None,
            "words right": {n: {"by sound": round(100 * snd, 1), "as written": round(100 * acc, 1), "words": total}
                            for n, (acc, snd, total, _, _) in r["words"].items()}}
    for r in rows:
        slow = sorted(zip(r["lat"]["cold"], r["distinct"]), reverse=True)[:3]
        out.say(f"  {r['engine']} slowest: " + "; ".join(f"{t * 1000:.0f} ms '{x}'" for t, x in slow))
    out.say(f"targets: first sample p95 <= {TARGET_LATENCY_P95 * 1000:.0f} ms; words right >= {TARGET_WORDS:.0%} "
          "for the default voice (piper)")
    for r in rows:
        for n, (acc, snd, total, misses, (name_misses, name_words, others)) in r["words"].items():
            verdict = "" if r["engine"] != "piper" else (" ok" if snd >= TARGET_WORDS else " MISSED")
            out.say(f"\n{r['engine']} heard by {n}: {snd:.1%} of {total} words right by sound{verdict} "
                  f"({acc:.1%} as written); player names missed {name_misses} of {name_words}, the other "
                  f"words {others:.1%} right by sound; the whole game rendered "
                  f"into the file in {r['render_s']:.1f} s for {r['audio_s']:.0f} s of audio")
            for said, heard in misses[: args.show_misses]:
                out.say(f"  said:  {said}\n  heard: {heard}")
    return out.finish()


if __name__ == "__main__":
    sys.exit(main())
