"""A word the host took wrong is put right by its player: "No" and the word, its
spelling, or "That was me" for a word scored to another player; only by its player,
and only while it can be (just after it was taken, or while the player is asked
about it).
"""

from __future__ import annotations

import pytest
import support

from voice_host.host.hearing import Hearing, HearingSettings
from voice_host.host.session import Session
from voice_host.messages import Directive, Said

Unsure = support.unsure
spoke = support.spoke


said = support.said


def test_a_word_taken_wrong_is_put_right_by_its_player(ear):
    t, hearing = ear
    assert said(t, hearing, support.Heard(10, "percents", "Ann"))[0] == "Ann scores 5 points for percents."
    assert said(t, hearing, support.Heard(12, "no persons", "Ann")) == [
        "Sorry, Ann: persons, not percents.", "Ann scores 3 points for persons.",
        "Ann, draw 2 tiles and tell me the letters."]
    assert t.game.state.used == [("persons", "Ann")]
    t("@board W B J S L C D G")
    said(t, hearing, support.Heard(20, "towers", "Ben"))
    out = said(t, hearing, support.Heard(22, "i said tango oscar uniform romeo sierra", "Ben"))  # spelled
    assert out[:2] == ["Sorry, Ben: tours, not towers.", "Ben scores 3 points for tours."]
    assert t.game.state.used == [("persons", "Ann"), ("tours", "Ben")]
    assert [text for _, text in inputs(t)][-3:] == ["towers", "@undo", "tours"]  # logged


def test_no_and_the_word_heard_the_same_again_takes_the_other_reading_the_recognizer_weighed(ear):
    """A player who says "No, persons" is telling the host the word it took is wrong,
    even when the recognizer hears "percents" again: a scorekeeper then takes the other
    reading they half heard, if it sounds near, rather than refusing the sentence."""
    t, hearing = ear
    said(t, hearing, support.Heard(10, "percents", "Ann"))
    again = Unsure(12, "no percents", ["no percents", "no persons", "no cowbells"], confidence=0.7)
    assert said(t, hearing, again)[:2] == ["Sorry, Ann: persons, not percents.", "Ann scores 3 points for persons."]
    assert t.game.state.used == [("persons", "Ann")]
    assert [text for _, text in inputs(t)] == ["percents", "@undo", "persons"]


def test_no_and_the_word_heard_the_same_with_nothing_else_near_asks_for_the_spelling(ear):
    t, hearing = ear
    said(t, hearing, support.Heard(10, "percents", "Ann"))
    again = Unsure(12, "no percents", ["no percents", "no cowbells"], confidence=0.7)
    assert said(t, hearing, again) == ["Sorry, Ann, I hear percents again. Spell it for me, please."]
    assert t.game.state.used == [("percents", "Ann")] and [text for _, text in inputs(t)] == ["percents"]
    out = said(t, hearing, support.Heard(19, "papa echo romeo sierra oscar november sierra", "Ann"))  # 7 s on
    assert out[:2] == ["Sorry, Ann: persons, not percents.", "Ann scores 3 points for persons."]
    assert t.game.state.used == [("persons", "Ann")]


def test_no_and_a_word_unlike_the_word_taken_is_not_caught_and_its_spelling_puts_it_right(bagged):
    """Cat's weak "accuses", said just after her interrupt was taken, was heard "no
    causes": "No, " and a word nothing like the word taken is no correction, though it
    makes no word joined. The host says it caught no word, and a player who meant one
    spells it (Dee's "No, hubs" after "adds"): the host waits for the spelling as long
    as it would have from the word taken (a player's new word spelled then puts their
    last one right: a known limit)."""
    t, hearing = bagged
    said(t, hearing, support.Heard(10, "towers", "Ann"))
    assert said(t, hearing, support.Heard(12, "no jawbones", "Ann")) == [
        "I didn't catch a word in 'no jawbones'. Say just the word, or 'play' and the word."]
    assert t.game.state.used == [("towers", "Ann")]
    out = said(t, hearing, support.Heard(19, "juliet alpha whiskey bravo oscar november echo sierra", "Ann"))
    assert out[0] == "Sorry, Ann: jawbones, not towers." and t.game.state.used == [("jawbones", "Ann")]


