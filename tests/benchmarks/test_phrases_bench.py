"""benchmarks/phrases.py says each phrase as a table says it and judges what was heard by
what the host would take it for: the question or command, whoever's name came first."""

from __future__ import annotations

from dataclasses import dataclass

import pytest


@pytest.fixture(scope="module")
def phrases():
    import phrases

    return phrases


@dataclass
class Said:
    text: str
    body: str
    speaker: str | None = None
    speaker_method: str | None = None


def test_a_question_is_said_with_its_question_mark_and_a_name_before_it(phrases):
    assert phrases.written("whose turn is it", None) == "Whose turn is it?"
    assert phrases.written("whose turn is it", "Ann") == "Ann, whose turn is it?"
    assert phrases.written("i challenge that", "Cat") == "Cat, I challenge that."
    assert phrases.written("challenge Ben", None) == "Challenge Ben."


def test_what_was_heard_is_right_when_the_host_takes_it_for_the_same_question(phrases):
    want = phrases.meaning("Whose turn is it?")
    assert phrases.heard_meaning([Said("ann who's turn is it", "who's turn is it", "Ann", "name")]) == want
    assert phrases.heard_meaning([Said("history", "history")]) != want
    assert phrases.heard_meaning([Said("cad", "cad"), Said("whose turn is it", "whose turn is it")]) is None
    # "Ben, sheet" is Ben's sheet; "Ben, read my sheet" the speaker's, as said
    assert phrases.heard_meaning([Said("ben sheet", "sheet", "Ben", "name")]) == phrases.meaning("Ben's sheet")
    assert phrases.heard_meaning([Said("ben read my sheet", "read my sheet", "Ben", "name")]) == \
        phrases.meaning("read my sheet")
    assert phrases.heard_meaning([Said("ann sheet", "sheet", "Ann", "name")]) == phrases.wanted("Ann, sheet.", "Ann")
