"""A newcomer's play-through, end to end through the real command line.

The README's commands run as written after its own set-up, the games are named with
their --game values, a bad choice or another game's option is one sentence, Ctrl-D at a
terminal ends like Ctrl-C, and the opening board is said once.
"""

from __future__ import annotations

import argparse
import os
import signal
import pty
import re
import shlex
import subprocess
import sys
import time

import pytest
from support import ROOT, ctrl_c_reaches_it, need, voice_host

from voice_host import cli
from voice_host.games import REGISTRY

pytestmark = pytest.mark.slow  # voice-host run as a command

BOARD = "W B J S L C D G"
SAID_BOARD = "Board. 4 points: W+1, B; 3 points: J+2, S; 2 points: L, C; 1 point: D, G."
README = (ROOT / "README.md").read_text(encoding="utf-8")
PROLIX = "prolix-classic, prolix-duel, prolix-redux and prolix-solo"


def fails_with(proc: subprocess.CompletedProcess, sentence: str) -> None:
    assert proc.returncode == 2, proc.stdout
    assert proc.stderr.strip() == f"voice-host: {sentence}"
    assert proc.stdout == ""  # no usage text, and nothing started


# ---------------------------------------------------------------------- the README
def shell_blocks() -> list[list[str]]:
    """The README's ```sh blocks, each as its command lines (comments and blanks dropped)."""
    blocks = re.findall(r"```sh\n(.*?)```", README, flags=re.S)
    return [[line.split("  #")[0].strip() for line in b.splitlines() if line.strip()] for b in blocks]


def voice_host_lines() -> list[str]:
    """Every ``voice-host ...`` command the README's shell blocks run (after ``&&`` too)."""
    out = []
    for block in shell_blocks():
        for line in block:
            for part in line.split("&&"):
                words = shlex.split(part)
                if words and words[0] in ("voice-host", ".venv/bin/voice-host"):
                    out.append(part.strip())
    return out


def every_option(parser) -> set[str]:
    """The option strings of the parser and all its subcommands."""
    found = set()
    for action in parser._actions:
        found.update(action.option_strings)
        if isinstance(action, argparse._SubParsersAction):
            for sub in action.choices.values():
                found |= every_option(sub)
    return found


def test_every_readme_command_parses_with_the_cli():
    lines = voice_host_lines()
    assert len(lines) >= 12, lines
    for line in lines:
        try:
            cli.build_parser().parse_args(shlex.split(line)[1:])
        except SystemExit:
            pytest.fail(f"the README's command does not parse: {line}")


def test_every_option_the_readme_names_exists():
    options = every_option(cli.build_parser())
    prose = "\n".join(line for line in README.splitlines() if "benchmarks/" not in line)  # their own options
    named = set(re.findall(r"(?<![\w-])--[a-z][a-z0-9-]*", prose))
    assert named and named <= options, sorted(named - options)
    [sub] = [a for a in cli.build_parser()._actions if isinstance(a, argparse._SubParsersAction)]
    commands = set(re.findall(r"`voice-host ([a-z]+)\b(?!-)", README))
    assert commands and commands <= set(sub.choices), sorted(commands - set(sub.choices))


def test_the_readme_commands_run_as_written_after_its_set_up():
    """Set up as the README says, then its 'Playing' commands as written, from a fresh
    shell whose PATH knows nothing of .venv."""
    need((ROOT / ".venv" / "bin" / "voice-host").exists(), "bash .ci/setup has not made .venv")
    playing = shell_blocks()[2]
    assert shlex.split(shell_blocks()[0][0]) == ["bash", ".ci/setup", "&&", ".venv/bin/voice-host", "play",
                                                 "--players", "Ann,Ben,Cat"]  # the first command, as it was
    assert shell_blocks()[1][0] == "bash .ci/test"  # every test, then the core alone
    before = playing[:playing.index(next(x for x in playing if x.startswith("voice-host")))]
    assert before, "the Playing block says nothing that puts voice-host on the PATH"
    word = next(x for x in playing if x.startswith("voice-host word ") and "--used" not in x)
    env = {k: v for k, v in os.environ.items() if k not in ("VIRTUAL_ENV", "PYTHONHOME")}
    env["PATH"] = "/usr/bin:/bin"
    proc = subprocess.run(["bash", "-c", " && ".join([*before, word])], cwd=ROOT, env=env,
                          capture_output=True, text=True, timeout=120)
    assert proc.stderr == ""
    assert proc.stdout.splitlines() == ["jewelers: valid", "geese: valid",
                                        "well-being: invalid, punctuation or spaces in it"]


