"""The Moonshine engine on real synthesized speech: the actual words heard.

Moonshine installs from PyPI (moonshine-cpp), so in CI these tests never skip. The
first use converts the model once into the user cache (~10 s, see
voice_host/speech/moonshine_convert.py); later runs load it in under a second.
Voices: the tests' own (festival slt, flite rms/awb/kal16); the benchmark's held-out
voices (piper joe, shifted voices) are never used here.
"""

from __future__ import annotations

import subprocess
import sys

import numpy as np
import pytest


from voice_host.messages import Transcript
from voice_host.speech.recognizing.engines import ENGINES, available_engines, make_recognizer
from voice_host.speech.recognizing.sayable import Language, Sayable

pytestmark = pytest.mark.model  # the Moonshine engine

NAMES = ("ann", "ben", "cat")
PHRASES = ("yes", "no", "how much time", "whose turn", "board", "scores", "challenge", "challenge ann",
           "challenge ben", "challenge cat", *NAMES)


@pytest.fixture(scope="module")
def game_sayable():
    return Sayable.game(PHRASES, NAMES)


# ------------------------------------------------------------------ the language


def test_language_accepts_names_words_and_phrases():
    s = Sayable(phrases=("how much time", "challenge ben", "yes"), words=("jewelers", "jewel", "ann"),
                names=("Ann", "Ben"))
    lang = s.language()
    for ok in ("jewelers", "ann jewelers", "ann, jewelers.", "Ann: how much time?", "yes", "ben yes!",
               " jewel", "jewel?!"):
        assert lang.final(lang.feed(lang.start, ok.lower())), ok
    for bad in ("jewelersx", "ann ben jewel", "how much", "challenge", "yes yes", "jewel?!?", "ann,jewel"):
        assert not lang.final(lang.feed(lang.start, bad.lower())), bad
    assert "Ann, jewelers." in s and "how much" not in s
    assert isinstance(lang, Language) and len(lang) == 6


def test_language_may_hold_a_spelled_word():
    s = Sayable(phrases=("yes",), words=("tours", "tour", "to", "a"), names=("ann",), spelling=True)
    for ok in ("t o u r s", "tango oscar uniform romeo", "T, O, U, R.", "t-o-u-r-s", "ann, t o", "Tango. Oscar.",
               "tours", "Tango, o, Uniform, r, Sierra."):
        assert ok in s, ok
    for bad in ("t", "tango", "t tours", "tango oscarx", "yes t o", "a b", "t o u", "o u r s", "t o u r s s"):
        assert bad not in s, bad  # a spelling spells a whole word of the dictionary
    assert s.language().accepts("t, o.") and not s.language().accepts("t o u r s...")  # two end marks at most
    assert "t o" not in Sayable(phrases=("yes",), words=("tours",))  # only when asked for
    free = Sayable(spelling=True)  # without a dictionary: any two letters or more
    assert "q z" in free and "x-ray yankee" in free and "q" not in free


def test_a_games_plays_are_a_word_between_a_lead_in_and_a_tail():
    """Dexikon's "bank catch for 5", Phlounder's "ruin, unused 3", the road game's "play
    fire for 7, fir for 6 and re for 2"."""
    words = ("catch", "fire", "fir", "re", "ruin", "bank")
    bank = Sayable(("spend", "ann spend"), words, ("bank", "ann bank"), tails=("for 5", "for five points"),
                   bare=False)
    for ok in ("bank catch for 5", "Ann, bank catch for five points.", "bank catch", "spend", "ann spend",
               "bank catch, for 5"):
        assert ok in bank, ok
    for bad in ("catch for 5", "catch", "bank catch for", "bank catch for 6", "bank catch for 5 fire for 5",
                "ann catch"):
        assert bad not in bank, bad  # a word only after its verb; only the tails given
    lang = bank.language()
    assert lang.goes_on("bank catch") and lang.goes_on("bank catch for 5") is False
    report = Sayable(("no word unused 2",), words, tails=("unused 3", "3 unused"))
    assert all(s in report for s in ("ruin, unused 3", "ruin 3 unused", "ruin", "no word, unused 2"))
    assert "ruin unused" not in report and "ruin unused 3 fire" not in report
    road = Sayable(("pass",), words, ("play",), tails=("for 7", "for 6", "for 2", "for 2 with 4 tiles"),
                   repeat=True, bare=False)
    for ok in ("play fire for 7, fir for 6 and re for 2", "play fire for 7 fir for 6", "play fire for 2 with 4 tiles",
               "pass"):
        assert ok in road, ok
    for bad in ("play fire fir", "play fire for 7 and", "fire for 7", "play fire for 7 and and fir for 6"):
        assert bad not in road, bad


