"""Phlounder from scripts: dice, the bell, reports, scoring, challenges, partners, children.

The table rolls its own dice (``@dice 5N``) so each round's target is known; every
round's scores are worked by hand in the comments.
"""

from __future__ import annotations

import pytest
from support import by_name, voice_host

from voice_host.games.phlounder import actions as A
from voice_host.games.phlounder import events as E
from voice_host.words.pos import parts_of_speech

THREE_PLAYERS = """
# R1, a 5-letter noun. Ben rings: 2 + 5 = 7. Ann: the rules' RUIN (P, E, D unused): 4 - 3 = 1. Cat: -2
@dice 5N
Ben: bell
Ben: table
Ann: ruin, unused three
Cat: no word, unused 2
# R2, a 4-letter verb. Cat: 2 + 4 = 6. Ann 4. Ben's tables is longer than 4: -(6 + 1) = -7
@dice 4V
Cat: done
Cat: jump
Ann: cats, unused 0
Ben: tables, unused one
# R3, a 6-letter verb (a verb form counts). Ann: 2 + 6 = 8. Ben 4 - 2 = 2. Cat's cat is too short: -(3 + 1) = -4
@dice 6V
Ann: phlounder
Ann: tables
Ben: ruin unused 2
Cat: cat unused 1
# R4: Ben's happy is no verb, an illegal bell: Ben -5, Ann and Cat +7
@dice 5V
Ben: bell
Ben: happy
Ann: roads, unused 2
Cat: no word, unused 0
# R5, any word of 4 to 7 letters: scored on words first, then Ann's challenge voids
# Cat's flurb: an illegal bell after all, Cat -5, Ann and Ben +7
@dice **
Cat: bell
Cat: flurb
Ann: plank, unused 1
Ben: stone, unused 0
Ann: challenge Cat
# R6, a 7-letter noun. Ann: 2 + 7 = 9. Ben's glorp is challenged before the round is
# scored: -(5 + 1) = -6. Cat 4
@dice 7N
Ann: bell
Ann: kitchen
Ben: glorp, unused 1
Cat: challenge Ben
Cat: frog, unused 0
# R7, a 4-letter noun. Ben: 2 + 4 = 6. Ann 4 - 3 = 1. Cat says a lone word: 4. Ann's
# challenge of ruin fails (no cost); ruin cannot be challenged again
@dice 4N
Ben: bell
Ben: ruin
Ann: tree, unused 3
Cat: sand
Ann: challenge Ben
Cat: challenge Ben
# R8, any 6-letter word. Cat: 2 + 6 = 8. Ann -4. Ben 4 - 1 = 3
@dice 6*
Cat: bell
Cat: planet
Ann: no word, unused four
Ben: rain, unused 1
# R9, a verb of 4 to 7 letters. Ann: 2 + 7 = 9. Ben 4 - 2 = 2. Cat 5 - 1 = 4
@dice *V
Ann: bell
Ann: running
Ben: sing unused 2
Cat: dance, unused 1
# R10: Ben rang with a letter still unused: an illegal bell, Ben -5, Ann and Cat +7
@dice 5*
Ben: bell
Ben: stone, unused 1
Ann: no word, unused 0
Cat: no word, unused 0
# R11, any 4-letter word. Cat: 2 + 4 = 6. Ann 4. Ben's sun is too short: -3
@dice 4*
Cat: bell
Cat: moon
Ann: zorp
Ben: sun, unused 0
# the game is over, but the last round's words can still be challenged: zorp now -4
Ben: challenge Ann
"""


