"""Prolix Classic rules, one at a time, on the jewelers board:

    W+1 (5)  B (4) | J+2 (5)  S (3) | L (2)  C (2) | D (1)  G (1)
"""

from __future__ import annotations

import copy

from voice_host import config
from voice_host.games.actions import Begin
from voice_host.games.base import Setup
from voice_host.games.prolix.classic import Entry, ProlixClassic, Sheet

B = "@board W B J S L C D G"


def snapshot(game):
    """Everything observable about a game but the clock, to show that a refusal changed nothing."""
    s = game.state
    return (copy.deepcopy(game.result()), s.board, s.phase, s.pos, s.round, s.interrupts,
            copy.deepcopy(s.used), copy.deepcopy(s.timer), s.bag.rng.getstate(), len(s.bag.tiles))


def test_a_word_scores_and_play_passes_on(table):
    t = table()
    assert t("Ann: jewelers") == ["Ann scores 15 points for jewelers.", "Ann, draw 2 tiles and tell me the letters."]
    said = t("@draw M N")
    assert said[0] == "Ann draws M and N."
    assert said[1] == "Board. 4 points: M, N; 3 points: W+1, B; 2 points: J+2, S; 1 point: L, C."
    assert said[2] == "Round 1: Ben's turn."
    assert t.state.active == "Ben"


def test_drawer_after_first_interrupt_is_right_of_the_active_player(table):
    t = table()
    t(f"Ann: jewelers\n{B}")  # Ben's turn now
    said = t("Cat: jigsaw")
    assert said == ["Cat interrupts Ben with jigsaw: 14, minus 2, scores 12.",
                    "Ann, draw 2 tiles and tell me the letters."]  # Ann sits to Ben's right
    said = t("@draw M N")
    assert said[-1] == "Ben, go again."


def test_interrupt_penalty_is_3_with_four_players(table):
    t = table("Ann,Ben,Cat,Dan")
    assert t("Dan: jewelers")[0] == "Dan interrupts Ann with jewelers: 15, minus 3, scores 12."


def test_no_interrupting_before_the_tiles_are_drawn(table):
    t = table()
    t("Ann: jewelers")  # waiting for Ann to draw
    before = snapshot(t.game)
    assert t("Ben: jigsaw") == ["Wait until Ann has drawn the new tiles."]
    assert t("Cat: timer") == ["Wait until Ann has drawn the new tiles."]
    assert snapshot(t.game) == before


def test_start_player_draws_lowest_letter_and_redraws_ties(words):
    cfg = config.load()
    redraw_seen = False
    for seed in range(40):
        game = ProlixClassic.create(Setup(("Ann", "Ben", "Cat", "Dan", "Eve"), seed), cfg, words)
        events = game.step(Begin(0))
        draws = events[1]
        last = draws.draws[-1]
        lowest = min(letter for _, letter in last)
        assert [p for p, letter in last if letter == lowest] == [draws.start]
        for earlier, later in zip(draws.draws, draws.draws[1:]):
            low = min(letter for _, letter in earlier)
            assert [p for p, _ in later] == [p for p, letter in earlier if letter == low]  # only the tied redraw
            redraw_seen = True
        assert game.state.active == draws.start
        assert len(game.state.bag.tiles) == 77 - 8  # start draws went back; eight tiles on the board
    assert redraw_seen


def test_refusals_change_nothing_and_say_why(table):
    t = table()
    t(f"Ann: jewelers\n{B}\nBen: jigsaw\n{B}")  # Cat's turn; jewelers and jigsaw used
    before = snapshot(t.game)
    cases = {
        "Zed: jumbled": "I don't know who Zed is; the players are Ann, Ben and Cat.",
        "just some words": "I can't read 'just some words'. Write a line as 'Name: word' or '@directive'.",
        "Ben: well-being": "well-being can't be played: words with apostrophes or hyphens are not allowed.",
        "Ben: don't": "don't can't be played: words with apostrophes or hyphens are not allowed.",
        "Ben: what a lovely day": "I didn't catch a word in 'what a lovely day'. Say just the word, or 'play' and the word.",
        "Ben: jewelers": "No cheapies: Ann already played jewelers.",
        "Cat: jigsaws": "No cheapies: jigsaws can't be played, Ben already played jigsaw and it only changes the plural.",
        "Cat: timer": "The active player can't flip the timer.",
        "Cat: challenge Cat": "You can't challenge your own word.",
        "Ann: challenge Ann": "You can't challenge your own word.",
        "Cat: challenge Ann": "Ann has no word that can be challenged now.",
        "@draw B C": "No tiles are due to be drawn right now.",
        "@start Ben": "It's too late to set the start player; the game has started.",
        "@wait soon": "'@wait soon' needs a number of seconds, like '@wait 46'.",
        "@shuffle": "I don't know the directive '@shuffle'.",
        "@board W K Y S L C D G": ("That would put 3 rare tiles on the board (W, K and Y); the limit is 2. "
                                   "Set one aside and draw again."),
    }
    for line, sentence in cases.items():
        assert t(line) == [sentence], line
        assert snapshot(t.game) == before, line


