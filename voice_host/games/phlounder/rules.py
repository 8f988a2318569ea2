"""Phlounder: the dice say what kind of word to make; the first to finish rings the bell.

The players grab and arrange real tiles; the host rolls the dice (or hears the faces the
table rolled), listens for the bell, takes every player's report (the ringer's word;
everyone else's word or no word and the letters taken but not used), checks each word
against the dice (length, and noun or verb from lemminflect) and, on a challenge,
against the dictionary, and scores the round as the rules say: the ringer 2 plus a point
a letter (4 plus, for a child), everyone else a point a letter minus a point for every
unused letter, an illegal bell -5 for the ringer and +7 for everyone else. Partners
score as teams, with the bell penalty and bonus multiplied by the team size. Eleven
rounds; the highest total wins (docs/RULINGS.md has the readings chosen).
"""

from __future__ import annotations

import random

from voice_host.games.phlounder import actions as A
from voice_host.games.phlounder import events as E
from voice_host.games.base import Game, Setup, find_player
from voice_host.games.errors import Refusal, Unplayable
from voice_host.games.expect import NoWord, WordLength
from voice_host.games.phlounder.state import Phase, PhlounderSettings, PhlounderState, Reported, Round
from voice_host.games.scoring import ranking
from voice_host.games.turns import clockwise
from voice_host.words.pos import parts_of_speech

NEEDS = {"N": "NOUN", "V": "VERB"}


