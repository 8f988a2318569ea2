"""Each player's phone as their microphone (--phones), the hub alone: the join code and its
lockout, one device per player, malformed packets and floods dropped, each phone its
player's channel resampled to 16 kHz, the source's pace and the laptop's microphone
beside the phones, a talk button let go, a phone player's word heard again on the
laptop's microphone counted once.
"""

from __future__ import annotations

import time

import numpy as np
import pytest
from support import pcm

from voice_host.host.announcer import Announcer
from voice_host.phones import LATE, MAX_FAILURES, Phones, Refused
from voice_host.phones.source import PhoneSource
from voice_host.speech.audio import SAMPLE_RATE, write_wav

pytestmark = pytest.mark.slow  # run with the phones' server's tests

PLAYERS = ("Ann", "Ben", "Cat")


def test_the_join_code_is_six_digits_and_a_wrong_one_is_refused():
    phones = Phones(PLAYERS)
    assert len(phones.code) == 6 and phones.code.isdigit()
    wrong = f"{(int(phones.code) + 1) % 10 ** 6:06d}"
    for code in (wrong, "", None, 1234, phones.code + "0"):  # as many as a device may get wrong
        with pytest.raises(Refused, match="not the join code"):
            phones.join(code, "Ann", 48000, "10.0.0.9")
    assert phones.connected() == []
    assert phones.join(phones.code, "Ann", 48000, "10.0.0.8")
    assert phones.connected() == ["Ann"]


def test_a_device_guessing_codes_is_made_to_wait_even_with_the_right_one():
    phones = Phones(PLAYERS, code="4815")
    for _ in range(MAX_FAILURES):
        with pytest.raises(Refused):
            phones.join("0000", "Ann", 48000, "10.0.0.66")
    with pytest.raises(Refused, match="Too many wrong codes from this phone; try again in a minute"):
        phones.join("4815", "Ann", 48000, "10.0.0.66")
    assert phones.join("4815", "Ann", 48000, "10.0.0.2")  # another device is not held back


def test_a_second_device_cannot_take_a_connected_player_until_the_first_leaves():
    phones = Phones(PLAYERS, code="1234")
    first = phones.join("1234", "Ben", 44100)
    with pytest.raises(Refused, match="Ben is already connected from another device"):
        phones.join("1234", "Ben", 48000)
    for name, rate in (("Zed", 48000), (None, 48000), ("Ann", 10), ("Ann", "48000"), ("Ann", True)):
        with pytest.raises(Refused):
            phones.join("1234", name, rate)
    assert phones.notices(Announcer()) == ["Ben, I'm listening on your phone."]
    phones.leave(first)
    phones.said["Ben"] = ("joined", 0.0)  # said long enough ago: the loss is said at once
    assert phones.notices(Announcer()) == ["Ben, I lost your phone; open the page again to rejoin."]
    assert phones.notices(Announcer()) == []
    assert phones.join("1234", "Ben", 48000)
    assert phones.events() == [("joined", "Ben")]


def test_a_phone_is_its_players_channel_resampled_to_16_khz():
    phones = Phones(PLAYERS, code="1234")
    ben = phones.join("1234", "Ben", 48000)
    for _ in range(10):
        assert phones.audio(ben, pcm(0.05, 48000))
    out = np.concatenate([phones.take(800)[0] for _ in range(12)])
    assert out.shape == (9600, 3)
    assert not out[:, 0].any()  # Ann has no phone: silence
    heard = np.flatnonzero(np.abs(out[:, 1]) > 0.1)
    assert 7000 <= heard[-1] - heard[0] <= 8000  # half a second of tone at 16 kHz (less what soxr still holds)
    spectrum = np.abs(np.fft.rfft(out[heard[0]:heard[0] + 4000, 1]))
    assert abs(np.argmax(spectrum) * SAMPLE_RATE / 4000 - 440) < 8


def test_malformed_packets_and_floods_leave_the_other_players_untouched():
    phones = Phones(PLAYERS, code="1234")
    ann, ben = phones.join("1234", "Ann", 16000), phones.join("1234", "Ben", 16000)
    for bad in (b"", b"\x01", b"abc", "text", None, {"a": 1}, b"\0" * (2 * 16000 + 2)):
        assert not phones.audio(ben, bad)
    assert not phones.audio(999, pcm(0.1, 16000))  # no such phone
    assert phones.dropped == 7 and not phones.too_malformed(ben)
    for _ in range(400):  # 40 s of Ben's audio at once: only his own last seconds are kept
        phones.audio(ben, pcm(0.1, 16000))
    phones.audio(ann, pcm(0.5, 16000, tone=300))
    out, _ = phones.take(16000 * 8)
    assert np.count_nonzero(out[:, 0]) <= 8000 and np.count_nonzero(out[:, 1]) <= 5 * 16000 + 1600
    assert np.count_nonzero(out[:, 0]) > 7000
    for _ in range(60):
        phones.audio(ben, b"\x01")
    assert phones.too_malformed(ben) and not phones.too_malformed(ann)


