"""A word the recognizer was unsure of is confirmed before
it is played, with the words it weighed, and the player can answer with the right one,
say it again, or spell it.

The utterances are what the speech layer emits for a constrained recognizer
(``constrained=True``, ``confidence`` the calibrated chance its best sentence is right, ``alternatives``
its n-best); tests/speech has the same on real audio.
"""

from __future__ import annotations

import pytest
import support

from voice_host.host.hearing import Hearing, HearingSettings
from voice_host.messages import Said

Unsure = support.unsure
spoke = support.spoke


said = support.said


def test_an_unsure_word_is_confirmed_with_the_words_the_recognizer_weighed(ear):
    t, hearing = ear
    # the runner-up "ann tours" is the same player's other reading: the option is the word
    assert said(t, hearing, Unsure(10, "cheers", ["cheers", "ann tours", "challenge ben", "cheer"])) == [
        "Did you say cheers or tours?"]
    assert hearing.question.options == ["cheers", "tours"]  # no commands; "cheer", 3 nats below, not offered
    assert t.game.state.used == []  # nothing is played yet
    out = said(t, hearing, support.Heard(12, "tours", "Ann"))
    assert out[0].startswith("Ann scores") and out[0].endswith("for tours.")
    assert [r.t for r in t.session.records if getattr(r, "text", None) == "tours"] == [10]  # at the first try


def test_a_sure_word_or_free_text_is_not_asked_about(ear):
    t, hearing = ear
    out = said(t, hearing, Unsure(10, "jawbones", ["jawbones", "jawbone"], confidence=0.99))
    assert out[0] == "Ann scores 17 points for jawbones."
    t("@board W B J S L C D G")
    out = said(t, hearing, support.Heard(20, "cowbells", "Ben", confidence=0.3))  # not constrained: the matcher decides
    assert out[0] == "Ben scores 16 points for cowbells."


def test_a_doubt_between_words_that_score_the_same_is_taken_and_said_in_the_score(ear):
    """A scorekeeper torn between two words worth the same takes the likelier and says
    it in the score; the player who said the other puts it right with "No, ..."."""
    t, hearing = ear
    assert t.game.word_value("cheers") == t.game.word_value("chairs")
    assert said(t, hearing, Unsure(10, "cheers", ["cheers", "chairs"]))[0] == "Ann scores 5 points for cheers."
    assert hearing.question is None and t.game.state.used == [("cheers", "Ann")]
    out = said(t, hearing, support.Heard(12, "no chairs", "Ann"))
    assert out[:2] == ["Sorry, Ann: chairs, not cheers.", "Ann scores 5 points for chairs."]
    assert t.game.state.used == [("chairs", "Ann")]


def test_a_doubt_whose_other_readings_are_far_below_the_best_is_taken(ear):
    t, hearing = ear
    far = support.Heard(10, "jawbones", "Ann", confidence=0.7, constrained=True,
                        alternatives=[("jawbones", 5.0), ("cowbell", 2.9), ("jawbone", 1.0)])
    assert said(t, hearing, far)[0] == "Ann scores 17 points for jawbones."
    assert hearing.question is None


def test_a_doubt_between_near_readings_that_score_differently_is_asked(ear):
    t, hearing = ear
    near = support.Heard(10, "jawbones", "Ann", confidence=0.7, constrained=True,
                         alternatives=[("jawbones", 5.0), ("cowbell", 3.1)])
    assert said(t, hearing, near) == ["Did you say jawbones or cowbell?"]


def test_a_word_the_recognizer_is_far_from_sure_of_is_asked_about_even_alone(ear):
    t, hearing = ear
    unsure = support.Heard(10, "jawbones", "Ann", confidence=0.3, constrained=True,
                           alternatives=[("jawbones", 5.0), ("jawbone", 1.0), ("cowbell", 0.5)])
    assert said(t, hearing, unsure) == ["Did you say jawbones?"]  # readings far below are not offered
    assert hearing.question.options == ["jawbones"]


@pytest.mark.parametrize("answer", [
    "tango oscar uniform romeo sierra",   # the spelling alphabet
    "no t o u r s",                       # "no" and the letters
    "tours",                              # the word again, not among the options
])
def test_the_player_asked_can_say_it_again_or_spell_it(ear, answer):
    t, hearing = ear
    assert said(t, hearing, Unsure(10, "cheers", ["cheers", "chews"])) == ["Did you say cheers or chews?"]
    out = said(t, hearing, support.Heard(13, answer, "Ann"))
    assert out[0].startswith("Ann scores") and out[0].endswith("for tours."), out
    assert t.game.state.used == [("tours", "Ann")] and hearing.question is None


