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
        said = f"{player} {word} {value}" if word else f"{player} no word"
        if net != value:
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
def _(e: P.ReduxScored) -> str:
    parts = []
    for player, word, value, mark in e.entries:
        said = f"{player} {word} {value}" if word else f"{player} no word"
        if mark:
            said += f", {'plus' if mark > 0 else 'minus'} {abs(mark)}"
        parts.append(said)
    return f"Turn {e.round} scores: " + "; ".join(parts) + "."
