"""From heard utterances to plays: matching, confirming, asking who, chatter.

The utterances here are what the speech layer emits (start, text, speaker, ...); the
audio tests in tests/speech and tests/test_audio_game.py produce them from real audio.
"""

from __future__ import annotations

import pytest
from support import Heard

from voice_host.host.hearing import Hearing, HearingSettings


@pytest.fixture
def ear(table):
    t = table()
    hearing = Hearing(t.session, t.session.words, HearingSettings(ignore=("okay", "hmm")))
    return t, hearing


def said(t, hearing, *utterances) -> list[str]:
    before = len(t.heard)
    for u in utterances:
        hearing.hear(u)
    hearing.tick(t.session.t + 1)
    return t.heard[before:]


def test_split_spelled_and_nato_words_are_joined(ear):
    t, hearing = ear
    assert said(t, hearing, Heard(10, "scrap booking"))[0] == "Ann scores 10 points for scrapbooking."
    t("@board W B J S L C D G")
    assert said(t, hearing, Heard(20, "j e w e l e r s", "Ben"))[0] == "Ben scores 15 points for jewelers."
    t("@board W B J S L C D G")
    nato = "juliet alpha whiskey bravo oscar november echo sierra"
    assert said(t, hearing, Heard(30, nato, "Cat"))[0] == "Cat scores 17 points for jawbones."


def unsure(t, heard: str) -> list[str]:
    """The matcher's top two for a word it is unsure of (the words tests cover its ranking)."""
    match = t.session.words.match(heard)
    assert match.confidence < HearingSettings().confirm_below
    return [w for w, _ in match.alternatives[:2]]


def test_unsure_word_is_confirmed_yes_or_settled_by_the_best_guess(ear):
    t, hearing = ear
    first, second = unsure(t, "flummocks")
    assert said(t, hearing, Heard(10, "flummocks")) == [f"Did you say {first} or {second}?"]
    assert t.game.state.used == []  # nothing played while the question is open
    said(t, hearing, Heard(12, "yes"))
    assert t.game.state.used == [(first, "Ann")]
    t("@board W B J S L C D G")
    first, _ = unsure(t, "gliblets")
    said(t, hearing, Heard(30, "gliblets", "Ben"))
    out = said(t, hearing, Heard(40, "scores", "Cat"))  # nobody answered within 8 s
    assert out[0] == f"I'll take {first}."
    assert t.game.state.used[-1] == (first, "Ben")


def test_the_speaker_may_answer_with_the_other_word(ear):
    t, hearing = ear
    first, second = unsure(t, "flummocks")
    said(t, hearing, Heard(10, "flummocks"))
    said(t, hearing, Heard(12, second))
    assert t.game.state.used == [(second, "Ann")]


def test_nobody_knows_who_spoke_so_the_host_asks(ear):
    t, hearing = ear
    assert said(t, hearing, Heard(10, "jewelers", speaker=None)) == ["Who said jewelers?"]
    out = said(t, hearing, Heard(12, "it was Ann", speaker=None))
    assert out[:2] == ["jewelers, spelled J E W E L E R S.", "Ann scores 15 points for jewelers."]


def test_a_weak_attribution_is_confirmed(ear):
    t, hearing = ear
    assert said(t, hearing, Heard(10, "jewelers", "Ben", 0.4, ask=True)) == ["Was that Ben?"]
    out = said(t, hearing, Heard(11, "yes", "Ben"))
    assert out[:2] == ["jewelers, spelled J E W E L E R S.", "Ben interrupts Ann with jewelers: 15, minus 2, scores 13."]


def test_a_word_heard_unsurely_is_still_asked_about_once_its_player_is_confirmed(ear):
    """Live, with the host's voice heard back: Eli's "remembering", heard "circuit" at
    4% in a voice the host was unsure of, was asked "Was that Eli?", and Eli's "yes"
    played circuit: the word itself was never doubted."""
    t, hearing = ear
    unsure = Heard(10, "jawbones", "Ben", 0.4, ask=True, confidence=0.04, constrained=True,
                   alternatives=[("jawbones", -1.0), ("jewelers", -1.5)])
    assert said(t, hearing, unsure) == ["Was that Ben?"]
    assert said(t, hearing, Heard(12, "yes", "Ben")) == ["Did you say jawbones or jewelers?"]
    assert t.game.state.used == []
    out = said(t, hearing, Heard(15, "jewelers", "Ben"))
    assert "Ben interrupts Ann with jewelers: 15, minus 2, scores 13." in out
    assert t.game.state.used == [("jewelers", "Ben")]