def test_eleven_rounds_every_scoring_rule(play):
    result, lines = play(THREE_PLAYERS, "Ann,Ben,Cat", game="phlounder")
    assert result["finished"] is True
    p = by_name(result)
    # Ann: 1 + 4 + 8 + 7 + 7 + 9 + 1 - 4 + 9 + 7 + (4 - 8 after the challenge) = 45
    # Ben: 7 - 7 + 2 - 5 + 7 - 6 + 6 + 3 + 2 - 5 - 3 = 1
    # Cat: -2 + 6 - 4 + 7 - 5 + 4 + 4 + 8 + 4 + 7 + 6 = 35
    assert (p["Ann"]["total"], p["Ben"]["total"], p["Cat"]["total"]) == (45, 1, 35)
    assert result["winners"] == ["Ann"]
    ruin = p["Ann"]["words"][0]
    assert (ruin["word"], ruin["unused"], ruin["score"], ruin["counts"]) == ("ruin", 3, 1, True)
    assert [r["legal"] for r in result["round_scores"]] == [True, True, True, False, False, True, True, True, True,
                                                            False, True]
    assert lines[:3] == ["Phlounder for Ann, Ben and Cat: 11 rounds.", "Round 1 of 11: Ann, say roll when you're ready.",
                         "The dice say: a 5-letter noun. Go!"]
    assert "Bell! Ben, your word? Cat and Ann: your words and unused letters." in lines
    assert "Round 1: Ben rang with table: 2 plus 5 is 7. Cat no word, 2 unused: minus 2. Ann ruin 4, minus 3 unused is 1." in lines
    assert "Round 2: Cat rang with jump: 2 plus 4 is 6. Ann cats 4. Ben tables doesn't count, it is longer than the number die allows: minus 7." in lines
    assert "Round 3: Ann rang with tables: 2 plus 6 is 8. Ben ruin 4, minus 2 unused is 2. Cat cat doesn't count, it is too short: minus 4." in lines
    assert "Round 4: Ben's bell was illegal, Ben's happy: it is not a verb. Ben minus 5; Cat plus 7; Ann plus 7." in lines
    assert "End of round 4. Scores: Ann 20; Cat 7; Ben -3." in lines
    assert "The dice say: any word of 4 to 7 letters. Go!" in lines
    assert "Round 5: Cat rang with flurb: 2 plus 5 is 7. Ann plank 5, minus 1 unused is 4. Ben stone 5." in lines
    assert "The challenge succeeds: flurb is void, it is not in the dictionary." in lines
    assert "Round 5 again: Cat's bell was illegal, Cat's flurb: it is not in the dictionary. Cat minus 5; Ann plus 7; Ben plus 7." in lines
    assert "Round 6: Ann rang with kitchen: 2 plus 7 is 9. Ben glorp doesn't count, it is not in the dictionary: minus 6. Cat frog 4." in lines
    assert "It's in the dictionary: ruin stands. Ann's challenge fails." in lines
    assert "Ben's ruin has already stood a challenge." in lines
    assert "The dice say: a verb of 4 to 7 letters. Go!" in lines
    assert "Round 10: Ben's bell was illegal, Ben left letters unused. Ben minus 5; Cat plus 7; Ann plus 7." in lines
    assert "Game over. Final scores: Ann 53; Cat 35; Ben 1. Ann wins!" in lines
    assert "Round 11 again: Cat rang with moon: 2 plus 4 is 6. Ann zorp doesn't count, it is not in the dictionary: minus 4. Ben sun doesn't count, it is too short: minus 3." in lines
    assert lines[-1] == "Game over. Final scores: Ann 45; Cat 35; Ben 1. Ann wins!"


PARTNERS = """
# R1, a 5-letter noun: both of Ann's team make one. Ann and Cat 2 + 5 + 5 = 12; Ben and Dan 2 - 1 = 1
@dice 5N
Ann: bell
Ann: table
Cat: chair
Ben: lamp, unused 2
Dan: no word, unused 1
# R2, a 4-letter verb. Ben and Dan 2 + 4 + 4 = 10; Ann and Cat 1 + 0 = 1
@dice 4V
Ben: bell
Ben: jump
Dan: talk
Ann: ruin, unused 3
Cat: no word, unused 0
# R3, a 4-letter noun, but Cat's partner Ann has "very": an illegal bell, doubled:
# Ann and Cat -10, Ben and Dan +14
@dice 4N
Cat: bell
Cat: ruin
Ann: very
Ben: sand, unused 0
Dan: no word, unused 0
# R4: Dan's flurb is challenged after the round: illegal, doubled: Ben and Dan -10, Ann and Cat +14
@dice 5*
Dan: bell
Dan: flurb
Ben: stone
Ann: plank, unused 1
Cat: no word, unused 0
Ann: challenge Dan
"""


def test_partners_score_as_teams_with_doubled_bell_penalties(play, tmp_path):
    cfg = tmp_path / "short.toml"
    cfg.write_text("[phlounder]\nrounds = 4\n")
    result, lines = play(PARTNERS, "Ann,Ben,Cat,Dan", "--teams", "Ann+Cat,Ben+Dan", "--config", str(cfg),
                         game="phlounder")
    assert result["finished"] is True
    teams = {t["name"]: t["total"] for t in result["teams"]}
    # Ann and Cat: 12 + 1 - 10 + 14 = 17; Ben and Dan: 1 + 10 + 14 - 10 = 15
    assert teams == {"Ann and Cat": 17, "Ben and Dan": 15}
    assert by_name(result)["Cat"]["total"] == 17 and by_name(result)["Cat"]["team"] == "Ann and Cat"
    assert result["winners"] == ["Ann", "Cat"]
    assert "Teams: Ann and Cat; Ben and Dan." in lines
    assert "Bell! Ann, your word? Cat, yours too. Ben and Dan: your words and unused letters." in lines
    assert ("Round 1: Ann table 5. Cat chair 5. Ben lamp 4, minus 2 unused is 2. Dan no word, 1 unused: minus 1. "
            "2 for the bell. Teams: Ann and Cat plus 12; Ben and Dan plus 1.") in lines
    assert "Round 3: Cat's bell was illegal, Ann's very: it is not a noun. Ann and Cat minus 10; Ben and Dan plus 14." in lines
    assert "Round 4 again: Dan's bell was illegal, Dan's flurb: it is not in the dictionary. Ben and Dan minus 10; Ann and Cat plus 14." in lines
    assert lines[-1] == "Game over. Final scores: Ann and Cat 17; Ben and Dan 15. Ann and Cat win!"


