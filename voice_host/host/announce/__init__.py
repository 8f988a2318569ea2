"""Sentences out: every sentence the host says, from events, refusals and its own questions.

The rules emit structured events (voice_host.games.*.events); ``sentence(event)`` turns
each into one sentence a player can hear and a low-vision player can rely on. One module
per game family registers its events' sentences (and its refusals' reasons); ``common``
the events every game shares, ``refusals`` the reasons, ``questions`` what the host
says on its own. An event without a sentence raises: tests/host/announce/test_announce.py checks
that every event type and every refusal code has one.
"""

from __future__ import annotations

from voice_host.games.events import Event
from voice_host.host.announce import common, dexikon, phlounder, prolix, road  # noqa: F401  (register sentences)
from voice_host.host.announce.dispatch import sentence
from voice_host.host.announce.phlounder import labelled
from voice_host.host.announce.questions import HostSentences, spelling_hint
from voice_host.host.announce.refusals import reason

_WORD = "\0"
"""Where a word goes in a sentence whose beginning is prepared (Announcer.openings)."""

__all__ = ["Announcer", "labelled", "reason", "sentence", "spelling_hint"]


class Announcer(HostSentences):
    """Events and refusals in, plain English out."""

    def say(self, event: Event) -> str | None:
        return sentence(event)

    def openings(self, players, rounds: int = 4) -> list[str]:
        """What the host says most, for the voice to render before it is needed: each
        player's "Ann scores" (a scored word's sentence up to its points), "Ann draws"
        and "Ann interrupts", the first rounds' "Round 2: Ben's turn." and "End of
        round 2.", and how its questions and answers begin ("Did you say", "I'll take",
        "Who said", "Was that Ann?", "Undone:", "I didn't catch a word in")."""
        from voice_host.games import events as E
        from voice_host.games.prolix import events as P

        def head(text: str) -> str:  # the sentence up to the word it is about
            return text[:text.index(_WORD)].strip()

        scored = [" ".join(sentence(P.WordScored(p, "it", 2, ())).split()[:-4]) for p in players]
        moves = [head(sentence(event)) for p in players
                 for event in (P.TilesDrawn(p, (_WORD,)), P.Interrupted(p, "it", 2, 1, 1, _WORD))]
        turns = [sentence(E.TurnStarted(p, n)) for n in range(1, rounds + 1) for p in players] + \
            [sentence(E.RoundOver(n, ())).split(". ")[0] + "." for n in range(1, rounds + 1)]
        asks = [head(self.did_you_say([_WORD, _WORD])), head(self.taking_guess(_WORD)), head(self.who_said(_WORD)),
                head(self.undone(_WORD)), head(reason("unclear", {"text": _WORD})).rstrip("' ")]
        return scored + moves + turns + asks + [self.was_that(p) for p in players]

    def refusal(self, code: str, params: dict, player: str | None = None) -> str:
        return reason(code, params)
