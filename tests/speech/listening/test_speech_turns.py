"""Speaker turns: segmentation times, attribution by channel,
by spoken name and by voice print, with distinct synthetic voices."""

from __future__ import annotations

import numpy as np
import pytest
import soundfile as sf

from toolkit.synth import add_noise, place, speech_bounds
from voice_host.messages import Utterance
from voice_host.speech.audio import SAMPLE_RATE
from voice_host.speech.listening.sources import ArraySource, WavSource, channel_names
from voice_host.speech.listening.attribution import Attributor, split_name_prefix
from voice_host.speech.listening.config import TurnConfig
from voice_host.speech.listening.turns import Discarded, SpeechStarted, listen
from voice_host.speech.listening.vad import segments

PLAYERS = ["Alice", "Bob", "Carol", "Dave"]


@pytest.fixture(scope="module")
def session(say):
    """Three utterances at known times, with known silence gaps."""
    clips = [(1.0, say("jewelers", "fest_slt")), (3.2, say("Bob says bewitched", "rms")),
             (6.0, say("challenge", "awb"))]
    truth = [(t + speech_bounds(a)[0], t + speech_bounds(a)[1]) for t, a in clips]
    return place([(t, a, 0) for t, a in clips], duration=8.0)[:, 0], truth


@pytest.mark.parametrize("snr", [None, 20, 10])
def test_segments_match_the_known_gaps(session, snr):
    audio, truth = session
    if snr is not None:
        audio = add_noise(audio, snr, seed=3)
    found = segments(audio)
    assert len(found) == len(truth)
    tol = 0.12 if snr is None else 0.25
    for seg, (start, end) in zip(found, truth):
        assert seg.start == pytest.approx(start, abs=tol)
        assert seg.end == pytest.approx(end, abs=tol)


def test_trailing_silence_is_configurable(say):
    a, b = say("jewelers", "rms"), say("bewitched", "rms")
    audio = place([(0.5, a, 0), (0.5 + a.size / SAMPLE_RATE + 0.4, b, 0)], duration=4.0)[:, 0]
    assert len(segments(audio, TurnConfig(trailing_silence=0.7))) == 1
    assert len(segments(audio, TurnConfig(trailing_silence=0.25))) == 2


def test_split_name_prefix():
    assert split_name_prefix("Bob: jewelers", PLAYERS) == ("Bob", "jewelers", 1.0)
    assert split_name_prefix("bob says jewelers", PLAYERS)[:2] == ("Bob", "jewelers")
    assert split_name_prefix("Bob interrupts jewelers", PLAYERS)[:2] == ("Bob", "interrupts jewelers")
    assert split_name_prefix("jewelers", PLAYERS) == (None, "jewelers", 0.0)
    assert split_name_prefix("allice bewitched", PLAYERS)[0] == "Alice"  # a near miss still counts
    assert split_name_prefix("Mary Ann: yes", ["Mary Ann", "Ann"])[:2] == ("Mary Ann", "yes")


def test_a_word_of_two_letters_is_no_near_miss_of_a_name():
    """"Be brief" is the host's command, not Ben playing "brief"; "an" is not Ann."""
    assert split_name_prefix("be brief", ["Ann", "Ben", "Cat"]) == (None, "be brief", 0.0)
    assert split_name_prefix("an interrupt", ["Ann", "Ben", "Cat"])[0] is None
    assert split_name_prefix("ben brief", ["Ann", "Ben", "Cat"])[:2] == ("Ben", "brief")
    assert split_name_prefix("al jewelers", ["Al", "Ben"])[:2] == ("Al", "jewelers")  # a short name, said


def test_attribution_chain_order():
    a = Attributor(PLAYERS, channel_players=["Alice", "Bob"])
    assert (a.attribute("bob says jewelers", None, channel=0).speaker,
            a.attribute("bob says jewelers", None, channel=0).method) == ("Alice", "channel")
    b = Attributor(PLAYERS)
    r = b.attribute("carol interrupts rhythm")
    assert (r.speaker, r.method, r.body) == ("Carol", "name", "interrupts rhythm")
    assert r.confidence >= 0.6
    unknown = b.attribute("jewelers")
    assert unknown.speaker is None and unknown.confidence == 0.0 and unknown.method is None


@pytest.fixture(scope="module")
def three_mics(tmp_path_factory, say):
    """A 3-channel session WAV at 44.1 kHz: one microphone per player, each hearing the
    others 20 dB down; Alice and Bob speak at (nearly) the same moment."""
    alice, bob, carol = say("jewelers", "fest_slt"), say("bewitched", "rms"), say("challenge", "awb")
    times = {"Alice": (1.0, alice, 0), "Bob": (1.25, bob, 1), "Carol": (4.0, carol, 2)}
    clips = []
    for name, (t, a, ch) in times.items():
        for other in range(3):
            clips.append((t, a if other == ch else a * 0.1, other))
    audio = place(clips, duration=6.0, channels=3)
    path = tmp_path_factory.mktemp("mics") / "session.wav"
    import soxr

    sf.write(path, soxr.resample(audio, SAMPLE_RATE, 44100), 44100, subtype="PCM_16")
    return path, times


