"""The host loop: input records in, logged first, understood, applied, announced.

A record comes from a script line, a typed line or the speech layer (see host.script
for its shape). The session writes it to the event log before anything else, turns it
into a game action (host.intents), steps the game, and hands the sentences of the
resulting events to ``speak``. Undo drops the last input that changed the game and
replays the rest; repeat says the last announcement again.
"""

from __future__ import annotations

import secrets
from dataclasses import dataclass, field
from typing import Callable

from voice_host.games import actions as A
from voice_host.games import events as E
from voice_host.games.base import REGISTRY, Game, Setup
from voice_host.host import intents
from voice_host.host.announcer import Announcer
from voice_host.host.log import EventLog

CHANGES = (A.Word, A.Challenge, A.FlipTimer, A.Vote, A.SetBoard, A.Draw, A.Move)
"""Actions that undo can take back once the game has begun (when they were not refused)."""


def create_game(header: dict, words) -> Game:
    """A fresh game from a log header (game, players, seed, config)."""
    cls = REGISTRY[header["game"]]
    setup = Setup(tuple(header["players"]), header.get("seed"))
    return cls.create(setup, header["config"], words)


def new_header(game: str, players: list[str], seed: int | None, cfg: dict, **extra) -> dict:
    """What the event log's first line records; a missing seed is drawn once here."""
    if game not in REGISTRY:
        raise ValueError(f"There is no game called {game}; choose one of {', '.join(sorted(REGISTRY))}.")
    if seed is None:
        seed = secrets.randbelow(2**31)
    return {"game": game, "players": list(players), "seed": seed, "config": cfg, **extra}


