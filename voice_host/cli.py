"""The ``voice-host`` command: play, resume, word, and the speech tools.

``voice-host play --game prolix-classic --players Ann,Ben,Cat --script game.txt
--no-voice --result-json out.json`` runs a scripted session (../shared/DESIGN.md,
"Scripted sessions"); without --script it plays typed lines from standard input.
"""

from __future__ import annotations

import argparse
import json
import select
import shlex
import sys
import time
from pathlib import Path
from typing import Iterable

from voice_host import config
from voice_host.games import REGISTRY
from voice_host.host import output
from voice_host.host import checks
from voice_host.host.log import EventLog, set_aside
from voice_host.host.script import parse_line, parse_script
from voice_host.host.session import Session, new_header


class UserError(Exception):
    """A problem the user can fix, said in one sentence."""


def load_words(cfg: dict):
    from voice_host.words import Words
    from voice_host.words.lexicon import LexiconSettings

    d = cfg.get("dictionary", {})
    return Words.load(LexiconSettings(wordlist=d.get("wordlist"), allow=d.get("allow"), deny=d.get("deny")))


Speaker = output.Speaker
"""Prints every announcement as ``host: ...``, says it (unless --no-voice), records it
(--speak-to), with earcons: voice_host/host/output.py."""


# ---------------------------------------------------------------------- play / resume
def overrides(args: argparse.Namespace) -> dict:
    table: dict = {}
    if args.tie_window is not None:
        table["tie_window"] = args.tie_window
    if args.auto_reject:
        table["auto_reject"] = True
    if args.challenge_vote:
        table["challenge_vote"] = True
    out: dict = {"table": table}
    if args.timer is not None:
        out["prolix"] = {"timer": args.timer, "redux_timer": args.timer}  # Redux's own timer too
    if args.teams or args.children:
        out["phlounder"] = {k: getattr(args, k).split(",") for k in ("teams", "children") if getattr(args, k)}
    if args.variant:
        out["dexikon"] = {"variant": args.variant}
    if args.set_size is not None:
        out["road"] = {"set_size": args.set_size}
    return out


def run_records(session: Session, records: Iterable[dict], pace: float = 0.0) -> None:
    """Feed script records in order; the game begins at the first record that needs it."""
    for record in records:
        if pace:
            time.sleep(pace)
        if session.needs_begin(record):
            session.begin(record["t"])
        session.feed(record)
    if not session.begun:
        session.begin(session.t)
    session.settle()


def run_typed(session: Session, stream=None) -> None:
    """Typed play: one ``Name: words`` or ``@directive`` per line.

    At a terminal the clock is real time (timers run out while nobody types); piped
    input is read like a script, one second per line.
    """
    stream = stream or sys.stdin
    interactive = stream.isatty()
    start = time.monotonic() - session.t
    if not session.begun:
        session.begin(session.t)
    if interactive:
        print("host: Type 'Name: word' lines; 'Name: help' for commands; Ctrl-D ends.", flush=True)
    t_prev = session.t
    while True:
        if interactive:
            ready, _, _ = select.select([stream], [], [], 0.2)
            if not ready:
                session.tick(time.monotonic() - start)
                continue
        raw = stream.readline()
        if not raw:
            break
        now = (time.monotonic() - start) if interactive else None
        record = parse_line(raw, t_prev if now is None else now - 1.0, 0)
        if record is None:
            continue
        session.tick(record["t"])
        session.feed(record)
        t_prev = record["t"]
    session.settle()


