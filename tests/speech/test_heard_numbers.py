"""Numbers a recognizer writes as digits are heard as the words a player said."""

import pytest

from voice_host.speech.recognizing.recognizer import normalize_text


@pytest.mark.parametrize("written, heard", [
    ("7", "seven"),
    ("Seven.", "seven"),
    ("I said 7!", "i said seven"),
    ("21", "twenty one"),
    ("the 3rd", "the third"),
    ("21st", "twenty first"),
    ("3,000", "three thousand"),
    ("bank catch for 5", "bank catch for five"),
])
def test_digits_are_heard_as_the_words_they_are(written, heard):
    assert normalize_text(written) == heard


def test_a_word_with_digits_inside_is_left_as_it_is():
    assert normalize_text("mp3 b12") == "mp3 b12"

