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
from pathlib import Path
from typing import NamedTuple

from toolkit.kill_games import SCENARIOS, Scenario
from toolkit.killed_runs import Kill, run_cli


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
