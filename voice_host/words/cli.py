"""`voice-host word`: check words against the dictionary and the No Cheapies rule."""

from __future__ import annotations

import argparse
import sys
from collections.abc import Sequence

from voice_host.words.api import Words
from voice_host.words.history import Conflict
from voice_host.words.lexicon import LexiconError, LexiconSettings

_REASON_TEXT = {
    "not_found": "not in the dictionary",
    "proper_noun": "a proper noun",
    "acronym": "an acronym",
    "punctuation": "punctuation or spaces in it",
    "capitalized": "capitalized and not in the dictionary",
    "not_letters": "not made of the letters a-z",
}
"""Why a word is invalid, after "WORD: invalid, " (the verdict's detail says the same
again, word and all, so it is not printed)."""


def register(subparsers: argparse._SubParsersAction) -> argparse.ArgumentParser:  # type: ignore[type-arg]
    """Add the "word" subcommand to `subparsers` (its func is run)."""
    parser = subparsers.add_parser(
        "word",
        help="check words against the dictionary and No Cheapies",
        description="Print one line per WORD: valid, or invalid and why. Exit 0 only if all are valid.",
    )
    parser.add_argument("words", nargs="+", metavar="WORD", help="the words to check, e.g. jewelers geese")
    parser.add_argument(
        "--used",
        default="",
        metavar="W1,W2,...",
        help="words already played, in order; WORD:PLAYER names who played it",
    )
    parser.add_argument("--wordlist", help="the table's own word list (one word per line) instead of the default")
    parser.add_argument("--allow", help="a file of extra words to accept, one a line")
    parser.add_argument("--deny", help="a file of words to refuse even if listed, one a line")
    parser.set_defaults(func=run)
    return parser


def parse_used(text: str) -> list[tuple[str, str]]:
    """"wrench:Ann,jump" -> [("wrench", "Ann"), ("jump", "")]."""
    out = []
    for item in text.split(","):
        word, _, player = item.strip().partition(":")
        if word.strip():
            out.append((word.strip(), player.strip()))
    return out


def describe_conflict(conflict: Conflict) -> str:
    """"cheapie of wrench (plural)", with the chain's steps for chains."""
    who = f" played by {conflict.player}" if conflict.player else ""
    if conflict.rule != "chain":
        return f"cheapie of {conflict.earlier}{who} ({conflict.rule})"
    steps = "".join(f" -{rule}-> {word}" for word, rule in conflict.path)
    return f"cheapie of {conflict.earlier}{who} (chain: {conflict.word}{steps})"


def verdict_line(words: Words, word: str, used: Sequence[tuple[str, str]]) -> tuple[bool, str]:
    """(valid?, the line printed for `word`)."""
    verdict = words.check(word)
    if not verdict.ok:
        return False, f"{word}: invalid, {_REASON_TEXT[verdict.reason or 'not_found']}"
    conflict = words.cheapie(word, used)
    if conflict is not None:
        return False, f"{word}: invalid, {describe_conflict(conflict)}"
    return True, f"{word}: valid"


def run(args: argparse.Namespace) -> int:
    """Check args.words; 0 if all are valid, 1 if one is not, 2 if the dictionary fails."""
    settings = LexiconSettings(args.wordlist, args.allow, args.deny)
    try:
        words = Words.load(settings)
    except LexiconError as err:
        print(f"voice-host word: {err}", file=sys.stderr)
        return 2
    from voice_host.words.lexicon import fold  # accents first: café is cafe

    used = [(fold(w), p) for w, p in parse_used(args.used)]
    results = [verdict_line(words, fold(w), used) for w in args.words]
    for _, line in results:
        print(line)
    return 0 if all(ok for ok, _ in results) else 1