def test_a_word_spelled_in_the_alphabet_is_taken_though_a_commoner_word_is_near_it(ear):
    """Heard live: Eli's "braking", asked as "breaking or break?", spelled in the
    spelling alphabet, was taken for chatter ("braking" is near the commoner "breaking",
    so the matcher is less than sure of it) and "breaking" was scored. A spelling names
    every letter: it is the word spelled, however near another word it is."""
    t, hearing = ear
    assert said(t, hearing, Unsure(10, "breaking", ["breaking", "break"]))[0].startswith("Did you say breaking")
    out = said(t, hearing, support.Heard(13, "bravo romeo alpha kilo india november golf", "Ann"))
    assert out[0].startswith("Ann scores") and out[0].endswith("for braking."), out
    assert t.game.state.used == [("braking", "Ann")] and hearing.question is None


@pytest.mark.parametrize("answer, word", [("the second", "chews"), ("the other one", "chews"),
                                          ("the first one", "cheers"), ("first", "cheers")])
def test_the_player_asked_can_name_the_option_by_its_place(ear, answer, word):
    t, hearing = ear
    assert said(t, hearing, Unsure(10, "cheers", ["cheers", "chews"])) == ["Did you say cheers or chews?"]
    assert answer in hearing.sayable()  # a constrained recognizer may hear it now
    out = said(t, hearing, support.Heard(13, answer, "Ann"))
    assert out[0].startswith("Ann scores") and out[0].endswith(f"for {word}."), out
    assert t.game.state.used == [(word, "Ann")] and hearing.question is None


def test_an_ordinal_is_only_an_answer_while_a_word_is_asked_about(ear):
    t, hearing = ear
    assert "the second" not in hearing.sayable()
    out = said(t, hearing, support.Heard(10, "second", "Ann"))
    assert out[0] == "Ann scores 6 points for second."  # nobody asked: a play (S 3, C 2, D 1)


def test_a_word_said_again_and_still_unsure_is_asked_about_again(ear):
    t, hearing = ear
    said(t, hearing, Unsure(10, "cheers", ["cheers", "chews"]))
    assert said(t, hearing, Unsure(13, "tours", ["tours", "towers"], speaker="Ann")) == ["Did you say tours or towers?"]
    out = said(t, hearing, support.Heard(15, "yes", "Ann"))
    assert out[0].endswith("for tours.") and t.game.state.used == [("tours", "Ann")]


def test_another_players_word_is_not_an_answer(ear):
    """Ben's next word settles the question as the host would have unanswered (its best
    guess), at once, and is Ben's own play."""
    t, hearing = ear
    said(t, hearing, Unsure(10, "cheers", ["cheers", "chews"]))
    assert said(t, hearing, support.Heard(12.5, "cowbells", "Ben")) == [
        "I'll take cheers.", "Ann scores 5 points for cheers.", "Ann, draw 2 tiles and tell me the letters.",
        "Wait until Ann has drawn the new tiles."]  # Ben's word: his own play
    assert [(r.t, r.speaker, r.text) for r in t.session.records if hasattr(r, "text")] == [
        (10, "Ann", "cheers"), (12.5, "Ben", "cowbells")]


def test_a_new_word_from_the_player_asked_is_not_the_word_again(ear):
    """The player asked goes on playing. "cheerleaders" shares letters with "cheers" but
    sounds otherwise: it is not the word said again; the question is settled first, as
    unanswered (no word moved), and it is her next play."""
    t, hearing = ear
    said(t, hearing, Unsure(10, "cheers", ["cheers", "chews"]))
    out = said(t, hearing, support.Heard(13, "cheerleaders", "Ann"))
    assert out[:2] == ["I'll take cheers.", "Ann scores 5 points for cheers."]
    assert [(r.t, r.speaker, r.text) for r in t.session.records if hasattr(r, "text")] == [
        (10, "Ann", "cheers"), (13, "Ann", "cheerleaders")]


