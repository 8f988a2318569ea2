"""A question asked in the words a player would use ("what is on the board", "who is
next", "how long do I have left, please") is answered as the short form is ("board",
"whose turn", "time left"), while a dictionary word said alone is still a play."""

from __future__ import annotations

import pytest

from voice_host.host import intents
from voice_host.host.phrases import dexikon, phlounder, redux, road

PLAYERS = ["Ann", "Ben", "Cat"]

ASKED = {
    "board": ("what is on the board", "what's on the board", "whats on the board", "show the board",
              "show me the board", "read the board", "read out the board", "read me the board",
              "what is the board", "what's the board now", "please read the board", "can you read the board",
              "tell me the board", "what's on the board please", "what tiles are on the board",
              "what letters are on the board", "what are the tiles", "the board again"),
    "scores": ("what are the scores", "what's the score", "what is the score", "what is my score", "what's my score",
               "my score", "who is winning", "who's winning", "who is ahead", "what are the standings",
               "read the scores", "tell me the scores please", "what's my total"),
    "turn": ("whose turn is it", "whose turn is it now", "who's turn is it", "who is next", "who's next", "who's up",
             "whose go is it", "who goes next", "who plays next", "what round are we on", "what round is it now"),
    "time": ("how much time is left", "how much time do we have", "how much time do i have left", "how long do i have",
             "how long do we have left", "how long left", "how many seconds are left", "time remaining",
             "what is the time left", "how much time is left please"),
    "words": ("what words have been played", "which words have been used", "what words have been used",
              "what has been played", "words played", "read the words", "which words are used"),
    "sheet": ("what's on my sheet", "what is on my sheet", "show my sheet", "read me my sheet", "my score sheet"),
    "sheets": ("read all the sheets", "show all the sheets", "read every sheet", "everyone's sheet"),
    "bag": ("how many tiles are in the bag", "how many tiles in the bag", "what is in the bag", "how many tiles left",
            "tiles remaining"),
    "interrupts": ("how many interrupts do i have", "how many interrupts do i have left", "interrupts remaining"),
    "voided": ("what words were voided", "which words have been voided", "what has been voided"),
    "dice": ("what is the roll", "what was the roll", "what is on the dice", "what did i roll", "read the dice"),
    "banked": ("what words have i banked", "which words have i banked", "what did i bank"),
    "marks": ("how many marks do i have", "how many bonus marks do i have"),
    "penalties": ("how many penalties do i have", "how many penalty cards do i have"),
}


@pytest.mark.parametrize(("kind", "said"), [(k, s) for k, ss in ASKED.items() for s in ss])
def test_a_question_in_a_players_words_is_the_question(kind, said):
    assert intents.parse(said, PLAYERS).kind == kind


@pytest.mark.parametrize("word", ["board", "show", "read", "tiles", "next", "winning", "left", "played", "please",
                                  "now", "remaining", "ahead", "goes"])
def test_a_dictionary_word_alone_is_still_a_play_or_the_question_it_was(word):
    kind = intents.parse(word, PLAYERS).kind
    assert kind == ("board" if word == "board" else "word"), kind


def test_the_games_own_phrases_are_never_questions():
    own = (*dexikon.CONCEDE, *dexikon.INSIST, *dexikon.POOL_EMPTY, *phlounder.BELL, *phlounder.ROLL, *redux.PASS,
           *road.MULLIGAN, *road.PASS, *road.BAG_EMPTY, "the bag is empty now please")
    for said in own:
        assert intents.parse(said, PLAYERS).kind not in intents.QUESTIONS, said


def test_only_questions_and_requests_to_the_host_are_rephrased():
    assert intents.parse("no thanks", PLAYERS).kind == "unclear"  # "no, thanks": a word put right
    assert intents.parse("yes please", PLAYERS).kind == "unclear"
    assert intents.parse("can you say that again please", PLAYERS).kind == "repeat"
    assert intents.parse("undo that please", PLAYERS).kind == "undo"


def test_a_play_phrase_with_a_question_word_is_still_a_play():
    assert intents.parse("play board", PLAYERS) == intents.Intent("word", word="board", text="play board")
    assert intents.parse("my word is show", PLAYERS).word == "show"
    assert intents.parse("ben interrupts with tiles", PLAYERS).word == "tiles"


def test_what_is_on_the_board_is_answered_with_the_board_during_a_game(table):
    t = table()
    t("Ann: jewelers\n@draw M N")
    board = t("Cat: board")
    assert board and "jewelers" not in board[0]  # the board, not a word played
    for said in ("what is on the board", "what's on the board", "show the board", "read the board",
                 "can you read the board please"):
        assert t(f"Cat: {said}") == board, said
    assert t("Ben: who is next") == t("Ben: whose turn") == ["Round 1: Ben's turn."]
    assert t("Ann: what are the scores") == t("Ann: scores")
    assert t("Ann: how much time do we have") == t("Ann: time left") == ["The timer isn't running."]
    assert t("Cat: which words have been played") == t("Cat: words") == ["Words played: jewelers by Ann."]
    assert [w for w, _ in t.state.used] == ["jewelers"] and t.state.pending == []  # nothing was played
