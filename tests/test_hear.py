"""`voice-host hear`: what the host hears in recordings, with the language and the
game's prior it would use on that board."""

from __future__ import annotations

import pytest
import numpy as np
from toolkit import synth as _synth
from support import voice_host

from voice_host.speech.audio import write_wav

pytestmark = pytest.mark.model  # voice-host hear: the default recognizer

BOARD = "W B J S L C D G"


def test_each_recording_is_one_line_path_tab_what_was_heard(tmp_path, say):
    paths = []
    for word, voice in (("jigsaw", "kal16"), ("blazers", "awb"), ("challenge", "awb")):
        path = tmp_path / f"{word}.wav"
        write_wav(path, say(word, voice))
        paths.append(str(path))
    proc = voice_host("hear", "--board", BOARD, *paths)
    assert proc.returncode == 0, proc.stderr
    assert proc.stdout.splitlines() == [f"{paths[0]}\tjigsaw", f"{paths[1]}\tblazers", f"{paths[2]}\tchallenge"]
    verbose = voice_host("hear", "--board", BOARD, "--verbose", paths[0])
    path, text, confidence = verbose.stdout.splitlines()[0].split("\t")[:3]
    assert (path, text) == (paths[0], "jigsaw") and confidence.startswith("confidence ")


def test_the_boards_prior_hears_the_play_a_player_would_make(tmp_path, say):
    noisy = tmp_path / "registered.wav"  # awb at 10 dB SNR: the model alone hears "register"
    write_wav(noisy, _synth.add_noise(say("registered", "awb"), 10, seed=2))
    prior = tmp_path / "prior.toml"
    prior.write_text("[speech]\nprior_points = 8.0\nprior_known = 2.0\n", encoding="utf-8")
    board = "R G S T D N B L"  # the D is on the board: registered scores more than register
    off = tmp_path / "off.toml"
    off.write_text("[speech]\nprior_points = 0.0\nprior_known = 0.0\n", encoding="utf-8")
    assert voice_host("hear", "--board", board, "--config", str(off), str(noisy)).stdout == f"{noisy}\tregister\n"
    assert voice_host("hear", "--board", board, "--config", str(prior), str(noisy)).stdout == f"{noisy}\tregistered\n"


def test_a_file_that_cannot_be_read_or_a_board_of_another_game_is_one_sentence(tmp_path):
    missing = voice_host("hear", str(tmp_path / "nope.wav"))
    assert missing.returncode == 2 and missing.stderr.startswith(f"voice-host: I can't read {tmp_path / 'nope.wav'}")
    road = voice_host("hear", "--game", "road", "--board", BOARD, str(tmp_path / "nope.wav"))
    assert road.returncode == 2
    assert road.stderr == "voice-host: --board is for prolix-classic, prolix-duel, prolix-redux and prolix-solo, not road.\n"


def test_the_adapted_recognizer_asked_for_and_not_installed_is_one_sentence(tmp_path, monkeypatch):
    """[speech] model = "adapted" reaches the recognizer the commands build;
    with no adapted model shipped, the command says what to do instead."""
    monkeypatch.setenv("VOICE_HOST_MOONSHINE_DELTA", str(tmp_path / "none.delta"))  # as if none were shipped
    settings = tmp_path / "adapted.toml"
    settings.write_text('[speech]\nmodel = "adapted"\n', encoding="utf-8")
    wav = tmp_path / "a.wav"
    write_wav(wav, np.zeros(8000, np.float32))
    proc = voice_host("hear", "--config", str(settings), str(wav))
    assert (proc.returncode, proc.stderr) == (2, 'voice-host: No adapted recognizer is installed; set [speech] model = "base".\n')