def test_cheapie_names_the_earlier_word_and_rule(table):
    t = table()
    t(f"Ann: begrudging\n{B}")
    assert t("Ben: begrudged") == [
        "No cheapies: begrudged can't be played, Ann already played begrudging and it only changes the tense "
        "(begrudge), then adds or removes -ing (begrudging)."]
    t(f"Ben: jubilantly\n{B}")
    assert t("Cat: jubilant") == [
        "No cheapies: jubilant can't be played, Ben already played jubilantly and it only adds or removes -ly."]
    assert t("Cat: jumper")[0] == "Cat scores 5 points for jumper."  # jumper/jump are different words


def test_timer_rules(table):
    t = table()
    assert t("Ben: timer") == ["Ben flips the timer: 45 seconds."]
    assert t("Cat: jigsaw")[0] == "Cat interrupts Ann with jigsaw: 14, minus 2, scores 12."
    t(B)  # Ann goes again; the timer went to the middle, still running
    said = t("Ben: timer")
    assert said[0].startswith("The timer is still running out in the middle;")
    t("@wait 45")  # runs out in the middle: no effect on Ann
    assert t.state.active == "Ann" and t.state.interrupts == 1
    assert t("Cat: timer") == ["Cat flips the timer: 45 seconds."]
    said = t("@wait 45")
    assert said[:2] == ["Time! The timer interrupts Ann.", "Ann was interrupted twice and scores zero for round 1."]
    assert [(e.word, e.score) for e in t.state.sheets["Ann"].regular] == [(None, 0)]


def test_a_word_said_before_the_sand_runs_out_counts(table):
    t = table()
    t("Ben: timer")
    said = t("[+43.8] Ann: jewelers\n[+1.4] Cat: whose turn")  # the window closes after the sand ran out
    assert said[0] == "Ann scores 15 points for jewelers."
    assert not any(s.startswith("Time!") for s in said)


def test_successful_challenge_of_an_interrupt_lets_the_interrupter_go_again(table):
    t = table()
    t("Ben: jibblewock")  # an interrupt of Ann, 18 - 2
    said = t("Cat: challenge")
    assert said[:2] == ["Cat challenges Ben's jibblewock.",
                        "The challenge succeeds: jibblewock is void, it is not in the dictionary."]
    assert t.total("Ben") == 0 and t.state.interrupts == 0 and t.state.active == "Ann"
    assert t("Ben: jibblewock") == ["jibblewock lost a challenge this game and can't be played."]
    assert t("Ben: jawbones")[0] == "Ben interrupts Ann with jawbones: 17, minus 2, scores 15."


def test_challenge_voids_one_tied_word_and_the_tie_is_compared_again(table):
    t = table()
    said = t("Ann: jeweler\n[+0] Ben: jibblewock")
    assert said[0] == "Tiebreaker: Ann jeweler 12; Ben jibblewock 18. Ben wins it."
    said = t("Ann: challenge")
    assert "The challenge succeeds: jibblewock is void, it is not in the dictionary." in said
    assert "Ann scores 12 points for jeweler." in said
    assert t.total("Ann") == 12 and t.total("Ben") == 0


def test_a_word_stands_only_one_challenge(table):
    t = table()
    t("Ann: jewelers")
    t("Ben: challenge")
    assert t("Cat: challenge") == ["Ann's jewelers has already stood a challenge."]
    assert t.state.sheets["Ben"].failed_challenges == 1
    assert t.state.sheets["Cat"].failed_challenges == 0


def test_no_challenge_once_the_next_play_happened(table):
    t = table()
    t(f"Ann: jewelers\n{B}\nBen: jigsaw\n{B}")
    assert t("Cat: challenge Ann") == ["Ann has no word that can be challenged now."]