def test_the_word_a_player_said_no_to_is_never_offered_again(ear):
    """Cat's "No, consequence" after "consequences" was heard unsure: the host asked
    "Did you say consecrates or consequences?"-like questions with the very word she had
    just refused among the readings, and took it back when her answer was misheard."""
    t, hearing = ear
    said(t, hearing, support.Heard(10, "percents", "Ann"))
    out = said(t, hearing, Unsure(12, "no persons", ["no persons", "no percents", "no person"], confidence=0.6))
    assert out[:2] == ["Sorry, Ann: persons, not percents.", "Ann scores 3 points for persons."]
    assert t.game.state.used == [("persons", "Ann")]


def test_an_answer_heard_as_the_word_its_player_said_no_to_asks_for_the_spelling(ear):
    t, hearing = ear
    said(t, hearing, support.Heard(10, "percents", "Ann"))
    out = said(t, hearing, Unsure(12, "no persons", ["no persons", "no percents", "no percent"], confidence=0.6))
    assert out == ["Sorry, Ann: persons, not percents.", "Did you say persons or percent?"]
    out = said(t, hearing, Unsure(14, "percents", ["percents", "persons"], confidence=0.84))
    assert out == ["Sorry, Ann, I hear percents again. Spell it for me, please."]
    assert t.game.state.used == []
    out = said(t, hearing, support.Heard(18, "papa echo romeo sierra oscar november sierra", "Ann"))
    assert out[0] == "Ann scores 3 points for persons." and t.game.state.used == [("persons", "Ann")]


def test_a_word_can_be_put_right_once_the_host_has_finished_talking(table):
    """Live, Dee waited for the host to finish its score, the draw and the board (about
    ten seconds) before her "No, prescribe", and the eight seconds to put her word right
    had run out while the host talked. They count the table's time, not the host's."""
    for voice, put_right in ((spoke((10.5, 22.0)), True), (None, False)):  # no voice: all the time is the table's
        t = table()
        hearing = Hearing(t.session, t.session.words, HearingSettings(), host_speech=voice)
        said(t, hearing, support.Heard(10, "percents", "Ann"))
        out = said(t, hearing, support.Heard(24, "no persons", "Ann"))
        assert (out[0] == "Sorry, Ann: persons, not percents.") is put_right, out


def test_no_and_the_word_taken_from_another_player_is_not_theirs_to_put_right(ear):
    t, hearing = ear
    said(t, hearing, support.Heard(10, "percents", "Ann"))
    out = said(t, hearing, Unsure(12, "no percents", ["no percents", "no persons"], confidence=0.7, speaker="Ben"))
    assert not any(x.startswith("Sorry") for x in out) and t.game.state.used == [("percents", "Ann")]


def test_a_spelling_alone_just_after_a_players_word_puts_it_right(ear):
    """A fast CPU heard Ann's "characters" surely as "captures" and scored it; her
    spelling, said at once, became an interrupt ("Ann interrupts Ben with characters").
    A player spells only to be understood: the spelling puts her word right. Her own
    word spelled is nothing to put right, and another player's spelling is their play."""
    t, hearing = ear
    said(t, hearing, support.Heard(10, "towers", "Ann"))
    out = said(t, hearing, support.Heard(12, "tango oscar uniform romeo sierra", "Ann"))
    assert out[:2] == ["Sorry, Ann: tours, not towers.", "Ann scores 3 points for tours."]
    assert t.game.state.used == [("tours", "Ann")]
    t("@board W B J S L C D G")
    said(t, hearing, support.Heard(20, "jawbones", "Ben"))
    out = said(t, hearing, support.Heard(22, "j a w b o n e s", "Ben"))
    assert not any(x.startswith("Sorry") for x in out) and t.game.state.used[-1] == ("jawbones", "Ben")