def test_the_readme_names_each_game_with_its_game_value():
    games = next(p for p in README.split("\n\n") if p.startswith("Games"))
    for name in REGISTRY:
        assert f"`{name}`" in games, name
    for title in ("Prolix Classic", "Prolix Solo", "Prolix Duel", "Prolix Redux", "Phlounder", "Dexikon", "Road"):
        assert title in games, title


# ---------------------------------------------------------------------- bad choices
@pytest.mark.parametrize(("args", "sentence"), [
    (("play", "--game", "classic", "--players", "Ann,Ben,Cat"),
     "There is no game called classic; choose one of dexikon, phlounder, prolix-classic, prolix-duel, "
     "prolix-redux, prolix-solo or road."),
    (("play", "--players", "Ann,Ben,Cat", "--engine", "google"),
     "There is no speech engine called google; choose one of auto, moonshine, vosk or whisper."),
    (("demo", "--engine", "google"),
     "There is no speech engine called google; choose one of auto, moonshine, vosk or whisper."),
    (("plya", "--players", "Ann,Ben,Cat"),
     "There is no command called plya; choose one of play, resume, hear, word, models, devices or demo."),
    (("models", "get"), "There is no models command called get; choose one of fetch or where."),
])
def test_a_bad_choice_is_one_sentence_naming_the_choices(args, sentence):
    fails_with(voice_host(*args, stdin=""), sentence)


# ---------------------------------------------------------------------- another game's options
@pytest.mark.parametrize(("game", "players", "option", "sentence"), [
    ("prolix-classic", "Ann,Ben,Cat,Dan", ("--teams", "Ann+Ben,Cat+Dan"),
     "--teams is for phlounder, not prolix-classic."),
    ("dexikon", "Ann,Ben,Cat", ("--children", "Cat"), "--children is for phlounder, not dexikon."),
    ("road", "Ann,Ben", ("--variant", "quick"), "--variant is for dexikon, not road."),
    ("prolix-classic", "Ann,Ben,Cat", ("--set-size", "100"), "--set-size is for road, not prolix-classic."),
    ("road", "Ann,Ben", ("--board", BOARD), f"--board is for {PROLIX}, not road."),
    ("dexikon", "Ann,Ben", ("--timer", "30"), f"--timer is for {PROLIX}, not dexikon."),
    ("phlounder", "Ann,Ben", ("--start", "Ann"), "--start is for dexikon, prolix-classic, prolix-redux and road, "
                                                 "not phlounder."),
    ("prolix-duel", "Ann,Ben", ("--start", "Ben"), "--start is for dexikon, prolix-classic, prolix-redux and road, "
                                                   "not prolix-duel."),
    ("prolix-duel", "Ann,Ben", ("--tie-window", "1"), "--tie-window is for prolix-classic, not prolix-duel."),
    ("prolix-redux", "Ann,Ben,Cat", ("--challenge-vote",), "--challenge-vote is for prolix-classic, not prolix-redux."),
    ("road", "Ann,Ben", ("--auto-reject",), "--auto-reject is for dexikon, phlounder, prolix-classic, prolix-duel, "
                                            "prolix-redux and prolix-solo, not road."),
])
def test_an_option_of_another_game_is_refused_before_the_game(tmp_path, game, players, option, sentence):
    log = tmp_path / "x.log"
    proc = voice_host("play", "--game", game, "--players", players, "--no-voice", "--typed", "--log", str(log),
                      *option, stdin="Ann: scores\n")
    fails_with(proc, sentence)
    assert not log.exists()


def test_the_table_of_game_options_names_real_games_and_options():
    from voice_host.host.checks import GAME_OPTIONS

    options = every_option(cli.build_parser())
    for option, games in GAME_OPTIONS.items():
        assert option in options and set(games) <= set(REGISTRY), option


