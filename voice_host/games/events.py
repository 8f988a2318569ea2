"""What the rules say happened: plain data, turned into sentences by the announcer."""

from __future__ import annotations

from dataclasses import dataclass, field


@dataclass(frozen=True)
class Event:
    """Base class of everything a game emits."""


@dataclass(frozen=True)
class Refused(Event):
    """An input was refused; nothing changed."""

    code: str
    """Why, e.g. ``"cheapie"``, ``"not_your_turn"``."""
    params: dict = field(default_factory=dict)
    """Details for the sentence (the earlier word, who used it, ...)."""
    player: str | None = None
    """Whose input it was, when known."""


@dataclass(frozen=True)
class GameStarted(Event):
    """A game begins."""

    game: str
    """Registry name, e.g. ``"prolix-classic"``."""
    players: tuple[str, ...]
    """Clockwise seating order."""
    rounds: int
    """How many rounds the game lasts (0: it ends on marks)."""
    marks: int = 0
    """Duel: marks that win the game."""


@dataclass(frozen=True)
class StartDraws(Event):
    """Each player drew a tile to choose the start player (letter closest to A starts)."""

    draws: tuple[tuple[tuple[str, str], ...], ...]
    """One tuple of (player, letter) per drawing; later ones are redraws of ties."""
    start: str
    """The start player."""


@dataclass(frozen=True)
class StartSet(Event):
    """The table named its start player."""

    player: str


@dataclass(frozen=True)
class BoardTile:
    """A tile as a listener needs it."""

    letter: str
    bonus: int
    points: int
    """Column value plus bonus."""


@dataclass(frozen=True)
class BoardShown(Event):
    """The board as it now stands, leftmost (most valuable) column first."""

    columns: tuple[tuple[int, tuple[BoardTile, ...]], ...]
    """(column value, tiles in it top to bottom)."""


@dataclass(frozen=True)
class TilesDrawn(Event):
    """New tiles entered the leftmost column."""

    drawer: str | None
    """Who drew them (None: the host's own bag at setup)."""
    letters: tuple[str, ...]
    set_aside: tuple[str, ...] = ()
    """Unplayable draws that went back into the bag."""
    refilled: bool = False
    """The discards were mixed back into the bag first."""


@dataclass(frozen=True)
class AwaitDraw(Event):
    """Table mode: a player must draw tiles and tell the host (``@draw``)."""

    drawer: str
    count: int


@dataclass(frozen=True)
class TurnStarted(Event):
    player: str
    round: int
    again: bool = False
    """True when the active player goes again after an interrupt."""


@dataclass(frozen=True)
class WordScored(Event):
    """A regular word was scored."""

    player: str
    word: str
    value: int
    flips: tuple[tuple[str, int], ...]
    """(letter, points) for each flipped tile, best first."""


@dataclass(frozen=True)
class Interrupted(Event):
    """An interrupting word was scored."""

    player: str
    word: str
    value: int
    penalty: int
    score: int
    """value - penalty."""
    active: str
    """Whose turn was interrupted."""
    flips: tuple[tuple[str, int], ...] = ()


@dataclass(frozen=True)
class TimerFlipped(Event):
    player: str
    seconds: int


@dataclass(frozen=True)
class TimerExpired(Event):
    """The sand ran out in front of a player: the active player is interrupted by the timer."""

    active: str
    interrupts: bool = True
    """False where running out just ends the round (solo, duel, Redux)."""


@dataclass(frozen=True)
class TurnLost(Event):
    """Interrupted twice: the active player records a zero for the round."""

    player: str
    round: int


@dataclass(frozen=True)
class TieBreak(Event):
    """Words said at the same moment, compared on the same board."""

    entries: tuple[tuple[str, str, int], ...]
    """(player, word, value before any penalty)."""
    winners: tuple[str, ...]


@dataclass(frozen=True)
class ChallengeRaised(Event):
    challenger: str
    player: str
    word: str


@dataclass(frozen=True)
class VoteAsked(Event):
    """The table's vote: the uninvolved players say whether they know the word."""

    voters: tuple[str, ...]
    word: str


@dataclass(frozen=True)
class ChallengeResolved(Event):
    challenger: str
    player: str
    word: str
    stands: bool
    """True: the word is good and the challenge failed."""
    by_vote: bool = False
    """Settled by the table's vote rather than the dictionary."""
    reason: str | None = None
    """Why the dictionary refused the word (not_found, proper_noun, ...)."""
    penalty: int = 0
    """Points the challenger loses at the end when the challenge failed."""


