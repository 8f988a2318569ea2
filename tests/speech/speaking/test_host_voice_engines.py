"""The host's voice engines: Piper by default (its speech heard back, the first clause
streamed first, the openings prepared, slower when asked), pyttsx3 as the fallback, the
speed and volume steps, and the [voice] settings."""

from __future__ import annotations

import sys

import numpy as np
import pytest
from support import rms

from voice_host import config
from voice_host.speech.speaking import tts as engines
from voice_host.speech.audio import SAMPLE_RATE

pytestmark = pytest.mark.model  # the host's voice engines: Piper and pyttsx3


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
    from voice_host.host.session import Session, new_header
    from voice_host.messages import Directive

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
