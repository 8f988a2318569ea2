"""End to end: what the host says agrees with the game's state, and
a setup the game cannot be played with is one sentence and a non-zero exit before it starts."""

from __future__ import annotations

import pytest
from support import voice_host

from voice_host.host import intents
from voice_host.messages import Intent

pytestmark = pytest.mark.slow  # voice-host run as a command

B = "@board W B J S L C D G"


# ---------------------------------------------------------------------- before the game
@pytest.mark.parametrize("players, said", [
    ("Ann,,Cat", "There is an empty name in the list of players 'Ann,,Cat': give every player a name, "
                 "separated by commas."),
    ("Ann, ,Cat,Dan", "There is an empty name in the list of players 'Ann, ,Cat,Dan': give every player a name, "
                      "separated by commas."),
    (",Ann,Ben", "There is an empty name in the list of players ',Ann,Ben': give every player a name, "
                 "separated by commas."),
])
def test_an_empty_player_name_is_said_before_the_game(tmp_path, players, said):
    script = tmp_path / "game.txt"
    script.write_text("Ann: pass\n")
    proc = voice_host("play", "--game", "road", "--players", players, "--script", str(script), "--no-voice")
    assert proc.returncode != 0
    assert proc.stdout == ""
    assert proc.stderr.strip() == f"voice-host: {said}"


def test_a_set_too_small_for_the_racks_is_refused_before_the_game(tmp_path):
    script = tmp_path / "game.txt"
    script.write_text("Ann: pass\n")
    proc = voice_host("play", "--game", "road", "--players", "Ann,Ben,Cat", "--set-size", "20",
                      "--script", str(script), "--no-voice")
    assert proc.returncode != 0
    assert proc.stdout == ""
    assert proc.stderr.strip() == "voice-host: A set of 20 tiles can't fill 3 racks of 10: it needs at least 30 tiles."


# ---------------------------------------------------------------------- road
def test_road_refuses_more_tiles_than_a_rack_and_reads_its_sheet_plainly(play):
    result, lines = play("""
        @start Ann
        Ann: play quiz for 22 with 11 tiles
        Ann: play quiz for 22 with 0 tiles
        Ann: play quiz for 22 with 10 tiles
        Ben: play jump for 15, ump for 6 with 4 tiles
        Ann: sheet
        Ben: sheet
        Ann: pass
        Ben: pass
        Ann: whose turn
        """, "Ann,Ben", "--set-size", "100", game="road")
    assert lines[3:5] == ["A rack holds 10 tiles, so a play can't use 11.", "A play puts at least one tile on the board."]
    assert "Ann's sheet. round 1: quiz 22. Total 22." in lines
    assert "Ben's sheet. round 1: jump 15 and ump 6 for 21. Total 21." in lines
    assert lines[-1] == "Nobody's turn: the game is over."
    assert result["bag"] == 100 - 20 - 10 - 4


def test_road_with_a_set_that_just_fills_the_racks(play):
    result, lines = play("@start Ann\nAnn: mulligan\n", "Ann,Ben", "--set-size", "20", game="road")
    assert lines[1:3] == ["Road game for Ann and Ben. Each player draws 10 tiles. The racks take every tile: "
                          "the bag is empty, so there are no mulligans.",
                          "Round 1: Ann's turn."]
    assert lines[3] == "The bag is empty, so there are no more mulligans."


# ---------------------------------------------------------------------- sheet of somebody not playing
def test_sheet_of_a_player_not_at_the_table_names_the_players(table):
    t = table("Ann,Ben,Cat")
    assert t("Ben: sheet Dan") == ["I don't know a player called Dan; the players are Ann, Ben and Cat."]
    assert t("Ben: Dan's sheet") == ["I don't know a player called Dan; the players are Ann, Ben and Cat."]
    assert t("Ben: challenge Dan") == ["I don't know a player called Dan; the players are Ann, Ben and Cat."]
    assert t("Ben: sheet cat")[0].startswith("Cat's sheet.")


def test_sheet_and_a_name_is_a_question_not_a_word():
    assert intents.parse("sheet Dan", ["Ann", "Ben"]) == Intent("sheet", target="Dan", text="sheet Dan")
    assert intents.parse("dan's sheet", ["Ann", "Ben"]) == Intent("sheet", target="Dan", text="dan's sheet")
    assert intents.parse("sheet ann", ["Ann", "Ben"]) == Intent("sheet", target="Ann", text="sheet ann")


