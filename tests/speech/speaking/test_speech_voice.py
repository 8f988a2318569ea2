"""The host's voice: rendering, stopping (barge-in), and never being heard
as a player (real host audio from pyttsx3/espeak-ng mixed into the microphone)."""

from __future__ import annotations

import time

import numpy as np
import pytest

from toolkit.synth import place
from voice_host.speech.listening.config import TurnConfig
from voice_host.speech.listening.echo import CUT_TAIL, EchoGate
from voice_host.speech.audio import SAMPLE_RATE
from voice_host.speech.listening.sources import ArraySource
from voice_host.speech.listening.turns import Discarded, SpeechStarted, listen
from voice_host.speech.speaking.voice import HostPlayback, TtsVoice

pytestmark = pytest.mark.model  # the host's voice, heard back by the recognizers

HOST_LINE = "Bob scores twelve points for jewelers. Alice, it is your turn, the timer is running."


def test_tts_renders_audio(tts):
    audio = tts.synthesize("Bob scores twelve points.")
    assert audio.dtype == np.float32 and 0.8 < audio.size / SAMPLE_RATE < 4
    assert np.abs(audio).max() > 0.05


def test_tts_voice_stop_cuts_a_sentence(tts):
    voice = TtsVoice(synthesizer=tts, play=False)
    voice.say(HOST_LINE)
    voice.say("And this queued sentence is never said.")
    t0 = time.monotonic()
    while not voice.history and time.monotonic() - t0 < 10:
        time.sleep(0.01)
    time.sleep(0.3)
    assert voice.speaking
    voice.stop()
    assert voice.wait(2.0) and not voice.speaking
    (said,) = voice.history
    assert said.interrupted and said.end - said.start < 1.5 < said.samples.size / SAMPLE_RATE


class FakeVoice:
    """A host voice that 'plays' known audio on the session timeline."""

    def __init__(self, playback: HostPlayback):
        self.history = [playback]
        self.stopped = False

    @property
    def speaking(self):
        return not self.stopped

    def stop(self):
        self.stopped = True
        self.history[-1].interrupted = True  # as the host's voice marks a sentence cut off

    def say(self, text):
        pass

    def wait(self, timeout=None):
        return True

    def close(self):
        pass


@pytest.fixture(scope="module")
def host_audio(tts):
    return tts.synthesize(HOST_LINE)


def test_host_voice_is_not_heard_as_a_player(host_audio, vosk_rec, say):
    word = say("bewitched", "rms")
    host_start = 1.0
    player_at = host_start + host_audio.size / SAMPLE_RATE + 1.0
    mic = place([(host_start, 0.5 * host_audio, 0), (player_at, word, 0)], duration=player_at + 2)[:, 0]
    # without the gate the host's sentence comes back as an utterance
    assert len(list(listen(ArraySource(mic), vosk_rec.clone()))) == 2
    gate = EchoGate([HostPlayback(HOST_LINE, host_start, host_start + host_audio.size / SAMPLE_RATE, host_audio)])
    events = []
    us = list(listen(ArraySource(mic), vosk_rec.clone(), gate=gate, on_event=events.append))
    assert len(us) == 1 and us[0].start == pytest.approx(player_at, abs=0.1)
    assert [e.time for e in events if isinstance(e, SpeechStarted)] == [pytest.approx(player_at, abs=0.1)]


@pytest.mark.parametrize("voice", ["espeak:en", "espeak:en~t1.1", "espeak:en~t1.2", "rms~t1.15", "kal16~t1.15"])
def test_the_hosts_sentence_alone_is_never_heard_however_fast_the_machine_renders_it(voice, say, vosk_rec):
    """A CI machine's espeak-ng rendered the host's sentence faster than this one, and the
    host alone became an utterance: the echo predicted for each frame left out the host's
    newest 10 ms whenever the frame's times rounded down a sample, so the onset of a
    syllable stood out of its own echo, and the hangover made that one frame 0.3 s of a
    player. The prediction reaches the frame's end, and a frame found over the host starts
    the hangover only once another is found within 0.1 s."""
    host = say(HOST_LINE, voice)
    for gain in (1.0, 0.5, 0.2):
        mic = place([(1.0, gain * host, 0)], duration=1.0 + host.size / SAMPLE_RATE + 1.5)[:, 0]
        gate = EchoGate([HostPlayback(HOST_LINE, 1.0, 1.0 + host.size / SAMPLE_RATE, host)])
        events = []
        assert not list(listen(ArraySource(mic), vosk_rec.clone(), gate=gate, on_event=events.append))
        assert not [e for e in events if isinstance(e, SpeechStarted)], (gain, events)


