"""Phlounder's sentences: the dice, the bell, the reports, the scored rounds."""

from __future__ import annotations

from typing import Callable

from voice_host.games.phlounder import events as F
from voice_host.host.announce.dispatch import register, sentence
from voice_host.host.announce.text import WORD_REASONS, names, side, signed


KINDS = {"N": "noun", "V": "verb", "*": "word"}

FAULTS = {
    "no_word": "no word",
    "too_short": "it is too short",
    "too_long": "it is longer than the number die allows",
    "length": "it is the wrong length",
    "not_noun": "it is not a noun",
    "not_verb": "it is not a verb",
    "unused": "letters were left unused",
    **WORD_REASONS,
}
"""Why a Phlounder word does not count."""


def target_phrase(t: F.Target) -> str:
    """What the dice ask for: "a 5-letter noun", "any word of 4 to 7 letters"."""
    kind = KINDS[t.letter]
    if t.number == "*":
        return f"{'any word' if t.letter == '*' else 'a ' + kind} of {t.lengths[0]} to {t.lengths[1]} letters"
    return f"{'any' if t.letter == '*' else 'a'} {t.number}-letter {kind}"


def phlounder_line(ln: F.PhlounderLine, bonus: int | None) -> str:
    """One player's part of a scored round; ``bonus``: the ringer's win bonus, said with the word."""
    if ln.word is None:
        return f"{ln.player} no word" + (f", {ln.unused} unused: minus {ln.unused}" if ln.unused else ": 0")
    if ln.fault is not None:
        return f"{ln.player} {ln.word} doesn't count, {FAULTS.get(ln.fault, ln.fault)}: {signed(ln.score)}"
    if bonus is not None:
        return f"{ln.player} rang with {ln.word}: {bonus} plus {ln.score} is {bonus + ln.score}"
    said = f"{ln.player} {ln.word} {len(ln.word)}"
    return said + (f", minus {ln.unused} unused is {ln.score}" if ln.unused else "")


REFUSALS: dict[str, Callable[..., str]] = {
    "bad_dice": lambda faces, count: (
        f"'{faces}' isn't a roll of these dice: give {count} faces, like '@dice {'5N*' if count == 3 else '5N'}'."),
    "dice_rolled": lambda target: f"The dice are rolled: {target_phrase(target)}. Say bell when your word is done.",
    "reports_missing": lambda players: f"First I need the words of {names(players)}.",
    "not_rolled": lambda **_: "Roll the dice first: say roll.",
    "not_your_roll": lambda player, roller: (
        f"It's {roller}'s roll this round, {player}: the dice pass to the next player every round."),
    "already_rang": lambda player: f"{player} already rang the bell.",
    "round_scored": lambda round: f"Round {round} is already scored: the bell was illegal, so no other words count. Say roll for the next round.",
    "no_bell": lambda **_: "Nobody has rung the bell yet: words come after the bell.",
    "already_reported": lambda word, unused: (
        f"You already reported {word or 'no word'}" + (f", {unused} unused" if unused else "")
        + ". Say undo to change it."),
    "does_not_count": lambda player, word, fault: f"{player}'s {word} already doesn't count: {FAULTS.get(fault, fault)}.",
}


SAID: dict[type, Callable[..., str]] = {
    F.RollAwaited: lambda e: f"Round {e.round} of {e.rounds}: "
                             + (f"{e.roller}, say roll when you're ready." if e.roller else "say roll when you're ready."),
    F.ReportsAwaited: lambda e: f"Still waiting for {names(e.players)}: your word and unused letters, or no word.",
}
"""The sentences said in one line; the longer ones are functions below."""
register(SAID)


@sentence.register
def _(e: F.ReportsStatus) -> str:
    if e.ringer is None:
        return f"Round {e.round}: nobody has rung the bell, so nobody owes a report."
    if not e.missing:
        return f"Round {e.round}: every report is in."
    return f"Round {e.round}: {e.ringer} rang; still waiting for {names(e.missing)}."


