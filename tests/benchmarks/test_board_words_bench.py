"""benchmarks/board_words.py sorts the words it missed by kind, as a table would name the
mistake: another ending of the word, "no" and a word, a word collapsed into a short one."""

from __future__ import annotations


import pytest
import support


@pytest.fixture(scope="module")
def board_words():
    import board_words

    return board_words


@pytest.mark.parametrize("said, heard, kind", [
    ("registered", "register", "ending"),           # a form of the word
    ("horizontally", "horizontal", "ending"),       # the same stem, another ending
    ("unaffected", "no infected", "no + word"),
    ("babysitting", "eighty", "collapse"),
    ("confirm", "conferment", "other word"),        # four letters in common is not a stem
])
def test_a_word_misheard_is_sorted_by_the_kind_of_mistake(board_words, said, heard, kind):
    utterance = support.Heard(0, heard, None, constrained=True)
    assert board_words.miss_kind(said, [utterance]) == kind


def test_a_word_heard_as_chatter_in_two_parts_or_not_at_all_is_its_own_kind(board_words):
    free = support.Heard(0, "you never said she", None, constrained=False)
    assert board_words.miss_kind("university", [free]) == "chatter"
    assert board_words.miss_kind("babysitting", [support.Heard(0, "baby", None), support.Heard(1, "sitting", None)]) \
        == "split"
    assert board_words.miss_kind("babysitting", []) == "nothing"