@dataclass
class Session:
    header: dict
    words: object
    speak: Callable[[str], None] = print
    log: EventLog | None = None
    announcer: Announcer = field(default_factory=Announcer)
    cue: Callable[[list[E.Event], float], None] | None = None
    """Called with each announced step's events and the game time, before their sentences
    are said (host.cues.Cues: earcons)."""

    def __post_init__(self) -> None:
        self.game = create_game(self.header, self.words)
        self.records: list[dict] = []
        self.undone: set[int] = set()
        self.undoable: list[int] = []
        self.last_said: list[str] = []
        self.begun = False
        self.t = 0.0
        self.refused: str | None = None
        """The refusal said for the last input applied, if it was refused."""

    @property
    def players(self) -> list[str]:
        return list(self.header["players"])

    @property
    def tie_window(self) -> float:
        """Seconds within which words are simultaneous (the table's setting)."""
        return float(self.header["config"].get("table", {}).get("tie_window", 0.5))

    # ------------------------------------------------------------------ feeding
    def feed(self, record: dict, *, quiet: bool = False) -> list[str]:
        """Log, apply and announce one input record; returns the sentences said."""
        if self.log is not None:
            self.log.append(record)
        self.records.append(record)
        return self._apply(len(self.records) - 1, quiet=quiet)

    def begin(self, t: float, *, quiet: bool = False) -> list[str]:
        return self.feed({"t": t, "begin": True}, quiet=quiet)

    def needs_begin(self, record: dict) -> bool:
        """Does this record need the game running (everything but table setup)?"""
        if self.begun:
            return False
        return record.get("directive") not in ("start", "board") and "error" not in record

    def tick(self, t: float, *, quiet: bool = False) -> list[str]:
        """Let the clock run to ``t`` (not logged: replay reaches the same events)."""
        self.t = max(self.t, t)
        return self._say(self.game.step(A.Tick(self.t)), quiet=quiet, remember=True)

    def settle(self, *, quiet: bool = False) -> list[str]:
        """Let words waiting for the tie window be scored (end of a script)."""
        t = self.game.settles_at()
        return self.tick(t, quiet=quiet) if t is not None else []

    def replay(self, records: list[dict]) -> None:
        """Rebuild from a log's records, silently."""
        for record in records:
            self.records.append(record)
            self._apply(len(self.records) - 1, quiet=True)

    # ------------------------------------------------------------------ applying
    def _apply(self, index: int, *, quiet: bool) -> list[str]:
        record = self.records[index]
        self.refused = None
        self.t = max(self.t, float(record.get("t", self.t)))
        if record.get("begin"):
            self.begun = True
            return self._say(self.game.step(A.Begin(self.t)), quiet=quiet, remember=True)
        if "wait" in record:
            return self.tick(self.t, quiet=quiet)
        if "error" in record:
            return self._refuse(record["error"], {"text": record.get("text", "")}, quiet)
        if "directive" in record:
            return self._directive(index, record, quiet)
        return self._utterance(index, record, quiet)

    def _directive(self, index: int, record: dict, quiet: bool) -> list[str]:
        name, args = record["directive"], record.get("args", [])
        if name == "start":
            who = intents.find_player(args[0], self.players) if len(args) == 1 else None
            if who is None:
                return self._refuse("unknown_player", {"player": " ".join(args), "players": tuple(self.players)}, quiet)
            action: A.Action = A.SetStart(self.t, who)
        elif name == "board":
            action = A.SetBoard(self.t, tuple(args))
        elif name == "draw":
            action = A.Draw(self.t, tuple(args))
        else:
            action = self.game.directive(self.t, name, args)
            if action is None:
                return self._refuse("bad_directive", {"text": "@" + " ".join([name, *args])}, quiet)
        return self._act(index, action, quiet)

    def _utterance(self, index: int, record: dict, quiet: bool) -> list[str]:
        speaker = record.get("speaker")
        player = intents.find_player(speaker, self.players) if speaker else None
        if speaker is None:
            return self._refuse("no_speaker", {}, quiet)
        if player is None:
            return self._refuse("unknown_speaker", {"player": speaker, "players": tuple(self.players)}, quiet)
        longest = getattr(self.words, "longest", None)
        tokens = intents.normalize(record["text"]).split()
        if longest and any(len(w) > longest for w in tokens):  # no word can be longer: refuse it whole
            return self._refuse("too_long", {"letters": max(map(len, tokens)), "longest": longest}, quiet)
        intent = intents.parse(record["text"], self.players)
        t = self.t
        if intent.kind == "repeat":
            return self._say_lines(self.last_said, quiet, remember=False)
        if intent.kind == "help":
            return self._say_lines([self.announcer.help(self.game.phrases())], quiet, remember=False)
        if intent.kind == "undo":
            return self._undo(quiet)
        action = self.game.interpret(intent, player, t)  # the game's own phrases come first
        if action is None:
            action = self._generic_action(intent, player, t)
        if isinstance(action, E.Refused):
            return self._say([action], quiet=quiet, remember=False)
        return self._act(index, action, quiet)

    def _generic_action(self, intent: intents.Intent, player: str, t: float) -> A.Action | E.Refused:
        kind = intent.kind
        if kind == "word":
            if not intents.WORDLIKE.match(intent.word or ""):
                return E.Refused("punctuation", {"word": intent.word}, player)
            return A.Word(t, player, intent.word, intent.final)
        if kind == "challenge":
            return A.Challenge(t, player, intent.target)
        if kind == "flip":
            return A.FlipTimer(t, player)
        if kind in ("yes", "no"):
            return A.Vote(t, player, kind == "yes")
        if kind in ("board", "scores", "turn", "words", "sheet"):
            return A.Query(t, kind, player, intent.target)
        return E.Refused("unclear", {"text": intent.text}, player)

    def _act(self, index: int, action: A.Action, quiet: bool) -> list[str]:
        events = self.game.step(action)
        if self.begun and isinstance(action, CHANGES) and not any(isinstance(e, E.Refused) for e in events):
            self.undoable.append(index)
        return self._say(events, quiet=quiet, remember=not isinstance(action, A.Query))

    def _undo(self, quiet: bool) -> list[str]:
        if not self.undoable:
            return self._refuse("nothing_to_undo", {}, quiet)
        target = self.undoable.pop()
        self.undone.add(target)
        record = self.records[target]
        self._rebuild()
        what = f"{record.get('speaker')}: {record.get('text')}" if "text" in record else "@" + " ".join(
            [record["directive"], *record.get("args", [])])
        return self._say_lines([self.announcer.undone(what)], quiet, remember=True) + self.ask(
            *self.game.status_questions, quiet=quiet)

    def _rebuild(self) -> None:
        """Replay every record but the undone ones and the undo commands themselves."""
        self.game = create_game(self.header, self.words)
        self.undoable, self.begun, t_now, self.t = [], False, self.t, 0.0
        for i, record in enumerate(self.records):
            if i in self.undone or self._is_undo(record):
                continue
            self._apply(i, quiet=True)
        self.t = t_now
        self.game.step(A.Tick(t_now))

    def _is_undo(self, record: dict) -> bool:
        return "text" in record and intents.parse(record["text"], self.players).kind == "undo"

    def say(self, line: str) -> None:
        """Say one host sentence that is not about the game state (questions to the table)."""
        self._say_lines([line], False, remember=True)

    def ask(self, *kinds: str, quiet: bool = False) -> list[str]:
        """Answer questions (board, scores, turn, words) aloud."""
        events = [e for kind in kinds for e in self.game.step(A.Query(self.t, kind))]
        return self._say(events, quiet=quiet, remember=False)

    # ------------------------------------------------------------------ speaking
    def _refuse(self, code: str, params: dict, quiet: bool) -> list[str]:
        self.refused = self.announcer.refusal(code, params)
        return self._say_lines([self.refused], quiet, remember=False)

    def _say(self, events: list[E.Event], *, quiet: bool, remember: bool) -> list[str]:
        if self.cue is not None and not quiet:
            self.cue(events, self.t)
        lines = [line for line in (self.announcer.say(e) for e in events) if line]
        for e in events:
            if isinstance(e, E.Refused):
                self.refused = self.announcer.say(e)
        return self._say_lines(lines, quiet, remember and bool(lines))

    def _say_lines(self, lines: list[str], quiet: bool, remember: bool) -> list[str]:
        if remember:
            self.last_said = list(lines)
        if not quiet:
            for line in lines:
                self.speak(line)
        return lines

    def result(self) -> dict:
        return self.game.result()