def test_chatter_and_commands(ear):
    t, hearing = ear
    assert said(t, hearing, Heard(10, "that was a good one")) == [
        "I didn't catch a word in 'that was a good one'. Say just the word, or 'play' and the word."]
    assert said(t, hearing, Heard(12, "okay")) == []  # table talk: nothing to answer
    assert said(t, hearing, Heard(14, "whose turn is it", "Ben")) == ["Round 1: Ann's turn."]
    assert t.game.state.used == []


def test_a_word_said_while_a_question_is_open_settles_it_and_waits_its_turn(ear):
    t, hearing = ear
    first, _ = unsure(t, "flummocks")
    value = t.game.score(first)[0]
    said(t, hearing, Heard(10, "flummocks"))                 # Ann, unsure: the host asks
    out = said(t, hearing, Heard(11, "jawbones", "Ben"))      # Ben goes on: the host takes its guess
    # in the order said: Ann's word first, so Ben's came after it, before the new tiles
    assert out[:4] == [f"I'll take {first}.", f"Ann scores {value} points for {first}.",
                       "Ann, draw 2 tiles and tell me the letters.", "Wait until Ann has drawn the new tiles."]
    assert t.game.state.used == [(first, "Ann")]


@pytest.mark.parametrize("game, heard, refused", [
    ("dexikon", ["bank pocket for nine", "Ann, bank pocket for 9 points.", "spend market for six", "spend",
                 "last word reckoning for fourteen", "penalty two", "returned penalty 1", "concede", "ben spend",
                 "how much time", "i am ann"],
     ["pocket for nine", "pocket", "ben pocket for nine", "bank pocket for", "spend market for sixty one"]),
    ("road", ["play market for six, window for seven", "play jinx for fourteen and ox for nine with 4 tiles",
              "play fire for 7", "take a mulligan", "pass", "bag empty", "scores"],
     ["market for six", "play market six", "fire for 7"]),
    ("phlounder", ["market, unused two", "rocket 3 unused", "no word, unused 2", "no word", "pocket", "ann, pocket",
                   "roll the dice", "bell"],
     ["market unused", "unused two", "market and used to"]),
])
def test_every_game_hears_the_sentences_its_plays_are_made_of(table, words, game, heard, refused):
    """Each game's plays are a language the recognizer searches ("bank
    WORD for N", "play WORD for N, WORD for N", "WORD, unused N"), numbers said either way."""
    t = table("Ann,Ben", game=game, board=None)
    sayable = Hearing(t.session, words, HearingSettings()).sayable()
    assert [s for s in heard if s not in sayable] == []
    assert [s for s in refused if s in sayable] == []
    assert sayable.prior is not None  # how well-known a word is weighs in every game


def test_no_word_in_phlounder_is_not_a_correction_and_a_word(table, words):
    """"no word, unused 4" was heard "no lard, unused four": "no" led a word, as it puts a
    Prolix play right ("no, persons"); where plays have tails it leads none."""
    t = table("Ann,Ben", game="phlounder", board=None)
    sayable = Hearing(t.session, words, HearingSettings()).sayable()
    assert "no word unused 4" in sayable and "no lard unused 4" not in sayable and "no words" not in sayable
    prolix = Hearing(table().session, words, HearingSettings()).understand.sayable(correcting=True)
    assert "no persons" in prolix  # while a Prolix word may be put right


def test_what_may_be_said_is_kept_compiled_for_the_moments_a_game_moves_between(ear):
    """A question opened and settled, a word that may be put right or not: going back to
    one finds its compiled language (and the recognizer's walks memoized on it)."""
    t, hearing = ear
    open_play = hearing.understand.sayable(None, True).language()
    said(t, hearing, Heard(10, "flummocks"))  # a question opens: its answers may be said
    assert hearing.question is not None
    asked = hearing.understand.sayable(hearing.question, True).language()
    assert asked is not open_play and hearing.understand.sayable(None, False).language() is not open_play
    assert hearing.understand.sayable(None, True).language() is open_play


def test_a_spelling_heard_unsurely_is_asked_about(ear):
    """Live, with the host's voice heard back: Eli's "incompatible", said over the host,
    was heard "a a" at 1%, read as the spelling of "aa", and played: a spelling was
    taken as sure however unsure the recognizer was of it."""
    t, hearing = ear
    heard = Heard(10, "a a", "Ann", confidence=0.01, constrained=True, alternatives=[("a a", -9.0)])
    assert said(t, hearing, heard) == ["Did you say aa?"]
    assert t.game.state.used == []
