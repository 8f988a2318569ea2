"""The host's voice engines (Piper by default, pyttsx3 as the fallback), retries,
--speak-to on the game's timeline, and earcons."""

from __future__ import annotations

import sys

import numpy as np
import pytest
import soundfile as sf

from support import need
from voice_host import config
from voice_host.speech.speaking import earcons
from voice_host.speech.speaking import tts as engines
from voice_host.speech.audio import SAMPLE_RATE
from voice_host.speech.speaking.system_voice import Synthesizer
from voice_host.speech.speaking.voice import TtsVoice

pytestmark = pytest.mark.model  # the host's voice engines: Piper and pyttsx3


@pytest.fixture(scope="session")
def piper():
    why = engines.piper_available()
    need(why is None, f"Piper is not installed: {why}")
    return engines.PiperSynthesizer()


def rms(x: np.ndarray) -> float:
    return float(np.sqrt(np.mean(np.square(x, dtype=np.float64)))) if x.size else 0.0


# ---------------------------------------------------------------------- engines
def words(text: str) -> list[str]:
    import re

    from text_to_num import alpha2digit

    return alpha2digit(re.sub(r"[^a-z0-9 ]+", " ", text.lower()), "en", threshold=0).split()


@pytest.mark.parametrize("sentence", ["Time is up. The challenge fails and costs 2 points.",
                                      "The timer is running: ten seconds left."])
def test_piper_renders_speech_that_is_heard_back(piper, whisper_rec, sentence):
    audio = piper.synthesize(sentence)
    assert audio.dtype == np.float32 and 1.5 < audio.size / SAMPLE_RATE < 6.0
    assert rms(audio) > 0.03
    from rapidfuzz.distance import Levenshtein

    heard = words(whisper_rec.transcribe(audio).text)
    # Piper's voice varies a little from one rendering to the next (its noise scales);
    # whisper tiny may miss one word of ten, not more
    assert Levenshtein.normalized_similarity(words(sentence), heard) >= 0.85, heard


def test_piper_streams_the_first_clause_first(piper):
    text = "Ben, you flipped the timer, so you can't interrupt."
    assert engines.split_text(text) == [("Ben,", engines.CLAUSE_PAUSE), ("you flipped the timer,", engines.CLAUSE_PAUSE),
                                        ("so you can't interrupt.", 0.0)]  # the name called first, alone
    assert engines.split_text("Kim, Dee asks to undo your word. Say yes or no.") == [
        ("Kim,", engines.CLAUSE_PAUSE), ("Dee asks to undo your word.", engines.SENTENCE_PAUSE), ("Say yes or no.", 0.0)]
    assert engines.split_text("Ann scores 15 points for jewelers. Ben, your turn.") == [
        ("Ann scores 15 points", 0.0), ("for jewelers.", engines.SENTENCE_PAUSE), ("Ben, your turn.", 0.0)]
    assert engines.split_text("Ben, your turn.") == [("Ben, your turn.", 0.0)]
    pieces = list(piper.pieces(text))
    assert len(pieces) >= 2 and all(p.dtype == np.float32 for p in pieces)
    assert rms(pieces[0]) > 0.03 and 0.2 < pieces[0].size / piper.sample_rate < 1.0  # "Ben," alone


def test_a_reply_opening_with_a_prepared_phrase_sounds_it_first(piper):
    """The openings the host says most are rendered before they are needed;
    a reply starting with one plays that audio first, unchanged, then the rest."""
    from voice_host.host.announce import Announcer, sentence
    from voice_host.games.events import TurnStarted
    from voice_host.games.prolix.events import WordScored

    openings = Announcer().openings(["Ann", "Ben"], rounds=2)
    assert openings[:2] == ["Ann scores", "Ben scores"] and "Round 2: Ben's turn." in openings
    assert {"Did you say", "I'll take", "Who said", "Was that Ben?", "Undone:", "I didn't catch a word in"} <= \
        set(openings)  # the host's questions, and what it says of chatter
    assert {"Ann draws", "Ben interrupts", "End of round 2."} <= set(openings)  # the sentences of every turn
    assert sentence(WordScored("Ann", "jewelers", 15, ())).startswith("Ann scores 15 points")
    assert sentence(TurnStarted("Ben", 2)) in openings
    voice = engines.PiperSynthesizer(warm_up=False)
    voice.prepare(["Ann scores"])
    head = voice._cache[("Ann scores", 1.0)]
    pieces = list(voice.pieces("Ann scores 15 points for jewelers."))
    loud = np.flatnonzero(np.abs(head[0]) > 1e-3)
    assert np.shares_memory(pieces[0], head[0]) and len(pieces) > len(head)  # the prepared audio itself,
    assert pieces[0].size < head[0].size and abs(pieces[0][0]) < 1e-3  # without Piper's silences around it
    start, end = loud[0] - int(0.01 * voice.sample_rate), loud[-1] + 1 + int(0.01 * voice.sample_rate)
    assert np.array_equal(pieces[0], head[0][start:end])
    assert not np.shares_memory(list(voice.pieces("Ben scores 15 points for jewelers."))[0], head[0])


