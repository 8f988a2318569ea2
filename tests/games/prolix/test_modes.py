"""Prolix for one, for two, and Redux: scripted games with hand-worked results.

Every game here is played in table mode on the jewelers board, set again after every
draw, so each word's value can be read off:

    W+1 (5)  B (4) | J+2 (5)  S (3) | L (2)  C (2) | D (1)  G (1)
"""

from __future__ import annotations

from support import by_name

from voice_host.games.prolix import actions as A
from voice_host.games.prolix import events as E

B = "@board W B J S L C D G"
BOARD = tuple("W B J S L C D G".split())


# ---------------------------------------------------------------------- solo
SOLO_LOST = f"""
{B}
Ann: jigsaw               # scratch: 14
Ann: jewelers             # scratch: 15
Ann: my word is jewelers  # commits 15: target 15 reached
{B}
Ann: jigsaw               # scratch 14 (jigsaw was never committed, so it is free)
Ann: jawbones             # scratch 17
@wait 46                  # time runs out: the last scratch word, jawbones, counts: 32, target 32
{B}
Ann: jeweler              # refused: a cheapie of jewelers
Ann: my word is cowbell   # 13: 45, short of the target of 50; the game is lost
Ann: my word is bulbs     # refused: the game is over
"""


def test_solo_scratch_words_timeout_fallback_and_a_missed_target(play):
    result, lines = play(SOLO_LOST, "Ann", game="prolix-solo")
    assert result["finished"] is True and result["winners"] == []
    ann = by_name(result)["Ann"]
    assert [(w["word"], w["score"], w["round"]) for w in ann["words"]] == [
        ("jewelers", 15, 1), ("jawbones", 17, 2), ("cowbell", 13, 3)]
    assert ann["total"] == 45
    assert lines[:5] == ["Prolix Solo for Ann: 6 rounds.",
                         "Board. 4 points: W+1, B; 3 points: J+2, S; 2 points: L, C; 1 point: D, G.",
                         "Round 1: Ann's turn.",
                         "Round 1: reach 15 to stay alive; you have 0.",
                         "The timer is running: 45 seconds."]  # the table's board said once
    assert "Scratch: jewelers would score 15." in lines
    assert "15 in all: the target of 15 is reached." in lines
    assert "Ann, draw 4 tiles and tell me the letters." in lines  # the board moves two columns
    i = lines.index("Scratch: jawbones would score 17.")
    assert lines[i + 1:i + 6] == ["30 seconds left.", "10 seconds left.", "5 seconds left.", "Time!",
                                  "Ann scores 17 points for jawbones."]
    assert "32 in all: the target of 32 is reached." in lines
    assert any(x.startswith("No cheapies: jeweler can't be played") for x in lines)
    assert "45 in all: short of the target of 50. The game is lost." in lines
    assert any(x.startswith("The best word on that board was") and x.endswith("for 19.") for x in lines)
    assert lines[-2:] == ["Game over. Ann finishes with 45 points.",
                          "The game is over: Ann finished with 45."]


def test_solo_six_rounds_won_with_a_tables_own_targets(play, tmp_path):
    cfg = tmp_path / "easy.toml"
    cfg.write_text("[prolix]\nsolo_targets = [10, 20, 30, 40, 50, 60]\n")
    words = ["jewelers", "jigsaw", "cowbell", "jumbled", "jawbones", "wildcards"]  # 15 14 13 12 17 13
    script = "\n".join(f"{B}\nAnn: my word is {w}" for w in words)
    result, lines = play(script, "Ann", "--config", str(cfg), game="prolix-solo")
    assert result["finished"] is True and result["winners"] == ["Ann"]
    assert by_name(result)["Ann"]["total"] == 15 + 14 + 13 + 12 + 17 + 13 == 84
    assert lines[-1] == "Game over. Ann finishes with 84 points: a win!"


