"""The ``voice-host play`` and ``resume`` commands and the loops each input runs in.

``play`` and ``resume`` (whose options cli.py parses) set up the session, its log, the
speaker and the scoreboard, and run one loop: ``run_records`` (a script), ``run_typed``
(typed lines) or, by voice, voice_host.assembly.run_by_voice (the live host built from
its stages, run by voice_host.by_voice's loops); both share one ending (Ctrl-C, result,
close).
"""

from __future__ import annotations

import json
import select
import shlex
import sys
import time
from contextlib import contextmanager
from pathlib import Path
from typing import Callable, Iterable

from voice_host import config
from voice_host.assembly import open_input, run_by_voice, scoreboard
from voice_host.display import announcement
from voice_host.errors import UserError
from voice_host.games.events import Refused
from voice_host.host import checks, intents, output, phrases
from voice_host.host.log import EventLog, keep_damaged
from voice_host.host.script import parse_line, parse_script
from voice_host.host.session import Session, new_header
from voice_host.messages import Directive, Record, Said, Unreadable, Wait


class EndOfInput(Exception):
    """Ctrl-D at a terminal before the game is over: typed play stops there, saved, as at Ctrl-C."""


Speaker = output.Speaker
"""Prints every announcement as ``host: ...``, says it (unless --no-voice), records it
(--speak-to), with earcons: voice_host/host/output.py."""


def load_words(cfg: dict):
    from voice_host.words import Words
    from voice_host.words.lexicon import LexiconSettings

    return Words.load(LexiconSettings.from_config(cfg))


def config_option(p) -> None:
    """``--config``, the table's settings file (read by :func:`load_config`), as every
    command that reads the settings takes it."""
    p.add_argument("--config", metavar="FILE", help="your table's settings file (TOML): what it sets replaces "
                   "config/default.toml's")


def microphone_option(p) -> None:
    """``--device``, the microphone to listen to, as every command that listens to one takes it."""
    p.add_argument("--device", metavar="DEV", help="microphone (number or name; see 'voice-host devices')")


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
    except config.SettingsProblem as exc:  # a key or value the host can't use, with the nearest known key
        raise UserError(str(exc)) from None
    except (OSError, ValueError) as exc:  # tomllib.TOMLDecodeError is a ValueError
        raise UserError(f"I can't use the settings in {path}: {exc}.") from None


# ---------------------------------------------------------------------- the loops
def run_records(session: Session, records: Iterable[Record], pace: float = 0.0) -> None:
    """Feed script records in order; the game begins at the first record that needs it."""
    for record in records:
        if pace:
            time.sleep(pace)
        session.play(record)
    session.begin(session.t)
    session.settle()


def run_typed(session: Session, stream=None, *, after: float | None = None) -> None:
    """Typed play: one ``Name: words`` or ``@directive`` per line.

    At a terminal the clock is real time (timers run out while nobody types; when the
    clock changes the game, the log marks the time, so that a resume after a kill finds
    the timer run out too); piped input is read like a script, one second per line
    (``after``: the time of the last line typed, by default the session's time).
    """
    stream = stream or sys.stdin
    interactive = stream.isatty()
    start = time.monotonic() - session.t
    session.begin(session.t)
    if interactive:
        print("host: Type 'Name: word' lines; 'Name: help' for commands; Ctrl-D or Ctrl-C stops and saves.",
              flush=True)
    t_prev = session.t if after is None else after
    while True:
        if interactive:
            ready, _, _ = select.select([stream], [], [], 0.2)
            if not ready:
                if session.tick(time.monotonic() - start) and session.log is not None:
                    session.feed(Wait(session.t, 0, pause=True), quiet=True)  # a mark of the clock, not an input
                continue
        raw = stream.readline()
        if not raw:
            if interactive and not session.game.finished:
                raise EndOfInput  # a live game is stopped, not ended: say the standings and how to resume
            break
        now = (time.monotonic() - start) if interactive else None
        record = parse_line(raw, t_prev if now is None else now - 1.0, 0)
        if record is None:
            continue
        session.tick(record.t)
        session.feed(record)
        t_prev = record.t
    session.settle()


# ---------------------------------------------------------------------- play / resume
def setup_records(start: str | None, board: str | None) -> list[Directive]:
    """--start and --board as the table-mode directives they stand for."""
    setup = []
    if start:
        setup.append(Directive(0.0, "start", (start,), 0))
    if board:
        setup.append(Directive(0.0, "board", tuple(board.replace(",", " ").split()), 0))
    return setup


def interactive(args) -> bool:
    """Played live at a terminal or by voice (not a script, a recording or piped lines)."""
    return not args.script and not args.audio and sys.stdin.isatty()


