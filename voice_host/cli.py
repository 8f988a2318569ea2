"""The ``voice-host`` command: play, resume, word, and the speech tools.

``voice-host play --game prolix-classic --players Ann,Ben,Cat --script game.txt
--no-voice --result-json out.json`` runs a scripted session (../shared/DESIGN.md,
"Scripted sessions"); without --script it plays typed lines from standard input.
"""

from __future__ import annotations

import argparse
import re
import sys

from voice_host import app, demo, display, hear
from voice_host.app import UserError
from voice_host.games import REGISTRY
from voice_host.host import checks
from voice_host.speech import cli as speech_cli
from voice_host.speech.recognizing import engines
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
    if problem := checks.names_problem(args.players):
        raise UserError(problem)
    players = [p.strip() for p in args.players.split(",") if p.strip()]
    if problem := checks.name_problem(players):
        raise UserError(problem)
    if len(set(p.lower() for p in players)) != len(players):
        raise UserError("Each player needs a different name.")
    problem = checks.option_problem(args.game, vars(args))  # another game's option is never silently ignored
    problem = problem or checks.number_problems(args.timer, args.tie_window, args.set_size, args.pace)
    if problem is None and args.game in REGISTRY:
        problem = checks.players_problem(args.game, players, REGISTRY[args.game])
        if problem and len(players) == 1 and len(apart := re.split(r"[;|/\s]+", players[0].strip())) > 1:
            problem = (f"'{players[0]}' is one name to me, and {args.game} needs more players: separate the names "
                       f"with commas, --players {','.join(apart)}.")
    if problem:
        raise UserError(problem)
    return app.play(args, players, app.load_config(args.config, overrides(args)))


def cmd_resume(args: argparse.Namespace) -> int:
    return app.resume(args)


# ---------------------------------------------------------------------- parser
CHOICES = {"game": "game", "engine": "speech engine", "command": "command", "models_command": "models command"}
"""What each option with a fixed set of values chooses, as a bad choice's sentence names it."""

NUMBERS = {"timer": "a number of seconds", "tie_window": "a number of seconds", "pace": "a number of seconds",
           "seed": "a whole number", "set_size": "a whole number of tiles", "display_port": "a port number"}
"""What each number option takes, as a value that is no number is answered
("--timer needs a number of seconds, not 'abc'.")."""

MISSING = {
    "players": "Say who is playing: --players and their names in clockwise seating order, e.g. --players Ann,Ben,Cat.",
    "log": "Say which game to carry on: voice-host resume and its event log, e.g. voice-host resume game.log.",
    "words": "Say which words to check, e.g. voice-host word jewelers geese.",
}
"""What a command says when a value it cannot do without (by dest) is not given."""


def listed(items: list[str], last: str = "or") -> str:
    """"a, b or c"."""
    return ", ".join(items[:-1]) + f" {last} " + items[-1] if len(items) > 1 else items[0]


def option_name(action: argparse.Action) -> str:
    """How the command line writes an option (its long form) or a positional."""
    longs = [o for o in action.option_strings if o.startswith("--")]
    return (longs or action.option_strings or [action.metavar or action.dest])[0]


