"""A table with one microphone: players say who they are, then only their words.

The recording opens the way the live host opens a game ("I am Ann, and I am ready to
play."), then each player says bare words in turn; `voice-host play --audio` with the
default settings (no --engine, no --channels) must put every word on the right sheet:
the same result as the script played as text.
"""

from __future__ import annotations

import json

import numpy as np
import pytest
from audio_script import play, render

from voice_host.speech.audio import SAMPLE_RATE, write_wav

PLAYERS = ("Ann", "Ben", "Cat")
VOICES = {"Ann": "fest_slt", "Ben": "rms", "Cat": "awb"}
OPENING = "".join(f"[+3.5] {p}: I am {p}, and I am ready to play.\n" for p in PLAYERS)
WORDS = """
[+4] Ann: pocket
[+3] Ben: market
[+3] Cat: window
[+3] Ann: basket
[+3] Ben: kitchen
[+3] Cat: forest
[+3] Ann: rocket
[+3] Ben: monkey
[+3] Cat: pencil
"""


def test_enrolled_voices_on_one_microphone_put_every_word_on_the_right_sheet(tmp_path, say, moonshine_ready):
    options = ("--players", ",".join(PLAYERS), "--start", "Ann", "--seed", "5")
    (tmp_path / "words.txt").write_text(WORDS)
    expected, _ = play(tmp_path, "text", "--script", str(tmp_path / "words.txt"), *options)
    wav = tmp_path / "table.wav"
    write_wav(wav, render(OPENING + WORDS, say, VOICES, channels=False))
    heard, out = play(tmp_path, "audio", "--audio", str(wav), *options, "--voices", str(tmp_path / "voices.npz"))
    lines = [line for line in out.splitlines() if line.startswith("host: ")]
    assert lines[:5] == ["host: Ann starts."] + [f"host: Thank you, {p}. I know your voice now." for p in PLAYERS] + [
        "host: Prolix Classic for Ann, Ben and Cat: 6 rounds."], out
    assert "Who said" not in out
    assert heard == expected, out
    assert (tmp_path / "voices.npz").is_file()  # the table's voices, for next time
    # next time, the voices are known: bare words only, no opening
    wav2 = tmp_path / "again.wav"
    write_wav(wav2, render(WORDS, say, VOICES, channels=False))
    again, out2 = play(tmp_path, "again", "--audio", str(wav2), *options, "--voices", str(tmp_path / "voices.npz"))
    assert "I know your voice" not in out2 and again == expected, out2
    assert json.loads(json.dumps(again))["finished"] is False


def test_a_player_who_never_said_who_they_are_is_asked_about_not_given_away(tmp_path, say, moonshine_ready):
    """Cat's introduction never came. Cat's words sound like no voice
    print, so the host asks "Was that Cat?" (the one player it has no print of) instead
    of giving them to the nearest enrolled voice; nobody answers, and the host keeps
    its guess: the same sheets as the typed game."""
    options = ("--players", ",".join(PLAYERS), "--start", "Ann", "--seed", "5")
    (tmp_path / "words.txt").write_text(WORDS)
    expected, _ = play(tmp_path, "text", "--script", str(tmp_path / "words.txt"), *options)
    opening = "".join(line + "\n" for line in OPENING.splitlines() if not line.endswith("I am Cat, and I am ready to play."))
    wav = tmp_path / "table.wav"
    write_wav(wav, render(opening + WORDS, say, VOICES, channels=False))
    heard, out = play(tmp_path, "audio", "--audio", str(wav), *options)
    assert out.count("host: Was that Cat?") == 3, out
    assert heard == expected, out


class LiveMic:
    """A microphone stand-in for the live loop: the recording in a microphone's 50 ms
    chunks, each handed out as soon as the listener asks for it. The game clock follows
    the audio heard, and a source that is not `realtime` is heard in step with the host,
    so the game comes out the same on a busy machine as on an idle one (reply times, in
    real time, are benchmarks/latency.py's). `heard`: (chunk start, the game clock) as
    each chunk is asked for."""

    realtime = False
    channels = 1

    def __init__(self, audio, session=None):
        from voice_host.speech.listening.sources import ArraySource

        self.chunks = ArraySource(audio, chunk_seconds=0.05)
        self.session = session
        self.heard: list[tuple[float, float]] = []

    def __iter__(self):
        for chunk in self.chunks:
            if self.session is not None:
                self.heard.append((chunk.start, self.session.t))
            yield chunk

    def close(self):
        pass


