"""The host loop: input records in, logged first, understood, applied, announced.

A record (host.records: Said, Directive, Wait, Begin, Unreadable) comes from a script
line, a typed line or the speech layer. The session writes it to the event log before
anything else, turns it into a game action (host.intents), steps the game, and hands the
sentences of the resulting events to ``speak``. Undo drops the last input that changed the game and
replays the rest; repeat says the last announcement again.
"""

from __future__ import annotations

import shlex
from dataclasses import dataclass, field, replace
from typing import Callable, NamedTuple

from voice_host.games import actions as A
from voice_host.games import events as E
from voice_host.games.base import REGISTRY, Game, Setup
from voice_host.games.errors import Unplayable
from voice_host.games.prolix import actions as prolix_actions
from voice_host.games.prolix import events as prolix_events
from voice_host.host import announce, intents, phrases
from voice_host.host.announce import Announcer
from voice_host.host.log import EventLog
from voice_host.host.records import Begin, Directive, Header, Record, Said, Unreadable, Wait, record as as_record

BRIEF_SKIPS = (prolix_events.BoardShown, prolix_events.TilesDrawn, E.StartDraws)
"""What brief leaves out unless asked: the board, the tiles drawn."""

CHANGES = (A.PlayWord, A.Challenge, prolix_actions.FlipTimer, A.Answer, prolix_actions.SetBoard, prolix_actions.Draw,
           A.Move)
"""Actions that undo can take back once the game has begun (when they were not refused)."""


class Asking(NamedTuple):
    """A yes or no question the host asked one player."""

    player: str
    about: str
    """"interrupt" (a worthless interrupt heard) or "undo" (another player asked to undo it)."""
    what: str
    """The word, or the input's text."""
    mark: int
    """interrupt: how many changes the game had when asked; undo: the record it would take back."""


def create_game(header: Header, words) -> Game:
    """A fresh game from a log header (game, players, seed, config); a game that cannot be
    set up as asked is a ValueError saying why."""
    cls = REGISTRY[header.game]
    setup = Setup(tuple(header.players), header.seed)
    try:
        return cls.create(setup, header.config, words)
    except Unplayable as exc:
        raise ValueError(announce.reason(exc.code, exc.params)) from None


def new_header(game: str, players: list[str], seed: int | None, cfg: dict, **extra) -> Header:
    """What the event log's first line records; a missing seed is drawn once here."""
    if game not in REGISTRY:
        raise ValueError(f"There is no game called {game}; choose one of {', '.join(sorted(REGISTRY))}.")
    return Header.new(game, players, seed, cfg, **extra)


