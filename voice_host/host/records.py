"""Input records: what the event log stores and the session applies, one class a kind.

Each is a frozen dataclass with ``to_json`` (the dict a log line holds) and
``from_json`` (that dict read back, old logs included). On disk, as ever:

    {"voice_host_log": 1, "game", "players", "seed", "config", ...}   Header, first
    {"line": 7, "t": 12.0, "speaker": "Alice", "text": "jewelers"}      Said (+ "heard")
    {"line": 1, "t": 1.0, "directive": "board", "args": ["W", ...]}     Directive
    {"line": 8, "t": 58.0, "wait": 46}                                  Wait (+ "pause")
    {"t": 3.0, "begin": true}                                           Begin
    {"line": 9, "t": 13.0, "error": "bad_line", "text": "..."}          Unreadable

``line`` is the script line a record came from (absent for what was typed live, heard
or the host's own marks); ``t`` is game-clock seconds (None: the session's time now).
"""

from __future__ import annotations

import secrets
from dataclasses import dataclass, field
from typing import Union

FORMAT = 1
"""The log format the header names (``voice_host_log``)."""


def _head(line: int | None, t: float | None) -> dict:
    out: dict = {} if line is None else {"line": line}
    if t is not None:
        out["t"] = t
    return out


class _Record:
    """Shared by the input records: ``Kind.from_json(d)`` reads ``d`` as that kind."""

    __slots__ = ()

    @classmethod
    def from_json(cls, d: dict):
        r = from_json(d)
        if not isinstance(r, cls):
            raise ValueError(f"not a {cls.__name__} record: {d!r}")
        return r


@dataclass(frozen=True)
class Said(_Record):
    """A player's line, typed, scripted or heard (``heard``: the raw transcript)."""

    t: float | None
    speaker: str | None
    text: str
    heard: str | None = None
    line: int | None = None
    parsed: object | None = field(default=None, compare=False, repr=False)
    """The hearing's reading of ``text`` (host.intents.Parsed), handed on so the session
    does not parse it again; never logged (a replay reads the text)."""

    def to_json(self) -> dict:
        out = {**_head(self.line, self.t), "speaker": self.speaker, "text": self.text}
        if self.heard is not None:
            out["heard"] = self.heard
        return out


@dataclass(frozen=True)
class Directive(_Record):
    """``@name args...``: table setup (``@start``, ``@board``) or a game's own directive."""

    t: float | None
    name: str
    args: tuple[str, ...] = ()
    line: int | None = None

    def to_json(self) -> dict:
        return {**_head(self.line, self.t), "directive": self.name, "args": list(self.args)}


@dataclass(frozen=True)
class Wait(_Record):
    """The clock moved on (``@wait N``); ``pause``: a mark of the clock, not an input
    (Ctrl-C kept the clock here, or at a terminal the clock changed the game)."""

    t: float | None
    seconds: float = 0
    pause: bool = False
    line: int | None = None

    def to_json(self) -> dict:
        out = {**_head(self.line, self.t), "wait": self.seconds}
        if self.pause:
            out["pause"] = True
        return out


@dataclass(frozen=True)
class Begin(_Record):
    """The game began (the opening: draws, board, whose turn)."""

    t: float | None

    def to_json(self) -> dict:
        return {**_head(None, self.t), "begin": True}


@dataclass(frozen=True)
class Unreadable(_Record):
    """A script line the host could not read: refused as ``error`` when applied."""

    t: float | None
    error: str
    text: str = ""
    line: int | None = None

    def to_json(self) -> dict:
        return {**_head(self.line, self.t), "error": self.error, "text": self.text}


Record = Union[Said, Directive, Wait, Begin, Unreadable]


def from_json(d: dict) -> Record:
    """A log line's dict as its record (told apart by its keys, as the log always was)."""
    t, line = d.get("t"), d.get("line")
    if d.get("begin"):
        return Begin(t)
    if "wait" in d:
        return Wait(t, d["wait"], bool(d.get("pause")), line)
    if "error" in d:
        return Unreadable(t, d["error"], d.get("text", ""), line)
    if "directive" in d:
        return Directive(t, d["directive"], tuple(d.get("args", ())), line)
    return Said(t, d.get("speaker"), d["text"], d.get("heard"), line)


def record(r: Record | dict) -> Record:
    """A record, from itself or from its JSON dict."""
    return from_json(r) if isinstance(r, dict) else r


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