def test_a_question_waits_for_its_answer_once_the_host_has_finished_asking(table):
    t = table()
    hearing = Hearing(t.session, t.session.words, HearingSettings(),
                      host_speech=spoke((10.8, 16.0)))  # the question, after the word
    assert said(t, hearing, Unsure(10, "cheers", ["cheers", "chews"])) == ["Did you say cheers or chews?"]
    hearing.tick(19)
    assert hearing.question is not None
    hearing.tick(10.8 + 5.5 + hearing.settings.answer_within)
    assert hearing.question is None and "I'll take cheers." in t.heard


def test_spellings_that_score_the_same_are_one_word_not_a_question(ear):
    t, hearing = ear  # one L on the board: jewellers scores what jewelers scores
    out = said(t, hearing, Unsure(10, "jewelers", ["jewelers", "jewellers"]))
    assert out[-1] != "Did you say jewelers or jewellers?" and t.game.state.used == [("jewelers", "Ann")]
    t("@draw M N")
    out = said(t, hearing, Unsure(20, "cheers", ["cheers", "chews"], speaker="Ben"))
    assert out == ["Did you say cheers or chews?"]  # a real doubt is still asked


def test_a_table_that_goes_on_while_a_word_is_asked_about_comes_out_as_typed(table):
    """In a recording nobody answers: Ann is asked about her word; Ben
    plays, Ann interrupts Cat with a new word, Cat plays. Ben going on settles the
    question as the host would have; every word is judged in order, at its moment, on its
    player's sheet: the game is the one a table sure of every word would have."""
    plays = [(10, "Ann", "cheers"), (12.5, "Ben", "cowbells"), (14, "Ann", "jawbones"), (16, "Cat", "window")]
    sure, asked = table(board=None), table(board=None)
    sure_ear = Hearing(sure.session, sure.session.words, HearingSettings())
    ear = Hearing(asked.session, asked.session.words, HearingSettings())
    for at, who, word in plays:
        sure_ear.hear(support.Heard(at, word, who))
        ear.hear(Unsure(at, word, [word, "chews"], 0.3) if at == 10 else support.Heard(at, word, who))
    assert ear.question is None  # settled as the host would have once Ben went on
    for h in (sure_ear, ear):
        h.tick(30)
        h.finish()
    asking = ["Did you say cheers or chews?", "I'll take cheers."]
    assert [x for x in asked.heard if x not in asking] == sure.heard
    assert asked.game.state.used == sure.game.state.used == [(w, p) for _, p, w in plays]
    assert asked.session.result() == sure.session.result()


def test_an_unanswered_question_between_forms_of_one_word_takes_the_higher_scoring(ear):
    """Held-out table, nobody answering: "Did you say amendment or
    amendments?", then "I'll take amendment.", when the S on the board made the plural
    the play a player would have meant (4 of 11 words missed clean were such)."""
    t, hearing = ear
    value = t.game.word_value
    assert value("jawbones") > value("jawbone")
    assert said(t, hearing, Unsure(10, "jawbone", ["jawbone", "jawbones"])) == ["Did you say jawbone or jawbones?"]
    hearing.tick(19)
    assert t.heard[-3:-1] == ["I'll take jawbones.", "Ann scores 17 points for jawbones."]
    # words that are not forms of one another keep the recognizer's order, whatever they score
    t("@board W B J S L C D G")
    assert value("cowbells") > value("cowbell") and value("jawbones") is not None
    assert said(t, hearing, Unsure(20, "cowbell", ["cowbell", "jawbones", "cowbells"], speaker="Ben")) == [
        "Did you say cowbell or cowbells?"]  # the word it would take is one of the two it asks about
    assert hearing.question.options == ["cowbell", "cowbells", "jawbones"]
    hearing.tick(29)
    assert t.heard[-3:-1] == ["I'll take cowbells.", "Ben scores 16 points for cowbells."]


def test_an_unanswered_question_keeps_a_word_heard_much_surer_than_its_higher_scoring_form(ear):
    """A table on a fast CPU: "kitchen" heard at 5.3 nats, "kitchener" 0.3, "kitchens"
    0.2, with an S on the board: "Did you say kitchen or kitchener?", then "I'll take
    kitchens." -- a word the host never asked about, and not the one said. A form that
    scores more is the guess only when heard nearly as surely ([speech] form_within)."""
    t, hearing = ear
    value = t.game.word_value
    assert value("jawbones") > value("jawbone")
    far = support.Heard(10, "jawbone", "Ann", confidence=0.3, constrained=True,
                        alternatives=[("jawbone", 5.3), ("jawbones", 0.2)])
    assert said(t, hearing, far) == ["Did you say jawbone?"]
    hearing.tick(19)
    assert t.heard[-3:-1] == ["I'll take jawbone.", "Ann scores 14 points for jawbone."]
    t("@board W B J S L C D G")
    near = support.Heard(20, "cowbell", "Ben", confidence=0.6, constrained=True,
                         alternatives=[("cowbell", 5.3), ("jawbones", 4.0), ("cowbells", 3.6)])
    assert said(t, hearing, near) == ["Did you say cowbell or cowbells?"]
    hearing.tick(29)
    assert t.heard[-3:-1] == ["I'll take cowbells.", "Ben scores 16 points for cowbells."]


