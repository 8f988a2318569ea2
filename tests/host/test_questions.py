"""Questions are never words, near
misses of commands are the commands, low interrupts are confirmed, help lists the
phrases of the game being played, and every fact of the table is answered on request
(each answer compared with the game's state)."""

from __future__ import annotations

import math

from voice_host.games import actions as A
from voice_host.games.prolix import events as E
from voice_host.messages import Said

HOST_PHRASES = ("Say 'repeat', 'spell it', 'undo', 'be brief' or 'more detail', 'speak slower', 'speak faster', "
                "'speak louder' or 'speak softer', or 'help'.")


# ---------------------------------------------------------------------- item 10
def test_questions_are_never_words_and_play_makes_them_words(table):
    t = table()
    assert t("Ann: time") == ["The timer isn't running."]
    assert t("Ben: total") == ["Round 1 of 6. Scores: Ann 0; Ben 0; Cat 0."]
    assert t("Cat: round") == ["Round 1: Ann's turn."]
    assert t("Ben: interrupts") == ["Interrupts: Ann 6 left, 0 used; Ben 6 left, 0 used; Cat 6 left, 0 used."]
    assert t("Ben: how much time") == ["The timer isn't running."]
    assert t("Cat: bag") == [f"{len(t.state.bag.tiles)} tiles left in the bag."]
    assert t.state.pending == [] and t.state.used == [] and t.game.totals("Ben")[0] == 0
    assert t("Ann: play") == ["'play' and what? Say the word too, like 'play jewelers'."]
    assert t.state.used == []
    assert t("Ann: play time")[0] == "Ann scores 0 points for time."  # a table that wants the word says so
    assert t.state.used == [("time", "Ann")]


def test_a_typed_near_miss_of_a_command_is_the_command_unless_it_is_a_word(table):
    t = table()
    t("Ann: jewelers")
    assert t("Ben: chalenge")[:2] == ["Ben challenges Ann's jewelers.",
                                     "It's in the dictionary: jewelers stands. Ben's challenge fails and costs 2 points at the end."]
    assert t("Cat: scroes") == ["Round 1 of 6. Scores: Ann 15; Cat 0; Ben -2."]
    t("@draw M N")
    said = t("Ben: hell")  # a dictionary word near "help" is the word
    assert said[0] == "Ben scores 1 point for hell."


def test_an_interrupt_worth_nothing_is_confirmed_first(table):
    t = table()
    assert t.game.interrupt_cost("Cat", "dig") == (2, 2)  # D 1 and G 1, minus the penalty of 2
    assert t.game.interrupt_cost("Ann", "dig") is None  # the active player's word is no interrupt
    assert t("Cat: dig", heard=True) == ["Cat, interrupt with dig for 0 points? Say yes or no."]  # heard: asked
    assert t.state.pending == [] and t.state.sheets["Cat"].interrupts == []
    assert t("Cat: no", heard=True) == ["Cat takes back dig: nothing changes."]
    assert t.state.used == [] and t.state.active == "Ann"
    t("Cat: dig", heard=True)
    said = t("Cat: yes", heard=True)
    assert said[0] == "Cat interrupts Ann with dig: 2, minus 2, scores 0."
    assert [(e.word, e.score) for e in t.state.sheets["Cat"].interrupts] == [("dig", 0)]


def test_a_word_on_its_own_turn_is_no_interrupt_once_the_last_one_is_scored(table):
    # Ann's word waits for the tie window; Ben's, 3 s later, comes on Ben's turn: no question
    t = table(board=None)  # the host draws the tiles itself
    said = t("Ann: jewelers\n[+3] Ben: cowbell")
    assert not any("interrupt" in line for line in said), said
    assert [(w, p) for w, p in t.state.used] == [("jewelers", "Ann"), ("cowbell", "Ben")]


def test_an_interrupt_worth_points_is_not_asked_about(table):
    t = table()
    assert t("Cat: jewelers")[0] == "Cat interrupts Ann with jewelers: 15, minus 2, scores 13."


