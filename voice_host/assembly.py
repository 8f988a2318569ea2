"""The live host, built in one place: every game heard by voice is assembled here.

    source -> listener (with the recognizer) -> hearing -> session -> speaker (voice, scoreboard)

:func:`build` makes the stages of one game from its parts, each given what it needs
when it is built: the listener its recognizer, the table's players and channels, the
voice prints and the host's voice (on the source's clock, so the echo gate and the voice
share one timeline); the hearing the session, its settings, the voice prints, the
listener as its :class:`~voice_host.host.hearing.Ears` (:class:`EngineEars`: told only
what the engine can take) and the seconds the host's voice spoke; the live loop's
:class:`~voice_host.by_voice.Floor` the voice and the heard tick. voice_host.by_voice
runs what it built (``play_recording``, ``play_live``). ``voice-host play`` and
``resume`` (:func:`run_by_voice`), ``demo``, ``hear``, benchmarks/latency.py and
benchmarks/table.py all build their host here, so a benchmark measures the host that
plays.

The host's web server (voice_host.web) is composed here too: the scoreboard
(voice_host.display) and, with ``--phones``, the players' page (voice_host.phones)
mounted on one server (:func:`scoreboard`, :func:`serve_phones`). With ``--phones`` the
table's requests about the phones are answered before the hearing sees them
(:func:`table_requests`), and what is typed at the host's terminal is read
(:func:`typed_requests`).
"""

from __future__ import annotations

import os
import re
import sys
from dataclasses import dataclass, replace
from pathlib import Path
from typing import Callable

from voice_host.by_voice import Floor, play_live, play_recording
from voice_host.errors import UserError
from voice_host.host.hearing import Hearing, HearingSettings
from voice_host.host.script import parse_line
from voice_host.messages import Directive, Said
from voice_host.speech.listening.config import TurnConfig


class EngineEars:
    """The listener as the hearing tells it what comes next (host.hearing.Ears), told only
    what its engine declares it can take (the recognizer's ``searches``,
    ``takes_phrases``): moonshine searches a whole language (a prompt or grammar
    would not help it), whisper is biased by a prompt of the phrases expected (a vosk
    grammar would shut out other words), vosk is told neither. The table's level is
    told it with one microphone (voice prints), where the room's talk is cut off."""

    def __init__(self, listener, recognizer, one_microphone: bool) -> None:
        self.listener = listener
        self.searches = getattr(recognizer, "searches", False)  # what the engine declares it takes
        self.prompted = getattr(recognizer, "takes_phrases", False)
        self.one_microphone = one_microphone

    def constrain(self, sayable) -> None:
        if self.searches:
            self.listener.constrain(sayable)

    def expect(self, phrases: list[str] | None) -> None:
        if self.prompted:
            self.listener.expect(phrases)

    def hear_above(self, level_db: float | None) -> None:
        if self.one_microphone:
            self.listener.hear_above(level_db)


@dataclass
class LiveHost:
    """The stages of one game heard by voice, as :func:`build` made them."""

    session: object
    """host.session.Session: the game, its log and what the host says."""
    hearing: Hearing
    listener: object
    """speech.listening.turns.Listener, with its recognizer."""
    source: object
    """speech.listening.sources.AudioSource: the microphone, the phones or a recording."""
    floor: Floor
    """Who is speaking now (the live loop's clock waits for them), and the heard tick."""
    hear: Callable[[object], None]
    """What is done with each utterance heard: the hearing's, after the phones' requests."""
    channel_players: list | None = None
    notices: Callable[[], list[str]] | None = None
    """Sentences to say from the game's thread (a phone joined or lost, typed requests)."""

    def play_recording(self) -> None:
        play_recording(self)

    def play_live(self) -> None:
        play_live(self)


