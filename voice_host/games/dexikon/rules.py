"""Dexikon scorekeeper: banked words, challenges, the last word and the final score.

The players build their decks with real cards and count their words' points; the host
keeps the score sheets. Each turn the active player banks or spends a word ("bank
catch for 5", "spend catch for 5", or just "spend"). A banked word can never be spelled
again; a spent one leaves no trace. A word stays open to challenge until the next
player declares or ``challenge_window`` seconds pass; a challenged speller may concede
(no marks, no penalties) or have it looked up: the winners each gain a bonus mark, the
losers each a penalty card, and an invalid word gets one more try. Before the first
player's turn, if anyone has banked enough words (7; the variants 5, 8, 8), the game
ends; everyone says a last word, and the score is the best banked words (5; 3, 6, 5)
plus the last word, bonus marks, N and P card points (and, solo, penalties set aside
with attacks), minus 2 for every penalty card. Ties go to the best single word.
"""

from __future__ import annotations

from dataclasses import replace

from voice_host.games.dexikon import actions as A
from voice_host.games.dexikon import events as E
from voice_host.games.base import Game, Setup
from voice_host.games.dexikon.state import DexikonSettings, DexikonState, Ledger, Open, Phase
from voice_host.games.errors import Refusal
from voice_host.games.scoring import ranking