@pytest.mark.parametrize(("game", "players", "option"), [
    ("phlounder", "Ann,Ben,Cat,Dan", ("--teams", "Ann+Ben,Cat+Dan", "--children", "Cat")),
    ("dexikon", "Ann,Ben", ("--variant", "quick", "--start", "Ben", "--auto-reject")),
    ("road", "Ann,Ben", ("--set-size", "100", "--start", "Ann")),
    ("prolix-redux", "Ann,Ben,Cat", ("--board", BOARD, "--start", "Ann", "--timer", "20")),
    ("prolix-classic", "Ann,Ben,Cat", ("--tie-window", "1", "--challenge-vote", "--auto-reject")),
])
def test_a_games_own_options_are_taken(game, players, option):
    proc = voice_host("play", "--game", game, "--players", players, "--no-voice", "--typed", *option,
                      stdin="Ann: scores\n")
    assert proc.returncode == 0, proc.stderr
    assert proc.stderr == ""


# ---------------------------------------------------------------------- the opening
def test_the_table_modes_opening_says_the_board_once():
    proc = voice_host("play", "--players", "Ann,Ben,Cat", "--start", "Ann", "--board", BOARD, "--no-voice",
                      "--typed", stdin="")
    assert proc.returncode == 0, proc.stderr
    assert proc.stdout.splitlines() == ["host: Ann starts.", "host: Prolix Classic for Ann, Ben and Cat: 6 rounds.",
                                        f"host: {SAID_BOARD}", "host: Round 1: Ann's turn."]


@pytest.mark.parametrize(("game", "players", "opening"), [
    ("prolix-solo", "Ann", ["Prolix Solo for Ann: 6 rounds.", SAID_BOARD, "Round 1: Ann's turn.",
                            "Round 1: reach 15 to stay alive; you have 0.", "The timer is running: 45 seconds."]),
    ("prolix-duel", "Ann,Ben", ["Prolix Duel for Ann and Ben: first to 5 marks wins.", SAID_BOARD, "Round 1."]),
    ("prolix-redux", "Ann,Ben,Cat", ["Ann starts.", "Prolix Redux for Ann, Ben and Cat: 12 rounds.", SAID_BOARD,
                                     "Round 1: Ann's turn."]),
])
def test_every_prolix_mode_opens_with_the_tables_board_once(play, game, players, opening):
    start = "@start Ann\n" if game == "prolix-redux" else ""
    _, lines = play(f"{start}@board {BOARD}\n", players, game=game)
    assert lines[:len(opening)] == opening
    assert lines.count(SAID_BOARD) == 1


def test_a_board_given_during_the_game_is_still_said(play):
    _, lines = play(f"@start Ann\n@board {BOARD}\nAnn: jewelers\n@board {BOARD}\n")
    assert lines.count(SAID_BOARD) == 2  # the opening, and the new board after Ann's word


# ---------------------------------------------------------------------- Ctrl-D at a terminal
def at_a_terminal(args: list[str], lines: list[str], env: dict | None = None, wait_for=None, ctrl_c: bool = False):
    """Run ``voice-host ARGS`` with a terminal as its input: type ``lines``, then Ctrl-D
    (``ctrl_c``: Ctrl-C instead). Returns (exit status, stdout lines, stderr)."""
    master, slave = pty.openpty()
    proc = subprocess.Popen([sys.executable, "-m", "voice_host.cli", *args], cwd=ROOT, stdin=slave,
                            stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True, env=env,
                            preexec_fn=ctrl_c_reaches_it)
    os.close(slave)
    try:
        for line in lines:
            os.write(master, line.encode() + b"\n")
        deadline = time.monotonic() + 60
        while wait_for is not None and not wait_for() and time.monotonic() < deadline:
            time.sleep(0.05)
        time.sleep(0.5)
        if ctrl_c:
            proc.send_signal(signal.SIGINT)
        else:
            os.write(master, b"\x04")  # Ctrl-D: end of input at a terminal
        out, err = proc.communicate(timeout=60)
    finally:
        os.close(master)
    return proc.returncode, out.splitlines(), err


