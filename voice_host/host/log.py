"""The event log: every input appended and flushed to disk before it is applied.

A JSON-lines file: the first line is the header (game, players, seed, the full
configuration: ``Header``, here), each further line one input record
(voice_host.messages: the classes read and write these dicts, and old logs read as they
always did). The game state is a pure function of the log, so resuming is replaying it.

Only whole lines count: a last line without its newline was cut short by a kill and
never acknowledged, so reading drops it and appending trims it. A log is created whole
(its header and the table's opening written to a new file, then moved into place), so a
kill never leaves half a header. A damaged line in the middle is skipped on reading
(``salvage`` says which); only a log whose header cannot be read is refused.
"""

from __future__ import annotations

import json
import os
import re
import secrets
import shutil
from dataclasses import dataclass, field
from pathlib import Path
from typing import Iterable, NamedTuple

from voice_host.host.files import read_user_bytes
from voice_host.messages import Begin, Directive, Record, Unreadable, from_json

FORMAT = 1
"""The log format the header names (``voice_host_log``)."""


@dataclass(frozen=True)
class Header:
    """The log's first line: what the game is created from."""

    game: str
    players: tuple[str, ...]
    seed: int | None
    config: dict = field(hash=False, compare=True)
    extra: dict = field(default_factory=dict, hash=False)
    """Anything else the header records (the script's path)."""

    @classmethod
    def new(cls, game: str, players, seed: int | None, cfg: dict, **extra) -> "Header":
        """A fresh game's header; a missing seed is drawn once here."""
        if seed is None:
            seed = secrets.randbelow(2**31)
        return cls(game, tuple(players), seed, cfg, extra)

    def to_json(self) -> dict:
        return {"voice_host_log": FORMAT, "game": self.game, "players": list(self.players), "seed": self.seed,
                "config": self.config, **self.extra}

    @classmethod
    def from_json(cls, d: dict) -> "Header":
        known = ("voice_host_log", "game", "players", "seed", "config")
        return cls(d["game"], tuple(d["players"]), d.get("seed"), d["config"],
                   {k: v for k, v in d.items() if k not in known})


class Damaged(NamedTuple):
    """A line of a log that cannot be read, skipped on resuming."""

    line: int
    """Its line number in the file (the header is line 1)."""
    looks_like: str | None
    """What it seems to have held, when that much is readable: "Ben: jigsaw", "@draw M N"."""
    before: int = 0
    """How many of the records read come before it (their index of the first one after it)."""


