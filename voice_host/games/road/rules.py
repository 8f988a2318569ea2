"""The road game scorekeeper: turns, words and points, mulligans, passes, the end.

The players build their roads with a letter-tile set on its own board and add up each
word's points; the host draws for the start player (lowest letter starts, ties draw
again), keeps the turn order and the scores, checks every word a play names against the
dictionary (a word that is not one scores nothing, so the play is said again without
it), knows when mulligans stop (a player says the bag is empty, or the host counts the
bag when it knows the set's size and each play says its tiles), and ends the game when
every player has passed in a row. The highest score wins; equal scores share.
"""

from __future__ import annotations

import random
from dataclasses import dataclass, field
from enum import StrEnum

from voice_host.games.road import actions as A
from voice_host.games.road import events as E
from voice_host.games.base import Game, Setup
from voice_host.settings import Settings
from voice_host.games.errors import Refusal, Unplayable
from voice_host.games.scoring import ranking
from voice_host.games.turns import TurnOrder, draw_for_start

BLANK = "?"


class Phase(StrEnum):
    """Where the game stands."""

    SETUP = "setup"
    TURNS = "turns"
    OVER = "over"


class RoadSettings(Settings, sections=("road",)):
    """config/default.toml [road]."""

    rack: int = 10
    set_size: int = 0
    """Tiles in the set; 0: unknown, the players say when the bag is empty."""
    letters: str = ""
    """The set's tiles, one character each (? a blank), for the draw for the start player."""


@dataclass
class Turn:
    round: int
    player: str
    kind: str
    """play, mulligan or pass."""
    words: tuple[tuple[str, int], ...] = ()


@dataclass
class RoadState(TurnOrder):
    players: list[str]
    rng: random.Random
    start: str | None = None
    phase: Phase = Phase.SETUP
    bag: int | None = None
    """Tiles left in the bag when counted (None: not counted)."""
    bag_empty: bool = False
    turns: list[Turn] = field(default_factory=list)
    passes: int = 0
    """Passes in a row."""


