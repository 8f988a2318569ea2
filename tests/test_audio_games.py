"""Every game played by voice: a script said aloud and heard through the speech layer
(whisper, and Moonshine searching each game's own sentences; one channel per player)
gives the same result as the script played as text.

The phrases are said by festival's HTS voice, the synthetic voice the recognizer hears
best, on one channel per player; tests/test_audio_game.py has the full Prolix game
with several voices, a tiebreak and the timer.
"""

from __future__ import annotations

import pytest
from audio_script import text_and_audio

SOLO = """
Ann: pocket
[+3] Ann: my word is market
[+4] Ann: sandwich
@wait 46
[+3] Ann: my word is kitchen
[+4] Ann: my word is rocket
[+4] Ann: my word is monkey
[+4] Ann: my word is pencil
"""


def test_prolix_solo_by_voice(tmp_path, say, whisper_rec):
    cfg = tmp_path / "targets.toml"
    cfg.write_text("[prolix]\nsolo_targets = [0, 0, 0, 0, 0, 0]\n")  # every round survives: six rounds
    (text, _), (audio, audio_out) = text_and_audio(
        tmp_path, say, SOLO, {"Ann": "fest_slt"}, "--game", "prolix-solo", "--players", "Ann", "--seed", "3",
        "--config", str(cfg))
    assert text["finished"] is True and text["winners"] == ["Ann"]
    assert [w["word"] for w in text["players"][0]["words"]] == ["market", "sandwich", "kitchen", "rocket", "monkey",
                                                                 "pencil"]
    assert audio == text, audio_out
    assert any(line.startswith("host: Scratch: pocket would score") for line in audio_out.splitlines())


PHLOUNDER = """
Ann: roll the dice
[+3] Ann: bell
[+3] Ann: pocket
[+3] Ben: market, unused two
[+4] Ben: roll the dice
[+3] Ben: bell
[+3] Ben: basket
[+3] Ann: rocket, unused two
"""


@pytest.mark.parametrize("engine", ["whisper", "moonshine"])
def test_phlounder_by_voice(tmp_path, say, engine, request):
    request.getfixturevalue("whisper_rec" if engine == "whisper" else "moonshine_ready")
    (text, _), (audio, audio_out) = text_and_audio(
        tmp_path, say, PHLOUNDER, {"Ann": "fest_slt", "Ben": "fest_slt"}, "--game", "phlounder",
        "--players", "Ann,Ben", "--seed", "4", engine=engine)
    assert sum(p["total"] != 0 for p in text["players"]) == 2  # both rounds were scored
    assert audio == text, audio_out


DEXIKON = """
Ann: bank pocket for nine
[+4] Ben: spend
[+4] Ann: bank market for six
[+4] Ben: bank window for seven
[+4] Ann: challenge
"""


@pytest.mark.parametrize("engine", ["whisper", "moonshine"])
def test_dexikon_by_voice(tmp_path, say, engine, request):
    request.getfixturevalue("whisper_rec" if engine == "whisper" else "moonshine_ready")
    (text, _), (audio, audio_out) = text_and_audio(
        tmp_path, say, DEXIKON, {"Ann": "fest_slt", "Ben": "fest_slt"}, "--game", "dexikon", "--players", "Ann,Ben",
        engine=engine)
    totals = {p["name"]: p["total"] for p in text["players"]}
    assert totals == {"Ann": 9 + 6 - 2, "Ben": 7 + 1}  # Ann's failed challenge: her penalty card, Ben's mark
    assert audio == text, audio_out


ROAD = """
Ann: play pocket for nine
[+4] Ben: take a mulligan
[+4] Ann: play market for six, window for seven
[+4] Ben: pass
"""


@pytest.mark.parametrize("engine", ["whisper", "moonshine"])
def test_road_game_by_voice(tmp_path, say, engine, request):
    request.getfixturevalue("whisper_rec" if engine == "whisper" else "moonshine_ready")
    (text, _), (audio, audio_out) = text_and_audio(
        tmp_path, say, ROAD, {"Ann": "fest_slt", "Ben": "fest_slt"}, "--game", "road", "--players", "Ann,Ben",
        "--start", "Ann", engine=engine)
    totals = {p["name"]: p["total"] for p in text["players"]}
    assert totals == {"Ann": 9 + 6 + 7, "Ben": 0}
    assert audio == text, audio_out


TALK = """
Ann: pocket
[+3] Ben: wait
[+2] Ben: market
[+3] Cat: sorry?
[+2] Cat: window
[+3] Ann: next
[+2] Ann: um, basket
[+3] Ben: thank you
[+2] Ben: pencil
"""


def test_table_talk_by_voice_is_never_a_play(tmp_path, say, moonshine_ready):
    """Talk said between the words ("wait", "sorry?", "next", "thank you", a filler before
    a word) is heard as it is typed: answered as talk, never scored."""
    (text, text_out), (audio, audio_out) = text_and_audio(
        tmp_path, say, TALK, {"Ann": "fest_slt", "Ben": "fest_slt", "Cat": "fest_slt"},
        "--players", "Ann,Ben,Cat", "--start", "Ann", "--seed", "5", engine="moonshine")
    words = {p["name"]: [w["word"] for w in p["words"]] for p in text["players"]}
    assert words == {"Ann": ["pocket", "basket"], "Ben": ["market", "pencil"], "Cat": ["window"]}, text_out
    assert audio == text, audio_out
    assert "host: Take your time." in audio_out.splitlines() and "host: Take your time." in text_out.splitlines()
