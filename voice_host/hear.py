"""``voice-host hear``: what the host hears, for a table setting up its microphone and
to settle "what did the host hear?" from a recording.

    voice-host hear                                   # the microphone, until Ctrl-C
    voice-host hear --board "W B J S L C D G" a.wav   # a.<TAB>what was heard

Each recording is cut into utterances where the speech is (the live listener), and
heard with the language and the game's prior the game would use on that board. In a
recording, the voice near the microphone is the table's: an utterance more than
``[speech] background_below`` dB quieter than the recording's loudest is the room's
(a television, another conversation) and is left out, as a game leaves out talk far
under its players' levels (docs/HEARING.md); ``--verbose`` shows it.
"""

from __future__ import annotations

import argparse

from voice_host import app
from voice_host.app import UserError
from voice_host.games import REGISTRY
from voice_host.host import checks, output
from voice_host.host.session import Session, new_header
from voice_host.speech.recognizing import engines


def register(subparsers) -> None:
    p = subparsers.add_parser("hear", help="what the host hears: each WAV file's words, or the microphone until Ctrl-C")
    p.add_argument("wav", nargs="*", metavar="WAV", help="recordings (WAV) of something said at the table; none: "
                   "listen to the microphone")
    p.add_argument("--board", metavar="LETTERS", help="the board the words are said on, e.g. 'W B J S L C D G'")
    p.add_argument("--game", default="prolix-classic", choices=sorted(REGISTRY),
                   help=f"the game whose words and phrases to listen for: {', '.join(sorted(REGISTRY))} "
                        "(default: prolix-classic)")
    p.add_argument("--players", default="Ann,Ben,Cat", help="the names at the table (default: Ann,Ben,Cat)")
    p.add_argument("--verbose", action="store_true", help="also say how sure the host is, and the other words it "
                   "weighed")
    app.config_option(p)
    p.add_argument("--no-voice", action="store_true", help="print what was heard without saying it")
    engines.add_options(p)
    app.microphone_option(p)
    p.set_defaults(func=run)


def run(args: argparse.Namespace) -> int:
    players = [p.strip() for p in args.players.split(",") if p.strip()]
    problem = checks.option_problem(args.game, {"board": args.board})
    if problem is None and args.game in REGISTRY:
        problem = checks.players_problem(args.game, players, REGISTRY[args.game])
    if problem:
        raise UserError(problem)
    return hear(args, players, app.load_config(args.config, {}))


def table_and_room(utterances: list, below: float) -> tuple[list, list]:
    """The utterances of one recording that are the table's, and those that are the
    room's: more than `below` dB quieter than the recording's loudest (none when `below`
    is 0)."""
    from voice_host.speech.audio import speech_level

    levels = [speech_level(u.audio) if u.audio is not None else 0.0 for u in utterances]
    if not below or not levels:
        return list(utterances), []
    floor = max(levels) - below
    return ([u for u, level in zip(utterances, levels) if level >= floor],
            [u for u, level in zip(utterances, levels) if level < floor])


def second_ear_said(opinion) -> str:
    """What the second ear heard, how sure it was, how long it took and whether the ears
    agreed, as ``hear --verbose`` prints it."""
    said = f"'{opinion.reading}'" if opinion.reading else "nothing"
    verdict = "agreed" if opinion.agreed else "differed" if opinion.reading else "no opinion"
    lead = f", lead {opinion.lead:.1f}" if opinion.lead is not None else ""
    return (f"second ear: {said} ({opinion.second_confidence:.2f}, {opinion.seconds * 1000:.0f} ms), "
            f"{verdict}{lead}, confidence before {opinion.confidence:.2f}")


def hear(args, players: list[str], cfg: dict) -> int:
    """``voice-host hear``: what the host hears, with the language and the prior the game
    would use on that board. With WAV files, one line each: the path, a tab, what was
    heard (lower case); without, a microphone check that says and prints each utterance
    until Ctrl-C."""
    from voice_host.assembly import build, recognizer_for
    from voice_host.host.hearing import HearingSettings
    from voice_host.speech.listening.sources import NoInputDevice, open_source

    words = app.load_words(cfg)
    header = new_header(args.game, players, 1, cfg)
    setup = app.setup_records(None, args.board)
    problem = checks.setup_problem(lambda speak: Session(header, words, speak), setup, {"board": "--board"})
    if problem:
        raise UserError(problem)
    session = Session(header, words, lambda _: None)
    for record in setup:
        session.feed(record, quiet=True)
    session.begin(0.0, quiet=True)
    settings = HearingSettings.from_config(cfg)
    recognizer = recognizer_for(args, settings)
    listener = build(session, recognizer, None, cfg=cfg).listener  # each file its own source

    def heard(transcript) -> str:
        text = (transcript.text or "").strip().lower()
        if args.verbose:
            others = ", ".join(f"{t} ({s:.1f})" for t, s in transcript.alternatives[1:4])
            text += f"\tconfidence {transcript.confidence:.2f}" + (f"\talternatives: {others}" if others else "")
            if (opinion := getattr(recognizer, "opinion", None)) is not None:  # [speech] second_ear: its last reading
                text += "\t" + second_ear_said(opinion)
        return text

    if args.wav:  # each file as the game would hear it: cut into utterances where the speech is
        for path in args.wav:
            try:
                source = open_source(audio=path)
            except (OSError, ValueError, RuntimeError, EOFError) as exc:
                raise UserError(f"I can't read {path}: {exc}") from exc
            try:
                table, room = table_and_room(list(listener.utterances(source)), settings.background_below)
            finally:
                source.close()
            line = f"{path}\t{' / '.join(heard(u) for u in table)}"
            if args.verbose and room:
                line += f"\troom, left out: {' / '.join((u.text or '').strip().lower() for u in room)}"
            print(line, flush=True)
        return 0
    speaker = output.Speaker(args.no_voice, cfg)
    try:
        source = open_source(device=args.device)
    except (NoInputDevice, OSError) as exc:
        raise UserError(f"There is no microphone to listen to: {exc}") from exc
    print("host: Listening: say a word, Ctrl-C stops.", flush=True)
    try:
        for u in listener.utterances(source):
            speaker(heard(u) or "nothing")
    except KeyboardInterrupt:
        return 0
    finally:
        source.close()
        speaker.close()
    return 0
