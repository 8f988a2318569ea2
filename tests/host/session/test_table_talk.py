"""What the host itself does with a line, before or beside the rules: who said it, what
it means (host.phrases), undo, repeat, help; and one sentence per refusal it makes."""

from __future__ import annotations

B = "@board W B J S L C D G"


def test_lines_the_host_refuses_before_the_rules_see_them(table):
    t = table()
    t(f"Ann: jewelers\n{B}\nBen: jigsaw\n{B}")  # Cat's turn
    cases = {
        "Zed: jumbled": "I don't know who Zed is; the players are Ann, Ben and Cat.",
        "just some words": "I can't read 'just some words'. Write a line as 'Name: word' or '@directive'.",
        "Ben: well-being": "well-being can't be played: words with apostrophes or hyphens are not allowed.",
        "Ben: don't": "don't can't be played: words with apostrophes or hyphens are not allowed.",
        "Ben: what a lovely day": "I didn't catch a word in 'what a lovely day'. Say just the word, or 'play' and the word.",
        "Ben: challenge Zed": "I don't know a player called Zed; the players are Ann, Ben and Cat.",
        "@start Zed": "I don't know a player called Zed; the players are Ann, Ben and Cat.",
        "@wait soon": "'@wait soon' needs a number of seconds, like '@wait 46'.",
        "@shuffle": "I don't know the directive '@shuffle'.",
        "@dice 5N": "I can't use '@dice 5N' in this game.",
    }
    for line, sentence in cases.items():
        assert t(line) == [sentence], line
    assert t.total("Ann") == 15 and t.total("Ben") == 14 and t.state.active == "Cat"


def test_the_rules_refusals_are_said_with_their_reason(table):
    t = table()
    t(f"Ann: jewelers\n{B}\nBen: jigsaw\n{B}")
    assert t("Cat: jigsaws") == [
        "No cheapies: jigsaws can't be played, Ben already played jigsaw and it only changes the plural."]
    assert t("Cat: timer") == ["The active player can't flip the timer."]
    assert t("@board W K Y S L C D G") == [
        "That would put 3 rare tiles on the board (W, K and Y); the limit is 2. Set one aside and draw again."]


def test_questions_repeat_and_help(table):
    t = table()
    t(f"Ann: jewelers\n{B}")
    assert t("Cat: board") == ["Board. 4 points: W+1, B; 3 points: J+2, S; 2 points: L, C; 1 point: D, G."]
    assert t("Cat: scores") == ["Round 1 of 6. Scores: Ann 15; Ben 0; Cat 0."]
    assert t("Cat: sheet Ann") == ["Ann's sheet. Regular: round 1 jewelers 15. Interrupts: none. Total 15."]
    t("Cat: timer")
    assert t("Ann: whose turn") == ["Round 1: Ben's turn. The timer is in front of Cat, 44 seconds left."]
    assert t("Ann: repeat") == ["Round 1: Ben's turn. The timer is in front of Cat, 44 seconds left."]
    assert t("Ann: help")[0].startswith("Say your word alone")


def test_undo_takes_back_the_last_change(table):
    t = table()
    t("Ann: jewelers")
    said = t("Ann: undo")
    assert said[0] == "Undone: Ann: jewelers."
    assert t.total("Ann") == 0 and t.state.phase == "turn" and t.state.used == []
    assert t("Ben: undo") == ["There is nothing to undo."]  # the table's setup is not a move
    t(f"Ann: jewelers\n{B}\nBen: jigsaw")
    assert t("Ben: undo")[0] == "Undone: Ben: jigsaw."
    assert t.state.active == "Ben" and t.total("Ann") == 15


def test_repeat_says_the_last_thing_the_host_said_whatever_it_was(table):
    t = table()
    t(f"Ann: jewelers\n{B}")
    scores = t("Cat: scores")
    assert t("Ben: repeat") == scores == ["Round 1 of 6. Scores: Ann 15; Ben 0; Cat 0."]
    sheet = t("Cat: sheet Ann")
    assert t("Ben: repeat") == sheet
    refused = t("Ann: jewelers")
    assert t("Ben: repeat") == refused == ["No cheapies: Ann already played jewelers."]
    help_ = t("Ben: help")
    assert t("Cat: repeat") == help_
    t("Ben: cowbell")
    undone = t("Ben: undo")
    assert undone[0] == "Undone: Ben: cowbell." and t("Cat: repeat") == undone