def auto_log_path(game: str) -> Path:
    """Where a live game is saved when no --log is given, so Ctrl-C never loses it."""
    import platformdirs

    folder = Path(platformdirs.user_data_dir("voice-host")) / "games"
    return folder / f"{game}-{time.strftime('%Y%m%d-%H%M%S')}.log"


def inputs(records: list[Record]) -> int:
    """The inputs a log holds: lines said, typed or scripted (not the game's own marks)."""
    return sum(1 for r in records if isinstance(r, (Said, Directive, Unreadable))
               or (isinstance(r, Wait) and not r.pause))


RESUMED = {"phones": "--phones", "no_voice": "--no-voice", "engine": "--engine", "model": "--model",
           "device": "--device", "display_host": "--display-host", "display_port": "--display-port",
           "result_json": "--result-json"}
"""The options of a game that ``voice-host resume`` takes again (by dest), in the order written."""
NOT_RESUMED = {"voices": "the players say who they are again", "channels": "a resumed game is typed, or heard "
               "through --phones", "speak_to": "it would record over what the game has"}
"""The options resume cannot bring back (by dest), each with what happens without it."""


def resume_options(args, microphone: bool = False) -> tuple[str, list[str]]:
    """How ``args`` (play's or resume's) are written again after ``voice-host resume LOG``,
    so the game comes back the way it was played (its phones, its page, its voice), and
    what the resume leaves out, said with what happens without it (``microphone``: the
    game was heard on the laptop's microphone, which a resume does not bring back)."""
    kept = []
    for dest, option in RESUMED.items():
        value = getattr(args, dest, None)
        if dest == "device" and not getattr(args, "phones", False):
            value = None  # resume's --device is the table's microphone beside the phones
        if value is True:
            kept.append(option)
        elif value not in (None, False):
            kept.append(f"{option} {shlex.quote(str(value))}")
    if getattr(args, "display", False) and not getattr(args, "phones", False):
        kept.insert(0, "--display")  # --phones implies it
    left = [f"--{dest.replace('_', '-')} {shlex.quote(str(getattr(args, dest)))} ({why})"
            for dest, why in NOT_RESUMED.items() if getattr(args, dest, None)]
    if microphone and not getattr(args, "channels", None):  # resume hears only phones
        left.append("the microphone (a resumed game is typed, or heard through --phones)")
    return " ".join(kept), left


def pause(session: Session, log: EventLog | None, options: tuple[str, list[str]] = ("", [])) -> None:
    """Ctrl-C (or Ctrl-D at a terminal): score what was said just before, keep the clock,
    say the standings and how to carry on (``options``: resume_options, what the resume
    command brings back and what it leaves out)."""
    try:
        session.settle(windows=False)  # a window the table could still act in stays open for the resume
        if log is not None:
            session.feed(Wait(session.t, 0, pause=True))  # a timer's time left survives the break
        session.ask("scores")  # after the end: the final result
    except Exception:  # the game is saved input by input: nothing more to keep
        pass
    if session.game.finished:  # nothing to carry on
        return
    if log is None:
        session.say(session.announcer.not_saved())
    else:
        kept, left = options
        command = " ".join(x for x in (shlex.quote(str(log.path)), kept) if x)  # the log, then the options
        say = session.announcer.saved_until if log.failed is not None else session.announcer.saved
        session.say(say(command))
        if left:
            session.say(f"That command leaves out {listed(left)}.")


def listed(items: list[str]) -> str:
    """"a, b and c"."""
    return ", ".join(items[:-1]) + " and " + items[-1] if len(items) > 1 else items[0]


def _run(session: Session, speaker, log: EventLog | None, body: Callable[[], None], result_json: str | None,
         options: tuple[str, list[str]] = ("", []), display=None) -> int:
    """Run a game to its end (or Ctrl-C or Ctrl-D, saved), write its result (the sheets so
    far, when stopped), close what it opened."""
    code = 0
    try:
        try:
            body()
        except EndOfInput:
            pause(session, log, options)
        except KeyboardInterrupt:
            pause(session, log, options)
            code = 130
        if result_json:
            try:
                Path(result_json).write_text(json.dumps(session.result(), indent=2) + "\n", encoding="utf-8")
            except OSError as exc:
                print(f"voice-host: I can't write the result to {result_json}: {exc.strerror or exc}.",
                      file=sys.stderr)
                code = code or 1
    except KeyboardInterrupt:  # a second Ctrl-C while saving
        code = 130
    finally:
        close(speaker, display)
        if log:
            log.close()
    return code


