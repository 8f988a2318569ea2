"""Prolix for one: six rounds against rising targets, the host as timer and referee.

The host flips the timer at once and counts down (30, 10, 5 seconds). A lone word is a
scratch word, scored aloud but not committed; "my word is WORD" commits. When time runs
out with nothing committed the last scratch word counts. The cumulative score must reach
the round's target or the game is lost at once; otherwise the tiles move two columns,
four are drawn and the timer is flipped again. After each round the host says the best
word the board allowed.
"""

from __future__ import annotations

from dataclasses import dataclass, field

from voice_host.games.prolix import actions as A
from voice_host.games.prolix import events as E
from voice_host.games.errors import Refusal
from voice_host.games.prolix.common import Phase, ProlixGame, ProlixState, Timer


@dataclass
class SoloWord:
    word: str | None
    value: int
    round: int
    tiles: tuple[tuple[str, int], ...] = ()


@dataclass
class SoloState(ProlixState):
    timer: Timer = field(default_factory=Timer)
    warned: list[int] = field(default_factory=list)
    """Countdown calls already made this round."""
    scratch: list[tuple[str, int]] = field(default_factory=list)
    """This round's scratch words and their values, in order."""
    words: list[SoloWord] = field(default_factory=list)
    """The committed word of each round played."""
    won: bool = False
    best: tuple[tuple[str, int], ...] = ()
    """The best word of the last round's board (from the solver), for "what's the best word"."""


class ProlixSolo(ProlixGame, name="prolix-solo", players=(1, 1)):
    """Prolix for one player."""

    columns_per_move = 2
    uses_start_player = False
    state_class = SoloState
    moves = ("word", "final")
    questions = ("board", "scores", "turn", "time", "words", "sheet", "how", "bag")

    @property
    def player(self) -> str:
        return self.state.players[0]

    @property
    def rounds(self) -> int:
        return len(self.settings.solo_targets)

    @property
    def total(self) -> int:
        return sum(w.value for w in self.state.words)

    # ------------------------------------------------------------------ the clock
    def advance(self, t: float) -> list[E.Event]:
        s = self.state
        events: list[E.Event] = []
        while s.phase == Phase.TURN and s.timer.until is not None:
            for left in self.settings.solo_countdown:
                due = s.timer.until - left
                if left not in s.warned and due <= t:
                    s.warned.append(left)
                    events.append(E.TimeLeft(left))
            if t < s.timer.until:
                break
            s.clock = s.timer.until
            events.append(E.TimerExpired(self.player, interrupts=False))
            last = s.scratch[-1][0] if s.scratch else None
            events += self._commit(last)
        s.clock = max(s.clock, t)
        return events

    # ------------------------------------------------------------------ actions
    def first_turn(self) -> list[E.Event]:
        return self._start_round()

    def _start_round(self) -> list[E.Event]:
        s = self.state
        s.phase, s.scratch, s.warned = Phase.TURN, [], []
        s.timer = Timer(self.player, s.clock + self.settings.timer)
        target = self.settings.solo_targets[s.round - 1]
        return [self.board_view(), E.TurnStarted(self.player, s.round),
                E.TargetCheck(self.player, s.round, self.total, target, None),
                E.TimerStarted(int(self.settings.timer))]

    def _word(self, a: A.PlayWord) -> list[E.Event]:
        s = self.state
        self._accepting(a.player)
        self._check_word(a.word)
        verdict = self.words.check(a.word)  # no opponent to challenge: the host referees
        if not verdict.ok:
            raise Refusal("not_a_word", word=a.word, reason=verdict.reason)
        if a.final:
            return self._commit(a.word)
        value, _ = self.score(a.word)
        s.scratch.append((a.word, value))
        return [E.Scratch(self.player, a.word, value)]

    def _commit(self, word: str | None) -> list[E.Event]:
        s = self.state
        value, flips = self.score(word) if word else (0, ())
        s.words.append(SoloWord(word, value, s.round, tuple(flips)))
        s.timer = Timer()
        events: list[E.Event] = []
        if word:
            s.used.append((word, self.player))
            events.append(E.WordScored(self.player, word, value, flips))
        s.best = tuple(self.words.best(self.tile_values(), n=1))
        events.append(E.BestWord(s.best, value))
        target = self.settings.solo_targets[s.round - 1]
        reached = self.total >= target
        events.append(E.TargetCheck(self.player, s.round, self.total, target, reached))
        if not reached or s.round == self.rounds:
            s.phase, s.won = Phase.OVER, reached
            return events + [E.GameOver((E.Standing(self.player, self.total),), (self.player,) if reached else ())]
        s.round += 1
        return events + self._move_and_draw(self.player)

    def _after_draw(self) -> list[E.Event]:
        s = self.state
        s.drawer = None
        return self._start_round()

    # ------------------------------------------------------------------ questions and results
    def scored(self) -> list[E.HowScored]:
        s = self.state
        out = [E.HowScored(self.player, w.word, w.tiles, w.value, 0, w.round) for w in s.words if w.word]
        if s.phase == Phase.TURN:  # this round's scratch words, on the board they were said on
            out += [E.HowScored(self.player, w, self.score(w)[1], v, 0, s.round, "scratch") for w, v in s.scratch]
        return out

    def mode_query(self, q: A.Query) -> list[E.Event]:
        s = self.state
        if q.kind == "sheet":
            lines = tuple((w.round, w.word, w.value, ()) for w in s.words)
            if s.phase == Phase.TURN and s.scratch:
                lines += ((s.round, s.scratch[-1][0], s.scratch[-1][1], ("scratch",)),)
            return [E.RoundsSheet(self.player, lines, self.total)]
        if q.kind == "scores":
            return [E.ScoresReport((E.Standing(self.player, self.total),), s.round, self.rounds)]
        if q.kind == "best":  # the last round's, once committed: never the open round's (no hints)
            if s.phase == Phase.TURN or not s.words:
                return [E.BestLater(self.player)]
            return [E.BestWord(s.best, s.words[-1].value)]
        if q.kind == "turn" and self.finished:  # no target to reach any more
            return [E.TurnReport(None, s.round, over=True)]
        if q.kind == "turn":
            left = (s.timer.until - s.clock) if s.timer.running(s.clock) else None
            target = self.settings.solo_targets[min(s.round, self.rounds) - 1]
            return [E.TurnReport(self.player, s.round, None, left, s.drawer if s.phase == Phase.DRAW else None),
                    E.TargetCheck(self.player, s.round, self.total, target, None)]
        return super().mode_query(q)

    def result(self) -> dict:
        s = self.state
        words = [{"word": w.word, "score": w.value, "value": w.value, "kind": "regular", "round": w.round,
                  "counts": True} for w in s.words]
        return {"game": self.name, "finished": self.finished, "winners": [self.player] if s.won else [],
                "round": s.round, "rounds": self.rounds,
                "players": [{"name": self.player, "total": self.total, "words": words}]}
