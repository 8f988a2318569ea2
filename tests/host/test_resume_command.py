"""The resume command said at Ctrl-C brings the game back the way it was played: its
phones, its page, its voice; what ``voice-host resume`` cannot bring back is said
(a --phones game came back typed, with no phones and no page, unsaid)."""

from __future__ import annotations

import shlex

from voice_host import app, cli, config
from voice_host.host.log import EventLog
from voice_host.host.session import Session, new_header


def stopped(tmp_path, words, argv: list[str], microphone: bool = False) -> list[str]:
    """What the host says at Ctrl-C in a game started with ``argv`` (``microphone``: heard
    on the laptop's microphone)."""
    args = cli.build_parser().parse_args(argv)
    heard: list[str] = []
    header = new_header("prolix-classic", ["Ann", "Ben", "Cat"], 1, config.load())
    log = EventLog(tmp_path / "live.log", header)
    session = Session(header, words, heard.append, log)
    session.feed({"t": 0.0, "directive": "start", "args": ["Ann"]})
    del heard[:]
    app.pause(session, log, app.resume_options(args, microphone))
    log.close()
    return heard[1:]  # after the standings


def test_a_phones_game_is_resumed_with_its_phones(tmp_path, words):
    said = stopped(tmp_path, words, ["play", "--players", "Ann,Ben,Cat", "--phones", "--no-voice",
                                      "--display-port", "8800"])
    path = tmp_path / "live.log"
    assert said == [f"Stopped. The game is saved; to carry on, run: voice-host resume {path} --phones --no-voice "
                    "--display-port 8800"]
    command = said[0].split("run: voice-host ")[1]
    again = cli.build_parser().parse_args(shlex.split(command))  # the command comes back as it was played
    assert (again.command, again.log, again.phones, again.no_voice, again.display_port) == \
        ("resume", str(path), True, True, 8800)
    assert app.resume_options(again)[0] == "--phones --no-voice --display-port 8800"  # and again at the next stop


def test_a_displayed_game_keeps_its_page_and_what_resume_cannot_bring_back_is_said(tmp_path, words):
    said = stopped(tmp_path, words, ["play", "--players", "Ann,Ben,Cat", "--display", "--voices", "table.npz",
                                      "--engine", "vosk"])
    assert said == [f"Stopped. The game is saved; to carry on, run: voice-host resume {tmp_path / 'live.log'} "
                    "--display --engine vosk",
                    "That command leaves out --voices table.npz (the players say who they are again)."]


def test_a_typed_game_is_resumed_as_before(tmp_path, words):
    assert stopped(tmp_path, words, ["play", "--players", "Ann,Ben,Cat"]) == [
        f"Stopped. The game is saved; to carry on, run: voice-host resume {tmp_path / 'live.log'}"]


def test_a_game_heard_on_the_laptops_microphone_is_told_the_resume_leaves_it_out(tmp_path, words):
    assert stopped(tmp_path, words, ["play", "--players", "Ann,Ben,Cat"], microphone=True) == [
        f"Stopped. The game is saved; to carry on, run: voice-host resume {tmp_path / 'live.log'}",
        "That command leaves out the microphone (a resumed game is typed, or heard through --phones)."]
