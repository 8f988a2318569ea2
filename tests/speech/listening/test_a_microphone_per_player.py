"""A microphone per player (phones, or --channels) at a real table: every microphone
hears every player, and the room talks under them all.

Each player's word reaches the other players' microphones too, 10 to 15 dB lower and a
little later; it is scored once, to the player whose own microphone heard it loudest,
and its copies are dropped as "another player's microphone". Two players who speak at
the same moment both count. Talk in the room far under a microphone's own player
(real recorded speech: LibriVox, from Debian's pocketsphinx-testdata) neither holds
that player's word open nor becomes an utterance of its own.
"""

from __future__ import annotations

import numpy as np
import pytest
from support import need, room_talk

from voice_host.phones import Phones
from voice_host.phones.source import PhoneSource
from voice_host.speech.audio import SAMPLE_RATE
from voice_host.speech.listening.sources import ArraySource

PLAYERS = ("Ann", "Ben", "Cat")
VOICES = {"Ann": "fest_slt", "Ben": "rms", "Cat": "awb"}


def dB(x: float) -> float:
    return 10 ** (x / 20)


def table(said: list[tuple[float, str, np.ndarray]], seconds: float, leak_db=(12.0, 15.0),
          delay=(0.02, 0.05)) -> np.ndarray:
    """(samples, players): each word at ``at`` on its player's microphone, and on every
    other player's ``leak_db`` dB lower and ``delay`` seconds later (the next two seats)."""
    out = np.zeros((int(seconds * SAMPLE_RATE), len(PLAYERS)), np.float32)
    for at, player, audio in said:
        me = PLAYERS.index(player)
        for k in range(len(PLAYERS)):
            ch = (me + k) % len(PLAYERS)
            gain, late = (1.0, 0.0) if k == 0 else (dB(-leak_db[k - 1]), delay[k - 1])
            i = int((at + late) * SAMPLE_RATE)
            out[i:i + audio.size, ch] += gain * audio
    return out


def listened(source, moon, channel_players=PLAYERS):
    """The utterances the listener hears on ``source`` (not paced by a clock), told that
    any word of the dictionary may be said, with the source time each came out at, and
    the speech it dropped."""
    from voice_host.speech.listening.turns import Discarded, Listener
    from voice_host.speech.recognizing.sayable import Sayable

    events = []
    listener = Listener(moon, PLAYERS, channel_players=channel_players, on_event=events.append)
    listener.constrain(Sayable(words=Sayable.dictionary(), names=PLAYERS))
    out = []
    at = [0.0]

    def timed():
        for chunk in source:
            at[0] = chunk.end
            yield chunk

    class Timed:
        channels = source.channels
        realtime = False

        def __iter__(self):
            return timed()

        def close(self):
            pass

    out = [(u, at[0]) for u in listener.utterances(Timed())]
    return out, [e for e in events if isinstance(e, Discarded)]


def test_a_word_every_microphone_hears_counts_once_for_the_player_whose_microphone_it_is(say, moon):
    words = [(0.5, "Ann", say("garden", VOICES["Ann"])), (2.5, "Ben", say("window", VOICES["Ben"])),
             (4.5, "Cat", say("silver", VOICES["Cat"]))]
    heard, dropped = listened(ArraySource(table(words, 7.0)), moon)
    assert [(u.speaker, u.body) for u, _ in heard] == [("Ann", "garden"), ("Ben", "window"), ("Cat", "silver")]
    assert {d.reason for d in dropped} == {"another player's microphone"}


def test_a_voice_as_loud_on_every_microphone_is_nobodys_and_the_players_words_still_count(say, moon):
    """A loudspeaker in the middle of the table (the laptop's own, before its echo is
    taken out; a television) reaches every player's microphone alike: no player is that
    close to it. It is no word of anyone's, and teaches no microphone its player's level."""
    words = [(3.0, "Ann", say("garden", VOICES["Ann"])), (5.0, "Ben", say("window", VOICES["Ben"])),
             (7.0, "Cat", say("silver", VOICES["Cat"]))]
    audio = table(words, 10.5)
    speaker = say("three points for jawbone", "kal16")
    for at in (0.5, 8.3):
        i = int(at * SAMPLE_RATE)
        audio[i:i + speaker.size] += speaker[:audio.shape[0] - i, None]  # the same sound, as loud, in every microphone
    heard, dropped = listened(ArraySource(audio), moon)
    assert [(u.speaker, u.body) for u, _ in heard] == [("Ann", "garden"), ("Ben", "window"), ("Cat", "silver")]
    # before any player's level is known, and after (by then, heard against each player's level)
    assert [d.reason for d in dropped if d.start < 2.0] == ["as loud on another player's microphone"] * 3
    assert len([d for d in dropped if d.start > 8.0]) == 3


def test_at_a_table_of_phones_a_word_every_phone_hears_counts_once(say, moon):
    words = [(0.5, "Ann", say("garden", VOICES["Ann"])), (2.5, "Ben", say("window", VOICES["Ben"])),
             (4.5, "Cat", say("silver", VOICES["Cat"]))]
    audio = table(words, 7.0, leak_db=(10.0, 14.0))
    phones = Phones(PLAYERS, code="123456", table_microphone=True)
    conns = [phones.join("123456", name, 16000) for name in PLAYERS]
    laptop = 0.05 * audio.sum(axis=1, keepdims=True)  # the laptop hears the whole table, further off

    class Laptop(ArraySource):
        """The laptop's microphone; each phone sends the same moment's audio as it is heard."""

        def __iter__(self):
            for chunk in super().__iter__():
                i = int(round(chunk.start * SAMPLE_RATE))
                for ch, conn in enumerate(conns):
                    part = audio[i:i + chunk.samples.shape[0], ch]
                    phones.audio(conn, (np.clip(part, -1, 1) * 32767).astype("<i2").tobytes())
                yield chunk

    source = PhoneSource(phones, Laptop(laptop, chunk_seconds=0.05))
    heard, dropped = listened(source, moon, source.channel_players)
    assert [(u.speaker, u.body) for u, _ in heard] == [("Ann", "garden"), ("Ben", "window"), ("Cat", "silver")]
    assert {d.reason for d in dropped} <= {"another player's microphone", "a player's microphone"}


