"""Small things a first evening trips on, each answered with a sentence that says what
to do: a script saved as Latin-1, a game named with capitals, names
separated by semicolons, where the default recognizer's model is."""

from __future__ import annotations

from voice_host import cli


def said(capsys, *argv: str) -> tuple[int, str, str]:
    code = cli.main(list(argv))
    out = capsys.readouterr()
    return code, out.out, out.err


def test_a_script_with_one_latin_1_byte_names_its_line(tmp_path, capsys):
    script = tmp_path / "game.txt"
    script.write_bytes("Ann: jewelers\n@draw M N\nBen: café\n".encode("latin-1"))
    code, out, err = said(capsys, "play", "--players", "Ann,Ben,Cat", "--no-voice", "--script", str(script))
    assert code == 2 and "host:" not in out
    assert err == (f"voice-host: Line 3 of {script} is not UTF-8 text ('Ben: caf\N{REPLACEMENT CHARACTER}'): save "
                   "the file as UTF-8 and try again.\n")
    binary = tmp_path / "noise.txt"
    binary.write_bytes(bytes(range(1, 256)) * 4)  # no NUL, but no text in any encoding
    assert said(capsys, "play", "--players", "Ann,Ben,Cat", "--no-voice", "--script", str(binary))[2] == \
        f"voice-host: {binary} is not a text file, so it can't be a script.\n"


def test_a_game_named_with_capitals_or_spaces_is_that_game(tmp_path, capsys):
    script = tmp_path / "game.txt"
    script.write_text("@dice 5N\n", encoding="utf-8")
    for name in ("Phlounder", "PHLOUNDER ", "Prolix Duel"):
        code, out, err = said(capsys, "play", "--game", name, "--players", "Ann,Ben", "--no-voice", "--script",
                              str(script))
        assert code == 0 and err == "", (name, err)
        assert out.splitlines()[0].startswith("host: Phlounder" if "hl" in name.lower() else "host: Prolix Duel")


def test_names_separated_by_semicolons_or_spaces_are_told_to_use_commas(capsys):
    for players in ("Ann;Ben;Cat", "Ann Ben Cat", "Ann | Ben | Cat"):
        code, _, err = said(capsys, "play", "--players", players, "--no-voice")
        assert code == 2
        assert err == (f"voice-host: '{players}' is one name to me, and prolix-classic needs more players: separate "
                       "the names with commas, --players Ann,Ben,Cat.\n")
    assert said(capsys, "play", "--players", "Ann", "--no-voice")[2] == (
        "voice-host: prolix-classic is for 3 to 5 players, not 1. For 1 player, play --game prolix-solo.\n")


def test_models_where_names_the_default_engine_first(capsys):
    code, out, _ = said(capsys, "models", "where")
    assert code == 0
    first = out.splitlines()[0]
    assert first.startswith("moonshine (the default): ") and ("base-en" in first or "missing" in first)


def test_a_wrong_join_code_is_told_where_the_code_is():
    """It said "the host says it and shows it on the laptop", and nothing showed it: the
    scoreboard hides the code (a phone across the room could read it)."""
    from voice_host.host.announce.questions import HostSentences

    assert HostSentences().phone_refused("code") == (
        "That is not the join code: it is the six digits the host said aloud when the game began, printed in the "
        "host's terminal on the laptop (the scoreboard never shows it); if nobody has it, say 'new code' and the "
        "host says a fresh one.")