@contextmanager
def opened_input(args, phones, by_voice: bool):
    """What the game hears (assembly.open_input), recording from now and closed after the
    game; None for a game not played by voice, or a sentence saying why there is no
    microphone."""
    heard = open_input(args, phones) if by_voice else None
    try:
        yield heard
    finally:
        if heard is not None and not isinstance(heard, str):
            heard.close()


def close(speaker, display) -> None:
    """Let the host finish speaking, then close the page (each may be None)."""
    try:
        if speaker is not None:
            speaker.close()
    finally:
        if display is not None:
            display.close()


def attach(session: Session, speaker, display) -> None:
    """The voice and the page (when there is one) follow ``session``'s game from now on."""
    speaker.attach(session)
    if display is not None:
        display.follow(session)


def watching(display) -> tuple:
    """The session's watchers: the page, where there is one."""
    return (display,) if display is not None else ()


def open_speaker(args, cfg: dict, display) -> Speaker:
    """The host's voice and its recording (--speak-to); the page is closed again when
    there can be none (a UserError)."""
    try:
        return Speaker(args.no_voice, cfg, getattr(args, "speak_to", None))
    except ValueError as exc:
        close(None, display)
        raise UserError(str(exc)) from exc


def play(args, players: list[str], cfg: dict) -> int:
    """``voice-host play``: a new game from a script, typed lines, a recording or the table."""
    setup = setup_records(args.start, args.board)
    try:
        script = checks.read_text(args.script, "script") if args.script else None
        header = new_header(args.game, players, args.seed, cfg, script=args.script)
        words = load_words(cfg)
        problem = checks.setup_problem(lambda speak: Session(header, words, speak), setup,
                                       {"start": "--start", "board": "--board"})
        if problem is None and args.audio and args.channels:
            problem = checks.channels_problem(args.audio, args.channels)
        if problem:  # a bad setup option stops here: the game never starts on the host's own board
            raise UserError(problem)
        if args.log and (problem := EventLog.unusable(args.log)):  # before a join code is shown, or the voice loads
            raise UserError(problem)
        phones = None
        if getattr(args, "phones", False):
            if args.audio or args.script or args.channels:
                raise UserError("--phones listens to the players' phones live; it can't be used with --audio, "
                                "--script or --channels.")
            from voice_host.phones import Phones
            phones = Phones(players)
        display = scoreboard(args, phones)  # a port it can't have is said before the voice loads
        speaker = open_speaker(args, cfg, display)
        live = interactive(args) or phones is not None  # a phones game is live with or without a terminal
        log_path = args.log or (auto_log_path(args.game) if live else None)
        try:
            log = EventLog(log_path, header, opening=setup) if log_path else None  # the table's setup with the header
        except (OSError, ValueError) as exc:
            close(speaker, display)
            if not isinstance(exc, OSError) or exc.errno is None:  # a log that holds a game already: its sentence
                raise
            raise UserError(f"I can't save the game in {log_path}: {exc.strerror or exc}.") from None
        session = Session(header, words, speaker, log, earcon=speaker.earcons, watch=watching(display))
        attach(session, speaker, display)
    except (ValueError, FileExistsError) as exc:
        raise UserError(str(exc)) from exc

    by_voice = script is None and (phones is not None or args.audio or (not args.typed and sys.stdin.isatty()))

    def body() -> None:
        with opened_input(args, phones, by_voice) as heard:  # before the host says a word
            if log is not None and live:  # a live game: where it is kept, before it starts
                session.say(session.announcer.saving(str(log.path)))
            if display is not None and interactive(args):  # and where the table can watch it
                session.say(announcement(display))
            if phones is not None:
                session.say(session.announcer.phones_join(phones.url, phones.code))
            for record in setup:  # in the log already: written with its header, so no kill falls between
                session.feed(record, logged=False)
            if script is not None:
                run_records(session, parse_script(script), args.pace)
            elif heard is not None:
                run_by_voice(session, cfg, args, heard, speaker, phones=phones, typed=run_typed)
            else:
                run_typed(session)

    microphone = by_voice and phones is None and not args.audio
    return _run(session, speaker, log, body, args.result_json, resume_options(args, microphone), display)


