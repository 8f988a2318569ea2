"""Prolix Redux: interjections instead of interrupts, 12 turns, the six best words.

Each turn one player is active and every other player may interject. Any player's
lone word is their word for the turn; the first word said starts a 30-second timer and
the turn ends when it runs out or when every player has a word. The active player's
word is scored first; an interjector whose word scores more gets +2, one whose word
scores the same or less gets -1; an active player without a word gets -1 (and every
interjector +2). A word a challenge shows invalid scores 0 and costs its player 2 (an
active player's invalid word then counts as no word for the interjectors); a failed
challenge costs the challenger 2. The active player passes clockwise every turn. The
final score is the six best words plus bonuses minus penalties, once the last turn's
words have had their challenge window (docs/RULINGS.md 97).
"""

from __future__ import annotations

from dataclasses import dataclass, field

from voice_host.games.prolix import actions as A
from voice_host.games.prolix import events as E
from voice_host.games.errors import Refusal
from voice_host.games.prolix.common import Phase, ProlixGame, ProlixState, Timer, ranking


@dataclass
class ReduxTurn:
    number: int
    active: str
    words: dict[str, tuple[str, int]] = field(default_factory=dict)
    """player -> (word, value), in the order said."""
    invalid: list[str] = field(default_factory=list)
    """Players whose word a challenge voided."""
    challenged: list[str] = field(default_factory=list)
    """Players whose word has been challenged (once is enough)."""
    failed_challenges: list[str] = field(default_factory=list)
    """Challengers whose challenge failed."""
    passed: list[str] = field(default_factory=list)
    """Players who said they have no word this turn."""
    done: bool = False
    tiles: dict[str, tuple[tuple[str, int], ...]] = field(default_factory=dict)
    """player -> (letter, points) of the tiles the word flipped."""

    def marks(self) -> dict[str, int]:
        """Bonus (+2) or penalty (-1, -2) per player; before the turn ends only the -2s."""
        out: dict[str, int] = {}
        a = self.active
        active_value = self.words[a][1] if a in self.words and a not in self.invalid else None
        if self.done and a not in self.words:
            out[a] = -1
        for player, (_, value) in self.words.items():
            if player in self.invalid:
                out[player] = -2
            elif player != a and self.done:
                out[player] = 2 if active_value is None or value > active_value else -1
        for player in self.failed_challenges:
            out[player] = out.get(player, 0) - 2
        return out

    def value(self, player: str) -> int | None:
        if player not in self.words:
            return None
        return 0 if player in self.invalid else self.words[player][1]


@dataclass
class ReduxState(ProlixState):
    timer: Timer = field(default_factory=Timer)
    turns: list[ReduxTurn] = field(default_factory=list)


