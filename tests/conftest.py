"""Shared test helpers: run the real `voice-host` command on a script."""

from __future__ import annotations

import json
import subprocess
import sys
import textwrap
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parent.parent


def voice_host(*args: str, stdin: str | None = None, timeout: float = 120) -> subprocess.CompletedProcess:
    """Run ``voice-host ARGS`` as a user would, from the repository root."""
    return subprocess.run(
        [sys.executable, "-m", "voice_host.cli", *args],
        cwd=ROOT, input=stdin, capture_output=True, text=True, timeout=timeout,
    )


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


def by_name(result: dict) -> dict:
    return {p["name"]: p for p in result["players"]}


@pytest.fixture(scope="session")
def words():
    """The default dictionary and morphology (built once, then cached on disk)."""
    from voice_host.words import Words

    return Words.load()


class Table:
    """A Prolix session driven by script lines, in process: ``table("Ann: jewelers")``.

    Returns the sentences the host said for those lines. Words waiting for the tie
    window are scored at the end of each call, as at the end of a script.
    """

    def __init__(self, words, players="Ann,Ben,Cat", *, seed=1, board="W B J S L C D G", start="Ann",
                 game="prolix-classic", **table):
        from voice_host import config
        from voice_host.host.session import Session, new_header

        cfg = config.load(overrides={"table": table})
        self.heard: list[str] = []
        self.session = Session(new_header(game, players.split(","), seed, cfg), words, self.heard.append)
        setup = []
        if start:
            setup.append(f"@start {start}")
        if board:
            setup.append(f"@board {board}")
        if setup:  # otherwise the game begins with the first line played
            self("\n".join(setup))

    @property
    def game(self):
        return self.session.game

    @property
    def state(self):
        return self.session.game.state

    def __call__(self, script: str) -> list[str]:
        from voice_host.cli import run_records
        from voice_host.host.script import parse_script

        before = len(self.heard)
        run_records(self.session, parse_script(textwrap.dedent(script), self.session.t))
        return self.heard[before:]

    def total(self, name: str) -> int:
        return self.game.totals(name)[0]


@pytest.fixture
def table(words):
    """table(**options) -> a Table in table mode on the jewelers board, Ann to start."""
    return lambda *args, **kw: Table(words, *args, **kw)