def test_the_game_s_first_sentences_are_prepared_first(piper, words):
    """The slowest first samples were the opening's first question and the
    sentences said once, when the game begins (170-250 ms of Piper, with nothing
    prepared). The speaker hands the voice what it will say first, first; a known
    sentence is prepared as the piece it will be said with first."""
    from voice_host.host.output import Speaker
    from voice_host.host.records import Directive
    from voice_host.host.session import Session, new_header

    class Voice:  # what the speaker asks the voice to prepare, in order
        def prepare(self, phrases):
            self.phrases = list(phrases)

    speaker = Speaker(True, config.load(), None)
    speaker.voice = Voice()
    session = Session(new_header("prolix-duel", ["Ann", "Ben"], 1, config.load()), words, lambda _: None)
    session.feed(Directive(0.0, "start", ("Ann",)))
    speaker.attach(session)
    phrases = speaker.voice.phrases
    assert phrases[:5] == ["Ann, so I know your voice, please say: I am Ann, and I am ready to play.",
                           "Thank you, Ann. I know your voice now.",
                           "Ben, so I know your voice, please say: I am Ben, and I am ready to play.",
                           "Thank you, Ben. I know your voice now.",
                           "Prolix Duel for Ann and Ben: first to 5 marks wins."]
    assert phrases[5:8] == session.opening()[1:4] and "Ann scores" in phrases[8:]

    voice = engines.PiperSynthesizer(warm_up=False)
    voice.prepare(phrases[:5])
    assert set(voice._cache) == {("Ann,", 1.0), ("Thank you, Ann.", 1.0), ("Ben,", 1.0), ("Thank you, Ben.", 1.0),
                                 ("Prolix Duel for Ann", 1.0)}  # the pieces each is said with first
    first = next(voice.pieces("Prolix Duel for Ann and Ben: first to 5 marks wins."))
    assert np.shares_memory(first, voice._cache[("Prolix Duel for Ann", 1.0)][0])  # no render waited


def test_engine_auto_picks_piper(piper):
    s = engines.make_synthesizer(engines.VoiceSettings.from_config(config.load()), warm_up=False)
    assert s.engine == "piper" and s.sample_rate == 22050


def test_pyttsx3_is_the_fallback_when_piper_does_not_import(tts, monkeypatch):
    monkeypatch.setitem(sys.modules, "piper", None)  # import piper -> ImportError
    said = []
    s = engines.make_synthesizer(engines.VoiceSettings(engine="auto"), notify=said.append, warm_up=False)
    assert s.engine == "pyttsx3" and said == []
    s.close()
    s = engines.make_synthesizer(engines.VoiceSettings(engine="piper"), notify=said.append, warm_up=False)
    assert s.engine == "pyttsx3" and len(said) == 1 and "Piper voice isn't available" in said[0]
    assert rms(s.synthesize("Ben, your turn.")) > 0.01
    s.close()


def test_adjust_stays_within_bounds():
    s = engines._Controls()
    level = s.adjust(rate_step=1)
    assert level.speed == pytest.approx(1.15) and not level.at_limit
    level = s.adjust(rate_step=20)
    assert level.speed == engines.SPEED_LIMITS[1] and level.at_limit
    level = s.adjust(rate_step=-40, volume_step=-40)
    assert (level.speed, level.volume, level.at_limit) == (engines.SPEED_LIMITS[0], engines.VOLUME_LIMITS[0], True)
    assert s.adjust(volume_step=1).volume == pytest.approx(engines.VOLUME_LIMITS[0] * engines.VOLUME_STEP)


def test_slower_makes_piper_speak_longer(piper, monkeypatch):
    """Two steps slower. Piper's durations vary from one render to the next by its
    model's noise (a mean of three renders came out 1.12-1.20 times as long), so the
    noise is set to none: each render is the same, and none is from the cache."""
    monkeypatch.setattr(piper.voice.config, "noise_scale", 0.0)
    monkeypatch.setattr(piper.voice.config, "noise_w_scale", 0.0)

    def length() -> int:
        piper._cache.clear()
        return piper.render_whole("Round two. Ben's turn.").size

    cache, piper.cache_size = piper.cache_size, 0
    try:
        normal = length()
        piper.adjust(rate_step=-2)
        slow = length()
    finally:
        piper.speed, piper.cache_size = 1.0, cache
    assert slow > normal * 1.15


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


def test_pyttsx3_synthesizer_retries_when_espeak_writes_no_file(monkeypatch):
    from voice_host.speech.speaking import system_voice as voice_module

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

    monkeypatch.setattr(voice_module.Synthesizer, "_new_engine", lambda self: Engine())
    s = Synthesizer()
    try:
        audio = s.synthesize("Time!")
    finally:
        s.close()
    assert Engine.calls == 2 and audio.size == 1600


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
    session = Session(new_header("prolix-classic", ["Ann", "Ben", "Cat"], 1, cfg), load_words(cfg), speaker)
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


def test_voice_settings_read_the_config_and_refuse_nonsense(capsys):
    s = engines.VoiceSettings.from_config({"voice": {"rate": 160, "piper": {"rate": 1.2}}})
    assert (s.engine, s.earcons, s.piper["rate"], s.pyttsx3["rate"]) == ("auto", True, 1.2, 160)
    with pytest.raises(ValueError, match=r"\[voice.piper\] rate must be a positive number, like 1.0, not 'fast'"):
        engines.VoiceSettings.from_config({"voice": {"piper": {"rate": "fast"}}})
    with pytest.raises(ValueError, match="engine must be one of auto, piper, pyttsx3"):
        engines.VoiceSettings.from_config({"voice": {"engine": "festival"}})
    from voice_host.host.output import Speaker

    speaker = Speaker(True, {"voice": {"engine": "festival"}}, None)
    assert speaker.settings == engines.VoiceSettings()
    assert "I'll use the default voice" in capsys.readouterr().out
