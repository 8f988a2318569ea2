"""What the host does with a second ear's reading (speech.recognizing.moonshine.opinion):
when it asks about a word the ears differed on, it asks between what each heard, however
far the second reading is below the first; where they agree it asks nothing."""

from __future__ import annotations

import support

from voice_host.messages import Opinion


def heard(text, alternatives, confidence, opinion, speaker="Ann") -> support.Heard:
    return support.Heard(10, text, speaker, confidence=confidence, constrained=True,
                         alternatives=list(alternatives), opinion=opinion)


def test_ears_that_differ_are_asked_about_with_both_readings(ear):
    t, hearing = ear
    differed = Opinion("chairs", ("chairs",), False, 2.5, 0.9)  # 2.5 nats below: further than ask_within
    out = support.said(t, hearing, heard("cheers", [("cheers", 6.0), ("cheer", 5.0), ("chairs", 3.5)], 0.45,
                                         differed))
    assert out == ["Did you say cheers or chairs?"]
    assert hearing.question.options[:2] == ["cheers", "chairs"]
    assert t.game.state.used == []


def test_the_second_ears_reading_is_weighed_even_below_the_first_three(ear):
    t, hearing = ear
    differed = Opinion("chairs", ("chairs",), False, 2.5, 0.9)
    alternatives = [("cheers", 6.0), ("cheer", 5.5), ("tours", 5.2), ("tears", 5.1), ("chairs", 3.5)]
    support.said(t, hearing, heard("cheers", alternatives, 0.45, differed))
    assert "chairs" in hearing.question.options


def test_ears_that_agree_ask_nothing_and_score_the_word(ear):
    t, hearing = ear
    agreed = Opinion("cheers", ("cheers",), True, None, 0.4)
    out = support.said(t, hearing, heard("cheers", [("cheers", 6.0), ("chairs", 3.5)], 0.9, agreed))
    assert out[0] == "Ann scores 5 points for cheers."
    assert hearing.question is None
