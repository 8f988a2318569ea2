"""Which word: what the host takes an utterance for, with what the game expects.

- Commands and questions pass as heard. Anything else is run through the words matcher
  (near-misses, homophones, "scrap booking", spelled letters, the NATO alphabet), after
  the recognizer's usual slips in the games' phrases are undone (data/heard.toml).
  Several words that do not make one word are table chatter.
- What may be said now (:meth:`Understand.sayable`), for a recognizer that searches a
  language, with the game's prior over the dictionary (:meth:`Understand.prior`,
  host.prior): the host hears the words the board makes likely.
"""

from __future__ import annotations

import re
from collections import OrderedDict
from dataclasses import dataclass, field
from functools import cache
from importlib import resources

from voice_host.config import tomllib
from voice_host.host import intents
from voice_host.host.hearing.heard import Stage
from voice_host.messages import Parsed, Reading
from voice_host.words.matcher import spelled_letters, tokens

SPELLED = re.compile(r"^([a-z] )+[a-z]$")
"""Letters said one by one."""

ORDINALS = {"first": 0, "the first": 0, "the first one": 0, "second": 1, "the second": 1, "the second one": 1,
            "the other": 1, "the other one": 1, "the last one": 1}
"""Answers to "Did you say X or Y?" that name the option by its place."""
CORRECTIONS = ("no i said ", "i said ", "no ")
"""What a player says before the right word to put a misheard play right."""
CLAIMS = ("no that was ", "no it was ", "that was ", "it was ")
"""What a player says before naming whose word it was ("That was me", "It was Ann's")."""
MINE = ("me", "mine", "my word")
"""... and how a player names themself there."""
SAYABLES_KEPT = 8
"""What may be said at the moments a game moves between, kept compiled (a question
open or not, a word that may be put right or not)."""


def is_spelled(text: str) -> bool:
    """Said letter by letter (or in the NATO alphabet): the spelling is known."""
    return spelled_letters(tokens(text.split(" ", 1)[-1] if text.startswith(("play ", "interrupt ")) else text)) is not None


@cache
def _rewrites() -> tuple[tuple[re.Pattern, str], ...]:
    data = tomllib.loads(resources.files("voice_host.host").joinpath("data/heard.toml").read_text("utf-8"))
    return tuple((re.compile(r["heard"]), r["said"]) for r in data["rewrite"])


def rewrite(transcript: str) -> str:
    """Undo the recognizer's usual slips in the games' phrases (data/heard.toml)."""
    for pattern, said in _rewrites():
        transcript = pattern.sub(said, transcript)
    return transcript


CHATTER = Reading(None)


