"""The table's own questions are heard as questions on a real board, said alone or after
a player's name, where the board's words used to win: "Ann, whose turn is it?" was heard
spelled out ("m u s t"), "Ben, what's the score?" as "ben lapses"."""

from __future__ import annotations

import pytest
import numpy as np
from support import voice_host

from voice_host.host import intents
from voice_host.speech.audio import write_wav
from voice_host.speech.listening.attribution import split_name_prefix
from voice_host.speech.recognizing.sayable import Sayable
from voice_host.words.prior import SearchPrior

pytestmark = pytest.mark.model  # the default recognizer

BOARD = "M N G S N L J Z"
PLAYERS = ["Ann", "Ben", "Cat"]


def test_whose_turn_and_the_score_are_heard_as_those_questions_alone_and_after_a_name(tmp_path, say,
                                                                                        moonshine_ready):
    said = [("Whose turn is it?", "rms", "turn"), ("What's the score?", "kal", "scores"),
            ("Ann, whose turn is it?", "rms~p200", "turn"), ("Ben, what's the score?", "kal~p300", "scores")]
    paths = []
    for i, (text, voice, _) in enumerate(said):
        paths.append(tmp_path / f"{i}.wav")
        write_wav(paths[-1], say(text, voice))
    proc = voice_host("hear", "--board", BOARD, *map(str, paths))
    assert proc.returncode == 0, proc.stderr
    heard = [line.split("\t")[1] for line in proc.stdout.splitlines()]
    asked = [intents.parse(split_name_prefix(text, PLAYERS)[1], PLAYERS).kind for text in heard]
    assert asked == [kind for _, _, kind in said], heard


def _prior(sentences, bonus: dict[str, float], other: float, phrase: float):
    words = tuple(sorted(bonus))
    sayable = Sayable(tuple(sentences), words, ("ann",))
    prior = SearchPrior(np.array([bonus[w] for w in words], np.float32), other, phrase)
    return sayable.language().ahead(prior)


def test_a_question_whole_gets_the_phrase_bonus_and_a_phrase_that_is_a_word_the_larger():
    ahead = _prior(["whose turn is it", "scores", "help"], {"history": 4.0, "scores": 1.0, "help": 3.5},
                   other=2.0, phrase=4.0)
    assert ahead.sentence("whose turn is it") == 4.0
    assert ahead.sentence("ann whose turn is it") == 4.0
    assert ahead.sentence("scores") == 4.0          # the question beats the word's own bonus
    assert ahead.sentence("history") == 4.0
    assert _prior(["help"], {"help": 3.5}, other=2.0, phrase=3.0).sentence("help") == 3.5  # the word's, when more


def test_a_phrase_still_being_said_keeps_the_look_ahead_of_anything_else():
    ahead = _prior(["whose turn is it"], {"history": 4.0}, other=2.0, phrase=4.0)
    lang = ahead.lang
    assert ahead.states(lang.feed(lang.start, "whose t")) == 2.0  # words are not crowded out of the beam
    assert ahead.prior.top == 4.0
