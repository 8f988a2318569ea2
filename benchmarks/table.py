"""One microphone at a real table: words chosen on the board, every word on the right sheet?

    .venv/bin/python benchmarks/table.py              # 20 words a player, tuning and held-out
    .venv/bin/python benchmarks/table.py --quick      # 8 words a player (a few minutes a split)
    .venv/bin/python benchmarks/table.py --quick --prior 0:0,4:1   # the game's prior off and on
    .venv/bin/python benchmarks/table.py --engine whisper
    .venv/bin/python benchmarks/table.py --quick --live --no-answers   # the recording also said live
    .venv/bin/python benchmarks/table.py --quick --live --no-recording   # the table that answers, from the file and live
    .venv/bin/python benchmarks/table.py --quick --live --no-recording --echo 0,6 --echo-delay 20,150   # the laptop's speaker
    .venv/bin/python benchmarks/table.py --quick --mics channels   # a microphone channel per player
    .venv/bin/python benchmarks/table.py --quick --unheard Fay   # one player never says who they are
    .venv/bin/python benchmarks/table.py --splits tuning --confirm-heard 0.9,0.95   # how sure before asking
    .venv/bin/python benchmarks/table.py --quick --no-answers --talk 15   # other people talking, 15 dB under the players

A game of Prolix Classic (the host's own bag, seeded; 20 rounds, so that every word said
is a play) as a host must handle it with its default settings: one
microphone, each player says "I am NAME, and I am ready to play." once, then only bare
words, about 2.5 s apart. The words are chosen the way players choose them:
the game is first played as typed, to know the board the game shows before each word;
the active player says a known word (wordfreq Zipf >= 3.3, 4 letters or more, not used,
not a cheapie: `Words.values(tiles, used)` > 0) among the 25 best-scoring on that
board; one of the active player's turns in five a weak play (a known word worth at
most a third of the best); one turn in eight another player interrupts first with a
good word (at most one interrupt a turn, never a player's last slot), and the active
player then plays again on the new board. A word counts as right when the sheet holds
it or a spelling of the same sound that scored the same on that board (the host writes
"behavior" for "behaviour": one word, the same points).

The recording goes through the real pipeline (`play_recording`: VAD, the recognizer,
voice prints, the host's hearing, with the game's prior `--prior POINTS:KNOWN`, by
default the config's [speech] prior_points, prior_known) with its questions left
unanswered; each word said is compared with the input the host fed the game for it.
Clean, 20 dB and 10 dB pink noise (benchmarks/toolkit/synth.add_noise); `--conditions` also
takes the real rooms of benchmarks/toolkit/rooms.py ("kitchen 10 dB", "babble 15 dB", ...,
or "rooms" for all; the table that answers is not heard in "reverb" and "far mic"). Only the words said
before the game is over count (`n`). Then the same table again, answering
(`--no-answers` skips it): a player the host asks "Did you say X or Y?" says "Yes." when
X is right, says the word when it is Y, and otherwise spells it in the spelling
alphabet ("Tango, Oscar, ..."); "Who said X?" and "Was that Ann?" get the player's name
("It was Ben.") or "Yes."; a player whose word the host scored to another says "That
was mine."; a player whose word the host took wrong says "No, " and the word, and
spells it ("No, Tango, Oscar, ...") when the host takes it wrong again or asks for the
spelling ("I hear towers again. Spell it for me, please."); one whose word was taken
for chatter ("I didn't catch a word in 'okay'") spells it. Nobody says more than three
things about one word. The answers are put into the audio as the host asks (a source
that grows as it is read), in the player's voice, under the same noise, and pass
through the same pipeline. With `--live`, the recording nobody answers is also said
live: streamed in real time into the microphone of a PulseAudio server (null sink, pipe
source: benchmarks/toolkit/pulse.py) and heard by the live loop (`play_live`: the opening
asks each player to say who they are while the introductions come, the host speaks
through Piper to the server's speakers, barge-in and the tick as at a table); the table
"live". The table that answers is said live too ("live+ans"): its answers are put into
the microphone as the host asks, each a short pause after the host has finished the
sentence it answers (the question, or the score a player puts right, over what the host
says next as a player would); each player says
who they are once the host has asked them (said over the host's first words, the first
introduction was sometimes lost, and with it the game's first word, said while the
host still waited for that introduction).

Live, the host's own voice comes back into the microphone as a laptop's speaker sends it
there (`--echo`, default `off,0`: each live run without it and with it; benchmarks/toolkit/
echo_path.py): what the server's speakers play, through a room (`--echo-rt60`, 0.4 s),
`--echo-delay` ms later (30), at the players' speech level plus `--echo` dB (0: as loud
as they are). The column "echo" says which ("-": none, "+0/30": 0 dB, 30 ms), "own" how
many of the host's own words were played as a player's (an input nobody said whose word
the host had said).

With `--talk DB` other people talk in the room all evening, DB below the players (a
television, another conversation): real recordings of real people (LibriVox read
speech from Debian's pocketsphinx-testdata, Picovoice's recording of many keywords,
Speech Commands words of many speakers: benchmarks/real_speech.py says where they go),
one after another with short pauses, over the introductions and the words alike. STRAY
counts the words the host put on a sheet that nobody at the table said (the recording
nobody answers; the table that answers is heard without the talk).

Reported per split, condition and table: words right FIRST time (on the right sheet
with no question asked and nothing put right), right on the SHEET in the end (word and
player), SILENTly wrong (a wrong word, or a word on the wrong sheet, scored with no
question asked about it: a word the host doubted, took and said in the score counts
here when nobody put it right), QUESTIONS the host asked per word, the SECONDS each
question held the table (from the question to its answer, or to the host settling it
itself), the table's seconds lost a word (s/word: the questions' seconds, and each
"No, ..." that put a word right, from the score said to the end of the player's
reply), the words put right a word (c/word: "Sorry, Ann: ..."), the player right (who)
and the pipeline's real-time factor.

Two splits: TUNING, said by flite rms and awb and awb shifted with sox (no festival
HTS slt, piper joe or flite slt), and HELD-OUT, said by voices no test uses (piper's
neural joe, flite kal16, and sox pitch/tempo-shifted festival slt and rms), whose
words are never chosen in the tuning game. Targets (held-out, one
microphone, nobody answering): right on the sheet >= 95% clean, >=
90% at 20 dB, >= 75% at 10 dB; silently wrong <= 2% in every condition; questions <=
15% of words clean; a table that answers >= 99% clean, >= 97% at 20 dB. The rare-word
stress case stays in benchmarks/recognition.py.
"""

