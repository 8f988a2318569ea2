"""What every Prolix mode shares: settings, the board and bag in play, table mode
(players draw and tell the host), word checks, and the questions anyone may ask.

Each mode (classic, solo, duel, Redux) subclasses ``ProlixGame`` and overrides only the
flow of its turns, the way python-chess variants override only the rules that differ.
"""

from __future__ import annotations

import math
from dataclasses import dataclass, field
from enum import StrEnum
from typing import ClassVar, Sequence

from voice_host.games.prolix import actions as A
from voice_host.games.prolix import events as E
from voice_host.games.base import Game, Setup
from voice_host.settings import Settings
from voice_host.games.errors import Refusal
from voice_host.games.expect import BoardPoints
from voice_host.games.prolix.tiles import (
    Bag,
    Board,
    TileSet,
    slide,
    board_tiles,
    check_board,
    empty_board,
    empty_spaces,
    parse_board,
    place,
    score,
    tile_points,
)
from voice_host.games.turns import TurnOrder, draw_for_start, right_of
from voice_host.games.scoring import ranking  # noqa: F401  (the modes import it from here)


class Phase(StrEnum):
    """Where the game stands."""

    SETUP = "setup"
    TURN = "turn"
    """A turn or round in play."""
    DRAW = "draw"
    """Table mode: waiting for the tiles drawn."""
    ENDING = "ending"
    """The game's last word is scored and open to a challenge until the window closes
    (Classic, Duel, Redux)."""
    OVER = "over"


class ProlixSettings(Settings, sections=("table", "prolix")):
    """The table's settings for Prolix (config/default.toml, sections [prolix] and [table])."""

    tiles: TileSet
    timer: float = 45
    tie_window: float = 0.5
    auto_reject: bool = False
    challenge_vote: bool = False
    interrupt_slots: int = 6
    failed_challenge_penalty: int = 2
    last_challenge_window: float = 10
    rounds_3_players: int = 6
    rounds_4_5_players: int = 5
    interrupt_penalty_3_players: int = 2
    interrupt_penalty_4_5_players: int = 3
    solo_targets: tuple[int, ...] = (15, 32, 50, 68, 86, 105)
    solo_countdown: tuple[int, ...] = (30, 10, 5)
    duel_marks: int = 5
    redux_timer: float = 30
    redux_rounds: int = 12
    redux_best_words: int = 6
    redux_two_blue_f: bool = False


@dataclass
class Timer:
    """A sand timer: in front of ``holder`` while running, else in the middle."""

    holder: str | None = None
    until: float | None = None
    """When the sand runs out (it may run out in the middle, to no effect)."""

    def running(self, t: float) -> bool:
        return self.until is not None and t < self.until


@dataclass
class ProlixState(TurnOrder):
    """What every Prolix mode keeps (whose turn: modes with an active player)."""

    players: list[str]
    bag: Bag
    board: Board
    phase: Phase = Phase.SETUP
    table_mode: bool = False
    start: str | None = None
    clock: float = 0.0
    used: list[tuple[str, str]] = field(default_factory=list)
    """(word, player) for No Cheapies, in play order."""
    barred: list[str] = field(default_factory=list)
    """Words voided by a successful challenge."""
    voids: list[tuple[str, str, int]] = field(default_factory=list)
    """(word, player, round) of each word voided by a challenge, in order."""
    drawer: str | None = None
    """Table mode: who must draw now."""
    ends_at: float | None = None
    """Phase.ENDING: when the last word's challenge window closes and the game is over."""