class ProlixRedux(ProlixGame, name="prolix-redux", players=(2, 6)):
    """Prolix Redux for 2 to 6 players."""

    state_class = ReduxState
    moves = ("word", "challenge", "flip")

    @classmethod
    def extra_tiles(cls, prolix: dict) -> dict | None:
        return {"blue": {"F": 2}} if prolix.get("redux_two_blue_f") else None

    @property
    def columns_per_move(self) -> int:
        return 2 if len(self.state.players) == 2 else 1  # two players: discard and draw four

    @property
    def rounds(self) -> int:
        return self.settings.redux_rounds

    # ------------------------------------------------------------------ scores
    def totals(self, player: str) -> tuple[int, list[int]]:
        """(final score, the values that count): best words + bonuses - penalties."""
        values = [v for t in self.state.turns if (v := t.value(player)) is not None]
        best = sorted(values, reverse=True)[: self.settings.redux_best_words]
        marks = sum(t.marks().get(player, 0) for t in self.state.turns)
        return sum(best) + marks, best

    def _ranking(self):
        return ranking(self.state.players, lambda p: self.totals(p)[0], self._values)

    def _values(self, player: str) -> list[int]:
        return sorted((v for t in self.state.turns if (v := t.value(player))), reverse=True)

    # ------------------------------------------------------------------ the clock
    def advance(self, t: float) -> list[E.Event]:
        s = self.state
        events: list[E.Event] = []
        if s.phase == Phase.TURN and s.timer.until is not None and t >= s.timer.until:
            s.clock = s.timer.until
            events += [E.TimerExpired(s.active, interrupts=False)] + self._end_turn()
        events += self._window_closes(t)
        s.clock = max(s.clock, t)
        return events

    # ------------------------------------------------------------------ actions
    def first_turn(self) -> list[E.Event]:
        s = self.state
        s.seat(s.players, s.start, pos=-1)
        return self._next_turn()

    def play(self, action: A.Action) -> list[E.Event]:
        match action:
            case A.FlipTimer(player=player):
                return self._flip(player)
            case A.Challenge(player=player, target=target):
                return self._challenge(player, target)
            case A.Pass(player=player):
                return self._pass(player)
        return super().play(action)

    def _word(self, a: A.PlayWord) -> list[E.Event]:
        s = self.state
        turn = s.turns[-1]
        heard = [(w, p) for p, (w, _) in turn.words.items()]  # words heard this turn count as used
        if a.player in turn.passed:
            turn.passed.remove(a.player)  # a word after all: it is the player's word
        events: list[E.Event] = [self._take_word(a, turn.words, turn.tiles, heard)]
        if s.timer.until is None:
            s.timer = Timer(a.player, s.clock + self.settings.redux_timer)
            events.append(E.TimerStarted(int(self.settings.redux_timer), a.player))
        return events + self._end_if_all_said(turn)

    def _pass(self, player: str) -> list[E.Event]:
        """No word this turn: free for an interjector, no word (-1) for the active player."""
        s = self.state
        self._accepting(player)
        turn = s.turns[-1]
        if player in turn.words:
            raise Refusal("word_is_final", word=turn.words[player][0])
        if player in turn.passed:
            raise Refusal("already_passed")
        turn.passed.append(player)
        return [E.Passed(player, player == turn.active)] + self._end_if_all_said(turn)

    def _end_if_all_said(self, turn: ReduxTurn) -> list[E.Event]:
        """The turn ends at once when every player has a word or has passed."""
        return self._end_turn() if len(turn.words) + len(turn.passed) == len(self.state.players) else []

    def _flip(self, player: str) -> list[E.Event]:
        """A stalled table may start the timer without a word (see docs/RULINGS.md)."""
        s = self.state
        self._accepting(player)
        if s.timer.until is not None:
            raise Refusal("timer_running", holder=s.timer.holder, left=round(s.timer.until - s.clock))
        s.timer = Timer(player, s.clock + self.settings.redux_timer)
        return [E.TimerStarted(int(self.settings.redux_timer), player)]

    def _end_turn(self) -> list[E.Event]:
        s = self.state
        turn = s.turns[-1]
        turn.done = True
        s.timer = Timer()
        for player, (word, _) in turn.words.items():
            s.used.append((word, player))
        events: list[E.Event] = [self._scored(turn)]
        if turn.number >= self.rounds:
            return events + self._last_challenge()  # the last turn's words may still be challenged
        return events + self._move_and_draw(turn.active)

    def _scored(self, turn: ReduxTurn) -> E.ReduxScored:
        marks = turn.marks()
        order = [turn.active] + [p for p in turn.words if p != turn.active]
        entries = tuple((p, turn.words[p][0] if p in turn.words else None, turn.value(p) or 0, marks.get(p, 0))
                        for p in order)
        return E.ReduxScored(turn.number, turn.active, entries)

    def _after_draw(self) -> list[E.Event]:
        self.state.drawer = None
        return self._next_turn()

    def _next_turn(self) -> list[E.Event]:
        s = self.state
        s.pass_turn()
        s.turns.append(ReduxTurn(len(s.turns) + 1, s.active))
        s.round, s.phase, s.timer = len(s.turns), Phase.TURN, Timer()
        return [self.board_view(), E.TurnStarted(s.active, s.round)]

    def _game_over(self) -> list[E.Event]:
        self.state.phase, self.state.ends_at = Phase.OVER, None
        return [E.GameOver(*self._ranking())]

    def open_words(self) -> tuple[tuple[str, str], ...]:
        """The last turn's words that no challenge has tried yet."""
        turns = self.state.turns
        if not turns or not turns[-1].done:
            return ()
        return tuple((p, w) for p, (w, _) in turns[-1].words.items() if p not in turns[-1].challenged)

    def _challenge(self, challenger: str, target: str | None) -> list[E.Event]:
        s = self.state
        self.known(challenger)
        if s.phase == Phase.OVER:  # the last turn's window has closed: the end is the end (ruling 97)
            raise Refusal("game_over")
        if target == challenger:
            raise Refusal("own_word")
        candidates = []
        current = s.turns[-1] if s.turns else None
        if current is not None and (current.words or current.done):
            candidates.append(current)  # once the next turn has a word, the last one is settled
        elif len(s.turns) > 1:
            candidates.append(s.turns[-2])
        found = None
        for turn in candidates:
            said = [p for p in turn.words if p != challenger and (target is None or p == target)]
            if said:
                found = (turn, said[-1])
        if found is None:
            raise Refusal("nothing_to_challenge", target=target)
        turn, player = found
        word = turn.words[player][0]
        if player in turn.challenged:
            raise Refusal("already_challenged", word=word, player=player)
        turn.challenged.append(player)
        verdict = self.words.check(word)
        events: list[E.Event] = [E.ChallengeRaised(challenger, player, word),
                                 E.ChallengeResolved(challenger, player, word, verdict.ok, reason=verdict.reason,
                                                     penalty=self.settings.failed_challenge_penalty)]
        if verdict.ok:
            turn.failed_challenges.append(challenger)
        else:
            turn.invalid.append(player)
            s.barred.append(word)
            s.voids.append((word, player, turn.number))
        if turn.done:
            events.append(self._scored(turn))
            if s.phase == Phase.ENDING and not self.open_words():  # nothing left to challenge: the end
                events += self._game_over()
        return events

    # ------------------------------------------------------------------ questions and results
    def scored(self) -> list[E.HowScored]:
        return [E.HowScored(p, word, t.tiles.get(p, ()), value, 0, t.number)
                for t in self.state.turns for p, (word, value) in t.words.items()]

    def mode_query(self, q: A.Query) -> list[E.Event]:
        s = self.state
        if q.kind == "sheet":
            who = self.whose(q)
            total, best = self.totals(who)
            counted, lines = list(best), []
            for t in s.turns:
                mark = t.marks().get(who, 0) if t.done else 0
                if who not in t.words and not mark:
                    continue
                value = t.value(who)
                notes = []
                if who in t.invalid:
                    notes.append("void")
                elif value is not None and value in counted:
                    counted.remove(value)
                    notes.append("counts")
                if mark:
                    notes.append(mark)
                lines.append((t.number, t.words.get(who, (None, 0))[0], value or 0, tuple(notes)))
            return [E.RoundsSheet(who, tuple(lines), total)]
        if q.kind == "scores":
            return [E.ScoresReport(self._ranking()[0], s.round, self.rounds)]
        if q.kind == "turn" and self.finished:
            return [E.TurnReport(None, s.round, over=True)]
        if q.kind == "turn" and s.phase == Phase.ENDING:
            return [self.last_challenge()]
        if q.kind == "turn" and s.phase == Phase.DRAW:  # the turn is scored: the next one waits for the tiles
            return [E.TurnReport(s.following(), s.round + 1, None, None, s.drawer)]
        if q.kind == "turn":
            left = (s.timer.until - s.clock) if s.timer.running(s.clock) else None
            return [E.TurnReport(s.active, s.round, s.timer.holder, left,
                                 then=s.following() if s.round < self.rounds else None)]
        return super().mode_query(q)

    def result(self) -> dict:
        s = self.state
        players = []
        for p in s.players:
            total, best = self.totals(p)
            counted = list(best)
            words = []
            for turn in s.turns:
                if p not in turn.words:
                    continue
                value = turn.value(p)
                counts = value in counted
                if counts:
                    counted.remove(value)
                words.append({"word": turn.words[p][0], "score": value, "value": turn.words[p][1],
                              "kind": "active" if turn.active == p else "interjection", "round": turn.number,
                              "counts": counts, "mark": turn.marks().get(p, 0) if turn.done else 0,
                              "valid": p not in turn.invalid})
            marks = [t.marks().get(p, 0) for t in s.turns]
            players.append({"name": p, "total": total, "words": words,
                            "bonuses": sum(m for m in marks if m > 0), "penalties": -sum(m for m in marks if m < 0)})
        winners = list(self._ranking()[1]) if self.finished else []
        return {"game": self.name, "finished": self.finished, "winners": winners, "round": s.round,
                "rounds": self.rounds, "players": players}