# ---------------------------------------------------------------------- items 11 and 13
def test_help_lists_the_phrases_of_the_game_being_played(table):
    classic = table()("Ann: help")[0]
    assert classic == (
        "Say your word alone, or 'play' and the word. Anyone may say 'challenge', or 'challenge' and a name. "
        "Say 'timer' to flip the timer. Ask for 'board', 'scores', 'whose turn', 'time left', 'words', 'sheet' "
        "(or 'sheet' and a name, or 'sheets'), 'how did WORD score', 'bag', 'voided words' or 'interrupts left' at "
        "any time. " + HOST_PHRASES)
    solo = table("Ann", game="prolix-solo", start=None)("Ann: help")[0]
    assert "Say 'my word is' and the word to commit to it;" in solo and "challenge" not in solo
    duel = table("Ann,Ben", game="prolix-duel", start=None)("Ann: help")[0]
    assert "'sheet'" in duel and "'marks'" in duel and "flip the timer" not in duel
    redux = table("Ann,Ben", game="prolix-redux", start=None)("Ann: help")[0]
    assert "'sheet'" in redux and "Say 'timer' to flip the timer." in redux
    road = table("Ann,Ben", game="road", start="Ann", board=None)("Ann: help")[0]
    assert road.startswith("Your turn: 'play WORD for N, WORD for N'")
    assert "'board'" not in road and "challenge" not in road and "'bag'" in road and "my word is" not in road
    phlounder = table("Ann,Ben", game="phlounder", start=None, board=None)("Ann: help")[-1]
    assert "'dice'" in phlounder and "'who owes a report'" in phlounder and "'board'" not in phlounder
    dexikon = table("Ann,Ben", game="dexikon", start=None, board=None)("Ann: help")[-1]
    assert "'banked', 'marks', 'penalty count' or 'voided words'" in dexikon and "'board'" not in dexikon


def test_challenging_a_player_who_is_not_at_the_table_says_so(table):
    t = table()
    t("Ann: jewelers")
    assert t("Cat: challenge Dan") == ["I don't know a player called Dan; the players are Ann, Ben and Cat."]
    assert t.state.sheets["Cat"].failed_challenges == 0


def test_road_says_the_bag_and_warns_before_the_last_pass(words):
    from voice_host import config
    from voice_host.app import run_records
    from voice_host.host.script import parse_script
    from voice_host.host.session import Session, new_header

    heard: list[str] = []
    cfg = config.load(overrides={"road": {"set_size": 40}})
    s = Session(new_header("road", ["Ann", "Ben", "Cat"], 1, cfg), words, heard.append)

    def t(script):
        before = len(heard)
        run_records(s, parse_script(script, s.t))
        return heard[before:]

    t("@start Ann")
    assert t("Ben: tiles left")[-1] == "10 tiles left in the bag." == f"{s.game.state.bag} tiles left in the bag."
    t("Ann: play fire for 7 with 4 tiles")
    assert t("Cat: bag") == ["6 tiles left in the bag."] and s.game.state.bag == 6
    assert t("Ben: pass")[-1] == "Round 1: Cat's turn."
    assert t("Cat: pass")[-2:] == ["Round 2: Ann's turn.",
                                   "Ann, everyone else has passed: if you pass too, the game ends."]
    assert t("Ann: pass")[-1] == "Game over. Final scores: Ann 7; Ben 0; Cat 0. Ann wins!"


# ---------------------------------------------------------------------- every fact on request
def test_time_left_for_anyone_the_active_player_included(table):
    t = table()
    t("Ben: timer")
    t("@wait 10")
    left = math.ceil(t.state.timer.until - t.state.clock)
    for who in ("Ann", "Ben", "Cat"):
        said = t(f"{who}: time left")
        left = math.ceil(t.state.timer.until - t.state.clock)
        assert said == [f"{left} seconds left, the timer in front of Ben."]
    assert left == 45 - 10 - 3


def test_solo_time_left_and_whose_turn_gives_the_time(table):
    t = table("Ann", game="prolix-solo", start=None)
    t("@wait 9")
    said = t("Ann: how much time")
    assert said == [f"{math.ceil(t.state.timer.until - t.state.clock)} seconds left, the timer in front of Ann."]
    assert said == ["35 seconds left, the timer in front of Ann."]
    assert t("Ann: whose turn")[0] == "Round 1: Ann's turn. 34 seconds left."


