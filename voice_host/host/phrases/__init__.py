"""Phrases in: what a player says (or a script line's directive) -> an Action for the game.

One module per game family (prolix, phlounder, dexikon, road), each with
``parse(said, text, player, t) -> Action | Refused | None`` (None: not one of this
family's phrases, so the table's own apply: ``common.action``), the family's script
directives and its phrases for help. ``said`` is the utterance normalized (host.intents)
without commas; ``text`` as heard, for a refusal to quote.
"""

from __future__ import annotations

from types import ModuleType

from voice_host.games.actions import Action
from voice_host.games.events import Refused
from voice_host.host import intents
from voice_host.host.phrases import common, dexikon, phlounder, prolix, redux, road

FAMILIES: dict[str, ModuleType] = {"phlounder": phlounder, "dexikon": dexikon, "road": road, "prolix-redux": redux}
"""Game name -> its phrases; every other game (the Prolix modes) reads prolix's."""


def family(game: str) -> ModuleType:
    return FAMILIES.get(game, prolix)


def parse(game: str, text: str, player: str, t: float) -> Action | Refused | None:
    """The game's own reading of an utterance; None leaves it to the table's phrases."""
    return family(game).parse(intents.normalize(text).replace(",", ""), text, player, t)


def directive(game: str, t: float, name: str, args: list[str], players: list[str]) -> Action | Refused | None:
    """A script directive as an action (``@start``, and the game's own); None: unknown here."""
    table = common.directive(t, name, args, players)
    if table is not None:
        return table
    read = getattr(family(game), "directive", None)
    return read(t, name, args) if read is not None else None


def spoken(game):
    """What the game's players say beyond the table's own (host.phrases.language.Spoken)."""
    return family(game.name).spoken(game)


def help(game) -> dict[str, str]:
    """The game's own phrases, for help (title -> what to say)."""
    module = family(game.name)
    return module.help(game) if hasattr(module, "help") else module.HELP