def build(session, recognizer, source, *, cfg: dict | None = None, settings: HearingSettings | None = None,
          turns: TurnConfig | None = None, voice=None, speaker=None, channel_players=None, voiceprints=None,
          on_hear=None, acknowledge=None, notices=None, phones=None, recording: bool = False) -> LiveHost:
    """The live host for ``session``, hearing ``source`` through ``recognizer`` (None: the
    caller hands the listener its own sources, as ``voice-host hear`` does each file).

    ``cfg``: the settings' sections (``[speech]``, ``[listening]``), unless ``settings``
    (HearingSettings) or ``turns`` (TurnConfig) are given; neither: the defaults.
    ``voice``: the host's voice at a live table (the echo gate, barge-in, the seconds it
    spoke); ``speaker`` (host.output.Speaker): the heard tick when its earcons are on
    (else ``acknowledge``), and with ``recording`` its --speak-to file on the
    recording's timeline. ``channel_players``: a channel per player (attribution by
    channel), else one microphone and ``voiceprints``. ``on_hear``: shown each utterance.
    ``phones`` (voice_host.phones.Phones): the table's requests about them are answered
    first. ``notices``: sentences to say as the game goes.
    """
    from voice_host.host import output
    from voice_host.speech.listening.sources import local_channels
    from voice_host.speech.listening.turns import Listener

    settings = settings or (HearingSettings.from_config(cfg) if cfg is not None else HearingSettings())
    turns = turns or (TurnConfig.from_config(cfg) if cfg is not None else TurnConfig())
    if recording and speaker is not None and speaker.file is not None:
        source = output.Timeline(source)  # --speak-to: the host answers where the recording has got to
        speaker.follow(lambda: max(session.t, source.now))
    clock = getattr(source, "clock", None)
    if voice is not None and callable(clock) and hasattr(voice, "follow"):
        # the host's speech on the microphone's timeline, as the echo canceller and gate hear it
        voice.follow(clock, getattr(source, "started_at", None),
                     steady=bool(turns.echo_cancel and local_channels(source)))
    if acknowledge is None and speaker is not None and speaker.settings.earcons:
        acknowledge = lambda: speaker.cue("heard")  # noqa: E731
    floor = Floor(voice, acknowledge)
    prints = None if channel_players else voiceprints
    on_event = traced(floor.event) if os.environ.get("VOICE_HOST_TRACE") else floor.event
    listener = Listener(recognizer, session.players, channel_players, prints, voice, config=turns,
                        on_event=on_event)
    spoke = voice_time(voice, session.t) if getattr(voice, "history", None) is not None else None
    hearing = Hearing(session, session.words, settings, on_hear=on_hear, voiceprints=voiceprints,
                      ears=EngineEars(listener, recognizer, prints is not None), host_speech=spoke)
    hear = table_requests(hearing.hear, session, phones, channel_players) if phones is not None else hearing.hear
    return LiveHost(session, hearing, listener, source, floor, hear, channel_players, notices)


def traced(on_event):
    """``on_event`` with each of the listener's events but partial words printed to
    standard error first (VOICE_HOST_TRACE=1): when the host did not hear a word, whether
    anyone was heard speaking, and why what was heard was set aside."""
    from voice_host.speech.listening.turns import Partial

    def event(e) -> None:
        if not isinstance(e, Partial):
            print(f"listener: {e}", file=sys.stderr, flush=True)
        on_event(e)
    return event


def voice_time(voice, offset: float):
    """Seconds ``voice`` spoke sentences between two times of the game clock (its
    history is on the microphone's clock, ``offset`` behind the game's; earcons are not
    sentences): what the hearing leaves out of a player's time to answer."""
    def spoke(since: float, until: float) -> float:
        a, b = since - offset, until - offset
        return sum(max(0.0, min(r.end, b) - max(r.start, a)) for r in list(voice.history) if r.earcon is None)
    return spoke


def recognizer_for(args, settings: HearingSettings):
    """The recognizer `--engine` and `--model` ask for, else the ``[speech]`` settings'
    engine and weights (HearingSettings); a sentence when it can't be had."""
    from voice_host.speech.recognizing.engines import make_recognizer
    from voice_host.speech.recognizing.moonshine.adapted import recognizer_options

    engine = getattr(args, "engine", None) or settings.engine
    try:
        return make_recognizer(engine, getattr(args, "model", None), **recognizer_options(
            settings.model, engine, settings.second_ear))
    except Exception as exc:  # no model installed: the message says what to run
        raise UserError(str(exc)) from exc


def table_voices(path: str | None):
    """The table's voice prints: loaded from ``--voices FILE`` when it exists (saved there
    at the end); None when voice prints cannot run here (the name said first still works)."""
    try:
        from voice_host.speech.listening.voiceprint import VoicePrints

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


