"""The script format and what utterances mean."""

from __future__ import annotations

from voice_host.host.intents import parse
from voice_host.host.script import parse_script

PLAYERS = ["Ann", "Ben", "Cat"]


def test_script_times_prefixes_and_directives():
    records = parse_script(
        "# a comment\n"
        "@start Ann\n"
        "\n"
        "Ann: jewelers   # trailing comment\n"
        "[+0] Bob: bewitched\n"
        "[+2.5] Cat: challenge\n"
        "@wait 46\n"
        "Ann: timer\n"
        "@board W B J S L C D G\n"
        "nonsense line\n"
        "@wait\n"
    )
    assert [r.to_json() for r in records] == [
        {"line": 2, "t": 1.0, "directive": "start", "args": ["Ann"]},
        {"line": 4, "t": 2.0, "speaker": "Ann", "text": "jewelers"},
        {"line": 5, "t": 2.0, "speaker": "Bob", "text": "bewitched"},
        {"line": 6, "t": 4.5, "speaker": "Cat", "text": "challenge"},
        {"line": 7, "t": 50.5, "wait": 46.0},
        {"line": 8, "t": 51.5, "speaker": "Ann", "text": "timer"},
        {"line": 9, "t": 52.5, "directive": "board", "args": ["W", "B", "J", "S", "L", "C", "D", "G"]},
        {"line": 10, "t": 53.5, "error": "bad_line", "text": "nonsense line"},
        {"line": 11, "t": 54.5, "error": "bad_wait", "text": "@wait"},
    ]


def test_words_commands_and_chatter():
    cases = {
        "jewelers": ("word", "jewelers", None),
        "Jewelers!": ("word", "jewelers", None),
        "play board": ("word", "board", None),
        "my word is jewelers": ("word", "jewelers", None),
        "Bob interrupts jewelers": ("word", "jewelers", None),
        "interrupt with cowbell": ("word", "cowbell", None),
        "don't": ("word", "don't", None),
        "challenge": ("challenge", None, None),
        "I challenge": ("challenge", None, None),
        "challenge ben": ("challenge", None, "Ben"),
        "challenge Ben's word": ("challenge", None, "Ben"),
        "timer": ("flip", None, None),
        "flip the timer": ("flip", None, None),
        "board": ("board", None, None),
        "what's on the board?": ("board", None, None),
        "scores": ("scores", None, None),
        "whose turn is it": ("turn", None, None),
        "words": ("words", None, None),
        "sheet cat": ("sheet", None, "Cat"),
        "Cat's sheet": ("sheet", None, "Cat"),
        "repeat": ("repeat", None, None),
        "undo": ("undo", None, None),
        "help": ("help", None, None),
        "yes": ("yes", None, None),
        "no": ("no", None, None),
        "that was a good one": ("unclear", None, None),
        "": ("unclear", None, None),
    }
    for text, (kind, word, target) in cases.items():
        intent = parse(text, PLAYERS)
        assert (intent.kind, intent.word, intent.target) == (kind, word, target), text


def test_an_answer_that_is_also_a_word_is_a_play_when_nobody_asked(table):
    """docs/RULINGS.md: "right", "correct", "wrong" are plays unless a yes or no
    question is open; "yes" and "no" are only ever answers."""
    t = table()
    assert t("Ann: yes") == ["Nobody asked a yes or no question."]
    assert t.game.state.used == []
    out = t("Ann: Right.")  # W+1 B | J+2 S | L C | D G: only the G, in the 1-point column
    assert out[0] == "Ann scores 1 point for right."
    assert t.game.state.used == [("right", "Ann")]


def test_an_answer_that_is_also_a_word_answers_an_open_vote(table):
    t = table(players="Ann,Ben,Cat,Dan", challenge_vote=True)
    t("Ann: jewelers\nBen: challenge")
    assert t.game.state.vote is not None
    out = t("Cat: right")  # Cat votes yes: she knows the word, and one yes of two decides
    assert t.game.state.vote is None and t.game.state.used == [("jewelers", "Ann")], out
    assert "right" not in " ".join(out)
