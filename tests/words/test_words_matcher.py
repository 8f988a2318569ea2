"""The matcher: from what the recognizer heard to the word meant."""

from __future__ import annotations

import pytest

from voice_host.words import Match, Words
from voice_host.words.matcher import spelled_letters, tokens


def _alternatives(match: Match) -> list[str]:
    return [w for w, _ in match.alternatives]


@pytest.mark.parametrize(
    ("heard", "meant"),
    [
        ("scrap booking", "scrapbooking"),
        ("counter feiting", "counterfeiting"),
        ("cat fish", "catfish"),
        ("jubilant lee", "jubilantly"),
        ("jewel ears", "jewelers"),
    ],
)
def test_split_words(words: Words, heard: str, meant: str) -> None:
    assert words.match(heard).best == meant


@pytest.mark.parametrize(
    ("heard", "meant"),
    [("flumoxed", "flummoxed"), ("picnicing", "picnicking"), ("begrudjing", "begrudging"), ("hurdeld", "hurdled")],
)
def test_near_misses(words: Words, heard: str, meant: str) -> None:
    assert words.match(heard).best == meant


def test_homophones_are_offered(words: Words) -> None:
    match = words.match("jewellers")
    assert set(_alternatives(match)[:2]) == {"jewelers", "jewellers"}
    assert match.confidence < 0.7  # the host should ask "did you say jewelers or jewellers?"
    assert words.match("knight").best == "night"  # the common word wins when the sound is the same
    assert "knight" in _alternatives(words.match("knight"))[:2]


@pytest.mark.parametrize(
    ("heard", "meant"),
    [("fotograph", "photograph"), ("rythm", "rhythm"), ("kwestion", "question"), ("filosophy", "philosophy")],
)
def test_sound_alike_spellings(words: Words, heard: str, meant: str) -> None:
    assert words.match(heard).best == meant


@pytest.mark.parametrize(
    "heard",
    [
        "j e w e l e r s",
        "J. E. W. E. L. E. R. S.",
        "juliet echo whiskey echo lima echo romeo sierra",
        "juliett echo whisky echo lima echo romeo sierra",
        "jay e double you e l e r s",
    ],
)
def test_spelled_and_nato(words: Words, heard: str) -> None:
    match = words.match(heard)
    assert match.best == "jewelers"
    assert match.confidence > 0.8  # a spelling is not ambiguous like a sound


def test_spelled_reading() -> None:
    assert spelled_letters(tokens("x-ray yankee zulu")) == "xyz"
    assert spelled_letters(tokens("see you")) is None  # two letter names that are words: not a spelling
    assert spelled_letters(tokens("scrap booking")) is None


def test_confidence_and_alternatives(words: Words) -> None:
    match = words.match("jewelers", n=3)
    assert len(match.alternatives) == 3
    assert match.alternatives[0] == (match.best, match.confidence)
    scores = [c for _, c in match.alternatives]
    assert scores == sorted(scores, reverse=True)
    assert all(0 <= c <= 1 for c in scores)
    assert words.match("flummoxed").confidence > 0.9


def test_nothing_heard(words: Words) -> None:
    assert words.match("") == Match(None, 0.0, [])
    assert words.match("  ... ").best is None


def test_restricted_candidates(words: Words) -> None:
    players = ["Alice", "Bob", "Carol"]
    assert words.match("alice", candidates=players).best == "Alice"
    assert words.match("carroll", candidates=players).best == "Carol"
    assert words.match("bop", candidates=players).best == "Bob"
    commands = ["challenge", "timer", "undo"]
    assert words.match("chal lenge", candidates=commands).best == "challenge"
    assert words.match("zzzzzzzz", candidates=commands).best is None
    assert words.match("alice", candidates=[]).best is None