class RoadGame(Game, name="road", players=(2, 4)):
    """The road game scorekeeper for 2 to 4 players."""

    family = "road"

    settings_class = RoadSettings

    def new_state(self, setup: Setup) -> RoadState:
        size, rack = self.settings.set_size, self.settings.rack
        if 0 < size < rack * len(setup.players):  # the racks alone would take more than the set
            raise Unplayable("set_too_small", set_size=size, players=len(setup.players), rack=rack)
        return RoadState(list(setup.players), random.Random(setup.seed))

    def advance(self, t: float) -> list[E.Event]:
        return []

    # ------------------------------------------------------------------ actions
    def play(self, action: A.Action) -> list[E.Event]:
        s = self.state
        if s.phase == Phase.OVER:
            raise Refusal("game_over")
        match action:
            case A.BagEmpty(player=player):
                if s.bag_empty:
                    raise Refusal("bag_already_empty")
                return self._empty_bag(player)
            case A.Challenge():
                raise Refusal("words_checked")
            case A.PlayWord(word=word):
                raise Refusal("say_play_points", word=word)
            case A.RoadPlay() | A.Mulligan() | A.Pass() if action.player != s.active:
                raise Refusal("not_your_turn", player=s.active)
            case A.RoadPlay():
                return self._play(action)
            case A.Mulligan(player=player):
                if s.bag_empty:
                    raise Refusal("no_mulligan")
                return self._end_turn(Turn(s.round, player, "mulligan"), [E.Mulliganed(player)])
            case A.Pass(player=player):
                s.passes += 1
                return self._end_turn(Turn(s.round, player, "pass"), [E.Passed(player)])
        return super().play(action)

    def begin(self) -> list[E.Event]:
        s = self.state
        events: list[E.Event] = []
        if s.start is None:
            s.start, draws = self._draw_for_start()
            events.append(E.StartDraws(draws, s.start))
        s.seat(s.players, s.start)
        s.phase = Phase.TURNS
        if self.settings.set_size:
            s.bag = self.settings.set_size - self.settings.rack * len(s.players)
            s.bag_empty = s.bag == 0  # the racks took every tile: no mulligans from the start
        return events + [E.RoadStarted(tuple(s.players), self.settings.rack, s.bag), E.TurnStarted(s.active, s.round)]

    def _draw_for_start(self) -> tuple[str, tuple[tuple[tuple[str, str], ...], ...]]:
        """Each player draws a tile; the lowest letter starts (a blank before A); ties draw again."""
        return draw_for_start(self.state.players, self.state.rng, lambda: list(self.settings.letters),
                              lambda x: "blank" if x == BLANK else x)

    def _play(self, a: A.RoadPlay) -> list[E.Event]:
        s = self.state
        if a.tiles is not None and not 1 <= a.tiles <= self.settings.rack:  # a play comes off one rack
            raise Refusal("bad_tiles", tiles=a.tiles, rack=self.settings.rack)
        for word, _ in a.words:
            self.check_word(word)
        counting = s.bag is not None and s.bag > 0
        if counting and a.tiles is None:
            raise Refusal("need_tiles")
        if counting:
            s.bag -= min(a.tiles, s.bag)  # the redraw
        points = sum(n for _, n in a.words)
        events: list[E.Event] = [E.RoadPlayed(a.player, a.words, points, self.total(a.player) + points,
                                              s.bag if counting else None)]
        if counting and s.bag == 0:
            events += self._empty_bag(None)
        return self._end_turn(Turn(s.round, a.player, "play", a.words), events)

    def _empty_bag(self, player: str | None) -> list[E.Event]:
        s = self.state
        s.bag_empty = True
        if s.bag is not None:
            s.bag = 0
        return [E.BagEmptied(player)]

    def _end_turn(self, turn: Turn, events: list[E.Event]) -> list[E.Event]:
        s = self.state
        s.turns.append(turn)
        if turn.kind != "pass":
            s.passes = 0
        if s.passes >= len(s.players):
            s.phase = Phase.OVER
            return events + [E.GameOver(*self._ranking())]
        if s.pass_turn():
            s.round += 1
        events.append(E.TurnStarted(s.active, s.round))
        if s.passes == len(s.players) - 1:  # a warning before the pass that would end the game
            events.append(E.LastChance(s.active))
        return events

    # ------------------------------------------------------------------ scores
    def total(self, player: str) -> int:
        return sum(p for t in self.state.turns if t.player == player for _, p in t.words)

    def _ranking(self):
        return ranking(self.state.players, self.total, lambda _: [])

    moves = ()
    questions = ("scores", "turn", "words", "sheet", "bag")

    def query(self, q: A.Query) -> list[E.Event]:
        s = self.state
        if q.kind == "bag":
            return [E.BagReport(s.bag if s.bag is not None else (0 if s.bag_empty else None), s.bag_empty)]
        if q.kind == "time":
            return [E.TimeReport(None, timer=False)]
        if q.kind == "sheet":
            who = self.whose(q)
            lines = tuple((t.round, t.words or None, sum(n for _, n in t.words), () if t.kind == "play" else (t.kind,))
                          for t in s.turns if t.player == who)
            return [E.RoundsSheet(who, lines, self.total(who))]
        if q.kind == "scores":
            return [E.StandingsReport(self._ranking()[0])]
        if q.kind == "turn":
            turns = s.phase == Phase.TURNS
            return [E.TurnReport(s.active if turns else None, s.round, over=self.finished,
                                 then=s.following() if turns else None)]
        if q.kind == "words":
            return [E.WordsReport(tuple((w, t.player) for t in s.turns for w, _ in t.words))]
        raise Refusal("unknown_question", kind=q.kind)

    def result(self) -> dict:
        s = self.state
        players = [{"name": p, "total": self.total(p),
                    "words": [{"word": w, "score": n, "kind": "road", "turn": i + 1, "round": t.round, "counts": True}
                              for i, t in enumerate(s.turns) if t.player == p for w, n in t.words],
                    "mulligans": sum(t.kind == "mulligan" for t in s.turns if t.player == p),
                    "passes": sum(t.kind == "pass" for t in s.turns if t.player == p)} for p in s.players]
        return {"game": self.name, "finished": self.finished,
                "winners": list(self._ranking()[1]) if self.finished else [], "round": s.round,
                "bag": s.bag, "bag_empty": s.bag_empty, "players": players}
