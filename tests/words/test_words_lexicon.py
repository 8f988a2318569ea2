"""The dictionary: what it accepts and rejects, table word lists, the disk cache."""

from __future__ import annotations

import re
from pathlib import Path

import pytest

from voice_host.words import LexiconSettings, Words, lexicon

ACCEPTED = (
    "jewelers flummoxed picnicking scrapbooking hurdled plucky giving begrudging jubilantly "
    "wrenches geese dove catfish franking counterfeiting memo prune ruin outset"
).split()


@pytest.mark.parametrize("word", ACCEPTED)
def test_accepts_issue_words(words: Words, word: str) -> None:
    assert words.check(word).ok
    assert word in words


@pytest.mark.parametrize(
    ("word", "reason"),
    [
        ("Scotland", "proper_noun"),
        ("Marvin", "proper_noun"),
        ("scotland", "proper_noun"),
        ("NORAD", "acronym"),
        ("norad", "acronym"),
        ("don't", "punctuation"),
        ("well-being", "punctuation"),
        ("ice cream", "punctuation"),
        ("café", "not_letters"),
        ("r2d2", "not_letters"),
        ("", "not_letters"),
        ("Zxqvbn", "capitalized"),
        ("zxqvbn", "not_found"),
    ],
)
def test_rejects_with_reason(words: Words, word: str, reason: str) -> None:
    verdict = words.check(word)
    assert not verdict.ok
    assert verdict.reason == reason
    assert verdict.detail


def test_capitalized_dictionary_word_is_the_word(words: Words) -> None:
    assert words.check("Jewelers").ok  # typed at the start of a line; spoken words have no case
    assert "Jewelers" not in words  # membership is exact: the dictionary is lower case


def test_inflections_and_derivations_accepted(words: Words) -> None:
    for word in ["jumped", "jumping", "jumps", "geese", "dived", "happily", "gently", "building", "friendly"]:
        assert word in words, word


def test_size_and_shape(words: Words) -> None:
    assert len(words) >= 100_000
    assert all(re.fullmatch(r"[a-z]+", w) for w in words.data.words)
    assert words.data.words == sorted(words.data.words)


def test_abbreviations_removed(words: Words) -> None:
    for abbreviation in ["bldg", "hdqrs", "atm", "adj", "xiv", "b", "dr", "mr"]:
        assert abbreviation not in words, abbreviation
    for short in ["a", "i", "ox", "ado", "nth", "hmm"]:
        assert short in words, short
    assert words.match("doctor").best == "doctor"  # not "dr", said the same in CMUdict


def test_accented_words_are_spelled_without_accents(words: Words) -> None:
    for word in ["saute", "cafe", "naive", "fiance"]:
        assert words.check(word).ok, word


def test_frequency(words: Words) -> None:
    assert words.frequency("the") > 7
    assert 0 < words.frequency("jewelers") < words.frequency("house")
    assert words.frequency("zxqvbn") == 0.0
    assert words.frequency("Scotland") == 0.0


def _write(path: Path, lines: list[str]) -> str:
    path.write_text("\n".join(lines) + "\n", encoding="utf-8")
    return str(path)


@pytest.mark.slow
def test_table_word_list_with_allow_and_deny(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("VOICE_HOST_CACHE", str(tmp_path / "cache"))
    settings = LexiconSettings(
        wordlist=_write(tmp_path / "list.txt", ["# tournament list", "JUMP", "JUMPED", "Jumping", "wrench", "", "don't"]),
        allow=_write(tmp_path / "allow.txt", ["zorb", "zorbing"]),
        deny=_write(tmp_path / "deny.txt", ["wrench"]),
    )
    words = Words(lexicon.load_lexicon(settings))
    assert sorted(words.data.words) == ["jump", "jumped", "jumping", "zorb", "zorbing"]
    assert words.data.stats["wordlist_skipped"] == 1
    assert words.check("jumped").ok
    assert words.check("wrench").reason == "not_found"
    assert words.check("Scotland").reason == "proper_noun"  # reasons still come from SCOWL
    conflict = words.cheapie("jumping", [("jumped", "Ann")])
    assert conflict is not None and conflict.rule == "chain"
    assert words.cheapie("zorbing", [("zorb", "Ann")]) is not None
    assert words.best([("j", 5), ("z", 5), ("r", 1)], 2) == [("zorbing", 6), ("zorb", 6)]


@pytest.mark.slow
def test_cache_is_read_on_second_load(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("VOICE_HOST_CACHE", str(tmp_path))
    wordlist = tmp_path / "list.txt"
    settings = LexiconSettings(wordlist=_write(wordlist, ["alpha", "beta"]))
    first = lexicon.load_lexicon(settings)
    assert len(list(tmp_path.glob("lexicon-*.pickle"))) == 1

    def no_build(_settings: LexiconSettings) -> None:
        raise AssertionError("rebuilt although the cache is fresh")

    monkeypatch.setattr(lexicon, "build_lexicon", no_build)
    second = lexicon.load_lexicon(settings)
    assert second.words == first.words == ["alpha", "beta"]

    monkeypatch.undo()
    monkeypatch.setenv("VOICE_HOST_CACHE", str(tmp_path))
    _write(wordlist, ["alpha", "beta", "gamma"])  # a changed source changes the key
    assert lexicon.load_lexicon(settings).words == ["alpha", "beta", "gamma"]
    assert [p.name for p in tmp_path.glob("lexicon-*.pickle")] == [lexicon.cache_path(settings).name]


def test_cache_dir_follows_environment(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("VOICE_HOST_CACHE", str(tmp_path))
    assert lexicon.cache_dir() == tmp_path
    monkeypatch.delenv("VOICE_HOST_CACHE")
    assert "voice-host" in str(lexicon.cache_dir())


def test_load_is_shared_per_process(words: Words) -> None:
    assert Words.load() is Words.load(LexiconSettings())