class Phlounder(Game, name="phlounder", players=(2, 6)):
    """Phlounder for 2 to 6 players, or partners: two or three teams of 2, two teams of 3."""

    family = "phlounder"

    settings_class = PhlounderSettings

    def new_state(self, setup: Setup) -> PhlounderState:
        players, settings = list(setup.players), self.settings
        self.children = tuple(self._named(c, players) for c in settings.children)
        sides = [tuple(self._named(p, players) for p in team.split("+")) for team in settings.teams]
        if sides:
            sizes = sorted(len(s) for s in sides)
            if sorted(p for s in sides for p in s) != sorted(players) or sizes not in ([2, 2], [2, 2, 2], [3, 3]):
                raise Unplayable("uneven_teams")
        return PhlounderState(players, sides or [(p,) for p in players], random.Random(setup.seed))

    @staticmethod
    def _named(name: str, players: list[str]) -> str:
        found = find_player(name, players)
        if found is None:
            raise Unplayable("not_a_player", name=name.strip(), players=tuple(players))
        return found

    @property
    def teams(self) -> bool:
        return len(self.state.sides[0]) > 1

    def side_of(self, player: str) -> tuple[str, ...]:
        return next(s for s in self.state.sides if player in s)

    @staticmethod
    def key(side: tuple[str, ...]) -> str | tuple[str, ...]:
        """A side in the standings and the events: the player, or the team's members."""
        return side if len(side) > 1 else side[0]

    @staticmethod
    def label(side: tuple[str, ...]) -> str:
        """A side in the result: the player, or the team as --teams spells it ("Ann+Cat")."""
        return "+".join(side)

    def winning_side(self, player: str) -> str | tuple[str, ...]:
        return self.key(self.side_of(player))

    # ------------------------------------------------------------------ the clock
    def advance(self, t: float) -> list[E.Event]:
        s = self.state
        events: list[E.Event] = []
        if s.phase == Phase.REPORTS and t >= s.prompted + self.settings.report_reminder:
            s.prompted = t
            events.append(E.ReportsAwaited(self._missing()))
        s.clock = max(s.clock, t)
        return events

    def pause(self, seconds: float) -> None:
        """The reminder of the missing reports moves on (Game.pause)."""
        self.state.prompted += seconds

    # ------------------------------------------------------------------ actions
    def play(self, action: A.Action) -> list[E.Event]:
        s = self.state
        if s.phase == Phase.OVER and not isinstance(action, A.Challenge):  # the last round stays challengeable
            raise Refusal("game_over")
        match action:
            case A.Roll(player=player):
                self.known(player)
                if s.phase == Phase.ROLL and player != self.roller():
                    raise Refusal("not_your_roll", player=player, roller=self.roller())
                return self._roll(self._rolled(), player)
            case A.SetDice(faces=faces):
                return self._roll(self._faces(faces), None)
            case A.Bell(player=player):
                return self._bell(player)
            case A.PlayWord(t=t, player=player, word=word):
                return self._report(t, player, word, 0)
            case A.Report(t=t, player=player, word=word, unused=unused):
                return self._report(t, player, word, unused)
            case A.Challenge(player=player, target=target):
                return self._challenge(player, target)
        return super().play(action)

    def expectation(self) -> WordLength | NoWord:
        """After the bell, words of the length the dice asked for (the others' up to it);
        before it, the roll and the bell, no word."""
        s, cfg = self.state, self.settings
        if s.phase != Phase.REPORTS or s.round.target is None:
            return NoWord()
        number = s.round.target.number
        asked = (cfg.min_length, cfg.max_length) if number == "*" else (int(number), int(number))
        return WordLength(asked, cfg.min_length, asked[1])

    def set_start(self, player: str) -> list[E.Event]:
        """No start player: whoever rings the bell leads the round."""
        if self.state.phase == Phase.OVER:
            raise Refusal("game_over")
        raise Refusal("not_in_this_game", action="SetStart")

    def begin(self) -> list[E.Event]:
        s = self.state
        events: list[E.Event] = [E.GameStarted(self.name, tuple(s.players), self.settings.rounds)]
        if self.teams or self.children:
            events.append(E.TeamsSet(tuple(s.sides) if self.teams else (), self.children))
        return events + self._next_round()

    def _next_round(self) -> list[E.Event]:
        s = self.state
        s.rounds.append(Round(len(s.rounds) + 1))
        s.phase = Phase.ROLL
        return [E.RollAwaited(s.round.number, self.settings.rounds, self.roller())]

    def roller(self, number: int | None = None) -> str:
        """Who rolls round ``number`` (None: the round in play): the first player named
        rolls the first round, and the dice pass on clockwise every round (ruling 95)."""
        s = self.state
        n = s.round.number if number is None else number
        return s.players[(n - 1) % len(s.players)]

    def _target(self, number_face: str, letter: str) -> E.Target:
        return E.Target(number_face, letter, (self.settings.min_length, self.settings.max_length))

    def _rolled(self) -> tuple[str, ...]:
        rng, cfg = self.state.rng, self.settings
        faces = (rng.choice(cfg.number_die), rng.choice(cfg.letter_die))
        return faces + ((rng.choice(cfg.children_letter_die),) if self.children else ())

    def _faces(self, faces: tuple[str, ...]) -> tuple[str, ...]:
        """The table's roll, checked against the dice's faces."""
        cfg = self.settings
        dice = [cfg.number_die, cfg.letter_die] + ([cfg.children_letter_die] if self.children else [])
        if len(faces) != len(dice) or any(f not in die for f, die in zip(faces, dice)):
            raise Refusal("bad_dice", faces="".join(faces), count=len(dice))
        return faces

    def _roll(self, faces: tuple[str, ...], player: str | None) -> list[E.Event]:
        s = self.state
        if s.phase == Phase.RACE:
            raise Refusal("dice_rolled", target=s.round.target)
        if s.phase == Phase.REPORTS:
            raise Refusal("reports_missing", players=self._missing())
        r = s.round
        r.target = self._target(faces[0], faces[1])
        r.children = self._target(faces[0], faces[2]) if self.children else None
        s.phase = Phase.RACE
        return [E.DiceRolled(r.target, r.children, player)]

    def _bell(self, player: str) -> list[E.Event]:
        s = self.state
        self.known(player)
        if s.phase == Phase.ROLL:
            raise Refusal("not_rolled")
        if s.phase == Phase.REPORTS:
            raise Refusal("already_rang", player=s.round.ringer)
        s.round.ringer = player
        s.phase, s.prompted = Phase.REPORTS, s.clock
        partners = tuple(p for p in self.side_of(player) if p != player)
        others = tuple(p for p in self._clockwise(player) if p not in self.side_of(player))
        return [E.BellRung(player, partners, others)]

    def _clockwise(self, first: str) -> list[str]:
        return clockwise(self.state.players, first)

    def _missing(self) -> tuple[str, ...]:
        r = self.state.round
        return tuple(p for p in self._clockwise(r.ringer) if p not in r.reports)

    def _report(self, t: float, player: str, word: str | None, unused: int) -> list[E.Event]:
        s = self.state
        self.known(player)
        if s.phase == Phase.ROLL and len(s.rounds) > 1 and player not in s.rounds[-2].reports:
            raise Refusal("round_scored", round=s.rounds[-2].number)
        if s.phase != Phase.REPORTS:
            raise Refusal("no_bell")
        r = s.round
        if player in r.reports:
            raise Refusal("already_reported", word=r.reports[player].word, unused=r.reports[player].unused)
        if word is not None and self.settings.auto_reject:
            self.check_word(word)
        r.reports[player] = Reported(t, word, unused)
        events: list[E.Event] = [E.ReportTaken(player, word, unused)]
        if self._missing() and not self._bell_failed(r):
            return events
        return events + self._score()

    def _bell_failed(self, r: Round) -> bool:
        """Has a word of the ringing side already failed? Then the round is scored at once:
        an illegal bell's scores "are not based on words formed" (docs/RULINGS.md 58)."""
        return any(p in r.reports and self.fault(r, p) is not None for p in self.side_of(r.ringer))

    # ------------------------------------------------------------------ scoring
    def fault(self, r: Round, player: str) -> str | None:
        """Why the player's word does not count this round (None: it counts)."""
        said = self.report(r, player)
        if said.word is None:
            return "no_word"
        if player in r.void:
            return r.void[player]
        n = len(said.word)
        low, high = self.settings.min_length, self.settings.max_length
        target = r.children if player in self.children else r.target
        if player not in self.side_of(r.ringer):  # any kind of word, no longer than the number die
            longest = high if target.number == "*" else int(target.number)
            return "too_short" if n < low else "too_long" if n > longest else None
        if said.unused:
            return "unused"
        if target.number == "*" and not low <= n <= high or target.number != "*" and n != int(target.number):
            return "length"
        need = NEEDS.get(target.letter)
        parts = parts_of_speech(said.word)
        if need and parts and need not in parts:  # a word the resource does not know gets the benefit of doubt
            return "not_noun" if need == "NOUN" else "not_verb"
        return None

    @staticmethod
    def report(r: Round, player: str) -> Reported:
        """The player's report; none (a round scored at once after an illegal bell): no word."""
        return r.reports.get(player) or Reported(0.0, None, 0)

    def line(self, r: Round, player: str) -> E.PhlounderLine:
        said = self.report(r, player)
        letters = len(said.word or "")
        fault = self.fault(r, player)
        score = letters - said.unused if fault is None else -(letters + said.unused)
        return E.PhlounderLine(player, said.word, said.unused, score, fault, player in self.side_of(r.ringer))

    def round_scores(self, r: Round) -> tuple[bool, tuple[str, str | None, str] | None, dict[tuple[str, ...], int]]:
        """(legal bell, (player, word, fault) that made it illegal or None, score per side)."""
        cfg = self.settings
        ringing = self.side_of(r.ringer)
        k = len(ringing)  # partners: the bell penalty and bonus are doubled or tripled
        # the ringer's word first, then a partner's; a partner who had not yet reported when a
        # failed word scored the round early is no reason of its own
        order = sorted(ringing, key=lambda p: (p not in r.reports, p != r.ringer))
        bad = [(p, self.report(r, p).word, f) for p in order if (f := self.fault(r, p)) is not None]
        if bad:
            scores = {side: (-cfg.illegal_bell_penalty if side == ringing else cfg.illegal_bell_bonus) * k
                      for side in self.state.sides}
            return False, bad[0], scores
        scores = {side: sum(self.line(r, p).score for p in side) for side in self.state.sides}
        scores[ringing] += self.win_bonus(r)
        return True, None, scores

    def win_bonus(self, r: Round) -> int:
        return self.settings.child_win_bonus if r.ringer in self.children else self.settings.win_bonus

    def _scored(self, r: Round, revised: bool = False) -> E.PhlounderScored:
        legal, bad, scores = self.round_scores(r)
        ringing = self.side_of(r.ringer)
        order = self._clockwise(r.ringer)
        lines = tuple(self.line(r, p) for p in sorted(order, key=lambda p: (p not in ringing, order.index(p))))
        sides = sorted(scores.items(), key=lambda kv: (kv[0] != ringing, order.index(kv[0][0])))
        return E.PhlounderScored(r.number, r.ringer, legal, bad, lines,
                                 tuple((self.key(side), n) for side, n in sides), self.win_bonus(r),
                                 self.teams, revised)

    def _score(self) -> list[E.Event]:
        s = self.state
        r = s.round
        r.scored = True
        events: list[E.Event] = [self._scored(r), E.RoundOver(r.number, self.standings())]
        if r.number >= self.settings.rounds:
            s.phase = Phase.OVER
            return events + [E.GameOver(*self._ranking())]
        return events + self._next_round()

    def totals(self) -> dict[tuple[str, ...], int]:
        out = {side: 0 for side in self.state.sides}
        for r in self.state.rounds:
            if r.scored:
                for side, n in self.round_scores(r)[2].items():
                    out[side] += n
        return out

    def total(self, player: str) -> int:
        """The player's score (with partners, the team's)."""
        return self.totals()[self.side_of(player)]

    def _ranking(self):
        by_key = {self.key(side): n for side, n in self.totals().items()}
        return ranking(by_key, by_key.get, lambda _: [])

    def standings(self) -> tuple[E.Standing, ...]:
        return self._ranking()[0]

    # ------------------------------------------------------------------ challenges
    def _challenge(self, challenger: str, target: str | None) -> list[E.Event]:
        """A word said since the bell, until the next roll (the final round's even after the end)."""
        s = self.state
        self.known(challenger)
        if target is not None:
            self.known(target)
            if target == challenger:
                raise Refusal("own_word")
        if s.phase in (Phase.REPORTS, Phase.OVER):
            r = s.round
        elif s.phase == Phase.ROLL and len(s.rounds) > 1:
            r = s.rounds[-2]
        else:
            raise Refusal("nothing_to_challenge", target=target)
        said = [(x.t, p) for p, x in r.reports.items()
                if p != challenger and (target is None or p == target) and x.word is not None]
        if not said:
            raise Refusal("nothing_to_challenge", target=target)
        player = max(said)[1]
        word = r.reports[player].word
        if player in r.stood:
            raise Refusal("already_challenged", word=word, player=player)
        fault = self.fault(r, player)
        if fault is not None:
            raise Refusal("does_not_count", player=player, word=word, fault=fault)
        verdict = self.words.check(word)
        events: list[E.Event] = [E.ChallengeRaised(challenger, player, word),
                                 E.ChallengeResolved(challenger, player, word, verdict.ok, reason=verdict.reason)]
        if verdict.ok:
            r.stood.append(player)
            return events
        r.void[player] = verdict.reason
        if not r.scored and player in self.side_of(r.ringer) and s.phase == Phase.REPORTS:
            return events + self._score()  # an illegal bell: the others' words don't matter
        if not r.scored:
            return events
        events += [self._scored(r, revised=True), E.RoundOver(r.number, self.standings())]
        if s.phase == Phase.OVER:
            events.append(E.GameOver(*self._ranking()))
        return events

    # ------------------------------------------------------------------ questions and results
    questions = ("dice", "scores", "turn", "reports", "words", "sheet", "voided")

    def query(self, q: A.Query) -> list[E.Event]:
        s = self.state
        r = s.round
        if q.kind == "reports":
            return [E.ReportsStatus(r.number, r.ringer, self._missing() if s.phase == Phase.REPORTS else ())]
        if q.kind == "dice":
            return [E.DiceShown(r.number, r.target, r.children)]
        if q.kind == "time":
            return [E.TimeReport(None, timer=False)]
        if q.kind == "voided":
            return [E.VoidedReport(tuple((x.reports[p].word, p, x.number) for x in s.rounds for p in x.void))]
        if q.kind == "sheet" and self.teams:
            return [self.team_sheet(self.side_of(self.whose(q)))]
        if q.kind == "sheet":
            who = self.whose(q)
            lines = []
            for x in s.rounds:
                if not x.scored:
                    continue
                ln = self.line(x, who)
                legal = self.round_scores(x)[0]
                note = ("rang",) if who == x.ringer else ()
                if ln.fault is not None and ln.word is not None:
                    note += ("not_counted",)
                if not legal:
                    note += ("illegal_bell",)
                score = self.round_scores(x)[2][self.side_of(who)] if not legal else ln.score + (
                    self.win_bonus(x) if who == x.ringer and not self.teams else 0)
                lines.append((x.number, ln.word, score, note))
            return [E.RoundsSheet(who, tuple(lines), self.total(who))]
        if q.kind == "scores":
            return [E.ScoresReport(self.standings(), r.number, self.settings.rounds)]
        if q.kind == "turn":
            return [E.PhlounderStatus(r.number, self.settings.rounds, s.phase, r.target, r.ringer,
                                      self._missing() if s.phase == Phase.REPORTS else (),
                                      self.roller() if s.phase == Phase.ROLL else None)]
        if q.kind == "board":
            return [E.DiceShown(r.number, r.target, r.children)]
        if q.kind == "words":  # every word said since the first bell, round by round
            said = [(rnd, p, x.word) for rnd in s.rounds for p, x in rnd.reports.items() if x.word]
            return [E.WordsReport(tuple((w, p) for _, p, w in said), tuple(self._note(rnd, p) for rnd, p, _ in said))]
        raise Refusal("unknown_question", kind=q.kind)

    def _note(self, r: Round, player: str) -> str | None:
        """What became of the player's word in round ``r``: voided, or the word that made the
        bell illegal; None when neither."""
        if player in r.void:
            return "voided"
        if r.scored and player in self.side_of(r.ringer) and self.fault(r, player) is not None:
            return "illegal_bell"
        return None

    def sheet_holders(self) -> list[str]:
        return [side[0] for side in self.state.sides]  # partners: each team's sheet once

    def team_sheet(self, side: tuple[str, ...]) -> E.TeamSheet:
        """The team's scored rounds: its members' words and the bell, or the illegal bell alone."""
        lines = []
        for x in self.state.rounds:
            if not x.scored:
                continue
            legal, _, scores = self.round_scores(x)
            members = tuple((p, (ln := self.line(x, p)).word, ln.score, ln.fault is None) for p in side) if legal else ()
            bonus = self.win_bonus(x) if legal and x.ringer in side else 0
            lines.append((x.number, x.ringer, legal, members, bonus, scores[side]))
        return E.TeamSheet(side, tuple(lines), self.totals()[side])

    def result(self) -> dict:
        s = self.state
        totals = self.totals()
        rounds = []
        words: dict[str, list[dict]] = {p: [] for p in s.players}
        for r in s.rounds:
            if not r.scored:
                continue
            legal, _, scores = self.round_scores(r)
            rounds.append({"round": r.number, "dice": r.target.number + r.target.letter, "ringer": r.ringer,
                           "legal": legal, "scores": {self.label(side): n for side, n in scores.items()}})
            for p in s.players:
                ln = self.line(r, p)
                words[p].append({"word": ln.word, "score": ln.score, "unused": ln.unused, "round": r.number,
                                 "kind": "bell" if p == r.ringer else "word" if ln.word else "none",
                                 "counts": legal and ln.fault is None, "fault": ln.fault})
        players = [{"name": p, "total": totals[self.side_of(p)], "words": words[p],
                    **({"team": self.label(self.side_of(p))} if self.teams else {})} for p in s.players]
        sides = {self.key(side): side for side in s.sides}
        winners = [p for key in self._ranking()[1] for p in sides[key]] if self.finished else []
        out = {"game": self.name, "finished": self.finished, "winners": winners,
               "round": s.round.number if s.rounds else 0, "rounds": self.settings.rounds,
               "players": players, "round_scores": rounds}
        if self.teams:
            out["teams"] = [{"name": self.label(side), "players": list(side), "total": totals[side]}
                            for side in s.sides]
        return out