def test_the_phones_source_keeps_real_time_with_a_channel_a_player():
    phones = Phones(PLAYERS, code="1234")
    source = PhoneSource(phones)
    assert source.channels == 3 and source.channel_players == ["Ann", "Ben", "Cat"]
    ann = phones.join("1234", "Ann", 16000)
    phones.audio(ann, pcm(0.3, 16000))
    chunks = []
    began = time.monotonic()
    for chunk in source:
        chunks.append(chunk)
        if len(chunks) == 20:
            source.close()
    assert time.monotonic() - began >= 0.09  # what the phone sent at once, at once; the silence after it when due
    assert [c.start for c in chunks] == pytest.approx([i * 0.02 for i in range(20)])
    audio = np.concatenate([c.samples for c in chunks])
    assert np.count_nonzero(audio[:, 0]) > 4000 and not audio[:, 1].any()


def test_the_phones_source_goes_on_when_a_chunk_falls_due_as_it_waits_for_it():
    """The clock read twice: a chunk not yet due at the first reading may be past due at
    the second (a busy machine); the wait is then none, never a negative sleep that
    stopped the listener."""
    phones = Phones(PLAYERS, code="1234")
    source = PhoneSource(phones)
    readings = iter([0.0, 0.0, 0.05] + [0.05 + 0.001 * i for i in range(1000)])
    source.now = lambda: next(readings)
    chunks = []
    for chunk in source:
        chunks.append(chunk)
        if len(chunks) == 2:
            source.close()
    assert [c.start for c in chunks] == pytest.approx([0.0, 0.02])


class _Network:
    """A phone's audio arriving late: a clock that moves 5 ms each time the source reads it, delivering each (when, pcm) to Ann's phone once its time has come."""

    def __init__(self, deliveries) -> None:
        self.t, self.deliveries = 0.0, list(deliveries)
        self.phones = Phones(PLAYERS, code="1234", clock=self.clock)
        self.ann = self.phones.join("1234", "Ann", 16000)
        self.read_at: list[float] = []

    def clock(self) -> float:
        return self.t

    def tick(self) -> float:
        self.t += 0.005
        while self.deliveries and self.deliveries[0][0] <= self.t:
            self.phones.audio(self.ann, self.deliveries.pop(0)[1])
        return self.t

    def heard(self, source: PhoneSource, seconds: float) -> np.ndarray:
        """Ann's channel as the listener gets it, the clock's reading beside each chunk."""
        chunks = []
        for chunk in source:
            chunks.append(chunk.samples[:, 0])
            self.read_at.append(self.t)
            if len(chunks) * 0.02 >= seconds:
                source.close()
        return np.concatenate(chunks)


def test_a_phone_late_in_the_middle_of_a_word_is_waited_for_so_the_word_is_not_cut():
    """Half a second of the network's jitter in the middle of Ann's word: the word goes on
    where it stopped, no silence inserted in it (a silence there ends her utterance)."""
    network = _Network([(0.0, pcm(0.2, 16000)), (0.7, pcm(0.2, 16000) + bytes(9600))])
    source = PhoneSource(network.phones)
    source.now = network.tick
    ann = network.heard(source, 0.6)
    loud = [float(np.abs(ann[i:i + 320]).max()) for i in range(0, 6400, 320)]
    assert min(loud) > 0.4, loud  # 0.4 s of the word without a gap
    assert not ann[6400:].any()


def test_a_quiet_phone_late_is_not_waited_for_beyond_the_networks_usual_jitter():
    """The same stall while Ann's phone sends only the room's quiet: the others' audio
    is not held up for her, the source goes on within :data:`phones.LATE`."""
    network = _Network([(0.0, bytes(6400)), (0.7, pcm(0.2, 16000))])
    source = PhoneSource(network.phones)
    source.now = network.tick
    network.heard(source, 0.3)
    assert network.read_at[10] < 0.22 + LATE + 0.02  # the chunk after her 0.2 s, not held to 0.7


def test_at_a_mixed_table_the_laptops_microphone_is_a_last_channel_and_a_lost_phone_falls_back_to_it():
    from voice_host.speech.listening.sources import ArraySource

    phones = Phones(PLAYERS, code="1234", table_microphone=True)
    table = np.zeros((8000, 2), np.float32)
    table[:, 1] = 0.25  # the laptop's two channels, mixed to one
    source = PhoneSource(phones, ArraySource(table, chunk_seconds=0.05))
    assert source.channels == 4 and source.channel_players == ["Ann", "Ben", "Cat", None]
    cat = phones.join("1234", "Cat", 16000)
    phones.audio(cat, pcm(0.3, 16000))
    audio = np.concatenate([c.samples for c in source])
    assert audio.shape == (8000, 4) and np.allclose(audio[:, 3], 0.125)
    assert np.count_nonzero(audio[:, 2]) > 4000 and not audio[:, :2].any()
    assert phones.notices(Announcer()) == ["Cat, I'm listening on your phone."]
    phones.leave(cat)
    phones.said["Cat"] = ("joined", 0.0)
    assert phones.notices(Announcer()) == ["Cat, I lost your phone; I'll listen on the table's microphone."]


