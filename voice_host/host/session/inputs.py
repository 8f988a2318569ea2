"""What players say and what the host answers: an utterance (or a directive) read as the
game's action, the table's own or the host's request, near-misses of commands put right,
the answers to the host's yes-or-no questions, undo, and what waits for the tie window."""

from __future__ import annotations

import shlex
from dataclasses import replace
from typing import TYPE_CHECKING

from voice_host.games import actions as A
from voice_host.games import events as E
from voice_host.host import intents, phrases
from voice_host.host.session.history import Asking
from voice_host.messages import Directive, Intent, Parsed, Said

if TYPE_CHECKING:
    from voice_host.host.session import Session

VOICE_STEPS = {"slower": (-1, 0), "faster": (1, 0), "softer": (0, -1), "louder": (0, 1)}
"""The voice's own controls, as (rate step, volume step) for speech.voice.TtsVoice.adjust."""


class Inputs:
    """The session's reading of its inputs, and what it keeps while reading them: the
    question the host asked one player (``asking``), the inputs held for the tie window
    (``held``) and the last word the game took (``last_word``, for "spell it").

    It reads and steps ``session``'s game, and says what happens through the session's
    ``saying``; the session's history keeps the records it applies."""

    def __init__(self, session: Session) -> None:
        self.session = session
        self.restart()

    def restart(self) -> None:
        """Forget what was kept (the game is rebuilt from its records)."""
        self.asking: Asking | None = None
        """A yes or no question the host asked one player (a worthless interrupt, an undo)."""
        self.last_word: str | None = None
        """The last word said that the game took, for "spell it"."""
        self.held: list[int] = []
        """Questions and host requests said while words wait on the tie window: answered
        once those words are settled, so that they are about the game with them."""

    # ------------------------------------------------------------------ reading
    def read(self, text: str, player: str, t: float) -> Parsed:
        """``text`` said by ``player`` at ``t``, read once: its meaning at the table and
        as the game's own phrase."""
        intent = intents.parse(text, self.session.players)
        return Parsed(text, player, t, intent, self._interpret(intent, player, t))

    def _interpret(self, intent: Intent, player: str, t: float) -> A.Action | E.Refused | None:
        """The game's own reading of an utterance (host.phrases); None leaves it to the table's."""
        return phrases.parse(self.session.game.name, intent.text, player, t)

    def directive(self, index: int, record: Directive, quiet: bool) -> list[str]:
        s = self.session
        name, args = record.name, list(record.args)
        if name == "undo":  # the table's (or the host's own) undo: whoever's input it is
            return self.undo(None, quiet)
        action = phrases.directive(s.game.name, s.t, name, args, s.players)
        if action is None:
            return s.saying.refuse("bad_directive", {"text": "@" + " ".join([name, *args])}, quiet)
        if isinstance(action, E.Refused):
            return s.saying.refuse(action.code, action.params, quiet)
        return self._act(index, action, quiet)

    def utterance(self, index: int, record: Said, quiet: bool) -> list[str]:
        s = self.session
        speaker = record.speaker
        player = intents.find_player(speaker, s.players) if speaker else None
        if speaker is None:
            return s.saying.refuse("no_speaker", {}, quiet)
        if player is None:
            return s.saying.refuse("unknown_speaker", {"player": speaker, "players": tuple(s.players)}, quiet)
        s.saying.applying(player)
        longest = s.words.longest
        tokens = intents.normalize(record.text).split()
        if longest and any(len(w) > longest for w in tokens):  # no word can be longer: refuse it whole
            return s.saying.refuse("too_long", {"letters": max(map(len, tokens)), "longest": longest}, quiet)
        t = s.t
        parsed = record.parsed if record.parsed is not None and record.parsed.of(record.text, player, t) \
            else self.read(record.text, player, t)
        intent = parsed.intent
        if self.asking is not None and self.asking.player == player and intent.kind not in intents.TALK:
            asked, self.asking = self.asking, None  # anything else from the player asked: the question lapses
            if intent.kind in ("yes", "no"):
                return self._answered(index, asked, intent.kind == "yes", quiet)
        if (intent.kind in intents.HOST or intent.kind in intents.QUESTIONS or intent.kind == "next") \
                and s.game.settles_at(windows=False) is not None:
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
                    return self.utterance(index, replace(record, text=fixed), quiet)
        if action is None and intent.kind in intents.TALK:  # talk, where the game has no phrase of its own for it
            return self._talk(index, intent.kind, player, quiet)
        if intent.kind in intents.WORDED:
            return self._worded(intent, player, quiet)
        if action is None:
            action = phrases.common.action(intent, player, t, s.players)
        if isinstance(action, E.Refused):
            return s.saying.events([action], quiet=quiet)
        events = None
        if isinstance(action, A.Answer) and (self.asking is not None or self._also_a_word(record.text)):
            events = s.game.step(action)  # a refusal leaves the game as it was
            if any(isinstance(e, E.Refused) and e.code == "no_vote" for e in events):
                if self.asking is not None:  # the host asked someone else
                    return s.saying.refuse("asked_another", {"player": self.asking.player}, quiet)
                action, events = A.PlayWord(t, player, intents.normalize(record.text)), None  # nobody asked: a play
        if isinstance(action, A.PlayWord):
            said = s.tick(t, quiet=quiet)  # what time settles first (a word in the tie window) decides the turn
            cost = s.game.interrupt_cost(player, action.word) if record.heard is not None else None
            if cost is not None and cost[0] - cost[1] <= 0:  # the rulebook's tip, for a word the host may have misheard
                self.asking = Asking(player, "interrupt", action.word, len(s.history.undoable))
                return said + s.saying.lines([s.announcer.confirm_interrupt(player, action.word, cost[0] - cost[1])],
                                             quiet)
            return said + self._act(index, action, quiet)
        return self._act(index, action, quiet, events)

    def answer_held(self, quiet: bool) -> list[str]:
        """Once the words before them are settled, the inputs held for the tie window,
        each answered in turn (a held 'repeat' says the answer just before it)."""
        s = self.session
        if not self.held or s.game.settles_at(windows=False) is not None:
            return []
        said, (held, self.held) = [], (self.held, [])
        for index in held:
            said += s.saying.remember(self.utterance(index, s.history.records[index], quiet))
            if s.saying.refused is not None:
                s.history.refuse(index)
        return said

    def _also_a_word(self, text: str) -> bool:
        """Whether an answer ("right", "correct", "wrong") is also a word a player may
        play: one dictionary word other than the plain answers (yes, no, yeah, ...)."""
        said = intents.normalize(text)
        return said not in intents.PLAIN_ANSWERS and " " not in said and said in self.session.words

    def _near_command(self, intent: Intent, player: str, t: float) -> str | None:
        """A typed near-miss of a command that is not a dictionary word, as the command
        ("chalenge" -> "challenge", "scroes" -> "scores"); None when it is no near-miss."""
        players, words = self.session.players, self.session.words
        fixed, changed = [], False
        for tok in intents.normalize(intent.text).split():
            if tok in intents.VOCABULARY or tok in words or intents.find_player(tok, players):
                fixed.append(tok)
                continue
            near = intents.nearest_command_word(tok)
            fixed.append(near or tok)
            changed = changed or near is not None
        if not changed:
            return None
        text = " ".join(fixed)
        again = intents.parse(text, players)
        if again.kind not in ("word", "unclear") or self._interpret(again, player, t) is not None:
            return text
        return None

    def _act(self, index: int, action: A.Action, quiet: bool, events: list | None = None) -> list[str]:
        """Apply ``action`` (or take the ``events`` the game already gave for it) and say what happened."""
        s = self.session
        if events is None:
            events = s.game.step(action)
        refused = any(isinstance(e, E.Refused) for e in events)
        if s.begun and isinstance(action, s.game.undoable_actions) and not refused:
            s.history.changed(index)
        said = getattr(action, "word", None) or [w for w, _ in getattr(action, "words", ())][-1:]
        if said and not refused:  # "spell it" spells the last word said
            self.last_word = said if isinstance(said, str) else said[0]
        return s.saying.events(events, quiet=quiet, answer=isinstance(action, A.Query))

    # ------------------------------------------------------------------ the host's questions answered
    def _answered(self, index: int, asked: Asking, yes: bool, quiet: bool) -> list[str]:
        """The player's yes or no to the host's question ``asked``."""
        s = self.session
        player, what, mark = asked.player, asked.what, asked.mark
        if asked.about == "undo":
            if not yes:
                return s.saying.lines([s.announcer.kept(player, what)], quiet)
            if s.history.undoable[-1:] != [mark]:  # something else was played since
                return s.saying.refuse("undo_passed", {"player": player, "text": what}, quiet)
            return self.undo(None, quiet)
        if not yes:
            return s.saying.lines([s.announcer.taken_back(player, what)], quiet)
        if len(s.history.undoable) != mark:  # the game moved on while the player thought about it
            return s.saying.refuse("moment_passed", {"word": what}, quiet)
        return self._act(index, A.PlayWord(s.t, player, what), quiet)

    # ------------------------------------------------------------------ undo
    def undo(self, player: str | None, quiet: bool) -> list[str]:
        """Take back the last input that changed the game: ``player``'s own, or (asked
        first) another player's; ``player`` None: the table's or the host's undo, anyone's.
        A finished game reopens as it was before that input (a mistyped last word put
        right: the final scores are said again when the game ends again; ruling 98)."""
        s, history = self.session, self.session.history
        own = history.last_input_of(player, s.players) if player is not None else None
        refused_for_good = own is not None and own in history.refusals and not s.game.finished
        if refused_for_good and (not history.undoable or own > history.undoable[-1]):  # after the end all is refused
            return s.saying.refuse("undo_refused", {"text": history.records[own].text}, quiet)  # it changed nothing
        if not history.undoable:
            return s.saying.refuse("nothing_to_undo", {}, quiet)
        target = history.undoable[-1]
        record = history.records[target]
        owner = intents.find_player(record.speaker, s.players) if isinstance(record, Said) else None
        if player is not None and owner is not None and owner != player:
            self.asking = Asking(owner, "undo", record.text, target)
            return s.saying.lines([s.announcer.confirm_undo(owner, player, record.text)], quiet)
        history.take_back(target, s.t if s.game.finished and record.t is not None else None)
        s.rebuild()
        what = f"{record.speaker}: {record.text}" if isinstance(record, Said) else \
            s.announcer.directive(record.name, record.args)
        return s.saying.lines([s.announcer.undone(what)], quiet) + s.ask(*s.game.status_questions, quiet=quiet)

    # ------------------------------------------------------------------ the host's own answers
    def _host_request(self, kind: str, player: str, quiet: bool, word: str | None = None,
                      heard: bool = False) -> list[str]:
        """What the host answers itself: what it said, the help, undo, its voice and detail
        (``word``: the word named to spell, else the last word said; ``heard``: asked
        aloud, so the help says how to put right a word heard wrong)."""
        s = self.session
        if kind == "repeat":
            return s.saying.lines(s.saying.last_said, quiet)
        if kind == "help":
            saved = shlex.quote(str(s.log.path)) if s.log is not None else None
            return s.saying.lines([s.announcer.help(phrases.help(s.game), s.game.moves, s.game.questions,
                                                    saved, heard)], quiet)
        if kind == "undo":
            return self.undo(player, quiet)
        if kind == "spell":
            return s.saying.lines([s.announcer.spelled(word or self.last_word)], quiet)
        if kind in ("brief", "full"):
            s.saying.detail(kind == "brief")
            return s.saying.lines([s.announcer.verbosity(kind == "brief")], quiet)
        steps = VOICE_STEPS[kind]
        adjust = getattr(s.saying.speak, "adjust", None)  # a voice that has controls (a plain print has none)
        if quiet:  # replaying the log: the voice keeps the pace it has now
            return []
        level = adjust(rate_step=steps[0], volume_step=steps[1]) if adjust is not None else None
        return s.saying.lines([s.announcer.voice_adjusted(kind, level)], quiet)

    def _talk(self, index: int, kind: str, player: str, quiet: bool) -> list[str]:
        """Table talk (host.intents.TALK), never a play: "wait" is given time, "stop"
        hushes the host, "next" is told whose turn it is, "thanks" needs no answer."""
        s = self.session
        if kind == "wait":
            return s.saying.lines([s.announcer.take_your_time()], quiet)
        if kind == "next":
            return self._act(index, A.Query(s.t, "turn", player), quiet)
        if kind == "quiet" and not quiet:
            hush = getattr(s.saying.speak, "hush", None)  # a voice that can stop (a plain print cannot)
            if hush is not None:
                hush()
        return []

    def _worded(self, intent, player: str, quiet: bool) -> list[str]:
        """A question the host words itself (host.intents.WORDED): from the dictionary ("is
        zax a word"), or from the game's answer to another ("who's winning" from the
        scores, "is it my turn" from whose turn it is); the game's own answer where it
        has no such report (the final result, a game of its own kind)."""
        s, kind = self.session, intent.kind
        if kind == "check":
            verdict = s.words.check(intent.word)
            value = s.game.word_value(intent.word.lower()) if verdict.ok else None
            return s.saying.lines([s.announcer.word_checked(intent.word, verdict.reason, value)], quiet)
        events = s.game.step(A.Query(s.t, "scores" if kind in ("leader", "rounds") else "turn", player))
        report = next((e for e in events if isinstance(e, (E.ScoresReport, E.StandingsReport, E.TurnReport))), None)
        if report is None or (kind == "rounds" and not isinstance(report, E.ScoresReport)) \
                or (kind == "leader" and len(report.standings) < 2):  # alone: the scores say how it goes
            return s.saying.events(events, quiet=quiet, answer=True)
        if kind == "leader":
            line = s.announcer.leader(report.standings)
        elif kind == "rounds":
            line = s.announcer.rounds_left(report.round, report.rounds)
        elif kind == "my_turn":
            line = s.announcer.my_turn(player, report)
        else:
            line = s.announcer.next_player(report)
        return s.saying.events([e for e in events if e is not report], quiet=quiet, answer=True) + \
            s.saying.lines([line], quiet)
