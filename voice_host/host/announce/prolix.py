"""Prolix's sentences (every mode): the board, words and interrupts, the timer, challenges,
sheets; solo's targets, the duel's marks, Redux's turns."""

from __future__ import annotations

from typing import Callable

from voice_host.games.prolix import events as P
from voice_host.host.announce.dispatch import register, sentence
from voice_host.host.announce.text import names, plural, points


def board(e: P.BoardShown) -> str:
    parts = []
    for value, tiles in e.columns:
        if tiles:
            letters = ", ".join(f"{t.letter}+{t.bonus}" if t.bonus else t.letter for t in tiles)
        else:
            letters = "empty"
        parts.append(f"{points(value)}: {letters}")
    return "Board. " + "; ".join(parts) + "."


RULE_STEPS = {
    "plural": "changes the plural",
    "tense": "changes the tense",
    "ly": "adds or removes -ly",
    "ing": "adds or removes -ing",
}


def cheapie_reason(rule: str, path) -> str:
    """Why a word is a cheapie: one restriction, or the chain of them step by step."""
    if rule == "chain" and path:
        return "it only " + ", then ".join(f"{RULE_STEPS.get(r, r)} ({w})" for w, r in path)
    return "it only " + RULE_STEPS.get(rule, rule)


def set_aside(over: int) -> str:
    """The tiles to set aside when a draw breaks a limit: as many as it goes over."""
    return f"Set {'one' if over == 1 else over} aside and draw again."


REFUSALS: dict[str, Callable[..., str]] = {
    "not_scored": lambda word=None, **_: (f"{word} hasn't been scored in this game." if word
                                          else "No word has been scored yet."),
    "busy": lambda **_: "Let the current word or challenge finish first.",
    "board_incomplete": lambda **_: "The board needs a tile on every space.",
    "no_draw_due": lambda **_: "No tiles are due to be drawn right now.",
    "draw_count": lambda count, need: f"I need {plural(need, 'tile')} for the empty spaces, not {count}.",
    "no_such_tile": lambda letter: f"There is no {letter} tile in this set.",
    "too_many_rare": lambda letters, limit: f"That would put {len(letters)} rare tiles on the board ({names(letters)}); the limit is {limit}. {set_aside(len(letters) - limit)}",
    "too_many_same": lambda letter, count, limit: f"That would put {count} {letter} tiles on the board; the limit is {limit}. {set_aside(count - limit)}",
    "board_size": lambda count, size: f"A board has {size} tiles, not {count}: give all {size}, leftmost column first, top before bottom.",
    "no_room": lambda count: f"There is no room on the board for {plural(count, 'more tile')}.",
    "barred": lambda word: f"{word} lost a challenge this game and can't be played.",
    "cheapie": lambda word, earlier, by, rule, path=(): (
        f"No cheapies: {word} can't be played, {by} already played {earlier} and {cheapie_reason(rule, path)}."
        if rule != "same" else f"No cheapies: {by} already played {earlier}."
    ),
    "already_said": lambda word: f"You already said {word}.",
    "timer_holder": lambda player: f"{player}, you flipped the timer, so you can't interrupt.",
    "no_interrupts_left": lambda player: f"{player}, you have no interrupts left.",
    "wait_for_draw": lambda drawer: f"Wait until {drawer} has drawn the new tiles.",
    "out_of_game": lambda player: f"{player} is out of the game, having used every interrupt.",
    "active_cannot_flip": lambda **_: "The active player can't flip the timer.",
    "word_already_said": lambda **_: "A word has already been said; the timer can't be flipped now.",
    "timer_running": lambda holder, left: (
        f"The timer is already running in front of {holder}, {plural(left, 'second')} left."
        if holder else f"The timer is still running out in the middle; {plural(left, 'second')} left."
    ),
    "no_vote": lambda **_: "Nobody asked a yes or no question.",
    "last_word_open": lambda words: (
        f"That was the last turn: only a challenge of {names([w for _, w in words])} can change the result now."),
    "not_a_voter": lambda player, word: f"{player}, the vote on {word} is for the players not involved.",
    "already_voted": lambda player: f"{player}, you already voted.",
}
"""Prolix's own refusals: the board, the timer, interrupts, No Cheapies, the challenge vote."""


SAID: dict[type, Callable[..., str]] = {
    P.BoardShown: lambda e: board(e),
    P.AwaitDraw: lambda e: f"{e.drawer}, draw {plural(e.count, 'tile')} and tell me the letters.",
    P.WordScored: lambda e: f"{e.player} scores {points(e.value)} for {e.word}.",
    P.TimerFlipped: lambda e: f"{e.player} flips the timer: {e.seconds} seconds.",
    P.TimerExpired: lambda e: f"Time! The timer interrupts {e.active}." if e.interrupts else "Time!",
    P.TurnLost: lambda e: f"{e.player} was interrupted twice and scores zero for round {e.round}.",
    P.VoteAsked: lambda e: f"{names(e.voters)}: do you know the word {e.word}? Say yes or no.",
    P.PlayerOut: lambda e: f"{e.player} has used every interrupt and is out of the game.",
    P.TimeLeft: lambda e: f"{plural(e.seconds, 'second')} left.",
    P.Scratch: lambda e: f"Scratch: {e.word} would score {e.value}.",
    P.WordTaken: lambda e: f"{e.player}: {e.word}, noted.",
    P.LastChallenge: lambda e: (f"That was the last word. Challenge {names([w for _, w in e.words])} now, "
                                f"or the final scores come in {plural(e.seconds, 'second')}."),
}
"""The sentences said in one line; the longer ones are functions below."""
register(SAID)


