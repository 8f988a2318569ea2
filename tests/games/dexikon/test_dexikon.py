"""The Dexikon scorekeeper from scripts: banking, challenges, the end, the final score.

Points are whatever the players say their words are worth (the cards are theirs); the
totals below are worked by hand from the rules' scoring.
"""

from __future__ import annotations

import pytest
from support import by_name, voice_host

from voice_host.games.dexikon import DexikonSettings
from voice_host.games.dexikon import actions as A
from voice_host.games.dexikon import events as E

BARBARA = """
# round 1
Barbara: bank catch for 5
Colin: challenge
Barbara: check                    # catch stands: Barbara's mark 1, Colin's penalty card 1
Colin: bank dog for 3
# round 2
Barbara: bank counts for six
Colin: challenge Barbara
@wait 10                          # no answer: the dictionary decides. Mark 2; Colin's card 2
Colin: bank flurb for 4
Barbara: challenge
Colin: check                      # void: Barbara's mark 3, Colin's card 3; a second try
Colin: bank mouse for 4
# round 3
Barbara: bank catfish for 9
Colin: challenge
Barbara: no                       # "no", she does not concede: it stands. Mark 4; Colin's card 4
Colin: spend catch for 3          # refused: catch was banked
Colin: spend
# round 4
Barbara: bank finch for 5
Colin: bank zebra for 6
Barbara: challenge
Colin: check                      # zebra stands: Colin's mark 1, Barbara's penalty card 1
# round 5
Barbara: bank gifted for 8
Barbara: penalty 3                # attack cards: 4 penalty cards
Colin: bank glorp for 5
Barbara: challenge
Colin: concede                    # no marks, no penalties; a second try
Colin: bank blorp for 5
Barbara: challenge
@wait 10                          # void: Barbara's mark 5, Colin's card 5; no third try
# round 6
Barbara: bank franking for 11
Colin: bank horse for 5
# round 7
Barbara: bank canning for 7       # her seventh
Colin: bank tiger for 6
@wait 10                          # before Barbara's next turn: seven banked, the game is over
Barbara: penalty 2
Barbara: returned penalty one     # 4 + 2 - 1 = 5 penalty cards
Barbara: bonus 2                  # two N cards
Barbara: last word counterfeiting for 15
Colin: last word zebras for 8
"""


def test_barbaras_worked_final_score_of_53(play):
    result, lines = play(BARBARA, "Barbara,Colin", game="dexikon")
    assert result["finished"] is True and result["winners"] == ["Barbara"]
    b = by_name(result)["Barbara"]
    # best five of 5 6 9 5 8 11 7: 11 + 9 + 8 + 7 + 6 = 41; last word 15; 5 marks + 2 = 7; 5 cards: -10
    assert b["total"] == 41 + 15 + 7 - 10 == 53
    assert [w["counts"] for w in b["words"]] == [False, True, True, False, True, True, True, True]
    assert (b["marks"], b["bonus"], b["penalties"]) == (5, 2, 5)
    # Colin: dog 3, mouse 4, zebra 6, horse 5, tiger 6 = 24; last word 8; 1 mark; 5 cards: -10
    assert by_name(result)["Colin"]["total"] == 24 + 8 + 1 - 10 == 23
    assert lines[:2] == ["Dexikon for Barbara and Colin: the game ends when someone has banked 7 words; the best 5 count.",
                         "Round 1: Barbara's turn."]
    assert "Barbara banks catch for 5 points: 1 word banked." in lines
    assert "Barbara, do you concede catch? Say concede, or check to look it up." in lines
    assert "It's in the dictionary: catch stands. Barbara wins a bonus mark; Colin takes a penalty card." in lines
    assert ("The challenge succeeds: flurb is void, it is not in the dictionary. Barbara wins a bonus mark; "
            "Colin takes a penalty card. Colin, try another word.") in lines
    assert "Barbara banked catch: nobody can spell it again this game." in lines
    assert "Colin spends." in lines
    assert "Colin concedes glorp: no marks, no penalties. Colin, try another word." in lines
    assert ("The challenge succeeds: blorp is void, it is not in the dictionary. Barbara wins a bonus mark; "
            "Colin takes a penalty card. No third try: Colin's turn ends.") in lines
    assert "Barbara has banked 7 words: the game is over. Last words: say 'last word', the word and its points." in lines
    assert "Barbara returns 1 penalty card: 5 left." in lines
    assert "Barbara: 2 points from N and P cards." in lines
    assert "Barbara's last word: counterfeiting for 15 points." in lines
    assert ("Barbara: best 5 of 7 banked words, 41; last word counterfeiting, 15; bonus 7; "
            "5 penalty cards, minus 10; total 53.") in lines
    assert lines[-1] == "Game over. Final scores: Barbara 53; Colin 23. Barbara wins!"


QUICK = """
Ann: bank apple for 5
Ben: bank figs for 9
Ann: bank bread for 5
Ben: bank grape for 2
Ann: bank cider for 5
Ben: bank honey for 2
Ann: bank dates for 5
Ben: bank icing for 2
Ann: bank eggs for 5
Ben: bank jelly for 2
@wait 10
Ann: last word apple for three    # a banked word may be a last word
Ben: last word kiwi for 5
"""


def test_quick_variant_best_three_and_the_best_single_word_breaks_a_tie(play):
    result, lines = play(QUICK, "Ann,Ben", "--variant", "quick", game="dexikon")
    assert "Dexikon for Ann and Ben: the game ends when someone has banked 5 words; the best 3 count." in lines
    assert "Ann and Ben have banked 5 words: the game is over. Last words: say 'last word', the word and its points." in lines
    p = by_name(result)
    assert p["Ann"]["total"] == 5 + 5 + 5 + 3 == 18
    assert p["Ben"]["total"] == 9 + 2 + 2 + 5 == 18
    assert result["winners"] == ["Ben"]  # his 9 beats her best word, 5
    assert lines[-1] == "Game over. Final scores: Ben 18; Ann 18. Ben wins the tie on the best single word."


