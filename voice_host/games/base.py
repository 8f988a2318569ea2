"""The shape every game shares, and the registry of games by name."""

from __future__ import annotations

import os
import pickle
import sys
import traceback
from dataclasses import dataclass, replace
from typing import Any, ClassVar

from voice_host.games.actions import Action, Answer, Begin, Challenge, Move, PlayWord, Query, SetStart, Tick
from voice_host.games.errors import Refusal, Unplayable
from voice_host.games.events import Event, GameOver, Refused, StartDraws, StartSet
from voice_host.settings import Settings
from voice_host.words.lexicon import fold


@dataclass(frozen=True)
class Setup:
    """Everything a game is created from (and what the event log's header records)."""

    players: tuple[str, ...]
    """Clockwise seating order."""
    seed: int | None = None
    """Where the game's randomness starts (the bag, the dice, the draw for the start player)."""


def _copy(state):
    """A copy of a game's state to go back to (the state is plain data: a pickle round
    trip copies it 4-5 times faster than copy.deepcopy, and every step takes two)."""
    return pickle.loads(pickle.dumps(state, pickle.HIGHEST_PROTOCOL))


REGISTRY: dict[str, type["Game"]] = {}
"""Every game by its ``--game`` name: a subclass of Game given a name registers itself."""


class Game:
    """A game is a state plus pure rules: ``step(action) -> events``.

    ``step`` never raises on bad input: a Refusal becomes a ``Refused`` event and the
    state is restored to exactly what it was before the action.
    """

    def __init_subclass__(cls, *, name: str | None = None, players: tuple[int, int] | None = None, **kw) -> None:
        """``class RoadGame(Game, name="road", players=(2, 4))``: registered by name, for
        that many players."""
        super().__init_subclass__(**kw)
        if players is not None:
            cls.min_players, cls.max_players = players
        if name is not None:
            cls.name = name
            REGISTRY[name] = cls

    name: ClassVar[str]
    reraise: ClassVar[bool] = bool(os.environ.get("VOICE_HOST_RERAISE"))
    """Let a rule that raises fail (the tests set it); in play it is said and undone."""
    min_players: ClassVar[int] = 1
    max_players: ClassVar[int] = 99
    status_questions: ClassVar[tuple[str, ...]] = ("scores", "turn")
    """What the host reads out to bring the table up to date (after an undo, on resume)."""
    state: Any
    settings_class: ClassVar[type[Settings]]
    """Its settings (games.base.Settings), read from the merged configuration."""

    def __init__(self, setup: Setup, settings, words) -> None:
        self.check_player_count(len(setup.players))
        self.setup, self.settings, self.words = setup, settings, words
        self.state = self.new_state(setup)

    @classmethod
    def create(cls, setup: Setup, cfg: dict, words) -> "Game":
        """A new game from the merged configuration (voice_host.config.load)."""
        return cls(setup, cls.settings_class.from_config(cfg), words)

    def new_state(self, setup: Setup):
        """The state before the game begins."""
        raise NotImplementedError

    def step(self, action: Action) -> list[Event]:
        start = _copy(self.state)
        player = getattr(action, "player", None)
        try:
            events = self.advance(action.t)
            if isinstance(action, Tick):
                return self._remember_final(events)
            before = _copy(self.state)
            try:
                if isinstance(action, Query) and action.kind == "scores" and self.finished and self._final_said:
                    events.append(self._final_said)  # after the end, the scores are the final result
                elif isinstance(action, Query) and action.kind == "sheets":  # every sheet, one after another
                    events += [e for p in self.sheet_holders() for e in self.query(replace(action, kind="sheet", about=p))]
                else:
                    events += self.query(action) if isinstance(action, Query) else self.handle(action)
            except Refusal as r:
                self.state = before
                params = dict(r.params)
                if r.code == "game_over":  # every input after the end is answered with the result
                    params.update(self.final_result())
                events.append(Refused(r.code, params, player))
            return self._remember_final(events)
        except Exception:  # a bug must not end a game in progress: undo the step, say so, report it
            if Game.reraise:
                raise
            self.state = start
            traceback.print_exc(file=sys.stderr)
            return [Refused("internal_error", {}, player)]

    @classmethod
    def check_player_count(cls, n: int) -> None:
        """Unplayable when ``n`` players cannot play this game."""
        if not cls.min_players <= n <= cls.max_players:
            raise Unplayable("player_count", game=cls.name, low=cls.min_players, high=cls.max_players, count=n)

    # ------------------------------------------------------------------ what every game does alike
    def known(self, player: str) -> str:
        """``player``, refused unless seated at this game."""
        if player not in self.state.players:
            raise Refusal("unknown_player", player=player, players=tuple(self.state.players))
        return player

    def whose(self, q: Query) -> str:
        """The player a question is about ("sheet Ann"), else the one who asked."""
        return self.known(q.about or q.player)

    def set_start(self, player: str) -> list[Event]:
        """Table mode: the start player the table drew (before the game begins)."""
        self.known(player)
        if self.state.phase != "setup":
            raise Refusal("too_late", what="start")
        self.state.start = player
        return [StartSet(player)]

    @property
    def finished(self) -> bool:
        return self.state.phase == "over"

    _final_said: GameOver | None = None
    """The last "game over" said: the answer to "scores" once the game has ended."""

    def _remember_final(self, events: list[Event]) -> list[Event]:
        for e in events:
            if isinstance(e, GameOver):
                self._final_said = e
        return events

    def final_result(self) -> dict:
        """What "the game is over" says: the winners and their score (and its unit)."""
        r = self.result()
        totals = {p["name"]: p["total"] for p in r.get("players", ())}
        winners = tuple(r.get("winners", ()))
        sides = tuple(dict.fromkeys(self.winning_side(w) for w in winners))
        out = {"winners": sides, "total": totals[winners[0]] if winners else None, "unit": self.score_unit}
        if not winners and len(totals) == 1:  # solo: no winner, a score
            out["alone"] = next(iter(totals.items()))
        return out

    def sheet_holders(self) -> list[str]:
        """Whose sheets "sheets" reads, one after another: every player (partners: one a team)."""
        return list(self.state.players)

    def winning_side(self, player: str) -> str | tuple[str, ...]:
        """Who a winner won as: the player, or (partners) the team's members."""
        return player

    moves: ClassVar[tuple[str, ...]] = ("word", "challenge")
    """The host's own moves this game takes: word, final ("my word is"), challenge, flip."""
    questions: ClassVar[tuple[str, ...]] = ("scores", "turn", "words", "sheet")
    """The questions this game answers (host.intents.QUESTIONS), for help."""

    def interrupt_cost(self, player: str, word: str) -> tuple[int, int] | None:
        """(value, penalty) if ``word`` from ``player`` would now be scored as an
        interrupt; None otherwise (not an interrupt, or refused anyway)."""
        return None

    family: ClassVar[str] = ""
    """Which family of games this is ("prolix", "phlounder", "dexikon", "road"): the
    shell shows and words a game by its family, never by its class."""
    score_unit: ClassVar[str] = "point"
    """What a total counts (a duel counts marks)."""
    undoable_actions: ClassVar[tuple[type[Action], ...]] = (PlayWord, Challenge, Answer, Move)
    """The actions that change the game, which undo can take back once it has begun
    (unless they were refused)."""
    detail_events: ClassVar[tuple[type[Event], ...]] = (StartDraws,)
    """The events that are detail rather than the game's standing (the draw for the start
    player): a brief host leaves them out unless asked."""

    def handle(self, action: Action) -> list[Event]:
        """Begin (once), the table's start player, then the game's own ``play``."""
        match action:
            case Begin():
                if self.state.phase != "setup":
                    raise Refusal("already_started")
                return self.begin()
            case SetStart(player=player):
                return self.set_start(player)
        return self.play(action)

    def check_word(self, word: str) -> None:
        """Refused unless the dictionary has ``word`` (with its reason)."""
        verdict = self.words.check(word)
        if not verdict.ok:
            raise Refusal("not_a_word", word=word, reason=verdict.reason)

    # to be provided by each game
    def begin(self) -> list[Event]:
        """Start the game: the start player, the first turn or round."""
        raise NotImplementedError

    def play(self, action: Action) -> list[Event]:
        """Everything but Begin and SetStart: the game's own moves."""
        raise Refusal("not_in_this_game", action=type(action).__name__)

    def advance(self, t: float) -> list[Event]:
        """Let the clock reach ``t``: expire timers, settle what the time decides."""
        raise NotImplementedError

    def query(self, action: Query) -> list[Event]:
        raise NotImplementedError

    def result(self) -> dict:
        """The result JSON: ``finished``, ``winners``, ``players`` (name, total, words)."""
        raise NotImplementedError

    def settles_at(self, windows: bool = True) -> float | None:
        """When what waits on the clock will have settled: the words in the tie window
        scored and, with ``windows``, the windows the table may still act in (a word open
        to a challenge) closed. None: nothing waits."""
        return None

    def pause(self, seconds: float) -> None:
        """The clock stood still for ``seconds`` from the game's clock now: every deadline
        still ahead (a timer, a challenge window) moves on by as much. An undo that reopens
        a finished game pauses it from the moment of the input taken back to the undo, so
        the game goes on as it was then (ruling 98). A game without deadlines has nothing
        to move."""

    def expectation(self):
        """What a player would say now, as plain data for the host's prior
        (games.expect: ``BoardPoints``, ...); None when the game cannot tell."""
        return None

    def word_value(self, word: str) -> int | None:
        """What ``word`` would score if played now (None: this game cannot tell), so that
        the host knows whether two spellings of one sound are worth asking about."""
        return None




def find_player(name: str, players: list[str] | tuple[str, ...]) -> str | None:
    """The player called ``name``, matched without case or accents; None if nobody is."""
    name = fold(name).strip().lower()
    return next((p for p in players if fold(p).lower() == name), None)