def test_ctrl_d_at_a_terminal_says_the_scores_and_the_resume_command(tmp_path):
    log = tmp_path / "live.log"
    rc, out, err = at_a_terminal(["play", "--players", "Ann,Ben,Cat", "--start", "Ann", "--board", BOARD,
                                  "--no-voice", "--typed", "--log", str(log)], ["Ann: jewelers"],
                                 wait_for=lambda: log.exists() and "jewelers" in log.read_text())
    assert rc == 0, err
    assert "Traceback" not in err
    assert out[-4:] == ["host: Ann scores 15 points for jewelers.", "host: Ann, draw 2 tiles and tell me the letters.",
                        "host: Round 1 of 6. Scores: Ann 15; Ben 0; Cat 0.",
                        f"host: Stopped. The game is saved; to carry on, run: voice-host resume {log} --no-voice"]
    resumed = voice_host("resume", str(log), "--no-voice", stdin="@draw M N\nBen: whose turn\n")
    assert resumed.returncode == 0, resumed.stderr
    assert "host: Round 1: Ben's turn." in resumed.stdout


def road_without_a_log(tmp_path, line: str, logged: str):
    """A road game typed at a terminal with no --log: ``line`` typed (once the saved game
    holds ``logged``), then Ctrl-D. Returns (stdout lines, the game saved)."""
    env = {**os.environ, "XDG_DATA_HOME": str(tmp_path)}
    games = tmp_path / "voice-host" / "games"
    rc, out, err = at_a_terminal(["play", "--game", "road", "--players", "Ann,Ben", "--start", "Ann", "--no-voice",
                                  "--typed"], [line], env=env,
                                 wait_for=lambda: any(logged in p.read_text() for p in games.glob("*.log")))
    assert rc == 0, err
    [saved] = games.glob("road-*.log")
    return out, saved


def test_ctrl_d_without_a_log_names_the_saved_game(tmp_path):
    out, saved = road_without_a_log(tmp_path, "Ann: play fire for 7", "fire")
    assert out[-2:] == ["host: Scores: Ann 7; Ben 0.",
                        f"host: Stopped. The game is saved; to carry on, run: voice-host resume {saved} --no-voice"]


def test_a_game_over_at_a_terminal_ends_at_ctrl_d_without_a_resume_command(tmp_path):
    log = tmp_path / "over.log"
    rc, out, err = at_a_terminal(["play", "--game", "road", "--players", "Ann,Ben", "--start", "Ann", "--no-voice",
                                  "--typed", "--log", str(log)], ["Ann: pass", "Ben: pass"],
                                 wait_for=lambda: log.exists() and log.read_text().count("pass") == 2)
    assert rc == 0, err
    assert not any("Stopped" in line for line in out)
    assert out[-1].startswith("host: Game over")


def test_ctrl_c_after_the_game_is_over_says_the_result_and_no_resume_command(tmp_path):
    log = tmp_path / "over.log"
    rc, out, err = at_a_terminal(["play", "--game", "road", "--players", "Ann,Ben", "--start", "Ann", "--no-voice",
                                  "--typed", "--log", str(log)], ["Ann: play fire for 7", "Ben: pass", "Ann: pass"],
                                 wait_for=lambda: log.exists() and log.read_text().count("pass") == 2, ctrl_c=True)
    assert rc == 130, err
    assert not any("Stopped" in line or "resume" in line for line in out)
    assert out[-1] == "host: Game over. Final scores: Ann 7; Ben 0. Ann wins!"


def test_typed_lines_that_end_are_not_a_live_game(tmp_path):
    proc = voice_host("play", "--players", "Ann,Ben,Cat", "--start", "Ann", "--board", BOARD, "--no-voice",
                      "--typed", stdin="Ann: jewelers\n")
    assert proc.returncode == 0, proc.stderr
    assert proc.stdout.splitlines()[-1] == "host: Ann, draw 2 tiles and tell me the letters."


def test_a_live_game_says_where_it_is_saved_when_it_starts_and_in_help(tmp_path):
    out, saved = road_without_a_log(tmp_path, "Ann: help", "help")
    assert out[0] == f"host: This game is saved as it goes, in {saved}."  # before the game's opening
    assert "host: Type 'Name: word' lines; 'Name: help' for commands; Ctrl-D or Ctrl-C stops and saves." in out
    [help_] = [line for line in out if "'speak softer', or 'help'." in line]
    assert help_.endswith(f"This game is saved in {saved}; Ctrl-C stops it, and voice-host resume {saved} "
                          "carries on.")