def test_a_word_that_fits_the_sound_badly_is_asked_about_however_sure_the_margin(ear):
    """Held-out table: "Dee interrupts, prematurely" was heard "brie" at a margin of
    1.00 but a score of -2.15 (a sentence of the language forced onto a sound it does
    not fit), and brie went on Dee's sheet without a question. Unanswered, such a word
    is left out, not taken on a guess."""
    t, hearing = ear
    assert said(t, hearing, junk(10)) == ["Did you say jawbones?"]
    assert hearing.question.fits is False
    hearing.tick(10 + hearing.settings.answer_within + 1)  # not taken on a guess: asked for again
    assert t.heard[-1] == "Ann, I missed your word. Say it again, or spell it."
    assert t.game.state.used == [] and hearing.question.kind == "again"
    assert [r for r in t.session.records if isinstance(r, Said)] == []  # nothing logged: a replay plays nothing
    said(t, hearing, junk(21))  # said again, as badly: asked about
    assert said(t, hearing, support.Heard(23, "yes", "Ann"))[0] == "Ann scores 17 points for jawbones."  # confirmed


def test_a_word_that_fits_the_sound_and_is_sure_is_taken_at_once(ear):
    t, hearing = ear
    sure = support.Heard(10, "jawbones", "Ann", confidence=1.0, constrained=True,
                         alternatives=[("jawbones", 0.5), ("jawbone", -8.6)])
    assert said(t, hearing, sure)[0] == "Ann scores 17 points for jawbones."


def test_yes_among_the_words_weighed_is_not_the_word_a_yes_answers(ear):
    """Held-out answering table: "Did you say desperately or especially?" -- "Yes." put
    "yes" on Eli's sheet: the recognizer's third sentence was "yes", a dictionary word,
    so the answer matched an option."""
    t, hearing = ear
    assert said(t, hearing, Unsure(10, "cheers", ["cheers", "tours", "yes"])) == ["Did you say cheers or tours?"]
    assert "yes" not in hearing.question.options
    out = said(t, hearing, support.Heard(12, "yes", "Ann"))
    assert out[0].startswith("Ann scores") and out[0].endswith("for cheers.")


def test_an_offensive_reading_is_never_offered_though_a_player_may_play_one(ear):
    t, hearing = ear
    # the recognizer weighed "bitch" beside "pitch": the host asks about no vulgar word
    assert said(t, hearing, Unsure(10, "pitch", ["pitch", "bitch", "patch"], 0.3)) == ["Did you say pitch or patch?"]
    assert hearing.question.options == ["pitch", "patch"]
    out = said(t, hearing, support.Heard(20, "pitch", "Ann"))
    assert any(line.endswith("for pitch.") for line in out), out


def test_a_word_heard_unsure_whose_only_other_reading_is_offensive_is_never_asked_with_it(table):
    t = table()
    hearing = Hearing(t.session, t.session.words, HearingSettings())
    assert said(t, hearing, Unsure(10, "snack", ["snack", "snatch"], confidence=0.3)) == ["Did you say snack?"]
    assert hearing.question.options == ["snack"]
    t = table()
    hearing = Hearing(t.session, t.session.words, HearingSettings())
    assert said(t, hearing, Unsure(10, "snack", ["snack", "snatch"]))[0] == "Ann scores 5 points for snack."


def test_a_reading_that_scores_nothing_on_the_board_is_never_offered(table):
    for alternatives, confidence, asked in ((["cheers", "aa", "tours"], 0.55, "Did you say cheers or tours?"),
                                            (["cheers", "aa"], 0.3, "Did you say cheers?")):
        t = table()  # the jewelers board: no A tile, so "aa" scores nothing
        hearing = Hearing(t.session, t.session.words, HearingSettings())
        assert said(t, hearing, Unsure(10, "cheers", alternatives, confidence)) == [asked]
        assert any(line.endswith("for cheers.") for line in said(t, hearing, support.Heard(12, "yes", "Ann")))