def test_spelling_pass_searches_only_spellings_of_the_words():
    lang = Sayable(phrases=("yes",), words=("tours", "tour"), names=("ann",), spelling=True).language()
    only = lang.spellings()
    assert only is lang.spellings()  # built once
    assert only.accepts("t o u r s") and only.accepts("tango oscar uniform romeo")
    assert not only.accepts("tours") and not only.accepts("yes") and not only.accepts("ann, t o u r")


def test_every_spelling_alphabet_word_starts_with_its_letter():
    from voice_host.words.matcher import spelling_alphabet

    table = spelling_alphabet()
    assert set(table.values()) == set("abcdefghijklmnopqrstuvwxyz")
    assert all(word[0] == letter for word, letter in table.items())  # the language reads the letter off the start


def test_closed_list_is_a_sayable():
    s = Sayable.closed(["Yes", "no", "challenge, Ben"])
    assert s.phrases == ("yes", "no", "challenge ben") and s.words is None and not s.names


def test_dictionary_compiles_once_per_word_list():
    words = Sayable.dictionary()
    assert len(words) > 100_000 and "jewelers" in words
    a = Sayable.game(["yes"], NAMES).language()
    b = Sayable.game(["no"], NAMES).language()
    assert a.words is b.words  # the sorted dictionary is shared
    assert a is not b


def test_a_sayable_given_a_new_prior_keeps_its_compiled_language():
    """The game's prior changes with every move, the sentences do not: the language (and
    the walks done on it) stays the one compiled; other sentences compile their own over
    the same dictionary words (whose walks the recognizer keeps)."""
    a = Sayable.game(["yes", "no"], NAMES, spelling=True)
    assert a.with_prior(object()).language() is a.language()
    assert a.with_prior(object()).with_prior(object()).language() is a.language()
    other = Sayable.game(["yes"], NAMES, spelling=True).language()
    assert other is not a.language() and other.words is a.language().words


# ------------------------------------------------------------------- the engine


def test_engine_names_and_auto(moon):
    assert "moonshine" in ENGINES and "auto" in ENGINES
    assert available_engines()[0] == "moonshine"
    assert make_recognizer("auto", cpu_threads=2).name == "moonshine"
    assert make_recognizer("moonshine", cpu_threads=2).model is moon.model  # loaded once
    # the package's own native library is never loaded (SIGILL without AVX-512)
    assert "moonshine_cpp" not in sys.modules and "moonshine_cpp.moonshine_cpp" not in sys.modules


def test_runs_the_converted_model(moon):
    assert moon.model.converted is not None, "the conversion to int8 ONNX failed: see stderr"
    assert (moon.model.converted / "decoder_next.onnx").is_file()


def test_free_sentence(moon, say):
    tr = moon.transcribe(say("The quick brown fox jumps over the lazy dog.", "rms"), None)
    assert tr.text == "the quick brown fox jumps over the lazy dog"
    assert tr.engine == "moonshine" and not tr.constrained and tr.confidence > 0.5
    assert [w.text for w in tr.words][:3] == ["the", "quick", "brown"]


def test_feed_finish_reset_clone(moon, say):
    audio = say("lanterns", "rms")
    rec = moon.clone()
    rec.constrain(Sayable.closed(["lanterns", "lantern", "patterns"]))
    rec.feed(np.zeros(1600, np.float32))
    rec.reset()
    for i in range(0, audio.size, 800):
        assert rec.feed(audio[i : i + 800]) is None  # no partial results
    tr = rec.finish()
    assert isinstance(tr, Transcript) and tr.text == "lanterns" and tr.constrained
    assert rec.finish().text == ""  # finish resets
    assert rec.clone().sayable is rec.sayable


