"""The session's share: undo that never brings back a refused input, and reopens a
finished game as it was (ruling 98), undo of another player's input asked first, the worthless
interrupt asked only of heard input, setting commands that are no words, and typed
near-misses of commands."""

from __future__ import annotations

import pytest

from voice_host.host import intents


# ---------------------------------------------------------------------- item 1: refused is refused for good
def test_undo_after_the_end_of_a_road_game_reopens_it_as_it_was(table):
    """Ruling 98: undo after the end works as before it; another player's input is asked first."""
    t = table("Ann,Ben", game="road", start="Ann", board=None)
    t("Ann: play jump for 15\nBen: pass\nAnn: pass")
    assert t.game.finished
    assert t("Ann: play zebra for 16") == ["The game is over: Ann won with 15."]
    assert t("Ben: undo") == ["Ann, Ben asks to undo your 'pass'. Say yes or no."]
    assert t.game.finished  # nothing changes before Ann's yes
    assert t("Ann: yes") == ["Undone: Ann: pass.", "Scores: Ann 15; Ben 0.", "Round 2: Ann's turn."]
    assert not t.game.finished and t.game.result()["winners"] == []
    assert t("Ann: play zebra for 16\nBen: pass\nAnn: pass")[-1] == "Game over. Final scores: Ann 31; Ben 0. Ann wins!"
    result = t.game.result()
    assert result["finished"] and result["winners"] == ["Ann"]
    assert [(w["word"], w["score"]) for w in result["players"][0]["words"]] == [("jump", 15), ("zebra", 16)]


def test_a_refused_play_stays_refused_when_an_undo_makes_it_possible(table):
    t = table("Ann,Ben", game="road", start="Ann", board=None)
    t("Ann: play jump for 15\nBen: play fire for 7")
    refused = t("Ben: play quiz for 22")  # Ann's turn: refused
    assert refused == ["It's Ann's turn."]
    assert t("@undo")[0] == "Undone: Ben: play fire for 7."  # the table's undo: the last change
    sheet = {p["name"]: [w["word"] for w in p["words"]] for p in t.game.result()["players"]}
    assert sheet == {"Ann": ["jump"], "Ben": []}  # quiz did not come back as Ben's play
    assert t.state.active == "Ben"


@pytest.mark.parametrize("heard", [False, True], ids=["typed", "heard"])
def test_a_mistyped_last_word_of_classic_is_put_right_by_undo_after_the_end(table, heard):
    """Ruling 98: the game reopens as it was before the last word, and the final scores
    are said again when the word is said again; resumed from its log, it is the same game."""
    t = table(board=None, sections={"prolix": {"rounds_3_players": 1}})
    t("Ann: jewelers\nBen: cowbell\nCat: dig")
    t("@wait 20")  # the last word's challenge window runs out
    assert t.game.finished
    assert t("Cat: dug", heard=heard) == [t.session.refused]
    assert t.session.refused.startswith("The game is over:")
    assert t("Cat: undo", heard=heard) == [
        "Undone: Cat: dig.", "Board. 4 points: F, W+1; 3 points: R, L; 2 points: G, X+2; 1 point: D, M.",
        "Round 1: Cat's turn."]
    assert not t.game.finished and t.state.phase == "turn" and t.state.active == "Cat"
    assert t("Cat: dug", heard=heard) == [
        "Cat scores 3 points for dug.", "End of round 1. Scores: Ben 4; Cat 3; Ann 1.",
        "That was the last word. Challenge dug now, or the final scores come in 10 seconds.",
        "Game over. Final scores: Ben 4; Cat 3; Ann 1. Ben wins!"]  # the script's end closes the window
    assert [w["word"] for w in t.session.result()["players"][2]["words"]] == ["dug"]
    twin = t.session._twin()  # a resume replays it the same
    twin.settle()
    assert twin.game.result() == t.game.result()


