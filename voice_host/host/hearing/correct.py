"""Not what I said: a word the host took put right by its player.

A word the host took and announced can be put right by its player within
``answer_within`` seconds: "no, persons", "no, papa echo romeo ...", "I said persons",
or the right word spelled out alone ("papa, echo, romeo, ...": a player spells only to
be understood, so a spelling just after their own word is taken means that word).
The play is taken back (logged as undos) with the plays made since (two at most), the
right word is played at the time it was first said, and the others again after it. With
nothing said since, the right word is heard like any play (asked about if the recognizer
is unsure). "No body" after jewelers is no correction (nobody, a new word): the right
word must be spelled, or sound near the word taken. "No, persons" heard as the word taken
("no, percents") still says the host took the wrong word: it takes the likeliest other
reading the recognizer weighed that sounds near and scores on the board, or, with none,
asks the player to spell it ("Sorry, Ann, I hear percents again. Spell it for me,
please.") and waits ``answer_within`` seconds more for the spelling. "No, hubs" after
adds is not a correction ("accuses" is heard "no causes" too): the host catches no word,
and waits as long for the spelling that puts it right.

A word scored to the wrong player is put right the same way: "That was me" from its
player, or "That was Ann" from anyone, within ``answer_within`` seconds of the last word
the host took, when it took it from another player, moves that word to the player
named, as their play at the time it was said.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import NamedTuple

from voice_host.host import intents
from voice_host.host.hearing.heard import Again, Heard, Stage
from voice_host.host.hearing.understand import CLAIMS, CORRECTIONS, MINE, Understand, is_spelled
from voice_host.messages import Said

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
    """Whose word is taken back."""
    undo: int
    """How many inputs to take back: the word and the plays made since (none when the
    host heard the word it took again and asks for its spelling)."""
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
    before: Taken | None = None
    """The word the host took before the last one, whoever's: "That was me" could mean
    either while both are fresh."""
    pending: list[tuple[Said, Taken]] = field(default_factory=list)
    """The words handed to the session, until it is known whether each counted."""

    def taking(self, said: Said, now: float) -> None:
        """``said`` is about to be played: if it plays a word, its player may put it right
        from ``now`` on, once the session has counted it. Whether it did is read when the
        hearing next needs it (:meth:`_counted`): its work on the utterance ends with the
        play."""
        match = intents.PLAY.match(said.text)
        word = match.group(2) if match else said.text
        parsed = said.parsed if said.parsed is not None and said.parsed.text == said.text else None
        kind = parsed.intent.kind if parsed is not None else intents.parse(word, self.session.players).kind
        if kind == "word":  # "play jewelers" is the word too
            self.pending.append((said, Taken(max(now, said.t, self.session.t), -1,
                                             said.text[: len(said.text) - len(word)], said.t)))

    def _counted(self) -> None:
        """The words played since the hearing last looked, in order: each the session
        counted (it changed the game) is one its player may put right."""
        pending, self.pending = self.pending, []
        records, undoable = self.session.records, self.session.undoable
        for said, taken in pending:
            index = next((i for i in range(len(records) - 1, -1, -1) if records[i] is said), None)
            if index is not None and index in undoable:
                self.before = next(reversed(self.last_plays.values()), None)
                self.last_plays.pop(said.speaker, None)
                self.last_plays[said.speaker] = taken._replace(index=index)

    def forget(self, player: str) -> None:
        """``player``'s word was taken back (put right): nothing of theirs is left to put right."""
        del self.last_plays[player]

    def missed(self, u: Heard, body: str) -> None:
        """The host caught no word in ``body`` ("no hubs" after adds: "hubs" is nothing
        like it). If its player may put a word right, they may still spell it, for
        ``answer_within`` seconds more."""
        self._counted()
        last = self.last_plays.get(u.speaker)
        if body.startswith(CORRECTIONS) and last is not None and self._fresh(last, u.start):
            self.last_plays[u.speaker] = last._replace(announced=u.end)

    def open(self, now: float) -> bool:
        """Whether some player may still put a word right at ``now``."""
        self._counted()
        return any(self._fresh(taken, now) for taken in self.last_plays.values())

    def _fresh(self, taken: Taken, at: float) -> bool:
        """Whether the word ``taken`` may still be put right at ``at``: within
        ``answer_within`` of the table's time since it was announced."""
        return self.waited(taken.announced, at) <= self.settings.answer_within

    def correction(self, u: Heard, asking: bool) -> Correction | None:
        """'No, persons' from a player whose word was just taken (spelled, or a word that
        sounds near it), with at most ``PUT_RIGHT_AFTER`` plays by others since. With
        nothing said since and no question open (``asking``), the right word is heard
        like any play; otherwise it is played as heard."""
        self._counted()
        body = intents.normalize(u.body or u.text)
        claim = self._claim(u, body)
        if claim is not None:
            return claim
        spelling = is_spelled(body) and not self.settings.unsure(u)  # a spelling heard unsurely puts nothing right
        lead = next((c for c in CORRECTIONS if body.startswith(c)), "" if spelling else None)
        player = u.speaker or next(reversed(self.last_plays), None)
        last = self.last_plays.get(player)
        if lead is None or last is None or not self._fresh(last, u.start):
            return None
        index, prefix, said_at = last.index, last.prefix, last.said_at
        records, word = self.session.records, body[len(lead):]
        later = self._since(index)
        if later is None:
            return None
        text = self.understand.read(word, player).text
        taken, spelled = records[index].text.removeprefix(prefix), is_spelled(word)
        if text is None or not (spelled or sounds_near(text, taken)):
            return None  # "no body" after jewelers is nobody, a new word
        as_heard = later or asking  # no second question: played as heard
        if text == taken:
            if spelled:
                return None  # the word taken, spelled: nothing to put right
            text, as_heard = self._other_reading(u, taken), True  # "no, persons" heard "no, percents" again
            if text is None:
                return self._spell_it(player, u, taken)
        sentence = self.session.announcer.put_right(player, text, taken)
        if as_heard:
            replay = [Said(said_at, player, prefix + text, u.text), *self._again(later)]
            return Correction(player, len(later) + 1, sentence, replay, None)
        return Correction(player, len(later) + 1, sentence, None,
                          Again.of(u, said_at, prefix + word, player, refused=taken))

    def _spell_it(self, player: str, u: Heard, heard_again: str) -> Correction:
        """The player says the word taken is wrong, but the host hears it again
        (``heard_again``): it asks for the spelling, and waits ``answer_within`` seconds
        more for it."""
        self.last_plays[player] = self.last_plays[player]._replace(announced=u.end)
        return Correction(player, 0, self.session.announcer.spell_it(player, heard_again), [], None)

    def _other_reading(self, u: Heard, taken: str) -> str | None:
        """The likeliest other word the recognizer weighed for ``u`` that sounds near the
        word ``taken`` and would score on the board, if any."""
        value = self.session.word_value
        return next((w for w, _ in self.understand.readings(u.alternatives)
                     if w != taken and sounds_near(w, taken) and value(w) != 0), None)

    def _claim(self, u: Heard, body: str) -> Correction | None:
        """'That was me' (or 'That was Ann', by anyone) just after the host took a word
        from another player (the last word it took, with no other word of another player
        fresh beside it): the word is moved to the player named."""
        lead = next((c for c in CLAIMS if body.startswith(c)), None)
        if lead is None:
            return None
        who = body[len(lead):].removesuffix("'s")
        player = u.speaker if who in MINE else intents.find_player(who, self.session.players)
        other = next(reversed(self.last_plays), None)  # the last word taken, and only that one
        if player is None or other in (None, player):
            return None
        last = self.last_plays[other]
        later = self._since(last.index)
        if not self._fresh(last, u.start) or later is None:
            return None
        if self.before is not None and self._fresh(self.before, u.start) and \
                self.session.records[self.before.index].speaker != player:
            return None  # two words of others are fresh: which one is "that"?
        taken = self.session.records[last.index]
        word = taken.text.removeprefix(last.prefix)
        lead_in = "" if "interrupt" in last.prefix else last.prefix  # "ben interrupts": not Ann's to say
        replay = [Said(last.said_at, player, lead_in + word, taken.heard), *self._again(later)]
        return Correction(other, len(later) + 1, self.session.announcer.claimed(player, word, other), replay, None)

    def _since(self, index: int) -> list[int] | None:
        """The plays made since input ``index`` (to take back with it and play again),
        or None when it can no longer be put right."""
        records, undoable = self.session.records, self.session.undoable
        later = undoable[undoable.index(index) + 1:] if index in undoable else None
        if later is None or len(later) > PUT_RIGHT_AFTER or not all(isinstance(records[i], Said) for i in later):
            return None
        return later

    def _again(self, indexes: list[int]) -> list[Said]:
        """The plays at these input indexes, to be played again as they were."""
        records = self.session.records
        return [Said(records[i].t, records[i].speaker, records[i].text, records[i].heard) for i in indexes]