def test_typed_letters_after_a_typed_word_put_nothing_right(ear):
    """Putting a word right by spelling it is a courtesy for a host that mishears: a
    typed line is taken as typed (docs/RULINGS.md 75)."""
    t, _ = ear
    t("Ann: towers")
    assert t("Ann: t o u r s") == [
        "I didn't catch a word in 't o u r s'. Say just the word, or 'play' and the word."]
    assert t.game.state.used == [("towers", "Ann")] and t.game.totals("Ann")[0] == 8


def test_only_its_player_and_only_at_once_can_put_a_word_right(ear):
    t, hearing = ear
    said(t, hearing, support.Heard(10, "percents", "Ann"))
    said(t, hearing, support.Heard(11.5, "no persons", "Ben"))  # not Ben's word
    said(t, hearing, support.Heard(30, "no persons", "Ann"))    # too late: the game went on
    assert t.game.state.used[0] == ("percents", "Ann") and not any(x.startswith("Sorry") for x in t.heard)


def test_a_new_word_that_begins_with_no_is_not_a_correction(bagged):
    t, hearing = bagged
    said(t, hearing, support.Heard(10, "jewelers", "Ann"))
    out = said(t, hearing, support.Heard(12, "no body", "Ann"))  # "nobody", heard in two: nothing like jewelers
    assert not any(x.startswith("Sorry") for x in out) and t.game.state.used[0] == ("jewelers", "Ann")


def inputs(t) -> list[tuple[float, str]]:
    """What the log holds of the words said and the host's own undos ("@undo"), with their times."""
    return [(r.t, r.text if isinstance(r, Said) else "@undo") for r in t.session.records
            if isinstance(r, Said) or (isinstance(r, Directive) and r.name == "undo")]


@pytest.fixture
def bagged(table):
    """The host's own bag: no tiles to report between the words."""
    t = table(board=None)
    return t, Hearing(t.session, t.session.words, HearingSettings())


def test_a_word_is_put_right_after_the_next_players_word(bagged):
    t, hearing = bagged
    said(t, hearing, support.Heard(10, "percents", "Ann"))
    assert said(t, hearing, support.Heard(13, "cowbells", "Ben"))[0] == "Ben scores 4 points for cowbells."
    out = said(t, hearing, support.Heard(15, "no persons", "Ann"))
    assert out == ["Sorry, Ann: persons, not percents.", "Ann scores 1 point for persons.", "Ann draws R and L.",
                   "Board. 4 points: R, L; 3 points: G, X+2; 2 points: D, M; 1 point: G, T.", "Round 1: Ben's turn.",
                   "Ben scores 4 points for cowbells.", "Ben draws F and W.",
                   "Board. 4 points: F, W+1; 3 points: R, L; 2 points: G, X+2; 1 point: D, M.", "Round 1: Cat's turn."]
    assert t.game.state.used == [("persons", "Ann"), ("cowbells", "Ben")]
    assert inputs(t) == [
        (10, "percents"), (13, "cowbells"), (15, "@undo"), (15, "@undo"), (10, "persons"), (13, "cowbells")]
    resumed = Session(t.session.header, t.session.words, lambda line: None)
    resumed.replay(t.session.records)  # the log replays to the same game
    assert resumed.game.state.used == t.game.state.used and resumed.result() == t.session.result()


def test_both_words_played_again_after_a_correction_can_still_be_put_right(bagged):
    """The correction plays Ann's word and Ben's after it again: each stays its player's
    to put right, as when first played."""
    t, hearing = bagged
    said(t, hearing, support.Heard(10, "percents", "Ann"))
    said(t, hearing, support.Heard(13, "cowbells", "Ben"))
    said(t, hearing, support.Heard(15, "no persons", "Ann"))
    out = said(t, hearing, support.Heard(16, "no p e r c e n t s", "Ann"))
    assert out[:2] == ["Sorry, Ann: percents, not persons.", "Ann scores 3 points for percents."]
    assert t.game.state.used == [("percents", "Ann"), ("cowbells", "Ben")]


