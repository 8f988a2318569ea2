"""The common options of every benchmark and its report: a printed table, or with
``--json`` the figures as data on stdout (the text then goes to stderr)."""

from __future__ import annotations

import argparse
import contextlib
import json
import sys
from pathlib import Path


def arguments(doc: str, quick: str, conditions: str | None = None, available=None,
              model: bool = False, settings: bool = False) -> argparse.ArgumentParser:
    """A parser with --quick (``quick`` says what it does), --json [FILE], with ``model``
    --model, when ``conditions`` is given (the default set) --conditions, and with
    ``settings`` --set SECTION.KEY=VALUE (read with :func:`overrides`)."""
    ap = argparse.ArgumentParser(description=doc.strip().split("\n\n")[0])
    ap.add_argument("--quick", action="store_true", help=quick)
    if settings:
        ap.add_argument("--set", action="append", default=[], metavar="SECTION.KEY=VALUE",
                        help="a setting other than config/default.toml's, e.g. listening.guess_after=0.1 (repeatable)")
    if model:
        ap.add_argument("--model", choices=("base", "adapted"), default="base",
                        help="the Moonshine weights, as [speech] model (adapted: the shipped delta, "
                             "or $VOICE_HOST_MOONSHINE_DELTA)")
    ap.add_argument("--json", nargs="?", const="-", metavar="FILE",
                    help="the figures as JSON: on stdout (the text on stderr), or into FILE")
    if conditions is not None:
        names = ", ".join(available) if available else ""
        ap.add_argument("--conditions", default=conditions,
                        help=f"comma-separated (default {conditions!r}; 'rooms': every room condition)"
                             + (f", of: {names}" if names else ""))
    return ap


def overrides(given: list[str]) -> dict:
    """``--set`` values as config overrides: ["listening.guess_after=0.1"] ->
    {"listening": {"guess_after": 0.1}} (values in TOML: 0.1, true, "silero"; a bare
    word is a string: speech.second_ear=off)."""
    import tomllib

    out: dict = {}
    for item in given:
        key, _, value = item.partition("=")
        section, _, name = key.rpartition(".")
        try:
            out.setdefault(section, {})[name] = tomllib.loads(f"v = {value}")["v"]
        except tomllib.TOMLDecodeError:
            out.setdefault(section, {})[name] = value
    return out


class Report:
    """What a benchmark prints: lines of text (``say``) and its figures (``figures``);
    with --json the text goes to stderr and ``finish`` prints the figures as JSON."""

    def __init__(self, benchmark: str, json_to: str | None = None):
        self.benchmark, self.json_to = benchmark, json_to
        self.figures: dict = {}

    @property
    def stream(self):
        return sys.stderr if self.json_to == "-" else sys.stdout

    def say(self, line: str = "") -> None:
        print(line, file=self.stream, flush=True)

    def text(self):
        """A context in which what is printed goes where ``say`` sends it."""
        return contextlib.redirect_stdout(self.stream)

    def table(self, rows: list[dict], columns: list[tuple[str, str, str]], indent: str = "") -> None:
        """``rows`` as a table: columns (key, heading, format spec such as '>6.1f')."""
        width = {k: max(len(h), *(len(format(r[k], f)) for r in rows if r.get(k) is not None)) if rows else len(h)
                 for k, h, f in columns}
        self.say(indent + " ".join(h.rjust(width[k]) if f.startswith(">") else h.ljust(width[k])
                                   for k, h, f in columns).rstrip())
        for r in rows:
            cells = []
            for k, _, f in columns:
                v = r.get(k)
                text = "-" if v is None else format(v, f.lstrip("<>"))
                cells.append(text.rjust(width[k]) if f.startswith(">") else text.ljust(width[k]))
            self.say((indent + " ".join(cells)).rstrip())

    def finish(self, **extra) -> int:
        if self.json_to:
            data = json.dumps({"benchmark": self.benchmark, **extra, "figures": self.figures}, indent=1, default=str)
            if self.json_to == "-":
                print(data, flush=True)
            else:
                Path(self.json_to).write_text(data + "\n")
        return 0