def run_by_voice(session: Session, words, cfg: dict, args: argparse.Namespace, voice=None,
                 voice_output=None) -> None:
    """Play from a recording (--audio) or the microphone; without one, fall back to typing."""
    from voice_host.host.hearing import Hearing, HearingSettings, play_live, play_recording
    from voice_host.speech.recognizer import make_recognizer
    from voice_host.speech.sources import NoInputDevice, channel_names, open_source

    hearing = Hearing(session, words, HearingSettings.from_config(cfg))
    try:
        source = open_source(audio=args.audio, device=args.device)
    except (NoInputDevice, OSError) as exc:
        if args.audio:
            raise UserError(f"I can't read {args.audio}: {exc}") from exc
        session.say(session.announcer.no_microphone(str(exc)))
        run_typed(session)
        return
    try:
        recognizer = make_recognizer(args.engine or cfg.get("speech", {}).get("engine", "auto"), args.model)
    except Exception as exc:  # no model installed: the message says what to run
        raise UserError(str(exc)) from exc
    channels = channel_names(args.channels, source.channels) if args.channels else None
    if args.audio and voice_output is not None and voice_output.file is not None:
        # --speak-to: the host answers when the recording has reached that point
        source = output.Timeline(source)
        voice_output.clock = lambda: max(session.t, source.now)
    if not channels:  # one microphone: who spoke comes from voice prints
        hearing.voiceprints = table_voices(args.voices)
    try:
        if args.audio:
            play_recording(hearing, source, recognizer, channel_players=channels)
        else:
            if voice is not None and hasattr(source, "clock"):
                voice.clock = source.clock  # the echo gate compares on the microphone's timeline
            play_live(hearing, source, recognizer, channel_players=channels, voice=voice)
    finally:
        source.close()
        if args.voices and hearing.voiceprints is not None and hearing.voiceprints.players:
            hearing.voiceprints.save(args.voices)


def table_voices(path: str | None):
    """The table's voice prints: loaded from ``--voices FILE`` when it exists (saved there
    at the end); None when voice prints cannot run here (the name said first still works)."""
    try:
        from voice_host.speech.voiceprint import VoicePrints

        prints = VoicePrints()
    except Exception as exc:  # no embedder model: attribution by name only
        print(f"host: (I can't learn voices here: {exc}.)", flush=True)
        return None
    if path and Path(path).is_file():
        try:
            prints.load(path)
        except (OSError, ValueError, KeyError) as exc:
            raise UserError(f"I can't read the voice prints in {path}: {exc}") from exc
    return prints


def write_result(session: Session, path: str | None) -> None:
    if path:
        Path(path).write_text(json.dumps(session.result(), indent=2) + "\n", encoding="utf-8")


def load_config(path: str | None, extra: dict) -> dict:
    """The merged settings, or the sentence saying why the table's file can't be used."""
    try:
        return config.load(path, extra)
    except FileNotFoundError as exc:
        raise UserError(f"There is no settings file {exc.filename}.") from None
    except IsADirectoryError:
        raise UserError(f"{path} is a folder, not a settings file.") from None
    except UnicodeDecodeError:
        raise UserError(f"{path} is not a text file, so it can't hold settings.") from None
    except (OSError, ValueError) as exc:  # tomllib.TOMLDecodeError is a ValueError
        raise UserError(f"I can't use the settings in {path}: {exc}.") from None


def setup_records(args: argparse.Namespace) -> list[dict]:
    """--start and --board as the table-mode directives they stand for."""
    setup = []
    if args.start:
        setup.append({"line": 0, "t": 0.0, "directive": "start", "args": [args.start]})
    if args.board:
        setup.append({"line": 0, "t": 0.0, "directive": "board", "args": args.board.replace(",", " ").split()})
    return setup


def interactive(args: argparse.Namespace) -> bool:
    """Played live at a terminal or by voice (not a script, a recording or piped lines)."""
    return not args.script and not args.audio and sys.stdin.isatty()


def auto_log_path(game: str) -> Path:
    """Where a live game is saved when no --log is given, so Ctrl-C never loses it."""
    import platformdirs

    folder = Path(platformdirs.user_data_dir("voice-host")) / "games"
    return folder / f"{game}-{time.strftime('%Y%m%d-%H%M%S')}.log"


def inputs(records: list[dict]) -> int:
    """The inputs a log holds: lines said, typed or scripted (not the game's own marks)."""
    return sum(1 for r in records if "text" in r or "directive" in r or "error" in r
               or ("wait" in r and not r.get("pause")))