# ---------------------------------------------------------------------- Prolix
def test_classic_says_a_void_words_own_round(play):
    _, lines = play(f"""
        @start Ann
        {B}
        Ann: jewelers
        {B}
        Ben: cowbell
        {B}
        Cat: jibblewock
        {B}
        Ann: challenge
        Ann: voided words
        """)
    assert lines[-1] == "Voided by a challenge: jibblewock by Cat in round 1."


def test_duel_no_word_scores_zero_and_between_rounds_waits_for_the_draw(play):
    _, lines = play(f"""
        {B}
        Ann: jewelers
        Ben: cowbell
        {B}
        Ben: jobs
        @wait 46
        Ann: sheet
        Ann: whose turn
        """, "Ann,Ben", game="prolix-duel")
    assert "Ben jobs 12; Ann no word. Ben takes the mark." in lines
    assert lines[-2:] == ["Ann's sheet. round 1: jewelers for 15 (mark); round 2: no word for 0. Total 1 mark.",
                          "Ann, draw 4 tiles and tell me the letters."]


def test_redux_says_the_round_it_scores(play):
    _, lines = play(f"""
        @start Ann
        {B}
        Ann: jewelers
        Ben: jibblewock
        Cat: cowbell
        Ann: whose turn
        {B}
        Cat: challenge Ben
        """, game="prolix-redux")
    assert "Round 1 scores: Ann jewelers 15; Ben jibblewock 18, plus 2; Cat cowbell 13, minus 1." in lines
    assert "Round 2: Ben's turn. Waiting for Ann to draw." in lines
    assert lines[-1] == "Round 1 scores: Ann jewelers 15; Ben jibblewock 0, minus 2; Cat cowbell 13, minus 1."


def test_solo_while_drawing_and_after_the_end(play):
    _, lines = play(f"""
        {B}
        Ann: my word is jewelers
        Ann: whose turn
        {B}
        Ann: my word is jigsaw
        Ann: whose turn
        """, "Ann", game="prolix-solo")
    i = lines.index("15 in all: the target of 15 is reached.")
    assert lines[i + 2:i + 4] == ["Round 2: Ann's turn. Waiting for Ann to draw.",
                                  "Round 2: reach 32 to stay alive; you have 15."]
    assert lines[-1] == "Nobody's turn: the game is over."


# ---------------------------------------------------------------------- Dexikon
def test_dexikon_whose_turn_during_last_words(play):
    banks = "\n".join(f"Ann: bank {a} for 5\nBen: bank {b} for 5\n@wait 11" for a, b in
                      [("catch", "fire"), ("water", "earth"), ("wind", "stone"), ("cloud", "river"), ("ocean", "storm")])
    _, lines = play(banks + """
        Ann: whose turn
        Ann: last word counterfeiting for 15
        Ben: whose turn
        """, "Ann,Ben", "--variant", "quick", game="dexikon")
    assert lines[-4:] == ["Ann and Ben have banked 5 words: the game is over. Last words: say 'last word', the word "
                          "and its points.",
                          "Last words: waiting for a last word from Ann and Ben.",
                          "Ann's last word: counterfeiting for 15 points.",
                          "Last words: waiting for a last word from Ben; Ann's counterfeiting can still be challenged."]


# ---------------------------------------------------------------------- Phlounder
PARTNERS = """
@dice 5N
Ann: bell
Ann: table
Cat: chair
Ben: lamp, unused 2
Dan: no word, unused 1
@dice 4N
Cat: bell
Cat: ruin
Ann: very
Ann: sheet
Dan: sheet Cat
Ben: sheets
Ben: scores
Ben: words
"""


def test_partners_sheets_are_the_teams(play):
    _, lines = play(PARTNERS, "Ann,Ben,Cat,Dan", "--teams", "Ann+Cat,Ben+Dan", game="phlounder")
    ann_cat = ("Ann and Cat's sheet. round 1: Ann table 5, Cat chair 5 and 2 for Ann's bell: 12; "
               "round 2: Cat's illegal bell: minus 10. Total 2.")
    ben_dan = ("Ben and Dan's sheet. round 1: Ben lamp 2 and Dan no word, minus 1: 1; "
               "round 2: Cat's illegal bell: plus 14. Total 15.")
    assert lines[-6:] == [ann_cat, ann_cat, ann_cat, ben_dan, "Round 3 of 11. Scores: Ben and Dan 15; Ann and Cat 2.",
                          "Words played: table by Ann, chair by Cat, lamp by Ben, ruin by Cat, very by Ann (an illegal bell)."]


def test_sheet_please_is_the_askers_sheet():
    assert intents.parse("sheet please", ["Ann", "Ben"]) == Intent("sheet", text="sheet please")
