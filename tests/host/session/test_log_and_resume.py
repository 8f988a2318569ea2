"""The event log: kill -9 at any moment, resume, and the result is the same."""

from __future__ import annotations

import json
import os
import signal
import subprocess
import sys
import time

import pytest
from support import ROOT, voice_host

from voice_host.host.log import EventLog

pytestmark = pytest.mark.slow  # voice-host run as a command

# A digital-bag game (the host draws the tiles, seeded): words, interrupts, a timer, a
# challenge and a cheapie, so the replay has every kind of input to get right.
WORDS = ("jewelers flummoxed picnicking scrapbooking hurdled plucky giving begrudging jubilantly "
         "wrenches geese catfish franking counterfeiting memo prune ruin outset").split()


def digital_script() -> str:
    lines = ["@start Ann"]
    players = ["Ann", "Ben", "Cat"]
    for i, word in enumerate(WORDS):
        who = players[i % 3]
        if i == 4:
            lines += ["Cat: timer", "@wait 46"]  # the timer interrupts Ben
        if i == 7:
            lines.append("Ben: wrench")  # interrupt on Ann's turn
        if i == 9:
            lines += [f"{who}: wrenches", f"{players[(i + 1) % 3]}: challenge"]
            continue
        lines.append(f"{who}: {word}")
    return "\n".join(lines) + "\n"


def run_play(tmp_path, name: str, *extra: str) -> dict:
    out = tmp_path / f"{name}.json"
    proc = voice_host("play", "--players", "Ann,Ben,Cat", "--seed", "11", "--script", str(tmp_path / "s.txt"),
                      "--no-voice", "--result-json", str(out), *extra)
    assert proc.returncode == 0, proc.stderr
    return json.loads(out.read_text())


def test_kill_minus_nine_then_resume_gives_the_same_result(tmp_path):
    (tmp_path / "s.txt").write_text(digital_script())
    reference = run_play(tmp_path, "reference")
    assert any(w["kind"] == "interrupt" for p in reference["players"] for w in p["words"])

    log = tmp_path / "game.log"
    proc = subprocess.Popen(
        [sys.executable, "-m", "voice_host.cli", "play", "--players", "Ann,Ben,Cat", "--seed", "11",
         "--script", str(tmp_path / "s.txt"), "--no-voice", "--log", str(log), "--pace", "0.15"],
        cwd=ROOT, stdout=subprocess.DEVNULL, stderr=subprocess.PIPE,
    )
    deadline = time.monotonic() + 60
    while time.monotonic() < deadline:
        if log.exists() and log.read_text().count("\n") >= 12:
            break
        time.sleep(0.02)
    os.kill(proc.pid, signal.SIGKILL)
    proc.wait()
    header, records = EventLog.read(log)
    assert 11 <= len(records) < len(digital_script().splitlines())  # killed part-way

    out = tmp_path / "resumed.json"
    resumed = voice_host("resume", str(log), "--script", str(tmp_path / "s.txt"), "--no-voice",
                         "--result-json", str(out))
    assert resumed.returncode == 0, resumed.stderr
    assert "host: Resuming Prolix Classic after" in resumed.stdout
    assert json.loads(out.read_text()) == reference


def test_a_torn_last_line_is_ignored_and_the_game_goes_on(tmp_path):
    (tmp_path / "s.txt").write_text(digital_script())
    reference = run_play(tmp_path, "reference")
    log = tmp_path / "game.log"
    run_play(tmp_path, "logged", "--log", str(log))
    lines = log.read_text().splitlines(keepends=True)
    log.write_text("".join(lines[:10]) + lines[10][:7])  # a write cut short by the kill
    out = tmp_path / "resumed.json"
    resumed = voice_host("resume", str(log), "--script", str(tmp_path / "s.txt"), "--no-voice",
                         "--result-json", str(out))
    assert resumed.returncode == 0, resumed.stderr
    assert json.loads(out.read_text()) == reference
    EventLog.read(log)  # and the log is whole again


def test_typed_play_and_typed_resume(tmp_path):
    log = tmp_path / "typed.log"
    first = voice_host("play", "--players", "Ann,Ben,Cat", "--start", "Ann", "--board", "W B J S L C D G",
                       "--no-voice", "--log", str(log), stdin="Ann: jewelers\nBen: scores\n")
    assert first.returncode == 0, first.stderr
    assert "host: Ann scores 15 points for jewelers." in first.stdout
    assert "host: Ann, draw 2 tiles and tell me the letters." in first.stdout
    out = tmp_path / "r.json"
    second = voice_host("resume", str(log), "--no-voice", "--result-json", str(out),
                        stdin="@draw M N\nBen: jigsaw\n")
    assert second.returncode == 0, second.stderr
    # the board moved one column: J+2 now in the 2-point column (4), S 2, W+1 in the 3-point (4)
    assert "host: Ben scores 10 points for jigsaw." in second.stdout
    totals = {p["name"]: p["total"] for p in json.loads(out.read_text())["players"]}
    assert totals == {"Ann": 15, "Ben": 10, "Cat": 0}


def test_play_refuses_to_overwrite_a_log_and_explains_bad_setups(tmp_path):
    log = tmp_path / "x.log"
    log.write_text("something\n")
    proc = voice_host("play", "--players", "Ann,Ben,Cat", "--no-voice", "--log", str(log), stdin="")
    assert proc.returncode == 2
    assert "already holds a game; continue it with 'voice-host resume" in proc.stderr
    proc = voice_host("play", "--players", "Ann,Ben", "--no-voice", stdin="")
    assert proc.returncode == 2
    assert proc.stderr.strip() == ("voice-host: prolix-classic is for 3 to 5 players, not 2. "
                                   "For 2 players, play --game prolix-duel.")
    proc = voice_host("play", "--players", "Ann,Ann,Ben", "--no-voice", stdin="")
    assert proc.stderr.strip() == "voice-host: Each player needs a different name."
    proc = voice_host("resume", str(tmp_path / "missing.log"), "--no-voice")
    assert proc.returncode == 2 and "missing.log" in proc.stderr


def test_a_log_under_a_file_or_a_folder_for_a_log_is_one_sentence_before_anything_starts(tmp_path):
    notes = tmp_path / "notes.txt"
    notes.write_text("shopping\n")
    proc = voice_host("play", "--players", "Ann,Ben,Cat", "--no-voice", "--log", str(notes / "game.log"), stdin="")
    assert proc.returncode == 2
    assert proc.stderr.strip() == f"voice-host: {notes} is a file, not a folder: the game can't be saved in it."
    folder = tmp_path / "games"
    (folder / "old").mkdir(parents=True)
    proc = voice_host("play", "--players", "Ann,Ben,Cat", "--no-voice", "--phones", "--log", str(folder), stdin="")
    assert proc.returncode == 2
    assert proc.stderr.strip() == (f"voice-host: {folder} is a folder: give the game a file name in it, "
                                   f"like {folder / 'game.log'}.")
    assert "code" not in proc.stdout.lower() and "join" not in proc.stdout.lower()  # nothing began: no join code