def test_a_talk_button_let_go_ends_its_players_audio_there():
    phones = Phones(PLAYERS, code="1234")
    ben = phones.join("1234", "Ben", 16000)
    phones.audio(ben, pcm(0.2, 16000))
    phones.release(ben)
    phones.audio(phones.join("1234", "Cat", 16000), pcm(0.5, 16000))
    out, done = phones.take(16000)
    assert done == (1,)  # Ben's, not Cat's: hers is still going
    assert 3000 <= np.count_nonzero(out[:, 1]) <= 3200 and np.count_nonzero(out[:, 2]) > 7000
    assert phones.take(1600)[1] == ()
    phones.release(ben)  # nothing sent since: nothing to end
    phones.audio(ben, pcm(0.2, 16000))
    phones.release(ben)
    phones.audio(ben, pcm(0.2, 16000))  # held again before the host heard the release: one utterance
    out, done = phones.take(16000)
    assert done == () and np.count_nonzero(out[:, 1]) > 6000


def mixed_table(phone_audio: dict[str, np.ndarray], table: np.ndarray, release: bool = False):
    """A PhoneSource over a recording of the laptop's microphone, the phones' audio sent at once."""
    from voice_host.speech.listening.sources import ArraySource

    phones = Phones(PLAYERS, code="1234", table_microphone=True)
    for name, audio in phone_audio.items():
        conn = phones.join("1234", name, 16000)
        phones.audio(conn, (np.clip(audio, -1, 1) * 32767).astype("<i2").tobytes())
        if release:
            phones.release(conn)
    return PhoneSource(phones, ArraySource(table, chunk_seconds=0.05))


class Timed:
    """A source that notes where on its timeline the chunk last handed out ends."""

    def __init__(self, source) -> None:
        self.source, self.now = source, 0.0

    def __getattr__(self, name):
        return getattr(self.source, name)

    def __iter__(self):
        for chunk in self.source:
            self.now = chunk.end
            yield chunk


def heard(source, moon):
    """What the listener makes of ``source`` (not paced by the clock): the utterances, with
    the source time each came out at, and the discarded speech."""
    from voice_host.speech.listening.turns import Discarded, Listener

    events = []
    listener = Listener(moon, PLAYERS, channel_players=source.channel_players, on_event=events.append)
    timed = Timed(source)
    out = [(u, timed.now) for u in listener.utterances(timed)]
    return out, [e for e in events if isinstance(e, Discarded)]


def test_push_to_talk_ends_the_utterance_when_the_button_is_let_go(say, moon):
    word = say("garden")
    quiet = np.zeros((4 * SAMPLE_RATE, 1), np.float32)
    said, _ = heard(mixed_table({"Ann": word}, quiet, release=True), moon)
    assert [(u.speaker, u.body) for u, _ in said] == [("Ann", "garden")]
    held, _ = heard(mixed_table({"Ann": word}, quiet), moon)
    assert [(u.speaker, u.body) for u, _ in held] == [("Ann", "garden")]
    # let go: out as soon as the phone's audio ends; hands-free: after the silence that ends a word
    assert said[0][1] <= len(word) / SAMPLE_RATE + 0.1 < held[0][1] - 0.25


def test_a_phone_players_word_heard_again_on_the_laptops_microphone_counts_once(say, moon):
    word, other = say("pocket"), say("window", "rms")
    table = np.zeros((4 * SAMPLE_RATE, 1), np.float32)
    table[:len(word), 0] = 0.25 * word  # the laptop hears Ann's voice, 12 dB down, before her phone's copy arrives
    said, dropped = heard(mixed_table({"Ann": word}, table), moon)
    assert [(u.speaker, u.body, u.channel) for u, _ in said] == [("Ann", "pocket", 0)]
    assert [d.reason for d in dropped] == ["a player's microphone"] and dropped[0].channel == 3
    table[2 * SAMPLE_RATE:2 * SAMPLE_RATE + len(other), 0] = other  # then Cat, who has no phone, at the laptop
    said, _ = heard(mixed_table({"Ann": word}, table), moon)
    assert [(u.speaker, u.body, u.channel) for u, _ in said] == [("Ann", "pocket", 0), (None, "window", 3)]


def test_phones_are_refused_with_a_recording_in_one_sentence(tmp_path, capsys):
    from voice_host import cli

    wav = tmp_path / "quiet.wav"
    write_wav(wav, np.zeros(1600, np.float32))
    code = cli.main(["play", "--players", "Ann,Ben,Cat", "--phones", "--audio", str(wav), "--no-voice"])
    assert code == 2
    assert "--phones listens to the players' phones live" in capsys.readouterr().err
