"""Missing and damaged files, bad setup options, Ctrl-C
and resume, each answered with a sentence and never a traceback."""

from __future__ import annotations

import json
import os
import signal
import subprocess
import sys
import time

import pytest
from support import ROOT, ctrl_c_reaches_it, voice_host

from voice_host import app, config
from voice_host.host.log import EventLog
from voice_host.host.session import Session, new_header

pytestmark = pytest.mark.slow  # voice-host run as a command

BOARD = "W B J S L C D G"


def fails_with(proc: subprocess.CompletedProcess, sentence: str) -> None:
    assert proc.returncode == 2, proc.stdout
    assert proc.stderr.strip() == f"voice-host: {sentence}"
    assert "host:" not in proc.stdout  # nothing started


def test_missing_or_unreadable_files_are_sentences(tmp_path):
    fails_with(voice_host("play", "--players", "Ann,Ben,Cat", "--no-voice", "--script", str(tmp_path / "missing.txt")),
               f"There is no file {tmp_path / 'missing.txt'} to use as the script.")
    fails_with(voice_host("play", "--players", "Ann,Ben,Cat", "--no-voice", "--script", str(tmp_path)),
               f"{tmp_path} is a folder, not a script file.")
    binary = tmp_path / "noise.bin"
    binary.write_bytes(bytes(range(256)) * 4)
    fails_with(voice_host("resume", str(tmp_path), "--no-voice"), f"{tmp_path} is a folder, not a game log.")
    fails_with(voice_host("resume", str(binary), "--no-voice"),
               f"{binary} is not a voice-host game log (it isn't even text).")
    fails_with(voice_host("play", "--players", "Ann,Ben,Cat", "--no-voice", "--config", str(tmp_path / "t.toml")),
               f"There is no settings file {tmp_path / 't.toml'}.")


def test_a_damaged_line_mid_log_is_skipped_and_the_original_kept(tmp_path):
    log = tmp_path / "game.log"
    first = voice_host("play", "--players", "Ann,Ben,Cat", "--start", "Ann", "--board", BOARD, "--no-voice",
                       "--typed", "--log", str(log), stdin="Ann: jewelers\n@draw M N\nBen: jigsaw\nCat: scores\n")
    assert first.returncode == 0, first.stderr
    lines = log.read_text().splitlines(keepends=True)
    # header, @start, @board, begin, jewelers, @draw, jigsaw, scores: damage jigsaw (line 7)
    assert json.loads(lines[6])["text"] == "jigsaw"
    original = "".join(lines[:6]) + '{"line":0,"t":3.0,"spea\x01\n' + "".join(lines[7:])
    log.write_text(original)
    out = tmp_path / "r.json"
    second = voice_host("resume", str(log), "--no-voice", "--result-json", str(out), stdin="Ben: jigsaw\n")
    assert second.returncode == 0, second.stderr
    said = [x[len("host: "):] for x in second.stdout.splitlines()]
    assert said[:2] == [  # the lines after the damaged one are replayed too
        f"Line 7 of {log} is damaged, so I skipped it and replayed the other 5 inputs; "
        f"the original log is kept as {log}.damaged.",
        "Resuming Prolix Classic after 5 logged inputs.",
    ]
    assert "Ben scores 10 points for jigsaw." in said
    assert (tmp_path / "game.log.damaged").read_text() == original
    assert {p["name"]: p["total"] for p in json.loads(out.read_text())["players"]} == {"Ann": 15, "Ben": 10, "Cat": 0}
    header, records = EventLog.read(log)  # the log goes on whole
    assert [r.text for r in records if hasattr(r, "text")] == ["jewelers", "scores", "jigsaw"]


@pytest.mark.parametrize(("option", "sentence"), [
    (("--board", "W B J S L C D"), "--board: A board has 8 tiles, not 7: give all 8, leftmost column first, top before bottom."),
    (("--board", "W K J S L C D V"), "--board: That would put 4 rare tiles on the board (W, K, J and V); "
                                     "the limit is 2. Set 2 aside and draw again."),
    (("--start", "Dan"), "--start: I don't know a player called Dan; the players are Ann, Ben and Cat."),
    (("--timer", "0"), "--timer needs a number of seconds above 0, not 0."),
])
def test_a_bad_setup_option_stops_before_the_game(tmp_path, option, sentence):
    log = tmp_path / "x.log"
    proc = voice_host("play", "--players", "Ann,Ben,Cat", "--no-voice", "--typed", "--log", str(log), *option,
                      stdin="Ann: jewelers\n")
    fails_with(proc, sentence)
    assert not log.exists()