@dataclass
class Session:
    header: Header
    words: object
    speak: Callable[[str], None] = print
    log: EventLog | None = None
    announcer: Announcer = field(default_factory=Announcer)
    cue: Callable[[list[E.Event], float], None] | None = None
    """Called with each announced step's events and the game time, before their sentences
    are said (host.cues.Cues: earcons)."""

    def __post_init__(self) -> None:
        self.game = create_game(self.header, self.words)
        self.records: list[Record] = []
        self.undone: set[int] = set()
        self.refusals: set[int] = set()
        """Records refused when they were applied: refused for good, never replayed by an undo."""
        self.undoable: list[int] = []
        self.last_said: list[str] = []
        self.begun = False
        self.heard = False
        """The table's words are heard (host.hearing listens), so may be heard wrong."""
        self.t = 0.0
        self.refused: str | None = None
        """The refusal said for the last input applied, if it was refused."""
        self.addressee: str | None = None
        """The player whose input is being applied: a refusal that says "you" names them."""
        self._host_state()

    def _host_state(self) -> None:
        """What the host keeps besides the game (rebuilt with it on undo)."""
        self.asking: Asking | None = None
        """A yes or no question the host asked one player (a worthless interrupt, an undo)."""
        self.last_word: str | None = None
        """The last word said that the game took, for "spell it"."""
        self.brief = self.header.config.get("table", {}).get("verbosity", "full") == "brief"
        """Brief: scores and whose turn; full: the board after every move too."""
        self.held: list[int] = []
        """Questions and host requests said while words wait on the tie window: answered
        once those words are settled, so that they are about the game with them."""

    @property
    def players(self) -> list[str]:
        return list(self.header.players)

    # ------------------------------------------------------------------ feeding
    def feed(self, record: Record | dict, *, quiet: bool = False) -> list[str]:
        """Log, apply and announce one input record (a dict: its JSON); returns the
        sentences said."""
        record = as_record(record)
        said = self._held_until(record, quiet)
        if self.log is not None:
            self.log.append(record)
        self.records.append(record)
        return said + self._apply(len(self.records) - 1, quiet=quiet)

    def begin(self, t: float, *, quiet: bool = False) -> list[str]:
        """Begin the game at ``t`` unless it has begun (logged: the opening is an input)."""
        return [] if self.begun else self.feed(Begin(t), quiet=quiet)

    def play(self, record: Record, *, quiet: bool = False) -> list[str]:
        """Feed a record, beginning the game first when the record needs it running
        (everything but table setup and unreadable lines)."""
        match record:
            case Directive(name="start" | "board") | Unreadable():
                said = []
            case _:
                said = self.begin(record.t, quiet=quiet)
        return said + self.feed(record, quiet=quiet)

    def opening(self) -> list[str]:
        """What the host will say when the game begins (its intro, the draw, the board,
        whose turn), known before it does: a silent twin of the session begins it. Empty
        once begun."""
        return [] if self.begun else self._twin().begin(self.t)

    def answer_once(self, played: Record | None, question: Said) -> list[str]:
        """What the host would answer to ``question`` (about the game) once ``played``, a
        word it is still asking about, were played and scored: a silent twin of the game
        plays it, then hears the question. Nothing here is logged or changed."""
        twin = self._twin()
        if played is not None:
            twin.play(played, quiet=True)
            twin.settle(windows=False, quiet=True)
        return twin.play(question)

    def _twin(self) -> "Session":
        """A silent copy of the game so far."""
        twin = Session(self.header, self.words, speak=lambda _: None, announcer=self.announcer)
        twin.replay(self.records)
        return twin

    def tick(self, t: float, *, quiet: bool = False) -> list[str]:
        """Let the clock run to ``t`` (not logged: replay reaches the same events)."""
        self.t = max(self.t, t)
        said = self._remember(self._say(self.game.step(A.Tick(self.t)), quiet=quiet))
        if self.held and self.game.settles_at(windows=False) is None:  # the words before them are settled
            held, self.held = self.held, []
            for index in held:  # each answered in turn: a held 'repeat' says the answer just before it
                said += self._remember(self._utterance(index, self.records[index], quiet))
                if self.refused is not None:
                    self.refusals.add(index)
        return said

    def _held_until(self, record: Record, quiet: bool) -> list[str]:
        """Before the next input: the clock to its time, so that what was held for the tie
        window is answered first (and with the records it knew)."""
        if self.held and record.t is not None:
            return self.tick(float(record.t), quiet=quiet)
        return []

    def settle(self, *, windows: bool = True, quiet: bool = False) -> list[str]:
        """Let the clock run until nothing waits on it (end of a script): the words in
        the tie window scored, then (with ``windows``) the windows the table could still
        act in closed, such as the last word's challenge window. A break (Ctrl-C, a
        resume at a terminal) settles without ``windows``: they stay open for later."""
        said, last = [], None
        while (t := self.game.settles_at(windows)) is not None and t != last:
            said += self.tick(t, quiet=quiet)
            last = t
        return said

    def replay(self, records: list[Record]) -> None:
        """Rebuild from a log's records, silently."""
        for record in map(as_record, records):
            self._held_until(record, quiet=True)
            self.records.append(record)
            self._apply(len(self.records) - 1, quiet=True)

    # ------------------------------------------------------------------ applying
    def _apply(self, index: int, *, quiet: bool) -> list[str]:
        said = self._apply_record(index, quiet=quiet)
        if self.refused is not None:
            self.refusals.add(index)
        return said

    def _apply_record(self, index: int, *, quiet: bool) -> list[str]:
        record = self.records[index]
        self.refused, self.addressee = None, None
        if record.t is not None:
            self.t = max(self.t, float(record.t))
        # the clock reaches the input's time before the input, whatever its source (a script,
        # typed or heard) and in a replay alike, so that a resumed game is the game played
        said = self.tick(self.t, quiet=quiet) if self.begun else []
        return said + self._remember(self._apply_input(index, record, quiet))  # the answer 'repeat' says again

    def _apply_input(self, index: int, record: Record, quiet: bool) -> list[str]:
        match record:
            case Begin():
                self.begun = True
                return self._say(self.game.step(A.Begin(self.t)), quiet=quiet)
            case Wait():
                return self.tick(self.t, quiet=quiet)
            case Unreadable(error=code, text=text):
                return self._refuse(code, {"text": text}, quiet)
            case Directive():
                return self._directive(index, record, quiet)
            case Said():
                return self._utterance(index, record, quiet)
        raise TypeError(f"not an input record: {record!r}")

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
        longest = getattr(self.words, "longest", None)
        tokens = intents.normalize(record.text).split()
        if longest and any(len(w) > longest for w in tokens):  # no word can be longer: refuse it whole
            return self._refuse("too_long", {"letters": max(map(len, tokens)), "longest": longest}, quiet)
        intent = intents.parse(record.text, self.players)
        t = self.t
        if self.asking is not None and self.asking.player == player:
            asked, self.asking = self.asking, None  # anything else from the player asked: the question lapses
            if intent.kind in ("yes", "no"):
                return self._answered(index, asked, intent.kind == "yes", quiet)
        if (intent.kind in intents.HOST or intent.kind in intents.QUESTIONS) \
                and self.game.settles_at(windows=False) is not None:
            self.held.append(index)  # answered once the words said just before are settled
            return []
        if intent.kind in intents.HOST:
            return self._host_request(intent.kind, player, quiet, intent.word)
        action = None
        if intent.kind not in intents.QUESTIONS:  # a question is never a game's phrase, nor a word
            action = self.interpret(intent, player, t)  # the game's own phrases come first
            if action is None and intent.kind in ("word", "unclear"):
                fixed = self._near_command(intent, player, t)  # "chalenge" is the command, not a word
                if fixed is not None:
                    return self._utterance_as(index, record, fixed, quiet)
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
        return said not in intents.PLAIN_ANSWERS and " " not in said and hasattr(self.words, "__contains__") \
            and said in self.words

    def interpret(self, intent: intents.Intent, player: str, t: float) -> A.Action | E.Refused | None:
        """The game's own reading of an utterance (host.phrases); None leaves it to the table's."""
        return phrases.parse(self.game.name, intent.text, player, t)

    def _utterance_as(self, index: int, record: Said, text: str, quiet: bool) -> list[str]:
        """Apply an utterance read as ``text`` (a near-miss of a command, corrected)."""
        return self._utterance(index, replace(record, text=text), quiet)

    def _near_command(self, intent: intents.Intent, player: str, t: float) -> str | None:
        """A typed near-miss of a command that is not a dictionary word, as the command
        ("chalenge" -> "challenge", "scroes" -> "scores"); None when it is no near-miss."""
        if not hasattr(self.words, "__contains__"):
            return None
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

    def _host_request(self, kind: str, player: str, quiet: bool, word: str | None = None) -> list[str]:
        """What the host answers itself: what it said, the help, undo, its voice and detail
        (``word``: the word named to spell, else the last word said)."""
        if kind == "repeat":
            return self._say_lines(self.last_said, quiet)
        if kind == "help":
            saved = shlex.quote(str(self.log.path)) if self.log is not None else None
            return self._say_lines([self.announcer.help(phrases.help(self.game), self.game.moves, self.game.questions,
                                                        saved, self.heard)], quiet)
        if kind == "undo":
            return self._undo(player, quiet)
        if kind == "spell":
            return self._say_lines([self.announcer.spelled(word or self.last_word)], quiet)
        if kind in ("brief", "full"):
            self.brief = kind == "brief"
            return self._say_lines([self.announcer.verbosity(self.brief)], quiet)
        # slower, faster, louder, softer: the voice's own controls (speech.voice.TtsVoice.adjust)
        steps = {"slower": (-1, 0), "faster": (1, 0), "softer": (0, -1), "louder": (0, 1)}[kind]
        adjust = getattr(self.speak, "adjust", None)
        if quiet:  # replaying the log: the voice keeps the pace it has now
            return []
        level = adjust(rate_step=steps[0], volume_step=steps[1]) if adjust is not None else None
        return self._say_lines([self.announcer.voice_adjusted(kind, level)], quiet)

    def _act(self, index: int, action: A.Action, quiet: bool, events: list | None = None) -> list[str]:
        """Apply `action` (or take the `events` the game already gave for it) and say what happened."""
        if events is None:
            events = self.game.step(action)
        refused = any(isinstance(e, E.Refused) for e in events)
        if self.begun and isinstance(action, CHANGES) and not refused:
            self.undoable.append(index)
        said = getattr(action, "word", None) or [w for w, _ in getattr(action, "words", ())][-1:]
        if said and not refused:  # "spell it" spells the last word said
            self.last_word = said if isinstance(said, str) else said[0]
        asked = isinstance(action, A.Query)
        return self._say(events, quiet=quiet, answer=asked)

    def _undo(self, player: str | None, quiet: bool) -> list[str]:
        """Take back the last input that changed the game: ``player``'s own, or (asked
        first) another player's; ``player`` None: the table's or the host's undo, anyone's.
        A finished game stays finished."""
        own = self._last_input_of(player) if player is not None else None
        if own is not None and own in self.refusals and (not self.undoable or own > self.undoable[-1]):
            return self._refuse("undo_refused", {"text": self.records[own].text}, quiet)  # it changed nothing
        if not self.undoable:
            return self._refuse("nothing_to_undo", {}, quiet)
        target = self.undoable[-1]
        record = self.records[target]
        owner = intents.find_player(record.speaker, self.players) if isinstance(record, Said) else None
        if self.game.finished and self._would_reopen(target):  # the game's end is final (ruling 59)
            return self._refuse("game_over", self.game.final_result(), quiet)
        if player is not None and owner is not None and owner != player:
            self.asking = Asking(owner, "undo", record.text, target)
            return self._say_lines([self.announcer.confirm_undo(owner, player, record.text)], quiet)
        self.undone.add(target)
        self._rebuild()
        what = f"{record.speaker}: {record.text}" if isinstance(record, Said) else \
            self.announcer.directive(record.name, record.args)
        return self._say_lines([self.announcer.undone(what)], quiet) + self.ask(
            *self.game.status_questions, quiet=quiet)

    def _last_input_of(self, player: str) -> int | None:
        """The record of the player's last input before this one, undo requests aside."""
        said = [i for i, r in enumerate(self.records[:-1]) if isinstance(r, Said) and not self._is_undo(r)
                and intents.find_player(r.speaker, self.players) == player]
        return said[-1] if said else None

    def _would_reopen(self, target: int) -> bool:
        """Whether taking back record ``target`` would reopen the finished game (tried,
        then put back as it was)."""
        refusals = set(self.refusals)
        self.undone.add(target)
        self._rebuild()
        reopened = not self.game.finished
        self.undone.discard(target)
        self.refusals = refusals
        self._rebuild()
        return reopened

    def _rebuild(self) -> None:
        """Replay every record but the undone ones, the refused ones and the undo
        commands themselves."""
        self.game = create_game(self.header, self.words)
        self._host_state()
        self.undoable, self.begun, t_now, self.t = [], False, self.t, 0.0
        for i, record in enumerate(self.records):
            if i in self.undone or i in self.refusals or self._is_undo(record):
                continue
            self._apply(i, quiet=True)
        self.t = t_now
        self.game.step(A.Tick(t_now))

    def _is_undo(self, record: Record) -> bool:
        if isinstance(record, Directive):
            return record.name == "undo"
        return isinstance(record, (Said, Unreadable)) and intents.parse(record.text, self.players).kind == "undo"

    def say(self, line: str) -> None:
        """Say one host sentence that is not about the game state (questions to the table)."""
        self._remember(self._say_lines([line], False))

    def ask(self, *kinds: str, quiet: bool = False) -> list[str]:
        """Answer questions (board, scores, turn, words) aloud."""
        events = [e for kind in kinds for e in self.game.step(A.Query(self.t, kind))]
        return self._remember(self._say(events, quiet=quiet, answer=True))

    # ------------------------------------------------------------------ speaking
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
        if self.brief and not answer:  # brief: scores and whose turn, the board only when asked
            events = [e for e in events if not isinstance(e, BRIEF_SKIPS)]
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

    def meanings_after(self, first: int) -> list[tuple[str, str]]:
        """From record ``first`` on (the inputs after a line a damaged log lost), each input
        that counted as an interrupt or was refused: (what was said, "interrupt" or
        "refused"), for the table to check what the lost line changed. Words still waiting
        on the tie window are taken as they will be scored (a silent twin settles them)."""
        twin = Session(self.header, self.words, speak=lambda _: None, announcer=self.announcer)
        twin.replay(self.records)
        twin.settle(windows=False, quiet=True)
        interrupts = {(p["name"], w["word"]) for p in twin.game.result()["players"] for w in p.get("words", ())
                      if w.get("kind") == "interrupt"}
        out = []
        for i in range(first, len(self.records)):
            record = self.records[i]
            if isinstance(record, Said):
                player = intents.find_player(record.speaker, self.players)
                said = intents.normalize(record.text).split()
                if i in self.refusals:
                    out.append((f"{record.speaker}'s '{record.text}'", "refused"))
                elif any((player, w) in interrupts for w in said):
                    out.append((f"{record.speaker}'s '{record.text}'", "interrupt"))
            elif isinstance(record, Directive) and i in self.refusals:
                out.append(("'@" + " ".join([record.name, *record.args]) + "'", "refused"))
        return out

    def result(self) -> dict:
        """The game's result, its teams named as the table hears them."""
        return announce.labelled(self.game.result())
