"""The road game scorekeeper: a whole game from a script; its rules at the core's contract
(actions in, events out); its phrases."""

from __future__ import annotations

from support import by_name

from voice_host.games.road import RoadGame, RoadSettings
from voice_host.games.road import actions as A
from voice_host.games.road import events as E
from voice_host.host.phrases.road import parse_play

GAME = """
@start Ann
# round 1; a set of 26 tiles: 26 - 2 x 10 = 6 left in the bag
Ann: play fire for 7, fir for six, ire for 3 and re for 2 with 4 tiles   # the rules' FIRE: 18; bag 2
Ben: challenge                     # refused: every word is checked as it is played
Ben: play road for 5               # refused: the host counts the bag, so it needs the tiles
Ben: mulligan                      # the bag is not empty yet
# round 2
Ann: play road for 5, ad for 3 with 3 tiles   # 8: 26; the redraw empties the bag
Ben: mulligan                      # refused: no more mulligans
Ann: pass                          # refused: it's Ben's turn
Ben: play zebra for 16             # 16
# round 3
Ann: pass
Ben: play xqzt for 9               # refused: not a word
Ben: play zoo for twelve           # 28: the passes in a row start again
# round 4
Ann: pass
Ben: pass                          # everyone passed in a row: the game is over
"""


def test_a_counted_bag_mulligans_passes_and_the_end(play):
    result, lines = play(GAME, "Ann,Ben", "--set-size", "26", game="road")
    assert result["finished"] is True and result["winners"] == ["Ben"]
    p = by_name(result)
    assert p["Ann"]["total"] == 18 + 8 == 26
    assert p["Ben"]["total"] == 16 + 12 == 28
    assert [w["word"] for w in p["Ann"]["words"]] == ["fire", "fir", "ire", "re", "road", "ad"]
    assert (p["Ben"]["mulligans"], p["Ben"]["passes"], result["bag"]) == (1, 1, 0)
    assert lines[:3] == ["Ann starts.", "Road game for Ann and Ben. Each player draws 10 tiles. I'm counting the bag: 6 tiles left.",
                         "Round 1: Ann's turn."]
    assert "Ann plays fire 7, fir 6, ire 3 and re 2: 18 points, 18 in all. 2 tiles left in the bag." in lines
    assert "I check every word as it is played, so there is nothing to challenge." in lines
    assert "I'm counting the bag: say how many tiles you played too, like 'play fire for 7 with 4 tiles'." in lines
    assert "Ben takes a mulligan." in lines
    i = lines.index("Ann plays road 5 and ad 3: 8 points, 26 in all.")
    assert lines[i + 1:i + 4] == ["The bag is empty: no more mulligans.", "Round 2: Ben's turn.",
                                  "The bag is empty, so there are no more mulligans."]
    assert "It's Ben's turn." in lines
    assert "xqzt is refused: it is not in the dictionary." in lines
    assert lines[-5:] == ["Ann passes.", "Round 4: Ben's turn.", "Ben, everyone else has passed: if you pass too, the game ends.",
                          "Ben passes.", "Game over. Final scores: Ben 28; Ann 26. Ben wins!"]


def test_players_say_the_bag_is_empty_and_equal_scores_share(core):
    c = core(game="road", players="Ann,Ben", board=None)
    c(A.Mulligan, "Ann")
    c(A.RoadPlay, "Ben", (("quiz", 22),))
    assert c(A.BagEmpty, "Ann") == [E.BagEmptied("Ann")]
    before = c.game.result()
    assert c(A.Mulligan, "Ann") == [E.Refused("no_mulligan", {}, "Ann")]
    assert c(A.BagEmpty, "Ann") == [E.Refused("bag_already_empty", {}, "Ann")]
    assert c(A.PlayWord, "Ann", "fire") == [E.Refused("say_play_points", {"word": "fire"}, "Ann")]
    assert c(A.Challenge, "Ann") == [E.Refused("words_checked", {}, "Ann")]
    assert c(A.Pass, "Ben") == [E.Refused("not_your_turn", {"player": "Ann"}, "Ben")]
    assert c.game.result() == before
    assert c(A.RoadPlay, "Ann", (("jazz", 22),)) == [E.RoadPlayed("Ann", (("jazz", 22),), 22, 22),
                                                   E.TurnStarted("Ben", 2)]
    assert c(A.Pass, "Ben") == [E.Passed("Ben"), E.TurnStarted("Ann", 3), E.LastChance("Ann")]
    assert c(A.Pass, "Ann") == [E.Passed("Ann"), E.GameOver((E.Standing("Ann", 22), E.Standing("Ben", 22)),
                                                            ("Ann", "Ben"), "tie")]


def test_an_unreadable_play_is_refused_and_said(table):
    t = table("Ann,Ben", game="road", start="Ann", board=None)
    assert t("Ann: play fire") == [
        "I can't read 'play fire'. Say 'play', then each word and its points, like 'play fire for 7, fir for 6'."]
    assert t("Ann: fire") == ["Say 'play fire for' its points, with the other words your tiles made."]
    assert t("Ann: play fire for 7 with some tiles") == [
        "I can't read 'play fire for 7 with some tiles'. Say 'play', then each word and its points, like "
        "'play fire for 7, fir for 6'."]


def test_the_start_draw_lowest_letter_and_tied_players_draw_again(words):
    from voice_host.games.base import Setup

    settings = RoadSettings(letters="??AAAAAAAAABBCCDDDDEEEEEEEEEEEE")
    for seed in range(200):
        game = RoadGame(Setup(("Ann", "Ben", "Cat", "Dan"), seed), settings, words)
        start, draws = game._draw_for_start()
        if len(draws) > 1:
            break
    first, second = draws[0], draws[1]
    low = min(first, key=lambda d: "?" if d[1] == "blank" else d[1])[1]
    assert [p for p, x in first if x == low] == [p for p, _ in second]  # only the tied players draw again
    assert start in [p for p, _ in draws[-1]]


def test_reading_a_play():
    assert parse_play("fire for 7 fir for six and re for twenty one") == (("fire", 7), ("fir", 6), ("re", 21))
    assert parse_play("fire") is None and parse_play("fire for") is None and parse_play("big fire for 3") is None
