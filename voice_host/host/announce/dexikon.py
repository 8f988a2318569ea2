"""Dexikon's sentences: banked and spent words, challenges, last words, the sheets."""

from __future__ import annotations

from typing import Callable

from voice_host.games.dexikon import events as D
from voice_host.host.announce.dispatch import register, sentence
from voice_host.host.announce.text import names, plural, points, word_reason


REFUSALS: dict[str, Callable[..., str]] = {
    "need_points": lambda phrase, word: f"Say the points too, like '{phrase} {word} for 5'.",
    "not_your_turn": lambda player: f"It's {player}'s turn.",
    "already_banked": lambda word, by: f"{by} banked {word}: nobody can spell it again this game.",
    "say_bank_or_spend": lambda word: f"Say 'bank {word} for' its points, or 'spend {word}'.",
    "last_words": lambda **_: "The game is over: say 'last word', the word and its points.",
    "not_last_words": lambda **_: "Last words come at the end of the game.",
    "already_last": lambda word: f"Your last word is {word}.",
    "no_more_tries": lambda **_: "You have had two tries at a last word.",
    "no_challenge_pending": lambda **_: "Nobody is challenging your word.",
    "already_challenging": lambda word: f"You are already challenging {word}.",
    "too_few_penalties": lambda held: f"You have only {plural(held, 'penalty card')}.",
    "solo_only": lambda **_: "That is only for the solo game.",
}


SAID: dict[type, Callable[..., str]] = {
    D.WordBanked: lambda e: f"{e.player} banks {e.word} for {points(e.points)}: {plural(e.count, 'word')} banked.",
    D.ConcedeAsked: lambda e: f"{e.player}, do you concede {e.word}? Say concede, or check to look it up.",
    D.ChallengeJoined: lambda e: f"{e.challenger} joins the challenge of {e.word}.",
    D.LastWordTaken: lambda e: f"{e.player}'s last word: {e.word} for {points(e.points)}.",
    D.FinalTurn: lambda e: f"The pool deck is empty: this is {e.player}'s last turn.",
}
"""The sentences said in one line; the longer ones are functions below."""
register(SAID)


@sentence.register
def _(e: D.DexikonFacts) -> str:
    if e.kind == "banked":
        parts = [f"{p} " + (", ".join(f"{w} {n}" for w, n in banked) if banked else "none")
                 for p, banked, _, _ in e.rows]
        return "Banked words: " + "; ".join(parts) + "."
    if e.kind == "marks":
        return "Bonus marks: " + "; ".join(f"{p} {m}" for p, _, m, _ in e.rows) + "."
    return "Penalty cards: " + "; ".join(f"{p} {n}" for p, _, _, n in e.rows) + "."


@sentence.register
def _(e: D.DexikonStarted) -> str:
    if e.solo:
        return (f"Dexikon solo for {e.players[0]}: the game ends when you have banked {e.target} words "
                f"or the pool runs out; your best {e.best} count.")
    return (f"Dexikon for {names(e.players)}: the game ends when someone has banked {e.target} words; "
            f"the best {e.best} count.")


@sentence.register
def _(e: D.WordSpent) -> str:
    if e.word is None:
        return f"{e.player} spends."
    return f"{e.player} spends {e.word}" + (f" for {points(e.points)}." if e.points is not None else ".")


@sentence.register
def _(e: D.DexikonChallenged) -> str:
    many = len(e.challengers) > 1
    if e.outcome == "conceded":
        text = f"{e.player} concedes {e.word}: no marks, no penalties."
    elif e.outcome == "stands":
        return (f"It's in the dictionary: {e.word} stands. {e.player} wins a bonus mark; {names(e.challengers)} "
                + ("take a penalty card each." if many else "takes a penalty card."))
    else:
        why = word_reason(e.reason)
        text = (f"The challenge succeeds: {e.word} is void, {why}. {names(e.challengers)} "
                + ("win a bonus mark each" if many else "wins a bonus mark") + f"; {e.player} takes a penalty card.")
    if e.retry:
        return text + f" {e.player}, try another word."
    return text + (f" No third try: {e.player} has no last word." if e.kind == "last"
                   else f" No third try: {e.player}'s turn ends.")


@sentence.register
def _(e: D.LastWordsCalled) -> str:
    if e.players:
        text = f"{names(e.players)} {'has' if len(e.players) == 1 else 'have'} banked {e.target} words: the game is over."
    else:
        text = "The pool deck ran out: the game is over."
    return text + " Last words: say 'last word', the word and its points."


@sentence.register
def _(e: D.LastWordsWaiting) -> str:
    text = (f"Last words: waiting for a last word from {names(e.players)}" if e.players
            else "Last words: every last word is in")
    if e.open:
        words = [f"{p}'s {w}" for p, w in e.open]
        text += f"; {names(words)} can still be challenged"
    return text + "."


@sentence.register
def _(e: D.TallyNoted) -> str:
    if e.kind == "penalty":
        return f"{e.player} takes {plural(e.count, 'penalty card')}: {e.now} in all."
    if e.kind == "returned":
        return f"{e.player} returns {plural(e.count, 'penalty card')}: {e.now} left."
    if e.kind == "bonus":
        return f"{e.player}: {points(e.count)} from N and P cards."
    return f"{e.player} sets aside {plural(e.count, 'penalty', 'penalties')}: {e.now} in all, a point each."


@sentence.register
def _(e: D.DexikonSheet) -> str:
    banked = f"best {e.best} of {len(e.banked)} banked words, {e.best_points}" if e.banked else "no banked words"
    last = f"last word {e.last[0]}, {e.last[1]}" if e.last else "no last word"
    if e.rounds:
        banked += " (" + ", ".join(f"round {r}: {w} {n}" for (w, n), r in zip(e.banked, e.rounds)) + ")"
    text = f"{e.player}: {banked}; {last}; bonus {e.bonus}"
    if e.penalties:
        text += f"; {plural(e.penalties, 'penalty card')}, minus {e.penalty_points}"
    return text + f"; total {e.total}."
