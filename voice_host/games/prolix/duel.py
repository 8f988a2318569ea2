"""Prolix for two: both players study the same board; the better word takes a mark.

The first player to say a word flips the timer and may not change it; the other has
the timer's time to answer. Both words are scored, the leader's handicap (leader's
marks minus the other's) comes off the leader's word, the higher word takes the mark
and a tie goes to whoever flipped the timer. A challenge gives the round's mark to
whoever wins it: of the flipper's word while the timer runs (the round ends at once), or
of the last round's words until the next round's first word. First to five marks wins,
once the words of the round that gave the fifth mark have had their challenge window
(docs/RULINGS.md 96, 97).
"""

from __future__ import annotations

from dataclasses import dataclass, field

from voice_host.games.prolix import actions as A
from voice_host.games.prolix import events as E
from voice_host.games.errors import Refusal
from voice_host.games.prolix.common import Phase, ProlixGame, ProlixState, Timer
from voice_host.games.prolix.tiles import empty_spaces


@dataclass
class DuelRound:
    """One round's words and outcome."""

    number: int
    words: dict[str, tuple[str, int]] = field(default_factory=dict)
    """player -> (word, value), in the order said."""
    flipper: str | None = None
    handicap: tuple[str, int] | None = None
    winner: str | None = None
    challenged: bool = False
    tiles: dict[str, tuple[tuple[str, int], ...]] = field(default_factory=dict)
    """player -> (letter, points) of the tiles the word flipped."""


@dataclass
class DuelState(ProlixState):
    timer: Timer = field(default_factory=Timer)
    rounds: list[DuelRound] = field(default_factory=list)
    """Every round so far; the last one is in play while the phase is ``turn``."""