def test_an_undo_after_the_end_gives_the_timer_back_the_seconds_it_had(table):
    """Ruling 98: the time the game stood over does not count: Ben's timer had 43 seconds
    when his mistyped last word ended a duel; after the undo it has them again."""
    t = table("Ann,Ben", game="prolix-duel", start=None, sections={"prolix": {"duel_marks": 1}})
    assert t("Ann: jewelers\n[+2] Ben: cowbel\n@wait 60")[-1] == "Game over. Final scores: Ann 1; Ben 0. Ann wins!"
    assert t("Ben: undo") == [
        "Undone: Ben: cowbel.", "Board. 4 points: W+1, B; 3 points: J+2, S; 2 points: L, C; 1 point: D, G.",
        "Round 1.", "43 seconds left."]
    assert t("[+40] Ben: time left") == ["3 seconds left, the timer in front of Ann."]
    assert t.session._twin().game.state.timer == t.state.timer  # and so when the log is replayed
    assert t("Ben: cowbell") == [
        "Ben: cowbell, noted.", "Ann jewelers 15; Ben cowbell 13. Ann takes the mark.", "Marks: Ann 1, Ben 0.",
        "That was the last word. Challenge jewelers and cowbell now, or the final scores come in 10 seconds.",
        "Game over. Final scores: Ann 1; Ben 0. Ann wins!"]


def test_an_undo_after_a_lost_solo_game_gives_the_round_back_with_its_seconds(table):
    t = table("Ann", game="prolix-solo", sections={"prolix": {"solo_targets": [50]}})
    assert t("[+5] Ann: my word is jewelers\n@wait 100")[-1] == "Game over. Ann finishes with 15 points."
    assert t("Ann: undo") == [
        "Undone: Ann: my word is jewelers.",
        "Board. 4 points: W+1, B; 3 points: J+2, S; 2 points: L, C; 1 point: D, G.",
        "Round 1: Ann's turn. 40 seconds left.", "Round 1: reach 50 to stay alive; you have 0."]
    assert t("Ann: my word is jawbones")[-2:] == [
        "17 in all: short of the target of 50. The game is lost.", "Game over. Ann finishes with 17 points."]


def test_an_undo_in_the_middle_of_redux_does_not_run_a_refused_timer(table):
    t = table("Ann,Ben", game="prolix-redux", start="Ann")
    t("Ann: jewelers")
    before = t("Ann: timer")  # refused: it is no time to flip (Ann's own turn now, or Ben's word missing)
    assert len(before) == 1 and t.session.refused == before[0]
    t("@undo")  # the table's undo: jewelers (Ann's own would say her timer was refused)
    assert t.state.timer.holder is None


# ---------------------------------------------------------------------- item 2: whose input undo takes back
def test_undo_takes_back_the_speakers_own_input(table):
    t = table()
    t("Ann: jewelers")
    assert t("Ann: undo")[0] == "Undone: Ann: jewelers."
    assert t.state.used == [] and t.state.active == "Ann"


def test_undo_of_another_players_input_asks_that_player_first(table):
    t = table()
    t("Ann: jewelers")
    assert t("Ben: undo") == ["Ann, Ben asks to undo your 'jewelers'. Say yes or no."]
    assert t.state.used == [("jewelers", "Ann")]
    assert t("Ann: no") == ["Ann says no: 'jewelers' stays."]
    assert t.state.used == [("jewelers", "Ann")]
    t("Ben: undo")
    assert t("Ann: yes")[0] == "Undone: Ann: jewelers."
    assert t.state.used == [] and t.state.active == "Ann"


def test_only_the_player_asked_answers_the_undo_question(table):
    t = table()
    t("Ann: jewelers")
    t("Ben: undo")
    assert t("Cat: yes") == ["That question was for Ann."]
    assert t.state.used == [("jewelers", "Ann")]
    assert t("Ann: yes")[0] == "Undone: Ann: jewelers."


def test_the_undo_question_lapses_when_its_player_says_something_else(table):
    t = table()
    t("Ann: jewelers")
    t("Cat: undo")
    assert "Scores: Ann 15; Ben 0; Cat 0." in t("Ann: scores")[0]  # a question: answered, the undo forgotten
    assert t("Ann: yes") == ["Nobody asked a yes or no question."]
    assert t.state.used == [("jewelers", "Ann")]


def test_dexikon_undo_of_another_players_penalty_is_asked(table):
    t = table("Ann,Ben", game="dexikon", start=None, board=None)
    t("Ann: penalty 2\nAnn: returned penalty 1")
    assert t("Ben: undo") == ["Ann, Ben asks to undo your 'returned penalty 1'. Say yes or no."]
    assert t("Ann: yes")[0] == "Undone: Ann: returned penalty 1."


# ---------------------------------------------------------------------- item 5: rules drift
def test_a_typed_worthless_interrupt_is_played_at_once(table):
    t = table()
    assert t("Cat: dig")[0] == "Cat interrupts Ann with dig: 2, minus 2, scores 0."