def test_two_teams_of_three_triple_the_bell_penalty_and_bonus(play):
    script = """
    @dice 4N
    Ann: bell
    Ann: happy                # five letters on a 4: illegal, tripled
    Ben: ruin
    Cat: sand
    Dan: no word, unused 0
    Eve: no word, unused 0
    Fay: no word, unused 0
    """
    result, lines = play(script, "Ann,Ben,Cat,Dan,Eve,Fay", "--teams", "Ann+Ben+Cat,Dan+Eve+Fay", game="phlounder")
    assert ("Round 1: Ann's bell was illegal, Ann's happy: it is the wrong length. "
            "Ann, Ben and Cat minus 15; Dan, Eve and Fay plus 21.") in lines
    assert by_name(result)["Eve"]["total"] == 21 and by_name(result)["Ben"]["total"] == -15


@pytest.mark.slow
def test_teams_must_split_the_table_evenly():
    proc = voice_host("play", "--game", "phlounder", "--players", "Ann,Ben,Cat",
                      "--teams", "Ann+Ben", "--script", "/dev/null", "--no-voice")
    assert proc.returncode == 2
    assert "two or three teams of 2, or two teams of 3" in proc.stderr


def test_a_child_wins_four_on_the_childrens_letter_die(play):
    script = """
    @dice 5N                  # refused: with children the table gives three faces
    @dice 5N*
    Cat: bell
    Cat: happy                # any kind of word on the children's die: 4 + 5 = 9
    Ann: ruin, unused 0
    Ben: no word, unused 1
    """
    result, lines = play(script, "Ann,Ben,Cat", "--children", "Cat", game="phlounder")
    assert "Cat plays with the children's letter die." in lines
    assert "'5N' isn't a roll of these dice: give 3 faces, like '@dice 5N*'." in lines
    assert "The dice say: a 5-letter noun; for the children, any 5-letter word. Go!" in lines
    assert "Round 1: Cat rang with happy: 4 plus 5 is 9. Ann ruin 4. Ben no word, 1 unused: minus 1." in lines
    assert {p["name"]: p["total"] for p in result["players"]} == {"Ann": 4, "Ben": -1, "Cat": 9}


def test_the_host_rolls_seeded_dice_and_refusals_change_nothing(core):
    c = core(game="phlounder", players="Ann,Ben", start=None, board=None, seed=5)
    assert c(A.Bell, "Ben") == [E.Refused("not_rolled", {}, "Ben")]
    assert c(A.PlayWord, "Ann", "table") == [E.Refused("no_bell", {}, "Ann")]
    assert c.state.phase == "roll"
    any_verb = E.Target("*", "V", (4, 7))
    assert c(A.Roll, "Ben") == [E.Refused("not_your_roll", {"player": "Ben", "roller": "Ann"}, "Ben")]  # ruling 95
    assert c.state.phase == "roll" and c.state.round.target is None
    assert c(A.Roll, "Ann") == [E.DiceRolled(any_verb, None, "Ann")]
    again = core(game="phlounder", players="Ann,Ben", start=None, board=None, seed=5)
    assert again(A.Roll, "Ann") == [E.DiceRolled(any_verb, None, "Ann")]  # the same seed, the same roll
    assert c(A.Roll, "Ann") == [E.Refused("dice_rolled", {"target": any_verb}, "Ann")]
    assert c(A.Bell, "Ann") == [E.BellRung("Ann", (), ("Ben",))]
    assert c(A.PlayWord, "Ann", "ruin") == [E.ReportTaken("Ann", "ruin", 0)]
    mid = (c.game.result(), [r.reports.copy() for r in c.state.rounds], c.state.phase)
    assert c(A.PlayWord, "Ann", "ruin") == [E.Refused("already_reported", {"word": "ruin", "unused": 0}, "Ann")]
    assert c(A.Roll, "Ben") == [E.Refused("reports_missing", {"players": ("Ben",)}, "Ben")]
    assert c(A.Bell, "Ben") == [E.Refused("already_rang", {"player": "Ann"}, "Ben")]
    assert (c.game.result(), [r.reports.copy() for r in c.state.rounds], c.state.phase) == mid
    assert c.game.step(A.Query(c.t, "turn", "Ben")) == [E.PhlounderStatus(1, 11, "reports", any_verb, "Ann", ("Ben",))]


