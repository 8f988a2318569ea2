"""Full Prolix Classic games from scripts, through the real CLI, totals worked by hand.

Both games are played in table mode on one board, set again after every move
(``@board``), so that every word's value can be checked at a glance:

    4-point column: W (blue, +1) = 5, B = 4
    3-point column: J (red, +2)  = 5, S = 3
    2-point column: L = 2, C = 2
    1-point column: D = 1, G = 1
"""

from __future__ import annotations

from support import by_name

B = "@board W B J S L C D G"

THREE_PLAYERS = f"""
@start Ann
{B}
# ---- round 1
Ann: jewelers             # j5 w5 l2 s3 = 15, the rulebook's example
{B}
Cat: jawbones             # interrupts Ben: j5 w5 b4 s3 = 17, -2 = 15
{B}
Ben: cowbell              # Ben goes again: c2 w5 b4 l2 = 13
{B}
Cat: jumbled              # j5 b4 l2 d1 = 12
{B}
# ---- round 2
Ben: timer                # Ben flips the timer on Ann
Ben: jigsaw               # refused: whoever flipped the timer may not interrupt
Cat: timer                # refused: the timer is already running
@wait 46                  # time! the timer interrupts Ann (first interrupt)
{B}
Cat: jigsaw               # second interrupt: j5 g1 s3 w5 = 14, -2 = 12; Ann scores zero
{B}
Ben: wildcards            # tie: active Ben w5 l2 d1 c2 s3 = 13 ...
[+0] Ann: bewildering     # ... against Ann b4 w5 l2 d1 g1 = 13: the active player wins ties
{B}
Ann: swindle              # Cat's turn; two interrupters at once, equal best:
[+0] Ben: lowball         # both score: swindle s3 w5 d1 l2 = 11 -2 = 9; lowball l2 w5 b4 = 11 -2 = 9
{B}
Cat: jackals              # Cat again: j5 c2 l2 s3 = 12
{B}
# ---- round 3
Ann: jibblewock           # not a word (18) ...
Ben: challenge            # ... the challenge succeeds: void, Ann goes on
Ann: jaywalks             # j5 w5 l2 s3 = 15
Cat: challenge Ann        # fails: jaywalks is a word; Cat loses 2 at the end
{B}
Ben: jeweler              # refused, a cheapie: the plural of Ann's jewelers changed
Ben: jobs                 # j5 b4 s3 = 12
{B}
Ann: gawks                # Cat's turn; two interrupters at once: gawks g1 w5 s3 = 9
[+0] Ben: globs           # globs g1 l2 b4 s3 = 10 is best: only Ben scores, 10 - 2 = 8
{B}
Cat: scrabble             # Cat again: s3 c2 b4 l2 = 11
{B}
# ---- round 4
Ann: wedge                # w5 d1 g1 = 7
{B}
Ben: bulbs                # b4 l2 s3 = 9
{B}
Cat: wisdom               # w5 s3 d1 = 9
{B}
# ---- round 5
Ann: jabbed               # j5 b4 d1 = 10
{B}
Ben: club                 # c2 l2 b4 = 8
{B}
Cat: bold                 # b4 l2 d1 = 7
{B}
# ---- round 6
Ann: sledge               # s3 l2 d1 g1 = 7
{B}
Ben: gloves               # g1 l2 s3 = 6
{B}
Cat: brag                 # b4 g1 = 5: the last word of the game
"""


def test_three_player_game(play):
    result, lines = play(THREE_PLAYERS)
    assert result["finished"] is True
    p = by_name(result)
    # Ann: regular 15, 0, 15, 7, 10, 7; one interrupt (9) crosses out one regular score, the zero.
    assert [(w["word"], w["score"], w["counts"]) for w in p["Ann"]["words"] if w["kind"] in ("regular", "zero")] == [
        ("jewelers", 15, True), (None, 0, False), ("jaywalks", 15, True), ("wedge", 7, True),
        ("jabbed", 10, True), ("sledge", 7, True)]
    assert [(w["word"], w["value"], w["score"]) for w in p["Ann"]["words"] if w["kind"] == "interrupt"] == [
        ("swindle", 11, 9)]
    assert [w["word"] for w in p["Ann"]["words"] if w["kind"] == "tiebreak"] == ["bewildering", "gawks"]
    assert p["Ann"]["total"] == 15 + 15 + 7 + 10 + 7 + 9 == 63
    # Ben: regular 13, 13, 12, 9, 8, 6; interrupts 9 and 8 cross out the 6 and the 8.
    assert p["Ben"]["total"] == 13 + 13 + 12 + 9 + 9 + 8 == 64
    assert p["Ben"]["failed_challenges"] == 0
    # Cat: regular 12, 12, 11, 9, 7, 5; interrupts 15 and 12 cross out 5 and 7; one failed challenge.
    assert p["Cat"]["total"] == 12 + 12 + 11 + 9 + 15 + 12 - 2 == 69
    assert p["Cat"]["failed_challenges"] == 1
    assert result["winners"] == ["Cat"]
    # what the table heard
    assert "Ann scores 15 points for jewelers." in lines
    assert "Cat interrupts Ben with jawbones: 17, minus 2, scores 15." in lines
    assert "Ben, you flipped the timer, so you can't interrupt." in lines
    assert "Time! The timer interrupts Ann." in lines
    assert "Ann was interrupted twice and scores zero for round 2." in lines
    assert "Tiebreaker: Ben wildcards 13; Ann bewildering 13. Ben wins it." in lines
    assert "Tiebreaker: Ann swindle 11; Ben lowball 11. Ann and Ben win it." in lines
    assert "Tiebreaker: Ann gawks 9; Ben globs 10. Ben wins it." in lines
    assert any(line.startswith("The challenge succeeds: jibblewock is void") for line in lines)
    assert any(line.startswith("It's in the dictionary: jaywalks stands.") for line in lines)
    assert "No cheapies: jeweler can't be played, Ann already played jewelers and it only changes the plural." in lines
    assert lines[-1] == "Game over. Final scores: Cat 69; Ben 64; Ann 63. Cat wins!"


