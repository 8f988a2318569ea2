"""Prolix Classic for 3 to 5 players: turns, interrupts, the sand timer, tiebreakers,
challenges, No Cheapies and end scoring, as the rulebook says (docs/RULINGS.md has the
readings chosen where it is silent).

A pure core: the state is plain data, time arrives inside each action, randomness only
from the bag's seeded generator.
"""

from __future__ import annotations

import copy
import math
from dataclasses import dataclass, field
from typing import Sequence

from voice_host.games import actions as A
from voice_host.games import events as E
from voice_host.games.base import Game, Setup, register
from voice_host.games.errors import Refusal
from voice_host.games.prolix.tiles import (
    Bag,
    Board,
    TileSet,
    advance,
    board_tiles,
    check_board,
    empty_board,
    empty_spaces,
    parse_board,
    place,
    score,
)


@dataclass(frozen=True)
class ProlixSettings:
    """The table's settings for Prolix (config/default.toml, sections [prolix] and [table])."""

    tiles: TileSet
    timer: float = 45
    tie_window: float = 0.5
    auto_reject: bool = False
    challenge_vote: bool = False
    interrupt_slots: int = 6
    failed_challenge_penalty: int = 2
    rounds_3_players: int = 6
    rounds_4_5_players: int = 5
    interrupt_penalty_3_players: int = 2
    interrupt_penalty_4_5_players: int = 3

    @classmethod
    def from_config(cls, cfg: dict, tiles: TileSet) -> "ProlixSettings":
        section = {**cfg.get("table", {}), **cfg.get("prolix", {})}
        names = {f for f in cls.__dataclass_fields__ if f != "tiles"}
        return cls(tiles=tiles, **{k: v for k, v in section.items() if k in names})


@dataclass
class Entry:
    """One line of a scoresheet."""

    word: str | None
    """None for the zero of a lost turn."""
    value: int
    """What the tiles scored."""
    penalty: int = 0
    """Interrupt penalty."""
    round: int = 0

    @property
    def score(self) -> int:
        return self.value - self.penalty


@dataclass
class Sheet:
    """A player's scoresheet."""

    regular: list[Entry] = field(default_factory=list)
    interrupts: list[Entry] = field(default_factory=list)
    lost_ties: list[Entry] = field(default_factory=list)
    """Words that lost a tiebreak: written down, never scored."""
    failed_challenges: int = 0
    out: bool = False
    """Used every interrupt slot: no more turns, no more interrupts."""


@dataclass
class Said:
    """A word said by a player, waiting for the tie window to close."""

    t: float
    player: str
    word: str


@dataclass
class Timer:
    """The sand timer: in front of ``holder`` while running, else in the middle."""

    holder: str | None = None
    until: float | None = None
    """When the sand runs out (it may run out in the middle, to no effect)."""

    def running(self, t: float) -> bool:
        return self.until is not None and t < self.until


@dataclass
class LastPlay:
    """The most recent scoring, kept so that a successful challenge can undo it."""

    before: "ClassicState"
    said: list[Said]
    scored: list[str]
    """Players whose words counted."""
    challenged: list[str] = field(default_factory=list)
    """Players whose words already stood a challenge."""


@dataclass
class Vote:
    """A challenge waiting for the uninvolved players' vote (table option)."""

    challenger: str
    player: str
    word: str
    voters: list[str]
    yes: list[str] = field(default_factory=list)
    no: list[str] = field(default_factory=list)

    @property
    def needed(self) -> int:
        return math.ceil(len(self.voters) / 2)


