"""No Cheapies: the rulebook's five restrictions, chains, and what stays allowed."""

from __future__ import annotations

import pytest

from voice_host.words import Words

# (earlier, later, rule) pairs straight from the rulebook's NO CHEAPIES! section.
RULEBOOK = [
    ("jumper", "jumper", "same"),
    ("articulate", "articulate", "same"),
    ("wrench", "wrenches", "plural"),
    ("goose", "geese", "plural"),
    ("gypsies", "gypsy", "plural"),
    ("jumped", "jump", "tense"),
    ("dive", "dove", "tense"),
    ("jubilantly", "jubilant", "ly"),
    ("begrudging", "begrudge", "ing"),
]


@pytest.mark.parametrize(("earlier", "later", "rule"), RULEBOOK)
def test_rulebook_examples_both_directions(words: Words, earlier: str, later: str, rule: str) -> None:
    for a, b in ((earlier, later), (later, earlier)):
        conflict = words.cheapie(b, [("house", "Cat"), (a, "Ann")])
        assert conflict is not None, (a, b)
        assert (conflict.word, conflict.earlier, conflict.player, conflict.rule) == (b, a, "Ann", rule)


@pytest.mark.parametrize(
    ("earlier", "later", "rule"),
    [
        ("wrenches", "wrench", "plural"),
        ("happy", "happily", "ly"),
        ("gentle", "gently", "ly"),
        ("friend", "friendly", "ly"),
        ("build", "building", "ing"),
        ("basic", "basically", "ly"),
        ("full", "fully", "ly"),
        ("datum", "data", "plural"),
        ("be", "was", "tense"),
        ("scrapbook", "scrapbooking", "ing"),
    ],
)
def test_more_direct_conflicts(words: Words, earlier: str, later: str, rule: str) -> None:
    for a, b in ((earlier, later), (later, earlier)):
        conflict = words.cheapie(b, [(a, "Ann")])
        assert conflict is not None and conflict.rule == rule, (a, b)
        assert conflict.path == ((a, rule),)


def test_begrudging_blocks_begrudged_with_the_chain_named(words: Words) -> None:
    conflict = words.cheapie("begrudged", [("begrudging", "Ann")])
    assert conflict is not None
    assert conflict.rule == "chain"
    assert conflict.path == (("begrudge", "tense"), ("begrudging", "ing"))
    back = words.cheapie("begrudging", [("begrudged", "Ann")])
    assert back is not None and back.path == (("begrudge", "ing"), ("begrudged", "tense"))


@pytest.mark.parametrize(
    ("earlier", "later", "steps"),
    [
        ("build", "buildings", ("plural", "ing")),
        ("friendly", "friends", ("plural", "ly")),
        ("love", "lovingly", ("ly", "ing")),
        ("going", "went", ("tense", "ing")),
        ("jumped", "jumps", ("plural", "tense")),
    ],
)
def test_chains(words: Words, earlier: str, later: str, steps: tuple[str, ...]) -> None:
    conflict = words.cheapie(later, [(earlier, "Ann")])
    assert conflict is not None and conflict.rule == "chain"
    assert tuple(rule for _, rule in conflict.path) == steps
    assert conflict.path[-1][0] == earlier


@pytest.mark.parametrize(
    ("earlier", "later"),
    [
        # the rulebook's "all other modifications are allowed"
        ("jump", "jumper"),
        ("happy", "unhappy"),
        ("happy", "happier"),
        ("happy", "happiness"),
        # -ly and -ing that are spelling accidents
        ("ear", "early"),
        ("on", "only"),
        ("bel", "belly"),
        ("rep", "reply"),
        ("app", "apply"),
        ("come", "comely"),
        ("hill", "hilly"),
        ("even", "evening"),
        ("morn", "morning"),
        # homographs do not chain: leaves is leaf + s and leave + s, doves is not dove the verb
        ("leaf", "left"),
        ("doves", "dive"),
        ("laid", "lie"),
        ("sawed", "seen"),
    ],
)
def test_allowed_in_both_directions(words: Words, earlier: str, later: str) -> None:
    assert words.cheapie(later, [(earlier, "Ann")]) is None
    assert words.cheapie(earlier, [(later, "Ann")]) is None


def test_false_friends_are_words(words: Words) -> None:
    for word in ["early", "ear", "only", "on", "belly", "reply", "apply", "evening", "even"]:
        assert word in words, word


def test_same_spelling_wins_and_case_is_ignored(words: Words) -> None:
    conflict = words.cheapie("Jumped", [("jump", "Ann"), ("jumped", "Bob")])
    assert conflict is not None
    assert (conflict.earlier, conflict.player, conflict.rule, conflict.path) == ("jumped", "Bob", "same", ())


def test_earliest_direct_conflict_is_reported(words: Words) -> None:
    used = [("begrudged", "Ann"), ("begrudges", "Bob"), ("begrudge", "Cat")]
    conflict = words.cheapie("begrudging", used)
    assert conflict is not None and (conflict.earlier, conflict.rule) == ("begrudge", "ing")


def test_no_conflict_with_empty_or_unrelated_history(words: Words) -> None:
    assert words.cheapie("jewelers", []) is None
    assert words.cheapie("jewelers", [("wrench", "Ann"), ("goose", "Bob")]) is None


def test_words_outside_the_dictionary(words: Words) -> None:
    assert "zorbed" not in words
    conflict = words.cheapie("zorbing", [("zorbed", "Ann")])
    assert conflict is not None and conflict.rule == "chain"
    assert words.cheapie("zorbs", [("zorb", "Ann")]) is not None
    assert words.cheapie("Zorbed", [("zorbed", "Ann")]).rule == "same"  # type: ignore[union-attr]
    conflict = words.cheapie("outjumped", [("outjump", "Ann")])
    assert conflict is not None and conflict.rule == "tense"
    assert words.cheapie("qwxplt", [("jump", "Ann")]) is None


def test_state_stays_plain(words: Words) -> None:
    used = (("jump", "Ann"),)
    conflict = words.cheapie("jumped", used)
    assert conflict is not None and conflict.player == "Ann"
    assert used == (("jump", "Ann"),)


# an adjective's -ly comes from its spelling, whatever the sound change
@pytest.mark.parametrize(
    ("base", "adverb"),
    [
        ("elegant", "elegantly"), ("clumsy", "clumsily"), ("cheerful", "cheerfully"), ("lazy", "lazily"),
        ("graceful", "gracefully"), ("playful", "playfully"), ("joyful", "joyfully"), ("royal", "royally"),
        ("wicked", "wickedly"), ("cruel", "cruelly"), ("dreadful", "dreadfully"),
    ],
)
def test_ly_from_spelling_even_when_the_sound_changes(words: Words, base: str, adverb: str) -> None:
    for a, b in ((base, adverb), (adverb, base)):
        conflict = words.cheapie(b, [(a, "Ann")])
        assert conflict is not None, (a, b)
        assert (conflict.rule, conflict.path) == ("ly", ((a, "ly"),))


@pytest.mark.parametrize(("earlier", "later"), [("sure", "surly"), ("tall", "tally"), ("supple", "supply"),
                                                 ("prime", "primly")])
def test_ly_spelling_accidents_of_adjectives_stay_allowed(words: Words, earlier: str, later: str) -> None:
    assert words.cheapie(later, [(earlier, "Ann")]) is None
    assert words.cheapie(earlier, [(later, "Ann")]) is None
