"""The sentences of the events every game shares: the start, turns, challenges, rounds,
the end, and the facts asked for (scores, turn, time, bag, words, sheets)."""

from __future__ import annotations

from typing import Callable

from voice_host.games import events as E
from voice_host.host.announce import refusals
from voice_host.host.announce.dispatch import register, sentence
from voice_host.host.announce.text import names, plural, points, side, standings, word_reason


SHEET_NOTES = {"not_counted": "doesn't count", "illegal_bell": "illegal bell"}
"""A sheet line's notes said otherwise than their code."""


SAID: dict[type, Callable[..., str]] = {
    E.Refused: lambda e: refusals.reason(e.code, e.params),
    E.StartSet: lambda e: f"{e.player} starts.",
    E.ChallengeRaised: lambda e: f"{e.challenger} challenges {e.player}'s {e.word}.",
    E.RoundOver: lambda e: f"End of round {e.round}. Scores: {standings(e.standings)}.",
    E.ScoresReport: lambda e: f"Round {e.round} of {e.rounds}. Scores: {standings(e.standings)}.",
    E.StandingsReport: lambda e: f"Scores: {standings(e.standings)}.",
}
"""The sentences said in one line; the longer ones are functions below."""
register(SAID)


@sentence.register
def _(e: E.GameStarted) -> str:
    title = e.game.replace("-", " ").title()
    length = f"first to {plural(e.marks, 'mark')} wins" if e.marks else plural(e.rounds, "round")
    return f"{title} for {names(e.players)}: {length}."


@sentence.register
def _(e: E.StartDraws) -> str:
    parts = []
    for i, draw in enumerate(e.draws):
        said = ", ".join(f"{p} {letter}" for p, letter in draw)
        parts.append(("Redraw: " if i else "Drawing for first player: ") + said + ".")
    return " ".join(parts) + f" {e.start} starts."


@sentence.register
def _(e: E.TurnStarted) -> str:
    if e.again:
        return f"{e.player}, go again."
    return f"Round {e.round}: {e.player}'s turn."


@sentence.register
def _(e: E.ChallengeResolved) -> str:
    if e.stands:
        how = "The table knows it" if e.by_vote else "It's in the dictionary"
        cost = f" and costs {points(e.penalty)} at the end" if e.penalty else ""
        return f"{how}: {e.word} stands. {e.challenger}'s challenge fails{cost}."
    why = word_reason(e.reason)
    return f"The challenge succeeds: {e.word} is void, {why}."


@sentence.register
def _(e: E.GameOver) -> str:
    if len(e.standings) == 1:
        one = e.standings[0]
        return f"Game over. {one.player} finishes with {points(one.total)}" + (
            ": a win!" if e.winners else ".")
    text = f"Game over. Final scores: {standings(e.standings)}."
    if e.tiebreak == "tie":
        return text + f" {names(e.winners)} tie and share the victory."
    if e.tiebreak == "shared":
        return text + f" {names(e.winners)} tie on points and on every word, and share the victory."
    winner = e.winners[0] if e.winners else None
    wins = "win" if isinstance(winner, tuple) else "wins"  # a team (partners) win
    if e.tiebreak == "best_word":
        return text + f" {side(winner)} {wins} the tie on the best single word."
    if not e.winners:
        return text
    return text + f" {side(winner)} {wins}!"


@sentence.register
def _(e: E.TurnReport) -> str:
    if e.player is None:
        return "Nobody's turn: the game is over." if e.over else "Nobody's turn yet: the game hasn't begun."
    text = f"Round {e.round}: {e.player}'s turn."
    if e.waiting_for:
        text += f" Waiting for {e.waiting_for} to draw."
    if e.timer_holder:
        text += f" The timer is in front of {e.timer_holder}, {plural(round(e.timer_left or 0), 'second')} left."
    elif e.timer_left:
        text += f" {plural(round(e.timer_left), 'second')} left."
    return text


@sentence.register
def _(e: E.TimeReport) -> str:
    if e.word is not None:
        return (f"{plural(e.seconds or 0, 'second')} left to challenge {e.holder}'s {e.word}."
                if e.holder else f"{plural(e.seconds or 0, 'second')} left to challenge {e.word}.")
    if not e.timer:
        return "Nothing is on the clock in this game."
    if e.seconds is None:
        return "The timer isn't running."
    left = f"{plural(e.seconds, 'second')} left"
    return f"{left}, the timer in front of {e.holder}." if e.holder else f"{left} on the timer."


@sentence.register
def _(e: E.BagReport) -> str:
    if e.tiles is None:
        return "I'm not counting the bag: say 'bag empty' when it runs out."
    if e.tiles == 0:
        return "The bag is empty."
    return f"{plural(e.tiles, 'tile')} left in the bag."


@sentence.register
def _(e: E.VoidedReport) -> str:
    if not e.words:
        return "No word has been voided."
    parts = [w + (f" by {p}" if p else "") + (f" in round {r}" if r else "") for w, p, r in e.words]
    return "Voided by a challenge: " + ", ".join(parts) + "."


@sentence.register
def _(e: E.RoundsSheet) -> str:
    lines = []
    for rnd, word, score, notes in e.lines:
        if word is None and notes in (("pass",), ("mulligan",)):
            lines.append(f"round {rnd}: {notes[0]}")
            continue
        if isinstance(word, tuple) and len(word) == 1:  # a road play of one word: its points are the play's
            said = f"round {rnd}: {word[0][0]} {word[0][1]}"
        else:
            if isinstance(word, tuple):  # a road play: each word and its points, then the play's
                word = " and ".join(f"{w} {n}" for w, n in word)
            said = f"round {rnd}: {word or 'no word'} for {score}"
        note = ", ".join(SHEET_NOTES.get(n, n) if isinstance(n, str) else f"{'plus' if n > 0 else 'minus'} {abs(n)}"
                         for n in notes)
        lines.append(said + (f" ({note})" if note else ""))
    total = str(e.total) if e.unit == "point" else plural(e.total, e.unit)
    return f"{e.player}'s sheet" + (". " + "; ".join(lines) if lines else ": nothing yet") + f". Total {total}."


@sentence.register
def _(e: E.WordsReport) -> str:
    if not e.words:
        return "No words have been played yet."
    notes = e.notes or (None,) * len(e.words)
    return "Words played: " + ", ".join(f"{w} by {p}{WORD_NOTES[n]}" for (w, p), n in zip(e.words, notes)) + "."


WORD_NOTES = {None: "", "voided": " (voided)", "illegal_bell": " (an illegal bell)"}
"""What a word's note in the list of words played says."""