@dataclass(frozen=True)
class PlayerOut(Event):
    """A player used every interrupt slot and is out of the game."""

    player: str


@dataclass(frozen=True)
class Standing:
    player: str
    total: int


@dataclass(frozen=True)
class RoundOver(Event):
    round: int
    standings: tuple[Standing, ...]


@dataclass(frozen=True)
class GameOver(Event):
    standings: tuple[Standing, ...]
    """Best first."""
    winners: tuple[str, ...]
    tiebreak: str | None = None
    """``"best_word"`` when the best-single-word chain decided, ``"shared"`` when it persisted,
    ``"tie"`` when equal totals share the victory with no words to compare."""
    details: tuple[str, ...] = ()
    """Scoresheet lines per player, for the announcer."""


@dataclass(frozen=True)
class ScoresReport(Event):
    standings: tuple[Standing, ...]
    round: int
    rounds: int


@dataclass(frozen=True)
class TurnReport(Event):
    player: str | None
    round: int
    timer_holder: str | None = None
    timer_left: float | None = None
    waiting_for: str | None = None
    """Table mode: the player who must draw, if any."""


@dataclass(frozen=True)
class WordsReport(Event):
    words: tuple[tuple[str, str], ...]
    """(word, player) in play order."""


@dataclass(frozen=True)
class SheetReport(Event):
    """One player's scoresheet read out."""

    player: str
    regular: tuple[tuple[str | None, int, bool, int], ...]
    """(word or None for a zero, score, counts, round)."""
    interrupts: tuple[tuple[str, int, int, int, int], ...]
    """(word, value, penalty, score, round)."""
    failed_challenges: int
    total: int


# ---------------------------------------------------------------------- Prolix solo, duel, Redux
@dataclass(frozen=True)
class TimerStarted(Event):
    """The timer starts: flipped by the host (solo) or by the first player with a word."""

    seconds: int
    player: str | None = None
    """Who started it; None: the host."""


@dataclass(frozen=True)
class TimeLeft(Event):
    """A countdown call: this many seconds left on the timer."""

    seconds: int


@dataclass(frozen=True)
class Scratch(Event):
    """Solo: a scratch word, scored aloud but not committed."""

    player: str
    word: str
    value: int


@dataclass(frozen=True)
class TargetCheck(Event):
    """Solo: the cumulative score against the round's target."""

    player: str
    round: int
    total: int
    target: int
    reached: bool | None
    """None: the target is being announced, not checked."""


@dataclass(frozen=True)
class BestWord(Event):
    """The best words the board allowed (from the solver), and what was played."""

    words: tuple[tuple[str, int], ...]
    played: int | None = None


@dataclass(frozen=True)
class WordTaken(Event):
    """Duel and Redux: a player's word for the round is noted (scored when the round ends)."""

    player: str
    word: str


@dataclass(frozen=True)
class DuelRound(Event):
    """A duel round begins; the leader carries a handicap."""

    round: int
    handicap: tuple[str, int] | None = None
    """(leader, points off their word), None when the marks are level."""


@dataclass(frozen=True)
class DuelScored(Event):
    round: int
    entries: tuple[tuple[str, str | None, int, int], ...]
    """(player, word or None, value, value after the handicap)."""
    winner: str
    by_tie: bool = False
    """True: the words tied and the mark went to whoever flipped the timer."""


@dataclass(frozen=True)
class MarkAwarded(Event):
    """A duel mark changes hands (after a challenge) or the marks are read out."""

    player: str
    marks: tuple[tuple[str, int], ...]
    reason: str = "round"
    """round, challenge."""


@dataclass(frozen=True)
class ReduxScored(Event):
    """The end of a Redux turn: the active player's word, then each interjection."""

    round: int
    active: str
    entries: tuple[tuple[str, str | None, int, int], ...]
    """(player, word or None, value, bonus or penalty: +2, -1, -2 or 0), active player first."""


# ---------------------------------------------------------------------- Phlounder
@dataclass(frozen=True)
class TeamsSet(Event):
    """Partners (and children, who use the children's letter die) at the start."""

    teams: tuple[tuple[str, ...], ...]
    """Empty when everyone plays alone."""
    children: tuple[str, ...] = ()