def test_a_question_just_after_a_word_is_answered_once_the_word_is_settled(table):
    t = table()
    said = t("Ann: jewelers\n[+0.1] Ben: words\n[+0.1] Cat: scores")
    assert said[0] == "Ann scores 15 points for jewelers."
    assert said[-2:] == ["Words played: jewelers by Ann.", "Round 1 of 6. Scores: Ann 15; Ben 0; Cat 0."]


def test_an_undo_just_after_anothers_word_asks_that_player_once_the_word_is_settled(table):
    t = table()
    said = t(f"Ann: jewelers\n{B}\nBen: cowbell\n[+0.1] Cat: undo")
    assert said[-3:] == ["Ben scores 13 points for cowbell.", "Ben, draw 2 tiles and tell me the letters.",
                         "Ben, Cat asks to undo your 'cowbell'. Say yes or no."]
    assert t("Ben: yes")[0] == "Undone: Ben: cowbell."


def test_repeat_in_the_tie_window_says_the_word_once_it_is_settled_not_what_came_before(table):
    t = table()
    said = t("Ann: jewelers\n[+0.1] Cat: repeat")
    scored = ["Ann scores 15 points for jewelers.", "Ann, draw 2 tiles and tell me the letters."]
    assert said == scored + scored


def test_repeat_after_a_question_in_the_tie_window_says_that_answer(table):
    t = table()
    said = t("Ann: jewelers\n[+0.1] Ben: words\n[+0.1] Cat: repeat")
    assert said[-2:] == ["Words played: jewelers by Ann.", "Words played: jewelers by Ann."]
    assert t("Cat: repeat") == ["Words played: jewelers by Ann."]


def test_repeat_while_the_host_waits_for_the_draw_says_the_last_answer_once(table):
    t = table()
    t("Ann: jewelers")
    assert t("Cat: repeat") == ["Ann scores 15 points for jewelers.", "Ann, draw 2 tiles and tell me the letters."]
    t("Cat: scores")
    assert t("Ben: repeat") == ["Round 1 of 6. Scores: Ann 15; Ben 0; Cat 0."]


def test_a_refusal_that_says_you_names_the_player_it_is_for(table):
    t = table()
    t("Ann: jewelers\n@draw M N")
    assert t("Ann: challenge Ann") == ["Ann, you can't challenge your own word."]
    assert t.total("Ann") == 15 and t.state.active == "Ben"


def test_a_draw_over_the_limits_says_how_many_tiles_to_set_aside(table):
    t = table()
    t("Ann: jewelers")
    assert t("@draw W W") == [
        "That would put 4 rare tiles on the board (W, W, W and J); the limit is 2. Set 2 aside and draw again."]
    assert t("@draw K Y")[-1].endswith("the limit is 2. Set 2 aside and draw again.")
    assert t("@draw K M")[-1].endswith("the limit is 2. Set one aside and draw again.")
    assert t.state.phase == "draw"


def test_a_board_of_the_wrong_size_says_how_many_tiles_it_needs(table):
    t = table(start=None, board=None)
    assert t("@board A B C")[:1] == ["A board has 8 tiles, not 3: give all 8, leftmost column first, top before bottom."]


def test_a_line_typed_at_the_hosts_terminal_beside_the_phones_is_played_as_typed(table):
    import io

    from support import wait_for

    from voice_host.assembly import typed_requests
    from voice_host.host.announce import Announcer
    from voice_host.phones import Phones

    t = table()
    answers = typed_requests(t.session, Phones(t.session.players), io.StringIO("Ann: jewelers\njewelers\n"))
    said: list[str] = []
    wait_for(lambda: said.extend(answers()) or len(said) >= 1, "the typed lines answered", 60)
    t.session.settle()
    assert t.heard[-2:] == ["Ann scores 15 points for jewelers.", "Ann, draw 2 tiles and tell me the letters."]
    assert said == [Announcer().phones_typed()] and t.total("Ann") == 15
    assert Announcer().phones_typed() == ("With phones, the players' words are heard; type a line with its player's "
                                          "name first, like 'Ann: jewelers', or 'new code' or 'free Ann's phone' to "
                                          "manage the phones.")


def test_an_empty_sheet_is_said_as_a_sentence(table):
    t = table("Ann,Ben", game="road", board=None)
    assert t("Ben: sheet") == ["Ben's sheet: nothing yet. Total 0."]
