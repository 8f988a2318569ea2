"""The table's own phrases, the same in every game (host.intents reads them): a word, a
challenge, the timer, yes and no, the questions; and the table's directives ``@start``,
``@board`` and ``@draw`` (a game without a board refuses them)."""

from __future__ import annotations

from voice_host.games.actions import Action, Answer, Challenge, Draw, FlipTimer, PlayWord, Query, SetBoard, SetStart
from voice_host.games.events import Refused
from voice_host.host import intents
from voice_host.messages import Intent


def action(intent: Intent, player: str, t: float, players: list[str]) -> Action | Refused:
    """What an utterance the game's own phrases did not claim asks of the game."""
    kind = intent.kind
    if kind == "word":
        if not intents.WORDLIKE.match(intent.word or ""):
            return Refused("punctuation", {"word": intent.word}, player)
        return PlayWord(t, player, intent.word, intent.final)
    if kind == "flip":
        return FlipTimer(t, player)
    if kind in ("yes", "no"):
        return Answer(t, player, kind == "yes")
    if kind in ("challenge", "sheet") and intent.target is not None and intent.target not in players:
        return Refused("unknown_player", {"player": intent.target, "players": tuple(players)}, player)
    if kind == "challenge":
        return Challenge(t, player, intent.target)
    if kind == "how":
        return Query(t, kind, player, intent.word)
    if kind in intents.QUESTIONS:
        return Query(t, kind, player, intent.target)
    if kind == "play_what":
        return Refused("play_what", {"text": intent.text}, player)
    return Refused("unclear", {"text": intent.text}, player)


def directive(t: float, name: str, args: list[str], players: list[str]) -> Action | Refused | None:
    """``@start Ann`` (the start player the table drew), ``@board W B J S L C D G`` (the
    whole board), ``@draw M N`` (the tiles just drawn); None: not one of these."""
    if name == "board":
        return SetBoard(t, tuple(args))
    if name == "draw":
        return Draw(t, tuple(args))
    if name != "start":
        return None
    who = intents.find_player(" ".join(args), players) if args else None  # "@start Mary Jane"
    if who is None:
        return Refused("unknown_player", {"player": " ".join(args), "players": tuple(players)})
    return SetStart(t, who)