def test_the_tiles_behind_a_score(table):
    t = table()
    t("Ann: jewelers")
    assert t("Ben: how did jewelers score") == ["jewelers, Ann's word in round 1: W 5, J 5, S 3, L 2: 15."]
    assert t("Cat: how did that score") == ["jewelers, Ann's word in round 1: W 5, J 5, S 3, L 2: 15."]
    assert t("Cat: how did cowbell score") == ["cowbell hasn't been scored in this game."]
    t("@draw M N")
    t("Cat: jigsaw")  # an interrupt of Ben: J 4 (2+2), S 2, W 3 (2+1): 9 ... less 2
    e = t.game.step(A.Query(t.session.t, "how", "Ann", "jigsaw"))[0]
    assert isinstance(e, E.HowScored) and e.kind == "interrupt" and e.penalty == 2
    assert sum(n for _, n in e.tiles) == e.value == t.state.sheets["Cat"].interrupts[0].value
    assert t("Ann: how did jigsaw score") == [
        f"jigsaw, Cat's word in round 1: {', '.join(f'{a} {n}' for a, n in e.tiles)}: {e.value}, "
        f"minus 2 for the interrupt is {e.value - 2}."]


def test_voided_words_and_interrupts_left(table):
    t = table()
    t("Ann: jewelers\n@draw M N\nCat: jibblewock")
    t("Ben: challenge")
    assert t("Ann: voided words") == ["Voided by a challenge: jibblewock by Cat in round 1."]
    assert t.state.voids == [("jibblewock", "Cat", 1)]
    t("Cat: jigsaw")
    sheets = t.state.sheets
    assert t("Ann: interrupts left") == [
        "Interrupts: " + "; ".join(f"{p} {6 - len(sheets[p].interrupts)} left, {len(sheets[p].interrupts)} used"
                                   for p in ("Ann", "Ben", "Cat")) + "."]
    assert len(sheets["Cat"].interrupts) == 1


def test_every_sheet_with_the_round_of_each_word_in_the_duel_and_redux(table):
    duel = table("Ann,Ben", game="prolix-duel", start=None)
    duel("Ann: jewelers\nBen: jibblewock\nAnn: challenge\n@draw M N R T")
    assert duel("Ben: sheets") == ["Ann's sheet. round 1: jewelers for 15 (mark). Total 1 mark.",
                                   "Ben's sheet. round 1: jibblewock for 18 (void). Total 0 marks."]
    assert duel("Ann: voided") == ["Voided by a challenge: jibblewock by Ben in round 1."]
    assert duel("Ann: words") == ["Words played: jewelers by Ann."]
    redux = table("Ann,Ben,Cat", game="prolix-redux", start=None)
    redux("Ann: jewelers\nBen: jawbones\nCat: jigsaw")
    assert redux("Cat: sheet Ben") == ["Ben's sheet. round 1: jawbones for 17 (counts, plus 2). Total 19."]
    assert redux.game.totals("Ben")[0] == 19


def test_phlounder_dice_and_who_still_owes_a_report(table):
    t = table("Ann,Ben,Cat", game="phlounder", start=None, board=None)
    t("@dice 5N")
    assert t("Ann: dice") == ["Round 1: a 5-letter noun."]
    t("Ben: bell\nBen: table")
    assert t("Cat: who owes") == ["Round 1: Ben rang; still waiting for Cat and Ann."]
    assert t.game._missing() == ("Cat", "Ann")
    t("Cat: no word\nAnn: table, unused 1")
    assert t("Ann: sheets") == ["Ann's sheet. round 1: table for 4. Total 4.",
                                "Ben's sheet. round 1: table for 7 (rang). Total 7.",
                                "Cat's sheet. round 1: no word for 0. Total 0."]


def test_dexikon_banked_words_bonus_marks_and_penalty_count(table):
    t = table("Ann,Ben", game="dexikon", start=None, board=None)
    t("Ann: bank catch for 5\nBen: bank fire for 4\nBen: penalty 2")
    assert t("Ann: banked") == ["Banked words: Ann catch 5; Ben fire 4."]
    assert t("Ann: marks") == ["Bonus marks: Ann 0; Ben 0."]
    assert t("Ben: penalty count") == ["Penalty cards: Ann 0; Ben 2."] and t.state.sheets["Ben"].penalties == 2