@dataclass
class ClassicState:
    players: list[str]
    bag: Bag
    board: Board
    sheets: dict[str, Sheet]
    phase: str = "setup"
    """setup, turn, draw (table mode: waiting for tiles), over."""
    table_mode: bool = False
    start: str | None = None
    order: list[str] = field(default_factory=list)
    """Turn order from the start player."""
    pos: int = 0
    """Index of the active player in ``order``."""
    round: int = 1
    interrupts: int = 0
    """Times the active player has been interrupted this turn."""
    timer: Timer = field(default_factory=Timer)
    clock: float = 0.0
    pending: list[Said] = field(default_factory=list)
    used: list[tuple[str, str]] = field(default_factory=list)
    """(word, player) for No Cheapies, in play order."""
    barred: list[str] = field(default_factory=list)
    """Words voided by a successful challenge."""
    last: LastPlay | None = None
    vote: Vote | None = None
    drawer: str | None = None
    then: str = "next"
    """Table mode: after the draw, ``next`` player or the active player goes ``again``."""

    @property
    def active(self) -> str:
        return self.order[self.pos]


@register
class ProlixClassic(Game):
    """Prolix for 3, 4 or 5 players."""

    name = "prolix-classic"
    min_players = 3
    max_players = 5

    def __init__(self, setup: Setup, settings: ProlixSettings, words) -> None:
        n = len(setup.players)
        if not self.min_players <= n <= self.max_players:
            raise ValueError(f"{self.name} is for {self.min_players} to {self.max_players} players, not {n}.")
        self.setup = setup
        self.settings = settings
        self.words = words
        ts = settings.tiles
        self.rounds = settings.rounds_3_players if n == 3 else settings.rounds_4_5_players
        self.penalty = settings.interrupt_penalty_3_players if n == 3 else settings.interrupt_penalty_4_5_players
        self.state = ClassicState(
            players=list(setup.players),
            bag=Bag.full(ts, setup.seed),
            board=empty_board(ts),
            sheets={p: Sheet() for p in setup.players},
        )

    @classmethod
    def create(cls, setup: Setup, cfg: dict, words) -> "ProlixClassic":
        tiles = TileSet.from_config(cfg["prolix"]["tileset"])
        return cls(setup, ProlixSettings.from_config(cfg, tiles), words)

    def settles_at(self) -> float | None:
        s = self.state
        return s.pending[0].t + self.settings.tie_window + 0.001 if s.pending else None

    # ------------------------------------------------------------------ helpers
    @property
    def ts(self) -> TileSet:
        return self.settings.tiles

    def _right_of(self, player: str) -> str:
        """The player to one's right: the previous one in clockwise seating."""
        ps = self.state.players
        return ps[(ps.index(player) - 1) % len(ps)]

    def _known(self, player: str) -> None:
        if player not in self.state.players:
            raise Refusal("unknown_player", player=player, players=tuple(self.state.players))

    def board_view(self) -> E.BoardShown:
        cols = []
        for value, col in zip(self.ts.columns, self.state.board):
            cols.append((value, tuple(E.BoardTile(t.letter, t.bonus, value + t.bonus) for t in col if t is not None)))
        return E.BoardShown(tuple(cols))

    def tile_values(self) -> list[tuple[str, int]]:
        """(letter, points) for each tile on the board, for the best-word solver."""
        return [(t.letter, v + t.bonus) for v, col in zip(self.ts.columns, self.state.board) for t in col if t]

    def score(self, word: str) -> tuple[int, tuple[tuple[str, int], ...]]:
        value, flips = score(word, self.state.board, self.ts)
        return value, tuple((f.letter, f.points) for f in flips)

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
        rows = [E.Standing(p, self.totals(p)[0]) for p in self.state.players]
        return tuple(sorted(rows, key=lambda r: (r.total, self._word_values(r.player)), reverse=True))

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
            expiry = s.timer.until if (s.timer.holder and s.phase == "turn") else None
            timer_due = expiry is not None and t >= expiry and not (s.pending and s.pending[0].t < expiry)
            if group_due:
                s.clock = max(s.clock, s.pending[0].t + self.settings.tie_window)
                said, s.pending = s.pending, []
                events += self._resolve(said)
            elif timer_due:
                s.clock = max(s.clock, expiry)
                events += self._timer_runs_out()
            else:
                break
        s.clock = max(s.clock, t)
        return events

    # ------------------------------------------------------------------ actions
    def handle(self, action: A.Action) -> list[E.Event]:
        s = self.state
        if isinstance(action, A.Begin):
            return self._begin()
        if isinstance(action, A.SetStart):
            return self._set_start(action.player)
        if isinstance(action, A.SetBoard):
            return self._set_board(action.letters)
        if isinstance(action, A.Draw):
            return self._table_draw(action.letters)
        if s.phase == "setup":
            raise Refusal("not_started")
        if isinstance(action, A.Word):
            return self._word(action)
        if isinstance(action, A.FlipTimer):
            return self._flip(action.player, action.t)
        if isinstance(action, A.Challenge):
            return self._challenge(action.player, action.target)
        if isinstance(action, A.Vote):
            return self._vote(action.player, action.yes)
        raise Refusal("not_in_this_game", action=type(action).__name__)

    def _begin(self) -> list[E.Event]:
        s = self.state
        if s.phase != "setup":
            raise Refusal("already_started")
        events: list[E.Event] = [E.GameStarted(self.name, tuple(s.players), self.rounds)]
        if s.start is None:
            s.start, draws = self._draw_for_start()
            events.append(E.StartDraws(draws, s.start))
        if not s.table_mode:
            filler = self._right_of(s.start)
            drawn, aside, refilled = s.bag.draw_playable(empty_spaces(s.board), board_tiles(s.board), self.ts)
            s.board = place(s.board, drawn)
            events.append(E.TilesDrawn(filler, tuple(t.letter for t in drawn), tuple(t.letter for t in aside), refilled))
        i = s.players.index(s.start)
        s.order = s.players[i:] + s.players[:i]
        s.pos, s.round, s.phase = 0, 1, "turn"
        return events + [self.board_view(), E.TurnStarted(s.active, s.round)]

    def _draw_for_start(self) -> tuple[str, tuple[tuple[tuple[str, str], ...], ...]]:
        """Each player draws a tile; the letter closest to A starts; ties redraw."""
        rng = self.state.bag.rng
        contenders = list(self.state.players)
        rounds = []
        while True:
            pool = self.ts.all_tiles()
            drawn = [(p, pool.pop(rng.randrange(len(pool))).letter) for p in contenders]
            rounds.append(tuple(drawn))
            low = min(letter for _, letter in drawn)
            contenders = [p for p, letter in drawn if letter == low]
            if len(contenders) == 1:
                return contenders[0], tuple(rounds)

    def _set_start(self, player: str) -> list[E.Event]:
        self._known(player)
        if self.state.phase != "setup":
            raise Refusal("too_late", what="start")
        self.state.start = player
        return [E.StartSet(player)]

    def _set_board(self, letters: Sequence[str]) -> list[E.Event]:
        s = self.state
        if s.phase == "over":
            raise Refusal("game_over")
        if s.pending or s.vote:
            raise Refusal("busy")
        board = parse_board(letters, self.ts)
        if s.phase == "draw" and empty_spaces(board):
            raise Refusal("board_incomplete")
        s.bag.tiles.extend(board_tiles(s.board))
        s.bag.remove(board_tiles(board))
        s.board, s.table_mode = board, True
        return self._after_draw() if s.phase == "draw" else [self.board_view()]

    def _table_draw(self, letters: Sequence[str]) -> list[E.Event]:
        s = self.state
        if s.phase != "draw":
            raise Refusal("no_draw_due")
        need = empty_spaces(s.board)
        if len(letters) != need:
            raise Refusal("draw_count", count=len(letters), need=need)
        tiles = [self.ts.tile(x) for x in letters]
        board = place(s.board, tiles)
        check_board(board, self.ts)
        s.bag.remove(tiles)
        s.board = board
        return [E.TilesDrawn(s.drawer, tuple(t.letter for t in tiles))] + self._after_draw()

    def _word(self, a: A.Word) -> list[E.Event]:
        s = self.state
        self._known(a.player)
        self._playable_now(a.player)
        word = a.word
        if word in s.barred:
            raise Refusal("barred", word=word)
        conflict = self.words.cheapie(word, s.used)
        if conflict is not None:
            raise Refusal("cheapie", word=word, earlier=conflict.earlier, by=conflict.player,
                          rule=conflict.rule, path=tuple(conflict.path or ()))
        if self.settings.auto_reject:
            verdict = self.words.check(word)
            if not verdict.ok:
                raise Refusal("not_a_word", word=word, reason=verdict.reason)
        if any(x.player == a.player for x in s.pending):
            raise Refusal("already_said", word=next(x.word for x in s.pending if x.player == a.player))
        if a.player != s.active:
            sheet = s.sheets[a.player]
            if s.timer.holder == a.player:
                raise Refusal("timer_holder", player=a.player)
            if len(sheet.interrupts) >= self.settings.interrupt_slots:
                raise Refusal("no_interrupts_left", player=a.player)
        s.pending.append(Said(a.t, a.player, word))
        return []

    def _playable_now(self, player: str) -> None:
        s = self.state
        if s.phase == "over":
            raise Refusal("game_over")
        if s.vote is not None:
            raise Refusal("challenge_in_progress", word=s.vote.word)
        if s.phase == "draw":
            raise Refusal("wait_for_draw", drawer=s.drawer)
        if s.sheets[player].out:
            raise Refusal("out_of_game", player=player)

    def _flip(self, player: str, t: float) -> list[E.Event]:
        s = self.state
        self._known(player)
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
    def _resolve(self, said: list[Said]) -> list[E.Event]:
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
                s.sheets[x.player].lost_ties.append(Entry(x.word, values[x.player][0], round=s.round))
        s.last = LastPlay(before, list(said), list(winners))
        s.timer.holder = None
        if winners == [active]:
            word = mine[0].word
            value, flips = values[active]
            s.sheets[active].regular.append(Entry(word, value, round=s.round))
            events.append(E.WordScored(active, word, value, flips))
            return events + self._move_and_draw(active, then="next")
        for x in said:
            if x.player in winners:
                value, flips = values[x.player]
                sheet = s.sheets[x.player]
                sheet.interrupts.append(Entry(x.word, value, self.penalty, round=s.round))
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
            return self._move_and_draw(self._right_of(s.active), then="again")
        s.sheets[s.active].regular.append(Entry(None, 0, round=s.round))
        return [E.TurnLost(s.active, s.round)] + self._move_and_draw(s.active, then="next")

    def _move_and_draw(self, drawer: str, then: str) -> list[E.Event]:
        s = self.state
        s.drawer, s.then = drawer, then
        if then == "next" and self._following() is None:
            return self._next_turn()  # the game's last word: nothing left to draw for
        s.board, gone = advance(s.board)
        s.bag.discards.extend(gone)
        if s.table_mode:
            s.phase = "draw"
            return [E.AwaitDraw(drawer, empty_spaces(s.board))]
        drawn, aside, refilled = s.bag.draw_playable(empty_spaces(s.board), board_tiles(s.board), self.ts)
        s.board = place(s.board, drawn)
        drew = E.TilesDrawn(drawer, tuple(t.letter for t in drawn), tuple(t.letter for t in aside), refilled)
        return [drew] + self._after_draw()

    def _after_draw(self) -> list[E.Event]:
        s = self.state
        s.phase, s.drawer = "turn", None
        if s.then == "again":
            return [self.board_view(), E.TurnStarted(s.active, s.round, again=True)]
        return self._next_turn()

    def _following(self) -> tuple[int, int] | None:
        """(position, round) of the next turn; None when the game is over."""
        s = self.state
        pos, rnd = s.pos, s.round
        for _ in range(len(s.order) * (self.rounds + 1)):
            pos += 1
            if pos == len(s.order):
                pos, rnd = 0, rnd + 1
                if rnd > self.rounds:
                    return None
            if not s.sheets[s.order[pos]].out:
                return pos, rnd
        return None

    def _next_turn(self) -> list[E.Event]:
        s = self.state
        s.interrupts = 0
        s.phase, s.drawer = "turn", None
        following = self._following()
        last_round = following[1] if following else self.rounds + 1
        events: list[E.Event] = [E.RoundOver(r, self.standings()) for r in range(s.round, last_round)]
        if following is None:
            return events + self._game_over()
        s.pos, s.round = following
        return events + [self.board_view(), E.TurnStarted(s.active, s.round)]

    def _game_over(self) -> list[E.Event]:
        s = self.state
        s.phase = "over"
        table, winners, tiebreak = self._winners()
        return [E.GameOver(table, winners, tiebreak)]

    def _winners(self) -> tuple[tuple[E.Standing, ...], tuple[str, ...], str | None]:
        """Most points wins; then the best single word, the second best, ...; else shared."""
        table = self.standings()
        tied = [r.player for r in table if r.total == table[0].total]
        if len(tied) == 1:
            return table, tuple(tied), None
        best = max(self._word_values(p) for p in tied)
        winners = tuple(p for p in tied if self._word_values(p) == best)
        return table, winners, "best_word" if len(winners) == 1 else "shared"

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
        self._known(challenger)
        if target is not None:
            self._known(target)
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
            s.vote = Vote(challenger, said.player, said.word, voters)
            return events + [E.VoteAsked(tuple(voters), said.word)]
        return events + self._settle(challenger, said.player, said.word)

    def _vote(self, player: str, yes: bool) -> list[E.Event]:
        s = self.state
        v = s.vote
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
            return [E.ChallengeResolved(challenger, player, word, True, by_vote=by_vote,
                                        penalty=self.settings.failed_challenge_penalty)]
        last = s.last
        restored = copy.deepcopy(last.before)
        for name, sheet in s.sheets.items():
            restored.sheets[name].failed_challenges = sheet.failed_challenges
        restored.barred = s.barred + [word]
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
    def query(self, q: A.Query) -> list[E.Event]:
        s = self.state
        if q.kind == "board":
            return [self.board_view()]
        if q.kind == "scores":
            return [E.ScoresReport(self.standings(), s.round, self.rounds)]
        if q.kind == "turn":
            holder = s.timer.holder if s.timer.running(s.clock) else None
            left = (s.timer.until - s.clock) if holder else None
            active = s.active if s.phase in ("turn", "draw") else None
            return [E.TurnReport(active, s.round, holder, left, s.drawer if s.phase == "draw" else None)]
        if q.kind == "words":
            return [E.WordsReport(tuple(s.used))]
        if q.kind == "sheet":
            who = q.about or q.player
            if who not in s.sheets:
                raise Refusal("unknown_player", player=who, players=tuple(s.players))
            total, marked = self.totals(who)
            sheet = s.sheets[who]
            return [E.SheetReport(who, tuple((e.word, e.score, c) for e, c in marked),
                                  tuple((e.word, e.value, e.penalty, e.score) for e in sheet.interrupts),
                                  sheet.failed_challenges, total)]
        raise Refusal("unknown_question", kind=q.kind)

    @property
    def finished(self) -> bool:
        return self.state.phase == "over"

    def result(self) -> dict:
        s = self.state
        over = self.finished
        players = []
        for p in s.players:
            total, marked = self.totals(p)
            sheet = s.sheets[p]
            words = [
                {"word": e.word, "score": e.score, "value": e.value, "kind": "regular" if e.word else "zero",
                 "round": e.round, "counts": counts}
                for e, counts in marked
            ]
            words += [
                {"word": e.word, "score": e.score, "value": e.value, "penalty": e.penalty, "kind": "interrupt",
                 "round": e.round, "counts": True}
                for e in sheet.interrupts
            ]
            words += [
                {"word": e.word, "score": 0, "value": e.value, "kind": "tiebreak", "round": e.round, "counts": False}
                for e in sheet.lost_ties
            ]
            players.append({"name": p, "total": total, "words": words, "interrupts": len(sheet.interrupts),
                            "failed_challenges": sheet.failed_challenges, "out": sheet.out})
        winners = list(self._winners()[1]) if over else []
        return {"game": self.name, "finished": over, "winners": winners, "round": s.round,
                "rounds": self.rounds, "players": players}