class Parser(argparse.ArgumentParser):
    """argparse's parser, saying each of the command line's mistakes in one sentence (a
    bad choice names the choices, a value that is no number says what the option takes,
    a missing or unknown option says what to do), raised as ``UserError`` instead of
    the whole usage text. Subcommands' parsers are this class too (argparse makes them
    of their parent's class)."""

    def _check_value(self, action: argparse.Action, value) -> None:
        if action.choices is not None and value not in action.choices:
            what = CHOICES.get(action.dest, action.dest.replace("_", " "))
            raise UserError(f"There is no {what} called {value}; choose one of {listed([str(c) for c in action.choices])}.")

    def _get_value(self, action: argparse.Action, arg_string: str):
        try:
            return super()._get_value(action, arg_string)
        except argparse.ArgumentError:
            kind = {int: "a whole number", float: "a number"}.get(action.type, "something else")  # type: ignore[call-overload]
            raise UserError(f"{option_name(action)} needs {NUMBERS.get(action.dest, kind)}, not '{arg_string}'.") from None

    def parse_args(self, args=None, namespace=None):  # type: ignore[override]
        parsed, extra = self.parse_known_args(args, namespace)
        if extra:
            command = " ".join([self.prog, *[getattr(parsed, d) for d in ("command", "models_command")
                                               if getattr(parsed, d, None)]])
            if extra[0].startswith("-"):
                raise UserError(f"There is no option {extra[0]} for {command}; {command} --help lists them.")
            if hasattr(parsed, "players"):  # most likely names with spaces after the commas
                raise UserError(f"{command} does not know what '{extra[0]}' is: put quotes around a value with "
                                "spaces in it, e.g. --players 'Ann, Ben, Cat'.")
            raise UserError(f"{command} does not know what '{extra[0]}' is; {command} --help says what it takes.")
        return parsed

    def error(self, message: str):  # type: ignore[override]
        raise UserError(self.sentence(message))

    def action_named(self, name: str) -> argparse.Action | None:
        """This parser's option or positional that argparse's messages call ``name``."""
        return next((a for a in self._actions if name in a.option_strings or name in (a.metavar, a.dest)), None)

    def sentence(self, message: str) -> str:
        """argparse's error ``message`` as one sentence a player understands."""
        if m := re.match(r"the following arguments are required: ([^,]+)", message):
            action = self.action_named(m.group(1))
            if isinstance(action, argparse._SubParsersAction):
                return (f"Say what to do: {self.prog} {listed(list(action.choices))} "
                        f"({self.prog} --help says what each does).")
            if action is not None and action.dest in MISSING:
                return MISSING[action.dest]
            return f"{self.prog} needs {m.group(1)}: {self.plain_help(action)}."
        if m := re.match(r"ambiguous option: (-[^\s=]+)\S* could match (.*)", message):
            return f"{m.group(1)} could be {listed(m.group(2).split(', '))}: write the option out in full."
        if m := re.match(r"argument (\S+): (.*)", message):
            name, problem = m.group(1).split("/")[-1], m.group(2)
            action = self.action_named(name)
            if problem.startswith("expected") and action is not None:
                if action.dest in NUMBERS:
                    return f"{name} needs {NUMBERS[action.dest]} after it."
                return f"{name} needs a value after it ({self.plain_help(action)})."
            if problem.startswith("ignored explicit argument"):
                return f"{name} takes no value: say just {name}."
            return f"{name} can't be given like that ({problem}); {self.prog} --help says how."
        return f"{message[:1].upper()}{message[1:]}; {self.prog} --help says how to use it."

    @staticmethod
    def plain_help(action: argparse.Action | None) -> str:
        """An option's help, without what it says in brackets (its default)."""
        return re.sub(r"\s*\([^()]*\)", "", action.help or "") if action is not None else "see --help"


def output_options(p: argparse.ArgumentParser) -> None:
    """Where the host's answers go, and the result."""
    p.add_argument("--no-voice", action="store_true", help="print announcements instead of speaking them")
    p.add_argument("--result-json", metavar="OUT",
                   help="write the result (scores, words, winners) here, at the end or when stopped")
    p.add_argument("--pace", type=float, default=0.0, metavar="S", help="play a script slowly: wait S seconds between "
                   "its lines")
    p.add_argument("--speak-to", metavar="FILE.wav",
                   help="also record everything the host says into this WAV, on the game's timeline")
    display.add_options(p)


def game_name(text: str) -> str:
    """A --game value as the games are named: "Phlounder" and "Prolix Classic" are phlounder and prolix-classic."""
    return "-".join(text.strip().lower().replace("_", " ").split())


def game_options(p: argparse.ArgumentParser) -> None:
    """The game, its players, and the files it reads and writes."""
    p.add_argument("--game", default="prolix-classic", choices=sorted(REGISTRY), type=game_name,
                   help=f"the game to host: {listed(sorted(REGISTRY))} (default: prolix-classic)")
    p.add_argument("--players", required=True, help="names in clockwise seating order, comma-separated")
    p.add_argument("--seed", type=int, help="a number that fixes the tiles drawn and the start player, to play the "
                   "same game again (default: random)")
    p.add_argument("--script", metavar="FILE", help="a file of inputs, one a line ('Ann: jewelers', '@draw M N'), "
                   "played in order (default: type them)")
    p.add_argument("--log", metavar="FILE", help="save every input to FILE as the game goes, so 'voice-host resume "
                   "FILE' can carry on after a stop")
    app.config_option(p)


