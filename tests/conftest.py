"""Fixtures shared by every test folder (helpers to import are in support.py)."""

from __future__ import annotations

import json
import os
import textwrap

import pytest

os.environ["VOICE_HOST_RERAISE"] = "1"  # a rule that raises fails its test, in process and in the CLI runs
from support import Core, Table, voice_host  # noqa: E402


@pytest.fixture
def play(tmp_path):
    """play(script, players=..., *extra) -> (result dict, host lines)."""

    def run(script: str, players: str = "Ann,Ben,Cat", *extra: str, game: str = "prolix-classic", seed: int = 7):
        path = tmp_path / "game.txt"
        path.write_text(textwrap.dedent(script), encoding="utf-8")
        out = tmp_path / "result.json"
        proc = voice_host("play", "--game", game, "--players", players, "--seed", str(seed), "--script", str(path),
                          "--no-voice", "--result-json", str(out), *extra)
        assert proc.returncode == 0, proc.stderr
        lines = [line[len("host: "):] for line in proc.stdout.splitlines() if line.startswith("host: ")]
        return json.loads(out.read_text()), lines

    return run


@pytest.fixture(scope="session")
def words():
    """The default dictionary and morphology (built once, then cached on disk)."""
    from voice_host.words import Words

    return Words.load()


@pytest.fixture(autouse=True)
def rules_raise(monkeypatch):
    """A rule that raises is a test failure, not "Sorry, something went wrong"."""
    from voice_host.games.base import Game

    monkeypatch.setattr(Game, "reraise", True)


@pytest.fixture
def core(words):
    """core(game=..., players=..., **options) -> a Core: actions in, events out."""
    return lambda *args, **kw: Core(words, *args, **kw)


@pytest.fixture
def table(words):
    """table(**options) -> a Table in table mode on the jewelers board, Ann to start."""
    return lambda *args, **kw: Table(words, *args, **kw)
