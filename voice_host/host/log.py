"""The event log: every input appended and flushed to disk before it is applied.

A JSON-lines file: the first line is the header (game, players, seed, the full
configuration), each further line one input record (host.records: the classes
read and write these dicts, and old logs read as they always did). The game state
is a pure function of the log, so resuming is replaying it. A line cut short by a kill
is ignored on reading: it was never acknowledged.
"""

from __future__ import annotations

import json
import os
from pathlib import Path

from voice_host.host.files import read_user_text
from voice_host.host.records import FORMAT, Header, Record, from_json


class EventLog:
    """An append-only, fsync'd JSON-lines log."""

    def __init__(self, path: str | Path, header: Header | None = None) -> None:
        self.path = Path(path)
        if header is not None:
            if self.path.exists() and self.path.stat().st_size > 0:
                raise FileExistsError(
                    f"{self.path} already holds a game; continue it with 'voice-host resume {self.path}'."
                )
            self.path.parent.mkdir(parents=True, exist_ok=True)
        self._file = open(self.path, "a", encoding="utf-8")
        if header is not None:
            self._write(header.to_json())
        elif self._file.tell() > 0:
            self._trim_torn_tail()

    def _trim_torn_tail(self) -> None:
        """Drop a last line cut short by a kill, so new records start on a fresh line."""
        data = self.path.read_bytes()
        if data and not data.endswith(b"\n"):
            keep = data.rfind(b"\n") + 1
            self._file.close()
            with open(self.path, "r+b") as f:
                f.truncate(keep)
            self._file = open(self.path, "a", encoding="utf-8")

    def append(self, record: Record) -> None:
        self._write(record.to_json())

    def _write(self, record: dict) -> None:
        self._file.write(json.dumps(record, separators=(",", ":")) + "\n")
        self._file.flush()
        os.fsync(self._file.fileno())

    def close(self) -> None:
        self._file.close()

    @staticmethod
    def salvage(path: str | Path) -> tuple[Header, list[Record], int | None]:
        """(header, records, damaged): like ``read``, but a damaged line in the middle
        stops the reading instead of refusing the whole log; ``damaged`` is its line
        number (None when the log is whole). Every problem is a sentence (ValueError)."""
        text = read_user_text(path, missing="There is no game log {p}.", folder="{p} is a folder, not a game log.",
                              not_text="{p} is not a voice-host game log (it isn't even text).")
        p = Path(path)
        lines = text.split("\n")
        parsed: list[dict] = []
        damaged = None
        for i, line in enumerate(lines):
            if not line.strip():
                continue
            try:
                record = json.loads(line)
            except json.JSONDecodeError:
                record = None
            if not (isinstance(record, dict) and (not parsed or _sound(record))):
                if parsed and i < len(lines) - 2:  # not the torn tail of a killed write: damage
                    damaged = i + 1
                break
            parsed.append(record)
        if not parsed or parsed[0].get("voice_host_log") != FORMAT:
            raise ValueError(f"{p} is not a voice-host game log.")
        return Header.from_json(parsed[0]), [from_json(r) for r in parsed[1:]], damaged

    @staticmethod
    def read(path: str | Path) -> tuple[Header, list[Record]]:
        """(header, records); a torn last line is dropped."""
        lines = Path(path).read_text(encoding="utf-8").split("\n")
        parsed = []
        for i, line in enumerate(lines):
            if not line.strip():
                continue
            try:
                parsed.append(json.loads(line))
            except json.JSONDecodeError:
                if i >= len(lines) - 2:  # the torn tail of a killed write
                    break
                raise ValueError(f"{path}: line {i + 1} is damaged; the log cannot be replayed past it.")
        if not parsed or parsed[0].get("voice_host_log") != FORMAT:
            raise ValueError(f"{path} is not a voice-host event log.")
        return Header.from_json(parsed[0]), [from_json(r) for r in parsed[1:]]


def _sound(record: dict) -> bool:
    """Is this the JSON of an input record the session can apply (host.records)?"""
    t = record.get("t", 0.0)
    if isinstance(t, bool) or not isinstance(t, (int, float)) or t != t:
        return False
    if "text" in record:
        return isinstance(record["text"], str) and isinstance(record.get("speaker", ""), (str, type(None)))
    if "directive" in record:
        return isinstance(record["directive"], str) and all(isinstance(a, str) for a in record.get("args", []))
    return "wait" in record or "begin" in record or "error" in record


def set_aside(path: str | Path) -> Path:
    """Move a damaged log out of the way, kept whole: game.log -> game.log.damaged (-2, ...)."""
    p = Path(path)
    target = p.with_name(p.name + ".damaged")
    n = 1
    while target.exists():
        n += 1
        target = p.with_name(f"{p.name}.damaged-{n}")
    p.rename(target)
    return target
