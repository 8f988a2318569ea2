"""Scripted sessions: the text format of ../shared/DESIGN.md ("Scripted sessions").

Each script line becomes one input record (voice_host.messages) that the event log stores and
the session applies: ``Said``, ``Wait``, ``Directive``, or ``Unreadable`` for a line
the host cannot read.

Times are game-clock seconds: a line happens 1 s after the previous input unless it
starts with ``[+S]`` (S seconds after; ``[+0]`` at the same moment); ``@wait N``
moves the clock N seconds on. ``#`` starts a comment, at the start of a line or after
a space.
"""

from __future__ import annotations

import re

from voice_host.messages import Directive, Record, Said, Unreadable, Wait

DIRECTIVES = {"wait", "start", "board", "draw", "dice", "undo"}
"""Directives a script may hold; games say which they accept."""

_COMMENT = re.compile(r"\s#.*$")
"""A trailing comment: `` # ...`` after the input (a line starting with # is all comment)."""
_PREFIX = re.compile(r"^\[\+\s*(\d+(?:\.\d+)?)\s*\]\s*")
_SPEAKER = re.compile(r"^([^:@#\[\]]{1,40}?)\s*:\s*(.*)$")


def parse_line(raw: str, t_prev: float, line: int = 0) -> Record | None:
    """One script line -> an input record, or None for blanks and comments."""
    text = _COMMENT.sub("", raw).strip()
    if not text or text.startswith("#"):
        return None
    step = 1.0
    m = _PREFIX.match(text)
    if m:
        step = float(m.group(1))
        text = text[m.end():]
    t = round(t_prev + step, 6)
    if text.startswith("@"):
        parts = text[1:].split()
        if not parts:  # a lone "@": a directive with no name
            return Unreadable(t, "bad_line", text, line)
        name, *args = parts
        name = name.lower()
        if name not in DIRECTIVES:
            return Unreadable(t, "unknown_directive", text, line)
        if name == "wait":
            try:
                seconds = float(args[0]) if len(args) == 1 else -1
            except ValueError:
                seconds = -1
            if not 0 <= seconds < 10**7:  # also nan and inf
                return Unreadable(t, "bad_wait", text, line)
            return Wait(round(t_prev + seconds, 6), seconds, line=line)
        return Directive(t, name, tuple(args), line)
    m = _SPEAKER.match(text)
    if not m or not m.group(2).strip():
        return Unreadable(t, "bad_line", text, line)
    return Said(t, m.group(1).strip(), m.group(2).strip(), line=line)


def parse_script(text: str, t0: float = 0.0) -> list[Record]:
    """All input records of a script, in order, with their game-clock times."""
    records = []
    t = t0
    for n, raw in enumerate(text.splitlines(), start=1):
        rec = parse_line(raw, t, n)
        if rec is not None:
            records.append(rec)
            t = rec.t
    return records
