"""Playing by voice: the recognizer and the listener a table uses, and the two loops
that feed heard utterances to the hearing: ``play_recording`` (``--audio``, as fast as
the machine allows, on the recording's clock) and ``play_live`` (the microphone, on the
clock of the audio heard so far, with the late-answer tick). ``app.run_by_voice``
chooses between them; ``voice-host hear`` and ``voice-host demo`` use the same
recognizer and listener.
"""

from __future__ import annotations

from pathlib import Path

from voice_host.errors import UserError


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


def recognizer_for(args, settings):
    """The recognizer `--engine` and `--model` ask for, else the ``[speech]`` settings'
    engine and weights (HearingSettings); a sentence when it can't be had."""
    from voice_host.speech.recognizing.engines import make_recognizer
    from voice_host.speech.recognizing.moonshine.adapt.setting import recognizer_options

    engine = args.engine or settings.engine
    try:
        return make_recognizer(engine, args.model, **recognizer_options(settings.model, engine))
    except Exception as exc:  # no model installed: the message says what to run
        raise UserError(str(exc)) from exc


def play_recording(hearing, source, recognizer, *, channel_players=None, config=None) -> None:
    """Run a game on a recorded session, as fast as the machine allows.

    The game clock follows the recording: each utterance happens at its start time, and
    the clock runs on to the end of the recording (timers may run out in a silence).
    """
    listener = listener_for(hearing, recognizer, channel_players, config=config)
    end = 0.0
    for u in listener.utterances(source):
        hearing.hear(u)
        end = max(end, u.end)
    duration = getattr(source, "duration", None) or end
    hearing.open(end)
    hearing.tick(max(duration, end))
    hearing.finish()


def live_options(cfg: dict, speaker=None) -> dict:
    """play_live's settings: the ``[listening]`` section, and the tick when an answer is
    slow (the heard earcon, through `speaker`: host.output.Speaker, when its earcons are on)."""
    from voice_host.speech.listening.config import TurnConfig

    options: dict = {"config": TurnConfig.from_config(cfg)}
    if speaker is not None and speaker.settings.earcons:
        options["acknowledge"] = lambda: speaker.cue("heard")
    return options


TICK_EVERY = 0.1
"""play_live's clock ticks at most this often, in seconds of audio heard (and once after
each utterance): each tick is a game step."""


STOP_WITHIN = 10.0
"""Seconds play_live waits, when stopped early, for the listener's thread to end (its
last recognition): a process that exits while a recognizer's native threads run can
abort ("terminate called without an active exception")."""


class _Consumed:
    """A source as play_live's listener reads it: the same chunks (and channels, realtime,
    clock), and `reached(chunk)` called when the listener asks for the chunk after it, so
    once every utterance that ended in it has been yielded."""

    def __init__(self, source, reached):
        self.source, self.reached = source, reached

    def __getattr__(self, name):
        return getattr(self.source, name)

    def __iter__(self):
        for chunk in self.source:
            yield chunk
            self.reached(chunk)


