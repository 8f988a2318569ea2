"""Test helpers shared by every test folder: import them as ``from support import ...``.

(pytest imports each folder's conftest.py under the same module name, so helpers that
tests import by name live here, not in a conftest.)
"""

from __future__ import annotations

import os
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


IN_CI = os.environ.get("CI", "").lower() == "true"


def need(ok: object, why: str) -> None:
    """Skip a test (on a developer's machine) or fail it (in CI, CI=true) unless ``ok``."""
    if not ok:
        if IN_CI:
            pytest.fail(f"required in CI: {why}", pytrace=False)
        pytest.skip(why)


def by_name(result: dict) -> dict:
    return {p["name"]: p for p in result["players"]}


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