def test_barge_in_stops_the_host(host_audio, vosk_rec, say):
    word = say("challenge", "awb")
    host_start, player_at = 1.0, 2.5
    # the loudspeaker's echo reaches the table microphone about 10 dB down
    mic = place([(host_start, 0.3 * host_audio, 0), (player_at, word, 0)], duration=6.0)[:, 0]
    voice = FakeVoice(HostPlayback(HOST_LINE, host_start, host_start + host_audio.size / SAMPLE_RATE, host_audio))
    events = []
    us = list(listen(ArraySource(mic), vosk_rec.clone(), voice=voice, on_event=events.append))
    starts = [e for e in events if isinstance(e, SpeechStarted)]
    assert voice.stopped
    assert starts[0].barge_in and starts[0].time == pytest.approx(player_at, abs=0.15)
    assert len(us) == 1 and us[0].start == pytest.approx(player_at, abs=0.15)
    assert us[0].barged  # said over the host, for the hearing to weigh (ruling 100)


def test_a_word_the_host_stops_for_where_its_voice_is_not_heard_back_is_not_said_over_it(host_audio, vosk_rec, say):
    """Headphones, a null sink: the host stops for the player as anywhere, but its voice
    was never under the word, which is heard as in quiet (a question of its own for
    what the host's voice garbled would only cost the table a question)."""
    word = say("challenge", "awb")
    host_start, player_at = 1.0, 2.5
    mic = place([(player_at, word, 0)], duration=6.0)[:, 0]
    voice = FakeVoice(HostPlayback(HOST_LINE, host_start, host_start + host_audio.size / SAMPLE_RATE, host_audio))
    us = list(listen(ArraySource(mic), vosk_rec.clone(), voice=voice))
    assert voice.stopped and len(us) == 1 and not us[0].barged


def test_a_word_the_host_stops_for_is_one_utterance_as_it_comes_out_from_under_the_hosts_voice(host_audio, moon, say):
    """Live with the host's voice heard back, the canceller holds a word said over the host
    down until the host has stopped and its echo died away, and the rest of the word comes
    15 dB louder: taken for a louder voice coming into the room's talk, the word's start was
    dropped as the room's ("overtaken") and its end alone was heard ("listen" for
    "embracing", too short, the word lost without a question)."""
    word = say("disturbances", "awb")
    held = round(0.4 * SAMPLE_RATE)
    word = np.concatenate([word[:held] * 10 ** (-15 / 20), word[held:]])  # under the canceller's hold
    host_start, player_at = 1.0, 2.5
    mic = place([(player_at, word, 0)], duration=6.0)[:, 0]
    voice = FakeVoice(HostPlayback(HOST_LINE, host_start, host_start + host_audio.size / SAMPLE_RATE, host_audio))
    events = []
    us = list(listen(ArraySource(mic), moon, voice=voice, on_event=events.append))
    assert voice.stopped and not [e for e in events if isinstance(e, Discarded)]
    assert len(us) == 1 and us[0].start == pytest.approx(player_at, abs=0.15), us
    assert "disturbances" in us[0].text, us[0].text


