"""Playing by voice: the two loops that feed what the listener hears to the hearing,
``play_recording`` (``--audio``, as fast as the machine allows, on the recording's
clock) and ``play_live`` (the microphone or the phones, on the clock of the audio heard
so far, with the late-answer tick). Each runs a host the assembly built
(voice_host.assembly.LiveHost: its session, hearing, listener and source).

The live loop's listener runs in a thread of its own and hands the game's thread its
messages in order on one queue: :class:`HeardUtterance` (an utterance to hear),
:class:`ClockMark` (the clock may go this far) and :class:`EndOfAudio`.
"""

from __future__ import annotations

from dataclasses import replace

from voice_host.messages import ClockMark, EndOfAudio, HeardUtterance


def play_recording(host) -> None:
    """Run a game on a recorded session, as fast as the machine allows.

    The game clock follows the recording: each utterance happens at its start time, and
    the clock runs on to the end of the recording (timers may run out in a silence).
    """
    hearing, end = host.hearing, 0.0
    for u in host.listener.utterances(host.source):
        host.hear(u)
        end = max(end, u.end)
    duration = getattr(host.source, "duration", None) or end
    hearing.open(end)
    hearing.tick(max(duration, end))
    hearing.finish()


TICK_EVERY = 0.1
"""play_live's clock ticks at most this often, in seconds of audio heard (and once after
each utterance): each tick is a game step."""


STOP_WITHIN = 10.0
"""Seconds play_live waits, when stopped early, for the listener's thread to end (its
last recognition): a process that exits while a recognizer's native threads run can
abort ("terminate called without an active exception")."""


class Floor:
    """Who is speaking now, from the listener's events (on the listener's thread): the
    live clock is held back to where a player still speaking began. ``acknowledge``: a
    tick (the heard earcon), played when the listener says a player has been silent
    ``[listening] acknowledge_after`` seconds and the utterance is not over yet
    (Waiting), unless the host's ``voice`` is already speaking."""

    def __init__(self, voice=None, acknowledge=None) -> None:
        self.voice, self.acknowledge = voice, acknowledge
        self.speaking: dict[int, float] = {}
        """Channel -> when its speaker began (the listener's thread alone reads and writes it)."""

    def event(self, event) -> None:
        """The listener's ``on_event``."""
        from voice_host.speech.listening.turns import Discarded, SpeechStarted, Waiting

        if isinstance(event, SpeechStarted):
            self.speaking[event.channel] = event.time
        elif isinstance(event, Discarded):
            self.speaking.pop(event.channel, None)
        elif isinstance(event, Waiting) and self.acknowledge is not None and self.voice is not None \
                and not self.voice.speaking:
            self.acknowledge()

    def mark(self, end: float) -> ClockMark:
        """How far the clock may go once a chunk ending at ``end`` was read."""
        return ClockMark(float(min([end, *self.speaking.values()])))


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


def play_live(host) -> None:
    """Play by voice at the table: listen in a thread, the game clock on the audio heard.

    The clock follows the audio the listener has read, in order with the utterances it
    gives: a microphone's audio comes at the pace of the world, so the clock keeps real
    time, a little behind while the listener catches up (and it waits while the
    microphone gives nothing). It is held back while anyone is speaking (the host's
    :class:`Floor`), so that a word said at the same moment as another is compared with
    it however long it takes to say. A source that is not `realtime` (nothing but the
    machine paces it) is heard in step: the listener reads on once the host has acted on
    all it has heard, as a recording is, so what is heard does not depend on how fast
    the machine is. The host's `notices` give sentences to say from the game's thread
    (a phone lost).

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

    hearing, source, floor = host.hearing, host.source, host.floor
    inbox: queue.Queue = queue.Queue()  # HeardUtterance, ClockMark, then EndOfAudio, in order
    offset = hearing.session.t
    in_step = not getattr(source, "realtime", False)

    def put(message) -> None:
        inbox.put(message)
        if in_step:
            inbox.join()  # the host has acted on it (the recognizer told what may be said next)

    def run() -> None:
        try:
            for u in host.listener.utterances(_Consumed(source, lambda chunk: put(floor.mark(chunk.end)))):
                floor.speaking.pop(u.channel, None)
                put(HeardUtterance(u))
        finally:
            inbox.put(EndOfAudio())

    listening = threading.Thread(target=run, daemon=True, name="listener")
    hearing.warm()
    gc.collect()  # once, before anyone speaks
    gc.freeze()
    try:
        if hearing.voiceprints is not None and not host.channel_players:
            hearing.start_enrollment(offset)  # one microphone: learn each voice first
        else:
            hearing.open(offset)
        listening.start()
        ticked, heard = offset, False
        while True:
            for line in host.notices() if host.notices is not None else ():
                hearing.session.say(line)
            try:
                message = inbox.get(timeout=0.2)
            except queue.Empty:
                continue  # no audio: the clock waits for it
            except KeyboardInterrupt:  # the table stops the game: what was said counts, then it is saved
                hearing.finish(windows=False)  # a word still open to a challenge stays open for the resume
                raise
            try:
                match message:
                    case EndOfAudio():
                        break
                    case ClockMark(at):
                        t = offset + at
                        if heard or t >= ticked + TICK_EVERY - 1e-9:  # after an utterance at once: its tie window may be over
                            hearing.tick(t)
                            ticked, heard = max(ticked, t), False
                    case HeardUtterance(u):
                        host.hear(replace(u, start=u.start + offset, end=u.end + offset))
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


__all__ = ["Floor", "play_live", "play_recording"]