def test_every_games_plays_are_heard_as_sentences_of_that_game(tmp_path, say):
    """Dexikon's, Phlounder's and the road game's plays are searched in
    their own language, numbers included (a free decode heard "bang pocket for nine",
    "market and used to", "blame arcade for six, window for seven")."""
    said = {
        "dexikon": [("bank pocket for nine", "fest_slt"), ("bank quagmire for eleven", "awb"),
                    ("bank anthems for eight", "rms"), ("last word reckoning for fourteen", "fest_slt")],
        "phlounder": [("market, unused two", "fest_slt"), ("rocket, unused three", "awb"),
                      ("no word, unused two", "rms")],
        "road": [("play market for six, window for seven", "fest_slt"), ("play jinx for fourteen, ox for nine", "rms")],
    }
    for game, lines in said.items():
        paths = []
        for i, (text, voice) in enumerate(lines):
            paths.append(str(tmp_path / f"{game}{i}.wav"))
            write_wav(paths[-1], say(text, voice))
        proc = voice_host("hear", "--game", game, "--players", "Ann,Ben", *paths)
        assert proc.returncode == 0, proc.stderr
        assert proc.stdout.splitlines() == [f"{p}\t{text.replace(',', '')}" for p, (text, _) in zip(paths, lines)]


def test_a_word_said_over_talk_in_the_room_is_heard_without_the_talk(tmp_path, say):
    """Talk 15 dB under the player runs straight into the word: the word is heard on its
    own, and the talk the louder voice came into is the room's, not heard. Without the
    louder voice taking the utterance over ([listening] takeover_db = 0), the talk
    swallows the word."""
    from voice_host.speech.audio import speech_level

    word, talk = say("jewelers", "fest_slt"), say("the weather is lovely today and tomorrow", "rms")
    talk = talk[: int(_synth.speech_bounds(talk)[1] * 16000)]
    talk = talk * 10 ** ((speech_level(word) - 15 - speech_level(talk)) / 20)
    quiet = np.zeros(16000, np.float32)
    path = tmp_path / "over-talk.wav"
    write_wav(path, np.concatenate([quiet, talk, word, quiet]))
    assert voice_host("hear", "--board", BOARD, str(path)).stdout == f"{path}\tjewelers\n"
    off = tmp_path / "off.toml"
    off.write_text("[listening]\ntakeover_db = 0\n", encoding="utf-8")
    swallowed = voice_host("hear", "--board", BOARD, "--config", str(off), str(path)).stdout
    assert "jewelers" not in swallowed


def test_a_voice_far_quieter_than_the_recordings_loudest_is_the_rooms(tmp_path, say):
    """The voice near the microphone is the table's: a word 15 dB under it (a television,
    another conversation) is left out, unless [speech] background_below is 0."""
    from voice_host.speech.audio import speech_level

    gap = np.zeros(12000, np.float32)
    word, talk = say("jigsaw", "kal16"), say("challenge", "awb")
    room_talk = talk * 10 ** ((speech_level(word) - speech_level(talk) - 15) / 20)
    path = tmp_path / "with-room.wav"
    write_wav(path, np.concatenate([gap, word, gap, room_talk, gap]))
    assert voice_host("hear", "--board", BOARD, str(path)).stdout == f"{path}\tjigsaw\n"
    verbose = voice_host("hear", "--board", BOARD, "--verbose", str(path)).stdout
    assert verbose.startswith(f"{path}\tjigsaw\t") and verbose.endswith("\troom, left out: challenge\n")
    off = tmp_path / "off.toml"
    off.write_text("[speech]\nbackground_below = 0\n", encoding="utf-8")
    assert voice_host("hear", "--board", BOARD, "--config", str(off), str(path)).stdout == f"{path}\tjigsaw / challenge\n"


def test_verbose_says_what_the_second_ear_heard_and_how_long_it_took(tmp_path, say):
    """With [speech] second_ear = "whisper", --verbose showed nothing of it."""
    from support import need

    from voice_host.speech.recognizing.engines import second_ear_for

    try:
        second_ear_for("whisper")
    except Exception as exc:  # noqa: BLE001 - said in the skip or failure
        need(False, f"the second ear is not installed: {exc}")
    path = tmp_path / "jigsaw.wav"
    write_wav(path, say("jigsaw", "awb"))
    settings = tmp_path / "second.toml"
    settings.write_text('[speech]\nsecond_ear = "whisper"\n', encoding="utf-8")
    proc = voice_host("hear", "--board", BOARD, "--verbose", "--config", str(settings), str(path))
    assert proc.returncode == 0, proc.stderr
    second = proc.stdout.splitlines()[0].split("\t")[-1]
    assert second.startswith("second ear: 'jigsaw' (") and " ms), agreed, confidence before " in second, second
    plain = voice_host("hear", "--board", BOARD, "--verbose", str(path))  # off by default: nothing said of it
    assert "second ear" not in plain.stdout
