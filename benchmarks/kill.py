"""kill -9 at random moments, resume, and compare with the game that was never killed.

    .venv/bin/python benchmarks/kill.py                 # 1,000 kills, a CPU hog beside them
    .venv/bin/python benchmarks/kill.py --kills 200 --no-load --seed 2 --jobs 1

Realistic games through the real command line (``voice_host.cli.main``: play, resume),
each with an event log: Prolix Classic from a script (a timer that runs out, interrupts,
simultaneous words ``[+0]``, a challenge, undo, ``@undo``, brief and full, questions, the
last word's challenge window), Prolix Classic typed (``--start``, ``--timer``, piped
lines: a timer flip, a wait, an undo that asks its player first, answered yes and no),
the road game from a script (``--set-size``) and Dexikon typed (challenges answered and
unanswered, the end and its last words).

The parent loads the program and the dictionary once, plays each game uninterrupted for
its reference (result JSON, every sheet as the host reads it, the log), then for every
kill forks a child that runs ``voice-host play`` and SIGKILLs it: either after a random
time within the game's run (most kills), or exactly at one of its log writes (before the
record is written, half-written, or just after it is on disk; write 0 is the log's
creation), so the moments between an input being logged and applied are hit every time.
A kill that lands before the log exists is played again from the start, as a player
would; otherwise the game is resumed (``voice-host resume LOG``, with ``--script`` for a
script, the typed lines the log does not hold on stdin for typed play), and one resume in
four is itself killed and resumed again. The finished game's result JSON, its sheets and
its log (the inputs, in order, with their times) must equal the reference's.

Prints ``kill: N of N resumes exact`` and every mismatch with what was killed where and
what differs. ``--load`` (on by default) keeps one core busy with a CPU hog beside the
games; ``--jobs`` runs kills side by side.
"""

from __future__ import annotations

import argparse
import json
import os
import random
import signal
import sys
import tempfile
import time
from dataclasses import dataclass
from pathlib import Path
from typing import NamedTuple



@dataclass(frozen=True)
class Scenario:
    """One game: play's options, and its script (or the lines typed on stdin)."""

    name: str
    options: tuple[str, ...]
    lines: str
    typed: bool = False
    config: str = ""
    """A table's settings file (TOML) for --config; empty: none."""


CLASSIC_SCRIPT = """\
@start Ann
Ann: jewelers
Ben: flummoxed
Cat: scores
Cat: picnicking
[+0] Ann: picnic
Ann: scrapbooking
Cat: timer
@wait 31
Cat: hurdled
Ann: plucky
Ben: whose turn
Ben: giving
Cat: begrudging
Ann: wrench
Ann: undo
Ann: jubilantly
Ben: wrenches
Cat: challenge
Ben: be brief
Cat: geese
Ann: catfish
[+0] Ben: franks
Ben: time
@undo
Ann: timer
@wait 10
Ben: counterfeiting
Cat: memo
Ann: more detail
Ann: prune
Ben: ruin
Cat: flummox
Ann: sheets
Ben: outset
[+0.3] Cat: outsets
Ann: bag
Cat: quiz
Ben: xylophone
Cat: yodel
Ann: zebra
[+3] Ben: challenge
Cat: scores
"""

CLASSIC_TYPED = """\
Ann: jewelers
Ben: flummoxed
Ann: timer
@wait 21
Cat: picnicking
[+0] Ben: picnic
Ann: scrapbooking
Cat: undo
Ann: yes
Ben: scores
Ann: hurdled
Cat: plucky
[+0.2] Ben: pluck
Ben: timer
Ann: giving
@wait 25
Cat: whose turn
Cat: begrudging
Ann: challenge
Ben: jubilantly
Cat: wrenches
Ann: undo
Cat: no
Ann: geese
Ben: catfish
[+0.4] Cat: catfish
Ann: sheets
Ben: franks
Cat: memo
Ann: prune
Ben: ruin
Cat: outset
[+5] Ann: challenge
Ben: scores
"""

ROAD_SCRIPT = """\
@start Ann
Ann: play fire for 7, fir for six, ire for 3 and re for 2 with 4 tiles
Ben: challenge
Ben: play road for 5
Ben: mulligan
Cat: scores
Ann: play road for 5, ad for 3 with 3 tiles
Ben: mulligan
Ann: pass
Ben: play zebra for 16 with 5 tiles
Ann: undo
Ben: play zebras for 18 with 6 tiles
Ann: bag
Ann: pass
Ben: play xqzt for 9 with 4 tiles
Ben: play zoo for twelve with 3 tiles
Ann: sheet
Ann: pass
Ben: pass
Ann: scores
"""

