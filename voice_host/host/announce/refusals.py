"""Why an input was refused: one sentence per refusal code (``reason(code, params)``).

The codes every game (and the host: who spoke, the script's lines) may give are here; each game family's own are in
its module (``REFUSALS``) and merged into ``REASONS``.
"""

from __future__ import annotations

from typing import Callable

from voice_host.host.announce import dexikon, phlounder, prolix, road
from voice_host.host.announce.text import clip, names, plural, side, word_reason

def game_over(winners=(), total=None, unit="point", alone=None, **_) -> str:
    """The answer to any input after the end: who won, with what ("Ann won with 91.")."""
    score = (str(total) if unit == "point" else plural(total, unit)) if total is not None else ""
    if len(winners) == 1:
        return f"The game is over: {side(winners[0])} won with {score}."
    if winners:
        return f"The game is over: {names(winners)} share the victory with {score}."
    if alone:
        return f"The game is over: {alone[0]} finished with {alone[1] if unit == 'point' else plural(alone[1], unit)}."
    return "The game is over. Ask for the scores to hear them again."



COMMON: dict[str, Callable[..., str]] = {
    "unknown_player": lambda player, players=(): f"I don't know a player called {player}; the players are {names(players)}.",
    "unknown_speaker": lambda player, players=(): f"I don't know who {player} is; the players are {names(players)}.",
    "no_speaker": lambda **_: "Start the line with the player's name, like 'Ann: jewelers'.",
    "bad_line": lambda text, **_: f"I can't read '{clip(text)}'. Write a line as 'Name: word' or '@directive'.",
    "unknown_directive": lambda text, **_: f"I don't know the directive '{clip(text)}'.",
    "bad_wait": lambda text, **_: f"'{clip(text)}' needs a number of seconds, like '@wait 46'.",
    "bad_directive": lambda text, **_: f"I can't use '{clip(text)}' in this game.",
    "unclear": lambda text, **_: f"I didn't catch a word in '{clip(text)}'. Say just the word, or 'play' and the word.",
    "play_what": lambda text, **_: f"'{clip(text)}' and what? Say the word too, like 'play jewelers'.",
    "moment_passed": lambda word, **_: f"The game has moved on, so {word} can't be played as that interrupt now.",
    "too_long": lambda letters, longest, **_: (
        f"That word has {letters} letters; the longest word in the dictionary has {longest}. Say it again."),
    "punctuation": lambda word, **_: f"{word} can't be played: words with apostrophes or hyphens are not allowed.",
    "nothing_to_undo": lambda **_: "There is nothing to undo.",
    "asked_another": lambda player, **_: f"That question was for {player}.",
    "undo_passed": lambda player, text, **_: f"The game has moved on, so {player}'s '{text}' stays.",
    "not_started": lambda **_: "The game hasn't started yet.",
    "already_started": lambda **_: "The game has already started.",
    "too_late": lambda what, **_: f"It's too late to set the {what} player; the game has started.",
    "game_over": lambda **kw: game_over(**kw),
    "not_a_word": lambda word, reason: f"{word} is refused: {word_reason(reason)}.",
    "undo_refused": lambda text: (f"Your '{text}' was refused, so it changed nothing: "
                                  "there is nothing of yours to undo."),
    "already_passed": lambda **_: "You already passed this turn; say a word if you found one after all.",
    "word_is_final": lambda word: f"Your word this round is {word}; it can't be changed.",
    "challenge_in_progress": lambda word: f"Play is stopped while {word} is challenged.",
    "own_word": lambda **_: "You can't challenge your own word.",
    "nothing_to_challenge": lambda target=None: (
        f"{target} has no word that can be challenged now." if target else "There is no word to challenge right now."
    ),
    "already_challenged": lambda word, player: f"{player}'s {word} has already stood a challenge.",
    "unknown_question": lambda kind: f"I can't answer '{kind}' in this game.",
    "not_in_this_game": lambda action: "That isn't part of this game.",
    "internal_error": lambda **_: "Sorry, something went wrong on my side with that; nothing has changed.",
    "bad_number": lambda text, **_: f"I didn't catch a number in '{clip(text)}'.",
}

UNPLAYABLE: dict[str, Callable[..., str]] = {
    "player_count": lambda game, low, high, count: (
        f"{game} is for {f'{low} to {high} players' if low != high else plural(low, 'player')}, not {count}."),
    "no_variant": lambda variant, variants: f"Dexikon has no variant {variant}; choose one of {', '.join(variants)}.",
    "uneven_teams": lambda: "Partners play as two or three teams of 2, or two teams of 3, with every player in one team.",
    "not_a_player": lambda name, players: f"{name} is not one of the players ({', '.join(players)}).",
}
"""Why a game cannot be set up as asked (games.errors.Unplayable), said before it starts."""

REASONS: dict[str, Callable[..., str]] = {**COMMON, **prolix.REFUSALS, **phlounder.REFUSALS, **dexikon.REFUSALS,
                                          **road.REFUSALS, **UNPLAYABLE}
"""Every refusal code -> its sentence."""


def reason(code: str, params: dict) -> str:
    """The sentence for a refusal; a code or parameters it does not know: a plain "can't"."""
    make = REASONS.get(code)
    if make is None:
        return "I can't do that right now."
    try:
        return make(**params)
    except TypeError:
        return "I can't do that right now."