def junk(start, speaker="Ann") -> support.Heard:
    """A sentence of the language forced onto a sound it does not fit (left out if unanswered)."""
    return support.Heard(start, "jawbones", speaker, confidence=1.0, constrained=True,
                         alternatives=[("jawbones", -2.15), ("jawbone", -8.6)])


def test_a_word_left_out_is_asked_for_again_by_name_and_the_next_word_waits_for_it(ear):
    """A person keeping score who missed a word asks its player for it before the game
    goes on: Ben's word, said at his usual time, waits (and Ben is told so), so it is
    not an interrupt of Ann's turn; Ann's word, said again, is played at the time of
    her first try."""
    t, hearing = ear
    said(t, hearing, junk(10))
    hearing.tick(10 + hearing.settings.answer_within + 1)
    assert t.heard[-1] == "Ann, I missed your word. Say it again, or spell it."
    assert hearing.question.kind == "again" and hearing.question.speaker == "Ann"
    assert said(t, hearing, support.Heard(20, "cowbells", "Ben")) == ["One moment, Ben: Ann's word first."]
    out = said(t, hearing, support.Heard(21, "jawbones", "Ann"))
    assert out[0] == "Ann scores 17 points for jawbones."
    assert [(r.t, r.speaker, r.text) for r in t.session.records if isinstance(r, Said)] == [
        (10, "Ann", "jawbones"), (20, "Ben", "cowbells")]
    assert "interrupt" not in " ".join(t.heard).lower()


def test_a_word_asked_for_again_and_still_missed_is_left_out_once(ear):
    t, hearing = ear
    said(t, hearing, junk(10))
    hearing.tick(19)
    assert hearing.question.kind == "again"
    said(t, hearing, junk(21))  # said again, fits no better: asked about, once
    assert t.heard[-1] == "Did you say jawbones?"
    hearing.tick(21 + hearing.settings.answer_within + 1)
    assert t.heard[-1] == "I'll leave it out, Ann." and hearing.question is None
    assert [r for r in t.session.records if isinstance(r, Said)] == [] and t.game.state.used == []


def test_a_word_asked_for_again_and_not_said_is_left_out_and_the_table_goes_on(ear):
    t, hearing = ear
    said(t, hearing, junk(10))
    hearing.tick(19)
    said(t, hearing, support.Heard(20, "cowbells", "Ben"))
    hearing.tick(19 + hearing.settings.answer_within + 1)
    i = t.heard.index("I'll leave it out, Ann.")  # Ann's turn goes on: Ben's word interrupts it
    assert t.heard[i + 1] == "Ben interrupts Ann with cowbells: 16, minus 2, scores 14."
    assert [(r.t, r.speaker, r.text) for r in t.session.records if isinstance(r, Said)] == [(20, "Ben", "cowbells")]


def test_no_to_did_you_say_asks_the_player_again_by_name(ear):
    t, hearing = ear
    said(t, hearing, Unsure(10, "cheers", ["cheers", "chews"]))
    assert said(t, hearing, support.Heard(12, "no", "Ann")) == ["Then say it again, Ann, or spell it."]
    assert said(t, hearing, support.Heard(13, "cowbells", "Ben")) == ["One moment, Ben: Ann's word first."]
    out = said(t, hearing, support.Heard(14, "tours", "Ann"))
    assert out[0].endswith("for tours.")
    assert [(r.t, r.text) for r in t.session.records if isinstance(r, Said)] == [(10, "tours"), (13, "cowbells")]


def test_a_game_stopped_while_a_question_waits_settles_it_whatever_the_clocks_rounding(ear):
    """At Ctrl-C the question's time is run out; asked at 5.9 s, 5.9 + 8 - 5.9 is a hair
    under 8 in floating point, and the host spun forever instead of stopping."""
    import threading

    t, hearing = ear
    assert said(t, hearing, Unsure(5.1, "cheers", ["cheers", "ann tours"])) == ["Did you say cheers or tours?"]
    stopping = threading.Thread(target=hearing.finish, kwargs={"windows": False}, daemon=True)
    stopping.start()
    stopping.join(60)
    assert not stopping.is_alive() and hearing.question is None