from __future__ import annotations

import sys
from pathlib import Path

from toolkit import echo_path, listening, report, rooms
from toolkit.splits import TABLE_PLAYERS as SPLITS
from toolkit.table_conversation import Conversation, Reply  # noqa: F401  (the tests')
from toolkit.table_game import INTERRUPT_EVERY, MICS, in_condition, plans, session, talk
from toolkit.table_host import LIVE, SPEECH, TRACE, _asked_for, run, run_answering, run_live  # noqa: F401  (the tests')

from voice_host.speech.audio import SAMPLE_RATE  # noqa: E402

CONDITIONS = ("clean", "20", "10")
"""The default conditions: clean, pink noise at an SNR in dB, or any of toolkit.rooms' rooms."""


def _prior(item: str) -> tuple[float, float] | None:
    """POINTS:KNOWN, or None for the config's."""
    if item in ("", "config", "DEFAULT"):
        return None
    p, k = item.split(":")
    return float(p), float(k)


def main(argv=None) -> int:
    ap = report.arguments(__doc__, "8 words a player instead of 20", ",".join(CONDITIONS),
                          ("clean", "an SNR in dB (pink noise)", *rooms.ROOMS), model=True)
    ap.add_argument("--engine", default="auto")
    ap.add_argument("--words", type=int, help="words per player")
    ap.add_argument("--splits", default=",".join(SPLITS))
    ap.add_argument("--prior", default="config",
                    help="the game's prior POINTS:KNOWN ([speech] prior_points, prior_known; 0:0 off), "
                         "several separated by commas; default: the config's")
    ap.add_argument("--confirm-heard", metavar="X,Y",
                    help="[speech] confirm_heard_below values to compare (default: the config's)")
    ap.add_argument("--interrupts", type=int, default=INTERRUPT_EVERY, metavar="N",
                    help=f"an interrupt one turn in N (default {INTERRUPT_EVERY}; 0: none)")
    ap.add_argument("--live", action="store_true",
                    help="also the recording and the table that answers said live, through a PulseAudio server "
                         "in real time")
    ap.add_argument("--no-recording", action="store_true", help="only the table that answers")
    ap.add_argument("--no-answers", action="store_true", help="only the recording nobody answers")
    ap.add_argument("--mics", default="one", choices=MICS,
                    help="one microphone and voice prints (default), a channel per player (the recording "
                         "nobody answers only), or one microphone and the name said before every word")
    ap.add_argument("--unheard", metavar="NAME",
                    help="with one microphone: this player never says who they are (the host must ask)")
    ap.add_argument("--talk", type=float, metavar="DB",
                    help="other people talking in the room all evening, DB under the players (real recordings)")
    ap.add_argument("--background-below", type=float, metavar="DB",
                    help="[speech] background_below (0: the room's talk is not told apart)")
    ap.add_argument("--plan", action="store_true", help="print the words chosen and stop")
    ap.add_argument("--trace", action="store_true", help="print what was heard and said")
    listening.add_ear_option(ap)
    echo_path.add_options(ap)
    args = ap.parse_args(argv)
    if args.trace:
        TRACE.append(True)
    if args.background_below is not None:
        SPEECH["background_below"] = args.background_below
    SPEECH["model"] = args.model
    from voice_host import config

    speech = config.load().get("speech", {})
    default = (float(speech.get("prior_points", 0.0)), float(speech.get("prior_known", 0.0)))
    asks = [float(x) for x in args.confirm_heard.split(",")] if args.confirm_heard else \
        [float(speech.get("confirm_heard_below", 0.9))]
    priors = list(dict.fromkeys((*(_prior(x) or default), a) for x in args.prior.split(",") for a in asks))
    per = args.words or (8 if args.quick else 20)
    conds = [None if c == "clean" else c if c in rooms.ROOMS else float(c.removesuffix("dB"))
             for c in rooms.choose(args.conditions, ",".join(CONDITIONS), available=None)]
    room = rooms.by_split([c for c in conds if isinstance(c, str)], args.splits.split(","))
    conds = [c for c in conds if not isinstance(c, str) or room[args.splits.split(",")[0]] is not None]
    out = report.Report("table", args.json)
    games = plans(per, args.interrupts)
    for split in args.splits.split(","):
        plan = games[split]
        out.say(f"{split}: " + ", ".join(f"{t.player}:{t.word}{ {'weak': '*', 'interrupt': '!'}.get(t.kind, '')}"
                                       for t in plan) + "  (* weak play, ! interrupt)")
    if args.plan:
        return 0
    if args.live:
        import atexit
        import os
        import tempfile

        from toolkit.pulse import Pulse, missing

        if missing():
            out.say(f"--live: {missing()}")
            return 2
        server = Pulse(Path(tempfile.mkdtemp(prefix="voice-host-live-")))
        LIVE.append(server.__enter__())
        atexit.register(server.__exit__, None, None, None)  # stopped however the run ends
        os.environ.update(server.env)  # before PortAudio starts, so that it finds the server
    who = {"one": "One-microphone table, after one enrollment sentence each",
           "channels": "A microphone channel per player", "names": "One microphone, the name said before every word"}
    out.say(f"{who[args.mics]}, engine {args.engine}, {per} words per player chosen on the board")
    ears = listening.ears(args.second_ear)
    echoes = echo_path.conditions(args) if args.live else [None]
    out.say(f"{'split':9} {'noise':6} {'prior':6} {'ask<':4} {'ear':7} {'table':9} {'echo':6} {'n':>3} {'first':>6} "
            f"{'sheet':>6} {'silent':>6} "
            f"{'q/word':>6} {'s/q':>5} {'s/word':>6} {'c/word':>6} {'who':>6} {'stray':>5} {'own':>3} {'RTF':>5}")
    for split in args.splits.split(","):
        voices, plan = SPLITS[split], games[split]
        unheard = args.unheard if args.unheard in voices else None
        audio, truth = session(voices, plan, args.mics, unheard)
        players = audio
        if args.talk is not None:
            audio = audio + (talk(audio.shape[0] / SAMPLE_RATE, rooms.level(audio.reshape(-1)), args.talk)
                             if audio.ndim == 1 else 0)
        for snr in conds:
            label = ("clean" if snr is None else f"{snr:g} dB" if isinstance(snr, float) else snr) + \
                ("+talk" if args.talk is not None else "")
            for prior, (ear, second_ear) in ((p, e) for p in priors for e in ears.items()):
                SPEECH["second_ear"] = second_ear
                runs = []
                mixed = audio if snr is None else in_condition(audio, players, snr, room[split])  # nobody answers
                if not args.no_recording:
                    runs.append(("recording", None, run(args.engine, voices, mixed, truth, plan, prior)))
                for echo in echoes if args.live and args.mics == "one" else ():
                    LIVE[0].echo(None if echo is None else echo_path.EchoPath(players, *echo, args.echo_rt60))
                    if not args.no_recording:
                        runs.append(("live", echo, run_live(args.engine, voices, mixed, truth, plan, prior)))
                    if not args.no_answers and snr not in ("reverb", "far mic"):
                        runs.append(("live+ans", echo, run_answering(args.engine, voices, plan, snr, prior, args.mics,
                                                                     unheard, room[split], live=True)))
                    LIVE[0].echo(None)
                if not args.no_answers and args.mics != "channels" and snr not in ("reverb", "far mic"):
                    answering = run_answering(args.engine, voices, plan, snr, prior, args.mics, unheard, room[split])
                    runs.append(("answering", None, answering))
                for kind, echo, r in runs:
                    head = f"{split:9} {label:6} {prior[0]:g}:{prior[1]:g}"
                    out.say((head.ljust(24) if len(head) < 24 else head + " ") + f"{prior[2]:<4g} {ear:7} " +
                            f"{kind:9} {echo_path.label(echo):6} {r['n']:3d} {r['first']:6.1%} {r['sheet']:6.1%} "
                            f"{r['silent']:6.1%} "
                            f"{r['per_word']:6.2f} {r['cost']:5.1f} {r['lost']:6.1f} {r['corrections']:6.2f} "
                            f"{r['attribution']:6.1%} {r['stray']:5d} {r['own']:3d} "
                            f"{r['rtf']:5.2f}")
                    key = f"{split}|{label}|{prior[0]:g}:{prior[1]:g}|{prior[2]:g}|{ear}|{kind}"
                    out.figures[key + ("" if echo is None else f"|echo {echo_path.label(echo)}")] = {
                        k: round(v, 4) if isinstance(v, float) else v for k, v in r.items()}
                    if r["misses"]:
                        out.say("          missed: " + ", ".join(r["misses"]))
    out.say("targets (held-out, nobody answering): sheet >= 95% clean, >= 90% at 20 dB, >= 75% at 10 dB; "
            "silently wrong <= 2%; questions <= 0.15 a word clean; answering: sheet >= 99% clean, >= 97% at 20 dB")
    return out.finish(engine=args.engine, model=args.model, words_per_player=per, mics=args.mics)


if __name__ == "__main__":
    sys.exit(main())