def table_options(p: argparse.ArgumentParser) -> None:
    """Table mode and the table's rules (settings: see ``overrides``)."""
    p.add_argument("--start", metavar="NAME", help="playing with real tiles: the player your table drew to start")
    p.add_argument("--board", metavar="LETTERS", help="playing with real tiles: the eight tiles on the table, "
                   "e.g. 'W B J S L C D G'")
    p.add_argument("--tie-window", type=float, metavar="S", help="words said within S seconds of each other count as "
                   "said together (a tiebreaker decides)")
    p.add_argument("--timer", type=float, metavar="S", help="seconds on the sand timer")
    p.add_argument("--auto-reject", action="store_true", help="refuse words missing from the dictionary at once")
    p.add_argument("--challenge-vote", action="store_true", help="on a challenge, the players not involved vote "
                   "before the dictionary decides")


def family_options(p: argparse.ArgumentParser) -> None:
    """One game family's own settings."""
    p.add_argument("--teams", metavar="TEAMS", help="Phlounder partners, e.g. Ann+Ben,Cat+Dan")
    p.add_argument("--children", metavar="NAMES", help="Phlounder: players who use the children's letter die")
    p.add_argument("--variant", metavar="NAME", help="Dexikon: quick, long or long-best5 (default: standard)")
    p.add_argument("--set-size", type=int, metavar="N", help="road game: how many tiles your set has, so the host "
                   "counts what is left in the bag")


def speech_options(p: argparse.ArgumentParser) -> None:
    """Playing by voice: the recording or microphone, the recognizer, the voice prints."""
    p.add_argument("--audio", metavar="WAV", help="play from a recording of the table (WAV) instead of the microphone")
    p.add_argument("--channels", metavar="NAMES", help="a microphone each: the player on each input channel, in "
                   "order, e.g. Ann,Ben,Cat")
    engines.add_options(p)
    p.add_argument("--voices", metavar="FILE", help="a file of the table's voices: known players need not introduce "
                   "themselves; saved at the end")
    app.microphone_option(p)
    p.add_argument("--phones", action="store_true", help="each player's phone as their microphone: the page "
                   "(HTTPS, on this network) and a join code are printed; implies --display")
    p.add_argument("--typed", action="store_true", help="type lines instead of speaking, even when a microphone is "
                   "present")


def installed_version() -> str:
    """This package's version, as installed (pyproject.toml's)."""
    from importlib.metadata import PackageNotFoundError, version

    try:
        return version("voice-host")
    except PackageNotFoundError:  # run from a checkout that was never installed
        return "(not installed)"


def build_parser() -> argparse.ArgumentParser:
    parser = Parser(prog="voice-host", description="An offline, voice-driven host for word games.")
    parser.add_argument("--version", action="version", version=f"voice-host {installed_version()}",
                        help="say which version of voice-host this is")
    sub = parser.add_subparsers(dest="command", required=True,
                                help="what to do ('voice-host COMMAND --help' says more about each)")

    play = sub.add_parser("play", help="host a game (scripted, typed or spoken)")
    for options in (game_options, table_options, family_options, speech_options, output_options):
        options(play)
    play.set_defaults(func=cmd_play)

    resume = sub.add_parser("resume", help="carry on a stopped game from its saved log")
    resume.add_argument("log", metavar="LOG", help="the game's event log: the file given to --log, or the one the "
                                                   "host named when the game stopped")
    resume.add_argument("--script", metavar="FILE", help="the same script file: its lines already in the log are "
                        "skipped")
    resume.add_argument("--phones", action="store_true", help="each player's phone as their microphone again, with "
                        "a fresh join code (the page and the code are printed); implies --display")
    resume.add_argument("--device", metavar="DEV", help="with --phones: the table's microphone (number or name)")
    engines.add_options(resume)
    output_options(resume)
    resume.set_defaults(func=cmd_resume)

    for module in (hear, words_cli, speech_cli, demo):
        module.register(sub)
    return parser


def main(argv: list[str] | None = None) -> int:
    try:
        args = build_parser().parse_args(argv)
        return args.func(args)
    except UserError as exc:
        print(f"voice-host: {exc}", file=sys.stderr)
        return 2
    except KeyboardInterrupt:
        return 130


if __name__ == "__main__":
    sys.exit(main())
