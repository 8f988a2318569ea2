"""Who said it, with one microphone: introductions, voice prints, and names by sound.

A player who says who they are ("I am Ann, and I am ready to play") gives the host their
voice print; the live opening asks each player in turn, then opens the game. A word with
the player's name said first ("Ann, jewelers", heard "and jewelers") is that player's,
and adds to their print, as does a word whose player said it was theirs. Who the speech
layer could not tell is asked by the questions (host.hearing.confirm).
"""

from __future__ import annotations

import re
import sys
from dataclasses import dataclass, field
from typing import Callable, NamedTuple

import jellyfish
import numpy as np

from voice_host.host import intents
from voice_host.host.hearing.heard import Heard, Stage
from voice_host.host.hearing.understand import Understand
from voice_host.messages import Reading
from voice_host.speech.audio import speech_level
from voice_host.speech.listening.attribution import said_after_name

ENROLL = re.compile(r"^(?:i am|i'm|im|my name is|my name's|this is)\s+(\S+)")
"""A player naming themself ("I am Ann, and I am ready to play"): their voice print."""
READY = re.compile(r"\bready to play\b")
REST_WORDS = 3
"""At most this many words before "ready to play" are the rest of an introduction ("and
i am"); more are a whole one, whatever its name was heard as."""
AND = re.compile(r"^and\b")
INTRODUCTION_WORDS = 3
"""Fewer words than this, said as the host spoke, are no introduction however heard (the
sentence asked for has nine): they may be the host's own question heard back."""


def sounds_like(heard: str, name: str) -> bool:
    """Does the heard word sound like the name? ("and" for Ann, "been" for Ben, "cut" for Cat.)

    Metaphone keys equal, or equal once a final T/D the recognizer added is dropped."""
    heard, name = heard.lower(), name.lower()
    if heard == name:
        return True
    a, b = jellyfish.metaphone(heard), jellyfish.metaphone(name)
    return bool(b) and (a == b or (a[:-1] == b and a[-1:] in ("T", "D") and len(b) >= 1))


def _words_before_ready(text: str) -> int | None:
    """How many words come before "ready to play" (None: it is not said)."""
    ready = READY.search(text)
    return None if ready is None else len(text[:ready.start()].split())


def nearest_name(said: str, players) -> str | None:
    """The player whose name is closest in spelling to what was heard after "I am"
    ("man" for Ann, "kat" for Cat), if close enough and closer than any other."""
    from rapidfuzz import fuzz, process

    best = process.extract(said, [p.lower() for p in players], scorer=fuzz.ratio, limit=2)
    if best and best[0][1] >= 60 and (len(best) == 1 or best[1][1] < best[0][1]):
        return players[best[0][2]]
    return None


class Named(NamedTuple):
    """A player's name said first ("and jewelers": Ann's), and what follows it."""

    player: str
    body: str
    """What was said after the name ("jewelers")."""
    reading: Reading
    """What the hearing understood of ``body``."""


class Attributed(NamedTuple):
    """Who said an utterance, as the hearing takes it (Voices.who)."""

    speaker: str | None
    ask: bool
    """Whether to ask if it was them."""
    body: str
    """What they said, a name said first taken off."""
    reading: Reading
    """What the hearing understood of ``body``."""