DEXIKON_TYPED = """\
Barbara: bank catch for 5
Colin: challenge
Barbara: check
Colin: bank dog for 3
Barbara: bank counts for six
Colin: challenge Barbara
@wait 10
Colin: bank flurb for 4
Barbara: challenge
Colin: check
Colin: bank mouse for 4
Barbara: scores
Barbara: bank catfish for 9
Colin: challenge
Barbara: no
Colin: spend catch for 3
Colin: spend
Barbara: bank finch for 5
Colin: bank zebra for 6
Barbara: challenge
Colin: check
Barbara: bank gifted for 8
Barbara: penalty 3
Colin: bank glorp for 5
Barbara: challenge
Colin: concede
Colin: bank blorp for 5
Barbara: challenge
@wait 10
Barbara: bank franking for 11
Colin: bank horse for 5
Colin: undo
Colin: bank horses for 6
Barbara: bank canning for 7
Colin: bank tiger for 6
@wait 10
Barbara: penalty 2
Barbara: returned penalty one
Barbara: bonus 2
Barbara: last word counterfeiting for 15
Colin: last word zebras for 8
Colin: sheets
"""

SCENARIOS = (
    Scenario("classic-script", ("--players", "Ann,Ben,Cat", "--seed", "5"), CLASSIC_SCRIPT,
             config="[prolix]\nrounds_3_players = 5\ntimer = 30\n"),
    Scenario("classic-typed", ("--players", "Ann,Ben,Cat", "--seed", "8", "--start", "Ann", "--timer", "20"),
             CLASSIC_TYPED, typed=True, config="[prolix]\nrounds_3_players = 4\n"),
    Scenario("road-script", ("--game", "road", "--players", "Ann,Ben", "--seed", "3", "--set-size", "40"),
             ROAD_SCRIPT),
    Scenario("dexikon-typed", ("--game", "dexikon", "--players", "Barbara,Colin", "--seed", "4",
                               "--start", "Barbara"), DEXIKON_TYPED, typed=True),
)


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


class Reference(NamedTuple):
    result: dict
    sheets: list[str]
    records: list[dict]
    seconds: float
    writes: int


class Outcome(NamedTuple):
    scenario: str
    kills: tuple[str, ...]
    exact: bool
    detail: str


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


# ---------------------------------------------------------------------- the games
def _files(s: Scenario, work: Path) -> dict[str, Path]:
    work.mkdir(parents=True, exist_ok=True)
    files = {"script": work / f"{s.name}.txt", "config": work / f"{s.name}.toml"}
    files["script"].write_text(s.lines, encoding="utf-8")
    files["config"].write_text(s.config, encoding="utf-8")
    return files


def _play_argv(s: Scenario, files: dict[str, Path], log: Path, out: Path) -> list[str]:
    argv = ["play", *s.options, "--no-voice", "--log", str(log), "--result-json", str(out)]
    if s.config:
        argv += ["--config", str(files["config"])]
    return argv + ([] if s.typed else ["--script", str(files["script"])])


def _records(log: Path) -> list[dict]:
    """The log's input records as their JSON, whole lines only, without the marks of a
    break (``pause``: Ctrl-C kept the clock there)."""
    lines = log.read_bytes().split(b"\n")[:-1]
    return [d for d in (json.loads(x) for x in lines[1:] if x.strip()) if not d.get("pause")]


def typed_held(log: Path) -> int:
    """How many typed lines the log holds: the inputs after the game's opening (typed
    play begins the game before it reads a line)."""
    try:
        records = _records(log)
    except (OSError, ValueError):
        return 0
    begun = next((i for i, d in enumerate(records) if d.get("begin")), None)
    return 0 if begun is None else len(records) - begun - 1


def reference(s: Scenario, work: Path) -> Reference:
    files = _files(s, work)
    folder = work / f"{s.name}-reference"
    log, out = folder / "game.log", folder / "result.json"
    folder.mkdir(parents=True, exist_ok=True)
    log.unlink(missing_ok=True)
    start = time.monotonic()
    run = run_cli(_play_argv(s, files, log, out), folder, stdin_text=s.lines if s.typed else None)
    seconds = time.monotonic() - start
    if run.status != 0:
        raise RuntimeError(f"{s.name}: the uninterrupted game failed: {run.stderr.strip()[-2000:]}")
    return Reference(json.loads(out.read_text()), json.loads((folder / "sheets.json").read_text()), _records(log),
                     seconds, run.writes)


