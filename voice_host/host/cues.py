"""Which game moments get an earcon (speech.speaking.earcons), from the game's events.

:class:`Cues` is the session's ``cue`` hook: the session calls it with the events of
every step it announces and the game-clock time, before it says their sentences. It
sends ``out(name, t)`` for:

- ``timer``: the sand timer flipped or started (TimerFlipped, TimerStarted);
- ``ten_left``: the running timer crossing 10 seconds left. Classic has no event for it,
  so Cues watches the game's timer (``game.state.timer``: holder and ``until``) between
  steps and places the earcon at the crossing itself, ``until - 10``, once it knows the
  timer was still running then (nothing could have stopped it in between: no step, and
  no word waiting on the tie window that settles earlier). Solo's own countdown call
  (TimeLeft 10) counts as the same moment;
- ``time_up``: the sand ran out (TimerExpired);
- ``challenge``: a word challenged (ChallengeRaised, in every game that has challenges);
- ``refused``: a word refused (a Refused event about a word; a word voided by a challenge).
"""

from __future__ import annotations

from typing import Callable

from voice_host.games import events as E
from voice_host.games.dexikon import events as D
from voice_host.games.prolix import events as P

TEN = 10.0


def earcon_for(event) -> str | None:
    """The earcon an event gets, if any."""
    match event:
        case P.TimerFlipped() | P.TimerStarted():
            return "timer"
        case P.TimerExpired():
            return "time_up"
        case P.TimeLeft(seconds=seconds):
            return "ten_left" if seconds == TEN else None
        case E.ChallengeRaised():
            return "challenge"
        case D.DexikonChallenged(outcome=outcome):
            return "refused" if outcome == "void" else None
        case E.ChallengeResolved(stands=stands):
            return None if stands else "refused"
        case E.Refused(params=params) if (params or {}).get("word"):
            return "refused"
    return None


def running_timer(game) -> tuple[str | None, float] | None:
    """(holder, when the sand runs out) of a timer running in front of a player, else None."""
    timer = getattr(getattr(game, "state", None), "timer", None)
    if timer is None or getattr(timer, "holder", None) is None or getattr(timer, "until", None) is None:
        return None
    return timer.holder, float(timer.until)


class Cues:
    """Game events -> earcon names at game-clock times (see the module's docstring)."""

    def __init__(self, out: Callable[[str, float], None], game: Callable[[], object]):
        self.out = out
        self.game = game
        self._prev: tuple[float, float, float | None] | None = None  # (t, until, settles_at) after the last step
        self._first_seen: dict[float, float] = {}
        self._warned: set[float] = set()

    def __call__(self, events: list, t: float) -> None:
        prev, self._prev = self._prev, None
        if prev is not None:
            t_prev, until, settles = prev
            mark = until - TEN
            if (until not in self._warned and t_prev < mark <= t and (settles is None or settles >= mark)
                    and until - self._first_seen.get(until, t_prev) > TEN):
                self._warned.add(until)
                self.out("ten_left", mark)
        for e in events:
            name = earcon_for(e)
            if name == "ten_left":
                timer = running_timer(self.game())
                if timer is not None:
                    if timer[1] in self._warned:
                        continue
                    self._warned.add(timer[1])
            if name:
                self.out(name, t)
        game = self.game()
        timer = running_timer(game)
        if timer is not None:
            until = timer[1]
            self._first_seen.setdefault(until, t)
            settles = game.settles_at() if hasattr(game, "settles_at") else None
            self._prev = (t, until, settles)


__all__ = ["Cues", "earcon_for", "running_timer"]