def pause(session: Session, log: EventLog | None) -> None:
    """Ctrl-C: score what was said just before, keep the clock, say how to carry on."""
    try:
        session.settle()
        if log is not None:
            session.feed({"t": session.t, "wait": 0, "pause": True})  # a timer's time left survives the break
    except Exception:  # the game is saved input by input: nothing more to keep
        pass
    if log is None:
        session.say(session.announcer.not_saved())
    else:
        session.say(session.announcer.saved(shlex.quote(str(log.path))))


def cmd_play(args: argparse.Namespace) -> int:
    players = [p.strip() for p in args.players.split(",") if p.strip()]
    if len(set(p.lower() for p in players)) != len(players):
        raise UserError("Each player needs a different name.")
    problem = checks.number_problems(args.timer, args.tie_window, args.set_size, args.pace)
    if problem is None and args.game in REGISTRY:
        problem = checks.players_problem(args.game, players, REGISTRY[args.game])
    if problem:
        raise UserError(problem)
    cfg = load_config(args.config, overrides(args))
    setup = setup_records(args)
    try:
        script = checks.read_text(args.script, "script") if args.script else None
        header = new_header(args.game, players, args.seed, cfg, script=args.script)
        words = load_words(cfg)
        problem = checks.setup_problem(lambda speak: Session(header, words, speak), setup,
                                       {"start": "--start", "board": "--board"})
        if problem:  # a bad setup option stops here: the game never starts on the host's own board
            raise UserError(problem)
        speaker = Speaker(args.no_voice, cfg, args.speak_to)
        log_path = args.log or (auto_log_path(args.game) if interactive(args) else None)
        log = EventLog(log_path, header) if log_path else None
        session = Session(header, words, speaker, log)
        speaker.attach(session)
    except (ValueError, FileExistsError) as exc:
        raise UserError(str(exc)) from exc
    try:
        for record in setup:
            session.feed(record)
        if script is not None:
            run_records(session, parse_script(script), args.pace)
        elif args.audio or (not args.typed and sys.stdin.isatty()):
            run_by_voice(session, words, cfg, args, speaker.voice, speaker)
        else:
            run_typed(session)
        write_result(session, args.result_json)
    except KeyboardInterrupt:
        pause(session, log)
        return 130
    finally:
        speaker.close()
        if log:
            log.close()
    return 0


def cmd_resume(args: argparse.Namespace) -> int:
    try:
        header, records, damaged = EventLog.salvage(args.log)
        script = checks.read_text(args.script, "script") if args.script else None
    except ValueError as exc:
        raise UserError(str(exc)) from exc
    cfg = header["config"]
    words = load_words(cfg)
    try:
        speaker = Speaker(args.no_voice, cfg, args.speak_to)
    except ValueError as exc:
        raise UserError(str(exc)) from exc
    kept = None
    if damaged is not None:  # keep the original whole; the log goes on from the inputs before the damage
        kept = set_aside(args.log)
        log = EventLog(args.log, {k: v for k, v in header.items() if k != "voice_host_log"})
        for record in records:
            log.append(record)
    else:
        log = EventLog(args.log)
    session = Session(header, words, speaker, log)
    try:
        session.replay(records)
        speaker.attach(session)  # the file starts at the resume point
        if kept is not None:
            session.say(session.announcer.log_damaged(damaged, str(args.log), inputs(records), str(kept)))
        session.say(session.announcer.resuming(header["game"], inputs(records)))
        session.settle()  # a word said just before the break is scored before whose turn it is
        session.ask(*session.game.status_questions)
        if script is not None:
            done = max((r.get("line", 0) for r in records), default=0)
            rest = [r for r in parse_script(script) if r["line"] > done]
            run_records(session, rest, args.pace)
        else:
            run_typed(session)
        write_result(session, args.result_json)
    except KeyboardInterrupt:
        pause(session, log)
        return 130
    finally:
        speaker.close()
        log.close()
    return 0