class Deaf:
    """A recognizer for audio with no speech in it: never fed."""

    name = "deaf"

    def expect(self, phrases):
        pass

    def reset(self):
        pass


def _game(said: list[str]):
    from voice_host import config
    from voice_host.host.session import Session, new_header
    from voice_host.words import Words

    session = Session(new_header("prolix-classic", list(PLAYERS), 5, config.load()), Words.load(), said.append)
    session.feed({"t": 0.0, "directive": "start", "args": ["Ann"]})
    return session


@pytest.mark.parametrize("realtime", [False, True])
def test_the_live_clock_follows_the_audio_heard_not_the_wall_clock(realtime):
    """Ten seconds of a quiet room, handed out at once: the game clock ends where the
    audio does, however little wall time went by; heard in step, it is never ahead of the
    audio and at most a tick behind when the next chunk is asked for."""
    from voice_host.assembly import build
    from voice_host.by_voice import TICK_EVERY

    session = _game([])
    mic = LiveMic(np.zeros(10 * SAMPLE_RATE, np.float32), session)
    mic.realtime = realtime
    build(session, Deaf(), mic).play_live()
    assert session.t == pytest.approx(10.0)
    if not realtime:
        assert all(start - TICK_EVERY - 1e-6 <= t <= start + 1e-6 for start, t in mic.heard), mic.heard


def test_the_live_host_keeps_what_it_built_out_of_the_collectors_way():
    """A full garbage collection over the dictionary, the models and the recognizer's
    walks took 130-260 ms, in the middle of a reply: the live host freezes what it holds
    once ready and after each utterance, so the collector never walks it, and gives it
    back when the game is over."""
    import gc

    from voice_host.assembly import build

    session = _game([])
    frozen: list[int] = []

    def notices():  # asked on the game's thread, between the things it hears
        frozen.append(gc.get_freeze_count())
        return ()

    gc.unfreeze()
    build(session, Deaf(), LiveMic(np.zeros(SAMPLE_RATE, np.float32), session), notices=notices).play_live()
    assert min(frozen) > 100_000  # the dictionary alone is more
    assert gc.get_freeze_count() == 0  # the game over, the collector has everything again


def test_the_live_host_asks_each_player_to_say_who_they_are(say, moonshine_ready):
    from voice_host import config
    from voice_host.assembly import build
    from voice_host.host.session import Session, new_header
    from voice_host.speech.recognizing.engines import make_recognizer
    from voice_host.speech.listening.voiceprint import VoicePrints
    from voice_host.words import Words

    opening = "".join(f"[+2] {p}: I am {p}.\n" for p in PLAYERS)  # each answers the host's question in turn
    words = "[+2.5] Ann: pocket\n[+2] Ben: market\n[+2] Cat: window\n"
    audio = render(opening + words, say, VOICES, channels=False)
    said: list[str] = []
    session = Session(new_header("prolix-classic", list(PLAYERS), 5, config.load()), Words.load(), said.append)
    session.feed({"t": 0.0, "directive": "start", "args": ["Ann"]})
    build(session, make_recognizer("auto"), LiveMic(audio), voiceprints=VoicePrints()).play_live()
    assert said[1:7] == [
        "Ann, so I know your voice, please say: I am Ann, and I am ready to play.",
        "Thank you, Ann. I know your voice now.",
        "Ben, so I know your voice, please say: I am Ben, and I am ready to play.",
        "Thank you, Ben. I know your voice now.",
        "Cat, so I know your voice, please say: I am Cat, and I am ready to play.",
        "Thank you, Cat. I know your voice now.",
    ], said
    assert said[7] == "Prolix Classic for Ann, Ben and Cat: 6 rounds."
    assert [(w["word"], p["name"]) for p in session.result()["players"] for w in p["words"]] == [
        ("pocket", "Ann"), ("market", "Ben"), ("window", "Cat")], "\n".join(said)


SPELLED = """
[+4] Ann: characters
[+1.5] Ann: Charlie, Hotel, Alfa, Romeo, Alfa, Charlie, Tango, Echo, Romeo, Sierra.
[+8] Ben: mutant
[+2.5] Ben: No, Mike, Uniform, Tango, Alfa, November, Tango.
"""