def trial(s: Scenario, ref: Reference, kills: list[Kill], folder: Path) -> Outcome:
    """Play ``s`` killed at ``kills[0]``, resume (killed again at each further kill), resume
    once more to the end, and compare with ``ref``."""
    files = _files(s, folder)
    log, out = folder / "game.log", folder / "result.json"
    for p in (log, out):
        p.unlink(missing_ok=True)
    done: list[str] = []
    steps = [*kills, None]
    run = None
    for i, kill in enumerate(steps):
        if not log.exists():  # killed before the log was made: a player starts the game again
            argv = _play_argv(s, files, log, out)
            stdin = s.lines if s.typed else None
            what = "play"
        else:
            argv = ["resume", str(log), "--no-voice", "--result-json", str(out)]
            if s.typed:
                held = typed_held(log)
                stdin = "".join(s.lines.splitlines(keepends=True)[held:])
            else:
                argv += ["--script", str(files["script"])]
                stdin = None
            what = "resume"
        run = run_cli(argv, folder / f"run{i}", stdin_text=stdin, kill=kill)
        done.append(f"{what} {kill}" + (f" (killed, {run.writes} writes)" if run.killed else " (ran to the end)")
                    if kill else what)
        if not run.killed and run.status != 0:
            return Outcome(s.name, tuple(done), False, f"{what} failed ({run.status}): {run.stderr.strip()[-1500:]}")
    assert run is not None
    problems = []
    result = json.loads(out.read_text()) if out.exists() else None
    if result != ref.result:
        problems.append("result: " + _diff_result(ref.result, result))
    sheets_file = folder / f"run{len(steps) - 1}" / "sheets.json"
    sheets = json.loads(sheets_file.read_text()) if sheets_file.exists() else None
    if sheets != ref.sheets:
        problems.append(f"sheets: expected {ref.sheets}, got {sheets}")
    records = _records(log) if log.exists() else []
    if records != ref.records:
        i = next((k for k, (a, b) in enumerate(zip(records, ref.records)) if a != b), min(len(records), len(ref.records)))
        problems.append(f"log: record {i + 1} differs: expected {ref.records[i] if i < len(ref.records) else None}, "
                        f"got {records[i] if i < len(records) else None} ({len(records)} records, "
                        f"{len(ref.records)} expected)")
    return Outcome(s.name, tuple(done), not problems, "; ".join(problems))


def _diff_result(expected: dict, got: dict | None) -> str:
    if got is None:
        return "none written"
    keys = sorted(k for k in set(expected) | set(got) if expected.get(k) != got.get(k) and k != "players")
    parts = [f"{k}: expected {expected.get(k)!r}, got {got.get(k)!r}" for k in keys]
    want = {p["name"]: p for p in expected.get("players", ())}
    have = {p["name"]: p for p in got.get("players", ())}
    for name in sorted(set(want) | set(have)):
        a, b = want.get(name, {}), have.get(name, {})
        if a != b:
            fields = sorted(k for k in set(a) | set(b) if a.get(k) != b.get(k))
            parts.append(f"{name}: " + ", ".join(f"{k} expected {a.get(k)!r}, got {b.get(k)!r}" for k in fields))
    return "; ".join(parts)


# ---------------------------------------------------------------------- many kills
def plan(n: int, seed: int, refs: dict[str, Reference]) -> list[tuple[Scenario, list[Kill]]]:
    """``n`` trials: the games in turn; most kills at a random time within the game's run,
    the rest at a random log write; one resume in four killed again."""
    rng = random.Random(seed)
    trials = []
    for i in range(n):
        s = SCENARIOS[i % len(SCENARIOS)]
        ref = refs[s.name]
        kills = []
        while True:
            if rng.random() < 0.6:
                kills.append(Kill(after=rng.uniform(0.0, ref.seconds)))
            else:
                kills.append(Kill(write=rng.randint(0, ref.writes), how=rng.choice(("before", "torn", "after"))))
            if len(kills) >= 3 or rng.random() >= 0.25:
                break
        trials.append((s, kills))
    return trials


def run_trials(trials: list[tuple[Scenario, list[Kill]]], refs: dict[str, Reference], work: Path,
               jobs: int = 1, progress=None) -> list[Outcome]:
    """Every trial's outcome, ``jobs`` at a time (forked workers)."""
    if jobs <= 1:
        outcomes = []
        for i, (s, kills) in enumerate(trials):
            outcomes.append(trial(s, refs[s.name], kills, work / f"t{i % 8}"))
            if progress:
                progress(i + 1, outcomes[-1])
        return outcomes
    pids = []
    for w in range(jobs):
        sys.stdout.flush()
        pid = os.fork()
        if pid == 0:
            code = 0
            try:
                with open(work / f"outcomes-{w}.jsonl", "w") as f:
                    for i in range(w, len(trials), jobs):
                        s, kills = trials[i]
                        o = trial(s, refs[s.name], kills, work / f"w{w}")
                        f.write(json.dumps([i, *o]) + "\n")
                        f.flush()
            except BaseException:
                import traceback

                traceback.print_exc()
                code = 1
            os._exit(code)
        pids.append(pid)
    seen = 0
    while pids:
        for pid in list(pids):
            done, _ = os.waitpid(pid, os.WNOHANG)
            if done:
                pids.remove(pid)
        count = sum(len((work / f"outcomes-{w}.jsonl").read_text().splitlines())
                    for w in range(jobs) if (work / f"outcomes-{w}.jsonl").exists())
        if progress and count > seen:
            progress(count, None)
            seen = count
        time.sleep(0.5)
    rows = [json.loads(line) for w in range(jobs) if (work / f"outcomes-{w}.jsonl").exists()
            for line in (work / f"outcomes-{w}.jsonl").read_text().splitlines()]
    got = {r[0]: Outcome(r[1], tuple(r[2]), r[3], r[4]) for r in rows}
    return [got.get(i) or Outcome(s.name, tuple(map(str, kills)), False, "no outcome: its worker died")
            for i, (s, kills) in enumerate(trials)]


