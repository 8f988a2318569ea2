"""A question asked in the words a player would use ("what is on the board", "who is
next", "how long do I have left, please") is answered as the short form is ("board",
"whose turn", "time left"), while a dictionary word said alone is still a play."""

from __future__ import annotations

import pytest

from voice_host.host import intents
from voice_host.host.phrases import dexikon, phlounder, redux, road
from voice_host.messages import Intent

PLAYERS = ["Ann", "Ben", "Cat"]

ASKED = {
    "board": ("what is on the board", "what's on the board", "whats on the board", "show the board",
              "show me the board", "read the board", "read out the board", "read me the board",
              "what is the board", "what's the board now", "please read the board", "can you read the board",
              "tell me the board", "what's on the board please", "what tiles are on the board",
              "what letters are on the board", "what are the tiles", "the board again"),
    "scores": ("what are the scores", "what's the score", "what is the score", "what is my score", "what's my score",
               "my score", "what are the standings", "read the scores", "tell me the scores please", "what's my total"),
    "leader": ("who is winning", "who's winning", "who is ahead", "who won", "who's in front"),
    "turn": ("whose turn is it", "whose turn is it now", "who's turn is it", "who's up",
             "whose go is it", "what round are we on", "what round is it now"),
    "next_player": ("who is next", "who's next", "who goes next", "who plays next", "who comes next"),
    "rounds": ("how many rounds are left", "how many rounds left", "how many more rounds", "rounds left please"),
    "how": ("what was the last word", "what was that word", "the last word"),
    "time": ("how much time is left", "how much time do we have", "how much time do i have left", "how long do i have",
             "how long do we have left", "how long left", "how many seconds are left", "time remaining",
             "what is the time left", "how much time is left please"),
    "words": ("what words have been played", "which words have been used", "what words have been used",
              "what has been played", "words played", "read the words", "which words are used"),
    "sheet": ("what's on my sheet", "what is on my sheet", "show my sheet", "read me my sheet", "my score sheet",
              "what words has ben played", "what has ben played", "ben's words", "what did ben say",
              "what did ben play"),
    "check": ("is zax a word", "check zebra", "is zebra a real word", "can i play zebra", "is zebra allowed",
              "look up zebra", "is zebra in the dictionary"),
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


@pytest.mark.parametrize("word", ["board", "show", "read", "tiles", "winning", "left", "played", "please",
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
    assert intents.parse("play board", PLAYERS) == Intent("word", word="board", text="play board")
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
    assert t("Ben: whose turn") == ["Round 1: Ben's turn."]
    assert t("Ann: what are the scores") == t("Ann: scores")
    assert t("Ann: how much time do we have") == t("Ann: time left") == ["The timer isn't running."]
    assert t("Cat: which words have been played") == t("Cat: words") == ["Words played: jewelers by Ann."]
    assert [w for w, _ in t.state.used] == ["jewelers"] and t.state.pending == []  # nothing was played


TABLE_ASKS = {
    "repeat": ("can you repeat that", "repeat that", "repeat that please", "could you say that again",
               "say it again", "what was that", "come again", "sorry what did you say", "what did you just say",
               "one more time", "i didn't catch that", "i missed that"),
    "spell": ("how do you spell that", "how do you spell it", "how is that spelt", "spell that word",
              "spell it out", "can you spell that"),
    "help": ("what are the rules", "what can we say", "what do i say", "how do i play", "how do we play",
             "how does this work", "what are the commands", "explain the rules", "what can i ask"),
    "undo": ("take it back", "undo the last one", "undo my word", "cancel that", "undo the last word"),
    "scores": ("how am i doing", "how many points do i have", "how many points have i got",
               "what are the totals", "what's the score now", "where are we"),
    "leader": ("who is leading", "who's in the lead"),
    "turn": ("whose turn now", "who's playing", "who is playing now", "who goes now"),
    "my_turn": ("is it my turn", "am i up", "is it my go", "is it my turn now", "am i next"),
    "time": ("how long is left on the timer", "how much time is on the timer", "is the timer running",
             "how much sand is left", "how much time have i got", "time check"),
    "board": ("what letters do we have", "what are the letters", "which letters are on the board",
              "read out the tiles", "what tiles do we have", "what's the board"),
    "words": ("what words have we played", "which words have we used", "what's been played", "list the words",
              "which words are taken", "what has been said"),
    "sheet": ("what have i played", "what words have i played", "read my words", "my words"),
    "sheets": ("read everyone's sheet", "read out all the sheets", "everybody's sheet"),
    "bag": ("how many tiles are there left", "how many are left in the bag", "tiles left in the bag"),
    "interrupts": ("how many interrupts have i got", "how many interrupts are there left"),
    "voided": ("which words were challenged off", "what got voided"),
    "dice": ("what do the dice say", "what did the dice say", "what are we looking for"),
    "reports": ("who hasn't reported", "who still has to report"),
    "banked": ("what's in my bank", "what have i got banked"),
    "marks": ("how many marks have i got",),
    "penalties": ("how many penalty cards have i got",),
}
"""The other ways a table asks each question the host answers (typed or said)."""


@pytest.mark.parametrize(("kind", "said"), [(k, s) for k, ss in TABLE_ASKS.items() for s in ss])
def test_the_tables_own_way_of_asking_is_the_question(kind, said):
    assert intents.parse(said, PLAYERS).kind == kind


@pytest.mark.parametrize(("said", "word"), [
    ("how many points was jewelers", "jewelers"), ("how many points did jewelers get", "jewelers"),
    ("how many points for jewelers", "jewelers"), ("what did jewelers score", "jewelers"),
    ("what was jewelers worth", "jewelers"), ("how much was jewelers worth", "jewelers"),
    ("how much is jewelers worth", "jewelers"), ("what did jewelers get", "jewelers"),
    ("how many points was that", None), ("what was that worth", None),
])
def test_how_a_word_scored_asked_in_other_words(said, word):
    assert intents.parse(said, PLAYERS) == Intent("how", word=word, text=said)


@pytest.mark.parametrize("said", ["what did Ann score", "what is Ann's score", "what's Ann's score",
                                  "how many points does Ann have", "what's Ann's total", "Ann's score",
                                  "how is Ann doing"])
def test_a_players_score_asked_by_name_is_their_sheet(said):
    assert intents.parse(said, PLAYERS) == Intent("sheet", target="Ann", text=said)


@pytest.mark.parametrize(("said", "word"), [("how do you spell jewelers", "jewelers"), ("spell jewelers", "jewelers"),
                                            ("how is jewelers spelled", "jewelers")])
def test_spell_a_named_word(said, word):
    assert intents.parse(said, PLAYERS) == Intent("spell", word=word, text=said)


def test_the_tables_questions_are_answered_in_a_game(table):
    t = table()
    t("Ann: jewelers\n@draw M N")
    assert t("Ben: can you repeat that") == ["Ann draws M and N.",
                                             "Board. 4 points: M, N; 3 points: W+1, B; 2 points: J+2, S; 1 point: L, C.",
                                             "Round 1: Ben's turn."]
    assert t("Ben: how do you spell that") == ["jewelers: J, E, W, E, L, E, R, S."]
    assert t("Ben: how do you spell jigsaw") == ["jigsaw: J, I, G, S, A, W."]
    assert t("Ben: how many points was jewelers") == t("Ben: how did jewelers score")
    assert t("Ben: what did Ann score") == ["Ann's sheet. Regular: round 1 jewelers 15. Interrupts: none. Total 15."]
    assert t("Ben: what are the rules")[0].startswith("Say your word alone")
    assert t.total("Ann") == 15 and t.state.active == "Ben" and [w for w, _ in t.state.used] == ["jewelers"]


def test_the_tables_questions_heard_aloud_are_answered(table):
    from support import Heard, said

    from voice_host.host.hearing import Hearing, HearingSettings

    t = table()
    t("Ann: jewelers\n@draw M N")
    hearing = Hearing(t.session, t.session.words, HearingSettings())
    assert said(t, hearing, Heard(10, "how many points was jewelers", "Ben")) == [
        "jewelers, Ann's word in round 1: W 5, J 5, S 3, L 2: 15."]
    assert said(t, hearing, Heard(12, "what did Ann score", "Cat")) == [
        "Ann's sheet. Regular: round 1 jewelers 15. Interrupts: none. Total 15."]
    assert said(t, hearing, Heard(14, "can you repeat that", "Cat")) == [
        "Ann's sheet. Regular: round 1 jewelers 15. Interrupts: none. Total 15."]
    assert said(t, hearing, Heard(16, "how do you spell that", "Ben")) == ["jewelers: J, E, W, E, L, E, R, S."]
    assert said(t, hearing, Heard(18, "what are the rules", "Ben"))[0].startswith("Say your word alone")
    assert t.total("Ann") == 15 and t.state.active == "Ben" and [w for w, _ in t.state.used] == ["jewelers"]


def test_the_questions_a_table_asks_are_answered_as_asked(table):
    t = table()
    assert t("Ann: who's winning") == ["It's level: everyone has 0 points."]
    t("Ann: jewelers\n@board W B J S L C D G\nBen: jigsaw\n@board W B J S L C D G")
    assert t("Cat: who's winning") == ["Ann leads with 15 points; then Ben 14; Cat 0."]
    assert t("Cat: is it my turn") == ["Yes, Cat, it's your turn."]
    assert t("Ann: is it my turn") == ["No, Ann: it's Cat's turn."]
    assert t("Ann: who's next") == ["Cat now, then Ann."]
    assert t("Ann: how many rounds are left") == ["Round 1 of 6: 5 more rounds after this one."]
    assert t("Ann: what was the last word") == t("Ann: how did that score")
    assert t("Ann: what was the last word")[0].startswith("jigsaw, Ben's word in round 1")
    assert t("Ann: what has Ben played") == t("Ann: sheet Ben") == t("Ann: Ben's words")
    assert t("Ann: is zebra a word") == ["Yes, zebra is a word, worth 4 points on this board."]
    assert t("Ann: check jewelerz") == ["No, jewelerz can't be played: it is not in the dictionary."]
    assert t.total("Ann") == 15 and t.total("Ben") == 14 and t.state.active == "Cat" and len(t.state.used) == 2


def test_who_is_winning_in_a_game_of_marks_is_its_marks(table):
    t = table("Ann,Ben", game="prolix-duel")
    assert t("Ann: who's winning") == t("Ann: scores") == ["Marks: Ann 0, Ben 0."]


def test_solo_help_says_a_word_alone_is_a_try_and_my_word_is_commits(table):
    solo = table("Ann", game="prolix-solo", start=None)
    said = solo("Ann: help")[0]
    assert said.startswith("Say a word alone, or 'play' and the word, to try it: I say what it would score. "
                           "Say 'my word is' and the word to commit to it; if time runs out first, your last "
                           "try counts.")
    assert solo("Ann: jewelers") == ["Scratch: jewelers would score 15."]
    assert solo.state.round == 1


def test_solo_says_the_best_word_once_the_round_is_committed_never_before(table):
    solo = table("Ann", game="prolix-solo", start=None)
    later = ["Ann, I'll tell you the best word once you have committed yours."]
    assert solo("Ann: what's the best word") == later
    solo("Ann: jewelers")
    assert solo("Ann: what is the best word") == later and solo.state.scratch == [("jewelers", 15)]
    said = solo("Ann: my word is jewelers")
    assert "The best word on that board was bejewels, for 19." in said
    assert solo("Ann: what was the best word") == ["The best word on that board was bejewels, for 19."]
    assert table()("Ann: what's the best word") == ["I can't answer 'best' in this game."]  # no hints at a table
