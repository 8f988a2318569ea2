"""`voice-host word`: the words layer's subcommand."""

from __future__ import annotations

import argparse

import pytest

from voice_host.words import Words
from voice_host.words.cli import parse_used, register


def _run(argv: list[str]) -> int:
    parser = argparse.ArgumentParser(prog="voice-host")
    register(parser.add_subparsers(dest="command"))
    args = parser.parse_args(argv)
    return args.func(args)


def test_all_valid(words: Words, capsys: pytest.CaptureFixture[str]) -> None:
    assert _run(["word", "jewelers", "flummoxed"]) == 0
    assert capsys.readouterr().out.splitlines() == ["jewelers: valid", "flummoxed: valid"]


def test_invalid_words_and_reasons(words: Words, capsys: pytest.CaptureFixture[str]) -> None:
    code = _run(["word", "--used", "wrench:Ann,begrudging", "wrenches", "begrudged", "Scotland", "NORAD", "don't", "zxqvbn", "jewelers"])
    lines = capsys.readouterr().out.splitlines()
    assert code == 1
    assert lines[0] == "wrenches: invalid, cheapie of wrench played by Ann (plural)"
    assert lines[1] == "begrudged: invalid, cheapie of begrudging (chain: begrudged -tense-> begrudge -ing-> begrudging)"
    assert lines[2] == "Scotland: invalid, a proper noun"
    assert lines[3] == "NORAD: invalid, an acronym"
    assert lines[4] == "don't: invalid, punctuation or spaces in it"
    assert lines[5] == "zxqvbn: invalid, not in the dictionary"
    assert lines[6] == "jewelers: valid"


def test_parse_used() -> None:
    assert parse_used("wrench:Ann, jump ,,") == [("wrench", "Ann"), ("jump", "")]
    assert parse_used("") == []


def test_each_invalid_word_says_why_once(words: Words, capsys: pytest.CaptureFixture[str]) -> None:
    assert _run(["word", "xyz", "Scotland", "NORAD", "don't", "abc1", "Lkjh"]) == 1
    assert capsys.readouterr().out.splitlines() == [
        "xyz: invalid, not in the dictionary",
        "Scotland: invalid, a proper noun",
        "NORAD: invalid, an acronym",
        "don't: invalid, punctuation or spaces in it",
        "abc1: invalid, not made of the letters a-z",
        "Lkjh: invalid, capitalized and not in the dictionary",
    ]
