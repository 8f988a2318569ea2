"""What the command line checks before a game starts: files it reads, setup options,
the number of players. Each problem is one sentence a player understands (raised as
``Unusable``, which the command prints before exiting with a non-zero status), so that
a bad option never starts a game on the host's own board and never shows a traceback.
"""

from __future__ import annotations

from pathlib import Path

from voice_host.config_schema import SET_SIZE, TIE_WINDOW, TIMER
from voice_host.games.errors import Unplayable
from voice_host.host.announce import reason
from voice_host.host.files import read_user_text

SUGGEST = {"prolix-classic": {1: "prolix-solo", 2: "prolix-duel"}}
"""A game for the number of players that the chosen one is not for."""


PROLIX = ("prolix-classic", "prolix-duel", "prolix-redux", "prolix-solo")
GAME_OPTIONS: dict[str, tuple[str, ...]] = {
    "--start": ("dexikon", "prolix-classic", "prolix-redux", "road"),  # the games with a start player
    "--board": PROLIX,
    "--timer": PROLIX,
    "--tie-window": ("prolix-classic",),  # the only game where words can be simultaneous
    "--challenge-vote": ("prolix-classic",),
    "--auto-reject": ("dexikon", "phlounder", *PROLIX),  # the road game always checks its words
    "--teams": ("phlounder",),
    "--children": ("phlounder",),
    "--variant": ("dexikon",),
    "--set-size": ("road",),
}
"""The options that only some games use, and those games (every other option is every game's)."""


class Unusable(ValueError):
    """A file or an option the host cannot use, said in one sentence."""


def read_text(path: str | Path, what: str) -> str:
    """The text of a file the user named (a script), or the sentence saying why not."""
    return read_user_text(path, missing=f"There is no file {{p}} to use as the {what}.",
                          folder=f"{{p}} is a folder, not a {what} file.", denied="I'm not allowed to read {p}.",
                          not_text=f"{{p}} is not a text file, so it can't be a {what}.", error=Unusable)


def names_problem(players: str) -> str | None:
    """An empty name in ``--players`` (``Ann,,Cat``), said; else None. (Counting the names
    left would talk about a number of players the table never gave.)"""
    if players.strip() and any(not p.strip() for p in players.split(",")):  # none at all: the count says it
        return (f"There is an empty name in the list of players '{players}': give every player a name, "
                "separated by commas.")
    return None


NAME_MARKS = {
    ":": "a typed line ends a name at its first colon ('{name}: jewelers' would be {first}'s)",
    "@#[]": "@, #, [ and ] mark a directive, a comment or a time in a typed line, never a player",
    "<>": "< and > would be read out as they are",
}
"""The characters no name may hold, and why: a typed line could never be that player's
(host.script reads "Name: words"), or the voice would read markup aloud."""
LONGEST_NAME = 40
"""The longest name a typed line reads as a player's (host.script)."""


def name_problem(players: list[str]) -> str | None:
    """The first name no input could address, said with why; else None."""
    for name in players:
        why = next((why for marks, why in NAME_MARKS.items() if any(c in name for c in marks)), None)
        if why is None and len(name) > LONGEST_NAME:
            why = f"a name can be at most {LONGEST_NAME} letters long"
        if why is not None:
            why = why.format(name=name, first=name.split(":")[0])
            return f"The name '{name}' can't be used: {why}. Choose another name."
    return None


def players_problem(game: str, players: list[str], cls) -> str | None:
    """Why these players cannot play ``game`` (with the game they can play), or None."""
    try:
        cls.check_player_count(len(players))
    except Unplayable as exc:
        said = reason(exc.code, exc.params)
        other = SUGGEST.get(game, {}).get(len(players))
        if other:
            return f"{said} For {len(players)} {'player' if len(players) == 1 else 'players'}, play --game {other}."
        return said
    return None


def option_problem(game: str, given: dict) -> str | None:
    """The first option given (``given``: argparse's values by dest) that ``game`` does
    not use, said with the games it is for; None when every option applies."""
    for option, games in GAME_OPTIONS.items():
        value = given.get(option.lstrip("-").replace("-", "_"))
        if value is not None and value is not False and game not in games:
            listed = ", ".join(games[:-1]) + " and " + games[-1] if len(games) > 1 else games[0]
            return f"{option} is for {listed}, not {game}."
    return None


def number_problems(timer: float | None, tie_window: float | None, set_size: int | None,
                    pace: float | None) -> str | None:
    """A timer, tie window, bag size or pace that makes no sense, said; else None. The
    limits are a settings file's too (voice_host.config_schema)."""
    if timer is not None and not TIMER[0] < timer <= TIMER[1]:
        return f"--timer needs a number of seconds above {TIMER[0]:g}, not {timer:g}."
    if tie_window is not None and not TIE_WINDOW[0] <= tie_window <= TIE_WINDOW[1]:
        return f"--tie-window needs seconds from {TIE_WINDOW[0]:g} to {TIE_WINDOW[1]:g}, not {tie_window:g}."
    if set_size is not None and set_size < SET_SIZE:
        return f"--set-size needs the number of tiles in the set, not {set_size}."
    if pace is not None and pace < 0:
        return f"--pace needs seconds of 0 or more, not {pace:g}."
    return None


def setup_problem(session_factory, setup: list, option: dict[str, str]) -> str | None:
    """Try the table's setup (``--start``, ``--board``) on a throwaway session: the
    sentence of the first refusal, naming the option, or None when all of it is taken."""
    heard: list[str] = []
    probe = session_factory(heard.append)
    for record in setup:
        heard.clear()
        probe.feed(record)
        if probe.refused:
            return f"{option[record.name]}: {probe.refused}"
    return None


def channels_problem(audio: str | Path, channels: str) -> str | None:
    """Why ``--channels`` cannot name the channels of the recording ``audio`` (more names
    than channels); None when it can, or when the file cannot be read (said when opened)."""
    import soundfile

    try:
        have = soundfile.info(str(audio)).channels
    except (OSError, RuntimeError, soundfile.LibsndfileError):
        return None
    named = len(channels.split(","))
    if named <= have:
        return None
    return f"{audio} has {have} channel{'' if have == 1 else 's'}, but --channels names {named} players: " \
           "give one name per channel."