@dataclass
class Understand(Stage):
    """Which word a table's utterance is, for this session's game and dictionary."""

    _sayables: OrderedDict = field(default_factory=OrderedDict, repr=False)
    """What may be said, by (the question open, whether a word may be put right): the
    few a game moves between, kept with their compiled languages (the recognizer's walks
    of them are memoized there)."""
    _prior: object = field(default=None, repr=False)
    _prior_for: object = field(default=0, repr=False)

    def read(self, body: str, speaker: str | None, t: float | None = None) -> Reading:
        """What ``body`` is taken for, said at ``t`` (None: now): commands pass as heard
        (no match), words are matched; chatter is :data:`CHATTER`."""
        body = rewrite(body)
        parsed = self.parse(body, speaker, t)
        intent = parsed.intent
        if parsed.phrase is not None:
            return Reading(body, kind="game", parsed=parsed)
        if intent.kind not in ("word", "unclear"):
            return Reading(body, kind=intent.kind, parsed=parsed)
        prefix, rest = "", body
        m = intents.PLAY.match(body)
        if m:
            prefix, rest = m.group(1) + " ", m.group(2)
        elif intent.kind == "unclear":
            phrase = next((p for p in ("play ", "my word is ", "interrupt ") if body.startswith(p)), None)
            if phrase:
                prefix, rest = phrase, body[len(phrase):]
        if not prefix and rest in self.settings.ignore:
            return CHATTER
        match = self.words.match(rest)
        if match.best is None:
            return CHATTER
        if len(rest.split()) > 1 and match.confidence < self.settings.join_above and not (
                SPELLED.match(rest) or spelled_letters(tokens(rest)) == match.best):
            return CHATTER  # several words that do not make one: chatter (a spelling is one word)
        said = prefix + match.best
        return Reading(said, match, parsed=parsed if said == body else None)

    def parse(self, text: str, speaker: str | None, t: float | None = None,
              known: Parsed | None = None) -> Parsed:
        """The session's reading of ``text`` said by ``speaker`` at ``t`` (None: now), to
        hand on with its record: ``known`` where it is that reading already."""
        players = self.session.players
        player = speaker and intents.find_player(speaker, players) or players[0]
        now = self.session.t if t is None else max(self.session.t, t)  # the game time it is played at
        if known is not None and known.of(text, player, now):
            return known
        return self.session.read(text, player, now)

    def readings(self, alternatives: list, question=None, correcting: bool = True) -> list[tuple[str, float]]:
        """The words a constrained search's sentences (text, score; best first) read as,
        with the score of the best sentence each was heard in: its lead-in ("ann",
        "no", "play") taken off, a spelling read as its word; sentences of more than
        one word, and words not in the dictionary, are left out."""
        sayable = self.sayable(question, correcting)  # the language the sentences come from: strip its lead-ins
        leads = sorted(sayable.names if sayable is not None else (), key=len, reverse=True)
        found: dict[str, float] = {}
        for sentence, score in alternatives:
            rest = next((sentence[len(lead) + 1:] for lead in leads if sentence.startswith(lead + " ")), sentence)
            word = spelled_letters(rest.split()) or (rest if " " not in rest else None)
            if word and word in self.words:
                found.setdefault(word, score)
        return list(found.items())

    # ------------------------------------------------------------------ what may be said
    def sayable(self, question=None, correcting: bool = True):
        """What a player may say now, for a recognizer that searches a language: a
        dictionary word, optionally after a name or a lead-in ("Ann, jewelers", "Ben
        interrupts jewelers", "play time", "bank catch"), and the game's tail after it
        ("for 5", "unused 3"); the game's own phrases; a command or question; a player
        saying who they are; the answers to the open ``question``; with ``correcting``
        (a word may be put right now), a word put right ("no, persons"): otherwise
        "unaffected" would be heard "no infected"."""
        from voice_host.speech.recognizing.sayable import Sayable

        key = ((question.kind, tuple(question.options)) if question else None, correcting)
        sayable = self._sayables.get(key)
        if sayable is None:
            own = self.session.spoken()
            names = [p.lower() for p in self.session.players]
            lead_ins = [f"{v} {n}" for n in names for v in ("i am", "my name is", "this is")]  # "I am Ann, and ..."
            lead_ins += [*own.lead_ins, *(f"{n} {lead}" for n in names for lead in own.lead_ins)]
            if own.bare:  # a word alone, after a name ("Ann, jewelers")
                lead_ins += names + [f"{n} {v}" for n in names for v in ("says", "interrupts", "interrupts with")]
            if own.bare and not own.tails and correcting:  # a play that is a word alone, put right ("no,
                lead_ins += [c.strip() for c in CORRECTIONS]  # persons"); not where "no word, unused 2" would be
            said = [p for kind, ps in intents.PHRASES.items() if kind != "play_what" for p in ps]
            said += [f"{v} {n}" for n in names for v in ("challenge", "sheet", "i am",
                                                             "i'm", "my name is", "this is")]
            said += [f"{n}'s sheet" for n in names] + names + ["and i am ready to play", "i am ready to play"]
            said += [f"{c}{w}" for c in CLAIMS for w in (*names, *(f"{n}'s" for n in names), *MINE)]
            said += own.phrases
            if not own.bare:  # "Ann, spend": a name before the game's phrases, where it leads no word
                said += [f"{n} {p}" for n in names for p in own.phrases]
            if question is not None:
                said += question.options
            if question is not None and question.kind == "word":
                said += list(ORDINALS)
            sayable = Sayable.game(said, lead_ins, spelling=True, tails=own.tails, repeat=own.repeat, bare=own.bare)
            if len(self._sayables) >= SAYABLES_KEPT:
                self._sayables.popitem(last=False)
        self._sayables[key] = sayable
        self._sayables.move_to_end(key)  # the most recently used last
        return sayable.with_prior(self.prior())

    def prior(self):
        """The game's prior over the dictionary for what it expects now (host.prior), or
        None when it is off (``prior_points`` and ``prior_known`` both 0)."""
        from voice_host.host.prior import search_prior

        expected = self.session.expectation()
        if self._prior_for != expected:
            self._prior = search_prior(expected, self.words, self.settings.prior_points, self.settings.prior_known)
            self._prior_for = expected
        return self._prior
