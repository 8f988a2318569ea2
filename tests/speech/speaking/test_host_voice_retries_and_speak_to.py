"""The host's voice when a sentence fails to render or the sound card fails (retried,
printed, the game goes on), --speak-to on the game's timeline, and earcons."""

from __future__ import annotations

import numpy as np
import pytest
import soundfile as sf
from support import rms

from voice_host import config
from voice_host.speech.speaking import earcons
from voice_host.speech.audio import SAMPLE_RATE
from voice_host.speech.speaking.system_voice import Synthesizer
from voice_host.speech.speaking.voice import TtsVoice

pytestmark = pytest.mark.model  # the host's voice engines: Piper and pyttsx3


# ---------------------------------------------------------------------- retries
class Flaky:
    """A synthesizer that fails its first `fails` renders (or always: fails=None)."""

    engine, sample_rate, speed, volume = "flaky", SAMPLE_RATE, 1.0, 1.0

    def __init__(self, fails: int | None):
        self.fails = fails
        self.calls = 0

    def pieces(self, text):
        self.calls += 1
        if self.fails is None or self.calls <= self.fails:
            raise OSError("Error opening /tmp/s1.wav: System error")
        yield np.full(SAMPLE_RATE // 10, 0.1, np.float32)

    def synthesize(self, text):
        return np.concatenate(list(self.pieces(text)))

    def adjust(self, **_):
        return None

    def close(self):
        pass


def test_a_failed_sentence_is_retried():
    flaky = Flaky(fails=2)
    voice = TtsVoice(synthesizer=flaky, play=False)
    voice.say("Ann scores 15 points for jewelers.")
    assert voice.wait(5)
    assert flaky.calls == 3 and [p.text for p in voice.history] == ["Ann scores 15 points for jewelers."]


def test_a_sentence_that_never_renders_is_printed_and_the_voice_goes_on(capsys):
    flaky = Flaky(fails=None)
    voice = TtsVoice(synthesizer=flaky, play=False)
    voice.say("Ann scores 15 points for jewelers.")
    assert voice.wait(5)
    flaky.fails = 0  # the engine recovers
    voice.say("Ben, your turn.")
    assert voice.wait(5)
    assert "host: Ann scores 15 points for jewelers.  [voice error: Error opening" in capsys.readouterr().err
    assert [p.text for p in voice.history] == ["Ben, your turn."]


def test_pyttsx3_synthesizer_retries_when_espeak_writes_no_file(tmp_path):
    from voice_host.speech.speaking.system_voice import Renderer

    class Engine:
        """Like espeak's driver on a busy machine: the first file is never written."""

        calls = 0

        def save_to_file(self, text, path):
            Engine.calls += 1
            self.path = path if Engine.calls > 1 else None

        def runAndWait(self):
            if self.path:
                sf.write(self.path, np.full(1600, 0.2, np.float32), 16000)

        def setProperty(self, *a):
            pass

    Renderer(Engine).render("Time!", None, tmp_path / "time.wav")
    assert Engine.calls == 2 and sf.read(tmp_path / "time.wav")[0].size == 1600


def test_the_system_voice_says_a_sentence_and_prints_nothing_of_its_own(capfd):
    """pyttsx3's espeak driver prints "Audio saved to ..." after each file: the host's
    output must stay its own sentences."""
    s = Synthesizer()
    try:
        audio = s.synthesize("Time!")
    finally:
        s.close()
    assert audio.size > 1600 and float(np.abs(audio).max()) > 0.05
    assert capfd.readouterr().out == ""


def test_a_game_goes_on_when_the_recording_cannot_render(tmp_path, capsys):
    from voice_host.host.output import Speaker

    speaker = Speaker(True, config.load(), None)
    from voice_host.speech.speaking.record import SpeakTo

    speaker.file = SpeakTo(tmp_path / "host.wav", Flaky(fails=None))
    session = game_session(speaker)
    run(session, "@start Ann\n@board W B J S L C D G\nAnn: jewelers\n")
    speaker.close()
    out = capsys.readouterr()
    assert "host: Ann scores 15 points for jewelers." in out.out
    assert "host: Ann scores 15 points for jewelers.  [not in host.wav" in out.err
    assert session.result()["players"]


# ---------------------------------------------------------------------- --speak-to and earcons
SCRIPT = """\
@start Ann
@board W B J S L C D G
Ann: jewelers
[+30] @draw M N
[+30] Cat: timer
@wait 25
[+20] Cat: jumbled
"""
"""The game begins at 3; jewelers is scored when the clock next moves (33); with a 20 s
timer Cat flips at 63 (10 left at 73), time's up is noticed at the @wait (88)."""


def game_session(speaker, cfg=None):
    from voice_host.app import load_words
    from voice_host.host.session import Session, new_header

    cfg = cfg or config.load()
    session = Session(new_header("prolix-classic", ["Ann", "Ben", "Cat"], 1, cfg), load_words(cfg), speaker,
                      earcon=speaker.earcons)
    speaker.attach(session)
    return session


def run(session, script: str) -> None:
    from voice_host.app import run_records
    from voice_host.host.script import parse_script

    run_records(session, parse_script(script))


def record_game(tmp_path, piper, earcons_on: bool):
    from voice_host.host.output import Speaker
    from voice_host.speech.speaking.record import SpeakTo

    cfg = config.load(overrides={"prolix": {"timer": 20}, "voice": {"earcons": earcons_on}})
    speaker = Speaker(True, cfg, None)
    speaker.file = SpeakTo(tmp_path / f"host-{earcons_on}.wav", piper)
    session = game_session(speaker, cfg)
    run(session, SCRIPT)
    speaker.close()
    audio, rate = sf.read(str(tmp_path / f"host-{earcons_on}.wav"), dtype="float32")
    return speaker.file.placed, audio, rate


@pytest.fixture(scope="module")
def recorded(tmp_path_factory, piper):
    tmp = tmp_path_factory.mktemp("speak_to")
    return record_game(tmp, piper, True), record_game(tmp, piper, False)


def test_speak_to_lays_each_sentence_at_its_game_time(recorded):
    placed, audio, rate = recorded[0]
    said = [p for p in placed if p.kind == "say"]
    assert said[0].what == "Ann starts." and said[0].start == pytest.approx(1.0, abs=0.01)
    jewelers = next(p for p in said if p.what == "Ann scores 15 points for jewelers.")
    flip = next(p for p in said if p.what.startswith("Cat flips the timer"))
    assert (jewelers.asked, flip.asked) == (33.0, 63.0)
    assert jewelers.start == pytest.approx(33.0, abs=0.01)
    for a, b in zip(placed, placed[1:]):  # one thing at a time, never before its time
        assert b.start >= a.end - 1e-6 and b.start >= b.asked - 1e-6
    for p in said:  # speech where the host speaks
        assert rms(audio[int(p.start * rate):int(p.end * rate)]) > 0.02, p.what
    # silence from the end of the opening announcements (said from 3 s on) to 33 s
    opening_end = max(p.end for p in said if p.asked < 10)
    assert opening_end < 32 and rms(audio[int((opening_end + 0.3) * rate):int(32.9 * rate)]) < 1e-3
    assert audio.size / rate == pytest.approx(placed[-1].end, abs=0.01)


def test_earcons_at_the_timer_events(recorded):
    placed, audio, rate = recorded[0]
    cues = [(p.what, p.asked) for p in placed if p.kind == "cue"]
    assert cues == [("timer", 63.0), ("ten_left", 73.0), ("time_up", 88.0)]
    assert [p.start for p in placed if p.kind == "cue"] == pytest.approx([63.0, 73.0, 88.0], abs=0.01)
    for p in placed:
        if p.kind == "cue":
            got = audio[int(round(p.start * rate)):][: earcons.earcon(p.what, rate).size]
            want = earcons.earcon(p.what, rate)
            assert np.abs(got - want).max() < 1e-3, p.what  # the earcon itself, as 16-bit PCM
    off_placed, off_audio, _ = recorded[1]
    assert [p for p in off_placed if p.kind == "cue"] == []
    assert [p.what for p in off_placed] == [p.what for p in placed if p.kind == "say"]
    # where the 10-seconds earcon sat, the file without earcons is silent
    ten = next(p for p in placed if p.what == "ten_left")
    assert rms(off_audio[int(ten.start * rate):int(ten.end * rate)]) < 1e-3


def event_classes():
    """The game events by name, wherever a game keeps them."""
    import importlib
    import pkgutil
    from types import SimpleNamespace

    import voice_host.games as games

    found = {}
    names = ["voice_host.games.events"] + [f"voice_host.games.{m.name}.events" for m in pkgutil.iter_modules(games.__path__)]
    for name in names:
        try:
            module = importlib.import_module(name)
        except ImportError:
            continue
        found.update({k: v for k, v in vars(module).items() if isinstance(v, type)})
    return SimpleNamespace(**found)


def test_earcons_for_a_challenge_and_a_refused_word():
    from voice_host.host.cues import Cues, earcon_for

    E = event_classes()

    assert earcon_for(E.ChallengeRaised("Cat", "Ann", "jibblewock")) == "challenge"
    assert earcon_for(E.ChallengeResolved("Cat", "Ann", "jibblewock", stands=False)) == "refused"
    assert earcon_for(E.ChallengeResolved("Cat", "Ann", "jaywalks", stands=True)) is None
    assert earcon_for(E.Refused("cheapie", {"word": "jeweler"}, "Ben")) == "refused"
    assert earcon_for(E.Refused("not_your_turn", {}, "Ben")) is None
    got = []
    cues = Cues(lambda name, t: got.append((name, t)), lambda: None)
    cues([E.TimeLeft(30), E.TimeLeft(10), E.TimerExpired("Ann", interrupts=False)], 50.0)
    assert got == [("ten_left", 50.0), ("time_up", 50.0)]
    for name in earcons.NAMES:
        sound = earcons.earcon(name, 16000)
        if name == "heard":  # the acknowledgment: a tick, short and softer than the others
            assert 0.03 < sound.size / 16000 <= 0.1 and 0.2 < np.abs(sound).max() <= 0.25
        else:
            assert 0.1 < sound.size / 16000 <= 0.6 and 0.45 < np.abs(sound).max() <= 0.5


def test_no_ten_seconds_earcon_when_the_timer_stopped_first(piper, tmp_path):
    from voice_host.host.output import Speaker
    from voice_host.speech.speaking.record import SpeakTo

    cfg = config.load(overrides={"prolix": {"timer": 20}})
    speaker = Speaker(True, cfg, None)
    speaker.file = SpeakTo(tmp_path / "host.wav", Flaky(fails=0))
    session = game_session(speaker, cfg)
    # Cat flips at 3; Ben's word at 8 ends the turn long before 10 seconds are left
    run(session, "@start Ann\n@board W B J S L C D G\nAnn: jewelers\n@draw M N\nCat: timer\n[+5] Ben: cowbell\n"
                 "@wait 30\n")
    speaker.close()
    assert [p.what for p in speaker.file.placed if p.kind == "cue"] == ["timer"]


def test_play_speak_to_with_no_voice_writes_the_file(tmp_path, piper, capsys):
    from voice_host import cli

    script = tmp_path / "game.txt"
    script.write_text("@start Ann\n@board W B J S L C D G\nAnn: jewelers\n", encoding="utf-8")
    out = tmp_path / "host.wav"
    assert cli.main(["play", "--players", "Ann,Ben,Cat", "--seed", "1", "--script", str(script), "--no-voice",
                     "--speak-to", str(out)]) == 0
    assert "host: Ann scores 15 points for jewelers." in capsys.readouterr().out
    audio, rate = sf.read(str(out), dtype="float32")
    assert rate == 22050 and audio.size / rate > 5 and rms(audio) > 0.01


def test_speak_to_a_folder_that_does_not_exist_is_a_sentence(tmp_path, capsys):
    from voice_host import cli

    script = tmp_path / "game.txt"
    script.write_text("@start Ann\n", encoding="utf-8")
    code = cli.main(["play", "--players", "Ann,Ben,Cat", "--script", str(script), "--no-voice",
                     "--speak-to", str(tmp_path / "no" / "such" / "host.wav")])
    err = capsys.readouterr().err
    assert code == 2 and err.startswith("voice-host: I can't record the host's voice into") and "Traceback" not in err


def test_a_sound_card_failure_is_printed_and_the_voice_goes_on(capsys, monkeypatch):
    voice = TtsVoice(synthesizer=Flaky(fails=0), play=False)
    voice.play = True  # as if there were a sound card, which then fails

    def broken():
        raise OSError("Error opening OutputStream: Device unavailable")

    monkeypatch.setattr(voice, "_output", broken)
    voice.say("Ann scores 15 points for jewelers.")
    voice.cue("timer")
    assert voice.wait(5)
    assert "host: Ann scores 15 points for jewelers.  [voice error: Error opening" in capsys.readouterr().err
    voice.play = False
    voice.say("Ben, your turn.")
    assert voice.wait(5) and voice.history[-1].text == "Ben, your turn."