def test_attribution_by_channel_and_overlap_detection(three_mics, vosk_rec):
    path, times = three_mics
    src = WavSource(path)
    us = list(listen(src, vosk_rec, channel_players=channel_names("Alice,Bob,Carol", src.channels)))
    speakers = sorted(u.speaker for u in us)
    assert speakers == ["Alice", "Bob", "Carol"], [(u.speaker, u.start, u.text) for u in us]
    for u in us:
        assert u.speaker_method == "channel" and u.speaker_confidence >= 0.9 and not u.ask
        assert u.channel == times[u.speaker][2]
        assert u.start == pytest.approx(times[u.speaker][0], abs=0.15)


def test_attribution_by_spoken_name(whisper_rec, say):
    audio = place([(0.5, say("Bob says bewitched", "rms"), 0), (3.0, say("Carol says crystal", "fest_slt"), 0)],
                  duration=5.0)[:, 0]
    us = list(listen(ArraySource(audio), whisper_rec.clone(), PLAYERS))
    assert [(u.speaker, u.speaker_method) for u in us] == [("Bob", "name"), ("Carol", "name")], [u.text for u in us]
    assert us[1].body == "crystal"
    assert all(u.speaker_confidence >= 0.6 for u in us)


VP_VOICES = {"Alice": "fest_slt", "Bob": "rms", "Carol": "awb", "Dave": "kal16"}
ENROLL = "My name is {name}. I like to play word games around the table with my friends."
TEST_WORDS = ["jewelers", "bewitched", "rhythm", "crystal", "sphinx", "blizzard", "kingdom", "glimpse",
              "challenge", "thrust"]


@pytest.fixture(scope="module")
def enrolled(embedder, say):
    from voice_host.speech.listening.voiceprint import VoicePrints

    vp = VoicePrints(embedder)
    for name, voice in VP_VOICES.items():
        vp.enroll(name, say(ENROLL.format(name=name), voice))
    return vp


def test_voice_print_identifies_four_enrolled_voices(enrolled, say):
    right = total = 0
    for name, voice in VP_VOICES.items():
        for word in TEST_WORDS:
            ident = enrolled.identify(say(word, voice))
            right += ident.speaker == name
            total += 1
    assert right / total >= 0.95, f"{right}/{total}"


def test_a_voice_like_no_print_is_the_player_not_enrolled_yet(embedder, say):
    """Dave's introduction was lost. A word in a voice that matches no
    print well is not the nearest enrolled player's: it is Dave's, the one player the
    host has no print of, and the host asks ("Was that Dave?"); with two players not
    enrolled it cannot guess ("Who said kingdom?")."""
    from voice_host.speech.listening.attribution import Attributor
    from voice_host.speech.listening.voiceprint import VoicePrints

    vp = VoicePrints(embedder)
    for name in ("Alice", "Bob", "Carol"):
        vp.enroll(name, say(ENROLL.format(name=name), VP_VOICES[name]))
    table = Attributor(PLAYERS, voiceprints=vp)
    asks = table.config.ask_below
    dave = [table.attribute(w, say(w, VP_VOICES["Dave"])) for w in TEST_WORDS]
    assert sum(a.speaker == "Dave" for a in dave) >= 7, [a.speaker for a in dave]  # all 10 went to others
    assert all(a.confidence < asks for a in dave)  # never sure: the host asks
    enrolled = [(n, table.attribute(w, say(w, VP_VOICES[n]))) for n in ("Alice", "Bob", "Carol") for w in TEST_WORDS]
    assert sum(a.speaker == n for n, a in enrolled) >= 28, [(n, a.speaker) for n, a in enrolled]
    vp.forget("Carol")
    carol = [table.attribute(w, say(w, VP_VOICES["Carol"])) for w in TEST_WORDS]
    assert sum(a.speaker is None for a in carol) >= 8, [a.speaker for a in carol]


def test_voice_print_attribution_in_listen(enrolled, vosk_rec, say):
    order = [("Carol", "rhythm"), ("Alice", "crystal"), ("Dave", "kingdom"), ("Bob", "glimpse")]
    audio = place([(0.5 + 2.0 * i, say(w, VP_VOICES[n]), 0) for i, (n, w) in enumerate(order)],
                  duration=9.0)[:, 0]
    us = list(listen(ArraySource(audio), vosk_rec.clone(), PLAYERS, voiceprints=enrolled))
    assert [u.speaker for u in us] == [n for n, _ in order]
    assert all(u.speaker_method == "voiceprint" for u in us)


