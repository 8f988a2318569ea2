"""Voice activity: where the listener hears speech, with WebRTC VAD, Silero's model, or
both (the default)."""

from __future__ import annotations

import numpy as np
import pytest
from toolkit import synth

from voice_host.speech.audio import SAMPLE_RATE
from voice_host.speech.listening.config import TurnConfig
from voice_host.speech.listening.vad import segments


@pytest.mark.parametrize("vad", ["silero", "both"])
def test_the_neural_detector_finds_the_word_and_starts_nothing_in_noise_alone(say, vad):
    config = TurnConfig(vad=vad)
    word = say("jewelers", "fest_slt")
    quiet = np.zeros(SAMPLE_RATE, np.float32)
    said = np.concatenate([quiet, word, quiet])
    found = segments(said, config)
    assert len(found) == 1 and found[0].start < 1.0 + word.size / SAMPLE_RATE and found[0].end > 1.0
    noise = synth.add_noise(np.zeros(6 * SAMPLE_RATE, np.float32), 10, seed=4, reference=word)
    assert segments(noise, config) == []  # pink noise 10 dB under a word's level: nobody is speaking


def test_both_detectors_hear_a_word_in_noise_that_the_noise_floor_alone_cuts_away(say):
    """WebRTC VAD's noise floor wants speech 6 dB above the noise; at 3 dB a word is
    under that almost everywhere, and Silero, sure it is speech, keeps it."""
    word = say("jewelers", "fest_slt")
    quiet = np.zeros(2 * SAMPLE_RATE, np.float32)
    said = synth.add_noise(np.concatenate([quiet, word, quiet]), 3, seed=4, reference=word)
    both = segments(said, TurnConfig(vad="both"))
    assert len(both) == 1 and both[0].voiced > 0.3
    assert sum(s.voiced for s in segments(said, TurnConfig(vad="webrtc"))) < both[0].voiced


def test_the_detector_is_a_setting_read_from_the_listening_section():
    from voice_host import config

    assert TurnConfig.from_config(config.load()).vad == "both"
    assert TurnConfig.from_config(config.load(overrides={"listening": {"vad": "silero"}})).vad == "silero"


def test_talk_under_the_tables_level_neither_starts_an_utterance_nor_runs_one_on(say):
    """A player's word, then the room's talk 20 dB under it with no pause between: with
    the table's level known (the word's less 12 dB), the utterance ends with the word,
    and the talk alone starts nothing. The word itself is cut where it was without it:
    its soft sounds are near its loud ones."""
    from voice_host.speech.audio import speech_level
    from voice_host.speech.listening.vad import Segmenter, SegmentEnd

    word, talk = say("jewelers", "fest_slt"), say("the weather is lovely today and tomorrow", "rms")
    talk = talk * 10 ** ((speech_level(word) - 20 - speech_level(talk)) / 20)
    quiet = np.zeros(SAMPLE_RATE, np.float32)

    def cut(audio, hear_above):
        seg = Segmenter(1, TurnConfig(), hear_above=hear_above)
        n, out = seg.frame, []
        for i in range(0, audio.size - n + 1, n):
            out += [e.segment for e in seg.push(i / SAMPLE_RATE, audio[i:i + n, None]) if isinstance(e, SegmentEnd)]
        return out + [e.segment for e in seg.flush()]

    table = speech_level(word) - 12
    audio = np.concatenate([quiet, word, talk, quiet, talk, quiet])
    word_end = 1.0 + word.size / SAMPLE_RATE
    merged = cut(audio, None)
    assert merged[0].end > word_end + 1.0 and len(merged) == 2  # the talk runs the word on, and starts its own
    alone = cut(audio, table)
    assert len(alone) == 1 and alone[0].end < word_end + 0.35  # the word and 300 ms near it
    said = np.concatenate([quiet, word, quiet])
    assert [(s.start, s.end, s.audio_start) for s in cut(said, table)] == [
        (s.start, s.end, s.audio_start) for s in cut(said, None)]


def _onset(audio: np.ndarray) -> float:
    """Where a clip's first sound above -45 dBFS begins (s)."""
    return synth.speech_bounds(audio)[0]


def test_a_word_said_over_talk_in_the_room_starts_its_own_utterance(say):
    """Talk 15 dB under a player runs straight into the player's word (no pause for the
    trailing silence to end it): the louder voice takes the utterance over. The talk
    ends where the word's pre-roll begins, and the word is an utterance of its own,
    begun at the word; without the takeover one utterance holds both."""
    from voice_host.speech.audio import speech_level

    word, talk = say("jewelers", "fest_slt"), say("the weather is lovely today and tomorrow", "rms")
    talk = talk[: int(synth.speech_bounds(talk)[1] * SAMPLE_RATE)]  # no silence after it
    talk = talk * 10 ** ((speech_level(word) - 15 - speech_level(talk)) / 20)
    quiet = np.zeros(SAMPLE_RATE, np.float32)
    audio = np.concatenate([quiet, talk, word, quiet])
    at = 1.0 + talk.size / SAMPLE_RATE + _onset(word)
    talk_then_word = segments(audio, TurnConfig())
    assert len(talk_then_word) == 2
    assert talk_then_word[0].start < 1.2 and talk_then_word[0].end <= talk_then_word[1].start
    assert at - 0.1 < talk_then_word[1].start < at + 0.15
    assert talk_then_word[1].end > at + 0.4
    together = segments(audio, TurnConfig(takeover_db=0))
    assert len(together) == 1 and together[0].start < 1.2 and together[0].end > at + 0.4


@pytest.mark.parametrize("text", ["expressed", "displaying", "I am Ann, and I am ready to play"])
def test_a_soft_first_syllable_does_not_split_a_word(say, text):
    """A word's soft start ("ex" before "pressed") is not another voice: cut as it is
    without the takeover."""
    quiet = np.zeros(SAMPLE_RATE, np.float32)
    for voice in ("fest_slt", "awb", "kal16"):
        audio = np.concatenate([quiet, say(text, voice), quiet])
        assert segments(audio, TurnConfig()) == segments(audio, TurnConfig(takeover_db=0))


def test_silero_does_not_rule_out_a_word_the_echo_canceller_took_the_hosts_voice_out_of(say):
    """Live, with the host's voice heard back: what the canceller leaves of a word said
    over the host is no speech to Silero (its probability under 0.2 for 2.5 s on end), so
    it vetoed every frame WebRTC VAD called speech, and "braking", said over "Dee scores 17
    points ...", never started an utterance. Where the canceller takes the host's voice
    out, Silero does not veto; elsewhere it does, as in a kitchen."""
    from voice_host.speech.listening.vad import Segmenter, SegmentStart

    word = say("jewelers", "fest_slt")
    audio = np.concatenate([np.zeros(SAMPLE_RATE // 2, np.float32), word, np.zeros(SAMPLE_RATE, np.float32)])

    def starts(cancelled: bool) -> int:
        seg = Segmenter(1, TurnConfig(vad="both"))
        seg.silero = [lambda frame: 0.05]  # Silero hears no speech in it
        n, found = seg.frame, 0
        for i in range(0, audio.size - n + 1, n):
            events = seg.push(i / SAMPLE_RATE, audio[i:i + n, None], None, [cancelled])
            found += sum(isinstance(e, SegmentStart) for e in events)
        return found

    assert starts(cancelled=False) == 0  # vetoed: noise to Silero
    assert starts(cancelled=True) == 1