@dataclass(frozen=True)
class Target:
    """What the dice ask for."""

    number: str
    """"4" to "7", or "*": any length in ``lengths``."""
    letter: str
    """"N" noun, "V" verb, "*" any kind of word."""
    lengths: tuple[int, int]
    """The shortest and longest word "*" allows."""


@dataclass(frozen=True)
class RollAwaited(Event):
    """A round begins: the host waits for someone to ask for the roll."""

    round: int
    rounds: int


@dataclass(frozen=True)
class DiceRolled(Event):
    target: Target
    children: Target | None = None
    """The children's target (children's letter die), when children play."""
    player: str | None = None
    """Who asked the host to roll; None: the table rolled and said the faces."""


@dataclass(frozen=True)
class DiceShown(Event):
    """The dice of the round, on request (None: not rolled yet)."""

    round: int
    target: Target | None
    children: Target | None = None


@dataclass(frozen=True)
class BellRung(Event):
    player: str
    partners: tuple[str, ...]
    """The ringer's partners: they say their words too."""
    others: tuple[str, ...]
    """Everyone else: word (or no word) and unused letters."""


@dataclass(frozen=True)
class ReportTaken(Event):
    player: str
    word: str | None
    unused: int


@dataclass(frozen=True)
class ReportsAwaited(Event):
    """Reports still missing after the bell."""

    players: tuple[str, ...]


@dataclass(frozen=True)
class PhlounderLine:
    """One player's line of a scored round."""

    player: str
    word: str | None
    unused: int
    score: int
    """Letters minus unused letters when the word counts, else minus all of them."""
    fault: str | None
    """Why the word does not count: no_word, too_short, too_long, length, not_noun,
    not_verb, unused (a ringer's), or the dictionary's reason after a challenge."""
    ringing: bool
    """The ringer or a ringer's partner."""


@dataclass(frozen=True)
class PhlounderScored(Event):
    round: int
    ringer: str
    legal: bool
    """False: an illegal bell; the round is scored on the bell penalty and bonus."""
    fault: tuple[str, str | None, str] | None
    """Illegal bell: (player, word, fault) of the word that made it illegal."""
    lines: tuple[PhlounderLine, ...]
    """The ringer first, then clockwise."""
    sides: tuple[tuple[str, int], ...]
    """(player or team, round score), the ringing side first."""
    bonus: int
    """Points for winning the round (legal bell)."""
    teams: bool
    revised: bool = False
    """Scored again after a challenge."""


@dataclass(frozen=True)
class PhlounderStatus(Event):
    """Where the round stands: waiting for the roll, the bell, or reports."""

    round: int
    rounds: int
    phase: str
    """roll, race, reports or over."""
    target: Target | None = None
    ringer: str | None = None
    missing: tuple[str, ...] = ()


# ---------------------------------------------------------------------- Dexikon
@dataclass(frozen=True)
class StandingsReport(Event):
    """The scores now, best first (games without a fixed number of rounds)."""

    standings: tuple[Standing, ...]


@dataclass(frozen=True)
class DexikonStarted(Event):
    players: tuple[str, ...]
    target: int
    """Banked words that end the game."""
    best: int
    """Banked words that count."""
    solo: bool


@dataclass(frozen=True)
class WordBanked(Event):
    player: str
    word: str
    points: int
    count: int
    """Words the player has banked now."""


@dataclass(frozen=True)
class WordSpent(Event):
    player: str
    word: str | None
    """None: spent without a word said."""
    points: int | None


@dataclass(frozen=True)
class ConcedeAsked(Event):
    """A challenged speller may concede (no marks, no penalties) or have it looked up."""

    player: str
    word: str


@dataclass(frozen=True)
class ChallengeJoined(Event):
    challenger: str
    player: str
    word: str


@dataclass(frozen=True)
class DexikonChallenged(Event):
    """A challenge settled: marks for the winners, penalty cards for the losers."""

    player: str
    word: str
    challengers: tuple[str, ...]
    outcome: str
    """conceded, stands or void."""
    reason: str | None
    """Why the dictionary refused the word."""
    kind: str
    """bank, spend or last."""
    retry: bool
    """The speller may try another word."""


@dataclass(frozen=True)
class LastWordsCalled(Event):
    """The game is over: everyone spells a last word."""

    players: tuple[str, ...]
    """Who banked enough words (empty: the solo pool ran out)."""
    target: int


