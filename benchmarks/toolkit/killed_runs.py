"""benchmarks/kill.py's runs: ``voice-host`` in a forked child, SIGKILLed where a :class:`Kill` lands."""

from __future__ import annotations

import json
import os
import signal
import sys
import time
from dataclasses import dataclass
from pathlib import Path
from typing import NamedTuple


@dataclass(frozen=True)
class Kill:
    """Where a kill lands: ``after`` seconds into the run; or at a log write: the run's
    ``write``-th (1: the first record appended; 0: the log's creation) or the first of
    the record ``at`` ("Ann: picnic", "@wait 21", "begin"), ``how``: "before" the record
    is written, "torn" (half of its line written), "after" it is on disk."""

    after: float | None = None
    write: int | None = None
    at: str | None = None
    how: str = "after"

    def __str__(self) -> str:
        if self.at is not None:
            return f"at '{self.at}' ({self.how})"
        if self.write is None:
            return f"after {self.after:.3f} s"
        return "creating the log" if self.write == 0 else f"write {self.write} ({self.how})"

    def lands(self, n: int, record: dict) -> bool:
        """Does it land on the run's ``n``-th write, of ``record``?"""
        return self.write == n if self.at is None else self.at == said(record)


def said(record: dict) -> str:
    """A log record as the line that made it: "Ann: picnic", "@wait 21", "begin"."""
    if record.get("begin"):
        return "begin"
    if "wait" in record:
        return f"@wait {record['wait']:g}"
    if "directive" in record:
        return "@" + " ".join([record["directive"], *record.get("args", ())])
    return f"{record.get('speaker')}: {record.get('text')}"


class Run(NamedTuple):
    """One run of the command line: how it ended, and what it left."""

    killed: bool
    status: int
    writes: int
    stderr: str


# ---------------------------------------------------------------------- one run of the CLI
def _child(argv: list[str], stdin_text: str | None, kill: Kill | None, folder: Path) -> None:
    """In the forked child: run ``voice-host ARGV`` with its output in ``folder``, killing
    itself at ``kill``'s write; never returns."""
    code = 1
    try:
        out = os.open(folder / "stdout.txt", os.O_WRONLY | os.O_CREAT | os.O_TRUNC)
        err = os.open(folder / "stderr.txt", os.O_WRONLY | os.O_CREAT | os.O_TRUNC)
        os.dup2(out, 1)
        os.dup2(err, 2)
        sys.stdout = open(1, "w", encoding="utf-8", closefd=False)  # not a test runner's capture
        sys.stderr = open(2, "w", encoding="utf-8", closefd=False)
        (folder / "stdin.txt").write_text(stdin_text or "", encoding="utf-8")
        sys.stdin = open(folder / "stdin.txt", encoding="utf-8")
        _hooks(kill, folder)
        from voice_host import cli

        code = cli.main(argv)
    except SystemExit as exc:
        code = exc.code if isinstance(exc.code, int) else 1
    except BaseException:
        import traceback

        traceback.print_exc()
    finally:
        try:
            sys.stdout.flush()
            sys.stderr.flush()
        finally:
            os._exit(code or 0)


def _hooks(kill: Kill | None, folder: Path) -> None:
    """Count the log's writes (and die at ``kill``'s), and keep the sheets read at the end."""
    from voice_host.host import log as logmod
    from voice_host.host.session import Session

    writes = [0]
    die = lambda: os.kill(os.getpid(), signal.SIGKILL)  # noqa: E731
    write, whole, result = logmod.EventLog._write, logmod._write_whole, Session.result

    def counted_write(self, record: dict) -> None:
        writes[0] += 1
        (folder / "writes.txt").write_text(str(writes[0]))
        lands = kill is not None and kill.lands(writes[0], record)
        if lands and kill.how == "before":
            die()
        if lands and kill.how == "torn":
            line = json.dumps(record, separators=(",", ":")) + "\n"
            self._file.write(line[:max(1, len(line) // 2)])
            self._file.flush()
            os.fsync(self._file.fileno())
            die()
        write(self, record)
        if lands:
            die()

    def created(path, lines) -> None:
        if kill is not None and kill.write == 0:  # the new file written, not yet in its place
            tmp = path.with_name(f".{path.name}.{os.getpid()}.new")
            tmp.write_text("".join(json.dumps(d) + "\n" for d in lines[:1]))
            die()
        whole(path, lines)

    def sheets_too(self) -> dict:
        out = result(self)
        (folder / "sheets.json").write_text(json.dumps(self.ask("sheets", quiet=True)))
        return out

    logmod.EventLog._write = counted_write
    logmod._write_whole = created
    Session.result = sheets_too


def run_cli(argv: list[str], folder: Path, *, stdin_text: str | None = None, kill: Kill | None = None) -> Run:
    """Run ``voice-host ARGV`` in a forked child of this (preloaded) process; kill it as
    ``kill`` says."""
    folder.mkdir(parents=True, exist_ok=True)
    for name in ("writes.txt", "sheets.json"):
        (folder / name).unlink(missing_ok=True)
    sys.stdout.flush()
    sys.stderr.flush()
    pid = os.fork()
    if pid == 0:
        _child(argv, stdin_text, kill, folder)
    if kill is not None and kill.after is not None:
        deadline = time.monotonic() + kill.after
        while (left := deadline - time.monotonic()) > 0:
            done, status = os.waitpid(pid, os.WNOHANG)
            if done:
                break
            time.sleep(min(left, 0.002))
        else:
            os.kill(pid, signal.SIGKILL)
            done, status = os.waitpid(pid, 0)
    else:
        done, status = os.waitpid(pid, 0)
    writes = folder / "writes.txt"
    err = folder / "stderr.txt"
    return Run(os.WIFSIGNALED(status) and os.WTERMSIG(status) == signal.SIGKILL,
               os.waitstatus_to_exitcode(status), int(writes.read_text() or 0) if writes.exists() else 0,
               err.read_text(errors="replace") if err.exists() else "")