# ---------------------------------------------------------------------- duel
DUEL = f"""
{B}
# round 1: level, no handicap
Ann: jewelers             # first word: Ann flips the timer; 15
Ben: cowbell              # 13: Ann takes the mark (1-0)
{B}
# round 2: Ann leads 1-0, handicap 1
Ben: jumbled              # Ben flips; 12
Ben: jawbones             # refused: Ben's word this round is final
Ann: jigsaw               # 14 - 1 = 13 > 12: Ann (2-0)
{B}
# round 3: handicap 2
Ann: wildcards            # Ann flips; 13 - 2 = 11
Ben: jackals              # 12: the handicap gives Ben the mark although 13 > 12 (2-1)
{B}
# round 4: handicap 1
Ann: bewildering          # Ann flips; 13 - 1 = 12
Ben: jobs                 # 12: a tie goes to the flipper, Ann (3-1)
{B}
# round 5: handicap 2
Ben: jawbones             # Ben flips; 17
Ann: scrabble             # 11 - 2 = 9: Ben (3-2)
{B}
# round 6: handicap 1
Ann: swindle              # Ann flips; 11 - 1 = 10
Ben: jibblewock           # 18: Ben (3-3) ...
Ann: challenge            # ... but it is no word: the challenge winner, Ann, takes the mark (4-2)
{B}
# round 7: handicap 2
Ann: globs                # Ann flips; 10 - 2 = 8
@wait 46                  # Ben has no word: 0. Ann's fifth mark wins
"""


def test_duel_handicaps_ties_challenges_and_five_marks(play):
    result, lines = play(DUEL, "Ann,Ben", game="prolix-duel")
    assert result["finished"] is True and result["winners"] == ["Ann"]
    p = by_name(result)
    assert (p["Ann"]["total"], p["Ben"]["total"]) == (5, 2)
    assert [w["mark"] for w in p["Ann"]["words"]] == [True, True, False, True, False, True, True]
    assert "Prolix Duel for Ann and Ben: first to 5 marks wins." in lines
    assert "Ann jewelers 15; Ben cowbell 13. Ann takes the mark." in lines
    assert "Round 2. Ann leads and carries a handicap of 1." in lines
    assert "Ben, your word this round is jumbled; it can't be changed." in lines
    assert "Ann wildcards 13, minus 2 is 11; Ben jackals 12. Ben takes the mark." in lines
    assert "Ann bewildering 13, minus 1 is 12; Ben jobs 12. Ann takes the mark, having flipped the timer on a tie." in lines
    assert "The challenge succeeds: jibblewock is void, it is not in the dictionary." in lines
    assert "The mark goes to Ann. Marks: Ann 4, Ben 2." in lines
    assert "Round 7. Ann leads and carries a handicap of 2." in lines
    assert "Ann globs 10, minus 2 is 8; Ben no word. Ann takes the mark." in lines
    assert lines[-1] == "Game over. Final scores: Ann 5; Ben 2. Ann wins!"


def test_duel_failed_challenge_gives_the_mark_to_the_challenged(core):
    c = core("prolix-duel", "Ann,Ben", start=None)
    c(A.PlayWord, "Ann", "jewelers")
    assert c(A.PlayWord, "Ben", "cowbell")[1:3] == [  # Ann's mark
        E.DuelScored(1, (("Ann", "jewelers", 15, 15), ("Ben", "cowbell", 13, 13)), "Ann"),
        E.MarkAwarded("Ann", (("Ann", 1), ("Ben", 0)))]
    assert c(A.Challenge, "Ann") == [
        E.ChallengeRaised("Ann", "Ben", "cowbell"), E.ChallengeResolved("Ann", "Ben", "cowbell", True),
        E.MarkAwarded("Ben", (("Ann", 0), ("Ben", 1)), "challenge")]