class EventLog:
    """An append-only, fsync'd JSON-lines log."""

    def __init__(self, path: str | Path, header: Header | None = None, opening: Iterable[Record] = ()) -> None:
        """``header``: a new log, refused if ``path`` already holds a game, written whole with
        the ``opening`` records (the table's setup) before anything else; None: go on
        appending to the log at ``path``."""
        self.path = Path(path)
        self.failed: OSError | None = None
        """Why the log stopped saving (a full disk, a folder gone): the game goes on in memory."""
        if header is not None:
            problem = self.unusable(self.path)
            if problem is not None:
                raise FileExistsError(problem)
            self.path.parent.mkdir(parents=True, exist_ok=True)
            _write_whole(self.path, [header.to_json(), *(r.to_json() for r in opening)])
        self._file = open(self.path, "a", encoding="utf-8")
        if header is None and self._file.tell() > 0:
            self._trim_torn_tail()

    @staticmethod
    def unusable(path: str | Path) -> str | None:
        """Why a new game can't be saved at ``path``, in one sentence (None: it can): a
        folder, a path under a file, or a log that holds a game already."""
        path = Path(path)
        if path.is_dir():
            return f"{path} is a folder: give the game a file name in it, like {path / 'game.log'}."
        above = next((p for p in path.parents if p.exists()), None)
        if above is not None and not above.is_dir():
            return f"{above} is a file, not a folder: the game can't be saved in it."
        if path.exists() and path.stat().st_size > 0:
            return f"{path} already holds a game; continue it with 'voice-host resume {path}'."
        return None

    @classmethod
    def rewrite(cls, path: str | Path, header: Header, records: Iterable[Record]) -> "EventLog":
        """Replace the log at ``path`` by ``header`` and ``records`` in one step (a kill
        leaves the old log or the new one, never half of it), and go on appending to it."""
        _write_whole(Path(path), [header.to_json(), *(r.to_json() for r in records)])
        return cls(path)
    def _trim_torn_tail(self) -> None:
        """Drop a last line cut short by a kill, so new records start on a fresh line."""
        data = self.path.read_bytes()
        if data and not data.endswith(b"\n"):
            keep = data.rfind(b"\n") + 1
            self._file.close()
            with open(self.path, "r+b") as f:
                f.truncate(keep)
            self._file = open(self.path, "a", encoding="utf-8")

    def append(self, record: Record) -> OSError | None:
        """Keep ``record``; the OSError when saving stops with it (once: later records are
        not kept, and None is returned for them)."""
        return self._write(record.to_json())

    def _write(self, record: dict) -> OSError | None:
        if self.failed is not None:
            return None
        fd = self._file.fileno()
        whole = os.fstat(fd).st_size
        try:
            self._file.write(json.dumps(record, separators=(",", ":")) + "\n")
            self._file.flush()
            os.fsync(fd)
        except OSError as exc:  # a full disk: the record is not kept, nor half of it
            self.failed = exc
            try:
                os.ftruncate(fd, whole)
            except OSError:
                pass
            self._abandon()
            return exc
        return None

    def _abandon(self) -> None:
        """Close the file without writing what its buffer still holds."""
        try:
            os.close(self._file.fileno())
        except OSError:
            pass
        try:
            self._file.close()
        except (OSError, ValueError):
            pass

    def close(self) -> None:
        if self.failed is None:
            try:
                self._file.close()
            except OSError as exc:
                self.failed = exc
                self._abandon()

    @staticmethod
    def salvage(path: str | Path) -> tuple[Header, list[Record], list[Damaged]]:
        """(header, records, damaged): every whole line that reads as an input record, and
        the lines that do not (skipped); a torn last line is dropped. A log whose header
        cannot be read is refused: every problem is a sentence (ValueError)."""
        p = Path(path)
        data = read_user_bytes(path, missing="There is no game log {p}.", folder="{p} is a folder, not a game log.")
        lines = data.split(b"\n")[:-1]  # after the last newline: nothing, or a line a kill cut short
        header = _header(lines[0] if lines else data, p)
        if not lines:  # the header itself was cut short
            raise ValueError(f"{p} is not a voice-host game log.")
        records: list[Record] = []
        damaged: list[Damaged] = []
        for n, raw in enumerate(lines[1:], start=2):
            if not raw.strip():
                continue
            record = _record(raw)
            if record is None:
                damaged.append(Damaged(n, _looks_like(raw), len(records)))
            else:
                records.append(record)
        if damaged:
            records, at = _with_begin(records)
            if at is not None:  # the opening put back shifts what comes after it
                damaged = [d._replace(before=d.before + 1) if d.before >= at else d for d in damaged]
        return header, records, damaged

    @staticmethod
    def read(path: str | Path) -> tuple[Header, list[Record]]:
        """(header, records) of a whole log (a torn last line is dropped); a damaged line
        is a ValueError."""
        header, records, damaged = EventLog.salvage(path)
        if damaged:
            raise ValueError(f"{path}: line {damaged[0].line} is damaged.")
        return header, records


def _header(raw: bytes, p: Path) -> Header:
    """The header line, or the sentence saying why this is no game log to resume."""
    try:
        text = raw.decode("utf-8")
    except UnicodeDecodeError:
        text = None
    if text is None or "\x00" in text:
        raise ValueError(f"{p} is not a voice-host game log (it isn't even text).")
    try:
        d = json.loads(text)
    except ValueError:
        d = None
    if not (isinstance(d, dict) and d.get("voice_host_log") == FORMAT and isinstance(d.get("game"), str)
            and isinstance(d.get("players"), list) and all(isinstance(x, str) for x in d["players"])
            and isinstance(d.get("config"), dict)
            and (d.get("seed") is None or isinstance(d["seed"], int) and not isinstance(d["seed"], bool))):
        raise ValueError(f"{p} is not a voice-host game log.")
    from voice_host.games import REGISTRY

    if d["game"] not in REGISTRY:
        raise ValueError(f"{p} is a log of {d['game']}, a game I don't know.")
    return Header.from_json(d)


def _record(raw: bytes) -> Record | None:
    """The input record a log line holds; None when it cannot be read as one."""
    try:
        text = raw.decode("utf-8")
        d = json.loads(text)
    except ValueError:  # UnicodeDecodeError is one
        return None
    if "\x00" in text or not (isinstance(d, dict) and _sound(d)):
        return None
    try:
        return from_json(d)
    except (KeyError, TypeError, ValueError):
        return None


