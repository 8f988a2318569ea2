"""The ``voice-host`` command: play, resume, word, and the speech tools.

``voice-host play --game prolix-classic --players Ann,Ben,Cat --script game.txt
--no-voice --result-json out.json`` runs a scripted session (../shared/DESIGN.md,
"Scripted sessions"); without --script it plays typed lines from standard input.
"""

from __future__ import annotations

import argparse
import sys

from voice_host import app, demo
from voice_host.app import UserError
from voice_host.games import REGISTRY
from voice_host.host import checks
from voice_host.speech import cli as speech_cli
from voice_host.words import cli as words_cli


def overrides(args: argparse.Namespace) -> dict:
    """The options that stand for settings, as a config overlay."""
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


def cmd_play(args: argparse.Namespace) -> int:
    players = [p.strip() for p in args.players.split(",") if p.strip()]
    if len(set(p.lower() for p in players)) != len(players):
        raise UserError("Each player needs a different name.")
    problem = checks.number_problems(args.timer, args.tie_window, args.set_size, args.pace)
    if problem is None and args.game in REGISTRY:
        problem = checks.players_problem(args.game, players, REGISTRY[args.game])
    if problem:
        raise UserError(problem)
    return app.play(args, players, app.load_config(args.config, overrides(args)))


def cmd_resume(args: argparse.Namespace) -> int:
    return app.resume(args)


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

    for module in (words_cli, speech_cli, demo):
        module.register(sub)
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