# ---------------------------------------------------------------------- parser
def build_parser() -> argparse.ArgumentParser:
    parser = argparse.ArgumentParser(prog="voice-host", description="An offline, voice-driven host for word games.")
    sub = parser.add_subparsers(dest="command", required=True)

    def output_options(p: argparse.ArgumentParser) -> None:
        p.add_argument("--no-voice", action="store_true", help="print announcements instead of speaking them")
        p.add_argument("--result-json", metavar="OUT", help="write the result (scores, words, winners) here")
        p.add_argument("--pace", type=float, default=0.0, metavar="S", help="wait S real seconds between script lines")
        p.add_argument("--speak-to", metavar="FILE.wav",
                       help="also record everything the host says into this WAV, on the game's timeline")

    play = sub.add_parser("play", help="host a game (scripted, typed or spoken)")
    play.add_argument("--game", default="prolix-classic", choices=sorted(REGISTRY))
    play.add_argument("--players", required=True, help="names in clockwise seating order, comma-separated")
    play.add_argument("--seed", type=int, help="seed for the tile bag and the start player (default: random)")
    play.add_argument("--script", metavar="FILE", help="a scripted session to play (default: typed lines on stdin)")
    play.add_argument("--log", metavar="FILE", help="append every input to this event log (resume with it)")
    play.add_argument("--config", metavar="FILE", help="a table's own settings (TOML) over config/default.toml")
    play.add_argument("--start", metavar="NAME", help="table mode: the start player the table determined")
    play.add_argument("--board", metavar="LETTERS", help="table mode: the eight tiles, e.g. 'W B J S L C D G'")
    play.add_argument("--tie-window", type=float, metavar="S", help="seconds within which words are simultaneous")
    play.add_argument("--timer", type=float, metavar="S", help="seconds on the sand timer")
    play.add_argument("--auto-reject", action="store_true", help="refuse words missing from the dictionary at once")
    play.add_argument("--challenge-vote", action="store_true", help="uninvolved players vote before the dictionary")
    play.add_argument("--teams", metavar="TEAMS", help="Phlounder partners, e.g. Ann+Ben,Cat+Dan")
    play.add_argument("--children", metavar="NAMES", help="Phlounder: players who use the children's letter die")
    play.add_argument("--variant", metavar="NAME", help="Dexikon: quick, long or long-best5 (default: standard)")
    play.add_argument("--set-size", type=int, metavar="N", help="road game: tiles in the set, so the host counts the bag")
    play.add_argument("--audio", metavar="WAV", help="play a recorded session (the clock follows the recording)")
    play.add_argument("--channels", metavar="NAMES", help="the player on each input channel, e.g. Ann,Ben,Cat")
    play.add_argument("--engine", choices=("auto", "moonshine", "vosk", "whisper"),
                      help="speech recognizer (default: config, auto: the best installed)")
    play.add_argument("--voices", metavar="FILE", help="the table's voice prints: loaded if present, saved at the end")
    play.add_argument("--model", metavar="PATH", help="speech model directory (default: the engine's own)")
    play.add_argument("--device", metavar="DEV", help="microphone (number or name; see 'voice-host devices')")
    play.add_argument("--typed", action="store_true", help="type the inputs even when a microphone is present")
    output_options(play)
    play.set_defaults(func=cmd_play)

    resume = sub.add_parser("resume", help="continue the game an event log holds")
    resume.add_argument("log", metavar="LOG")
    resume.add_argument("--script", metavar="FILE", help="the same script: its lines already in the log are skipped")
    output_options(resume)
    resume.set_defaults(func=cmd_resume)

    for module in ("voice_host.words.cli", "voice_host.speech.cli", "voice_host.demo"):
        try:
            __import__(module, fromlist=["register"]).register(sub)
        except ImportError:
            pass
    return parser


def main(argv: list[str] | None = None) -> int:
    args = build_parser().parse_args(argv)
    try:
        return args.func(args)
    except UserError as exc:
        print(f"voice-host: {exc}", file=sys.stderr)
        return 2
    except KeyboardInterrupt:
        return 130


if __name__ == "__main__":
    sys.exit(main())
