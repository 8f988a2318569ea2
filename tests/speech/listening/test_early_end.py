"""Ending a turn as soon as it is over: at a short pause the listener guesses
what was said so far, ends the utterance at once when the guess is a whole sentence that
cannot go on, and keeps listening when it could (a name before its word, a phrase cut
short). Real synthesized speech through the real listener and Moonshine; the tests' own
voices (festival slt, flite rms/awb), never the benchmarks' held-out ones."""

from __future__ import annotations

import numpy as np
import pytest

from toolkit.synth import place, speech_bounds
from voice_host.speech.audio import SAMPLE_RATE
from voice_host.speech.listening.config import TurnConfig
from voice_host.speech.listening.sources import ArraySource
from voice_host.speech.listening.turns import Listener
from voice_host.speech.listening.vad import SegmentEnd, SegmentPause, Segmenter

PLAYERS = ("Ann", "Ben", "Cat")


@pytest.fixture(scope="module")
def sayable(words):
    """What the host lets a player say in a Prolix game (names, words, commands, questions,
    introductions), as its hearing gives it to the recognizer."""
    from support import Table

    from voice_host.host.hearing import Hearing, HearingSettings

    t = Table(words, ",".join(PLAYERS))
    return Hearing(t.session, words, HearingSettings()).understand.sayable()


@pytest.fixture
def heard(moon, sayable):
    def run(audio: np.ndarray, config: TurnConfig | None = None, events: list | None = None):
        listener = Listener(moon, PLAYERS, config=config, on_event=None if events is None else events.append)
        listener.constrain(sayable)
        return list(listener.utterances(ArraySource(audio[:, None], chunk_seconds=0.02)))
    return run


def test_the_segmenter_pauses_once_a_pause_and_ends_when_told(say):
    a = say("jewelers", "fest_slt")
    audio = place([(0.3, a, 0)], duration=2.0)[:, 0]
    seg = Segmenter(1, TurnConfig())
    pauses, ends, silent = [], [], []
    for i in range(0, audio.size - seg.frame + 1, seg.frame):
        for ev in seg.push(i / SAMPLE_RATE, audio[i:i + seg.frame, None]):
            if isinstance(ev, SegmentPause):
                pauses.append((round(i / SAMPLE_RATE + 0.03 - ev.time, 3), ev.time))
                silent.append(seg.silent_since(0))
            elif isinstance(ev, SegmentEnd):
                ends.append(ev.segment.end)
    end = 0.3 + speech_bounds(a)[1]
    assert [p[1] for p in pauses] == ends == silent and ends[0] == pytest.approx(end, abs=0.1)
    guess_after = TurnConfig().guess_after
    assert guess_after <= pauses[0][0] <= guess_after + 0.03  # the frame in which guess_after of silence is reached
    assert seg.silent_since(0) is None  # no utterance under way
    early = Segmenter(1, TurnConfig())
    for i in range(0, int((end + 0.2) * SAMPLE_RATE), early.frame):
        early.push(i / SAMPLE_RATE, audio[i:i + early.frame, None])
    assert early.end(0).segment.end == ends[0] and early.silent_since(0) is None


@pytest.mark.parametrize("word,voice", [("jewelers", "fest_slt"), ("disgraced", "rms"), ("blizzard", "awb")])
def test_a_one_word_play_ends_at_the_first_short_pause(heard, say, word, voice):
    a = say(word, voice)
    u, = heard(place([(0.4, a, 0)], duration=2.5)[:, 0])
    assert u.text in (word, "jewellers") and u.early
    later, = heard(place([(0.4, a, 0)], duration=2.5)[:, 0], TurnConfig(end_early_above=1.1))
    assert later.text == u.text and not later.early  # the same word, at the full trailing silence


def test_the_listener_says_when_a_turn_is_not_over_after_a_short_silence(heard, say):
    """Waiting (the host's cue to tick) comes once for an utterance still not over
    `acknowledge_after` into the silence, never for one that ended early."""
    from voice_host.speech.listening.turns import SpeechEnded, Waiting

    audio = place([(0.4, say("disgraced", "rms"), 0)], duration=2.5)[:, 0]
    early: list = []
    u, = heard(audio, events=early)
    assert u.early and not any(isinstance(e, Waiting) for e in early)
    same: list = []  # the tick due at the moment the turn ends early: the answer comes instead
    u, = heard(audio, TurnConfig(acknowledge_after=0.3, end_early_after=0.3), events=same)
    assert u.early and not any(isinstance(e, Waiting) for e in same)
    late: list = []
    u, = heard(audio, TurnConfig(end_early_above=1.1), events=late)
    kinds = [type(e) for e in late if isinstance(e, (Waiting, SpeechEnded))]
    assert not u.early and kinds == [Waiting, SpeechEnded]
    assert next(e for e in late if isinstance(e, Waiting)).time == pytest.approx(u.end, abs=1e-6)


def test_a_word_that_may_go_on_waits_for_the_full_silence(heard, say):
    """"challenge" may go on ("challenge Ann"), so the pause after it does not end it."""
    u, = heard(place([(0.4, say("challenge", "rms"), 0)], duration=2.5)[:, 0])
    assert u.text == "challenge" and not u.early


@pytest.mark.parametrize("first,rest,voice,text", [
    ("Ben,", "jewelers", "fest_slt", ("ben jewelers", "ben jewellers")),
    ("I am Cat", "and I am ready to play", "rms", ("i am cat and i am ready to play",)),
    ("whose turn", "is it", "fest_slt", ("whose turn is it",))])
@pytest.mark.parametrize("pause", [0.25, 0.45])
def test_a_sentence_with_a_pause_inside_is_not_cut(heard, say, first, rest, voice, text, pause):
    a, b = say(first, voice), say(rest, voice)
    gap = pause - (a.size / SAMPLE_RATE - speech_bounds(a)[1]) - speech_bounds(b)[0]
    audio = place([(0.4, a, 0), (0.4 + a.size / SAMPLE_RATE + gap, b, 0)], duration=4.5)[:, 0]
    got = heard(audio)
    assert [u.text for u in got] in [[t] for t in text]
