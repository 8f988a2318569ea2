"""The session as the hearing sees it: the one seam between hearing and session.

The hearing decides which word was said, by whom, and whether to ask; the session keeps
the game. Everything the hearing asks of the session is here (``Scorekeeper``), as
everything it tells the listener is in ``Ears``: a test wraps the session and checks that
the hearing reaches it through nothing else.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Protocol

if TYPE_CHECKING:
    from voice_host.host.announcer import Announcer
    from voice_host.host.phrases.language import Spoken
    from voice_host.messages import Parsed, Record, Said


class Scorekeeper(Protocol):
    """The game at the table, as the hearing reads and feeds it (host.session.Session)."""

    # what the hearing reads
    players: list[str]
    """The players' names, in turn order."""
    t: float
    """The game clock: the time of the last input or tick."""
    begun: bool
    """Whether the game has begun (before it, the opening learns the voices)."""
    records: list[Record]
    """Every input so far, in order (a word put right is found among them)."""
    undoable: list[int]
    """The indexes of the records that changed the game, oldest first."""
    announcer: Announcer
    """The host's words: the hearing's sentences are said in them."""

    def read(self, text: str, player: str, t: float) -> Parsed:
        """``text`` said by ``player`` at ``t``, read once (its Said record carries it on)."""

    def word_value(self, word: str) -> int | None:
        """What ``word`` would score played now (None: the game cannot tell)."""

    def settles_at(self, windows: bool = True) -> float | None:
        """When the clock settles what waits on it (words in the tie window; with
        ``windows``, a challenge window too); None when nothing waits."""

    def expectation(self) -> object:
        """What the game expects to be said now (host.prior's key)."""

    def spoken(self) -> Spoken:
        """What this game's players say beyond the table's own phrases."""

    # what the hearing hands it
    def play(self, record: Record, *, quiet: bool = False) -> list[str]:
        """Log and apply an input, beginning the game first where it needs it."""

    def feed(self, record: Record, *, quiet: bool = False) -> list[str]:
        """Log and apply an input as it is."""

    def begin(self, t: float, *, quiet: bool = False) -> list[str]:
        """Begin the game at ``t`` unless it has begun."""

    def tick(self, t: float, *, quiet: bool = False) -> list[str]:
        """Let the clock run to ``t``."""

    def settle(self, *, windows: bool = True, quiet: bool = False) -> list[str]:
        """Let the clock run until nothing waits on it."""

    def say(self, sentence: str) -> None:
        """Say a sentence of the hearing's own (a question, a prompt)."""

    def answer_once(self, played: Record | None, question: Said) -> list[str]:
        """The answer to ``question`` once ``played`` (a word still asked about) were
        played; nothing is logged or changed."""


MEMBERS = frozenset(name for name in {*Scorekeeper.__annotations__, *vars(Scorekeeper)} if not name.startswith("_"))
"""Every name the hearing may use on its session."""