def play_live(hearing, source, recognizer, *, channel_players=None, voice=None, config=None,
              acknowledge=None, notices=None) -> None:
    """Play by voice at the table: listen in a thread, the game clock on the audio heard.

    The clock follows the audio the listener has read, in order with the utterances it
    gives: a microphone's audio comes at the pace of the world, so the clock keeps real
    time, a little behind while the listener catches up (and it waits while the
    microphone gives nothing). It is held back while anyone is speaking, so that a word
    said at the same moment as another is compared with it however long it takes to say.
    A source that is not `realtime` (nothing but the machine paces it) is heard in step:
    the listener reads on once the host has acted on all it has heard, as a recording
    is, so what is heard does not depend on how fast the machine is.
    `acknowledge`: a tick (the heard earcon), played when the listener says a player has
    been silent ``[listening] acknowledge_after`` seconds and the utterance is not over
    yet (Waiting), unless the host's `voice` is already speaking.
    `notices`: a callable giving sentences to say from the game's thread (a phone lost).

    The garbage collector is told to leave alone what exists once the host is ready and
    after each utterance it acted on (``gc.freeze``): the dictionary, the models and the
    recognizer's memoized walks of the language grow into millions of objects, and a
    full collection over them took 130-260 ms, often in the middle of a word's
    recognition (the reply's time). Before each freeze the young generations are
    collected (a few milliseconds), so cyclic garbage is not frozen with the rest; when
    the game is over, everything is the collector's again.
    """
    import gc
    import queue
    import threading
    import time

    from voice_host.speech.listening.turns import Discarded, SpeechStarted, Waiting

    inbox: queue.Queue = queue.Queue()  # utterances, and (as floats) the times the clock may reach, in order
    speaking: dict[int, float] = {}  # the listener's thread alone reads and writes it
    offset = hearing.session.t
    in_step = not getattr(source, "realtime", False)

    def on_event(event) -> None:
        if isinstance(event, SpeechStarted):
            speaking[event.channel] = event.time
        elif isinstance(event, Discarded):
            speaking.pop(event.channel, None)
        elif isinstance(event, Waiting) and acknowledge is not None and voice is not None and not voice.speaking:
            acknowledge()

    def put(item) -> None:
        inbox.put(item)
        if in_step:
            inbox.join()  # the host has acted on it (the recognizer told what may be said next)

    def reached(chunk) -> None:  # the clock may go to the chunk's end, or to where a player still speaking began
        put(float(min([chunk.end, *speaking.values()])))

    def run() -> None:
        try:
            for u in listener.utterances(_Consumed(source, reached)):
                speaking.pop(u.channel, None)
                put(u)
        finally:
            inbox.put(None)

    listener = listener_for(hearing, recognizer, channel_players, voice, on_event, config)
    listening = threading.Thread(target=run, daemon=True, name="listener")
    if getattr(voice, "history", None) is not None:
        hearing.host_speech = voice_time(voice, offset)
    hearing.warm()
    gc.collect()  # once, before anyone speaks
    gc.freeze()
    try:
        if hearing.voiceprints is not None and not channel_players:
            hearing.start_enrollment(offset)  # one microphone: learn each voice first
        else:
            hearing.open(offset)
        listening.start()
        ticked, heard = offset, False
        while True:
            for line in notices() if notices is not None else ():
                hearing.session.say(line)
            try:
                item = inbox.get(timeout=0.2)
            except queue.Empty:
                continue  # no audio: the clock waits for it
            except KeyboardInterrupt:  # the table stops the game: what was said counts, then it is saved
                hearing.finish(windows=False)  # a word still open to a challenge stays open for the resume
                raise
            try:
                if item is None:
                    break
                if isinstance(item, float):
                    t = offset + item
                    if heard or t >= ticked + TICK_EVERY - 1e-9:  # after an utterance at once: its tie window may be over
                        hearing.tick(t)
                        ticked, heard = max(ticked, t), False
                    continue
                item.start += offset
                item.end += offset
                hearing.hear(item)
                heard = True
                gc.collect(1)  # the young garbage only (milliseconds); see the docstring
                gc.freeze()
            finally:
                inbox.task_done()
        hearing.finish()
    finally:
        gc.unfreeze()  # a game over: its objects are the collector's again
        if listening.is_alive():  # stopped early (Ctrl-C): the listener ends first, never mid-recognition at exit
            getattr(source, "close", lambda: None)()
            deadline = time.monotonic() + STOP_WITHIN
            while listening.is_alive() and time.monotonic() < deadline:
                try:
                    inbox.get(timeout=0.1)  # what it still hands over is dropped: it never waits on us
                    inbox.task_done()
                except queue.Empty:
                    pass


def voice_time(voice, offset: float):
    """Seconds ``voice`` spoke sentences between two times of the game clock (its
    history is on the microphone's clock, ``offset`` behind the game's; earcons are not
    sentences): what the hearing leaves out of a player's time to answer."""
    def spoke(since: float, until: float) -> float:
        a, b = since - offset, until - offset
        return sum(max(0.0, min(r.end, b) - max(r.start, a)) for r in list(voice.history) if r.earcon is None)
    return spoke


def listener_for(hearing, recognizer, channel_players=None, voice=None, on_event=None, config=None):
    """The speech layer's listener for this table (attributing by channel, else by the
    hearing's voice prints), with the ``[listening]`` settings `config` (a TurnConfig);
    the recognizer is told what it may hear."""
    from voice_host.speech.listening.turns import Listener

    voiceprints = None if channel_players else hearing.voiceprints
    listener = Listener(recognizer, hearing.session.players, channel_players, voiceprints, voice,
                        config=config, on_event=on_event)
    if voiceprints is not None:  # one microphone: cut utterances at the table's level, not the room's
        hearing.voices.on_floor = listener.hear_above
    if recognizer.name == "moonshine":  # it searches a whole language; a prompt or grammar would not
        hearing.listen_for = listener.constrain
        hearing.listen()
    if recognizer.name == "whisper":  # a prompt only biases whisper; a vosk grammar would shut out other words
        hearing.expect = listener.expect
    return listener


__all__ = ["listener_for", "live_options", "play_live", "play_recording", "recognizer_for", "table_voices"]
