"""A heard utterance is read once on its way from the hearing to the game: the hearing
asks the session to read it (its meaning at the table, and as the game's own phrase),
and hands that reading on with the record, so the session acts without parsing the
words again. A record whose words changed on the way (the matcher put a word right) is
read again; a typed line and a replay read the text, as the log holds no reading."""

from __future__ import annotations

import collections

import pytest
import support

from voice_host.host import intents, phrases
from voice_host.host.hearing import Hearing, HearingSettings
from voice_host.messages import Said


@pytest.fixture
def reads(monkeypatch):
    """How many times each parser ran, by parser and text."""
    counts: collections.Counter = collections.Counter()
    parse, game_parse = intents.parse, phrases.parse

    def spy_parse(text, players):
        counts["intents", text] += 1
        return parse(text, players)

    def spy_game_parse(game, text, player, t):
        counts["phrases", text] += 1
        return game_parse(game, text, player, t)

    monkeypatch.setattr(intents, "parse", spy_parse)
    monkeypatch.setattr(phrases, "parse", spy_game_parse)
    return counts


@pytest.mark.parametrize("heard, scored", [
    (support.Heard(10, "jewelers", "Ann"), "Ann scores 15 points for jewelers."),
    (support.Heard(10, "play jewelers", "Ann"), "Ann scores 15 points for jewelers."),
])
def test_a_heard_word_is_parsed_once_from_the_hearing_to_its_score(table, reads, heard, scored):
    t = table()
    hearing = Hearing(t.session, t.session.words, HearingSettings())
    assert scored in support.said(t, hearing, heard)
    assert reads == {("intents", heard.text): 1, ("phrases", heard.text): 1}


def test_a_heard_command_is_parsed_once(table, reads):
    t = table()
    t("Ann: jewelers")
    reads.clear()
    hearing = Hearing(t.session, t.session.words, HearingSettings())
    out = support.said(t, hearing, support.Heard(20, "challenge", "Ben"))
    assert "Ben challenges Ann's jewelers." in out
    assert reads == {("intents", "challenge"): 1, ("phrases", "challenge"): 1}


def test_a_word_the_matcher_put_right_is_read_again_as_the_word_played(table, reads):
    t = table()
    hearing = Hearing(t.session, t.session.words, HearingSettings())
    assert "Ann scores 15 points for jewelers." in support.said(t, hearing, support.Heard(10, "jewellers", "Ann"))
    assert reads[("intents", "jewellers")] == 1 and reads[("intents", "jewelers")] == 1


def test_a_reading_of_other_words_or_by_another_player_is_not_used(table):
    """A record that carries a reading of something else is read from its own text."""
    for text, player in (("challenge", "Ann"), ("jewelers", "Ben")):
        t = table()
        out = t.session.play(Said(10.0, "Ann", "jewelers", parsed=t.session.read(text, player, 10.0)))
        out += t.session.tick(12.0)
        assert "Ann scores 15 points for jewelers." in out
        assert t.game.state.used == [("jewelers", "Ann")]