@pytest.mark.parametrize("word,voice,free_wrong", [
    ("crystallized", "kal16", "crystalized"),  # free: "Crestalized." -> the matcher: crystalized
    ("jewelers", "rms", None),            # free: "The jewelers."
    ("lanterns", "awb", None),            # free: "Land turns."
    ("crystallized", "awb", False),       # free decoding gets it too: it stays right
    ("abandoned", "awb", False),          # free: "A blandand." without VNNI, "abandoned" with it
])
def test_rare_words_constrained(moon, say, game_sayable, word, voice, free_wrong):
    from voice_host.words import Words

    tr = moon.transcribe(say(word, voice), game_sayable)
    assert tr.text == word and tr.constrained, (tr.text, tr.free, tr.alternatives[:3])
    if free_wrong is not False:
        assert tr.free != word  # the free decode alone does not have it
    if free_wrong:
        assert Words.load().match(tr.free).best == free_wrong
    assert tr.alternatives[0][0] == word
    # how sure: the calibrated chance it is right, low when a near reading (another
    # spelling: crystalized) comes within a nat, as the host then weighs whether to ask.
    # (The other way does not hold on every processor: without AVX-512, on AVX2 alone, the
    # same words come out 0.27-0.64 sure with no reading within 1.06-2.04 nats.)
    runner_up = tr.alternatives[1][1] if len(tr.alternatives) > 1 else -99.0
    if tr.alternatives[0][1] - runner_up < 1.0:
        assert tr.confidence < 0.75, (tr.confidence, tr.alternatives[:2])


def test_name_then_word(moon, say, game_sayable):
    tr = moon.transcribe(say("Ann, jewelers.", "rms"), game_sayable)
    assert tr.free.startswith("and ")  # the free decode hears "And, Jewelers."
    name, word = tr.text.split()
    assert name == "ann" and tr.constrained
    assert word in ("jewelers", "jewellers")  # homophones: the host picks the spelling


def test_a_sentence_heard_whole_is_not_searched_again(moon, say, game_sayable):
    """The second pass looks for a name the search lost; when the search's sentence
    already has as many words as the free decode, it has lost none (and the second
    search would cost a reply 150-200 ms)."""
    tr = moon.transcribe(say("How much time?", "rms"), game_sayable)
    assert (tr.text, tr.free) == ("how much time", "how much time")
    assert moon.last.second == []


def test_name_kept_when_a_short_sentence_ends_early(moon, say, game_sayable):
    """The search alone keeps "and" (one word that ends early beats the name and the
    word); the second pass (each name + the matcher's words for the rest of the free
    decode) reads the name and a word, and the name is kept: "ann tours". (With AVX-512
    the search alone ends at "and" and the second pass alone finds "ann tours"; on AVX2
    alone the second pass reads "ann tors", "ann tour", and the free decode's rescoring
    finds "ann tours" with it or without it.)"""
    from voice_host.speech.recognizing.recognizer import normalize_text

    audio = say("Ann, tours.", "awb")
    tr = moon.transcribe(audio, game_sayable)
    assert (tr.text, tr.constrained) == ("ann tours", True), (tr.free, tr.alternatives[:3])
    assert tr.free == "and tours"  # the free decode hears "And tours."
    assert normalize_text(moon.last.constrained[0][0]) == "and"  # the search's own best
    assert moon.last.second and all(normalize_text(t).split()[0] == "ann" for t, _ in moon.last.second[:3])


@pytest.mark.parametrize("said, voice, heard", [
    ("Tango, Oscar, Uniform, Romeo, Sierra.", "fest_slt", "tango oscar uniform romeo sierra"),
    ("Lima, Oscar, November, Echo, Romeo.", "rms", "lima oscar november echo romeo"),
])
def test_a_spelled_word_stays_letters(moon, say, said, voice, heard):
    """Constrained to one word, "Tango, Oscar, ..." came out as "tango"; with spelling
    in the language the whole spelling is heard, and the matcher makes it the word."""
    from voice_host.words import Words

    sayable = Sayable.game(PHRASES, NAMES, spelling=True)
    tr = moon.transcribe(say(said, voice), sayable)
    assert (tr.text, tr.constrained) == (heard, True), (tr.free, tr.alternatives[:3])
    assert Words.load().match(tr.text).best == "".join(w[0] for w in heard.split())
    assert moon.transcribe(say(said, voice), Sayable.game(PHRASES, NAMES)).text != heard