@pytest.mark.parametrize("variant, limits", [("standard", (7, 5)), ("quick", (5, 3)), ("long", (8, 6)),
                                             ("long-best5", (8, 5))])
def test_variants(variant, limits):
    from voice_host import config

    assert DexikonSettings.from_config(config.load(overrides={"dexikon": {"variant": variant}})).limits == limits


@pytest.mark.slow
def test_an_unknown_variant_is_refused_at_the_start():
    proc = voice_host("play", "--game", "dexikon", "--players", "Ann,Ben", "--variant", "short", "--script",
                      "/dev/null", "--no-voice")
    assert proc.returncode == 2 and "Dexikon has no variant short" in proc.stderr


def test_challengers_together_spent_words_forgotten_refusals_change_nothing(core):
    c = core(game="dexikon", start=None, board=None, settle=False)
    assert c(A.Declare, "Ann", "flurb", 6, True) == [E.WordBanked("Ann", "flurb", 6, 1)]
    assert c(A.Challenge, "Ben") == [E.ChallengeRaised("Ben", "Ann", "flurb"), E.ConcedeAsked("Ann", "flurb")]
    assert c(A.Challenge, "Cat") == [E.ChallengeJoined("Cat", "Ann", "flurb")]  # both win a mark when it is void
    assert c(A.ChallengeAnswer, "Ann", False) == [
        E.DexikonChallenged("Ann", "flurb", ("Ben", "Cat"), "void", "not_found", "bank", True)]
    c(A.Declare, "Ann", "catch", 4, False)  # the second try
    c(A.Challenge, "Ben", "Ann")
    c(A.Challenge, "Cat")
    assert c(A.ChallengeAnswer, "Ann", False) == [  # it stands: Ann's mark; a penalty card each for Ben and Cat
        E.DexikonChallenged("Ann", "catch", ("Ben", "Cat"), "stands", None, "spend", False), E.TurnStarted("Ben", 1)]
    assert c(A.Declare, "Ben", "catch", 4, False) == [E.WordSpent("Ben", "catch", 4)]  # spent words leave no trace
    sheets = c.state.sheets
    assert [(sheets[p].marks, sheets[p].penalties) for p in ["Ann", "Ben", "Cat"]] == [(1, 1), (1, 1), (1, 1)]
    c.wait(10)  # Ben's word closes: Cat's turn
    before = c.game.result()
    refused = [
        ((A.Declare, "Ann", "apple", 3, True), "not_your_turn", {"player": "Cat"}),
        ((A.Tally, "Cat", "returned", 2), "too_few_penalties", {"held": 1}),
        ((A.LastWord, "Cat", "apple", 3), "not_last_words", {}),
        ((A.ChallengeAnswer, "Cat", True), "no_challenge_pending", {}),
        ((A.Tally, "Cat", "aside", 1), "solo_only", {}),
        ((A.PlayWord, "Cat", "apple"), "say_bank_or_spend", {"word": "apple"}),
    ]
    for (action, player, *args), code, params in refused:
        assert c(action, player, *args) == [E.Refused(code, params, player)], code
    assert c.game.result() == before
    assert c.game.step(A.Query(c.t, "scores", "Cat")) == [  # each: 1 mark - 2 for a card
        E.StandingsReport((E.Standing("Ann", -1), E.Standing("Ben", -1), E.Standing("Cat", -1)))]


def test_a_phrase_half_heard_is_refused_and_said(table):
    t = table("Ann,Ben,Cat", game="dexikon", start=None, board=None)
    assert t("Ann: bank catch")[-1] == "Say the points too, like 'bank catch for 5'."  # after the game's start
    assert t("Ann: bank catch for lots") == ["I didn't catch a number in 'lots'."]
    assert t("Ann: apple") == ["Say 'bank apple for' its points, or 'spend apple'."]


def test_solo_pool_runs_out_penalties_set_aside(play):
    script = """
    Ann: bank apple for 6
    Ann: set aside 2              # two attacks: two penalties set aside, a point each
    Ann: penalty 1                # a penalty from the pool
    Ann: bank bread for 7
    Ann: pool empty               # the pool deck is empty at the start of this turn: the last turn
    Ann: bank cider for 4
    @wait 10
    Ann: last word dates for 5
    """
    result, lines = play(script, "Ann", game="dexikon")
    assert "Dexikon solo for Ann: the game ends when you have banked 7 words or the pool runs out; your best 5 count." in lines
    assert "Ann sets aside 2 penalties: 2 in all, a point each." in lines
    assert "The pool deck is empty: this is Ann's last turn." in lines
    assert "The pool deck ran out: the game is over. Last words: say 'last word', the word and its points." in lines
    # 6 + 7 + 4 + 5 + 2 - 2 = 22
    assert by_name(result)["Ann"]["total"] == 22 and by_name(result)["Ann"]["aside"] == 2
    assert result["finished"] is True and result["winners"] == []
    assert lines[-1] == "Game over. Ann finishes with 22 points."


def test_voided_words_are_answered_after_a_challenge_voids_or_the_speller_concedes(table):
    t = table("Ann,Ben,Cat", game="dexikon", start="Ann", board=None)
    assert t("Ben: voided words") == ["No word has been voided."]
    t("Ann: bank flurb for 5\nBen: challenge\nAnn: check")
    t("Ann: bank glorp for 4\nCat: challenge\nAnn: concede")
    assert t("Ben: voided words") == ["Voided by a challenge: flurb by Ann in round 1, glorp by Ann in round 1."]
