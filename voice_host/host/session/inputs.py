"""What players say: an utterance (or a directive) read as the game's action, the table's
own or the host's request, near-misses of commands put right, the answers to the host's
yes-or-no questions, and what waits for the tie window."""

from __future__ import annotations

from dataclasses import replace
from typing import TYPE_CHECKING, Callable

from voice_host.games import actions as A
from voice_host.games import events as E
from voice_host.host import intents, phrases
from voice_host.host.records import Directive, Said
from voice_host.host.session.history import Asking

if TYPE_CHECKING:
    from voice_host.games.base import Game
    from voice_host.host.announce import Announcer
    from voice_host.words import Words


class Inputs:
    """The session's reading of its inputs (a part of host.session.Session)."""

    words: Words
    announcer: Announcer
    game: Game
    t: float
    players: list[str]
    addressee: str | None
    asking: Asking | None
    held: list[int]
    undoable: list[int]
    tick: Callable[..., list[str]]
    _act: Callable[..., list[str]]
    _undo: Callable[[str | None, bool], list[str]]
    _host_request: Callable[..., list[str]]
    _talk: Callable[..., list[str]]
    _worded: Callable[..., list[str]]
    _refuse: Callable[[str, dict, bool], list[str]]
    _say: Callable[..., list[str]]
    _say_lines: Callable[[list[str], bool], list[str]]

    def _directive(self, index: int, record: Directive, quiet: bool) -> list[str]:
        name, args = record.name, list(record.args)
        if name == "undo":  # the table's (or the host's own) undo: whoever's input it is
            return self._undo(None, quiet)
        action = phrases.directive(self.game.name, self.t, name, args, self.players)
        if action is None:
            return self._refuse("bad_directive", {"text": "@" + " ".join([name, *args])}, quiet)
        if isinstance(action, E.Refused):
            return self._refuse(action.code, action.params, quiet)
        return self._act(index, action, quiet)

    def _utterance(self, index: int, record: Said, quiet: bool) -> list[str]:
        speaker = record.speaker
        player = intents.find_player(speaker, self.players) if speaker else None
        if speaker is None:
            return self._refuse("no_speaker", {}, quiet)
        if player is None:
            return self._refuse("unknown_speaker", {"player": speaker, "players": tuple(self.players)}, quiet)
        self.addressee = player
        longest = self.words.longest
        tokens = intents.normalize(record.text).split()
        if longest and any(len(w) > longest for w in tokens):  # no word can be longer: refuse it whole
            return self._refuse("too_long", {"letters": max(map(len, tokens)), "longest": longest}, quiet)
        t = self.t
        parsed = record.parsed if record.parsed is not None and record.parsed.of(record.text, player, t) \
            else self.read(record.text, player, t)
        intent = parsed.intent
        if self.asking is not None and self.asking.player == player and intent.kind not in intents.TALK:
            asked, self.asking = self.asking, None  # anything else from the player asked: the question lapses
            if intent.kind in ("yes", "no"):
                return self._answered(index, asked, intent.kind == "yes", quiet)
        if (intent.kind in intents.HOST or intent.kind in intents.QUESTIONS or intent.kind == "next") \
                and self.game.settles_at(windows=False) is not None:
            self.held.append(index)  # answered once the words said just before are settled
            return []
        if intent.kind in intents.HOST:
            return self._host_request(intent.kind, player, quiet, intent.word, heard=record.heard is not None)
        action = None
        if intent.kind not in intents.QUESTIONS:  # a question is never a game's phrase, nor a word
            action = parsed.phrase  # the game's own phrases come first
            if action is None and intent.kind in ("word", "unclear"):
                fixed = self._near_command(intent, player, t)  # "chalenge" is the command, not a word
                if fixed is not None:
                    return self._utterance_as(index, record, fixed, quiet)
        if action is None and intent.kind in intents.TALK:  # talk, where the game has no phrase of its own for it
            return self._talk(index, intent.kind, player, quiet)
        if intent.kind in intents.WORDED:
            return self._worded(intent, player, quiet)
        if action is None:
            action = phrases.common.action(intent, player, t, self.players)
        if isinstance(action, E.Refused):
            return self._say([action], quiet=quiet)
        events = None
        if isinstance(action, A.Answer) and (self.asking is not None or self._also_a_word(record.text)):
            events = self.game.step(action)  # a refusal leaves the game as it was
            if any(isinstance(e, E.Refused) and e.code == "no_vote" for e in events):
                if self.asking is not None:  # the host asked someone else
                    return self._refuse("asked_another", {"player": self.asking.player}, quiet)
                action, events = A.PlayWord(t, player, intents.normalize(record.text)), None  # nobody asked: a play
        if isinstance(action, A.PlayWord):
            said = self.tick(t, quiet=quiet)  # what time settles first (a word in the tie window) decides the turn
            cost = self.game.interrupt_cost(player, action.word) if record.heard is not None else None
            if cost is not None and cost[0] - cost[1] <= 0:  # the rulebook's tip, for a word the host may have misheard
                self.asking = Asking(player, "interrupt", action.word, len(self.undoable))
                return said + self._say_lines([self.announcer.confirm_interrupt(player, action.word, cost[0] - cost[1])],
                                              quiet)
            return said + self._act(index, action, quiet)
        return self._act(index, action, quiet, events)

    def _also_a_word(self, text: str) -> bool:
        """Whether an answer ("right", "correct", "wrong") is also a word a player may
        play: one dictionary word other than the plain answers (yes, no, yeah, ...)."""
        said = intents.normalize(text)
        return said not in intents.PLAIN_ANSWERS and " " not in said and said in self.words

    def read(self, text: str, player: str, t: float) -> intents.Parsed:
        """``text`` said by ``player`` at ``t``, read once: its meaning at the table and
        as the game's own phrase."""
        intent = intents.parse(text, self.players)
        return intents.Parsed(text, player, t, intent, self.interpret(intent, player, t))

    def interpret(self, intent: intents.Intent, player: str, t: float) -> A.Action | E.Refused | None:
        """The game's own reading of an utterance (host.phrases); None leaves it to the table's."""
        return phrases.parse(self.game.name, intent.text, player, t)

    def _utterance_as(self, index: int, record: Said, text: str, quiet: bool) -> list[str]:
        """Apply an utterance read as ``text`` (a near-miss of a command, corrected)."""
        return self._utterance(index, replace(record, text=text), quiet)

    def _near_command(self, intent: intents.Intent, player: str, t: float) -> str | None:
        """A typed near-miss of a command that is not a dictionary word, as the command
        ("chalenge" -> "challenge", "scroes" -> "scores"); None when it is no near-miss."""
        tokens = intents.normalize(intent.text).split()
        fixed, changed = [], False
        for tok in tokens:
            if tok in intents.VOCABULARY or tok in self.words or intents.find_player(tok, self.players):
                fixed.append(tok)
                continue
            near = intents.nearest_command_word(tok)
            fixed.append(near or tok)
            changed = changed or near is not None
        if not changed:
            return None
        text = " ".join(fixed)
        again = intents.parse(text, self.players)
        if again.kind not in ("word", "unclear") or self.interpret(again, player, t) is not None:
            return text
        return None

    def _answered(self, index: int, asked: Asking, yes: bool, quiet: bool) -> list[str]:
        """The player's yes or no to the host's question ``asked``."""
        player, what, mark = asked.player, asked.what, asked.mark
        if asked.about == "undo":
            if not yes:
                return self._say_lines([self.announcer.kept(player, what)], quiet)
            if self.undoable[-1:] != [mark]:  # something else was played since
                return self._refuse("undo_passed", {"player": player, "text": what}, quiet)
            return self._undo(None, quiet)
        if not yes:
            return self._say_lines([self.announcer.taken_back(player, what)], quiet)
        if len(self.undoable) != mark:  # the game moved on while the player thought about it
            return self._refuse("moment_passed", {"word": what}, quiet)
        return self._act(index, A.PlayWord(self.t, player, what), quiet)