def _number(x: object) -> bool:
    return isinstance(x, (int, float)) and not isinstance(x, bool) and x == x


def _sound(record: dict) -> bool:
    """Is this the JSON of an input record the session can apply (voice_host.messages)?"""
    if "t" in record and not (record["t"] is None or _number(record["t"])):
        return False
    if record.get("line") is not None and not (isinstance(record["line"], int) and not isinstance(record["line"], bool)):
        return False
    if record.get("begin"):
        return True
    if "wait" in record:
        return _number(record["wait"])
    if "error" in record:
        return isinstance(record["error"], str) and isinstance(record.get("text", ""), str)
    if "directive" in record:
        args = record.get("args", [])
        return isinstance(record["directive"], str) and isinstance(args, list) and all(isinstance(a, str) for a in args)
    if "text" in record:
        return isinstance(record["text"], str) and isinstance(record.get("speaker"), (str, type(None))) \
            and isinstance(record.get("heard"), (str, type(None)))
    return False


def _looks_like(raw: bytes) -> str | None:
    """What a damaged line seems to hold, read from the fields still whole in it: a
    player's words ("Ben: jigsaw"), a directive ("@draw M N"), a wait ("@wait 46")."""
    text = raw.decode("utf-8", "replace")

    def field(name: str) -> str | None:
        m = re.search(rf'"{name}"\s*:\s*"((?:[^"\\\x00-\x1f]|\\.)*)"', text)
        try:
            value = json.loads(f'"{m.group(1)}"') if m else None
        except ValueError:
            return None
        return value.strip() if value and value.strip() and value.isprintable() and "\ufffd" not in value else None

    if "\"error\"" in text:  # a script line the host could not read in the first place
        return None
    speaker, said = field("speaker"), field("text")
    if speaker and said:
        return f"{speaker}: {said}"
    directive = field("directive")
    if directive:
        m = re.search(r'"args"\s*:\s*(\[[^\]]*\])', text)
        try:
            args = json.loads(m.group(1)) if m else []
        except ValueError:
            args = None
        if isinstance(args, list) and all(isinstance(a, str) and a.isprintable() and "\ufffd" not in a for a in args):
            return "@" + " ".join([directive, *args])
    m = re.search(r'"wait"\s*:\s*(\d+(?:\.\d+)?)\s*[,}]', text)
    if m:
        return f"@wait {float(m.group(1)):g}"
    return None


def _with_begin(records: list[Record]) -> tuple[list[Record], int | None]:
    """The records with the game's opening (Begin) back in place when its line was lost,
    before the first record that needs the game running, as Session.play put it there;
    and where it was put (None: nowhere)."""
    if any(isinstance(r, Begin) for r in records):
        return records, None
    for i, r in enumerate(records):
        if not (isinstance(r, Unreadable) or isinstance(r, Directive) and r.name in ("start", "board")):
            return [*records[:i], Begin(r.t), *records[i:]], i
    return records, None


def _write_whole(path: Path, lines: list[dict]) -> None:
    """Write ``path`` all at once: a new file beside it, fsync'd, then moved into its place."""
    tmp = path.with_name(f".{path.name}.{os.getpid()}.new")
    with open(tmp, "w", encoding="utf-8") as f:
        f.write("".join(json.dumps(d, separators=(",", ":")) + "\n" for d in lines))
        f.flush()
        os.fsync(f.fileno())
    os.replace(tmp, path)
    _sync_folder(path)


def _sync_folder(path: Path) -> None:
    """Make a file's new name durable (where the system allows it)."""
    try:
        fd = os.open(path.parent, os.O_RDONLY)
    except OSError:
        return
    try:
        os.fsync(fd)
    except OSError:
        pass
    finally:
        os.close(fd)


def keep_damaged(path: str | Path) -> Path:
    """Keep a damaged log whole beside it: game.log -> game.log.damaged (-2, ...), the log
    itself left in place until it is rewritten. A copy kept before (a kill in between) is
    used again."""
    p = Path(path)
    data = p.read_bytes()
    target, n = p.with_name(p.name + ".damaged"), 1
    while target.exists():
        if target.read_bytes() == data:
            return target
        n += 1
        target = p.with_name(f"{p.name}.damaged-{n}")
    tmp = p.with_name(f".{target.name}.{os.getpid()}.new")
    shutil.copyfile(p, tmp)
    with open(tmp, "rb+") as f:
        os.fsync(f.fileno())
    os.replace(tmp, target)
    _sync_folder(target)
    return target
