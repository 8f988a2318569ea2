"""What the host says: the sentences of a step's events, refusals said to their player,
the answers it gives itself (repeat, help, spell it, brief or full, its voice), and what
'repeat' says again."""

from __future__ import annotations

import shlex
from typing import TYPE_CHECKING, Callable

from voice_host.games import actions as A
from voice_host.games import events as E
from voice_host.host import phrases

if TYPE_CHECKING:
    from voice_host.games.base import Game
    from voice_host.host.announce import Announcer
    from voice_host.host.log import EventLog
    from voice_host.words import Words

VOICE_STEPS = {"slower": (-1, 0), "faster": (1, 0), "softer": (0, -1), "louder": (0, 1)}
"""The voice's own controls, as (rate step, volume step) for speech.voice.TtsVoice.adjust."""


class Saying:
    """The session's sentences out (a part of host.session.Session).

    It reads the session's game, clock and voice, and keeps what was said: ``last_said``
    (for 'repeat'), ``refused`` (the refusal said for the input being applied) and
    ``addressee`` (the player a refusal that says "you" names)."""

    game: Game
    words: Words
    t: float
    speak: Callable[[str], None]
    announcer: Announcer
    cue: Callable[[list[E.Event], float], None] | None
    log: EventLog | None
    heard: bool
    brief: bool
    last_word: str | None
    last_said: list[str]
    refused: str | None
    addressee: str | None
    _undo: Callable[[str | None, bool], list[str]]
    """host.session.history.History's."""
    _act: Callable[..., list[str]]

    def say(self, line: str) -> None:
        """Say one host sentence that is not about the game state (questions to the table)."""
        self._remember(self._say_lines([line], False))

    def ask(self, *kinds: str, quiet: bool = False) -> list[str]:
        """Answer questions (board, scores, turn, words) aloud."""
        events = [e for kind in kinds for e in self.game.step(A.Query(self.t, kind))]
        return self._remember(self._say(events, quiet=quiet, answer=True))

    def _host_request(self, kind: str, player: str, quiet: bool, word: str | None = None,
                      heard: bool = False) -> list[str]:
        """What the host answers itself: what it said, the help, undo, its voice and detail
        (``word``: the word named to spell, else the last word said; ``heard``: asked
        aloud, so the help says how to put right a word heard wrong)."""
        if kind == "repeat":
            return self._say_lines(self.last_said, quiet)
        if kind == "help":
            saved = shlex.quote(str(self.log.path)) if self.log is not None else None
            return self._say_lines([self.announcer.help(phrases.help(self.game), self.game.moves, self.game.questions,
                                                        saved, heard)], quiet)
        if kind == "undo":
            return self._undo(player, quiet)
        if kind == "spell":
            return self._say_lines([self.announcer.spelled(word or self.last_word)], quiet)
        if kind in ("brief", "full"):
            self.brief = kind == "brief"
            return self._say_lines([self.announcer.verbosity(self.brief)], quiet)
        steps = VOICE_STEPS[kind]
        adjust = getattr(self.speak, "adjust", None)  # a voice that has controls (a plain print has none)
        if quiet:  # replaying the log: the voice keeps the pace it has now
            return []
        level = adjust(rate_step=steps[0], volume_step=steps[1]) if adjust is not None else None
        return self._say_lines([self.announcer.voice_adjusted(kind, level)], quiet)

    def _talk(self, index: int, kind: str, player: str, quiet: bool) -> list[str]:
        """Table talk (host.intents.TALK), never a play: "wait" is given time, "stop"
        hushes the host, "next" is told whose turn it is, "thanks" needs no answer."""
        if kind == "wait":
            return self._say_lines([self.announcer.take_your_time()], quiet)
        if kind == "next":
            return self._act(index, A.Query(self.t, "turn", player), quiet)
        if kind == "quiet" and not quiet:
            hush = getattr(self.speak, "hush", None)  # a voice that can stop (a plain print cannot)
            if hush is not None:
                hush()
        return []

    def _worded(self, intent, player: str, quiet: bool) -> list[str]:
        """A question the host words itself (host.intents.WORDED): from the dictionary ("is
        zax a word"), or from the game's answer to another ("who's winning" from the
        scores, "is it my turn" from whose turn it is); the game's own answer where it
        has no such report (the final result, a game of its own kind)."""
        kind = intent.kind
        if kind == "check":
            verdict = self.words.check(intent.word)
            value = self.game.word_value(intent.word.lower()) if verdict.ok else None
            return self._say_lines([self.announcer.word_checked(intent.word, verdict.reason, value)], quiet)
        events = self.game.step(A.Query(self.t, "scores" if kind in ("leader", "rounds") else "turn", player))
        report = next((e for e in events if isinstance(e, (E.ScoresReport, E.StandingsReport, E.TurnReport))), None)
        if report is None or (kind == "rounds" and not isinstance(report, E.ScoresReport)) \
                or (kind == "leader" and len(report.standings) < 2):  # alone: the scores say how it goes
            return self._say(events, quiet=quiet, answer=True)
        if kind == "leader":
            line = self.announcer.leader(report.standings)
        elif kind == "rounds":
            line = self.announcer.rounds_left(report.round, report.rounds)
        elif kind == "my_turn":
            line = self.announcer.my_turn(player, report)
        else:
            line = self.announcer.next_player(report)
        return self._say([e for e in events if e is not report], quiet=quiet, answer=True) + self._say_lines([line], quiet)

    def _refuse(self, code: str, params: dict, quiet: bool) -> list[str]:
        self.refused = self._addressed(self.announcer.refusal(code, params))
        return self._say_lines([self.refused], quiet)

    def _addressed(self, refusal: str) -> str:
        """A refusal that says "you", said to the player it is for: heard across a table,
        "You can't ..." names nobody ("Ann, you can't ...")."""
        if self.addressee is None or not refusal.startswith(("You ", "Your ", "You'")):
            return refusal
        return f"{self.addressee}, {refusal[0].lower()}{refusal[1:]}"

    def _say(self, events: list[E.Event], *, quiet: bool, answer: bool = False) -> list[str]:
        if self.brief and not answer:  # brief: scores and whose turn, the detail (the board) only when asked
            events = [e for e in events if not isinstance(e, self.game.detail_events)]
        if self.cue is not None and not quiet:
            self.cue(events, self.t)
        lines = [self._addressed(line) if isinstance(e, E.Refused) else line
                 for e, line in ((e, self.announcer.say(e)) for e in events) if line]
        for e in events:
            if isinstance(e, E.Refused):
                self.refused = self._addressed(self.announcer.say(e))
        return self._say_lines(lines, quiet)

    def _remember(self, lines: list[str]) -> list[str]:
        """What the host said for one input, or on its own (the clock, a question): what
        'repeat' says again, whatever it was (an answer, a refusal, a repeat itself)."""
        if lines:
            self.last_said = list(lines)
        return lines

    def _say_lines(self, lines: list[str], quiet: bool) -> list[str]:
        if not quiet:
            for line in lines:
                self.speak(line)
        return lines