def test_refusals_are_said(table):
    t = table("Ann,Ben", game="phlounder", start=None, board=None, seed=5)
    assert t("Ben: bell\nAnn: table")[-2:] == [
        "Roll the dice first: say roll.", "Nobody has rung the bell yet: words come after the bell."]
    assert t("Ann: roll")[-1] == "Ann rolls: a verb of 4 to 7 letters. Go!"
    t("Ann: bell\nAnn: ruin")
    assert t("Ann: ruin")[-1] == "Ann, you already reported ruin. Say undo to change it."
    assert t("Ben: roll")[-1] == "First I need the words of Ben."
    assert t("Ben: ruin, unused lots")[-1] == "I didn't catch a number in 'lots'."
    assert t("Ben: turn") == ["Round 1 of 11: Ann rang; waiting for Ben."]


def test_undo_takes_back_a_report(table):
    t = table("Ann,Ben", game="phlounder", start=None, board=None)
    t("@dice 4N\nAnn: bell\nAnn: ruin")
    said = t("Ben: sand, unused 3\nBen: undo")
    assert said[-3] == "Undone: Ben: sand, unused 3."
    assert "Ben" not in t.state.round.reports and t.state.phase == "reports"
    assert t("Ben: sand, unused 1")[-3].startswith("Round 1: Ann rang with ruin: 2 plus 4 is 6.")


def test_parts_of_speech_count_plurals_and_verb_forms():
    assert {"NOUN", "VERB"} <= parts_of_speech("ruins")
    assert parts_of_speech("pruned") == {"VERB"}
    assert parts_of_speech("geese") == {"NOUN"}
    assert "NOUN" not in parts_of_speech("beautiful")
    assert parts_of_speech("oxen") == frozenset()  # unknown to the resource: no verdict


def test_an_illegal_bell_with_partners_names_the_word_that_failed_not_an_unreported_partner(table):
    t = table("Ann,Ben,Cat,Dan", game="phlounder", start=None, board=None,
              sections={"phlounder": {"teams": ["Ann+Ben", "Cat+Dan"]}})
    t("@dice *N\nBen: bell")
    said = t("Ben: quickly")
    assert said[-3] == ("Round 1: Ben's bell was illegal, Ben's quickly: it is not a noun. "
                        "Ann and Ben minus 10; Cat and Dan plus 14."), said


def test_words_marks_the_words_a_challenge_voided_and_the_bells_that_were_illegal(table):
    t = table("Ann,Ben,Cat", game="phlounder", start=None, board=None)
    t("@dice 5N\nBen: bell\nBen: table\nAnn: flurb, unused 1\nCat: no word, unused 0\nBen: challenge Ann")
    t("@dice 5N\nCat: bell\nCat: happy")
    assert t("Ann: words") == [
        "Words played: table by Ben, flurb by Ann (voided), happy by Cat (an illegal bell)."]


def test_the_dice_pass_on_every_round_and_whose_turn_names_who_rolls(table):
    """Ruling 95: the first player named rolls round 1; the dice pass on clockwise every
    round, with the host's dice or the table's (``@dice``); a roll out of turn changes nothing."""
    t = table("Ann,Ben,Cat", game="phlounder", start=None, board=None, seed=5)
    assert t("Cat: whose turn")[-2:] == ["Round 1 of 11: Ann, say roll when you're ready.",
                                         "Round 1 of 11: waiting for Ann to roll."]
    before = (t.game.result(), t.state.phase, t.state.rng.getstate())
    assert t("Ben: roll") == ["It's Ann's roll this round, Ben: the dice pass to the next player every round."]
    assert (t.game.result(), t.state.phase, t.state.rng.getstate()) == before
    assert t("Ann: roll") == ["Ann rolls: a verb of 4 to 7 letters. Go!"]
    said = t("Ann: bell\nAnn: jump\nBen: no word\nCat: no word")
    assert said[-1] == "Round 2 of 11: Ben, say roll when you're ready."
    assert t("Ann: roll") == ["It's Ben's roll this round, Ann: the dice pass to the next player every round."]
    assert t("Ann: whose turn") == ["Round 2 of 11: waiting for Ben to roll."]
    t("@dice 5N")  # the table's own dice: Ben's roll
    said = t("Cat: bell\nCat: table\nAnn: no word\nBen: no word")
    assert said[-1] == "Round 3 of 11: Cat, say roll when you're ready."
    assert t("Ben: roll")[-1] == "It's Cat's roll this round, Ben: the dice pass to the next player every round."
    t("Cat: roll\nCat: undo")  # undone: still Cat's roll
    assert t("Ben: whose turn") == ["Round 3 of 11: waiting for Cat to roll."]
    assert t.state.round.target is None