def test_challenge_vote_option(table):
    t = table("Ann,Ben,Cat,Dan", challenge_vote=True)
    said = t("Ann: jewelers\nBen: challenge")
    assert said[-1] == "Cat and Dan: do you know the word jewelers? Say yes or no."
    assert t("Dan: jigsaw") == ["Play is stopped while jewelers is challenged."]
    assert t("Ann: yes") == ["Ann, the vote on jewelers is for the players not involved."]
    said = t("Cat: yes")  # half of two, rounded up, is one: the table knows it
    assert said == ["The table knows it: jewelers stands. Ben's challenge fails and costs 2 points at the end."]
    t(B)
    t("Ben: jibblewock\nCat: challenge\nAnn: no")  # Ann and Dan vote; one no, one yes still possible
    assert t.state.vote is not None
    said = t("Dan: no")  # nobody knows it: the dictionary decides
    assert said[0] == "The challenge succeeds: jibblewock is void, it is not in the dictionary."


def test_auto_reject_option(table):
    t = table(auto_reject=True)
    before = snapshot(t.game)
    assert t("Ann: jibblewock") == ["jibblewock is refused: it is not in the dictionary."]
    assert t("Ann: scotland") == ["scotland is refused: it is a proper noun."]
    assert snapshot(t.game) == before


def test_rulebook_sample_scoresheet_totals_100(table):
    t = table("Ann,Ben,Cat,Dan")
    sheet = t.state.sheets["Ann"]
    sheet.regular = [Entry("giving", 18), Entry("flummoxed", 17), Entry(None, 0), Entry("plucky", 16),
                     Entry("scrapbooking", 20)]
    sheet.interrupts = [Entry("picnicking", 20, 3), Entry("hurdled", 17, 3)]
    sheet.failed_challenges = 1
    total, marked = t.game.totals("Ann")
    assert [counts for _, counts in marked] == [True, True, False, True, True]  # the zero is crossed out
    assert total == 71 + 31 - 2 == 100


def test_three_players_cross_out_one_per_interrupt(table):
    t = table()
    sheet = t.state.sheets["Ann"]
    sheet.regular = [Entry("a", 10), Entry("b", 4), Entry("c", 8)]
    sheet.interrupts = [Entry("d", 9, 2), Entry("e", 5, 2)]
    assert t.game.totals("Ann")[0] == 10 + 7 + 3


def test_shared_victory_when_every_word_ties(table):
    t = table()
    for name in ("Ann", "Ben"):
        t.state.sheets[name] = Sheet(regular=[Entry("x", 12), Entry("y", 7)])
    t.state.sheets["Cat"] = Sheet(regular=[Entry("z", 5)])
    t.state.round = 6
    t.state.pos = 2  # Cat's final turn
    said = t("Cat: dig")
    assert said[-1] == "Game over. Final scores: Ann 19; Ben 19; Cat 7. Ann and Ben tie on points and on every word, and share the victory."
    assert t.game.result()["winners"] == ["Ann", "Ben"]


def test_on_demand_questions(table):
    t = table()
    t(f"Ann: jewelers\n{B}")
    assert t("Cat: board") == ["Board. 4 points: W+1, B; 3 points: J+2, S; 2 points: L, C; 1 point: D, G."]
    assert t("Cat: scores") == ["Round 1 of 6. Scores: Ann 15; Ben 0; Cat 0."]
    assert t("Cat: whose turn") == ["Round 1: Ben's turn."]
    assert t("Cat: words") == ["Words played: jewelers by Ann."]
    assert t("Cat: sheet Ann") == ["Ann's sheet. Regular: round 1 jewelers 15. Interrupts: none. Total 15."]
    t("Cat: timer")
    assert t("Ann: whose turn") == ["Round 1: Ben's turn. The timer is in front of Cat, 44 seconds left."]
    assert t("Ann: repeat") == ["Cat flips the timer: 45 seconds."]
    assert t("Ann: help")[0].startswith("Say your word alone")


def test_undo_takes_back_the_last_change(table):
    t = table()
    t("Ann: jewelers")
    said = t("Ben: undo")
    assert said[0] == "Undone: Ann: jewelers."
    assert t.total("Ann") == 0 and t.state.phase == "turn" and t.state.used == []
    assert t("Ben: undo") == ["There is nothing to undo."]  # the table's setup is not a move
    t(f"Ann: jewelers\n{B}\nBen: jigsaw")
    assert t("Cat: undo")[0] == "Undone: Ben: jigsaw."
    assert t.state.active == "Ben" and t.total("Ann") == 15