FOUR_PLAYERS = f"""
@start Ben
{B}
# ---- round 1 (order Ben, Cat, Dan, Ann; interrupts cost 3)
Dan: jawbones             # Dan's interrupt 1: 17 - 3 = 14
{B}
Ben: cowbell              # 13
{B}
Dan: jigsaw               # Cat's turn, Dan's interrupt 2: 14 - 3 = 11
{B}
Dan: dig                  # Dan's interrupt 3: d1 g1 = 2 - 3 = -1; Cat's second: Cat scores zero
[+0] Dan: yes             # a low interrupt is confirmed first (the rulebook's tip)
{B}
Dan: jumbled              # Dan's own turn: 12
{B}
Dan: web                  # Ann's turn, Dan's interrupt 4: w5 b4 = 9 - 3 = 6
{B}
Ann: jackals              # 12
{B}
# ---- round 2
Dan: cab                  # Dan's interrupt 5: c2 b4 = 6 - 3 = 3
{B}
Ben: jobs                 # 12
{B}
Dan: owl                  # Cat's turn, Dan's interrupt 6: w5 l2 = 7 - 3 = 4; Dan is out
{B}
Cat: scrabble             # 11
{B}
Dan: globs                # Dan's turn is skipped; and Dan may no longer interrupt: refused
Ann: globs                # 10
{B}
# ---- round 3
Cat: jaywalks             # Ben's turn, Cat's interrupt 1: 15 - 3 = 12
{B}
Ben: wedge                # 7
{B}
Cat: bulbs                # 9
{B}
Ann: wisdom               # 9
{B}
# ---- round 4
Ann: bewitched            # Ben's turn, Ann's interrupt 1: b4 w5 c2 d1 = 12 - 3 = 9
{B}
Ben: jabbed               # 10
{B}
Cat: club                 # 8
{B}
Ann: bold                 # 7
{B}
# ---- round 5
Cat: cobweb               # Ben's turn, Cat's interrupt 2: c2 b4 w5 = 11 - 3 = 8
{B}
Ben: sledge               # 7
{B}
Cat: gloves               # 6
{B}
Ann: blond                # b4 l2 d1 = 7: the last word of the game
"""


def test_four_player_game(play):
    result, lines = play(FOUR_PLAYERS, "Ann,Ben,Cat,Dan")
    assert result["finished"] is True
    p = by_name(result)
    # Ben never interrupted: all five regular words count.
    assert p["Ben"]["total"] == 13 + 12 + 7 + 10 + 7 == 49
    # Cat interrupted twice: with 4 players one fewer is crossed out, so one: the zero.
    cat_regular = [(w["word"], w["score"], w["counts"]) for w in p["Cat"]["words"] if w["kind"] in ("regular", "zero")]
    assert cat_regular == [(None, 0, False), ("scrabble", 11, True), ("bulbs", 9, True), ("club", 8, True),
                           ("gloves", 6, True)]
    assert p["Cat"]["total"] == 11 + 9 + 8 + 6 + 12 + 8 == 54
    # Ann interrupted once: nothing crossed out, six words score.
    assert p["Ann"]["total"] == 12 + 10 + 9 + 7 + 7 + 9 == 54
    # Dan used all six interrupts: out of the game, scores only his interrupts.
    assert p["Dan"]["out"] is True
    assert [w["score"] for w in p["Dan"]["words"] if w["kind"] == "interrupt"] == [14, 11, -1, 6, 3, 4]
    assert p["Dan"]["total"] == 14 + 11 - 1 + 6 + 3 + 4 == 37
    # Ann and Cat tie on 54; the best single word decides, interrupts counted before their
    # penalty: Cat's jaywalks 15 beats Ann's 12 (after the penalty it would have been 12 too).
    assert result["winners"] == ["Cat"]
    assert "Dan has used every interrupt and is out of the game." in lines
    assert "Dan is out of the game, having used every interrupt." in lines
    assert "Cat was interrupted twice and scores zero for round 1." in lines
    assert "Dan interrupts Cat with dig: 2, minus 3, scores -1." in lines
    assert lines[-1] == ("Game over. Final scores: Cat 54; Ann 54; Ben 49; Dan 37. "
                         "Cat wins the tie on the best single word.")