class ProlixDuel(ProlixGame, name="prolix-duel", players=(2, 2)):
    """Prolix for two players."""

    columns_per_move = 2
    uses_start_player = False
    state_class = DuelState
    score_unit = "mark"
    questions = ("board", "scores", "turn", "time", "words", "sheet", "how", "bag", "voided", "marks")

    def marks(self) -> dict[str, int]:
        counts = {p: 0 for p in self.state.players}
        for r in self.state.rounds:
            if r.winner:
                counts[r.winner] += 1
        return counts

    def _marks_event(self, player: str, reason: str) -> E.MarkAwarded:
        return E.MarkAwarded(player, tuple(self.marks().items()), reason)

    def _other(self, player: str) -> str:
        a, b = self.state.players
        return b if player == a else a

    # ------------------------------------------------------------------ the clock
    def advance(self, t: float) -> list[E.Event]:
        s = self.state
        events: list[E.Event] = []
        if s.phase == Phase.TURN and s.timer.until is not None and t >= s.timer.until:
            s.clock = s.timer.until
            events += [E.TimerExpired(s.timer.holder, interrupts=False)] + self._score_round()
        events += self._window_closes(t)
        s.clock = max(s.clock, t)
        return events

    # ------------------------------------------------------------------ actions
    def started(self) -> E.GameStarted:
        return E.GameStarted(self.name, tuple(self.state.players), 0, self.settings.duel_marks)

    def first_turn(self) -> list[E.Event]:
        return self._start_round()

    def play(self, action: A.Action) -> list[E.Event]:
        match action:
            case A.Challenge(player=player, target=target):
                return self._challenge(player, target)
        return super().play(action)

    def _start_round(self) -> list[E.Event]:
        s = self.state
        s.rounds.append(DuelRound(len(s.rounds) + 1, handicap=self._handicap()))
        s.round, s.phase, s.timer = len(s.rounds), Phase.TURN, Timer()
        return [self.board_view(), E.DuelRoundStarted(s.round, s.rounds[-1].handicap)]

    def _word(self, a: A.PlayWord) -> list[E.Event]:
        s = self.state
        current = s.rounds[-1]
        events: list[E.Event] = [self._take_word(a, current.words, current.tiles)]
        if current.flipper is None:
            current.flipper = a.player
            s.timer = Timer(a.player, s.clock + self.settings.timer)
            return events + [E.TimerStarted(int(self.settings.timer), a.player)]
        return events + self._score_round()

    def _net(self, r: DuelRound, player: str) -> int:
        """The word's value less the leader's handicap; no word scores 0 (ruling 26)."""
        if player not in r.words:
            return 0
        return r.words[player][1] - (r.handicap[1] if r.handicap and r.handicap[0] == player else 0)

    def _score_round(self) -> list[E.Event]:
        s = self.state
        r = s.rounds[-1]
        s.timer = Timer()
        a, b = s.players
        net = {p: self._net(r, p) for p in (a, b)}
        by_tie = net[a] == net[b]
        r.winner = r.flipper if by_tie else (a if net[a] > net[b] else b)
        for player, (word, _) in r.words.items():
            s.used.append((word, player))
        entries = tuple((p, r.words.get(p, (None, 0))[0], r.words.get(p, (None, 0))[1], net[p])
                        for p in ([*r.words] + [p for p in (a, b) if p not in r.words]))
        events: list[E.Event] = [E.DuelScored(r.number, entries, r.winner, by_tie),
                                 self._marks_event(r.winner, "round")]
        return events + self._next_or_over()

    def _next_or_over(self) -> list[E.Event]:
        s = self.state
        marks = self.marks()
        top = max(marks.values())
        if top >= self.settings.duel_marks:
            return self._last_challenge()  # the round's words may still be challenged (ruling 97)
        return self._move_and_draw(s.players[0])

    def _game_over(self) -> list[E.Event]:
        s = self.state
        s.phase, s.ends_at = Phase.OVER, None
        marks = self.marks()
        winner = max(marks, key=marks.get)
        return [E.GameOver(tuple(E.Standing(p, n) for p, n in sorted(marks.items(), key=lambda x: -x[1])),
                           (winner,))]

    def open_words(self) -> tuple[tuple[str, str], ...]:
        """The final round's words, unless a challenge has settled its mark already."""
        s = self.state
        last = s.rounds[-1] if s.rounds else None
        if last is None or last.winner is None or last.challenged:
            return ()
        return tuple((p, w) for p, (w, _) in last.words.items())

    def _after_draw(self) -> list[E.Event]:
        self.state.drawer = None
        return self._start_round()

    def _challenge(self, challenger: str, target: str | None) -> list[E.Event]:
        s = self.state
        self.known(challenger)
        if s.phase == Phase.OVER:  # the last round's window has closed: the end is the end (ruling 97)
            raise Refusal("game_over")
        other = self._other(challenger)
        if target is not None and target != other:
            raise Refusal("own_word" if target == challenger else "unknown_player", player=target,
                          players=tuple(s.players))
        current = s.rounds[-1] if s.rounds else None
        if s.phase == Phase.TURN and current is not None and current.words:
            if other not in current.words:  # the challenger's own word is the only one said
                raise Refusal("nothing_to_challenge", target=target)
            return self._challenge_now(challenger, other, current)
        scored = [r for r in s.rounds if r.winner is not None]
        last = scored[-1] if scored else None
        if last is None or other not in last.words:
            raise Refusal("nothing_to_challenge", target=target)
        if last.challenged:
            raise Refusal("already_challenged", word=last.words[other][0], player=other)
        word = last.words[other][0]
        last.challenged = True
        verdict = self.words.check(word)
        events: list[E.Event] = [E.ChallengeRaised(challenger, other, word),
                                 E.ChallengeResolved(challenger, other, word, verdict.ok, reason=verdict.reason)]
        winner = other if verdict.ok else challenger
        if not verdict.ok:
            s.barred.append(word)
            s.voids.append((word, other, last.number))
        was_ending = s.phase == Phase.ENDING
        last.winner = winner
        events.append(self._marks_event(winner, "challenge"))
        if max(self.marks().values()) >= self.settings.duel_marks:
            return events + self._game_over()  # the round's mark is settled: nothing is left to challenge
        if was_ending:  # the mark that ended the game went the other way: play on
            s.phase, s.ends_at = Phase.TURN, None
            return events + self._move_and_draw(s.players[0])
        current = s.rounds[-1]
        if current.winner is None and current.handicap != self._handicap():
            current.handicap = self._handicap()
            events.append(E.DuelRoundStarted(current.number, current.handicap))
        return events

    def _challenge_now(self, challenger: str, flipper: str, r: DuelRound) -> list[E.Event]:
        """A challenge of the flipper's word while the timer runs (ruling 96): whoever wins
        it takes the round's mark at once, and the round ends with the challenger's word
        unsaid."""
        s = self.state
        word = r.words[flipper][0]
        r.challenged = True
        verdict = self.words.check(word)
        events: list[E.Event] = [E.ChallengeRaised(challenger, flipper, word),
                                 E.ChallengeResolved(challenger, flipper, word, verdict.ok, reason=verdict.reason)]
        if verdict.ok:
            s.used.append((word, flipper))
        else:
            s.barred.append(word)
            s.voids.append((word, flipper, r.number))
        r.winner = flipper if verdict.ok else challenger
        s.timer = Timer()
        return events + [self._marks_event(r.winner, "challenge")] + self._next_or_over()

    def _handicap(self) -> tuple[str, int] | None:
        """(leader, marks ahead) from the rounds already won; None when level."""
        marks = self.marks()
        a, b = self.state.players
        if marks[a] == marks[b]:
            return None
        leader = a if marks[a] > marks[b] else b
        return leader, abs(marks[a] - marks[b])

    # ------------------------------------------------------------------ questions and results
    def scored(self) -> list[E.HowScored]:
        out = []
        for r in self.state.rounds:
            for p, (word, value) in r.words.items():
                handicap = r.handicap[1] if r.handicap and r.handicap[0] == p else 0
                out.append(E.HowScored(p, word, r.tiles.get(p, ()), value, handicap, r.number))
        return out

    def mode_query(self, q: A.Query) -> list[E.Event]:
        s = self.state
        if q.kind == "sheet":
            who = self.whose(q)
            lines = []
            for r in s.rounds:
                word, value = r.words.get(who, (None, 0))
                if r.winner is None and who not in r.words:
                    continue  # the round in play, nothing said yet
                note = ("mark",) if r.winner == who else ("void",) if (word, who, r.number) in s.voids else ()
                lines.append((r.number, word, self._net(r, who), note))
            return [E.RoundsSheet(who, tuple(lines), self.marks()[who], "mark")]
        if q.kind in ("scores", "marks"):
            marks = self.marks()
            return [E.MarkAwarded(max(marks, key=marks.get), tuple(marks.items()), "report")]
        if q.kind == "turn" and self.finished:
            return [E.TurnReport(None, s.round, over=True)]
        if q.kind == "turn" and s.phase == Phase.ENDING:
            return [self.last_challenge()]
        if q.kind == "turn" and s.phase == Phase.DRAW:  # the round is scored: the next waits for the tiles
            return [E.AwaitDraw(s.drawer or s.players[0], empty_spaces(s.board))]
        if q.kind == "turn":
            events: list[E.Event] = [E.DuelRoundStarted(s.round, s.rounds[-1].handicap if s.rounds else None)]
            if s.timer.running(s.clock):
                events.append(E.TimeLeft(round(s.timer.until - s.clock)))
            return events
        return super().mode_query(q)

    def result(self) -> dict:
        s = self.state
        marks = self.marks()
        players = []
        for p in s.players:
            words = [{"word": r.words[p][0], "score": self._net(r, p), "value": r.words[p][1], "kind": "regular",
                      "round": r.number, "counts": r.winner == p, "mark": r.winner == p}
                     for r in s.rounds if p in r.words]
            players.append({"name": p, "total": marks[p], "marks": marks[p], "words": words})
        winners = [p for p in s.players if marks[p] >= self.settings.duel_marks] if self.finished else []
        return {"game": self.name, "finished": self.finished, "winners": winners, "round": s.round,
                "players": players}