def resume(args) -> int:
    """``voice-host resume LOG``: replay the log, then go on (the rest of a script, or typing)."""
    try:
        header, records, damaged = EventLog.salvage(args.log)
        script = checks.read_text(args.script, "script") if args.script else None
    except ValueError as exc:
        raise UserError(str(exc)) from exc
    words = load_words(header.config)
    phones = None
    if getattr(args, "phones", False):
        if script is not None:
            raise UserError("--phones listens to the players' phones live; it can't be used with --script.")
        from voice_host.phones import Phones
        phones = Phones(header.players)  # a fresh code: the old one was said to the table before the break
    display = scoreboard(args, phones)
    speaker = open_speaker(args, header.config, display)
    kept = None
    try:
        if damaged:  # keep the original whole; the log goes on without the lines it could not read
            kept = keep_damaged(args.log)
            log = EventLog.rewrite(args.log, header, records)
        else:
            log = EventLog(args.log)
    except OSError as exc:
        close(speaker, display)
        raise UserError(f"I can't save the game in {args.log}: {exc.strerror or exc}.") from None
    try:
        session = Session(header, words, speaker, log, earcon=speaker.earcons, watch=watching(display))
    except ValueError as exc:  # a header this game cannot be set up from
        log.close()
        close(speaker, display)
        raise UserError(str(exc)) from exc

    def body() -> None:
        with opened_input(args, phones, phones is not None and script is None) as heard:
            resumed(heard)

    def resumed(heard) -> None:
        session.replay(records)
        attach(session, speaker, display)  # the file from the resume point, the page as the log left it
        if kept is not None:
            session.say(session.announcer.log_damaged(damaged, str(args.log), inputs(records), str(kept)))
            if changed := blamed(session, damaged[0].before):
                session.say(session.announcer.meanings_after_damage(changed))
        session.say(session.announcer.resuming(header.game, inputs(records)))
        last, stream, rest = session.t, sys.stdin, None
        live = script is None and (stream.isatty() or phones is not None)
        if display is not None and live:
            session.say(announcement(display))
        if phones is not None:
            session.say(session.announcer.phones_join(phones.url, phones.code))
        if script is not None:
            done = max((r.line or 0 for r in records if hasattr(r, "line")), default=0)
            rest = [r for r in parse_script(script) if r.line > done]
            upcoming = rest[0].t if rest else None
        elif live:  # like a break at Ctrl-C, what was said just before is scored now
            upcoming = None
        else:  # piped lines go on at their own times, as if nothing had happened
            stream, upcoming = _peek(stream, last)
        if upcoming is None:  # the end of the input, or a live break: the words said are scored
            session.settle(windows=not live)  # at a terminal the table may still act: a window stays open
        elif session.begun:
            session.tick(upcoming)  # what the clock settles before the next input, said before whose turn it is
        if session.begun:  # a log of its header alone: the game begins as it would have, no empty board read
            session.ask(*session.game.status_questions)
        if rest is not None:
            run_records(session, rest, args.pace)
        elif heard is not None:
            run_by_voice(session, header.config, args, heard, speaker, phones=phones)
        else:
            run_typed(session, stream, after=last)

    return _run(session, speaker, log, body, args.result_json, resume_options(args), display)


ASKED = (set(intents.QUESTIONS) - {"check"}) | {"repeat", "help", "spell", "brief", "full", "undo"}
"""What a player asks of the host (a question, a command to the host itself): answered or
refused the same whatever a lost line held, as it changes no game (Dexikon's "check" is a move)."""


def blamed(session: Session, first: int) -> list[tuple[str, str]]:
    """Session.meanings_after(first), less the refusals a line lost before them cannot have
    caused: a question or a command to the host, what no game's phrase reads (a mumble),
    and a word no game takes (an apostrophe, a hyphen) were refused in the original game too."""
    anyway = set()
    for record in session.records[first:]:
        if isinstance(record, Said):
            intent = intents.parse(record.text, session.players)
            meant = intent.kind
            player = intents.find_player(record.speaker, session.players) or record.speaker
            t = record.t or 0.0
            unread = meant == "unclear" and phrases.parse(session.header.game, record.text, player, t) is None
            untakable = meant == "word" and isinstance(phrases.common.action(intent, player, t, session.players),
                                                       Refused)
            if meant in ASKED or unread or untakable:
                anyway.add(f"{record.speaker}'s '{record.text}'")
    return [(what, how) for what, how in session.meanings_after(first) if not (how == "refused" and what in anyway)]


class _Peeked:
    """A stream of typed lines with its first lines read ahead (``readline`` gives them again)."""

    def __init__(self, lines: list[str], stream) -> None:
        self.lines, self.stream = lines, stream

    def isatty(self) -> bool:
        return False

    def readline(self) -> str:
        return self.lines.pop(0) if self.lines else self.stream.readline()


def _peek(stream, t_prev: float) -> tuple[_Peeked, float | None]:
    """Piped lines, and the time of the first input among them (None: there is none)."""
    read = []
    while raw := stream.readline():
        read.append(raw)
        record = parse_line(raw, t_prev, 0)
        if record is not None:
            return _Peeked(read, stream), record.t
    return _Peeked(read, stream), None
