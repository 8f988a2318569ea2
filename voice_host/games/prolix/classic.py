"""Prolix Classic for 3 to 5 players: turns, interrupts, the sand timer, tiebreakers,
challenges, No Cheapies and end scoring, as the rulebook says (docs/RULINGS.md has the
readings chosen where it is silent).

A pure core: the state is plain data, time arrives inside each action, randomness only
from the bag's seeded generator.
"""

from __future__ import annotations

import copy
import math

from voice_host.games.prolix import actions as A
from voice_host.games.prolix import events as E
from voice_host.games.base import Setup
from voice_host.games.errors import Refusal
from voice_host.games.prolix.classic_state import Ballot, ClassicState, Entry, LastPlay, Pending, Sheet
from voice_host.games.prolix.common import Phase, ProlixGame, ProlixSettings, Timer, ranking


class ProlixClassic(ProlixGame, name="prolix-classic", players=(3, 5)):
    """Prolix for 3, 4 or 5 players."""

    moves = ("word", "challenge", "flip")
    questions = ProlixGame.questions + ("interrupts",)
    state_class = ClassicState

    def __init__(self, setup: Setup, settings: ProlixSettings, words) -> None:
        super().__init__(setup, settings, words)
        n = len(setup.players)
        self.rounds = settings.rounds_3_players if n == 3 else settings.rounds_4_5_players
        self.penalty = settings.interrupt_penalty_3_players if n == 3 else settings.interrupt_penalty_4_5_players
        self.state.sheets = {p: Sheet() for p in setup.players}

    def settles_at(self, windows: bool = True) -> float | None:
        s = self.state
        if s.pending:
            return s.pending[0].t + self.settings.tie_window + 0.001
        return s.ends_at if windows and s.phase == Phase.ENDING and s.vote is None else None

    def pause(self, seconds: float) -> None:
        """Also the words waiting for the tie window (Game.pause)."""
        super().pause(seconds)
        for x in self.state.pending:
            x.t += seconds

    # ------------------------------------------------------------------ scores
    def totals(self, player: str) -> tuple[int, list[tuple[Entry, bool]]]:
        """The player's total now, with each regular entry and whether it still counts.

        Cross-outs: one regular score per interrupt with 3 players, one fewer with 4-5;
        the lowest go first (zeros before words). A player who is out keeps only
        interrupts.
        """
        sheet = self.state.sheets[player]
        n = len(self.state.players)
        k = len(sheet.interrupts) if n == 3 else max(0, len(sheet.interrupts) - 1)
        if sheet.out:
            k = len(sheet.regular)
        ranked = sorted(range(len(sheet.regular)), key=lambda i: (sheet.regular[i].score, sheet.regular[i].word is not None, i))
        crossed = set(ranked[:k])
        marked = [(e, i not in crossed) for i, e in enumerate(sheet.regular)]
        total = (
            sum(e.score for e, counts in marked if counts)
            + sum(e.score for e in sheet.interrupts)
            - self.settings.failed_challenge_penalty * sheet.failed_challenges
        )
        return total, marked

    def standings(self) -> tuple[E.Standing, ...]:
        """Best first: by total, then by the final tiebreak (best single word, ...)."""
        return self._winners()[0]

    def _word_values(self, player: str) -> list[int]:
        """Every word's value, interrupts without their penalty, best first (final tiebreak)."""
        sheet = self.state.sheets[player]
        return sorted([e.value for e in sheet.regular if e.word] + [e.value for e in sheet.interrupts], reverse=True)

    # ------------------------------------------------------------------ the clock
    def advance(self, t: float) -> list[E.Event]:
        s = self.state
        events: list[E.Event] = []
        while True:
            group_due = bool(s.pending) and t > s.pending[0].t + self.settings.tie_window
            expiry = s.timer.until if (s.timer.holder and s.phase == Phase.TURN) else None
            timer_due = expiry is not None and t >= expiry and not (s.pending and s.pending[0].t < expiry)
            ending_due = s.phase == Phase.ENDING and s.vote is None and t >= s.ends_at
            if group_due:
                s.clock = max(s.clock, s.pending[0].t + self.settings.tie_window)
                said, s.pending = s.pending, []
                events += self._resolve(said)
            elif timer_due:
                s.clock = max(s.clock, expiry)
                events += self._timer_runs_out()
            elif ending_due:
                s.clock = max(s.clock, s.ends_at)
                events += self._game_over()
            else:
                break
        s.clock = max(s.clock, t)
        return events

    # ------------------------------------------------------------------ actions
    def play(self, action: A.Action) -> list[E.Event]:
        if self.state.phase == Phase.SETUP:
            raise Refusal("not_started")
        match action:
            case A.FlipTimer(player=player, t=t):
                return self._flip(player, t)
            case A.Challenge(player=player, target=target):
                return self._challenge(player, target)
            case A.Answer(player=player, yes=yes):
                return self._vote(player, yes)
        return super().play(action)

    def first_turn(self) -> list[E.Event]:
        s = self.state
        s.seat(s.players, s.start)
        s.round, s.phase = 1, Phase.TURN
        return [self.board_view(), E.TurnStarted(s.active, s.round)]

    def _busy(self) -> bool:
        return bool(self.state.pending or self.state.vote)

    def _word(self, a: A.PlayWord) -> list[E.Event]:
        s = self.state
        self.known(a.player)
        self._playable_now(a.player)
        word = a.word
        self._check_word(word)
        if any(x.player == a.player for x in s.pending):
            raise Refusal("already_said", word=next(x.word for x in s.pending if x.player == a.player))
        if a.player != s.active:
            sheet = s.sheets[a.player]
            if s.timer.holder == a.player:
                raise Refusal("timer_holder", player=a.player)
            if len(sheet.interrupts) >= self.settings.interrupt_slots:
                raise Refusal("no_interrupts_left", player=a.player)
        s.pending.append(Pending(a.t, a.player, word))
        return []

    def _playable_now(self, player: str) -> None:
        s = self.state
        if s.phase == Phase.OVER:
            raise Refusal("game_over")
        if s.vote is not None:
            raise Refusal("challenge_in_progress", word=s.vote.word)
        if s.phase == Phase.DRAW:
            raise Refusal("wait_for_draw", drawer=s.drawer)
        if s.phase == Phase.ENDING:
            raise Refusal("last_word_open", words=s.last.open())  # ENDING: the last play is scored
        if s.sheets[player].out:
            raise Refusal("out_of_game", player=player)

    def _flip(self, player: str, t: float) -> list[E.Event]:
        s = self.state
        self.known(player)
        self._playable_now(player)
        if player == s.active:
            raise Refusal("active_cannot_flip")
        if s.pending:
            raise Refusal("word_already_said")
        if s.timer.running(t):
            raise Refusal("timer_running", holder=s.timer.holder, left=round(s.timer.until - t))
        s.timer = Timer(player, t + self.settings.timer)
        return [E.TimerFlipped(player, int(self.settings.timer))]

    # ------------------------------------------------------------------ scoring a play
    def _resolve(self, said: list[Pending]) -> list[E.Event]:
        """Score the words of one moment: a lone word, or a tiebreak."""
        s = self.state
        before = self._snapshot()
        active = s.active
        values = {x.player: self.score(x.word) for x in said}
        mine = [x for x in said if x.player == active]
        others = [x for x in said if x.player != active]
        best = max((values[x.player][0] for x in others), default=None)
        if mine and (best is None or values[active][0] >= best):
            winners = [active]
        else:
            winners = [x.player for x in others if values[x.player][0] == best]
        events: list[E.Event] = []
        if len(said) > 1:
            events.append(E.TieBreak(tuple((x.player, x.word, values[x.player][0]) for x in said), tuple(winners)))
        for x in said:
            s.used.append((x.word, x.player))
            if x.player not in winners:
                s.sheets[x.player].lost_ties.append(Entry(x.word, values[x.player][0], round=s.round,
                                                          tiles=values[x.player][1], at=x.t))
        s.last = LastPlay(before, list(said), list(winners))
        s.timer.holder = None
        if winners == [active]:
            word = mine[0].word
            value, flips = values[active]
            s.sheets[active].regular.append(Entry(word, value, round=s.round, tiles=flips, at=mine[0].t))
            events.append(E.WordScored(active, word, value, flips))
            return events + self._move_then(active, "next")
        for x in said:
            if x.player in winners:
                value, flips = values[x.player]
                sheet = s.sheets[x.player]
                sheet.interrupts.append(Entry(x.word, value, self.penalty, round=s.round, tiles=flips, at=x.t))
                events.append(E.Interrupted(x.player, x.word, value, self.penalty, value - self.penalty, active, flips))
                if len(sheet.interrupts) >= self.settings.interrupt_slots:
                    sheet.out = True
                    events.append(E.PlayerOut(x.player))
        return events + self._interrupt_active()

    def _timer_runs_out(self) -> list[E.Event]:
        s = self.state
        s.timer.holder = None
        s.last = None
        return [E.TimerExpired(s.active)] + self._interrupt_active()

    def _interrupt_active(self) -> list[E.Event]:
        """The active player was interrupted (by a word or the timer)."""
        s = self.state
        s.interrupts += 1
        s.timer.holder = None
        if s.interrupts == 1:
            return self._move_then(self._right_of(s.active), "again")
        s.sheets[s.active].regular.append(Entry(None, 0, round=s.round, at=s.clock))
        return [E.TurnLost(s.active, s.round)] + self._move_then(s.active, "next")

    def _move_then(self, drawer: str, then: str) -> list[E.Event]:
        """Move and draw, then the next turn or (after one interrupt) the same player again."""
        self.state.then = then
        if then == "next" and self._following() is None:
            return self._next_turn()  # the game's last word: nothing left to draw for
        return self._move_and_draw(drawer)

    def _after_draw(self) -> list[E.Event]:
        s = self.state
        s.phase, s.drawer = Phase.TURN, None
        if s.then == "again":
            return [self.board_view(), E.TurnStarted(s.active, s.round, again=True)]
        return self._next_turn()

    def _following(self, after: tuple[int, int] | None = None) -> tuple[int, int] | None:
        """(position, round) of the next turn (after the turn ``after``, else the active
        player's); None when the game is over."""
        s = self.state
        pos, rnd = after or (s.pos, s.round)
        for _ in range(len(s.order) * (self.rounds + 1)):
            pos += 1
            if pos == len(s.order):
                pos, rnd = 0, rnd + 1
                if rnd > self.rounds:
                    return None
            if not s.sheets[s.order[pos]].out:
                return pos, rnd
        return None

    def _player_at(self, turn: tuple[int, int] | None) -> str | None:
        return self.state.order[turn[0]] if turn is not None else None

    def _next_turn(self) -> list[E.Event]:
        s = self.state
        s.interrupts = 0
        s.phase, s.drawer = Phase.TURN, None
        following = self._following()
        last_round = following[1] if following else self.rounds + 1
        events: list[E.Event] = [E.RoundOver(r, self.standings()) for r in range(s.round, last_round)]
        if following is None:
            return events + self._last_challenge()
        s.pos, s.round = following
        return events + [self.board_view(), E.TurnStarted(s.active, s.round)]

    def _last_challenge(self) -> list[E.Event]:
        """The last play is scored: its words stay open to a challenge for the window
        (ruling 65), or the game is over now when nothing can be challenged."""
        s, window = self.state, self.settings.last_challenge_window
        words = s.last.open() if s.last else ()
        if not words or window <= 0:
            return self._game_over()
        s.phase, s.ends_at = Phase.ENDING, s.clock + window
        return [E.LastChallenge(tuple(words), math.ceil(window))]

    def _game_over(self) -> list[E.Event]:
        s = self.state
        s.phase, s.ends_at = Phase.OVER, None
        table, winners, tiebreak = self._winners()
        return [E.GameOver(table, winners, tiebreak)]

    def _winners(self) -> tuple[tuple[E.Standing, ...], tuple[str, ...], str | None]:
        return ranking(self.state.players, lambda p: self.totals(p)[0], self._word_values)

    def _snapshot(self) -> ClassicState:
        s = self.state
        last, s.last = s.last, None
        try:
            return copy.deepcopy(s)
        finally:
            s.last = last

    # ------------------------------------------------------------------ challenges
    def _challenge(self, challenger: str, target: str | None) -> list[E.Event]:
        s = self.state
        self.known(challenger)
        if s.phase == Phase.OVER:  # game over is over: the result said stays the result
            raise Refusal("game_over")
        if target is not None:
            self.known(target)
            if target == challenger:
                raise Refusal("own_word")
        if s.vote is not None:
            raise Refusal("challenge_in_progress", word=s.vote.word)
        events: list[E.Event] = []
        if s.pending:  # a challenge stops play: the words just said are scored first
            said, s.pending = s.pending, []
            events += self._resolve(said)
        last = s.last
        if last is None:
            raise Refusal("nothing_to_challenge", target=target)
        candidates = [x for x in last.said if x.player in last.scored and x.player != challenger]
        if target is not None:
            candidates = [x for x in candidates if x.player == target]
        if not candidates:
            raise Refusal("nothing_to_challenge", target=target)
        said = max(candidates, key=lambda x: x.t)
        if said.player in last.challenged:
            raise Refusal("already_challenged", word=said.word, player=said.player)
        s.timer.holder = None
        events.append(E.ChallengeRaised(challenger, said.player, said.word))
        if self.settings.challenge_vote:
            voters = [p for p in s.players if p not in (challenger, said.player)]
            s.vote = Ballot(challenger, said.player, said.word, voters)
            return events + [E.VoteAsked(tuple(voters), said.word)]
        return events + self._settle(challenger, said.player, said.word)

    def _vote(self, player: str, yes: bool) -> list[E.Event]:
        s = self.state
        v = s.vote
        if s.phase == Phase.OVER:
            raise Refusal("game_over")
        if v is None:
            raise Refusal("no_vote")
        if player not in v.voters:
            raise Refusal("not_a_voter", player=player, word=v.word)
        if player in v.yes or player in v.no:
            raise Refusal("already_voted", player=player)
        (v.yes if yes else v.no).append(player)
        if len(v.yes) >= v.needed:
            s.vote = None
            return self._settle(v.challenger, v.player, v.word, by_vote=True)
        if len(v.voters) - len(v.no) < v.needed:
            s.vote = None
            return self._settle(v.challenger, v.player, v.word)
        return []

    def _settle(self, challenger: str, player: str, word: str, by_vote: bool = False) -> list[E.Event]:
        """The vote or the dictionary decides; a voided word undoes its play."""
        s = self.state
        verdict = None if by_vote else self.words.check(word)
        if by_vote or verdict.ok:
            s.sheets[challenger].failed_challenges += 1
            s.last.challenged.append(player)
            events = [E.ChallengeResolved(challenger, player, word, True, by_vote=by_vote,
                                          penalty=self.settings.failed_challenge_penalty)]
            if s.phase == Phase.ENDING and not s.last.open():  # nothing left to challenge: the end
                events += self._game_over()
            return events
        last = s.last
        restored = copy.deepcopy(last.before)
        for name, sheet in s.sheets.items():
            restored.sheets[name].failed_challenges = sheet.failed_challenges
        restored.barred = s.barred + [word]
        restored.voids = s.voids + [(word, player, restored.round)]  # the round it was played in
        restored.clock = s.clock
        restored.timer = Timer(None, s.timer.until)
        self.state = restored
        events: list[E.Event] = [E.ChallengeResolved(challenger, player, word, False, reason=verdict.reason)]
        rest = [x for x in last.said if x.player != player]
        if rest:
            events += self._resolve(rest)
            self.state.last.challenged = [p for p in last.challenged if p != player]
        else:
            events += [self.board_view(), E.TurnStarted(restored.active, restored.round, again=True)]
        return events

    # ------------------------------------------------------------------ questions and results
    def scored(self) -> list[E.HowScored]:
        s = self.state
        order = {(w, p): i for i, (w, p) in enumerate(s.used)}
        out = []
        for p, sheet in s.sheets.items():
            out += [E.HowScored(p, e.word, e.tiles, e.value, 0, e.round) for e in sheet.regular if e.word]
            out += [E.HowScored(p, e.word, e.tiles, e.value, e.penalty, e.round, "interrupt") for e in sheet.interrupts]
            out += [E.HowScored(p, e.word, e.tiles, e.value, 0, e.round, "tiebreak") for e in sheet.lost_ties]
        return sorted(out, key=lambda e: order.get((e.word, e.player), -1))

    def interrupt_cost(self, player: str, word: str) -> tuple[int, int] | None:
        s = self.state
        if s.phase != Phase.TURN or player == s.active or player not in s.sheets:
            return None
        try:  # only a word the rules would take now is worth asking about
            self._playable_now(player)
            self._check_word(word)
            if s.timer.holder == player or len(s.sheets[player].interrupts) >= self.settings.interrupt_slots:
                return None
        except Refusal:
            return None
        return self.score(word)[0], self.penalty

    def time_left(self) -> E.Event:
        """The sand left, or in the last word's challenge window the seconds left to challenge."""
        s = self.state
        if s.phase == Phase.ENDING and s.ends_at is not None:
            return self.last_challenge()
        return super().time_left()

    def last_challenge(self) -> E.LastChallenge:
        s = self.state
        return E.LastChallenge(s.last.open(), math.ceil(s.ends_at - s.clock - 1e-9))

    def mode_query(self, q: A.Query) -> list[E.Event]:
        s = self.state
        if q.kind == "scores":
            return [E.ScoresReport(self.standings(), s.round, self.rounds)]
        if q.kind == "turn" and s.phase == Phase.ENDING:
            return [self.last_challenge()]
        if q.kind == "turn":
            holder = s.timer.holder if s.timer.running(s.clock) else None
            left = (s.timer.until - s.clock) if holder else None
            active = s.active if s.phase in (Phase.TURN, Phase.DRAW) else None
            if s.phase == Phase.DRAW and s.then == "next" and (following := self._following()):
                return [E.TurnReport(s.order[following[0]], following[1], holder, left, s.drawer,  # after the draw
                                     then=self._player_at(self._following(following)))]
            return [E.TurnReport(active, s.round, holder, left, s.drawer if s.phase == Phase.DRAW else None,
                                 over=self.finished, then=self._player_at(self._following()) if active else None)]
        if q.kind == "sheet":
            who = self.whose(q)
            total, marked = self.totals(who)
            sheet = s.sheets[who]
            return [E.SheetReport(who, tuple((e.word, e.score, c, e.round) for e, c in marked),
                                  tuple((e.word, e.value, e.penalty, e.score, e.round) for e in sheet.interrupts),
                                  sheet.failed_challenges, total)]
        if q.kind == "interrupts":
            slots = self.settings.interrupt_slots
            return [E.InterruptsReport(tuple((p, len(sh.interrupts), max(0, slots - len(sh.interrupts)), sh.out)
                                             for p, sh in s.sheets.items()))]
        return super().mode_query(q)

    def said_at(self, player: str) -> list[float]:
        """When each of ``player``'s result words was said (game-clock seconds), in the
        result's order (words, interrupts, lost ties): the order they were played in."""
        sheet = self.state.sheets[player]
        return [e.at for e in (*sheet.regular, *sheet.interrupts, *sheet.lost_ties)]

    def result(self) -> dict:
        s, over, players = self.state, self.finished, []
        for p in s.players:
            total, marked = self.totals(p)
            sheet = s.sheets[p]
            words = [{"word": e.word, "score": e.score, "value": e.value, "kind": "regular" if e.word else "zero",
                      "round": e.round, "counts": counts} for e, counts in marked]
            words += [{"word": e.word, "score": e.score, "value": e.value, "penalty": e.penalty, "kind": "interrupt",
                       "round": e.round, "counts": True} for e in sheet.interrupts]
            words += [{"word": e.word, "score": 0, "value": e.value, "kind": "tiebreak", "round": e.round,
                       "counts": False} for e in sheet.lost_ties]
            players.append({"name": p, "total": total, "words": words, "interrupts": len(sheet.interrupts),
                            "failed_challenges": sheet.failed_challenges, "out": sheet.out})
        winners = list(self._winners()[1]) if over else []
        return {"game": self.name, "finished": over, "winners": winners, "round": s.round,
                "rounds": self.rounds, "players": players}
