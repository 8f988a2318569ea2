"""What Dexikon says happened, besides what every game says (re-exported here, so
that the rules read one namespace: E.GameOver, E.DexikonStarted)."""

from __future__ import annotations

from voice_host.games.events import *  # noqa: F401,F403  (the events every game shares)
from voice_host.games.events import Event


class DexikonStarted(Event):
    players: tuple[str, ...]
    target: int
    """Banked words that end the game."""
    best: int
    """Banked words that count."""
    solo: bool


class WordBanked(Event):
    player: str
    word: str
    points: int
    count: int
    """Words the player has banked now."""


class WordSpent(Event):
    player: str
    word: str | None
    """None: spent without a word said."""
    points: int | None


class ConcedeAsked(Event):
    """A challenged speller may concede (no marks, no penalties) or have it looked up."""

    player: str
    word: str


class ChallengeJoined(Event):
    challenger: str
    player: str
    word: str


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


class LastWordsCalled(Event):
    """The game is over: everyone spells a last word."""

    players: tuple[str, ...]
    """Who banked enough words (empty: the solo pool ran out)."""
    target: int


class LastWordsWaiting(Event):
    """Asked whose turn it is during last words: nobody's, the game waits for the last words."""

    players: tuple[str, ...]
    """Who still owes a last word (may still try one)."""
    open: tuple[tuple[str, str], ...]
    """(player, word): last words said and still open to a challenge."""


class LastWordTaken(Event):
    player: str
    word: str
    points: int


class TallyNoted(Event):
    """Penalty cards gained or returned, N and P card points, penalties set aside."""

    player: str
    kind: str
    """penalty, returned, bonus, aside."""
    count: int
    now: int
    """The player's count of that kind now (penalty cards held, for penalty and returned)."""


class FinalTurn(Event):
    """Solo: the pool deck is empty, so this turn is the last."""

    player: str


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


class DexikonFacts(Event):
    """Dexikon: banked words, bonus marks or penalty cards of every player."""

    kind: str
    """banked, marks or penalties."""
    rows: tuple[tuple[str, tuple[tuple[str, int], ...], int, int], ...]
    """(player, banked words and points, bonus marks, penalty cards)."""
