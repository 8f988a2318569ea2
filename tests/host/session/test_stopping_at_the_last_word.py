"""Stopping (Ctrl-C, Ctrl-D) while the game's last word is open to a challenge: the game
is saved, not ended, and a resume reopens the window with the seconds it had left."""

from __future__ import annotations

import os
import pty
import select
import subprocess
import sys
import time

import pytest
from support import ROOT, Table, ctrl_c_reaches_it

pytestmark = pytest.mark.slow  # voice-host run as a command

ONE_ROUND = {"prolix": {"rounds_3_players": 1, "last_challenge_window": 30}}


def last_word_open(words, log_path):
    """A one-round game logged to ``log_path``, its third and last word just scored."""
    from voice_host.host.log import EventLog
    from voice_host.host.script import parse_script

    t = Table(words, sections=ONE_ROUND)
    t.session.log = EventLog(log_path, t.session.header, opening=list(t.session.records))
    for record in parse_script("Ann: jewelers\n@draw M N\nBen: cowbell\n@draw P R\nCat: jackals", t.session.t):
        t.session.play(record)  # as typed: nothing settles at the end of these lines
    t.session.tick(t.session.t + 1)  # the tie window: the last word is scored
    assert t.state.phase == "ending"
    return t


def test_stopping_during_the_last_words_window_saves_the_game_instead_of_ending_it(words, tmp_path):
    from voice_host.app import pause

    t = last_word_open(words, tmp_path / "end.log")
    before = len(t.heard)
    pause(t.session, t.session.log)
    said = t.heard[before:]
    assert not t.game.finished
    assert not any(line.startswith("Game over") for line in said), said
    assert said[-1] == f"Stopped. The game is saved; to carry on, run: voice-host resume {tmp_path / 'end.log'}"


def read_until(fd, text: str, timeout: float = 60) -> str:
    out, deadline = b"", time.monotonic() + timeout
    while text.encode() not in out and time.monotonic() < deadline:
        ready, _, _ = select.select([fd], [], [], 0.2)
        if ready:
            try:
                out += os.read(fd, 4096)
            except OSError:
                break
    return out.decode(errors="replace")


def test_resume_at_a_terminal_reopens_the_last_words_window_with_its_seconds_left(words, tmp_path):
    log = tmp_path / "end.log"
    t = last_word_open(words, log)
    t.session.log.close()
    leader, follower = pty.openpty()
    proc = subprocess.Popen([sys.executable, "-m", "voice_host.cli", "resume", str(log), "--no-voice"], cwd=ROOT,
                            stdin=follower, stdout=follower, stderr=subprocess.PIPE, preexec_fn=ctrl_c_reaches_it)
    os.close(follower)
    try:
        said = read_until(leader, "seconds.")
        assert "host: That was the last word. Challenge jackals now, or the final scores come in 30 seconds." \
            in said, said
        assert "Game over" not in said
        os.write(leader, b"Ben: challenge\n")
        said = read_until(leader, "Game over")
        assert "Ben challenges Cat's jackals" in said and "Game over" in said, said
    finally:
        proc.kill()
        proc.wait()
        os.close(leader)