def test_too_few_players_for_classic_suggests_the_game_for_them():
    fails_with(voice_host("play", "--players", "Ann", "--no-voice", stdin=""),
               "prolix-classic is for 3 to 5 players, not 1. For 1 player, play --game prolix-solo.")
    fails_with(voice_host("play", "--players", "Ann,Ben", "--no-voice", stdin=""),
               "prolix-classic is for 3 to 5 players, not 2. For 2 players, play --game prolix-duel.")


def logged_session(words, log_path, heard):
    cfg = config.load()
    header = new_header("prolix-classic", ["Ann", "Ben", "Cat"], 1, cfg)
    log = EventLog(log_path, header)
    return Session(header, words, heard.append, log), log


def test_ctrl_c_scores_the_last_word_saves_the_clock_and_says_how_to_resume(tmp_path, words):
    heard: list[str] = []
    path = tmp_path / "live.log"
    s, log = logged_session(words, path, heard)
    for i, record in enumerate([{"directive": "start", "args": ["Ann"]}, {"directive": "board", "args": BOARD.split()},
                                {"begin": True}, {"speaker": "Ann", "text": "jewelers"}, {"directive": "draw",
                                "args": ["M", "N"]}, {"speaker": "Cat", "text": "timer"}]):
        s.feed({"t": float(i), **record})
    s.tick(25.0)  # the clock runs on: 20 of the 45 seconds are gone
    s.feed({"t": 25.2, "speaker": "Ben", "text": "jigsaw"})  # ... and Ben says a word just before Ctrl-C
    del heard[:]
    app.pause(s, log)
    log.close()
    assert heard == ["Ben scores 10 points for jigsaw.", "Ben, draw 2 tiles and tell me the letters.",
                     "Round 1 of 6. Scores: Ann 15; Ben 10; Cat 0.",  # the standings
                     f"Stopped. The game is saved; to carry on, run: voice-host resume {path}"]
    resumed = voice_host("resume", str(path), "--no-voice", stdin="@draw R T\nCat: whose turn\n")
    said = [x[len("host: "):] for x in resumed.stdout.splitlines()]
    assert said[0] == "Resuming Prolix Classic after 6 logged inputs."
    assert said[-1] == "Round 1: Cat's turn."


def timer_paused(words, path):
    """Ann's turn on BOARD, Cat flips the timer, 20 of its 45 seconds run, then Ctrl-C:
    the session and its open log."""
    s, log = logged_session(words, path, [])
    for i, record in enumerate([{"directive": "start", "args": ["Ann"]}, {"directive": "board", "args": BOARD.split()},
                                {"begin": True}, {"speaker": "Cat", "text": "timer"}]):
        s.feed({"t": float(i), **record})
    s.tick(23.0)
    app.pause(s, log)
    return s, log


def test_resume_announces_a_word_said_before_the_break_before_whose_turn(tmp_path, words):
    path = tmp_path / "live.log"
    s, log = timer_paused(words, path)
    s.feed({"t": 23.5, "speaker": "Ann", "text": "jewelers"})  # logged, then the process is killed
    log.close()
    resumed = voice_host("resume", str(path), "--no-voice", stdin="")
    said = [x[len("host: "):] for x in resumed.stdout.splitlines()]
    assert said[:4] == ["Resuming Prolix Classic after 4 logged inputs.", "Ann scores 15 points for jewelers.",
                        "Ann, draw 2 tiles and tell me the letters.",
                        "Board. 4 points: empty; 3 points: W+1, B; 2 points: J+2, S; 1 point: L, C."]
    s2 = voice_host("resume", str(path), "--no-voice", stdin="@draw M N\nBen: whose turn\n")
    assert "host: Round 1: Ben's turn." in s2.stdout