def test_a_word_is_put_right_while_the_next_players_word_is_asked_about(bagged):
    t, hearing = bagged
    assert said(t, hearing, support.Heard(10, "percents", "Ann"))[0] == "Ann scores 3 points for percents."
    far_from_sure = Unsure(13, "cheers", ["cheers", "chews"], confidence=0.3, speaker="Ben")
    assert said(t, hearing, far_from_sure) == ["Did you say cheers?"]  # chews scores nothing on this board
    out = said(t, hearing, support.Heard(15, "no persons", "Ann"))  # Ann, while Ben is asked
    assert out[:2] == ["Sorry, Ann: persons, not percents.", "Ann scores 1 point for persons."]
    assert out[-1] == "Round 1: Ben's turn." and hearing.question.speaker == "Ben"  # still waiting on Ben
    assert said(t, hearing, support.Heard(17, "yes", "Ben"))[0] == "Ben scores 4 points for cheers."
    assert t.game.state.used == [("persons", "Ann"), ("cheers", "Ben")]
    assert inputs(t) == [
        (10, "percents"), (15, "@undo"), (10, "persons"), (13, "cheers")]  # each word at the time it was said


def test_a_spelled_answer_answers_the_question_not_the_players_word_before(bagged):
    """Live, Eli's word was taken, then his interrupt asked about ("Did you say breaking
    or break?"); his spelled answer put right the word before it instead ("Sorry, Eli:
    braking, not remembering"). An answer is the word asked about, never a correction."""
    t, hearing = bagged
    said(t, hearing, support.Heard(10, "percents", "Ann"))
    asked = said(t, hearing, Unsure(12, "open", ["open", "nothing"]))
    assert asked[-1].startswith("Did you say open"), asked
    out = said(t, hearing, support.Heard(14, "tango oscar uniform romeo sierra", "Ann"))
    assert not any(x.startswith("Sorry") for x in out), out
    assert [w for w, _ in t.game.state.used] == ["percents", "tours"] and hearing.question is None


def test_a_word_settled_by_an_answer_can_be_put_right_after_the_answer(bagged):
    """The eight seconds to put a word right run from when the host took it (after the
    answer), not from the first try, whose time the record keeps."""
    t, hearing = bagged
    said(t, hearing, Unsure(10, "open", ["open", "nothing"]))
    out = said(t, hearing, support.Heard(16, "charlie oscar hotel oscar", "Ann"))  # spelled, heard a word short
    assert out[0] == "Ann scores 0 points for coho."  # board G X+2 | D M | G T | S T: no C, O or H
    assert [r.t for r in t.session.records if getattr(r, "text", None) == "coho"] == [10]
    out = said(t, hearing, support.Heard(21, "no charlie oscar papa india november golf", "Ann"))  # 11 s after the try
    assert out[:2] == ["Sorry, Ann: coping, not coho.", "Ann scores 4 points for coping."]  # the G in column 4
    assert t.game.state.used == [("coping", "Ann")]


def test_no_and_a_word_can_be_heard_only_while_a_word_can_be_put_right(ear):
    """"Unaffected" was heard "no infected", "modules" "no jewels": a word that sounds
    like "no" and a word is that word, unless the player has a word to put right (one
    just taken, or one asked about)."""
    t, hearing = ear
    assert "no infected" not in hearing.sayable() and "unaffected" in hearing.sayable()
    said(t, hearing, support.Heard(10, "jawbones", "Ann"))  # taken: Ann may put it right
    assert "no jawbone" in hearing.sayable()
    hearing.tick(10 + hearing.settings.answer_within + 2)
    assert "no jawbone" not in hearing.sayable()
    t("@draw M N")
    said(t, hearing, Unsure(30, "cheers", ["cheers", "chews"], speaker="Ben"))  # asked: "no, tours" answers it
    assert "no tours" in hearing.sayable()


