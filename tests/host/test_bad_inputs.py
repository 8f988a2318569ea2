"""Inputs: a sentence for each, never a traceback, nothing lost."""

from __future__ import annotations

import pytest
from support import voice_host

from voice_host.host.intents import parse
from voice_host.host.script import parse_line


def test_a_lone_at_sign_is_answered_and_the_game_goes_on(table):
    t = table()
    assert parse_line("@", 0.0, 3).to_json() == {"line": 3, "t": 1.0, "error": "bad_line", "text": "@"}
    assert parse_line("@wait nan", 0.0, 4).error == "bad_wait"
    said = t("@\n@wait inf\nAnn: jewelers")
    assert said == ["I can't read '@'. Write a line as 'Name: word' or '@directive'.",
                    "'@wait inf' needs a number of seconds, like '@wait 46'.",
                    "Ann scores 15 points for jewelers.", "Ann, draw 2 tiles and tell me the letters."]


@pytest.mark.slow
def test_a_lone_at_sign_typed_does_not_end_the_game():
    proc = voice_host("play", "--players", "Ann,Ben,Cat", "--seed", "1", "--no-voice", "--typed",
                      "--start", "Ann", "--board", "W B J S L C D G", stdin="@\nAnn: jewelers\n")
    assert proc.returncode == 0, proc.stderr
    assert "Traceback" not in proc.stderr
    assert "host: Ann scores 15 points for jewelers." in proc.stdout


def test_accents_are_folded_before_anything_else(table, words):
    assert parse("café", []).word == "cafe"
    assert parse("Play SAUTÉ", []).word == "saute"
    t = table(auto_reject=True)
    assert t("Ann: café")[0] == "Ann scores 2 points for cafe."  # the C in the 2-point column
    assert t.state.used == [("cafe", "Ann")]


@pytest.mark.slow
def test_accents_in_the_word_command():
    proc = voice_host("word", "café", "sauté", "--used", "jalapeño:Ann")
    assert proc.stdout.splitlines() == ["cafe: valid", "saute: valid"]
    assert proc.returncode == 0


def test_dexikon_banks_an_accented_word_unaccented(table):
    t = table("Ann,Ben", game="dexikon", start=None, board=None)
    said = t("Ann: bank sauté for 6")
    assert "Ann banks saute for 6 points: 1 word banked." in said
    assert t.state.sheets["Ann"].banked == [("saute", 6)]


def test_a_word_longer_than_any_word_is_refused_not_read_back(table):
    t = table()
    said = t("Ann: " + "a" * 5000)
    assert said == ["That word has 5000 letters; the longest word in the dictionary has 45. Say it again."]
    assert t.state.pending == [] and t.state.used == []
    said = t("Ann: " + "hello " * 40)
    assert said == ["I didn't catch a word in 'hello hello hello hello hello hello hello hello hello hel...'. "
                    "Say just the word, or 'play' and the word."]