# ---------------------------------------------------------------------- Redux
def test_redux_bonuses_and_penalties(core):
    c = core("prolix-redux", "Ann,Ben,Cat")
    word = lambda player, w: c(A.PlayWord, player, w)  # noqa: E731
    scored = lambda events: [e for e in events if isinstance(e, E.ReduxScored)]  # noqa: E731
    # turn 1, Ann active: everyone has a word, so the turn ends at once
    word("Ann", "jewelers")  # 15
    word("Ben", "jawbones")  # 17 > 15: +2
    assert scored(word("Cat", "jigsaw")) == [  # 14 <= 15: -1
        E.ReduxScored(1, "Ann", (("Ann", "jewelers", 15, 0), ("Ben", "jawbones", 17, 2), ("Cat", "jigsaw", 14, -1)))]
    # turn 2, Ben active; Cat passes: no penalty for not interjecting
    c(A.SetBoard, BOARD)
    word("Ben", "cowbell")  # 13
    word("Ann", "wildcards")  # 13, equal: -1
    assert scored(c.wait(31)) == [E.ReduxScored(2, "Ben", (("Ben", "cowbell", 13, 0), ("Ann", "wildcards", 13, -1)))]
    # turn 3, Cat active: the first word starts the 30 s timer; Cat has no word: -1, every interjector +2
    c(A.SetBoard, BOARD)
    word("Ann", "jackals")  # 12
    word("Ben", "swindle")  # 11
    assert scored(c.wait(31)) == [
        E.ReduxScored(3, "Cat", (("Cat", None, 0, -1), ("Ann", "jackals", 12, 2), ("Ben", "swindle", 11, 2)))]
    # turn 4, Ann active: jibblewock is no word, found out by a challenge after the turn
    c(A.SetBoard, BOARD)
    word("Ann", "jibblewock")  # 18 for now
    word("Ben", "scrabble")  # 11, -1 for now
    word("Cat", "jobs")  # 12, -1 for now
    assert scored(c(A.Challenge, "Ben", "Ann")) == [  # invalid: 0 and -2 for Ann; Ben and Cat now +2
        E.ReduxScored(4, "Ann", (("Ann", "jibblewock", 0, -2), ("Ben", "scrabble", 11, 2), ("Cat", "jobs", 12, 2)))]
    # turn 5, Ben active: globs is a word, so Ann's failed challenge costs 2
    c(A.SetBoard, BOARD)
    word("Ben", "bulbs")  # 9
    word("Ann", "wisdom")  # 9: -1
    word("Cat", "globs")  # 10: +2
    assert c(A.Challenge, "Ann", "Cat")[:2] == [
        E.ChallengeRaised("Ann", "Cat", "globs"), E.ChallengeResolved("Ann", "Cat", "globs", True, penalty=2)]
    c(A.SetBoard, BOARD)
    # Ann: words 15 + 13 + 12 + 0 + 9 = 49; -1 +2 -2 -1, and -2 for the failed challenge
    assert c.game.totals("Ann")[0] == 49 - 1 + 2 - 2 - 1 - 2 == 45
    # Ben: 17 + 13 + 11 + 11 + 9 = 61; +2 +2 +2
    assert c.game.totals("Ben")[0] == 61 + 6 == 67
    # Cat: 14 + 12 + 10 = 36; -1 (turn 1) -1 (no word as active) +2 +2
    assert c.game.totals("Cat")[0] == 36 + 2 == 38
    assert c.state.active == "Cat" and c.state.round == 6  # the turn passes on clockwise every time