def references(work: Path, scenarios=SCENARIOS) -> dict[str, Reference]:
    return {s.name: reference(s, work / "references") for s in scenarios}


def preload() -> None:
    """Import the program and load the dictionary once, in the parent every run forks from."""
    import gc

    from voice_host import app, cli, config  # noqa: F401

    app.load_words(config.load(None, {}))
    gc.freeze()  # what is loaded stays out of the children's collections (and their copies of its pages)


def hog() -> int:
    """A CPU hog (a forked busy loop); returns its pid."""
    pid = os.fork()
    if pid == 0:
        signal.signal(signal.SIGTERM, signal.SIG_DFL)
        x = 0
        while True:
            x = (x * 31 + 7) % 1000003
    return pid


def main(argv: list[str] | None = None) -> int:
    from toolkit import report

    ap = report.arguments(__doc__, "50 kills (as --kills 50)")
    ap.add_argument("--kills", type=int, default=1000, help="how many games to kill (default 1000)")
    ap.add_argument("--seed", type=int, default=1, help="seed of the kills' plan")
    ap.add_argument("--jobs", type=int, default=2, help="kills run side by side (default 2)")
    ap.add_argument("--load", action=argparse.BooleanOptionalAction, default=True,
                    help="a CPU hog beside the games (default: on)")
    ap.add_argument("--keep", metavar="DIR", help="work in DIR and keep it (default: a temporary folder)")
    args = ap.parse_args(argv)
    if args.quick:
        args.kills = min(args.kills, 50)
    out = report.Report("kill", args.json)
    started = time.monotonic()
    preload()
    hogs = [hog()] if args.load else []
    try:
        shm = Path("/dev/shm")  # in memory where there is one: a kill leaves the same file, without fsync's wait
        with tempfile.TemporaryDirectory(prefix="voice-host-kill-", dir=shm if shm.is_dir() else None) as tmp:
            work = Path(args.keep or tmp)
            work.mkdir(parents=True, exist_ok=True)
            refs = references(work)
            for name, ref in refs.items():
                out.say(f"{name}: {len(ref.records)} logged inputs, {ref.writes} log writes, "
                      f"{ref.seconds:.2f} s uninterrupted")
            trials = plan(args.kills, args.seed, refs)

            def progress(k: int, _outcome) -> None:
                if k % 100 == 0 or k == len(trials):
                    out.say(f"  {k} of {len(trials)} kills ({time.monotonic() - started:.0f} s)")

            outcomes = run_trials(trials, refs, work, args.jobs, progress)
    finally:
        for pid in hogs:
            os.kill(pid, signal.SIGKILL)
            os.waitpid(pid, 0)
    exact = sum(o.exact for o in outcomes)
    for o in outcomes:
        if not o.exact:
            out.say(f"MISMATCH {o.scenario}: {' -> '.join(o.kills)}: {o.detail}")
    by = {}
    for o in outcomes:
        by.setdefault(o.scenario, []).append(o.exact)
    for name, marks in by.items():
        out.say(f"  {name}: {sum(marks)} of {len(marks)} exact")
    out.say(f"kill: {exact} of {len(outcomes)} resumes exact ({time.monotonic() - started:.0f} s, "
          f"{'with' if args.load else 'without'} a CPU hog, {args.jobs} at a time)")
    out.figures = {name: {"exact": sum(marks), "kills": len(marks)} for name, marks in by.items()}
    out.finish(exact=exact, kills=len(outcomes), load=args.load, jobs=args.jobs,
               mismatches=[f"{o.scenario}: {' -> '.join(o.kills)}: {o.detail}" for o in outcomes if not o.exact])
    return 0 if exact == len(outcomes) else 1


if __name__ == "__main__":
    sys.exit(main())