def test_a_misheard_word_is_spelled_or_put_right_in_a_recording(tmp_path, say, moonshine_ready):
    """Ann's "characters" is heard wrong ("captures", "pictures"): the host asks, and her
    spelling answers it, or it scored it, and her spelling puts it right. Ben's "mutant"
    is heard wrong ("muted"): asked about and answered, or scored and put right by his
    "No, Mike, Uniform, ...". What the recognizer makes of each, and how sure it is,
    differs from one CPU to another (int8 kernels with and without VNNI) and with a frame
    more or less of the room before the word: either way, no spelling becomes a play of
    its own, and the game ends as if typed."""
    options = ("--players", ",".join(PLAYERS), "--start", "Ann", "--seed", "5")
    (tmp_path / "words.txt").write_text("[+4] Ann: characters\n[+3] Ben: mutant\n")
    expected, _ = play(tmp_path, "text", "--script", str(tmp_path / "words.txt"), *options)
    wav = tmp_path / "table.wav"
    write_wav(wav, render(OPENING + SPELLED, say, VOICES, channels=False))
    heard, out = play(tmp_path, "audio", "--audio", str(wav), *options)
    lines = [line.removeprefix("host: ") for line in out.splitlines() if line.startswith("host: ")]
    for player, word in (("Ann", "characters"), ("Ben", "mutant")):
        scored = lines.index(next(x for x in lines if x.startswith(f"{player} scores")))
        asked = lines[scored - 1].startswith("Did you say ")  # asked, and the spelling answered
        assert asked or any(x.startswith(f"Sorry, {player}: {word}, not ") for x in lines), out
    assert not any("interrupts" in x for x in lines), out
    assert heard["players"] == expected["players"], out


class QuietVoice:
    """The host's voice as the live host sees it, here never speaking: every answer is late."""

    speaking = False
    history: list = []


def test_the_live_host_ticks_when_its_answer_is_late(say, moonshine_ready):
    """A player who stops speaking hears a tick (the heard earcon) when the
    utterance is not over `acknowledge_after` seconds later and the host is quiet; one
    tick a word."""
    from voice_host import config
    from voice_host.assembly import build
    from voice_host.host.session import Session, new_header
    from voice_host.speech.listening.config import TurnConfig
    from voice_host.speech.recognizing.engines import make_recognizer
    from voice_host.words import Words

    audio = render("[+1] Ann: window\n[+2] Ben: market\n", say, VOICES, channels=True)
    said: list[str] = []
    session = Session(new_header("prolix-classic", list(PLAYERS), 5, config.load()), Words.load(), said.append)
    session.feed({"t": 0.0, "directive": "start", "args": ["Ann"]})
    ticks: list[float] = []
    no_guess = TurnConfig(guess_after=0.0)  # each word recognized only after its trailing silence
    build(session, make_recognizer("auto"), LiveMic(audio), channel_players=list(PLAYERS), voice=QuietVoice(),
          turns=no_guess, acknowledge=lambda: ticks.append(session.t)).play_live()
    assert len(ticks) == 2 and [w["word"] for p in session.result()["players"] for w in p["words"]] == [
        "window", "market"], said


def test_the_live_host_knows_how_long_its_own_voice_spoke():
    """Live, a player's seconds to answer or put a word right leave out the host's own
    sentences (the score, the draw, the board), which a player lets the host finish;
    its earcons are no sentences. The voice's history is on the microphone's clock, the
    game's clock 100 s ahead."""
    from voice_host.assembly import voice_time
    from voice_host.speech.speaking.voice import HostPlayback

    class Spoke:
        history = [HostPlayback("Ann scores 5 points for cheers.", 2.0, 4.0),
                   HostPlayback("", 4.5, 4.7, earcon="heard"),
                   HostPlayback("Board. 4 points: R, L.", 5.0, 9.0)]

    spoke = voice_time(Spoke(), offset=100.0)
    assert spoke(100.0, 120.0) == pytest.approx(6.0)
    assert spoke(103.0, 106.0) == pytest.approx(2.0)  # the end of the score and the start of the board
    assert spoke(110.0, 120.0) == 0.0