@sentence.register
def _(e: P.TilesDrawn) -> str:
    who = f"{e.drawer} draws" if e.drawer else "Drawn"
    text = f"{who} {names(e.letters)}."
    if e.refilled:
        text = "The bag was empty, so the discards went back in. " + text
    if e.set_aside:
        text += f" Set aside and returned: {names(e.set_aside)}."
    return text


@sentence.register
def _(e: P.Interrupted) -> str:
    return (f"{e.player} interrupts {e.active} with {e.word}: {e.value}, minus {e.penalty}, "
            f"scores {e.score}.")


@sentence.register
def _(e: P.TieBreak) -> str:
    said = "; ".join(f"{p} {w} {v}" for p, w, v in e.entries)
    return f"Tiebreaker: {said}. {names(e.winners)} {'wins' if len(e.winners) == 1 else 'win'} it."


@sentence.register
def _(e: P.InterruptsReport) -> str:
    parts = [f"{p} out, every interrupt used" if out else f"{p} {left} left, {used} used"
             for p, used, left, out in e.rows]
    return "Interrupts: " + "; ".join(parts) + "."


@sentence.register
def _(e: P.HowScored) -> str:
    tiles = ", ".join(f"{letter} {n}" for letter, n in e.tiles) or "no tiles"
    head = f"{e.word}, {e.player}'s" + (f" {'scratch word' if e.kind == 'scratch' else 'word'}")
    head += f" in round {e.round}" if e.round else ""
    text = f"{head}: {tiles}: {e.value}"
    if e.penalty and e.kind == "interrupt":
        text += f", minus {e.penalty} for the interrupt is {e.value - e.penalty}"
    elif e.penalty:
        text += f", minus the handicap of {e.penalty} is {e.value - e.penalty}"
    if e.kind == "tiebreak":
        text += ", but it lost the tiebreak and scored nothing"
    return text + "."


@sentence.register
def _(e: P.SheetReport) -> str:
    regular = ", ".join(
        (f"round {r} {w} {s}" if w else f"round {r} zero") + ("" if counts else " crossed out")
        for w, s, counts, r in e.regular
    ) or "none"
    inter = ", ".join(f"round {r} {w} {v} minus {p} is {s}" for w, v, p, s, r in e.interrupts) or "none"
    text = f"{e.player}'s sheet. Regular: {regular}. Interrupts: {inter}."
    if e.failed_challenges:
        text += f" Failed challenges: {e.failed_challenges}."
    return text + f" Total {e.total}."


@sentence.register
def _(e: P.TimerStarted) -> str:
    if e.player is None:
        return f"The timer is running: {e.seconds} seconds."
    return f"{e.player} starts the timer: {e.seconds} seconds."


@sentence.register
def _(e: P.TargetCheck) -> str:
    if e.reached is None:
        return f"Round {e.round}: reach {e.target} to stay alive; you have {e.total}."
    if e.reached:
        return f"{e.total} in all: the target of {e.target} is reached."
    return f"{e.total} in all: short of the target of {e.target}. The game is lost."


@sentence.register
def _(e: P.BestLater) -> str:
    return f"{e.player}, I'll tell you the best word once you have committed yours."


@sentence.register
def _(e: P.BestWord) -> str | None:
    if not e.words:
        return None
    word, value = e.words[0]
    if e.played is not None and e.played >= value:
        return "That was the best word the board allowed."
    return f"The best word on that board was {word}, for {value}."


@sentence.register
def _(e: P.DuelRoundStarted) -> str:
    text = f"Round {e.round}."
    if e.handicap:
        text += f" {e.handicap[0]} leads and carries a handicap of {e.handicap[1]}."
    return text


@sentence.register
def _(e: P.DuelScored) -> str:
    parts = []
    for player, word, value, net in e.entries:
        said = f"{player} {word} {value}" if word else f"{player} no word"  # no word scores 0 (ruling 26)
        if word and net != value:
            said += f", minus {value - net} is {net}"
        parts.append(said)
    tail = f"{e.winner} takes the mark" + (", having flipped the timer on a tie." if e.by_tie else ".")
    return "; ".join(parts) + ". " + tail


@sentence.register
def _(e: P.MarkAwarded) -> str:
    marks = ", ".join(f"{p} {n}" for p, n in e.marks)
    if e.reason == "challenge":
        return f"The mark goes to {e.player}. Marks: {marks}."
    return f"Marks: {marks}."


@sentence.register
def _(e: P.Passed) -> str:
    return f"{e.player} passes: no word this turn, minus 1." if e.active else f"{e.player} passes."


@sentence.register
def _(e: P.ReduxScored) -> str:
    parts = []
    for player, word, value, mark in e.entries:
        said = f"{player} {word} {value}" if word else f"{player} no word"
        if mark:
            said += f", {'plus' if mark > 0 else 'minus'} {abs(mark)}"
        parts.append(said)
    return f"Round {e.round} scores: " + "; ".join(parts) + "."  # a Redux round is one turn (ruling 29)
