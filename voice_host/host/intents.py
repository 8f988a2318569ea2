"""What an utterance means: a word, a command, a question, or table chatter.

An utterance counts as a word when it is a lone word ("jewelers") or a word behind a
play phrase ("play jewelers", "my word is jewelers", "interrupt jewelers", "Bob
interrupts jewelers"). Commands and questions are short fixed phrases (see PHRASES);
to play a word that is also a command, say "play board". Anything else is chatter and
changes nothing (the host says it did not catch a word).
"""

from __future__ import annotations

import re
import unicodedata
from dataclasses import dataclass

PHRASES: dict[str, tuple[str, ...]] = {
    "challenge": ("challenge", "i challenge", "i challenge that", "challenge that"),
    "flip": ("flip", "timer", "flip the timer", "flip timer", "start the timer", "timer please"),
    "board": ("board", "read the board", "the board", "what's on the board", "whats on the board", "board please"),
    "scores": ("scores", "score", "the scores", "standings", "what's the score", "whats the score", "what is the score", "scores please"),
    "turn": ("whose turn", "whose turn is it", "turn", "who's turn", "whos turn", "who is up"),
    "words": ("words", "used words", "words used", "what words have been used", "the words"),
    "sheet": ("sheet", "my sheet", "scoresheet", "my scoresheet", "read my sheet"),
    "repeat": ("repeat", "say that again", "say again", "again", "pardon", "what did you say"),
    "undo": ("undo", "undo that", "take that back", "scratch that"),
    "help": ("help", "what can i say", "commands"),
    "yes": ("yes", "yeah", "yep", "i know it", "i know that word", "correct", "right"),
    "no": ("no", "nope", "never heard of it", "i don't know it", "wrong"),
}
"""Spoken phrases per command. Extend them; do not change them (scripts depend on them)."""

PLAY = re.compile(r"^(play|my word is|my word|i play|(?:\w+ )?interrupts?(?: with)?)\s+(\S+)$")
WORDLIKE = re.compile(r"^[a-z]+$")
PUNCTUATED = re.compile(r"^[a-z][a-z'\-]*[a-z]$")

_LOOKUP = {phrase: kind for kind, phrases in PHRASES.items() for phrase in phrases}


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


def fold(text: str) -> str:
    """Accents dropped before anything else (café -> cafe, sauté -> saute): tiles and
    cards carry none, and the dictionary is folded the same way."""
    return "".join(c for c in unicodedata.normalize("NFKD", text) if not unicodedata.combining(c))


def normalize(text: str) -> str:
    """Accents folded, lower case, punctuation around words dropped, inner
    apostrophes/hyphens kept."""
    text = fold(text).lower().replace("’", "'")
    text = re.sub(r"[^a-z0-9'\- ]+", " ", text)
    return " ".join(w.strip("'-") if not PUNCTUATED.match(w) else w for w in text.split()).strip()


def find_player(name: str, players: list[str] | tuple[str, ...]) -> str | None:
    name = fold(name).strip().lower()
    for p in players:
        if fold(p).lower() == name:
            return p
    return None


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
    if words[0] in ("sheet", "scoresheet") and len(words) == 2:
        who = find_player(words[1], players)
        if who:
            return Intent("sheet", target=who, text=text)
    if len(words) == 2 and words[1] in ("sheet", "scoresheet") and words[0].endswith("'s"):
        who = find_player(words[0][:-2], players)
        if who:
            return Intent("sheet", target=who, text=text)
    m = PLAY.match(said)
    if m:
        return Intent("word", word=m.group(2), text=text, final=m.group(1).startswith("my word"))
    if len(words) == 1 and (WORDLIKE.match(words[0]) or PUNCTUATED.match(words[0])):
        return Intent("word", word=words[0], text=text)
    return Intent("unclear", text=text)