def test_two_players_who_speak_at_the_same_moment_both_count(say, moon):
    first = [(0.5, "Ann", say("garden", VOICES["Ann"])), (2.5, "Ben", say("window", VOICES["Ben"])),
             (4.5, "Cat", say("silver", VOICES["Cat"]))]
    at_once = [(6.5, "Ann", say("basket", VOICES["Ann"])), (6.5, "Ben", say("yellow", VOICES["Ben"]))]
    heard, _ = listened(ArraySource(table(first + at_once, 9.0)), moon)
    assert sorted((u.speaker, u.body) for u, _ in heard[3:]) == [("Ann", "basket"), ("Ben", "yellow")]


def test_talk_under_a_players_own_microphone_never_holds_their_word_open_nor_is_heard(say, moon):
    """Other people start talking, 20 dB under each player, once every player has said a
    word (their phone has learnt their level from it)."""
    from voice_host.speech.audio import speech_level

    words = [(0.5, "Ann", say("garden", VOICES["Ann"])), (2.5, "Ben", say("window", VOICES["Ben"])),
             (4.5, "Cat", say("silver", VOICES["Cat"])), (6.5, "Ann", say("basket", VOICES["Ann"])),
             (8.5, "Cat", say("doctor", VOICES["Cat"])), (10.5, "Ben", say("yellow", VOICES["Ben"]))]
    quiet = table(words, 13.0)
    audio = quiet.copy()
    talk_from = int(5.2 * SAMPLE_RATE)
    for ch, name in enumerate(PLAYERS):
        own = dB(speech_level(next(a for _, p, a in words if p == name)))
        audio[talk_from:, ch] += room_talk(13.0 - 5.2, ch) * own * dB(-20.0)
    heard, _ = listened(ArraySource(audio), moon)
    assert [(u.speaker, u.body) for u, _ in heard] == [(p, w) for p, w in [
        ("Ann", "garden"), ("Ben", "window"), ("Cat", "silver"), ("Ann", "basket"), ("Cat", "doctor"),
        ("Ben", "yellow")]]
    # each word ends when its player stops, whatever the room goes on saying: as in a quiet room, or
    # at the silence that ends a word (where the room under it makes the recognizer unsure it is over)
    in_quiet, _ = listened(ArraySource(quiet), moon)
    assert [u.body for u, _ in in_quiet] == [u.body for u, _ in heard]
    for (u, out), (_, alone) in zip(heard, in_quiet):
        assert out - alone <= 0.25


def test_a_recorded_game_with_a_microphone_per_player_puts_each_word_once_on_its_players_sheet(say, tmp_path):
    """`voice-host play --audio table.wav --channels Ann,Ben,Cat`: a recording of a table
    where every microphone hears every player."""
    import json

    from voice_host import cli
    from voice_host.speech.audio import write_wav

    words = [(0.5, "Ann", say("garden", VOICES["Ann"])), (3.5, "Ben", say("window", VOICES["Ben"])),
             (6.5, "Cat", say("silver", VOICES["Cat"]))]
    wav, out = tmp_path / "table.wav", tmp_path / "result.json"
    write_wav(wav, table(words, 9.0))
    assert cli.main(["play", "--players", "Ann,Ben,Cat", "--channels", "Ann,Ben,Cat", "--audio", str(wav),
                     "--no-voice", "--seed", "3", "--result-json", str(out)]) == 0  # Ann starts
    sheets = {p["name"]: [w["word"] for w in p["words"] if w["word"]] for p in json.loads(out.read_text())["players"]}
    assert sheets == {"Ann": ["garden"], "Ben": ["window"], "Cat": ["silver"]}


def test_another_voice_a_little_under_a_players_own_on_their_microphone_is_the_rooms(say, moon):
    """Ann's phone knows her voice from her words; someone near her phone who is not at
    the table (a real person reading aloud, at their loudest 7 dB under Ann at hers) is
    not Ann."""
    from voice_host.speech.listening.owners import peak_level

    words = [(0.5, "Ann", say("garden", VOICES["Ann"])), (2.5, "Ann", say("basket", VOICES["Ann"])),
             (4.5, "Ben", say("window", VOICES["Ben"])), (6.5, "Cat", say("silver", VOICES["Cat"]))]
    audio = table(words, 11.0)
    stranger = room_talk(1.5, seed=2)
    stranger *= dB(peak_level(words[0][2]) - peak_level(stranger) - 7.0)
    audio[int(8.5 * SAMPLE_RATE):int(8.5 * SAMPLE_RATE) + stranger.size, 0] += stranger
    heard, dropped = listened(ArraySource(audio), moon)
    assert [(u.speaker, u.body) for u, _ in heard] == [("Ann", "garden"), ("Ann", "basket"), ("Ben", "window"),
                                                       ("Cat", "silver")]
    assert [d.channel for d in dropped if d.reason == "the room"] == [0]
