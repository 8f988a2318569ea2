"""What an utterance means: a word, a command, a question, or table chatter.

An utterance counts as a word when it is a lone word ("jewelers") or a word behind a
play phrase ("play jewelers", "my word is jewelers", "interrupt jewelers", "Bob
interrupts jewelers"). Commands and questions are short fixed phrases (see PHRASES);
to play a word that is also a command, say "play board". Anything else is chatter and
changes nothing (the host says it did not catch a word).
"""

from __future__ import annotations

import re
from dataclasses import dataclass

from voice_host.games.base import find_player  # noqa: F401  (the host's name for it too)
from voice_host.words.lexicon import fold

PHRASES: dict[str, tuple[str, ...]] = {
    "challenge": ("challenge", "i challenge", "i challenge that", "challenge that", "challenge it"),
    "flip": ("flip", "timer", "flip the timer", "flip timer", "start the timer", "timer please"),
    "board": ("board", "read the board", "the board", "what's on the board", "whats on the board", "board please"),
    "scores": ("scores", "score", "the scores", "standings", "what's the score", "whats the score", "what is the score", "scores please",
               "total", "totals", "my total", "the totals", "what's my total", "whats my total"),
    "turn": ("whose turn", "whose turn is it", "turn", "who's turn", "whos turn", "who is up",
             "round", "what round", "which round", "what round is it", "which round is it"),
    "words": ("words", "used words", "words used", "what words have been used", "the words"),
    "sheet": ("sheet", "my sheet", "scoresheet", "my scoresheet", "read my sheet"),
    "sheets": ("sheets", "all sheets", "every sheet", "read the sheets", "all the sheets", "scoresheets"),
    "time": ("time", "time left", "how much time", "how much time is left", "how much time left", "timer status",
             "how long", "how long is left", "how many seconds", "seconds left", "what's the time", "whats the time"),
    "bag": ("bag", "the bag", "tiles left", "how many tiles", "how many tiles are left", "tiles in the bag",
            "bag count", "what's in the bag", "whats in the bag"),
    "interrupts": ("interrupts", "interrupts left", "how many interrupts", "how many interrupts left",
                   "how many interrupts are left", "my interrupts"),
    "voided": ("voided", "voided words", "void words", "which words were voided", "what was voided",
               "challenged words"),
    "how": ("how did that score", "how did it score", "how was that scored", "which tiles", "what tiles",
            "how did the last word score"),
    "dice": ("dice", "the dice", "what are the dice", "what did we roll", "what's the roll", "whats the roll"),
    "reports": ("who owes", "who still owes", "who owes a report", "who still owes a report", "missing reports",
                "who's missing", "whos missing", "who are we waiting for", "waiting for"),
    "banked": ("banked", "banked words", "my banked words", "what have i banked"),
    "marks": ("marks", "bonus marks", "my marks", "how many marks"),
    "penalties": ("penalty count", "how many penalties", "my penalty count", "how many penalty cards"),
    "spell": ("spell it", "spell that", "spell", "spell the word", "spell the last word", "how is it spelled",
              "how is that spelled"),
    "brief": ("be brief", "brief mode", "less detail", "say less"),
    "full": ("full mode", "more detail", "tell me everything", "say more"),
    "slower": ("speak slower", "slow down", "talk slower", "more slowly", "slower please"),
    "faster": ("speak faster", "speed up", "talk faster", "more quickly", "faster please"),
    "louder": ("speak up", "speak louder", "volume up", "louder please", "talk louder"),
    "softer": ("speak softer", "volume down", "not so loud", "softer please", "speak quieter", "talk quieter"),
    "repeat": ("repeat", "say that again", "say again", "again", "pardon", "what did you say"),
    "undo": ("undo", "undo that", "take that back", "scratch that"),
    "help": ("help", "what can i say", "commands"),
    "yes": ("yes", "yeah", "yep", "i know it", "i know that word", "correct", "right"),
    "no": ("no", "nope", "never heard of it", "i don't know it", "wrong"),
    "play_what": ("play", "i play", "my word is", "my word", "interrupt", "interrupts with", "interrupt with"),
}
"""Spoken phrases per command. Extend them; do not change them (scripts depend on them).
The host's settings are phrases of two words or more: a word a player could play ("brief",
"louder") is never a setting (ruling 66)."""

PLAIN_ANSWERS = ("yes", "yeah", "yep", "no", "nope")
"""Answers that are only answers: the other yes/no phrases that are words ("right",
"correct", "wrong") are plays when nobody asked a yes or no question."""

QUESTIONS = ("board", "scores", "turn", "words", "sheet", "sheets", "time", "bag", "interrupts", "voided", "how", "dice",
             "reports", "banked", "marks", "penalties")
"""Questions: answered from the game's state, never a word (say "play time" for the word)."""
HOST = ("repeat", "spell", "brief", "full", "slower", "faster", "louder", "softer", "help", "undo")
"""What the host itself answers: the voice, what it said, the help."""
HOW = re.compile(r"^(?:how (?:did|does|do|much did|many points did|was|were) (\S+?)(?:'s)? (?:score|scored|get)"
                 r"|which tiles (?:made|scored|gave) (\S+)|how was (\S+) scored)$")