@sentence.register
def _(e: F.TeamsSet) -> str:
    text = ("Teams: " + "; ".join(names(t) for t in e.teams) + ".") if e.teams else ""
    if e.children:
        text += f" {names(e.children)} {'plays' if len(e.children) == 1 else 'play'} with the children's letter die."
    return text.strip()


@sentence.register
def _(e: F.DiceRolled) -> str:
    text = (f"{e.player} rolls" if e.player else "The dice say") + f": {target_phrase(e.target)}"
    if e.children:
        text += f"; for the children, {target_phrase(e.children)}"
    return text + ". Go!"


@sentence.register
def _(e: F.DiceShown) -> str:
    if e.target is None:
        return f"Round {e.round}: the dice haven't been rolled yet."
    text = f"Round {e.round}: {target_phrase(e.target)}"
    return text + (f"; for the children, {target_phrase(e.children)}." if e.children else ".")


@sentence.register
def _(e: F.BellRung) -> str:
    partners = f" {names(e.partners)}, yours too." if e.partners else ""
    return f"Bell! {e.player}, your word?{partners} {names(e.others)}: your words and unused letters."


@sentence.register
def _(e: F.ReportTaken) -> str:
    said = e.word or "no word"
    return f"{e.player}: {said}" + (f", {e.unused} unused." if e.unused else ".")


@sentence.register
def _(e: F.PhlounderScored) -> str:
    head = f"Round {e.round}" + (" again" if e.revised else "")
    sides = "; ".join(f"{side(who)} {signed(n)}" for who, n in e.sides)
    if not e.legal:
        player, word, fault = e.fault
        why = (f"{player} had no word" if fault == "no_word" else f"{player} left letters unused"
               if fault == "unused" else f"{player}'s {word}: {FAULTS.get(fault, fault)}")
        return f"{head}: {e.ringer}'s bell was illegal, {why}. {sides}."
    lines = [phlounder_line(ln, None if e.teams or ln.player != e.ringer else e.bonus) for ln in e.lines]
    text = f"{head}: " + ". ".join(lines) + "."
    if e.teams:
        text += f" {e.bonus} for the bell. Teams: {sides}."
    return text


def amount(n: int) -> str:
    return str(n) if n >= 0 else f"minus {-n}"


@sentence.register
def _(e: F.TeamSheet) -> str:
    lines = []
    for rnd, ringer, legal, members, bonus, score in e.lines:
        if not legal:
            lines.append(f"round {rnd}: {ringer}'s illegal bell: {signed(score)}")
            continue
        parts = [f"{p} no word" + (f", {amount(n)}" if n else "") if word is None
                 else f"{p} {word} {n}" if counts else f"{p} {word} doesn't count, {amount(n)}"
                 for p, word, n, counts in members]
        if bonus:
            parts.append(f"{bonus} for {ringer}'s bell")
        lines.append(f"round {rnd}: {names(parts)}: {amount(score)}")
    return f"{names(e.team)}'s sheet" + (". " + "; ".join(lines) if lines else ": nothing yet") + f". Total {e.total}."


@sentence.register
def _(e: F.PhlounderStatus) -> str:
    head = f"Round {e.round} of {e.rounds}"
    if e.phase == "race":
        return f"{head}: {target_phrase(e.target)}; waiting for the bell."
    if e.phase == "reports":
        return f"{head}: {e.ringer} rang; waiting for {names(e.missing)}."
    if e.phase == "over":
        return "The game is over."
    return f"{head}: waiting for {e.roller} to roll." if e.roller else f"{head}: waiting for the roll."


def labelled(result: dict) -> dict:
    """The result JSON with each team named as the table hears it: the core names a team
    as --teams spells it ("Ann+Cat"), the result says "Ann and Cat"."""
    if "teams" not in result:
        return result

    def label(key: str) -> str:
        return names(tuple(key.split("+")))

    out = dict(result, teams=[dict(t, name=label(t["name"])) for t in result["teams"]])
    out["players"] = [dict(p, team=label(p["team"])) if "team" in p else p for p in result["players"]]
    out["round_scores"] = [dict(r, scores={label(k): n for k, n in r["scores"].items()})
                           for r in result.get("round_scores", ())]
    return out
