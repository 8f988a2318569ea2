"""Saving that fails mid-game or cannot start: a full disk is one sentence, the game goes
on in memory, and the log's last line is never torn; an unwritable --log or
--result-json is one sentence, never a traceback. A resume takes --phones and --display."""

from __future__ import annotations

import errno
import json

from voice_host import cli

SCRIPT = "@start Ann\nAnn: jewelers\nBen: geese\nCat: wrenches\nAnn: catfish\nBen: memo\nCat: prune\n"


def test_a_full_disk_mid_game_is_one_sentence_and_the_game_goes_on(tmp_path, monkeypatch, capsys):
    import os

    from voice_host.host import log as log_module

    script, log, out = tmp_path / "game.txt", tmp_path / "game.log", tmp_path / "out.json"
    script.write_text(SCRIPT)
    calls = [0]
    real = os.fsync

    def fsync(fd):
        calls[0] += 1
        if calls[0] > 4:  # the header, then a few inputs; then the disk is full
            raise OSError(errno.ENOSPC, "No space left on device")
        real(fd)

    monkeypatch.setattr(log_module.os, "fsync", fsync)
    code = cli.main(["play", "--players", "Ann,Ben,Cat", "--seed", "3", "--script", str(script), "--no-voice",
                     "--log", str(log), "--result-json", str(out)])
    said = capsys.readouterr()
    assert code == 0 and "Traceback" not in said.err
    assert said.out.count("I can't save this game in") == 1 and "No space left on device" in said.out
    words = [w["word"] for p in json.loads(out.read_text())["players"] for w in p["words"]]
    assert "prune" in words  # the game went on after saving stopped
    text = log.read_text()
    assert text.endswith("\n") and all(json.loads(line) for line in text.splitlines())
    assert "prune" not in text


def test_an_unwritable_log_or_result_is_one_sentence(tmp_path, capsys):
    script = tmp_path / "game.txt"
    script.write_text(SCRIPT)
    blocked = tmp_path / "file"
    blocked.write_text("not a folder")
    code = cli.main(["play", "--players", "Ann,Ben,Cat", "--script", str(script), "--no-voice",
                     "--log", str(blocked / "game.log")])
    err = capsys.readouterr().err
    assert code == 2 and err == f"voice-host: {blocked} is a file, not a folder: the game can't be saved in it.\n"
    code = cli.main(["play", "--players", "Ann,Ben,Cat", "--script", str(script), "--no-voice",
                     "--result-json", str(blocked / "out.json")])
    err = capsys.readouterr().err
    assert code == 1 and err.startswith("voice-host: I can't write the result to ") and "Traceback" not in err


def test_resume_takes_phones_and_display():
    args = cli.build_parser().parse_args(["resume", "game.log", "--phones", "--display", "--display-port", "0"])
    assert args.phones and args.display and args.display_port == 0


def test_resuming_a_log_that_cannot_be_written_is_one_sentence(tmp_path, capsys, monkeypatch):
    import errno

    from voice_host.host.log import EventLog

    script, log = tmp_path / "game.txt", tmp_path / "game.log"
    script.write_text(SCRIPT)
    assert cli.main(["play", "--players", "Ann,Ben,Cat", "--script", str(script), "--no-voice", "--log", str(log)]) == 0
    capsys.readouterr()

    def read_only(self, path, header=None, opening=()):  # root writes even a 0444 file: refused here instead
        raise PermissionError(errno.EACCES, "Permission denied", str(path))

    monkeypatch.setattr(EventLog, "__init__", read_only)
    code = cli.main(["resume", str(log), "--no-voice"])
    err = capsys.readouterr().err
    assert code == 2 and err == f"voice-host: I can't save the game in {log}: Permission denied.\n", err
