"""What the host says: the sentences of a step's events, refusals said to their player,
and what 'repeat' says again."""

from __future__ import annotations

from typing import TYPE_CHECKING, Callable

from voice_host.games import events as E
from voice_host.host.cues import Cues
from voice_host.messages import Step

if TYPE_CHECKING:
    from voice_host.games.base import Game
    from voice_host.host.announce import Announcer


class Saying:
    """The session's sentences out, and what it keeps of them.

    ``speak`` says a sentence (printed, spoken, recorded); ``game`` and ``clock`` give the
    game being said and its time, for the detail a brief host leaves out and for the
    earcons (``earcon``: host.cues.Cues plays them before the sentences). Each of
    ``watchers`` is handed every step said (a messages.Step: its events and sentences),
    after its sentences are spoken: the scoreboard watches the game so."""

    def __init__(self, speak: Callable[[str], None], announcer: Announcer, game: Callable[[], Game],
                 clock: Callable[[], float], earcon: Callable[[str, float], None] | None = None,
                 brief: bool = False, watchers: tuple[Callable[[Step], None], ...] = ()) -> None:
        self.speak = speak
        self.watchers = watchers
        self.announcer = announcer
        self._game, self._clock = game, clock
        self.cue = Cues(earcon, game) if earcon is not None else None
        self.brief = brief
        """Brief: scores and whose turn; full: the board after every move too."""
        self.last_said: list[str] = []
        """What 'repeat' says again: what the host said last, for one input or on its own."""
        self.refused: str | None = None
        """The refusal said for the input being applied, if it was refused."""
        self.addressee: str | None = None
        """The player whose input is being applied: a refusal that says "you" names them."""

    def applying(self, player: str | None = None) -> None:
        """A new input is being applied (``player``'s, when it is a player's)."""
        self.refused, self.addressee = None, player

    def detail(self, brief: bool) -> None:
        """Brief (scores and whose turn) or full (the board after every move too)."""
        self.brief = brief

    def say(self, line: str) -> None:
        """Say one host sentence that is not about the game state (questions to the table)."""
        self.remember(self.lines([line], False))

    def refuse(self, code: str, params: dict, quiet: bool) -> list[str]:
        """Refuse the input being applied, saying why (host.announce.refusals)."""
        self.refused = self._addressed(self.announcer.refusal(code, params))
        return self.lines([self.refused], quiet)

    def events(self, events: list[E.Event], *, quiet: bool, answer: bool = False) -> list[str]:
        """Say the sentences of ``events`` (``answer``: to a question, so the detail a
        brief host leaves out is said too)."""
        happened = events
        if self.brief and not answer:  # brief: scores and whose turn, the detail (the board) only when asked
            events = [e for e in events if not isinstance(e, self._game().detail_events)]
        if self.cue is not None and not quiet:
            self.cue(events, self._clock())
        lines = [self._addressed(line) if isinstance(e, E.Refused) else line
                 for e, line in ((e, self.announcer.say(e)) for e in events) if line]
        for e in events:
            if isinstance(e, E.Refused):
                self.refused = self._addressed(self.announcer.say(e))
        return self.lines(lines, quiet, happened)

    def remember(self, lines: list[str]) -> list[str]:
        """What the host said for one input, or on its own (the clock, a question): what
        'repeat' says again, whatever it was (an answer, a refusal, a repeat itself)."""
        if lines:
            self.last_said = list(lines)
        return lines

    def lines(self, lines: list[str], quiet: bool, events: list[E.Event] = ()) -> list[str]:
        """Say ``lines`` as they are, then show the step to its watchers (``quiet``: a
        replay, nothing said or shown; ``events``: what the game did, said in them)."""
        if not quiet:
            for line in lines:
                self.speak(line)
            if self.watchers and (lines or events):
                step = Step(self._clock(), tuple(events), tuple(lines))
                for watch in self.watchers:
                    watch(step)
        return lines

    def _addressed(self, refusal: str) -> str:
        """A refusal that says "you", said to the player it is for: heard across a table,
        "You can't ..." names nobody ("Ann, you can't ...")."""
        if self.addressee is None or not refusal.startswith(("You ", "Your ", "You'")):
            return refusal
        return f"{self.addressee}, {refusal[0].lower()}{refusal[1:]}"