def test_events_and_noise_only_input(vosk_rec):
    events = []
    rng = np.random.default_rng(1)
    hum = (0.01 * np.sin(2 * np.pi * 50 * np.arange(3 * SAMPLE_RATE) / SAMPLE_RATE)
           + 0.002 * rng.standard_normal(3 * SAMPLE_RATE)).astype(np.float32)
    assert list(listen(ArraySource(hum), vosk_rec.clone(), PLAYERS, on_event=events.append)) == []
    assert not [e for e in events if isinstance(e, SpeechStarted)]
    _ = Discarded


def test_listener_expect_reaches_every_channel_recognizer(vosk_rec, three_mics):
    from voice_host.speech.listening.turns import Listener

    path, _ = three_mics
    listener = Listener(vosk_rec.clone(), ["Alice", "Bob", "Carol"], channel_players=["Alice", "Bob", "Carol"])
    listener.expect(["네", "아니요"])
    us = list(listener.utterances(WavSource(path)))
    assert len(listener._recognizers) == 3
    assert all(r.grammar == ["네", "아니요", "Alice", "Bob", "Carol"] for r in listener._recognizers)
    assert all(set(u.text.split()) <= {"네", "아니요", "alice", "bob", "carol"} for u in us)


def test_a_recognizer_that_takes_phrases_is_told_the_names_when_anything_may_be_said():
    from voice_host.speech.listening.turns import Listener
    from voice_host.speech.recognizing.recognizer import Takes

    class Told(Takes):
        name = "any"  # the listener asks what the class declares, never the engine's name

        def __init__(self):
            self.told = "nothing yet"

        def expect(self, phrases):
            self.told = phrases

    class Prompted(Told):
        takes_phrases = True

    closed, prompted = Told(), Prompted()
    Listener(closed, ["Ann", "Ben"])
    Listener(prompted, ["Ann", "Ben"])
    assert closed.told is None
    assert prompted.told == ["Ann", "Ben"]


def test_voice_prints_save_and_load(enrolled, tmp_path, say):
    from voice_host.speech.listening.voiceprint import VoicePrints

    enrolled.save(tmp_path / "prints.npz")
    again = VoicePrints(enrolled.embedder)
    again.load(tmp_path / "prints.npz")
    assert again.players == enrolled.players
    assert again.identify(say("kingdom", "awb")).speaker == "Carol"


def test_listen_reports_speech_start_and_partials_before_the_utterance(say, vosk_rec):
    from voice_host.speech.listening.turns import Partial

    sentence = say("The quick brown fox jumps over the lazy dog, said Bob to Alice.", "rms")
    audio = place([(1.0, sentence, 0), (2.0 + sentence.size / SAMPLE_RATE, say("challenge", "awb"), 0)],
                  duration=4.0 + sentence.size / SAMPLE_RATE)[:, 0]
    order = []
    for u in listen(ArraySource(audio), vosk_rec.clone(), PLAYERS, on_event=order.append):
        order.append(u)
    us = [e for e in order if isinstance(e, Utterance)]
    assert [u.id for u in us] == [0, 1] and all(u.end > u.start for u in us)
    first_u = order.index(us[0])
    assert isinstance(order[0], SpeechStarted) and order[0].time == pytest.approx(1.0, abs=0.12)
    assert any(isinstance(e, Partial) and e.text for e in order[:first_u])
    assert len([e for e in order if isinstance(e, SpeechStarted)]) == 2


def test_a_voice_attributed_is_not_embedded_again_when_the_host_learns_from_it(moon, say, embedder):
    """The voice prints' d-vector (20-40 ms) ran twice for an utterance the host
    learns a voice from ("Ben, blizzard"; an introduction): when the listener attributed
    it, and when the hearing enrolled it. The embedder remembers a clip's d-vector by its
    sound."""
    import threading

    from voice_host.speech.listening.turns import Listener
    from voice_host.speech.listening.voiceprint import VoicePrints

    prints = VoicePrints(embedder)
    prints.enroll("Ann", say("I am Ann, and I am ready to play.", "fest_slt"))
    prints.enroll("Ben", say("I am Ben, and I am ready to play.", "rms"))
    run = []
    embed = embedder._embed
    embedder._embed = lambda audio: run.append((audio.size, threading.current_thread().name)) or embed(audio)
    try:
        listener = Listener(moon, ("Ann", "Ben"), voiceprints=prints)
        audio = place([(0.4, say("Ben, blizzard", "rms"), 0)], duration=3.0)[:, 0]
        u, = listener.utterances(ArraySource(audio[:, None], chunk_seconds=0.02))
        before = prints._prints["Ben"].copy()
        prints.enroll("Ben", u.audio.copy())  # as Voices.learn does, from the utterance's audio
    finally:
        embedder._embed = embed
    assert u.speaker == "Ben"
    assert run == [(u.audio.size, threading.current_thread().name)]  # once, when the listener attributed it
    assert not np.allclose(prints._prints["Ben"], before)  # and the print learned from it all the same
