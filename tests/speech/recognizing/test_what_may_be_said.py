"""What may be said (speech.recognizing.sayable): every language over the dictionary walks
the same sorted words (a recognizer's walks of them are kept by that identity), and
words given otherwise are sorted and cleaned for their language."""

from __future__ import annotations

from voice_host.speech.recognizing.sayable import Sayable


def test_every_language_over_the_dictionary_shares_its_sorted_words():
    first = Sayable.game(["scores"], ["ann"], spelling=True).language()
    second = Sayable.game(["help", "challenge"], ["ben", "cat"], tails=["for 5"]).language()
    assert first is not second
    assert first.words is second.words is Sayable.dictionary()
    assert list(first.words) == sorted(set(first.words)) and "jewelers" in first.words


def test_words_given_as_a_list_are_sorted_and_cleaned_for_their_language():
    language = Sayable(words=["Zebra ", "apple", "apple", " "]).language()
    assert tuple(language.words) == ("apple", "zebra")
    assert language.accepts("zebra") and not language.accepts("Zebra ")