@dataclass
class Voices(Stage):
    """The table's voices as the hearing knows them (its voice prints, its session)."""

    understand: Understand = field(repr=False)
    voiceprints: object | None = None
    """The table's voice prints (speech.listening.voiceprint.VoicePrints) with one microphone."""
    enrolling: list[str] = field(default_factory=list)
    """Players the host is still asking to say who they are (the live opening)."""
    asked_at: float = 0.0
    """When the host asked the first of ``enrolling``."""
    unheard: list[str] = field(default_factory=list)
    """Players who did not answer the opening's question (told to say their name first)."""
    last: tuple[str, float] | None = None
    """The player last enrolled and when their introduction ended, while it may have a
    rest to come (it did not reach "ready to play" yet)."""
    levels: dict[str, list[float]] = field(default_factory=dict)
    """Each player's speech level at the microphone (dB full scale), from the clips their
    voice print was learnt from: what the table sounds like, against the room."""
    on_floor: Callable[[float | None], None] | None = None
    """Told the level under which sound at the microphone is the room's, not the table's
    (the quietest player's, less ``background_below``), each time it changes once every
    player's level is known: the listener then cuts utterances at the table's level."""

    @property
    def players(self) -> list[str]:
        return self.session.players

    # ------------------------------------------------------------------ who said a word
    def who(self, u: Heard, body: str, said: Reading) -> Attributed:
        """Who said ``body`` (what was understood of it: ``said``): as the speech layer
        said, unless a first word that sounds like a player's name makes the rest a play
        ("and jewelers": Ann, jewelers); a name said first teaches that player's voice."""
        speaker, ask = u.speaker, u.ask
        method = getattr(u, "speaker_method", None)
        named = self.named_by_sound(body) if method not in ("channel", "name", "answer") else None
        if named is not None:
            speaker, body, said = named
            ask = False
        if speaker is not None and (named is not None or method == "name"):
            self.learn(speaker, u)
        return Attributed(speaker, ask, body, said)

    # ------------------------------------------------------------------ names
    def player_named(self, said: str) -> str | None:
        players = self.players
        return intents.find_player(said, players) or next((p for p in players if sounds_like(said, p)), None)

    def named_by_sound(self, body: str) -> Named | None:
        """Ann and "jewelers" for "and jewelers": a first word that sounds like a player's
        name, when what follows is a play and the whole is not."""
        first, _, rest = body.partition(" ")
        name = next((p for p in self.players if sounds_like(first, p)), None) if rest else None
        if name is None:
            return None
        if " " in rest:  # "says" alone is what was said
            rest = " ".join(said_after_name(rest.split(" "), 0))
        read = self.understand.read
        if read(body, name).text is not None:
            return None
        if intents.parse(rest, self.players).kind in intents.TALK and " " not in rest:
            rest = f"play {rest}"  # talk after a name is that player's play ("Ann, wait": wait)
        understood = read(rest, name)
        return None if understood.text is None else Named(name, rest, understood)

    def introduced(self, text: str) -> str | None:
        """The player who says who they are: "i am ann ...", "my name is ben", or a name
        in the opening's sentence however the start was heard ("hi ann and i am ready to play")."""
        m = ENROLL.match(text)
        if m:
            name = self.player_named(m.group(1)) or nearest_name(m.group(1), self.players)
            return name or (self._left() if m.group(1) != "ready" and READY.search(text) else None)
        before = _words_before_ready(text)
        if before is not None:  # only a name as such: "and i am ready" is not Ann's
            name = next(filter(None, (intents.find_player(w, self.players) for w in text.split()[:4])), None)
            # a whole sentence before "ready to play" is an introduction ("i didn't thus invite him
            # ready to play" for "I am Gus, and I am ready to play"); "and i am" is the rest of one
            return name or (self._left() if before > REST_WORDS else None)
        return None

    def _left(self) -> str | None:
        """The one player yet to say who they are (an introduction whose name was unclear)."""
        prints = self.voiceprints
        left = [p for p in self.players if prints is not None and p not in prints.players]
        return left[0] if len(left) == 1 else None

    # ------------------------------------------------------------------ voice prints
    def enroll(self, u) -> bool:
        """A player saying who they are gives their voice print (again, if they had one)."""
        audio = getattr(u, "audio", None)
        if self.voiceprints is None or audio is None or not len(audio):
            return False
        text = intents.normalize(u.text)
        name, more = self.introduced(text), False
        last = self.last
        if name is None and last and u.start - last[1] <= self.settings.sentence_gap and \
                self._rest_of_introduction(text, last[0], u):
            name, more = last[0], True  # the rest of the sentence ("..., and I am ready to play"): more of that voice
        if name is None and self.enrolling and not self.session.begun and (
                not self._known_voice(u) or _words_before_ready(text) is not None) and not self._own_echo(u, text):
            name = self.enrolling[0]  # the player the host asked, whatever they said; the sentence asked for is theirs
        if name is None or not self._add(name, audio, fresh=not more):
            return False
        self.last = None if READY.search(text) else (name, u.end)  # a finished introduction has no rest
        if more:
            return True
        self.session.say(self.session.announcer.enrolled(name))
        if name in self.enrolling:
            self.enrolling.remove(name)
            self.enrolling.insert(0, name)
            self.next(u.end, heard=True)
        elif not self.session.begun and not self.enrolling and set(self.players) <= set(self.voiceprints.players):
            self.open(u.end)  # everyone has said who they are (unasked, as in a recording): the game begins
        return True

    @staticmethod
    def _own_echo(u, text: str) -> bool:
        """Whether ``u``, which says nobody's name, may be the host's own question heard
        back: a word or two it stopped talking for ("you" at 0%, before the canceller
        had learnt the room), not the sentence a player was asked to say."""
        return getattr(u, "barged", False) and len(text.split()) < INTRODUCTION_WORDS

    @staticmethod
    def _rest_of_introduction(text: str, player: str, u) -> bool:
        """Is this sentence, which names nobody, said just after ``player`` introduced
        themself, the rest of theirs? "and i am ready to play" (REST_WORDS or fewer before
        "ready to play"), or one begun like an introduction in their voice ("i am worthy",
        heard for "and I am ready to play" at 10 dB)."""
        before = _words_before_ready(text)
        if before is not None:
            return before <= REST_WORDS
        return bool(ENROLL.match(text) or AND.match(text)) and getattr(u, "speaker", None) == player \
            and getattr(u, "speaker_method", None) == "voiceprint"

    def _known_voice(self, u) -> bool:
        """Whether the voice prints surely know this voice as another player's than the
        one the opening asks (a player who answered already, saying a word meanwhile)."""
        speaker = getattr(u, "speaker", None)
        return (speaker is not None and speaker != self.enrolling[0] and not getattr(u, "ask", False)
                and getattr(u, "speaker_method", None) == "voiceprint" and speaker in self.voiceprints.players)

    def learn(self, player: str, u) -> None:
        """A word with the name said first, or whose player said it was theirs, adds to
        that player's voice print (the first clip of a player the host did not know)."""
        audio = getattr(u, "audio", None)
        if self.voiceprints is not None and audio is not None and len(audio) >= 8000:
            self._add(player, audio, fresh=False)

    def _add(self, name: str, audio, fresh: bool) -> bool:
        """Enroll a clip (``fresh``: in place of what the print held); a failure is said on
        stderr, never a reason to stop the game."""
        prints = self.voiceprints
        try:
            if fresh:
                prints.forget(name)
            prints.enroll(name, audio)
        except Exception as exc:
            print(f"voice print for {name} failed: {exc}", file=sys.stderr)
            return False
        kept = [] if fresh else self.levels.get(name, [])[-7:]
        self.levels[name] = kept + [speech_level(audio)]
        if self.on_floor is not None and self.settings.background_below and set(self.players) <= set(self.levels):
            self.on_floor(min(float(np.median(heard)) for heard in self.levels.values()) - self.settings.background_below)
        return True

    # ------------------------------------------------------------------ the room
    def background(self, u) -> bool:
        """Whether ``u`` is the room's speech, not the table's (a television, another
        conversation): with one microphone, ``background_below`` dB quieter than the
        player whose voice it is nearest (the quietest player when no voice print says),
        or ``background_unsure_below`` dB quieter in a voice the host is unsure of
        (``u.ask``) once every player has a print. A person at the table does not score
        the television. Said into a player's own microphone channel, or before any
        player's level is known, nothing is the room's; nor is what was said over the
        host's voice heard back (``barged``): the echo canceller takes a word said over
        it out with the echo, so its level is no guide."""
        audio = getattr(u, "audio", None)
        below = self.settings.background_below
        if not below or audio is None or not len(audio) or not self.levels \
                or getattr(u, "speaker_method", None) == "channel" or getattr(u, "barged", False):
            return False
        levels = {p: float(np.median(heard)) for p, heard in self.levels.items()}
        nearest = u.speaker if getattr(u, "speaker_method", None) == "voiceprint" else None
        own = levels[nearest] if nearest in levels else min(levels.values())
        said = speech_level(audio)
        if said < own - below:
            return True
        everyone = set(self.players) <= set(levels)
        return everyone and bool(getattr(u, "ask", False)) and said < own - self.settings.background_unsure_below

    # ------------------------------------------------------------------ the opening
    def start(self, t: float) -> None:
        """The live opening with one microphone: ask each player whose voice the host
        does not know yet, in seating order, then open the game."""
        known = set(getattr(self.voiceprints, "players", ()))
        self.enrolling = [p for p in self.players if p not in known]
        self._ask_first(t)

    def next(self, t: float, heard: bool) -> None:
        """The first player asked has answered (or not, in time): ask the next, or open."""
        skipped = [] if heard else [self.enrolling[0]]
        self.enrolling.pop(0)
        self.unheard += skipped
        self._ask_first(t)

    def _ask_first(self, t: float) -> None:
        if self.enrolling:
            self.asked_at = t
            self.session.say(self.session.announcer.enroll_prompt(self.enrolling[0]))
        else:
            self.open(t)

    def due(self, t: float) -> bool:
        """Is the opening asking (the clock waits)? A question unanswered in time moves on
        to the next player."""
        if not self.enrolling:
            return False
        if t >= self.asked_at + self.settings.enroll_within:
            self.next(t, heard=False)
        return True

    def open(self, t: float) -> None:
        """The opening is over: begin the game (the intro, the board, whose turn); the
        players never heard are told to say their name first."""
        unheard, self.unheard, self.enrolling = self.unheard + self.enrolling, [], []
        if unheard:
            self.session.say(self.session.announcer.not_enrolled(unheard))
        self.session.begin(t)
