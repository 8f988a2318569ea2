"""How long the host takes to answer: end of speech -> the first sound, and the first word of its answer.

    .venv/bin/python benchmarks/latency.py             # 24 words a condition, idle then loaded (~15 minutes)
    .venv/bin/python benchmarks/latency.py --quick     # 4 words a condition (about 6 minutes)
    .venv/bin/python benchmarks/latency.py --conditions idle --verbose   # what the host says, as it says it
    .venv/bin/python benchmarks/latency.py --words 8 --enrolled --paths microphone,phones   # one microphone, then phones
    .venv/bin/python benchmarks/latency.py --quick --set listening.guess_after=0.1   # another setting
    .venv/bin/python benchmarks/latency.py --quick --conditions idle --echo 0,6   # the laptop's speaker heard back

Held-out speech (the voices no tuning set uses: piper's neural joe,
festival's HTS slt and flite's slt; no word of the tuning game of benchmarks/table.py)
is played into the LIVE host as `voice-host play` builds it (`voice_host.assembly.build`, run by
`voice_host.by_voice.play_live`: the Listener with its VAD and
echo gate, the default recognizer (Moonshine, told what may be said), voice prints, the
Hearing, the Session) in real time: a fake microphone hands out 20 ms blocks, each when
its last sample has been "spoken" (it sleeps to the block's due time), so the endpoint
wait is real. The host speaks through a real TtsVoice with the default synthesizer
(Piper) and the host's Speaker (earcons as configured) into a fake sound card
(:class:`FakeSoundCard`, given to ``TtsVoice(output=...)``), which plays at real speed and
notes when the first non-silent sample of each write would be heard: after what is
queued ahead of it (the reply's own leading silence included), or 8.7 ms after the write
into an empty output; a write returns once the output holds no more than the stream's
latency (PortAudio's ALSA defaults: 8.7 ms for ``latency="low"``, 34.8 ms for "high",
its default; a number as given).

A game of Prolix Classic for Dee (joe), Fay (festival slt, up 300 cents, 10% faster) and
Kim (flite slt), as the live host runs one with one microphone: the host asks each
player to say who they are and each answers "I am NAME, and I am ready to play."
(intro); then the player whose turn it is says a word, alone (one-word) or after their
name ("Kim, vocabulary": name-word), chosen on the board the game shows then (a known
word among the best); every second word is followed by a question from another player
("Whose turn is it?", "What's the score?": question); once a game, after the fourth
word, another player says "Take that back." (command), the word's player answers the
host's "Say yes or no." with "Yes." (answer) and says the word again. Each player speaks
when the host has finished its reply and been quiet for 0.6 s (or, when its words were
never heard and answered, after 20 s). The first utterance of a run is reported on its
own (cold: the models' first run), not in the figures.

For every utterance (wall times, time.perf_counter): end of speech (the last voiced
sample of the clip, known from the script) -> the hearing gets the utterance
(Hearing.on_hear); of that, RECOGNIZE is the recognition whose transcript it is (the
last finish() or guess before it: a guess made at a short pause and kept counts, one
thrown away does not) and WHO the voice print's d-vector computed after it on the
listener's thread, the rest is the ENDPOINT wait (silence waited for, before or after
the recognition) -> the session says the answer's first sentence (GAME: the hearing,
the game, a voice print computed there, an earcon before the sentence) -> the voice
hands its first audio to the sound card (RENDER: Piper's first piece) -> its first
non-silent sample is heard (OUTPUT: leading silence, the card's buffer and latency).
The parts add up to the time to the ANSWER's first word. Per kind and condition: p50
and p95 of the FIRST SOUND the table hears (the answer, or the host's heard tick when
that comes first: [listening] acknowledge_after), p50, p95 and max of the ANSWER's
first word and the mean of each of its parts; how many replies were the typed game's
(its first sentence, or anywhere in it: after what the host settles first, its own
question about the word before); and the synthesizer's own time to its first sample
for every sentence it renders (cached ones included, as the host runs).

Paths (``--paths``): microphone (one, the laptop's: the default) and phones (each
player's own phone, as ``voice-host play --phones`` hears them: the players' page served
over HTTPS here, and the phones in a process of their own, a websocket each, joined
with the code, sending 48 kHz PCM blocks as the page's script does; nobody introduces
themselves, the phone says who speaks). Each path reports the same figures, and the
words on their player's sheet at the end (and on another player's).

Conditions: idle, and loaded: a busy process on one core beside it (``--hogs N``); and,
asked for with ``--conditions`` (``rooms``: all), the real rooms of benchmarks/toolkit/
rooms.py, played idle: the room's sound (the kitchen, or four real held-out talkers at
once) looped into the microphone under everything, the lines reverberant for "reverb"
and "far mic".
The last two lines: ``answer p95: one-word N ms, other N ms, loaded N ms`` (the answer's
first word: idle one-word plays; idle everything else; loaded, every kind), then the
same for the first sound (``latency p95: ...``). Targets (idle 2-core machine): the
answer p95 <= 600 ms one-word and other, <= 800 ms loaded; the first sound p95 <= 400
ms; Piper's first sample p95 <= 120 ms.
"""