class Dexikon(Game, name="dexikon", players=(1, 5)):
    """The Dexikon scorekeeper for 1 to 5 players (one: the solo rules)."""

    family = "dexikon"

    settings_class = DexikonSettings

    def new_state(self, setup: Setup) -> DexikonState:
        self.target, self.best = self.settings.limits  # an unknown variant is said before the game
        return DexikonState(list(setup.players), {p: Ledger() for p in setup.players})

    @property
    def solo(self) -> bool:
        return len(self.state.players) == 1

    def settles_at(self, windows: bool = True) -> float | None:
        """When every open word (and pending challenge) will have closed by itself: a
        window the table may still act in, so None without ``windows``."""
        return max((self._due(o) for o in self.state.open), default=None) if windows else None

    def _due(self, o: Open) -> float:
        return o.asked + self.settings.challenge_window if o.asked is not None else o.until

    # ------------------------------------------------------------------ the clock
    def advance(self, t: float) -> list[E.Event]:
        s = self.state
        events: list[E.Event] = []
        while s.open:
            o = min(s.open, key=self._due)
            if t < self._due(o):
                break
            s.clock = max(s.clock, self._due(o))
            events += self._resolve(o, concede=False) if o.asked is not None else self._close(o)
        s.clock = max(s.clock, t)
        return events

    def pause(self, seconds: float) -> None:
        """The words open to a challenge stay open as long as they had left (Game.pause)."""
        for o in self.state.open:
            o.until += seconds
            if o.asked is not None:
                o.asked += seconds

    # ------------------------------------------------------------------ actions
    def play(self, action: A.Action) -> list[E.Event]:
        s = self.state
        if s.phase == Phase.SETUP:
            raise Refusal("not_started")
        if getattr(action, "player", None) is not None:
            self.known(action.player)
        if isinstance(action, A.Tally):  # a late correction is taken after the end too
            return self._tally(action.player, action.kind, action.count)
        if s.phase == Phase.OVER:
            raise Refusal("game_over")
        match action:
            case A.Declare():
                return self._declare(action)
            case A.LastWord():
                return self._last_word(action)
            case A.Challenge(t=t, player=player, target=target):
                return self._challenge(t, player, target)
            case A.ChallengeAnswer(player=player, concede=concede) | A.Answer(player=player, yes=concede):
                return self._answer(player, concede)
            case A.PoolEmpty():
                return self._pool_empty()
            case A.PlayWord(word=word):
                raise Refusal("say_bank_or_spend", word=word)
        return super().play(action)

    def begin(self) -> list[E.Event]:
        s = self.state
        s.start = s.start or s.players[0]
        s.seat(s.players, s.start)
        s.phase = Phase.TURNS
        return [E.DexikonStarted(tuple(s.players), self.target, self.best, self.solo),
                E.TurnStarted(s.active, s.round)]

    def banked_by(self, word: str) -> str | None:
        """Who banked ``word`` (exact spelling): nobody may spell it again."""
        return next((p for p, sheet in self.state.sheets.items() if any(w == word for w, _ in sheet.banked)), None)

    def _declare(self, a: A.Declare) -> list[E.Event]:
        s = self.state
        if s.phase == Phase.LAST:
            raise Refusal("last_words")
        events = self._move_on() if a.player == s.following() else []
        if s.phase != Phase.TURNS:
            return events + [E.Refused("last_words", {}, a.player)]
        if a.player != s.active:
            raise Refusal("not_your_turn", player=s.active)
        if s.open:
            raise Refusal("word_is_final", word=s.open[0].word)
        if a.word is not None:
            by = self.banked_by(a.word)
            if by is not None:
                raise Refusal("already_banked", word=a.word, by=by)
            self._auto_check(a.word)
        sheet = s.sheets[a.player]
        if a.word is None:
            return events + [E.WordSpent(a.player, None, None)] + self._end_turn()
        s.attempt += 1
        s.open.append(Open(a.t, a.player, a.word, a.points, "bank" if a.bank else "spend", s.attempt,
                           a.t + self.settings.challenge_window))
        if a.bank:
            sheet.banked.append((a.word, a.points))
            sheet.banked_in[a.word] = s.round
            return events + [E.WordBanked(a.player, a.word, a.points, len(sheet.banked))]
        sheet.spent.append((a.word, a.points))
        return events + [E.WordSpent(a.player, a.word, a.points)]

    def _auto_check(self, word: str) -> None:
        if self.settings.auto_reject:
            self.check_word(word)

    def _move_on(self) -> list[E.Event]:
        """A new turn has started: the open word can no longer be challenged."""
        s = self.state
        if not s.open:
            return []
        if s.open[0].asked is not None:
            raise Refusal("challenge_in_progress", word=s.open[0].word)
        return self._close(s.open[0])

    def _close(self, o: Open) -> list[E.Event]:
        """The word can no longer be challenged: in a turn, play passes on."""
        s = self.state
        s.open.remove(o)
        if o.kind == "last":
            return self._maybe_final()
        return self._end_turn()

    def _end_turn(self) -> list[E.Event]:
        """Play passes clockwise; before the first player's turn, the game may end."""
        s = self.state
        s.attempt = 0
        if s.pass_turn():
            done = [p for p in s.order if len(s.sheets[p].banked) >= self.target]
            if done or s.final_turn:
                s.phase = Phase.LAST
                return [E.LastWordsCalled(tuple(done), self.target)]
            s.round += 1
        return [E.TurnStarted(s.active, s.round)]

    def _pool_empty(self) -> list[E.Event]:
        s = self.state
        if not self.solo:
            raise Refusal("solo_only")
        if s.phase != Phase.TURNS:
            raise Refusal("last_words")
        events = self._move_on()  # said at the start of a turn
        if s.phase != Phase.TURNS:
            return events
        s.final_turn = True
        return events + [E.FinalTurn(s.active)]

    # ------------------------------------------------------------------ challenges
    def _challenge(self, t: float, challenger: str, target: str | None) -> list[E.Event]:
        s = self.state
        if target is not None and target == challenger:
            raise Refusal("own_word")
        words = [o for o in s.open if o.player != challenger and (target is None or o.player == target)]
        if not words:
            raise Refusal("nothing_to_challenge", target=target)
        o = max(words, key=lambda x: x.t)
        if o.asked is not None:
            if challenger in o.challengers:
                raise Refusal("already_challenging", word=o.word)
            o.challengers.append(challenger)
            return [E.ChallengeJoined(challenger, o.player, o.word)]
        o.challengers, o.asked = [challenger], t
        return [E.ChallengeRaised(challenger, o.player, o.word), E.ConcedeAsked(o.player, o.word)]

    def _answer(self, player: str, concede: bool) -> list[E.Event]:
        o = next((x for x in self.state.open if x.player == player and x.asked is not None), None)
        if o is None:
            raise Refusal("no_challenge_pending")
        return self._resolve(o, concede)

    def _resolve(self, o: Open, concede: bool) -> list[E.Event]:
        """Conceded, or looked up: marks and penalty cards, and a second try if void."""
        s = self.state
        sheet = s.sheets[o.player]
        verdict = None if concede else self.words.check(o.word)
        outcome = "conceded" if concede else "stands" if verdict.ok else "void"
        if outcome == "stands":
            sheet.marks += 1
            for c in o.challengers:
                s.sheets[c].penalties += 1
        elif outcome == "void":
            sheet.penalties += 1
            for c in o.challengers:
                s.sheets[c].marks += 1
        retry = outcome != "stands" and o.attempt < 2
        event = E.DexikonChallenged(o.player, o.word, tuple(o.challengers), outcome,
                                    verdict.reason if verdict else None, o.kind, retry)
        if outcome == "stands":
            return [event] + self._close(o)
        s.open.remove(o)
        s.voided.append((o.word, o.player, s.round))
        if o.kind == "bank":
            sheet.banked.remove((o.word, o.points))
            sheet.banked_in.pop(o.word, None)
        elif o.kind == "spend":
            sheet.spent.remove((o.word, o.points))
        else:
            sheet.last = None
        if retry:
            return [event]
        if o.kind == "last":
            return [event] + self._maybe_final()
        return [event] + self._end_turn()

    # ------------------------------------------------------------------ the end
    def _last_word(self, a: A.LastWord) -> list[E.Event]:
        s = self.state
        if s.phase != Phase.LAST:
            raise Refusal("not_last_words")
        sheet = s.sheets[a.player]
        if sheet.last is not None:
            raise Refusal("already_last", word=sheet.last[0])
        if sheet.last_tries >= 2:
            raise Refusal("no_more_tries")
        self._auto_check(a.word)
        sheet.last_tries += 1
        sheet.last = (a.word, a.points)
        s.open.append(Open(a.t, a.player, a.word, a.points, "last", sheet.last_tries,
                           a.t + self.settings.challenge_window))
        return [E.LastWordTaken(a.player, a.word, a.points)]

    def _maybe_final(self) -> list[E.Event]:
        """Once every last word is said (or its tries are spent) and settled: final scores."""
        s = self.state
        if self._owing() or s.open:
            return []
        s.phase = Phase.OVER
        return self._final()

    def _owing(self) -> list[str]:
        """Who still owes a last word: none said yet (or voided) and a try left, in turn order."""
        s = self.state
        return [p for p in (s.order or s.players) if s.sheets[p].last is None and s.sheets[p].last_tries < 2]

    def _final(self) -> list[E.Event]:
        table, winners, tiebreak = self._ranking()
        return [self.sheet(p) for p in self.state.order] + [
            E.GameOver(table, () if self.solo else winners, None if self.solo else tiebreak)]

    def _tally(self, player: str, kind: str, count: int) -> list[E.Event]:
        s = self.state
        sheet = s.sheets[player]
        if kind == "aside" and not self.solo:
            raise Refusal("solo_only")
        if kind == "returned":
            if count > sheet.penalties:
                raise Refusal("too_few_penalties", held=sheet.penalties)
            sheet.penalties -= count
        elif kind == "penalty":
            sheet.penalties += count
        else:
            setattr(sheet, kind, getattr(sheet, kind) + count)
        held = {"penalty": sheet.penalties, "returned": sheet.penalties, "bonus": sheet.bonus, "aside": sheet.aside}
        events: list[E.Event] = [E.TallyNoted(player, kind, count, held[kind])]
        return events + (self._final() if s.phase == Phase.OVER else [])  # a late correction: the final scores again

    # ------------------------------------------------------------------ scores
    def counted(self, player: str) -> list[int]:
        """The banked words' points that count: the best five (or the variant's)."""
        return sorted((p for _, p in self.state.sheets[player].banked), reverse=True)[: self.best]

    def total(self, player: str) -> int:
        """The score now: best banked words, last word, bonuses, minus penalty cards."""
        sh = self.state.sheets[player]
        return (sum(self.counted(player)) + (sh.last[1] if sh.last else 0) + sh.marks + sh.bonus + sh.aside
                - self.settings.penalty_points * sh.penalties)

    def _values(self, player: str) -> list[int]:
        """Every recorded word's points, best first (the tiebreak), the last word included."""
        sh = self.state.sheets[player]
        return sorted([p for _, p in sh.banked] + ([sh.last[1]] if sh.last else []), reverse=True)

    def _ranking(self):
        return ranking(self.state.players, self.total, self._values)

    def sheet(self, player: str) -> E.DexikonSheet:
        sh = self.state.sheets[player]
        return E.DexikonSheet(player, tuple(sh.banked), min(self.best, len(sh.banked)), sum(self.counted(player)),
                              sh.last, sh.marks + sh.bonus + sh.aside, sh.penalties,
                              self.settings.penalty_points * sh.penalties, self.total(player))

    # ------------------------------------------------------------------ questions and results
    moves = ("challenge",)
    questions = ("scores", "turn", "time", "words", "sheet", "banked", "marks", "penalties", "voided")

    def query(self, q: A.Query) -> list[E.Event]:
        s = self.state
        if q.kind in ("banked", "marks", "penalties"):
            return [E.DexikonFacts(q.kind, tuple((p, tuple(s.sheets[p].banked), s.sheets[p].marks,
                                                  s.sheets[p].penalties) for p in (s.order or s.players)))]
        if q.kind == "time":
            if not s.open:
                return [E.TimeReport(None, timer=False)]
            o = min(s.open, key=self._due)
            return [E.TimeReport(max(0, round(self._due(o) - s.clock)), o.player, word=o.word)]
        if q.kind == "scores":
            return [E.StandingsReport(self._ranking()[0])]
        if q.kind == "turn" and s.phase == Phase.LAST:
            return [E.LastWordsWaiting(tuple(self._owing()), tuple((o.player, o.word) for o in s.open))]
        if q.kind == "turn":
            turns = s.phase == Phase.TURNS
            return [E.TurnReport(s.active if turns else None, s.round, over=self.finished,
                                 then=s.following() if turns else None)]
        if q.kind == "sheet":
            who = self.whose(q)
            sh = s.sheets[who]  # asked for: every banked word with its round too
            return [replace(self.sheet(who), rounds=tuple(sh.banked_in.get(w, 0) for w, _ in sh.banked))]
        if q.kind == "voided":
            return [E.VoidedReport(tuple(s.voided))]
        if q.kind == "words":
            return [E.WordsReport(tuple((w, p) for p in s.order for w, _ in s.sheets[p].banked))]
        raise Refusal("unknown_question", kind=q.kind)

    def result(self) -> dict:
        s = self.state
        players = []
        for p in s.players:
            sh = s.sheets[p]
            counted = self.counted(p)
            words = []
            for w, pts in sh.banked:
                counts = pts in counted
                if counts:
                    counted.remove(pts)
                words.append({"word": w, "score": pts, "kind": "banked", "counts": counts})
            words += [{"word": w, "score": pts, "kind": "spent", "counts": False} for w, pts in sh.spent]
            if sh.last:
                words.append({"word": sh.last[0], "score": sh.last[1], "kind": "last", "counts": True})
            players.append({"name": p, "total": self.total(p), "words": words, "marks": sh.marks, "bonus": sh.bonus,
                            "penalties": sh.penalties, **({"aside": sh.aside} if self.solo else {})})
        winners = list(self._ranking()[1]) if self.finished and not self.solo else []
        return {"game": self.name, "variant": self.settings.variant, "finished": self.finished, "winners": winners,
                "round": s.round, "players": players}
