"""The command line's own mistakes (a number that is no number, a missing or unknown
option, no command at all) are each one sentence a player understands, printed as
``voice-host: ...`` with exit code 2 and no usage text; and every option of every
command says in its help what it is for."""

from __future__ import annotations

import argparse

import pytest
from support import voice_host

from voice_host import cli
from voice_host.games import REGISTRY
from voice_host.messages import Intent

pytestmark = pytest.mark.slow  # voice-host run as a command

PLAY = ["play", "--players", "Ann,Ben,Cat", "--no-voice"]


def said(capsys: pytest.CaptureFixture[str], argv: list[str]) -> str:
    """What ``voice-host ARGV`` says when it refuses to start (it must refuse, with 2)."""
    assert cli.main(argv) == 2
    out, err = capsys.readouterr()
    assert out == ""
    assert err.startswith("voice-host: ") and err.endswith("\n") and err.count("\n") == 1, err
    return err[len("voice-host: "):-1]


@pytest.mark.parametrize(("argv", "sentence"), [
    ([*PLAY, "--timer", "abc"], "--timer needs a number of seconds, not 'abc'."),
    ([*PLAY, "--seed", "xyz"], "--seed needs a whole number, not 'xyz'."),
    ([*PLAY, "--seed", "3.5"], "--seed needs a whole number, not '3.5'."),
    ([*PLAY, "--tie-window", "soon"], "--tie-window needs a number of seconds, not 'soon'."),
    ([*PLAY, "--pace", "fast"], "--pace needs a number of seconds, not 'fast'."),
    ([*PLAY, "--game", "road", "--set-size", "many"], "--set-size needs a whole number of tiles, not 'many'."),
    ([*PLAY, "--timer"], "--timer needs a number of seconds after it."),
    ([*PLAY, "--board"], "--board needs a value after it (playing with real tiles: the eight tiles on the table, "
     "e.g. 'W B J S L C D G')."),
    (["play", "--no-voice"], "Say who is playing: --players and their names in clockwise seating order, "
                             "e.g. --players Ann,Ben,Cat."),
    ([*PLAY, "--colour", "red"], "There is no option --colour for voice-host play; voice-host play --help lists them."),
    (["play", "--players", "Ann,", "Ben"], "voice-host play does not know what 'Ben' is: put quotes around a value "
                                           "with spaces in it, e.g. --players 'Ann, Ben, Cat'."),
    (["resume", "game.log", "again"], "voice-host resume does not know what 'again' is; voice-host resume --help "
                                      "says what it takes."),
    (["word", "--wordlist"], "--wordlist needs a value after it (the table's own word list instead of the default)."),
    ([*PLAY, "--ti", "5"], "--ti could be --tie-window or --timer: write the option out in full."),
    ([*PLAY, "--no-voice=yes"], "--no-voice takes no value: say just --no-voice."),
    ([], "Say what to do: voice-host play, resume, hear, word, models, devices or demo "
         "(voice-host --help says what each does)."),
    (["models"], "Say what to do: voice-host models fetch or where (voice-host models --help says what each does)."),
    (["resume"], "Say which game to carry on: voice-host resume and its event log, e.g. voice-host resume game.log."),
    (["word"], "Say which words to check, e.g. voice-host word jewelers geese."),
    (["word", "--used"], "--used needs a value after it (words already played, in order; WORD:PLAYER names who "
                         "played it)."),
])
def test_a_bad_command_line_is_one_sentence(capsys, argv, sentence):
    assert said(capsys, argv) == sentence


def test_a_choice_that_does_not_exist_is_still_one_sentence(capsys):
    assert said(capsys, ["plya"]).startswith("There is no command called plya; choose one of play, ")
    assert said(capsys, [*PLAY, "--game", "classic"]).startswith("There is no game called classic; choose one of ")


def test_the_real_command_prints_no_usage_text():
    proc = voice_host("play", "--players", "Ann,Ben,Cat", "--timer", "abc")
    assert (proc.returncode, proc.stdout, proc.stderr) == (2, "", "voice-host: --timer needs a number of seconds, "
                                                                  "not 'abc'.\n")


# ---------------------------------------------------------------------- help texts
COMMANDS = [[], ["play"], ["resume"], ["hear"], ["word"], ["demo"], ["devices"], ["models"], ["models", "fetch"],
            ["models", "where"]]