class ProlixGame(Game):
    """The board, the bag and the checks; subclasses supply the turn flow."""

    family = "prolix"

    status_questions = ("board", "turn")
    undoable_actions = (*Game.undoable_actions, A.FlipTimer, A.SetBoard, A.Draw)
    detail_events = (*Game.detail_events, E.BoardShown, E.TilesDrawn)
    questions = ("board", "scores", "turn", "time", "words", "sheet", "how", "bag", "voided")
    uses_start_player: ClassVar[bool] = True
    state_class: ClassVar[type[ProlixState]] = ProlixState

    def new_state(self, setup: Setup) -> ProlixState:
        return self.state_class(players=list(setup.players), bag=Bag.full(self.ts, setup.seed),
                                board=empty_board(self.ts))

    @classmethod
    def create(cls, setup: Setup, cfg: dict, words) -> "ProlixGame":
        prolix = cfg.get("prolix", {})
        tiles = TileSet.from_config(prolix["tileset"], extra=cls.extra_tiles(prolix))
        return cls(setup, ProlixSettings.from_config(cfg, tiles=tiles), words)

    @classmethod
    def extra_tiles(cls, prolix: dict) -> dict | None:
        """Tiles this mode adds to the set (config [prolix]); None: the set as it is."""
        return None

    @property
    def columns_per_move(self) -> int:
        """Columns the tiles move (and tiles drawn per space) after each scored turn."""
        return 1

    # ------------------------------------------------------------------ the board
    @property
    def ts(self) -> TileSet:
        return self.settings.tiles

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

    def word_value(self, word: str) -> int | None:
        return self.score(word)[0]

    def expectation(self) -> BoardPoints | None:
        """The board's tiles and the words used: a word is worth what it would score."""
        s = self.state
        if s.phase != Phase.TURN:
            return None
        return BoardPoints(tuple((letter, points) for letter, points, _ in tile_points(s.board, self.ts)),
                           tuple(s.used))

    # ------------------------------------------------------------------ players
    def _right_of(self, player: str) -> str:
        return right_of(self.state.players, player)

    def _accepting(self, player: str) -> None:
        """Refuse input from an unknown player, after the game, or while tiles are drawn."""
        self.known(player)
        if self.state.phase == Phase.OVER:
            raise Refusal("game_over")
        if self.state.phase == Phase.DRAW:
            raise Refusal("wait_for_draw", drawer=self.state.drawer)
        if self.state.phase == Phase.ENDING:  # the last word is scored: only a challenge now
            raise Refusal("last_word_open", words=self.open_words())

    def _check_word(self, word: str, also_used: Sequence[tuple[str, str]] = ()) -> None:
        """Refuse a barred word, a cheapie, and (with auto_reject) a word not in the dictionary.

        ``also_used``: words said but not yet scored that count as used all the same.
        """
        s = self.state
        if word in s.barred:
            raise Refusal("barred", word=word)
        conflict = self.words.cheapie(word, [*s.used, *also_used])
        if conflict is not None:
            raise Refusal("cheapie", word=word, earlier=conflict.earlier, by=conflict.player,
                          rule=conflict.rule, path=tuple(conflict.path or ()))
        if self.settings.auto_reject:
            self.check_word(word)

    def _take_word(self, a: A.PlayWord, words: dict, tiles: dict,
                   also_used: Sequence[tuple[str, str]] = ()) -> E.WordTaken:
        """Duel and Redux: a player's one word for the round, checked, scored and noted in
        ``words`` (player -> (word, value)) and ``tiles`` (player -> the tiles it flipped)."""
        self._accepting(a.player)
        if a.player in words:
            raise Refusal("word_is_final", word=words[a.player][0])
        self._check_word(a.word, also_used)
        value, flips = self.score(a.word)
        words[a.player], tiles[a.player] = (a.word, value), flips
        return E.WordTaken(a.player, a.word)

    # ------------------------------------------------------------------ the last word's window
    def open_words(self) -> tuple[tuple[str, str], ...]:
        """(player, word) of the last play's words still open to a challenge, once the
        game's last play is scored (Duel and Redux say; Classic keeps its own)."""
        return ()

    def settles_at(self, windows: bool = True) -> float | None:
        s = self.state
        return s.ends_at if windows and s.phase == Phase.ENDING else None

    def _last_challenge(self) -> list[E.Event]:
        """The game's last play is scored: its words stay open to a challenge for
        ``last_challenge_window`` seconds (rulings 65, 97), or the game is over now when
        nothing can be challenged."""
        s, window = self.state, self.settings.last_challenge_window
        words = self.open_words()
        if not words or window <= 0:
            return self._game_over()
        s.phase, s.ends_at = Phase.ENDING, s.clock + window
        return [E.LastChallenge(words, math.ceil(window))]

    def last_challenge(self) -> E.LastChallenge:
        """The words still open to a challenge and the seconds left to challenge them."""
        s = self.state
        return E.LastChallenge(self.open_words(), math.ceil(s.ends_at - s.clock - 1e-9))

    def _window_closes(self, t: float) -> list[E.Event]:
        """The clock reaches ``t``: the last word's window, if open and due, closes."""
        s = self.state
        if s.phase == Phase.ENDING and s.ends_at is not None and t >= s.ends_at:
            s.clock = max(s.clock, s.ends_at)
            return self._game_over()
        return []

    def _game_over(self) -> list[E.Event]:
        raise NotImplementedError

    def pause(self, seconds: float) -> None:
        """The sand still to run and the last word's window move on (Game.pause)."""
        s = self.state
        timer = getattr(s, "timer", None)
        if timer is not None and timer.until is not None and timer.until > s.clock:
            timer.until += seconds
        if s.ends_at is not None and s.ends_at > s.clock:
            s.ends_at += seconds

    # ------------------------------------------------------------------ setup
    def _setup_events(self) -> list[E.Event]:
        """Start player (if the mode has one) and a full board, unless the table gave them."""
        s = self.state
        events: list[E.Event] = []
        if self.uses_start_player and s.start is None:
            s.start, draws = self._draw_for_start()
            events.append(E.StartDraws(draws, s.start))
        if not s.table_mode:
            filler = self._right_of(s.start) if s.start else None
            drawn, aside, refilled = s.bag.draw_playable(empty_spaces(s.board), board_tiles(s.board), self.ts)
            s.board = place(s.board, drawn)
            events.append(E.TilesDrawn(filler, tuple(t.letter for t in drawn), tuple(t.letter for t in aside), refilled))
        return events

    def _draw_for_start(self) -> tuple[str, tuple[tuple[tuple[str, str], ...], ...]]:
        """Each player draws a tile; the letter closest to A starts; ties redraw."""
        return draw_for_start(self.state.players, self.state.bag.rng, lambda: [t.letter for t in self.ts.all_tiles()])

    def _busy(self) -> bool:
        """Is something under way that a new board must not cut into?"""
        return False

    def _set_board(self, letters: Sequence[str]) -> list[E.Event]:
        s = self.state
        if s.phase == Phase.OVER:
            raise Refusal("game_over")
        if self._busy():
            raise Refusal("busy")
        board = parse_board(letters, self.ts)
        if s.phase == Phase.DRAW and empty_spaces(board):
            raise Refusal("board_incomplete")
        s.bag.tiles.extend(board_tiles(s.board))
        s.bag.remove(board_tiles(board))
        s.board, s.table_mode = board, True
        if s.phase == Phase.SETUP:  # the opening says it, once, when the game begins
            return []
        return self._after_draw() if s.phase == Phase.DRAW else [self.board_view()]

    def _table_draw(self, letters: Sequence[str]) -> list[E.Event]:
        s = self.state
        if s.phase != Phase.DRAW:
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

    def _move_and_draw(self, drawer: str | None) -> list[E.Event]:
        """Advance the tiles and refill the board (table mode: ask the drawer for the tiles)."""
        s = self.state
        s.board, gone = slide(s.board, self.columns_per_move)
        s.bag.discards.extend(gone)
        s.drawer = drawer
        if s.table_mode:
            s.phase = Phase.DRAW
            return [E.AwaitDraw(drawer or s.players[0], empty_spaces(s.board))]
        drawn, aside, refilled = s.bag.draw_playable(empty_spaces(s.board), board_tiles(s.board), self.ts)
        s.board = place(s.board, drawn)
        drew = E.TilesDrawn(drawer, tuple(t.letter for t in drawn), tuple(t.letter for t in aside), refilled)
        return [drew] + self._after_draw()

    def _after_draw(self) -> list[E.Event]:
        """The board is full again: carry on with the mode's flow."""
        raise NotImplementedError

    # ------------------------------------------------------------------ actions
    def handle(self, action: A.Action) -> list[E.Event]:
        """The table-mode directives every mode shares; Begin and the rest as every game."""
        match action:
            case A.SetBoard(letters=letters):
                return self._set_board(letters)
            case A.Draw(letters=letters):
                return self._table_draw(letters)
        return super().handle(action)

    def begin(self) -> list[E.Event]:
        return [self.started(), *self._setup_events(), *self.first_turn()]

    def started(self) -> E.GameStarted:
        return E.GameStarted(self.name, tuple(self.state.players), self.rounds)

    def first_turn(self) -> list[E.Event]:
        """The board is set: the mode's first turn (or round) begins."""
        raise NotImplementedError

    def play(self, action: A.Action) -> list[E.Event]:
        """A word (every mode's ``_word``); a mode adds its own moves: the timer, a
        challenge, a vote."""
        match action:
            case A.PlayWord():
                return self._word(action)
        raise Refusal("not_in_this_game", action=type(action).__name__)

    def _word(self, a: A.PlayWord) -> list[E.Event]:
        raise NotImplementedError

    # ------------------------------------------------------------------ questions
    def query(self, q: A.Query) -> list[E.Event]:
        s = self.state
        if q.kind == "board":
            return [self.board_view()]
        if q.kind == "words":  # a word a challenge voided is no longer on anyone's sheet
            return [E.WordsReport(tuple((w, p) for w, p in s.used if w not in s.barred))]
        if q.kind == "bag":
            return [E.BagReport(len(s.bag.tiles))]
        if q.kind == "voided":
            return [E.VoidedReport(tuple(self.voided()))]
        if q.kind == "time":
            return [self.time_left()]
        if q.kind == "how":
            return [self.how(q.about)]
        return self.mode_query(q)

    def voided(self) -> list[tuple[str, str | None, int | None]]:
        """(word, player, round) of the words challenges voided (who and when if known)."""
        return list(self.state.voids)

    def time_left(self) -> E.TimeReport | E.LastChallenge:
        """The sand left: in front of a player, or running out in the middle."""
        s = self.state
        if s.phase == Phase.ENDING and s.ends_at is not None:  # the seconds left to challenge
            return self.last_challenge()
        timer = getattr(s, "timer", None)
        if timer is None or not timer.running(s.clock):
            return E.TimeReport(None)
        return E.TimeReport(math.ceil(timer.until - s.clock - 1e-9), timer.holder)

    def scored(self) -> list[E.HowScored]:
        """Every word scored so far with the tiles behind it, in play order (the modes say)."""
        return []

    def how(self, word: str | None) -> E.HowScored:
        """The tiles behind ``word``'s score (None: the last word scored)."""
        entries = self.scored()
        if word is not None:
            entries = [e for e in entries if e.word == word]
        if not entries:
            raise Refusal("not_scored", word=word)
        return entries[-1]

    def mode_query(self, q: A.Query) -> list[E.Event]:
        raise Refusal("unknown_question", kind=q.kind)

