"""Not what I said: a word the host took put right by its player.

A word the host took and announced can be put right by its player within
``answer_within`` seconds: "no, persons", "no, papa echo romeo ...", "I said persons",
or the right word spelled out alone ("papa, echo, romeo, ...": a player spells only to
be understood, so a spelling just after their own word is taken means that word).
The play is taken back (logged as undos) with the plays made since (two at most), the
right word is played at the time it was first said, and the others again after it. With
nothing said since, the right word is heard like any play (asked about if the recognizer
is unsure). "No body" after jewelers is no correction (nobody, a new word): the right
word must be spelled, or sound near the word taken.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import NamedTuple

from voice_host.host import intents
from voice_host.host.hearing.heard import Again, Heard, Stage
from voice_host.host.hearing.understand import CORRECTIONS, Understand, is_spelled
from voice_host.host.records import Said

PUT_RIGHT_AFTER = 2
"""How many plays by others may have been made since, for a word to be put right."""


def sounds_near(word: str, other: str) -> bool:
    """Could one have been heard for the other? (spelling or Metaphone keys at least
    half alike: persons / percents, tours / cheers; not body / jewelers)."""
    import jellyfish
    from rapidfuzz import fuzz

    return fuzz.ratio(word, other) >= 50 or fuzz.ratio(jellyfish.metaphone(word), jellyfish.metaphone(other)) >= 60


def said_again(word: str, asked: list[str]) -> bool:
    """Could ``word``, said bare by the player asked about one of ``asked``, be that word
    said again? Closer than :func:`sounds_near`: the spellings 70% alike, or the
    Metaphone keys at most 40% edited (tours for cheers, accomplice for accomplished);
    "breaking" after "remembering" is a new play."""
    import jellyfish
    from rapidfuzz import fuzz
    from rapidfuzz.distance import Levenshtein

    key = jellyfish.metaphone(word)
    return any(fuzz.ratio(word, a) >= 70 or Levenshtein.normalized_similarity(key, jellyfish.metaphone(a)) >= 0.6
               for a in asked)


class Taken(NamedTuple):
    """A word the host took from a player (see Correct.last_plays)."""

    announced: float
    """When it was played and announced (after the answer, for a word asked about)."""
    index: int
    """Its input record's index in the session."""
    prefix: str
    """What came before the word ("play ", "ann interrupts ")."""
    said_at: float
    """When it was said (the record's time)."""


class Correction(NamedTuple):
    """How an utterance puts a word right."""

    player: str
    undo: int
    """How many inputs to take back: the word and the plays made since."""
    sentence: str
    """What the host says ("Ann, persons, not percents.")."""
    replay: list[Said] | None
    """The right word and the plays made since, to play again in order; None when the
    right word is to be heard like any play (``again``)."""
    again: Again | None


@dataclass
class Correct(Stage):
    """The words each player may still put right."""

    understand: Understand = field(repr=False)
    last_plays: dict = field(default_factory=dict)
    """player -> the last word the host took from that player (a Taken), which they may
    still put right; newest last."""

    def took(self, said: Said, now: float) -> None:
        """``said`` was just fed to the session: if it played a word, its player may put
        it right from ``now`` on."""
        index = len(self.session.records) - 1
        match = intents.PLAY.match(said.text)
        word = match.group(2) if match else said.text
        taken = self.session.undoable[-1:] == [index] and intents.parse(word, self.session.players).kind == "word"
        if taken:
            self.last_plays.pop(said.speaker, None)
            self.last_plays[said.speaker] = Taken(max(now, self.session.t), index,
                                                  said.text[: len(said.text) - len(word)], said.t)

    def open(self, now: float) -> bool:
        """Whether some player may still put a word right at ``now``."""
        return any(now <= taken.announced + self.settings.answer_within for taken in self.last_plays.values())

    def correction(self, u: Heard, asking: bool) -> Correction | None:
        """'No, persons' from a player whose word was just taken (spelled, or a word that
        sounds near it), with at most ``PUT_RIGHT_AFTER`` plays by others since. With
        nothing said since and no question open (``asking``), the right word is heard
        like any play; otherwise it is played as heard."""
        body = intents.normalize(u.body or u.text)
        lead = next((c for c in CORRECTIONS if body.startswith(c)), "" if is_spelled(body) else None)
        player = u.speaker or next(reversed(self.last_plays), None)
        last = self.last_plays.get(player)
        if lead is None or last is None or u.start > last.announced + self.settings.answer_within:
            return None
        index, prefix, said_at = last.index, last.prefix, last.said_at
        records, word, undoable = self.session.records, body[len(lead):], self.session.undoable
        later = undoable[undoable.index(index) + 1:] if index in undoable else None
        if later is None or len(later) > PUT_RIGHT_AFTER or not all(isinstance(records[i], Said) for i in later):
            return None
        text, _ = self.understand.read(word, player)
        taken = records[index].text
        if text is None or not (is_spelled(word) or sounds_near(text, taken.removeprefix(prefix))):
            return None  # "no body" after jewelers is nobody, a new word
        if text == taken.removeprefix(prefix):
            return None  # the word taken, spelled: nothing to put right
        sentence = self.session.announcer.put_right(player, text, taken.removeprefix(prefix))
        if later or asking:  # no second question: played as heard
            again = [Said(records[i].t, records[i].speaker, records[i].text, records[i].heard) for i in later]
            replay = [Said(said_at, player, prefix + text, u.text), *again]
            return Correction(player, len(later) + 1, sentence, replay, None)
        return Correction(player, len(later) + 1, sentence, None, Again.of(u, said_at, prefix + word, player))