@pytest.mark.parametrize("claim, by", [("that was me", "Ann"), ("no that was ann", "Cat"), ("it was ann's", "Ben")])
def test_a_word_scored_to_the_wrong_player_is_moved_when_its_player_is_named(ear, claim, by):
    """The host heard Ann's word in Ben's voice and scored it as his interrupt: "That was
    me", or another player naming Ann, just after, moves it to her sheet as her play."""
    t, hearing = ear
    assert claim in hearing.sayable()  # a constrained recognizer may hear it
    assert said(t, hearing, support.Heard(10, "jawbones", "Ben"))[0].startswith("Ben interrupts Ann with jawbones")
    out = said(t, hearing, support.Heard(12, claim, by))
    assert out[:2] == ["Sorry, Ann: jawbones was yours, not Ben's.", "Ann scores 17 points for jawbones."]
    assert t.game.state.used == [("jawbones", "Ann")] and t.game.totals("Ben")[0] == 0
    assert [text for _, text in inputs(t)] == ["jawbones", "@undo", "jawbones"]  # logged: a replay does the same
    assert [(r.t, r.speaker) for r in t.session.records if isinstance(r, Said)][-1] == (10, "Ann")


def test_that_was_me_moves_nothing_late_or_from_the_player_who_has_the_word(ear):
    t, hearing = ear
    said(t, hearing, support.Heard(10, "jawbones", "Ben"))
    assert not any(x.startswith("Sorry") for x in said(t, hearing, support.Heard(12, "that was me", "Ben")))
    late = 10 + hearing.settings.answer_within + 2
    assert not any(x.startswith("Sorry") for x in said(t, hearing, support.Heard(late, "that was me", "Ann")))
    assert t.game.state.used == [("jawbones", "Ben")]


def test_that_was_me_after_two_words_of_others_moves_neither(ear):
    """Held-out answering table: Dee's "That was mine", about the word scored to Eli, came
    after Eli's own next word and moved that one. Two words of others that could both be
    meant: the host moves neither."""
    t, hearing = ear
    said(t, hearing, support.Heard(10, "jawbones", "Ben"))
    t("@draw M N")
    said(t, hearing, support.Heard(12, "cowbells", "Cat"))
    before = list(t.game.state.used)
    assert [p for _, p in before] == ["Ben", "Cat"]
    assert not any(x.startswith("Sorry") for x in said(t, hearing, support.Heard(14, "that was me", "Ann")))
    assert t.game.state.used == before


def test_help_by_voice_says_how_to_put_a_word_or_its_player_right(ear, table):
    t, hearing = ear
    out = " ".join(said(t, hearing, support.Heard(10, "help", "Ann")))
    line = "If I take your word wrong, say 'no' and the word, or spell it; if I give it to someone else, say 'that was me'."
    assert line in out
    assert line not in " ".join(table()("Ann: help"))  # typed lines are never misheard


def test_a_spelling_heard_unsurely_puts_no_word_right(ear):
    """Live, with the host's voice heard back: a spelling said over the host, heard
    "r o m e o" at 0%, replaced Eli's word just taken ("Sorry, Eli: romeo, not
    problem."): a spelling was taken as sure however unsure the recognizer was of it."""
    t, hearing = ear
    said(t, hearing, support.Heard(10, "jewelers", "Ann"))
    out = said(t, hearing, support.Heard(12, "r o m e o", "Ann", confidence=0.0, constrained=True,
                                 alternatives=[("r o m e o", -12.0)]))
    assert not any(line.startswith("Sorry, Ann") for line in out), out
    assert t.game.state.used == [("jewelers", "Ann")]