def test_a_heard_worthless_interrupt_is_asked_about(table):
    t = table()
    assert t("Cat: dig", heard=True) == ["Cat, interrupt with dig for 0 points? Say yes or no."]
    assert t("Cat: yes", heard=True)[0] == "Cat interrupts Ann with dig: 2, minus 2, scores 0."


def test_setting_words_alone_are_plays_and_their_phrases_are_settings(table):
    t = table()
    for word in ("brief", "full", "slower", "faster", "louder", "softer", "quieter", "shorter", "verbose"):
        assert intents.parse(word, t.session.players).kind == "word", word
    assert t("Cat: brief")[0].startswith("Cat interrupts Ann with brief:")
    assert not t.session.saying.brief
    assert t("Ann: be brief") == ["Brief: I'll say the scores and whose turn; ask for the board when you want it."]
    assert t.session.saying.brief
    assert t("Ann: more detail") == ["Full: I'll read the board after every move."]
    assert not t.session.saying.brief


# ---------------------------------------------------------------------- item 6: typed near-misses of commands
def test_typed_near_misses_of_commands_are_the_commands(table):
    t = table(board=None)
    t("Ann: jewelers")
    assert t("Ben: bord") == t("Ben: board")
    assert t("Ben: scors") == t("Ben: scores")
    assert t.state.sheets["Ben"].interrupts == [] and len(t.state.used) == 1
    assert t("Cat: timr") == ["Cat flips the timer: 45 seconds."]
    t("Ann: repeat")
    assert t("Ann: repete") == ["Cat flips the timer: 45 seconds."]
    assert t.state.sheets["Cat"].interrupts == [] and len(t.state.used) == 1


def test_the_last_word_of_a_classic_game_can_be_challenged_at_the_table(table):
    t = table(board=None, sections={"prolix": {"rounds_3_players": 1}})
    said = t("Ann: jewelers\nBen: cowbell\nCat: xyzzy\n[+2] Ben: jewels\n[+2] Ann: challenge\n[+2] Cat: dig")
    assert "That was the last word. Challenge xyzzy now, or the final scores come in 10 seconds." in said
    assert "That was the last turn: only a challenge of xyzzy can change the result now." in said
    assert said.index("Ann challenges Cat's xyzzy.") < said.index("Cat scores 3 points for dig.")
    assert said[-1].startswith("Game over. Final scores:")  # the script's end closes the window
    assert [w["word"] for w in t.session.result()["players"][2]["words"]] == ["dig"]


# ---------------------------------------------------------------------- the opening known ahead
def test_the_host_knows_what_it_will_say_when_the_game_begins(words):
    """The voice renders the game's first sentences before they are said (the intro,
    the draw, the board, whose turn): a silent twin of the session begins the game."""
    from voice_host import config
    from voice_host.host.session import Session, new_header
    from voice_host.messages import Directive, Said

    said = []
    session = Session(new_header("prolix-classic", ["Ann", "Ben", "Cat"], 1, config.load()), words, said.append)
    session.feed(Directive(0.0, "start", ("Ann",)))
    coming = session.opening()
    assert coming == ["Prolix Classic for Ann, Ben and Cat: 6 rounds.", "Cat draws G, X, D, M, G, T, S and T.",
                      "Board. 4 points: G, X+2; 3 points: D, M; 2 points: G, T; 1 point: S, T.",
                      "Round 1: Ann's turn."]
    assert not session.begun and said == ["Ann starts."] and len(session.records) == 1  # nothing played
    session.play(Said(2.0, "Ann", "midnight"))
    assert said[1:5] == coming  # what the game then says, word for word
    assert session.opening() == []


def test_an_undo_right_after_the_players_own_refused_word_takes_nothing_back(table):
    t = table()
    t("Ann: jewelers\n@draw M N")
    assert t("Ben: jewelers") == ["No cheapies: Ann already played jewelers."]
    assert t("Ben: undo") == [
        "Ben, your 'jewelers' was refused, so it changed nothing: there is nothing of yours to undo."]
    assert t.game.result()["players"][0]["total"] == 15
    assert "Waiting for Ann to draw" not in t("Ben: whose turn")[0]


def test_undo_of_the_tables_draw_says_which_tiles_it_took_back(table):
    t = table()
    t("Ann: jewelers\n@draw M N")
    assert t("@undo")[0] == "Undone: the tiles drawn, M and N."