PLAY = re.compile(r"^(play|my word is|my word|i play|(?:\w+ )?interrupts?(?: with)?)\s+(\S+)$")
WORDLIKE = re.compile(r"^[a-z]+$")
PUNCTUATED = re.compile(r"^[a-z][a-z'\-]*[a-z]$")

_LOOKUP = {phrase: kind for kind, phrases in PHRASES.items() for phrase in phrases}

GAME_COMMANDS = ("roll", "bell", "mulligan", "pass", "concede", "check", "spend", "bank", "last")
"""The games' own command words (Phlounder, Dexikon, road), for near-misses."""
VOCABULARY = frozenset(w for phrase in _LOOKUP for w in phrase.split()) | frozenset(GAME_COMMANDS)
"""Every word of a command phrase."""
_NEAR = sorted(w for w in VOCABULARY if len(w) >= 4 and w.isalpha())


def nearest_command_word(token: str) -> str | None:
    """The command word a typed token misses by a slip (a letter left out, added,
    changed or two swapped; two slips from 7 letters on, or where it sounds the same:
    "repete"), if one is nearer than the rest. Between equally near ones, the one it
    sounds like wins ("bord" is board, not word; "timr" is timer, not time)."""
    import jellyfish

    if len(token) < 4 or not token.isalpha():
        return None
    most = 1 if len(token) < 7 else 2
    sound = jellyfish.metaphone(token)
    near = []
    for w in _NEAR:
        d = jellyfish.damerau_levenshtein_distance(token, w)
        alike = jellyfish.metaphone(w) == sound
        if d <= most or (alike and d <= 2):
            near.append((d, not alike, w))
    near.sort()
    if not near or (len(near) > 1 and near[1][:2] == near[0][:2]):
        return None
    return near[0][2]


@dataclass(frozen=True)
class Intent:
    """The meaning of one utterance."""

    kind: str
    """word, challenge, flip, board, scores, turn, words, sheet, repeat, undo, help,
    yes, no, or unclear."""
    word: str | None = None
    """For ``word``: the word as said (lower case; may hold punctuation to refuse)."""
    target: str | None = None
    """For ``challenge`` and ``sheet``: the player named, if any."""
    text: str = ""
    """The utterance as heard."""
    final: bool = False
    """For ``word``: said as "my word is ...", a word the player commits to."""


def normalize(text: str) -> str:
    """Accents folded (café -> cafe: tiles and cards carry none, and the dictionary is
    folded the same way), lower case, punctuation around words dropped, inner
    apostrophes/hyphens kept."""
    text = fold(text).lower().replace("’", "'")
    text = re.sub(r"[^a-z0-9'\- ]+", " ", text)
    return " ".join(w.strip("'-") if not PUNCTUATED.match(w) else w for w in text.split()).strip()


def parse(text: str, players: list[str] | tuple[str, ...]) -> Intent:
    """Understand one utterance. ``players`` are the names at the table."""
    said = normalize(text)
    if said in _LOOKUP:
        return Intent(_LOOKUP[said], text=text)
    words = said.split()
    if not words:
        return Intent("unclear", text=text)
    # "challenge bob", "challenge bob's word"; "sheet bob", "bob's sheet"
    if words[0] == "challenge" and len(words) in (2, 3):
        who = find_player(words[1].removesuffix("'s"), players)
        if who:
            return Intent("challenge", target=who, text=text)
    if words[0] == "challenge" and len(words) == 2 and words[1] not in ("that", "it", "this"):
        return Intent("challenge", target=words[1].removesuffix("'s").capitalize(), text=text)  # nobody by that name
    m = HOW.match(said)
    if m:
        word = next(g for g in m.groups() if g)
        return Intent("how", word=None if word in ("that", "it") else word, text=text)
    if words[0] in ("sheet", "scoresheet") and len(words) == 2:
        who = find_player(words[1], players)
        if who or words[1] not in ("please", "now", "again", "thanks"):  # nobody by that name: said so
            return Intent("sheet", target=who or words[1].capitalize(), text=text)
        return Intent("sheet", text=text)
    if len(words) == 2 and words[1] in ("sheet", "scoresheet") and words[0].endswith("'s"):
        who = find_player(words[0][:-2], players)
        if who or words[0] not in ("it's", "that's", "what's", "who's", "here's", "there's"):
            return Intent("sheet", target=who or words[0][:-2].capitalize(), text=text)
    m = PLAY.match(said)
    if m:
        return Intent("word", word=m.group(2), text=text, final=m.group(1).startswith("my word"))
    if len(words) == 1 and (WORDLIKE.match(words[0]) or PUNCTUATED.match(words[0])):
        return Intent("word", word=words[0], text=text)
    return Intent("unclear", text=text)