from __future__ import annotations

import dataclasses
import subprocess
import sys
import time

import numpy as np

from toolkit import report, rooms
from toolkit import echo_path
from toolkit.fake_audio import GAP, FakeMic, FakeSoundCard
from toolkit.latency_measures import PARTS  # noqa: F401  (the tests')
from toolkit.latency_measures import Run, figures, measure, report_run, summary, verbose_lines
from toolkit.latency_script import GAME, INTRO, PLAYERS, SEED, Line, game_config, plan, voice_lines
from toolkit.latency_timing import BenchSpeaker, Log, Span, TimedRecognizer, TimedSynth, timed_prints
from toolkit.phone_link import PhoneLink
from toolkit.voices import synth

perf = time.perf_counter


def tuning_words() -> set[str]:
    """The words of benchmarks/table.py's tuning game (never said here)."""
    import table

    return {t.word for t in table.plans(20, every=0)["tuning"]}


# ---------------------------------------------------------------------- one run
def run(lines: list[Line], *, condition: str = "idle", hogs: int = 0, cfg: dict | None = None,
        engine: str | None = None, speed: float = 1.0, gap: float = GAP, enrolled: bool = False,
        echo: bool = False, background: np.ndarray | None = None, phones: bool = False,
        room_echo=None) -> Run:
    """Play `lines` (voiced) into the live loop, with `hogs` busy processes beside it
    (and the room's `background` sound under everything).
    `room_echo`: the host's own voice heard back by the microphone (echo_path.EchoPath).
    `phones`: each player's lines reach the host through their own phone (PhoneLink):
    a websocket of 48 kHz PCM to the players' page, one channel each.
    `enrolled`: the players' voice prints are taken from their introductions before the
    game (as from a --voices file), so the live opening asks nobody."""
    from voice_host.assembly import build
    from voice_host.host.hearing import HearingSettings
    from voice_host.host.session import Session, new_header
    from voice_host.speech.recognizing.engines import make_recognizer
    from voice_host.speech.speaking import tts
    from voice_host.speech.speaking.voice import TtsVoice
    from voice_host.words import Words

    cfg = cfg or game_config()
    log = Log()
    words = Words.load()
    settings = HearingSettings.from_config(cfg)
    engine = engine or settings.engine
    synthesizer = TimedSynth(tts.make_synthesizer(tts.VoiceSettings.from_config(cfg)), log)
    card = FakeSoundCard(log, speed, echo=room_echo)
    voice = TtsVoice(synthesizer=synthesizer, play=True, output=card)
    speaker = BenchSpeaker(cfg, voice, log, echo)
    session = Session(new_header(GAME, list(PLAYERS), SEED, cfg), words, speaker, earcon=speaker.earcons)
    speaker.attach(session)  # the voice prepares its openings while the recognizer loads, as the host's does
    recognizer = TimedRecognizer(make_recognizer(engine), log)
    prints = timed_prints(log)
    if enrolled:
        for p, v in PLAYERS.items():
            prints.enroll(p, synth(INTRO.format(name=p), v))
    mic = FakeMic(lines, log, lambda: voice.speaking or card.busy(), gap, background=background, echo=room_echo)
    link = PhoneLink(mic) if phones else None
    hogging = [subprocess.Popen([sys.executable, "-c", "while True: pass"]) for _ in range(hogs)]
    t0 = perf()
    try:
        host = build(session, recognizer, mic if link is None else link.source, cfg=cfg, voice=voice, speaker=speaker,
                     voiceprints=prints, on_hear=lambda u: log.heard.append(Span(perf(), perf(), u.text)),
                     channel_players=None if link is None else link.source.channel_players,
                     notices=None if link is None else lambda: link.hub.notices(session.announcer))
        if link is not None:
            link.start()  # the phones join and the host says so; the players speak once it is quiet
            for line in link.hub.notices(session.announcer):
                session.say(line)
            link.play()
        host.play_live()  # the host as voice-host play builds it (voice_host.assembly)
    finally:
        for p in hogging:
            p.kill()
            p.wait()
        if link is not None:
            link.close()
        speaker.close(wait=5.0 / speed)
    sheets = {p["name"]: [w["word"] for w in p["words"] if w.get("counts", True)] for p in session.result()["players"]}
    return Run(condition, lines, log, card.opened, recognizer.name, perf() - t0, sheets)


