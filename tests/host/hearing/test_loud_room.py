"""A word missed in a loud room is told the table, as a person keeping score would: "It's
loud here, and I'm missing words". A quiet room, or a loud one where no word is missed,
is told nothing; the table is not told again for a while. One microphone that cannot
hear the table (a loud room, other people talking, or three words missed in a few
minutes) offers the players their phones, once; on a player's own microphone the advice
is to hold it close."""

from __future__ import annotations

import numpy as np
import pytest
import support

from voice_host.speech.audio import SAMPLE_RATE, speech_over_noise

LOUD = "It's loud here, and I'm missing words: one at a time, please, and closer to the microphone."
LOUD_OWN = ("It's loud here, and I'm missing words: hold your phone or microphone close as you speak; on a phone, "
            "holding its button to talk is surer.")
OFFER = ("It's too loud for me to hear you all from here. Your phones can be your microphones: stop the game, and "
         "resume it with phones.")
MISSED = "Ann, I missed your word. Say it again, or spell it."


def room_around_a_word(noise_rms: float, seed: int = 1) -> np.ndarray:
    """1.4 s of a room's noise with a 0.6 s voiced sound (RMS 0.1) in the middle, as the
    listener hands an utterance on (the room before and after the word included)."""
    rng = np.random.default_rng(seed)
    audio = rng.normal(0, noise_rms, int(1.4 * SAMPLE_RATE)).astype(np.float32)
    t = np.arange(int(0.6 * SAMPLE_RATE)) / SAMPLE_RATE
    audio[int(0.4 * SAMPLE_RATE):int(1.0 * SAMPLE_RATE)] += (0.1 * np.sqrt(2) * np.sin(2 * np.pi * 220 * t))
    return audio


def test_how_far_a_word_stands_out_from_the_room_is_measured_from_its_own_utterance():
    assert speech_over_noise(room_around_a_word(0.001)) > 30
    assert 0 < speech_over_noise(room_around_a_word(0.05)) < 10  # the word 6 dB over the room's noise


def heard(start, text, noise, **kw) -> support.Heard:
    return support.Heard(start, text, "Ann", audio=room_around_a_word(noise, seed=int(start)), **kw)


def missed(start, noise, **kw) -> support.Heard:
    """A word the host would leave out: a sentence forced onto a sound it does not fit."""
    return heard(start, "jawbones", noise, confidence=1.0, constrained=True,
                 alternatives=[("jawbones", -2.15), ("jawbone", -8.6)], **kw)


def test_a_word_missed_at_one_microphone_in_a_loud_room_offers_the_phones_before_it_is_asked_for_again(ear):
    t, hearing = ear
    hearing.hear(heard(2, "what is the time", 0.05))
    hearing.hear(missed(10, 0.05))
    hearing.tick(19)
    assert t.heard[-2:] == [OFFER, MISSED]


def test_a_word_missed_on_a_players_own_microphone_in_a_loud_room_asks_them_to_hold_it_close(ear):
    t, hearing = ear
    hearing.hear(heard(2, "what is the time", 0.05, speaker_method="channel"))
    hearing.hear(missed(10, 0.05, speaker_method="channel"))
    hearing.tick(19)
    assert t.heard[-2:] == [LOUD_OWN, MISSED]


def test_talk_in_the_room_makes_it_loud_though_its_gaps_are_quiet(ear):
    """Other people's talk, 10 dB under the word: the word stands out 40 dB from the gaps
    between their words, but only 10 dB from all the room's sound around it."""
    t, hearing = ear
    talk = -20.0 - 10.0  # the words' speech level is -20 dBFS (RMS 0.1)
    hearing.hear(heard(2, "what is the time", 0.001, room=talk))
    hearing.hear(heard(6, "what is the score", 0.001, room=talk))
    hearing.hear(missed(10, 0.001))
    hearing.tick(19)
    assert t.heard[-2:] == [OFFER, MISSED]


def test_one_microphone_that_misses_three_words_in_a_few_minutes_offers_the_phones_however_quiet(ear):
    t, hearing = ear
    hearing.hear(heard(2, "what is the time", 0.001))
    for at in (10, 40, 70):
        assert OFFER not in t.heard
        hearing.hear(missed(at, 0.001))
        hearing.tick(at + 9)
        hearing.tick(at + 18)  # not said again: left out
    assert t.heard.count(OFFER) == 1


def test_a_quiet_room_is_never_called_loud_though_a_word_is_missed(ear):
    t, hearing = ear
    hearing.hear(heard(2, "what is the time", 0.001))
    hearing.hear(missed(10, 0.001))
    hearing.tick(19)
    assert t.heard[-1] == "Ann, I missed your word. Say it again, or spell it." and LOUD not in t.heard


def test_a_loud_room_where_every_word_is_heard_is_told_nothing(ear):
    t, hearing = ear
    hearing.hear(heard(2, "what is the time", 0.05))
    out = support.said(t, hearing, heard(10, "jawbones", 0.05))
    assert out[0] == "Ann scores 17 points for jawbones." and LOUD not in t.heard


def test_the_table_is_told_the_room_is_loud_once_in_a_while_not_at_every_miss(ear):
    t, hearing = ear
    hearing.hear(heard(2, "what is the time", 0.05))
    for at in (10, 40, 70):  # a word missed three times in a minute
        hearing.hear(missed(at, 0.05))
        hearing.tick(at + 9)
        hearing.tick(at + 18)  # not said again: left out
    assert t.heard.count(OFFER) == 1 and t.heard.count(LOUD) == 0  # the phones offered, once
    hearing.hear(missed(10 + hearing.settings.loud_every, 0.05))
    hearing.tick(19 + hearing.settings.loud_every)
    assert t.heard.count(OFFER) == 1 and t.heard.count(LOUD) == 1


@pytest.mark.parametrize("noise, out", [(0.001, "Ann scores 5 points for cheers."),
                                        (0.05, "Did you say cheers or chairs?")])
def test_a_doubt_is_taken_in_a_quiet_room_and_asked_about_in_a_loud_one(ear, noise, out):
    """Cheers or chairs score the same: a quiet room's scorekeeper takes the likelier and
    says it, for its player to put right; in a loud room the doubt is likelier wrong and
    "No, chairs" harder to hear, so it is asked."""
    t, hearing = ear
    hearing.hear(heard(2, "what is the time", noise))
    doubt = heard(10, "cheers", noise, confidence=0.6, constrained=True,
                  alternatives=[("cheers", 4.0), ("chairs", 3.5)])
    assert support.said(t, hearing, doubt)[0] == out