def test_the_gate_hears_the_host_back_only_where_its_echo_stands_over_the_room(host_audio):
    playback = HostPlayback(HOST_LINE, 1.0, 1.0 + host_audio.size / SAMPLE_RATE, host_audio)
    frame = 480
    for echo, heard in ((0.3, True), (0.0, False)):
        mic = place([(1.0, echo * host_audio, 0)], duration=4.0)[:, 0] + 1e-4 * np.random.default_rng(1).standard_normal(
            int(4.0 * SAMPLE_RATE)).astype(np.float32)
        gate = EchoGate([playback])
        for i in range(int(2.5 * SAMPLE_RATE) // frame):
            gate.is_echo(i * frame / SAMPLE_RATE, (i + 1) * frame / SAMPLE_RATE, mic[i * frame:(i + 1) * frame])
        assert gate.heard_back(2.5, 2.8) == heard, echo
        assert not gate.heard_back(9.0, 9.3)  # the host long quiet


class Listening:
    """Voice prints that know Ann and Ben and tell which audio they were given."""

    min_similarity, sure_similarity = 0.5, 0.6
    players = ["Ann", "Ben"]

    def __init__(self):
        self.heard: list[int] = []

    def identify(self, audio, candidates=None):
        from voice_host.speech.listening.voiceprint import Identification

        self.heard.append(audio.size)
        return Identification("Ann", 0.9, {"Ann": 0.9, "Ben": 0.2})


def test_the_voice_print_hears_a_word_said_over_the_host_once_the_hosts_voice_has_died_away(host_audio, vosk_rec,
                                                                                           say):
    """Live, with the host's voice heard back, its voice under a word's first sounds made
    the voice print find another player ("Dee: remembering" for Eli's). The print hears
    the word from CUT_TAIL after the host stopped; with the host quiet, all of it."""
    word = say("challenge", "awb")
    host_start, player_at = 1.0, 2.5
    mic = place([(host_start, 0.3 * host_audio, 0), (player_at, word, 0)], duration=6.0)[:, 0]
    voice = FakeVoice(HostPlayback(HOST_LINE, host_start, host_start + host_audio.size / SAMPLE_RATE, host_audio))
    voice.stop = lambda: (setattr(voice, "stopped", True), _cut(voice.history[-1], player_at + 0.1))
    prints = Listening()
    us = list(listen(ArraySource(mic), vosk_rec.clone(), ["Ann", "Ben"], voice=voice, voiceprints=prints))
    assert len(us) == 1 and us[0].barged and us[0].speaker == "Ann"
    dropped = (us[0].audio.size - prints.heard[0]) / SAMPLE_RATE  # the pre-roll, and up to the host's tail
    assert dropped >= player_at + 0.1 + CUT_TAIL - us[0].start - 0.01 and prints.heard[0] >= 0.4 * SAMPLE_RATE
    quiet = Listening()
    mic = place([(player_at, word, 0)], duration=6.0)[:, 0]
    us = list(listen(ArraySource(mic), vosk_rec.clone(), ["Ann", "Ben"], voiceprints=quiet))
    assert len(us) == 1 and not us[0].barged and quiet.heard == [us[0].audio.size]


def _cut(playback: HostPlayback, at: float) -> None:
    playback.end, playback.interrupted = at, True


def test_the_host_is_heard_back_in_a_pause_between_its_words():
    """Live, with the host's voice heard back: a word begun in a pause of the host's
    sentence was weighed as in quiet ("Did you say reparation?" for Fay's "merchant"):
    the host's voice of the last 0.15 s alone was judged, and there was none."""
    rate, frame = SAMPLE_RATE, 480
    tone = 0.3 * np.sin(np.linspace(0, 800 * np.pi, rate // 2)).astype(np.float32)
    host = np.concatenate([tone, np.zeros(rate, np.float32), tone])  # a word, a 1 s pause, a word
    playback = HostPlayback(HOST_LINE, 1.0, 1.0 + host.size / rate, host)
    mic = place([(1.0, 0.3 * host, 0)], duration=4.0)[:, 0] + 1e-4 * np.random.default_rng(2).standard_normal(
        4 * rate).astype(np.float32)
    gate = EchoGate([playback])
    for i in range(int(1.9 * rate) // frame):
        gate.is_echo(i * frame / rate, (i + 1) * frame / rate, mic[i * frame:(i + 1) * frame])
    assert gate.heard_back(1.9, 2.0)


def test_a_word_said_with_the_host_quiet_is_not_given_as_said_over_it(vosk_rec, say):
    word = say("challenge", "awb")
    mic = place([(1.0, word, 0)], duration=4.0)[:, 0]
    voice = FakeVoice(HostPlayback(HOST_LINE, 5.0, 7.0))
    voice.stopped = True  # the host is quiet
    us = list(listen(ArraySource(mic), vosk_rec.clone(), voice=voice))
    assert len(us) == 1 and not us[0].barged


def test_transcript_repeating_the_host_is_dropped():
    gate = EchoGate([HostPlayback("Alice scores nine for rhythm", 1.0, 3.0)])
    assert gate.echo_of("alice scores nine", 1.5, 2.5)
    assert not gate.echo_of("challenge", 1.5, 2.5)
    assert not gate.echo_of("alice scores nine", 6.0, 7.0)
    assert gate.host_active(2.9, 3.1) and not gate.host_active(4.0, 4.5)
    _ = Discarded


def test_tts_voice_without_an_output_device_says_so(monkeypatch):
    from voice_host.speech import audio as sources

    monkeypatch.setattr(sources, "list_devices", lambda: [])
    with pytest.raises(RuntimeError, match="no audio output device"):
        TtsVoice()


def test_a_player_who_speaks_as_the_host_begins_is_heard_where_there_is_no_echo(host_audio, vosk_rec, say):
    """Headphones, or a microphone the speakers do not reach: the host's first frames teach
    the gate an echo gain of about nothing, and a player speaking 0.3 s into them (an
    introduction over the opening's question) is a player, not echo. The gain was the
    loudest ratio of the first frames, the player's own voice, so the player was gated."""
    word = say("I am Dee, and I am ready to play.", "rms")
    host_start = 1.0
    player_at = host_start + 0.3
    mic = place([(player_at, word, 0)], duration=player_at + word.size / SAMPLE_RATE + 2)[:, 0]
    gate = EchoGate([HostPlayback(HOST_LINE, host_start, host_start + host_audio.size / SAMPLE_RATE, host_audio)])
    def heard(gate=None):
        events = []
        us = list(listen(ArraySource(mic), vosk_rec.clone(), gate=gate, on_event=events.append))
        return [(u.start, u.end) for u in us], [e.time for e in events if isinstance(e, SpeechStarted)]

    ungated = heard()
    assert ungated[1][0] == pytest.approx(player_at, abs=0.1)
    assert heard(gate) == ungated  # nothing of the player's is taken for echo


@pytest.mark.parametrize("before", [0.1, 0.3])
def test_a_word_begun_just_before_the_host_speaks_is_heard_whole(before, host_audio, vosk_rec, say):
    """A word begun just before the host's first sentence, with no echo path (headphones,
    a null sink): the gate learnt the echo gain from the host's first frames, which were
    the word, and gated the rest of it (6 to 12 of its 12 loud frames). A player already
    talking when the host's voice begins is the player's until they pause."""
    word = say("complete", "rms")
    host_start = 1.0
    # and a word said over the host later is heard too: the gain learnt is about nothing
    mic = place([(host_start - before, word, 0), (2.5, word, 0)], duration=host_start + 3)[:, 0]
    gate = EchoGate([HostPlayback(HOST_LINE, host_start, host_start + host_audio.size / SAMPLE_RATE, host_audio)])
    frame = 480
    loud = [i for i in range(mic.size // frame) if float(np.sqrt(np.mean(mic[i * frame:(i + 1) * frame] ** 2))) > 0.01]
    gated = [i for i in range(mic.size // frame)
             if gate.is_echo(i * frame / SAMPLE_RATE, (i + 1) * frame / SAMPLE_RATE, mic[i * frame:(i + 1) * frame])]
    assert len(loud) > 16 and not set(gated) & set(loud)


def test_a_player_saying_what_the_host_asks_is_not_taken_for_its_echo(say):
    """Live, held-out table: "Dee, so I know your voice, please say: I am Dee, and I am
    ready to play." and Dee said it over the question: the transcript repeated the host's
    words, so it was dropped as "host echo", and Dee was never enrolled. Words the host
    says are its echo only when the microphone is no louder than its echo could be."""
    asked = "Dee, so I know your voice, please say: I am Dee, and I am ready to play."
    host = say(asked, "awb")  # the host's sentence, as played
    player = say("I am Dee, and I am ready to play.", "rms")
    gate = EchoGate([HostPlayback(asked, 1.0, 1.0 + host.size / SAMPLE_RATE, host)])
    # no echo path (headphones, a null sink): the gain learned is about nothing
    for i in range(40):
        gate.is_echo(1.0 + i * 0.03, 1.03 + i * 0.03, np.zeros(480, np.float32))
    assert not gate.echo_of("i am dee and i am ready to play", 2.0, 4.0, audio=player)
    assert gate.echo_of("i am dee and i am ready to play", 2.0, 4.0, audio=0.001 * host[32000:64000])
    assert gate.echo_of("i am dee and i am ready to play", 2.0, 4.0)  # no audio: by the words alone


def test_each_microphone_learns_its_own_echo_so_a_far_one_still_hears_a_player_over_the_host(host_audio, moon, say):
    """Ann's phone lies by the loudspeaker (the host's voice as loud as played), the laptop's
    microphone is far from it (-34 dB). Cat, at the laptop, says her word over the host.
    One echo gain learnt from both microphones fits neither: the host's sentence on the
    phone became an utterance of Ann's and Cat's word was lost. Each microphone's own
    gain gates the host on the phone and hears Cat on the laptop."""
    word = say("window", "awb")
    host_start, player_at = 1.0, 1.6
    end = host_start + host_audio.size / SAMPLE_RATE
    mic = place([(host_start, host_audio, 0), (host_start, 0.02 * host_audio, 1), (player_at, 0.8 * word, 1)],
                duration=end + 2.0, channels=2)
    voice = FakeVoice(HostPlayback(HOST_LINE, host_start, end, host_audio))
    voice.stopped = True  # no barge-in: the host's voice plays on in the recording
    heard = list(listen(ArraySource(mic), moon, ["Ann", "Cat"], channel_players=["Ann", None], voice=voice))
    # (the host's voice under her word may add a faint word of its own to the free transcript)
    assert [u.channel for u in heard] == [1] and "window" in heard[0].body.split(), heard


class EchoingMic:
    """A microphone near the speakers: the player's audio plus, as it is read, every
    sound the host has played by then (`history`), at `gain`."""

    channels, realtime = 1, False

    def __init__(self, audio: np.ndarray, history: list[HostPlayback], gain: float):
        self.audio, self.history, self.gain = audio, history, gain

    def __iter__(self):
        from voice_host.messages import AudioChunk

        step = SAMPLE_RATE // 10
        for i in range(0, self.audio.size, step):
            chunk = self.audio[i:i + step].copy()
            for p in self.history:
                a = i - int(round(p.start * SAMPLE_RATE))
                if a + chunk.size > 0 and a < p.samples.size:
                    part = p.samples[max(a, 0):a + chunk.size]
                    chunk[max(-a, 0):max(-a, 0) + part.size] += self.gain * part
            yield AudioChunk(i / SAMPLE_RATE, chunk[:, None])

    def close(self):
        pass


def test_the_hosts_tick_in_a_pause_does_not_cut_what_the_player_goes_on_to_say(moon, say):
    """Live, held-out answering table: a player spelling a word ("Romeo, Echo, ...")
    paused 0.2-0.3 s between letters; the host's tick came in the pause, the echo gate
    took the letters said over its tail for the tick's echo, the pause ran past the
    trailing silence and the spelling was heard as pieces ("romeo", "echo sierra papa
    ..."). The tick is not gated: its echo is too short to pass for speech."""
    from voice_host.speech.listening.turns import Waiting
    from voice_host.speech.speaking import earcons

    asked = "Did you say premise or promise?"
    host = say(asked, "awb")
    tick = earcons.earcon("heard", SAMPLE_RATE).astype(np.float32)
    spelled = say("Papa, Romeo, Echo, Mike, India, Sierra, Echo.", "kal16")
    start = 1.0 + host.size / SAMPLE_RATE + 0.8
    audio = place([(start, spelled, 0)], duration=start + spelled.size / SAMPLE_RATE + 2)[:, 0]
    voice = FakeVoice(HostPlayback(asked, 1.0, 1.0 + host.size / SAMPLE_RATE, host))
    voice.stopped = True  # the question was over when the player began

    def tick_at_a_pause(event) -> None:
        if isinstance(event, Waiting):
            at = event.time + 0.3
            voice.history.append(HostPlayback("", at, at + tick.size / SAMPLE_RATE, tick, earcon="heard"))

    mic = EchoingMic(audio, voice.history, gain=0.5)  # speakers by the microphone: the echo is loud
    heard = list(listen(mic, moon, voice=voice, on_event=tick_at_a_pause))
    assert len(voice.history) > 1  # the host ticked in the player's pauses
    assert len(heard) == 1, [u.text for u in heard]
    words = heard[0].text.split()
    assert words[0] == "papa" and words[-2:] == ["sierra", "echo"], heard[0].text  # all of it, in one


def test_a_player_over_the_host_in_a_loud_room_is_not_taken_for_its_echo(say):
    """Live, held-out answering table at 10 dB: the microphone heard no echo of the host
    (a null sink) but the room's noise, so the gain learnt from the host's first frames
    was the noise's; a player's word said over the host, only 10 dB above that noise,
    was no louder than the "echo" and was cut. The gate predicts the echo over the
    room's own noise (heard while the host is quiet); the host alone, noise and all, is
    still its echo where the speakers reach the microphone."""
    rng = np.random.default_rng(0)
    host = say("Board. Four points: C, R; three points: G, T.", "awb")
    word = say("meaningless", "kal16")
    level = float(np.sqrt(np.mean(word[np.abs(word) > 0.01] ** 2)))

    def noise(n: int) -> np.ndarray:  # 10 dB under the word
        return (rng.standard_normal(n) * level / 10 ** 0.5).astype(np.float32)

    def frames(audio: np.ndarray, t0: float):
        for i in range(0, audio.size - 480 + 1, 480):
            yield t0 + i / SAMPLE_RATE, t0 + (i + 480) / SAMPLE_RATE, audio[i:i + 480]

    for echo in (0.0, 0.1):  # a null sink (or headphones), and speakers by the microphone (11 dB under the word)
        gate = EchoGate([HostPlayback("Board", 2.0, 2.0 + host.size / SAMPLE_RATE, host)])
        for t0, t1, f in frames(noise(2 * SAMPLE_RATE), 0.0):  # the room before the host speaks
            gate.is_echo(t0, t1, f)
        mic = noise(host.size) + echo * host
        mic[SAMPLE_RATE:SAMPLE_RATE + word.size] += word  # the player's word, 1 s into the host's sentence
        said = [(t0, gate.is_echo(t0, t1, f), f) for t0, t1, f in frames(mic, 2.0)]
        alone = [gated for t, gated, f in said if t < 3.0 - 0.1 and np.sqrt(np.mean(f ** 2)) > 2 * level / 10 ** 0.5]
        assert all(alone) if echo else not alone  # the host alone is its echo
        voiced = [gated for t, gated, f in said
                  if 3.0 <= t < 3.0 + word.size / SAMPLE_RATE and np.sqrt(np.mean(f ** 2)) > 2 * level / 10 ** 0.5]
        assert voiced and not any(voiced), (echo, sum(voiced), len(voiced))  # the word is the player's


def test_the_weaker_sounds_of_a_word_said_over_the_host_stay_the_players(say):
    """Live at 10 dB, a table answering over the host kept 50% of its words on the right
    sheet against 72% from the recording: each frame was judged alone, so a word's weaker
    sounds, no louder than the echo and the noise together, were taken for the host and
    the word reached the recognizer in pieces. Once a player is found over the host, the
    frames that follow are theirs for a moment (a double-talk hangover); the host alone
    is still its echo."""
    rng = np.random.default_rng(1)
    host = say("Board. Four points: C, R; three points: G, T.", "awb")
    word = say("meaningless", "kal16")
    level = float(np.sqrt(np.mean(word[np.abs(word) > 0.01] ** 2)))
    noise_level = level / 10 ** 0.5  # 10 dB under the word

    def noise(n: int) -> np.ndarray:
        return (rng.standard_normal(n) * noise_level).astype(np.float32)

    gate = EchoGate([HostPlayback("Board", 2.0, 2.0 + host.size / SAMPLE_RATE, host)])
    for i in range(0, 2 * SAMPLE_RATE, 480):  # the room before the host speaks
        gate.is_echo(i / SAMPLE_RATE, (i + 480) / SAMPLE_RATE, noise(480))
    mic = noise(host.size) + 0.3 * host  # speakers by the microphone
    mic[SAMPLE_RATE:SAMPLE_RATE + word.size] += word  # the player's word, 1 s into the host's sentence
    said = [(2.0 + i / SAMPLE_RATE, gate.is_echo(2.0 + i / SAMPLE_RATE, 2.0 + (i + 480) / SAMPLE_RATE, mic[i:i + 480]),
             float(np.sqrt(np.mean(word[max(0, i - SAMPLE_RATE):max(0, i + 480 - SAMPLE_RATE)] ** 2)))
             if SAMPLE_RATE <= i < SAMPLE_RATE + word.size else 0.0)
            for i in range(0, mic.size - 480 + 1, 480)]
    heard = [t for t, gated, _ in said if not gated and 3.0 <= t]
    assert heard, "the word was never found over the host"
    voiced = [gated for t, gated, w in said if heard[0] <= t and w > noise_level]  # the word over the noise
    # (the hangover starts once a second frame is found within 0.1 s of the first)
    assert voiced and sum(voiced) <= 1, (sum(voiced), len(voiced))
    alone = [gated for t, gated, w in said if t < 3.0 - 0.1 and np.sqrt(np.mean(host[int((t - 2.0) * SAMPLE_RATE):][:480] ** 2)) > noise_level]
    assert alone and all(alone)  # the host alone, before the word, is its echo


def test_a_sentence_cut_off_is_its_echo_only_as_far_as_it_was_said():
    """The host was cut off after "Fay, so" (a player talked over it): a player saying
    "I am Eli, and I am ready to play" just then repeats words the host never said."""
    asked = "Fay, so I know your voice, please say: I am Fay, and I am ready to play."
    cut = HostPlayback(asked, 1.0, 1.34, interrupted=True)
    gate = EchoGate([cut])
    assert not gate.echo_of("i am eli and i am ready to play", 1.2, 3.5)
    assert gate.echo_of("fay so", 1.1, 1.5)
    whole = EchoGate([HostPlayback(asked, 1.0, 5.0)])
    assert whole.echo_of("i am eli and i am ready to play", 3.0, 5.5)  # said in full: its echo


def test_a_sentence_its_own_first_sound_cut_off_is_its_echo_as_far_as_that_first_word():
    """Live, with the host's voice heard back: "Sorry, Eli, I was talking. Say that
    again?" stopped itself 0.1 s in, and its "sorry", heard through the room after the
    cut, was taken for a player's: words the host had not said by the cut."""
    asked = "Sorry, Eli, I was talking. Say that again?"
    gate = EchoGate([HostPlayback(asked, 1.0, 1.1, interrupted=True)])
    assert gate.echo_of("sorry", 1.0, 1.4)
    assert not gate.echo_of("say that again", 1.0, 1.6)


class DoubleTalk(EchoGate):
    """An echo gate that lets every frame from ``after`` on through, as it does a
    player's word said over the host: only the transcript can tell the host's words."""

    def __init__(self, playbacks, after: float = 0.0):
        super().__init__(playbacks)
        self.after = after

    def is_echo(self, t0, t1, frame):
        return t0 < self.after


def test_what_the_host_stopped_for_and_heard_only_as_its_own_words_is_given_as_drowned(tts, moon):
    """A word said over the host as loud as its echo, a second into its sentence: the
    host stops (barge-in), but the recognizer hears the host's own words in it. Dropped
    as the host's echo, the word was lost without a word; it is given as drowned (no
    text), so the host can ask for it again. Heard as the host's words without the host
    having stopped, it is echo."""
    line = "Eli scores ten points for surprisingly, and the board is unchanged."
    host_audio = tts.synthesize(line)
    host_start, into = 0.2, 1.0
    end = host_start + host_audio.size / SAMPLE_RATE
    mic = place([(host_start, 0.5 * host_audio, 0)], duration=end + 1.5)[:, 0]
    config = TurnConfig(echo_cancel=False)  # the host's echo left in, as a word said over it leaves it
    playback = HostPlayback(line, host_start, end, host_audio)
    voice = FakeVoice(playback)
    events = []
    heard = list(listen(ArraySource(mic), moon, voice=voice, gate=DoubleTalk([playback], host_start + into),
                        config=config, on_event=events.append))
    assert voice.stopped and next(e for e in events if isinstance(e, SpeechStarted)).barge_in
    assert [e.reason for e in events if isinstance(e, Discarded)][:1] == ["host echo"], (events, heard)
    assert heard and heard[0].drowned and heard[0].text == heard[0].body == "" and heard[0].words == []
    playback = HostPlayback(line, host_start, end, host_audio)
    quiet = FakeVoice(playback)
    quiet.stopped = True  # the host's voice is not stopped for it: its echo, and nothing more
    events = []
    assert list(listen(ArraySource(mic), moon, voice=quiet, gate=DoubleTalk([playback], host_start + into),
                       config=config, on_event=events.append)) == []
    assert "host echo" in [e.reason for e in events if isinstance(e, Discarded)]


def test_the_hosts_own_first_words_that_stopped_it_are_its_echo_not_a_drowned_word(tts, moon):
    """Live, the host's voice 6 dB over the players: "I didn't catch a word in ..." was
    stopped by its own first sound, heard back as "i did", louder than the echo gain
    learnt where it pauses, so a player's: the host answered "I didn't catch a word in
    'i did'", and stopped itself again, over and over. What stopped a sentence within
    its first words and is heard as them is its echo, whatever its level."""
    line = "I didn't catch a word in that. Say just the word."
    host_audio = tts.synthesize(line)
    end = 1.0 + host_audio.size / SAMPLE_RATE
    mic = place([(1.0, 0.5 * host_audio, 0)], duration=end + 1.5)[:, 0]
    playback = HostPlayback(line, 1.0, end, host_audio)
    gate = DoubleTalk([playback])
    gate._gain = 1e-6  # an echo gain learnt far too low: any sound is louder than its echo
    events = []
    voice = FakeVoice(playback)
    assert list(listen(ArraySource(mic), moon, voice=voice, gate=gate, config=TurnConfig(echo_cancel=False),
                       on_event=events.append)) == [], events
    assert voice.stopped and "host echo" in [e.reason for e in events if isinstance(e, Discarded)]


class Swallowing(EchoGate):
    """An echo gate that takes everything after ``after`` for the host's echo, as the
    live table's gate did a word begun over the host's first sounds with no echo path."""

    def __init__(self, playbacks, after: float):
        super().__init__(playbacks)
        self.after = after

    def is_echo(self, t0, t1, frame):
        return t0 >= self.after


def test_what_the_host_stopped_for_and_heard_too_little_of_is_given_as_drowned(moon, say):
    """Live, with no echo path: "predominantly", said over the host's "Round 3: Dee's
    turn.", stopped the host, but the gate took the rest of it for the host's echo, and
    with under 0.2 s of voice left it was dropped as too short: lost without a word,
    though the recognizer had heard it. It is given as drowned, so the host asks for it
    again; too short without the host stopping for it, it is noise, dropped."""
    word = say("predominantly", "rms")
    at = 1.0
    mic = place([(at, word, 0)], duration=at + word.size / SAMPLE_RATE + 1.5)[:, 0]
    playback = HostPlayback("Round 3: Dee's turn.", at - 0.2, at + 1.5, None)
    events = []
    voice = FakeVoice(playback)
    heard = list(listen(ArraySource(mic), moon, voice=voice, gate=Swallowing([playback], at + 0.15),
                        on_event=events.append))
    assert voice.stopped and [e.reason for e in events if isinstance(e, Discarded)] == ["too short"], events
    assert len(heard) == 1 and heard[0].drowned and heard[0].text == ""
    quiet = FakeVoice(playback)
    quiet.stopped = True
    events = []
    assert list(listen(ArraySource(mic), moon, voice=quiet, gate=Swallowing([playback], at + 0.15),
                       on_event=events.append)) == []
    assert [e.reason for e in events if isinstance(e, Discarded)] == ["too short"]


def test_too_little_of_what_the_host_stopped_for_heard_as_its_own_words_is_its_echo(moon, say):
    """Live, with the host's voice heard back: the host's own "sorry", 0.2 s of it past
    the gate, was louder than the echo gain learnt so far, so not its echo, and the host
    asked "Sorry, I was talking. Say that again?" of nobody. Too short a sound to weigh
    its level, it is the host's echo when its words are the host's."""
    word = say("predominantly", "rms")
    at = 1.0
    mic = place([(at, word, 0)], duration=at + word.size / SAMPLE_RATE + 1.5)[:, 0]
    host = 0.1 * np.sin(np.arange(int(1.7 * SAMPLE_RATE)) * 0.05).astype(np.float32)  # what it played
    playback = HostPlayback("Dee scores 13 points for predominantly.", at - 0.2, at + 1.5, host)
    gate = Swallowing([playback], at + 0.15)
    gate._gain = 1e-6  # an echo gain learnt far too low: any sound is louder than its echo
    events = []
    assert list(listen(ArraySource(mic), moon, voice=FakeVoice(playback), gate=gate, on_event=events.append)) == []
    assert [e.reason for e in events if isinstance(e, Discarded)] == ["too short"]


def test_a_word_held_down_to_a_short_sound_over_the_host_is_given_as_drowned_whoever_judges_its_frames(moon, say):
    """Live, with the host's voice heard back, the canceller holds a word said over the
    host down to 0.1-0.2 s of voice ("killings" heard "forged", "showdown" "thank you",
    "merchant" "brutal"): dropped as a burst the canceller left, 4 words in 3 runs were
    lost without a word, against 3 such bursts that were nobody's ("thanks", "fiend",
    "venter"). A short sound the host stopped for is a word lost under it, asked for
    again, whether the gate or the canceller judged its frames; one heard as the host's
    own words is its echo (above)."""
    burst = say("predominantly", "rms")[: int(0.16 * SAMPLE_RATE)]
    at = 1.0
    mic = place([(at, burst, 0)], duration=at + 1.5)[:, 0]
    host = 0.1 * np.sin(np.arange(int(2.0 * SAMPLE_RATE)) * 0.05).astype(np.float32)  # what it played

    def heard(echo_gate: str):
        playback = HostPlayback("Round 3: Dee's turn.", at - 0.2, at + 1.8, host)
        events = []
        us = list(listen(ArraySource(mic), moon, voice=FakeVoice(playback), gate=EchoGate([playback]),
                         config=TurnConfig(echo_gate=echo_gate, min_speech=0.3), on_event=events.append))
        return [u.drowned for u in us], [(e.reason, bool(e.text)) for e in events if isinstance(e, Discarded)]

    assert heard("off") == ([True], [("too short", True)])  # the canceller judges
    assert heard("on") == ([True], [("too short", True)])  # the gate judges
