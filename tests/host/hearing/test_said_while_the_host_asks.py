"""What is said while the host waits on a question about a word, and is not its answer,
is taken for what it is at once: a question is answered and the host asks again; a
play settles the question as the host would have unanswered and is scored in its turn;
the player asked about a word the host would ask for again who says a word says it.

What waits: an answer that is not theirs ("yes" from another player), and the next
player's word while the host would ask a player for a word it missed (that player
first, and the next player told so at once).
"""

from __future__ import annotations

import support

from voice_host.host.session import Session
from voice_host.messages import Said

said = support.said


def Unsure(start, text, alternatives=(), confidence=0.55, speaker="Ann", fit=0.0) -> support.Heard:
    """A constrained search's reading it is unsure of (``fit``: its best sentence's score)."""
    return support.Heard(start, text, speaker, confidence=confidence, constrained=True,
                         alternatives=[(a, fit - float(i)) for i, a in enumerate(alternatives)])


def Misheard(start, speaker="Ann") -> support.Heard:
    """A question ("Whose turn is it?") heard as a word that fits its sound badly."""
    return Unsure(start, "cheers", ["cheers", "chews"], speaker=speaker, fit=-2.15)


def plays(t) -> list[tuple[float, str, str]]:
    return [(r.t, r.speaker, r.text) for r in t.session.records if isinstance(r, Said)]


def test_the_player_asked_about_a_misheard_word_who_says_another_has_it_played_at_once(ear):
    """Loaded, Fay's "Whose turn is it?" was heard "thumbs" (fitting its sound badly) and
    asked about; her word that came next was held for the answer, the host asked her for
    "her word" and then left it out, and Kim's word waited 16 s. What the host would
    have asked her for is the word she went on to say: it is played at once."""
    t, hearing = ear
    assert said(t, hearing, Misheard(10)) == ["Did you say cheers or chews?"]
    out = said(t, hearing, support.Heard(12, "jawbones", "Ann"))
    assert out[0] == "Ann scores 17 points for jawbones."
    assert hearing.question is None and not any("missed your word" in x or "leave it out" in x for x in t.heard)
    assert plays(t) == [(10, "Ann", "jawbones")]  # at the time of her first try
    t("@board W B J S L C D G")
    out = said(t, hearing, support.Heard(20, "ben cowbells", "Ben"))
    assert out[0] == "Ben scores 16 points for cowbells."


def test_a_question_about_the_game_is_answered_at_once_and_the_host_asks_again(ear):
    t, hearing = ear
    said(t, hearing, Unsure(10, "cheers", ["cheers", "chews"]))
    out = said(t, hearing, support.Heard(11.5, "whose turn is it", "Ben"))
    # about the game as it will stand with Ann's word, as the host would take it unanswered
    assert out == ["Round 1: Ben's turn. Waiting for Ann to draw.", "Ann, did you say cheers or chews?"]
    assert hearing.question is not None and t.game.state.used == []
    out = said(t, hearing, support.Heard(13, "yes", "Ann"))
    assert out[0] == "Ann scores 5 points for cheers."
    assert plays(t)[-1] == (10, "Ann", "cheers")  # at the time of her first try


def test_a_question_answered_while_the_host_asks_changes_nothing_in_the_game_or_its_log(ear):
    """The score with Ann's word as the host would take it, said before she answers;
    the word is played at its time, and the log replays to the same game."""
    t, hearing = ear
    said(t, hearing, Unsure(10, "cheers", ["cheers", "chews"]))
    out = said(t, hearing, support.Heard(11.5, "what's the score", "Ben"))
    assert out[0].startswith("Round 1 of 6. Scores: Ann 5;") and t.game.state.used == []
    said(t, hearing, support.Heard(13, "chews", "Ann"))
    assert [(r.t, r.speaker, r.text) for r in t.session.records if isinstance(r, Said)] == [(10, "Ann", "chews")]
    replayed = Session(t.session.header, t.session.words, lambda line: None)
    replayed.replay(t.session.records)
    replayed.tick(t.session.t)
    assert replayed.game.state.used == t.game.state.used == [("chews", "Ann")]
    assert replayed.result() == t.session.result()


def test_repeat_while_the_host_asks_says_the_question_once(ear):
    t, hearing = ear
    said(t, hearing, Unsure(10, "cheers", ["cheers", "chews"]))
    assert said(t, hearing, support.Heard(11.5, "repeat", "Cat")) == ["Did you say cheers or chews?"]
    assert hearing.question is not None


def test_another_players_word_settles_the_question_as_the_host_would_and_is_scored_at_once(ear):
    """Ben goes on before Ann answers: the host takes its best guess of Ann's word, as it
    would have unanswered, and Ben's word is judged at once, after hers, in the order
    said (an interrupt of her turn)."""
    t, hearing = ear
    said(t, hearing, Unsure(10, "cheers", ["cheers", "chews"]))
    hearing.hear(support.Heard(11, "jawbones", "Ben"))
    assert t.heard[-4:-2] == ["I'll take cheers.", "Ann scores 5 points for cheers."]
    assert plays(t) == [(10, "Ann", "cheers"), (11, "Ben", "jawbones")]
    assert hearing.question is None


def test_a_new_word_from_the_player_asked_about_a_word_that_fits_is_their_next_play(ear):
    """A word the host would have taken unanswered is taken when its player goes on
    with another word, which is then their next play: an interrupt is never lost."""
    t, hearing = ear
    said(t, hearing, Unsure(10, "cheers", ["cheers", "chews"]))
    out = said(t, hearing, support.Heard(13, "cheerleaders", "Ann"))
    assert out[:2] == ["I'll take cheers.", "Ann scores 5 points for cheers."]
    assert plays(t) == [(10, "Ann", "cheers"), (13, "Ann", "cheerleaders")]


def test_a_yes_from_another_player_is_not_the_answer(ear):
    t, hearing = ear
    said(t, hearing, Unsure(10, "cheers", ["cheers", "chews"]))
    assert said(t, hearing, support.Heard(11, "yes", "Ben")) == []
    assert hearing.question is not None and t.game.state.used == []
    said(t, hearing, support.Heard(12, "chews", "Ann"))
    assert t.game.state.used == [("chews", "Ann")]


def test_the_next_players_word_while_a_player_is_asked_for_a_missed_word_is_told_to_wait(ear):
    """Asked for her word again, Ann is owed the first say: Ben hears at once that his
    word is kept, and it is scored after hers."""
    t, hearing = ear
    said(t, hearing, Misheard(10))
    hearing.tick(10 + hearing.settings.answer_within + 1)
    assert t.heard[-1] == "Ann, I missed your word. Say it again, or spell it."
    assert said(t, hearing, support.Heard(20, "cowbells", "Ben")) == ["One moment, Ben: Ann's word first."]
    out = said(t, hearing, support.Heard(21, "jawbones", "Ann"))
    assert out[0] == "Ann scores 17 points for jawbones."
    assert plays(t) == [(10, "Ann", "jawbones"), (20, "Ben", "cowbells")]


def test_a_question_nobody_is_known_to_have_asked_waits_and_keeps_the_question(ear):
    t, hearing = ear
    said(t, hearing, Unsure(10, "cheers", ["cheers", "chews"]))
    assert said(t, hearing, support.Heard(11, "whose turn is it", speaker=None)) == []
    assert hearing.question.options == ["cheers", "chews"]
    said(t, hearing, support.Heard(12, "yes", "Ann"))
    assert plays(t) == [(10, "Ann", "cheers")] and t.heard[-1] == "Who said whose turn is it?"
