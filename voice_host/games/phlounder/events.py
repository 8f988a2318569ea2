"""What Phlounder says happened, besides what every game says (re-exported here, so
that the rules read one namespace: E.GameOver, E.TeamsSet)."""

from __future__ import annotations

from voice_host.games.events import *  # noqa: F401,F403  (the events every game shares)
from voice_host.games.events import Event
from voice_host.games.records import Record


class TeamsSet(Event):
    """Partners (and children, who use the children's letter die) at the start."""

    teams: tuple[tuple[str, ...], ...]
    """Empty when everyone plays alone."""
    children: tuple[str, ...] = ()


class Target(Record):
    """What the dice ask for."""

    number: str
    """"4" to "7", or "*": any length in ``lengths``."""
    letter: str
    """"N" noun, "V" verb, "*" any kind of word."""
    lengths: tuple[int, int]
    """The shortest and longest word "*" allows."""


class RollAwaited(Event):
    """A round begins: the host waits for the roll of the player whose roll it is."""

    round: int
    rounds: int
    roller: str | None = None
    """Who rolls this round: the dice pass on clockwise every round."""


class DiceRolled(Event):
    target: Target
    children: Target | None = None
    """The children's target (children's letter die), when children play."""
    player: str | None = None
    """Who asked the host to roll; None: the table rolled and said the faces."""


class DiceShown(Event):
    """The dice of the round, on request (None: not rolled yet)."""

    round: int
    target: Target | None
    children: Target | None = None


class BellRung(Event):
    player: str
    partners: tuple[str, ...]
    """The ringer's partners: they say their words too."""
    others: tuple[str, ...]
    """Everyone else: word (or no word) and unused letters."""


class ReportTaken(Event):
    player: str
    word: str | None
    unused: int


class ReportsAwaited(Event):
    """Reports still missing after the bell."""

    players: tuple[str, ...]


class PhlounderLine(Record):
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


class PhlounderStatus(Event):
    """Where the round stands: waiting for the roll, the bell, or reports."""

    round: int
    rounds: int
    phase: str
    """roll, race, reports or over."""
    target: Target | None = None
    ringer: str | None = None
    missing: tuple[str, ...] = ()
    roller: str | None = None
    """Waiting for the roll: whose roll it is."""


class ReportsStatus(Event):
    """Phlounder: who still owes a report after the bell."""

    round: int
    ringer: str | None
    missing: tuple[str, ...]


class TeamSheet(Event):
    """Partners: a team's sheet, as the rules score it (the team's round scores and total)."""

    team: tuple[str, ...]
    lines: tuple[tuple[int, str, bool, tuple[tuple[str, str | None, int, bool], ...], int, int], ...]
    """A scored round each: (round, ringer, legal bell, each member's (player, word or None,
    score, counts) in a legal round (none after an illegal bell: only the bell scores),
    the win bonus the team took, the team's score for the round)."""
    total: int