REDUX_TWO = "@start Ann\n" + "\n".join(
    f"{B}\n{first}: {w1}\n{second}: {w2}"
    for first, second, w1, w2 in [
        ("Ann", "Ben", "jewelers", "jawbones"),   # 15 / 17: Ben +2
        ("Ben", "Ann", "jigsaw", "cowbell"),      # 14 / 13: Ann -1
        ("Ann", "Ben", "jumbled", "wildcards"),   # 12 / 13: Ben +2
        ("Ben", "Ann", "jackals", "swindle"),     # 12 / 11: Ann -1
        ("Ann", "Ben", "lowball", "scrabble"),    # 11 / 11: Ben -1
        ("Ben", "Ann", "jobs", "globs"),          # 12 / 10: Ann -1
        ("Ann", "Ben", "wedge", "bulbs"),         # 7 / 9: Ben +2
        ("Ben", "Ann", "wisdom", "jabbed"),       # 9 / 10: Ann +2
        ("Ann", "Ben", "club", "bold"),           # 8 / 7: Ben -1
        ("Ben", "Ann", "sledge", "gloves"),       # 7 / 6: Ann -1
        ("Ann", "Ben", "brag", "blond"),          # 5 / 7: Ben +2
        ("Ben", "Ann", "cobweb", "web"),          # 11 / 9: Ann -1
    ])


def test_redux_two_players_twelve_turns_best_six(play):
    result, lines = play(REDUX_TWO, "Ann,Ben", game="prolix-redux")
    assert result["finished"] is True
    p = by_name(result)
    # Ann: 15 13 12 11 11 10 10 9 8 7 6 5 -> best six 15+13+12+11+11+10 = 72; -1 -1 -1 +2 -1 -1
    assert p["Ann"]["total"] == 72 - 3 == 69
    assert sum(w["counts"] for w in p["Ann"]["words"]) == 6
    # Ben: 17 14 13 12 12 11 11 9 9 7 7 7 -> best six 17+14+13+12+12+11 = 79; +2 +2 -1 +2 -1 +2
    assert p["Ben"]["total"] == 79 + 6 == 85
    assert (p["Ben"]["bonuses"], p["Ben"]["penalties"]) == (8, 2)
    assert result["winners"] == ["Ben"]
    assert lines.count("Ann, draw 4 tiles and tell me the letters.") == 6  # two players: discard and draw four
    assert "Prolix Redux for Ann and Ben: 12 rounds." in lines
    assert lines[-1] == "Game over. Final scores: Ben 85; Ann 69. Ben wins!"


def test_redux_an_interjector_who_passes_plays_no_word_and_loses_nothing(table):
    t = table(game="prolix-redux")
    said = t("Ann: jewelers\nBen: pass")
    assert said[-1] == "Ben passes."
    assert "pass" not in str(t.game.result())
    said = t("Cat: no word")  # everyone has a word or has passed: the turn is scored at once
    assert any(line == "Round 1 scores: Ann jewelers 15." for line in said), said
    p = by_name(t.game.result())
    assert (p["Ben"]["total"], p["Ben"]["words"], p["Cat"]["total"]) == (0, [], 0)


def test_redux_an_active_player_who_passes_has_no_word_and_a_minus_one(table):
    t = table(game="prolix-redux")
    assert t("Ann: nothing")[-1] == "Ann passes: no word this turn, minus 1."
    said = t("Ben: jawbones\nCat: pass")
    assert any(line.startswith("Round 1 scores: Ann no word, minus 1;") for line in said), said
    assert by_name(t.game.result())["Ann"]["total"] == -1


def test_redux_help_says_how_to_pass(table):
    t = table(game="prolix-redux")
    assert "'pass'" in t("Ben: help")[-1]


def test_redux_the_word_pass_is_played_with_play(table):
    t = table(game="prolix-redux")
    t("Ann: jewelers\nBen: play pass")
    assert [w["word"] for w in by_name(t.game.result())["Ben"]["words"]] == ["pass"]


def test_solo_never_names_an_offensive_best_word(play):
    for letters, vulgar in (("F C K N G S H T", "motherfucking"), ("B L W J B S D T", "blowjobs")):
        _, lines = play("Ann: honks\n@wait 46\n", "Ann", "--board", letters, game="prolix-solo")
        [best] = [line for line in lines if line.startswith("The best word on that board was")]
        assert vulgar not in best, best
