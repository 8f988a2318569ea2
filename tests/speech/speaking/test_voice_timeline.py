"""The host's voice knows where each sample it plays is heard on the microphone's
timeline (the echo canceller's reference): a sentence whose next piece is still being
rendered is kept going with silence, never left to run dry, and what was said before
the microphone started moves onto the microphone's clock."""

from __future__ import annotations

import threading
import time

import numpy as np

from voice_host.speech.audio import SAMPLE_RATE
from voice_host.speech.speaking.voice import STEADY_LATENCY, TtsVoice

RATE = 16000


class SlowSynth:
    """A synthesizer whose second piece comes ``wait`` seconds after its first (a machine
    rendering slower than the voice speaks)."""

    engine, sample_rate, volume = "fake", RATE, 1.0

    def __init__(self, wait: float):
        self.wait = wait

    def pieces(self, text):
        yield np.full(RATE // 10, 0.5, np.float32)  # 0.1 s
        time.sleep(self.wait)
        yield np.full(RATE // 10, 0.25, np.float32)

    def close(self):
        pass


class Card:
    """A sound output that plays at real speed and notes each write's samples and when
    they start to sound; ``dry`` counts the times it ran out of sound mid-stream."""

    default_samplerate = RATE

    def __init__(self):
        self.until, self.dry, self.writes = None, 0, []

    def __call__(self, **options):
        return self

    def start(self):
        self.until = None

    def stop(self):
        self.until = None

    def abort(self):
        self.until = None

    def close(self):
        pass

    def write(self, frames):
        now = time.monotonic()
        if self.until is not None and now > self.until + 0.005:
            self.dry += 1
        begin = now if self.until is None or now > self.until else self.until
        self.writes.append((begin, np.asarray(frames).reshape(-1).copy()))
        self.until = begin + len(frames) / RATE
        time.sleep(max(0.0, self.until - 0.05 - time.monotonic()))  # a blocking write: a 50 ms buffer


def test_a_piece_rendered_late_is_preceded_by_silence_where_it_is_heard():
    card = Card()
    voice = TtsVoice(synthesizer=SlowSynth(0.3), output=card)
    try:
        voice.say("a sentence")
        assert voice.wait(5)
    finally:
        voice.close()
    assert card.dry == 0  # the output never ran dry between the pieces
    (said,) = voice.history
    quiet = np.flatnonzero(said.samples == 0.25)[0] / SAMPLE_RATE  # where the second piece starts in the record
    played = [t for t, x in card.writes if x.size and x[0] == 0.25][0] - card.writes[0][0]  # ... and is heard
    assert quiet >= 0.35 and abs(quiet - played) < 0.03


def test_what_was_said_before_the_microphone_started_moves_onto_its_clock():
    voice = TtsVoice(synthesizer=SlowSynth(0.0), output=Card())
    try:
        voice.say("said while the models load")
        assert voice.wait(5)
        before = voice.history[0].start
        started = time.monotonic()
        voice.follow(lambda: time.monotonic() - started, started)
        assert abs(voice.history[0].start - (before - started)) < 1e-9 and voice.history[0].start < 0
        voice.say("said once the microphone runs")
        assert voice.wait(5)
    finally:
        voice.close()
    assert 0 <= voice.history[1].start < 1.0  # on the microphone's clock
    assert threading.active_count() >= 1


def test_a_sentence_written_while_the_last_still_sounds_is_timed_where_it_is_heard():
    card = Card()
    voice = TtsVoice(synthesizer=SlowSynth(0.0), output=card)
    try:
        voice.say("the first")
        voice.say("the second, written while the output still holds the first")
        assert voice.wait(5)
    finally:
        voice.close()
    first, second = voice.history
    firsts = [x[0] for _, x in card.writes]
    heard = next(t for k, (t, x) in enumerate(card.writes) if k and x[0] == 0.5 and firsts[k - 1] == 0.25)
    # the second sentence's first sound: its first block after the first sentence's last
    assert abs(second.start - heard) < 0.005 and second.start >= first.end - 0.005


def test_beside_a_cancelled_microphone_the_output_holds_enough_never_to_run_dry():
    opened = []

    class Noted(Card):
        def __call__(self, **options):
            opened.append(options["latency"])
            return self

    voice = TtsVoice(synthesizer=SlowSynth(0.0), output=Noted())
    try:
        voice.say("said while the models load")
        assert voice.wait(5)
        voice.follow(time.monotonic, 0.0, steady=True)
        voice.say("said once the microphone's echo is cancelled")
        assert voice.wait(5)
    finally:
        voice.close()
    assert opened == ["low", STEADY_LATENCY]


def test_beside_a_cancelled_microphone_the_output_goes_on_between_sentences():
    """Stopped between sentences and started again, each sentence came a few ms off the
    last one's delay; steady, the output plays silence between them and never stops."""
    class Counted(Card):
        stops = 0

        def stop(self):
            self.stops += 1
            super().stop()

    card = Counted()
    voice = TtsVoice(synthesizer=SlowSynth(0.0), output=card)
    voice.follow(time.monotonic, 0.0, steady=True)
    try:
        voice.say("the first")
        assert voice.wait(5)
        time.sleep(0.3)  # the table talks a while
        voice.say("the second")
        assert voice.wait(5)
    finally:
        voice.close()
    first, second = voice.history
    assert card.stops == 0 and card.dry == 0  # never stopped, never dry
    heard = next(t for k, (t, x) in enumerate(card.writes) if k and x[0] == 0.5 and card.writes[k - 1][1][0] == 0.0)
    assert abs(second.start - heard) < 0.005 and second.start > first.end + 0.25


class HeldUp(Card):
    """A sound output whose writer is held up once, mid-sentence, for ``hold`` seconds
    after a write (the host's other work holding this thread on a busy machine): the
    output runs dry, and the next block sounds when it is written."""

    def __init__(self, hold: float, after: int):
        super().__init__()
        self.hold, self.after = hold, after

    def write(self, frames):
        super().write(frames)
        if len(self.writes) == self.after:
            time.sleep(self.hold)


def test_a_sentence_whose_output_ran_dry_midway_is_timed_where_the_rest_is_heard():
    card = HeldUp(hold=0.25, after=3)
    voice = TtsVoice(synthesizer=SlowSynth(0.0), output=card)
    try:
        voice.say("a sentence held up midway")
        assert voice.wait(5)
    finally:
        voice.close()
    assert card.dry == 1
    (said,) = voice.history
    start = card.writes[0][0]
    assert abs(said.start - start) < 0.005
    for begin, frames in card.writes[2:6]:  # before and after the hold-up: each block where it sounds
        at = round((begin - start) * SAMPLE_RATE)
        assert np.array_equal(said.samples[at + 10:at + frames.size - 10], frames[10:-10])
    last, frames = card.writes[-1]
    assert abs(said.end - (last + frames.size / RATE)) < 0.005
