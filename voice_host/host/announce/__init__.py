"""Sentences out: every sentence the host says, from events, refusals and its own questions.

The rules emit structured events (voice_host.games.*.events); ``sentence(event)`` turns
each into one sentence a player can hear and a low-vision player can rely on. One module
per game family registers its events' sentences (and its refusals' reasons); ``common``
the events every game shares, ``refusals`` the reasons, ``questions`` what the host
says on its own. An event without a sentence raises: tests/host/test_announce.py checks
that every event type and every refusal code has one.
"""

from __future__ import annotations

from voice_host.games.events import Event
from voice_host.host.announce import common, dexikon, phlounder, prolix, road  # noqa: F401  (register sentences)
from voice_host.host.announce.dispatch import sentence
from voice_host.host.announce.phlounder import labelled
from voice_host.host.announce.questions import HostSentences, spelling_hint
from voice_host.host.announce.refusals import reason

__all__ = ["Announcer", "labelled", "reason", "sentence", "spelling_hint"]


class Announcer(HostSentences):
    """Events and refusals in, plain English out."""

    def say(self, event: Event) -> str | None:
        return sentence(event)

    def refusal(self, code: str, params: dict, player: str | None = None) -> str:
        return reason(code, params)