def test_resume_keeps_a_running_timers_time_left(tmp_path, words):
    path = tmp_path / "live.log"
    s, log = timer_paused(words, path)
    log.close()
    resumed = voice_host("resume", str(path), "--no-voice", stdin="")
    assert "host: Round 1: Ann's turn. The timer is in front of Cat, 25 seconds left." in resumed.stdout


def test_ctrl_c_in_typed_play_says_the_resume_command(tmp_path):
    log = tmp_path / "cc.log"
    proc = subprocess.Popen([sys.executable, "-m", "voice_host.cli", "play", "--players", "Ann,Ben,Cat", "--start",
                             "Ann", "--board", BOARD, "--no-voice", "--typed", "--log", str(log)], cwd=ROOT,
                            stdin=subprocess.PIPE, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True,
                            preexec_fn=ctrl_c_reaches_it)
    proc.stdin.write("Ann: jewelers\n")
    proc.stdin.flush()
    deadline = time.monotonic() + 60
    while time.monotonic() < deadline and (not log.exists() or "jewelers" not in log.read_text()):
        time.sleep(0.05)
    time.sleep(0.5)
    os.kill(proc.pid, signal.SIGINT)
    out, err = proc.communicate(timeout=60)
    assert proc.returncode == 130, err
    assert "Traceback" not in err
    assert out.splitlines()[-1] == f"host: Stopped. The game is saved; to carry on, run: voice-host resume {log} --no-voice"


def test_every_section_of_the_settings_is_read_one_way(tmp_path):
    """[listening], [speech], [voice] and [dictionary] are Settings classes read
    from the merged configuration, a table's file over the defaults."""
    from voice_host import config
    from voice_host.host.hearing import HearingSettings
    from voice_host.settings import Settings
    from voice_host.speech.listening.config import TurnConfig
    from voice_host.speech.speaking.tts import VoiceSettings
    from voice_host.words.lexicon import LexiconSettings

    table = tmp_path / "table.toml"
    table.write_text('[listening]\ntrailing_silence = 0.35\n[speech]\nengine = "vosk"\n'
                     '[voice]\nengine = "PYTTSX3"\nrate = 150\n[dictionary]\nallow = "mine.txt"\n')
    cfg = config.load(table)
    assert all(issubclass(c, Settings) for c in (TurnConfig, HearingSettings, VoiceSettings, LexiconSettings))
    assert (TurnConfig.from_config(cfg).trailing_silence, TurnConfig.from_config(cfg).ask_below) == (0.35, 0.6)
    assert HearingSettings.from_config(cfg).engine == "vosk"
    voice = VoiceSettings.from_config(cfg)
    assert (voice.engine, voice.pyttsx3["rate"], voice.piper["voice"]) == ("pyttsx3", 150, "en_US-joe-medium")
    assert LexiconSettings.from_config(cfg) == LexiconSettings(allow="mine.txt")
    assert TurnConfig.from_config(config.load()) == TurnConfig()


def test_more_player_channels_than_the_recording_has_is_a_sentence(tmp_path):
    """Was a traceback (ValueError from the source) after the game had begun."""
    import numpy as np

    from voice_host.speech.audio import write_wav

    wav = tmp_path / "mono.wav"
    write_wav(wav, np.zeros(16000, np.float32))
    fails_with(voice_host("play", "--players", "Ann,Ben,Cat", "--channels", "Ann,Ben,Cat", "--audio", str(wav),
                          "--no-voice"),
               f"{wav} has 1 channel, but --channels names 3 players: give one name per channel.")


def test_resuming_a_log_that_holds_only_its_header_begins_the_game_without_reading_an_empty_board(tmp_path):
    log = tmp_path / "game.log"
    first = voice_host("play", "--players", "Ann,Ben,Cat", "--seed", "3", "--no-voice", "--log", str(log), stdin="")
    assert first.returncode == 0, first.stderr
    log.write_text(log.read_text().splitlines(keepends=True)[0])  # the header alone
    second = voice_host("resume", str(log), "--no-voice", stdin="")
    assert second.returncode == 0, second.stderr
    said = [x[len("host: "):] for x in second.stdout.splitlines()]
    assert said[:2] == ["Resuming Prolix Classic: nothing was played yet.", "Prolix Classic for Ann, Ben and Cat: 6 rounds."]
    assert not any("empty" in line or "Nobody's turn" in line for line in said), said