def test_command_phrase(moon, say, game_sayable):
    tr = moon.transcribe(say("How much time?", "fest_slt"), game_sayable)
    assert (tr.text, tr.constrained) == ("how much time", True) and tr.confidence > 0.9
    tr = moon.transcribe(say("Challenge Ben.", "kal16"), game_sayable)
    assert tr.text == "challenge ben"


def test_yes_no_answer(moon, say):
    rec = moon.clone()
    rec.expect(["yes", "no"])
    for text, voice, want in (("Yes.", "awb", "yes"), ("No.", "rms", "no"), ("Yes.", "kal16", "yes")):
        rec.feed(say(text, voice))
        tr = rec.finish()
        assert (tr.text, tr.constrained) == (want, True), (text, voice, tr)


def test_chatter_is_not_forced_into_a_word(moon, say, game_sayable):
    tr = moon.transcribe(say("I am Ann and I am ready to play.", "rms"), game_sayable)
    assert not tr.constrained and "ready to play" in tr.text and tr.confidence <= 0.2
    assert tr.free == tr.text
    tr = moon.transcribe(say("Hold on a second.", "fest_slt"), game_sayable)
    assert not tr.constrained and tr.text == "hold on a second"


def test_silence_and_short_audio(moon):
    assert moon.transcribe(np.zeros(800, np.float32)).text == ""


def test_rank_scores_candidates(moon, say):
    ranked = moon.rank(say("crystallized", "awb"), ["crystal", "crystallized", "christened"])
    assert ranked[0][0] == "crystallized" and ranked[0][1] > ranked[1][1]


def test_as_shipped_ort_files_still_work(say):
    """The fall-back when the conversion is impossible: the .ort files as shipped."""
    from voice_host.speech.recognizing.moonshine import MoonshineRecognizer

    rec = MoonshineRecognizer(cpu_threads=2, convert=False)
    assert rec.model.converted is None and rec.model.merged is not None
    rec.expect(["yes", "no"])
    rec.feed(say("Yes.", "awb"))
    assert rec.finish().text == "yes"


def test_conversion_failure_falls_back(tmp_path, monkeypatch, capfd):
    from voice_host.speech.recognizing.moonshine import convert as moonshine_convert

    src = tmp_path / "broken"
    src.mkdir()
    for f in ("encoder_model.ort", "decoder_model_merged.ort", "tokenizer.bin"):
        (src / f).write_bytes(b"not a model")
    monkeypatch.setenv("VOICE_HOST_CACHE", str(tmp_path / "cache"))
    assert moonshine_convert.converted_models(src) is None
    assert "using the .ort files as shipped" in capfd.readouterr().err
    assert not any((tmp_path / "cache" / "moonshine").glob("*/done.json"))


def test_never_imports_the_native_library():
    code = ("import sys; from voice_host.speech.recognizing.moonshine import find_model_dir; find_model_dir(); "
            "print('moonshine_cpp' in sys.modules)")
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True).stdout
    assert out.strip() == "False"


def test_other_engines_take_what_they_can_of_a_sayable():
    from voice_host.speech.recognizing.recognizer import _closed_phrases, constrain_recognizer

    assert _closed_phrases(Sayable.closed(["yes", "no"])) == ["yes", "no"]
    assert _closed_phrases(Sayable(("yes",), None, ("ann",))) == ["yes", "ann"]
    assert _closed_phrases(Sayable.game(["yes"], ["ann"])) is None  # a dictionary: decode freely
    assert _closed_phrases(None) is None

    class Closed:
        got = "unset"

        def expect(self, phrases):
            self.got = phrases

    r = Closed()
    constrain_recognizer(r, Sayable.closed(["a", "b"]))
    assert r.got == ["a", "b"]
