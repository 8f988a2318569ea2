"""A number a recognizer writes in digits, said alone, is heard as the word a player said."""

import pytest

from voice_host.speech.recognizing.recognizer import normalize_text


@pytest.mark.parametrize("written, heard", [
    ("7", "seven"),
    ("7.", "seven"),
    (" 21 ", "twenty one"),
    ("3rd", "third"),
    ("21st!", "twenty first"),
    ("3,000", "three thousand"),
])
def test_a_number_said_alone_is_heard_as_the_word_it_is(written, heard):
    assert normalize_text(written) == heard


@pytest.mark.parametrize("written", ["bank catch for 5", "mp3", "b12 please"])
def test_digits_in_a_phrase_stay_as_the_games_phrases_have_them(written):
    assert normalize_text(written) == written