def in_room(lines: list[Line], condition: str, room: rooms.Room) -> tuple[list[Line], np.ndarray | None]:
    """The lines as the microphone hears them in a room condition (toolkit.rooms), and the
    room's own sound to loop under everything, set against the players' speech level."""
    from voice_host.speech.audio import SAMPLE_RATE as RATE

    speech = rooms.level(np.concatenate([line.audio for line in lines]))

    def below(track: np.ndarray, snr: float) -> np.ndarray:
        return (track * speech / (np.sqrt(np.mean(track ** 2)) + 1e-12) / 10 ** (snr / 20)).astype(np.float32)

    if condition in ("reverb", "far mic"):
        quieter = 12.0 if condition == "far mic" else 0.0
        lines = [dataclasses.replace(x, audio=room.reverberant(x.audio, x.audio, quieter)) for x in lines]
    if condition == "kitchen 10 dB":
        return lines, below(room.kitchen, 10)
    if condition.startswith("babble "):
        return lines, below(room.talk(60 * RATE, seed=1), float(condition.split()[1]))
    return lines, below(room.kitchen, 20) if condition == "far mic" else None


def main(argv: list[str] | None = None) -> int:
    ap = report.arguments(__doc__, "4 words a condition instead of 24 (a few minutes)", "idle,loaded",
                          ("idle", "loaded", *rooms.ROOMS), settings=True)
    ap.add_argument("--words", type=int, help="words said a condition (default 24; 4 with --quick)")
    ap.add_argument("--hogs", type=int, default=1, help="busy processes beside the loaded condition (default 1)")
    ap.add_argument("--engine", help="the recognizer (default: the config's, auto: Moonshine)")
    ap.add_argument("--enrolled", action="store_true", help="voices known before the game: no introductions")
    ap.add_argument("--verbose", action="store_true", help="every utterance, and what the host says as it says it")
    ap.add_argument("--paths", default="microphone",
                    help="how the players reach the host, comma-separated: microphone (one, the laptop's), "
                         "phones (each player's own, over the network: --phones); default microphone")
    echo_path.add_options(ap)
    args = ap.parse_args(argv)
    sys.stdout.reconfigure(line_buffering=True)  # each table as it is done, into a file too
    out = report.Report("latency", args.json)
    n = args.words or (4 if args.quick else 24)
    conditions = rooms.choose(args.conditions, "idle,loaded", ("idle", "loaded", *rooms.ROOMS))
    room = rooms.by_split(conditions, ("held-out",))["held-out"]  # the players are held-out voices
    conditions = [c for c in conditions if c in ("idle", "loaded") or room is not None]
    cfg = game_config(report.overrides(args.set))
    lines = voice_lines(plan(n, intros=not args.enrolled, avoid=tuning_words(), cfg=cfg,
                             undo_after=min(3, n - 1)))
    out.say(f"{len(lines)} utterances a condition ({n} words), said by "
            f"{', '.join(f'{p} ({v})' for p, v in PLAYERS.items())}; a room condition is played idle")
    paths = [p.strip() for p in args.paths.split(",") if p.strip()]
    if not paths or set(paths) - {"microphone", "phones"}:
        ap.error(f"--paths takes microphone and phones, not {args.paths!r}")
    echoes = echo_path.conditions(args)
    for path in paths:
        results = {}
        for c, echo in ((c, e) for c in conditions for e in echoes):
            said, background = (lines, None) if c in ("idle", "loaded") else in_room(lines, c, room)
            if path == "phones":  # each phone says who is speaking: nobody introduces themselves
                said = [line for line in said if line.kind != "intro"]
            name = (c if path == "microphone" else f"{c} (phones)") + \
                ("" if echo is None else f" echo {echo_path.label(echo)}")
            r = run(said, condition=name, hogs=args.hogs if c == "loaded" else 0, cfg=cfg, engine=args.engine,
                    enrolled=args.enrolled or path == "phones", echo=args.verbose, background=background,
                    phones=path == "phones",
                    room_echo=None if echo is None else echo_path.EchoPath(np.concatenate([line.audio for line in said]),
                                                                           *echo, args.echo_rt60))
            results[name] = measure(r)
            with out.text():
                report_run(r, results[name])
                if args.verbose:
                    verbose_lines(results[name])
            out.figures[name] = figures(results[name])
            out.figures[name]["sheets"] = dict(zip(("own", "other", "said"), r.on_sheets()), unsaid=r.unsaid())
        prefix = "" if path == "microphone" else "phones: "
        out.say(prefix + summary(results, answer=True))
        out.say(prefix + summary(results))
    return out.finish(words=n, players=PLAYERS)


if __name__ == "__main__":
    sys.exit(main())