@dataclass(frozen=True)
class LastWordTaken(Event):
    player: str
    word: str
    points: int


@dataclass(frozen=True)
class TallyNoted(Event):
    """Penalty cards gained or returned, N and P card points, penalties set aside."""

    player: str
    kind: str
    """penalty, returned, bonus, aside."""
    count: int
    now: int
    """The player's count of that kind now (penalty cards held, for penalty and returned)."""


@dataclass(frozen=True)
class FinalTurn(Event):
    """Solo: the pool deck is empty, so this turn is the last."""

    player: str


@dataclass(frozen=True)
class DexikonSheet(Event):
    """A player's score sheet: best banked words, last word, bonuses, penalties, total."""

    player: str
    banked: tuple[tuple[str, int], ...]
    best: int
    """How many banked words count."""
    best_points: int
    last: tuple[str, int] | None
    bonus: int
    """Bonus marks, N and P card points and (solo) penalties set aside."""
    penalties: int
    """Penalty cards."""
    penalty_points: int
    total: int
    rounds: tuple[int, ...] = ()
    """Asked for: the round each banked word was banked in (the sheet read word by word)."""


# ---------------------------------------------------------------------- road game
@dataclass(frozen=True)
class RoadStarted(Event):
    players: tuple[str, ...]
    rack: int
    """Tiles each player draws."""
    bag: int | None
    """Tiles left in the bag after the draw, when the host counts them."""


@dataclass(frozen=True)
class RoadPlayed(Event):
    player: str
    words: tuple[tuple[str, int], ...]
    points: int
    total: int
    bag: int | None = None
    """Tiles left in the bag after the redraw, when the host counts them."""


@dataclass(frozen=True)
class Mulliganed(Event):
    player: str


@dataclass(frozen=True)
class Passed(Event):
    player: str


@dataclass(frozen=True)
class BagEmptied(Event):
    """No more mulligans."""

    player: str | None
    """Who said so; None: the host's count reached zero."""


# ---------------------------------------------------------------------- facts on request (every game)
@dataclass(frozen=True)
class TimeReport(Event):
    """Time left: on the timer (in front of ``holder`` or in the middle), or for
    challenging an open word (``word``); ``seconds`` None: nothing is running."""

    seconds: int | None
    holder: str | None = None
    timer: bool = True
    """False: this game has no timer at all."""
    word: str | None = None
    """Dexikon: the word still open to challenge."""


@dataclass(frozen=True)
class BagReport(Event):
    tiles: int | None
    """Tiles left in the bag; None: not counted (the players say when it is empty)."""
    empty: bool = False


@dataclass(frozen=True)
class InterruptsReport(Event):
    rows: tuple[tuple[str, int, int, bool], ...]
    """(player, interrupts used, left, out of the game)."""


@dataclass(frozen=True)
class VoidedReport(Event):
    words: tuple[tuple[str, str | None, int | None], ...]
    """(word, player if known, round if known) voided by a challenge, in order."""


@dataclass(frozen=True)
class HowScored(Event):
    """The tiles behind a word's score: (letter, points) each, the value, the penalty."""

    player: str
    word: str
    tiles: tuple[tuple[str, int], ...]
    value: int
    penalty: int = 0
    round: int | None = None
    kind: str = "word"
    """word, interrupt, scratch, tiebreak (lost: scored nothing)."""


@dataclass(frozen=True)
class RoundsSheet(Event):
    """A player's sheet, a line per round: (round, word or None, what it scored, a note)."""

    player: str
    lines: tuple[tuple[int, str | None, int, str], ...]
    total: int
    unit: str = "point"
    """What ``total`` counts: points, or a duel's marks."""


@dataclass(frozen=True)
class ReportsStatus(Event):
    """Phlounder: who still owes a report after the bell."""

    round: int
    ringer: str | None
    missing: tuple[str, ...]


@dataclass(frozen=True)
class DexikonFacts(Event):
    """Dexikon: banked words, bonus marks or penalty cards of every player."""

    kind: str
    """banked, marks or penalties."""
    rows: tuple[tuple[str, tuple[tuple[str, int], ...], int, int], ...]
    """(player, banked words and points, bonus marks, penalty cards)."""


@dataclass(frozen=True)
class LastChance(Event):
    """Road game: every other player has passed in a row; this player's pass ends the game."""

    player: str