def parsers(parser: argparse.ArgumentParser, path: tuple[str, ...] = ()):
    """(command path, parser) for the command and every subcommand under it."""
    yield path, parser
    for action in parser._actions:
        if isinstance(action, argparse._SubParsersAction):
            for name, sub in action.choices.items():
                yield from parsers(sub, (*path, name))


def test_every_option_and_command_has_a_help_text():
    seen = []
    for path, parser in parsers(cli.build_parser()):
        seen.append(list(path))
        for action in parser._actions:
            if isinstance(action, argparse._SubParsersAction):
                for choice in action._choices_actions:
                    assert choice.help, f"voice-host {' '.join(path)} {choice.dest} has no help"
                continue
            name = "/".join(action.option_strings) or action.metavar or action.dest
            assert action.help and action.help != argparse.SUPPRESS, f"voice-host {' '.join(path)} {name} has no help"
    assert sorted(seen) == sorted(COMMANDS)


@pytest.mark.parametrize("path", COMMANDS, ids=lambda p: " ".join(p) or "voice-host")
def test_every_help_page_prints(capsys, path):
    with pytest.raises(SystemExit) as stop:
        cli.main([*path, "--help"])
    assert stop.value.code == 0
    assert capsys.readouterr().out.startswith("usage: voice-host")


def test_the_game_option_lists_the_games(capsys):
    for command in ("play", "hear"):
        parser = dict(parsers(cli.build_parser()))[(command,)]
        game = next(a for a in parser._actions if a.dest == "game")
        assert all(name in game.help for name in REGISTRY), game.help
    resume = dict(parsers(cli.build_parser()))[("resume",)]
    assert "log" in next(a for a in resume._actions if a.dest == "log").help


MARKS = "@, #, [ and ] mark a directive, a comment or a time in a typed line, never a player. Choose another name."


@pytest.mark.parametrize(("players", "sentence"), [
    ("Ann:x,Ben,Cat", "The name 'Ann:x' can't be used: a typed line ends a name at its first colon "
                      "('Ann:x: jewelers' would be Ann's). Choose another name."),
    ("@Ann,Ben,Cat", f"The name '@Ann' can't be used: {MARKS}"),
    ("Ann,#Ben,Cat", f"The name '#Ben' can't be used: {MARKS}"),
    ("Ann,Ben #2,Cat", f"The name 'Ben #2' can't be used: {MARKS}"),
    ("Ann,Ben,Cat[1]", f"The name 'Cat[1]' can't be used: {MARKS}"),
    ("<b>Ann</b>,Ben,Cat", "The name '<b>Ann</b>' can't be used: < and > would be read out as they are. "
                           "Choose another name."),
    ("Ann,Ben," + "C" * 41, f"The name '{'C' * 41}' can't be used: a name can be at most 40 letters long. "
                            "Choose another name."),
])
def test_a_name_no_typed_line_could_address_is_refused_before_the_game(capsys, players, sentence):
    assert said(capsys, ["play", "--players", players, "--no-voice"]) == sentence


def test_a_name_of_two_words_can_start_and_play(table):
    t = table("Mary Jane,Ben,Cat", start=None, board=None)
    said = t("@start Mary Jane\n@board W B J S L C D G\nMary Jane: jewelers")
    assert said[-2] == "Mary Jane scores 15 points for jewelers."
    assert t.state.start == "Mary Jane" and t.total("Mary Jane") == 15


def test_voice_host_version_says_the_version(capsys):
    from importlib.metadata import version

    with pytest.raises(SystemExit) as done:
        cli.main(["--version"])
    assert done.value.code == 0
    assert capsys.readouterr().out == f"voice-host {version('voice-host')}\n"


def test_a_name_of_two_words_can_be_challenged_and_asked_about(table):
    from voice_host.host import intents

    players = ["Mary Jane", "Ben", "Cat"]
    assert intents.parse("challenge Mary Jane", players) == Intent("challenge", target="Mary Jane",
                                                                           text="challenge Mary Jane")
    assert intents.parse("challenge Mary Jane's word", players).target == "Mary Jane"
    assert intents.parse("sheet Mary Jane", players).target == "Mary Jane"
    assert intents.parse("Mary Jane's sheet", players).target == "Mary Jane"
    assert intents.phones_request("free Mary Jane's phone", players) == ("free", "Mary Jane")