# ---------------------------------------------------------------------- play and resume by voice
def open_input(args, phones=None):
    """What a game played by voice hears, recording from now: open it before the host says
    a word, so that a word said while the host opens the game ("Ann starts.", the board)
    is kept, however long the audio server takes to open the microphone.

    ``phones`` (--phones): the players' phones, with the laptop's microphone as the last
    channel when it has one; else the recording (--audio) or the microphone. A sentence
    (str) instead when there is no microphone to open: the game is typed then
    (:func:`run_by_voice`); a recording that can't be read is a UserError."""
    from voice_host.speech.listening.sources import NoInputDevice, open_source

    if phones is not None:
        from voice_host.phones.source import PhoneSource

        try:
            table = open_source(device=args.device)
            table.start()
        except (NoInputDevice, OSError):
            table = None  # phones only
        phones.table_has_microphone(table is not None)
        source = PhoneSource(phones, table)
        source.start()
        return source
    try:
        wanted = len(args.channels.split(",")) if args.channels and not args.audio else None  # one per player
        source = open_source(audio=args.audio, device=args.device, channels=wanted)
        if hasattr(source, "start"):
            source.start()  # recording from now: nothing said while the host talks or the recognizer loads is lost
    except (NoInputDevice, OSError) as exc:
        if args.audio:
            raise UserError(f"I can't read {args.audio}: {exc}") from exc
        return str(exc)
    return source


def run_by_voice(session, cfg: dict, args, source, speaker=None, phones=None, typed=None) -> None:
    """``voice-host play`` and ``resume`` by voice, hearing ``source`` (:func:`open_input`;
    whoever opened it closes it): the phones (``phones``, --phones), a recording (--audio) or the
    microphone; where there is no microphone (a sentence in its place) the game is
    ``typed`` (app.run_typed). With phones each player's phone is their channel, the
    laptop's microphone (when there is one) a last channel for the others, attributed by
    the name said first."""
    from voice_host.speech.listening.sources import channel_names

    if isinstance(source, str):
        session.say(session.announcer.no_microphone(source))
        typed(session)
        return
    settings = HearingSettings.from_config(cfg)
    voice = speaker.voice if speaker is not None else None
    prints = None
    try:
        recognizer = recognizer_for(args, settings)
        if phones is not None:
            typed_lines = typed_requests(session, phones, sys.stdin) if sys.stdin.isatty() else list
            build(session, recognizer, source, cfg=cfg, voice=voice, speaker=speaker,
                  channel_players=source.channel_players, phones=phones,
                  notices=lambda: phones.notices(session.announcer) + typed_lines()).play_live()
            return
        channels = channel_names(args.channels, source.channels) if args.channels else None
        prints = None if channels else table_voices(getattr(args, "voices", None))  # one microphone: voice prints
        if args.audio:
            build(session, recognizer, source, cfg=cfg, speaker=speaker, channel_players=channels,
                  voiceprints=prints, recording=True).play_recording()
        else:
            build(session, recognizer, source, cfg=cfg, voice=voice, speaker=speaker, channel_players=channels,
                  voiceprints=prints).play_live()
    finally:
        path = getattr(args, "voices", None)
        if path and prints is not None and prints.players:
            prints.save(path)


# ---------------------------------------------------------------------- the web server
def scoreboard(args, phones=None):
    """The scoreboard the options ask for (--display, --display-host, --display-port), on
    the host's web server, serving and its address printed (None: not asked for); a
    UserError saying why it can't serve. ``phones`` (voice_host.phones.Phones): the
    players' page too (:func:`serve_phones`), on every address unless --display-host
    says; the scoreboard then answers this machine only, unless --display-host asked for
    more."""
    from voice_host.display import DEFAULT_HOST, Display

    host, port = getattr(args, "display_host", None), getattr(args, "display_port", None)
    if not getattr(args, "display", False) and host is None and port is None and phones is None:
        return None
    if port is not None and not 0 <= port <= 65535:
        raise UserError(f"--display-port needs a port number from 1 to 65535 (or 0 for any free one), not {port}.")
    if host is not None and not host.strip():
        raise UserError("--display-host needs an address, e.g. 0.0.0.0 for every device on this network.")
    if phones is not None:
        from voice_host.phones import how_to_join

        display = serve_phones(phones, host.strip() if host else None, port)
        print(f"display: {display.scoreboard_url} shows the game as it goes; open it in a browser on this machine.",
              flush=True)
        print(how_to_join(phones, display), flush=True)
        return display
    display = Display.open(host.strip() if host else DEFAULT_HOST, port)
    print(f"display: {display.url} shows the game as it goes; open it in a browser.", flush=True)
    return display