# ---------------------------------------------------------------------- the listener sets the pace
def test_spell_it_repeat_and_brief_or_full(table):
    t = table()
    assert t("Ann: spell it") == ["No word has been said yet."]
    t("Ann: jewelers")
    assert t("Ben: spell it") == ["jewelers: J, E, W, E, L, E, R, S."]
    assert t("Ben: be brief") == ["Brief: I'll say the scores and whose turn; ask for the board when you want it."]
    assert t("@draw M N") == ["Round 1: Ben's turn."]  # no tiles drawn, no board
    assert t("Cat: board")[0].startswith("Board. 4 points: M, N;")  # asked for, it is read
    assert t("Ben: more detail") == ["Full: I'll read the board after every move."]
    said = t("Ben: jigsaw\n@draw R T")
    assert [x for x in said if x.startswith("Board.")]
    again = t("Cat: repeat")  # what was said last about the game, again
    assert again and again == said[-len(again):] and again[-1] == "Round 1: Cat's turn."


def test_slower_faster_louder_softer_call_the_voice(words):
    from voice_host import config
    from voice_host.host.session import Session, new_header

    class Voice:
        def __init__(self):
            self.lines, self.steps = [], []

        def __call__(self, line):
            self.lines.append(line)

        def adjust(self, rate_step=0, volume_step=0):
            self.steps.append((rate_step, volume_step))
            return type("Level", (), {"at_limit": len(self.steps) == 4})()

    voice = Voice()
    s = Session(new_header("prolix-classic", ["Ann", "Ben", "Cat"], 1, config.load()), words, voice)
    for i, text in enumerate(["speak slower", "speak faster", "speak louder", "speak softer"]):
        s.feed({"t": float(i), "speaker": "Ann", "text": text})
    assert voice.steps == [(-1, 0), (1, 0), (0, 1), (0, -1)]
    assert voice.lines[-4:] == ["Slower.", "Faster.", "Louder.", "That's as soft as I go."]
    printing = Session(new_header("prolix-classic", ["Ann", "Ben", "Cat"], 1, config.load()), words, lambda _: None)
    assert printing.feed({"t": 0.0, "speaker": "Ann", "text": "slow down"}) == [
        "I'm only printing here, so there is no voice to change."]


def test_a_table_can_choose_brief_in_its_settings(table):
    t = table(verbosity="brief")
    said = t("Ann: jewelers\n@draw M N")
    assert said == ["Ann scores 15 points for jewelers.", "Ann, draw 2 tiles and tell me the letters.",
                    "Round 1: Ben's turn."]
    assert t("Ben: more detail")[0] == "Full: I'll read the board after every move."
    assert t("Ben: jigsaw\n@draw R T")[-2].startswith("Board. 4 points: R, T;")


def test_dexikon_sheets_say_the_round_of_each_banked_word(table):
    t = table("Ann,Ben", game="dexikon", start=None, board=None)
    t("Ann: bank catch for 5\nBen: bank fire for 4\nAnn: bank dog for 3")
    assert t.state.sheets["Ann"].banked_in == {"catch": 1, "dog": 2}
    assert t("Ben: sheet Ann") == [
        "Ann: best 2 of 2 banked words, 8 (round 1: catch 5, round 2: dog 3); no last word; bonus 0; total 8."]


def last_word_open(table):
    """A one-round Classic game, its last word just scored and open to a challenge (30 s)."""
    from voice_host.host.script import parse_script

    t = table(sections={"prolix": {"rounds_3_players": 1, "last_challenge_window": 30}})
    for record in parse_script("Ann: jewelers\n@draw M N\nBen: cowbell\n@draw P R\nCat: jackals", t.session.t):
        t.session.play(record)  # as typed: nothing settles at the end of these lines
    t.session.tick(t.session.t + 1)  # the tie window: the last word is scored
    assert t.state.phase == "ending"
    return t


def test_time_left_in_the_last_words_challenge_window_says_the_seconds_left_to_challenge(table):
    t = last_word_open(table)
    t.session.tick(t.session.t + 20)
    before = len(t.heard)
    t.session.feed(Said(t.session.t, "Ann", "time left"))
    assert t.heard[before:] == ["That was the last word. Challenge jackals now, or the final scores come in 10 seconds."]
    assert not t.game.finished