def serve_phones(phones, host: str | None, port: int | None):
    """The host's web server with the scoreboard and the players' page, over HTTPS: on
    ``host`` (None: every address, the scoreboard itself to this machine only) and
    ``port`` (None: the usual one); the scoreboard (a voice_host.display.Display) shows
    where to join until all have, and never the join code."""
    from voice_host import web
    from voice_host.display import Display
    from voice_host.phones import cert
    from voice_host.phones import web as phone_page

    address = host or "0.0.0.0"
    try:
        tls = cert.certificate(web.reachable_address(address).strip("[]"))
    except OSError as exc:
        raise UserError(f"I can't keep the phones' certificate in {cert.folder()}: {exc.strerror or exc}.") from exc
    server = web.Server(web.listen(address, port), tls)
    phones.served_at(server.url + "join")
    display = Display(server, private=host is None, hidden=phones.hidden,
                      also=lambda: {"join": {"url": phones.url, "waiting": phones.missing()}})
    server.mount(lambda served: phone_page.routes(phones, served, display.board.latest))
    server.start()
    return display


# ---------------------------------------------------------------------- the phones' requests
def table_requests(hear: Callable, session, phones, channel_players=None) -> Callable:
    """With --phones, ``hear`` after the table's requests about the phones ("new code",
    "free Ann's phone"): those are answered as they are heard and never reach the game;
    everything else does. Only the table asks them: the laptop's microphone (a channel
    of ``channel_players`` that is None) or the host's terminal. Said into a player's
    phone, only "free my phone" is done (that seat); anything else is told to ask at the
    laptop."""
    from voice_host.host.intents import normalize, phones_request, plain

    def heard(u) -> None:
        text = u.body or u.text
        channel = getattr(u, "channel", None)
        owner = channel_players[channel] if channel_players and isinstance(channel, int) \
            and 0 <= channel < len(channel_players) else None
        if owner is not None and MY_PHONE.match(plain(normalize(text))):
            session.say(answer_phones(session, phones, ("free", owner)))
            return
        asked = phones_request(text, session.players)
        if asked is None:
            hear(u)
            return
        session.say(answer_phones(session, phones, asked) if owner is None else
                    session.announcer.only_the_table(asked[0] == "new code"))
    return heard


MY_PHONE = re.compile(r"^(?:free|disconnect|drop|release) my phone$")
"""Said into a player's own phone: free that seat ("free my phone")."""


def answer_phones(session, phones, asked: tuple[str, str | None]) -> str:
    """Do what the table asked of the phones (intents.phones_request) and say it. A seat
    freed gets a fresh code at once, so the old code cannot take it again."""
    if asked[0] == "new code":
        return session.announcer.phones_new_code(phones.renew())
    freed = phones.free(asked[1])
    said = session.announcer.phone_freed(asked[1], freed)
    return f"{said} {session.announcer.phones_new_code(phones.renew())}" if freed else said


def typed_requests(session, phones, stream) -> Callable[[], list[str]]:
    """With --phones at a terminal, the lines typed there, read in a thread: a callable
    that answers what was typed since last asked, on the game's thread. A request about
    the phones ("new code", "Ann: free Ben's phone") is answered; a game's line ("Ann:
    jewelers", "@draw M N") is played as typed, now; anything else is told how to type."""
    import queue
    import threading

    from voice_host.host.intents import phones_request

    lines: queue.Queue = queue.Queue()

    def read() -> None:
        for line in iter(stream.readline, ""):
            lines.put(line)

    threading.Thread(target=read, daemon=True, name="typed").start()

    def answers() -> list[str]:
        said = []
        while not lines.empty():
            raw = lines.get()
            text = raw.strip()
            if not text:
                continue
            text = text.split(":", 1)[1] if ":" in text.split()[0] else text  # "Ann: new code"
            asked = phones_request(text, session.players)
            record = None if asked else parse_line(raw, getattr(session, "t", 0.0), 0)
            if isinstance(record, (Said, Directive)):  # "Ann: jewelers", "@draw M N": played as typed, now
                session.feed(replace(record, t=session.t))
                continue
            said.append(answer_phones(session, phones, asked) if asked else session.announcer.phones_typed())
        return said
    return answers


__all__ = ["EngineEars", "LiveHost", "build", "open_input", "recognizer_for", "run_by_voice", "scoreboard",
           "serve_phones", "table_requests", "table_voices", "typed_requests", "voice_time"]
