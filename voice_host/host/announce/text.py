"""The small pieces every sentence is built from: lists of names, plurals, points."""

from __future__ import annotations

TITLES = {
    "prolix-classic": "Prolix Classic", "prolix-solo": "Prolix Solo", "prolix-duel": "Prolix Duel",
    "prolix-redux": "Prolix Redux", "phlounder": "Phlounder", "dexikon": "Dexikon", "road": "The road game",
}
"""Each game's name as the host says it and the page shows it (by its --game value)."""


def title(game: str) -> str:
    return TITLES.get(game, game)


def side(who) -> str:
    """A player, or a team's members said together ("Ann and Cat")."""
    return names(who) if isinstance(who, tuple) else str(who)


def names(items) -> str:
    items = [side(x) for x in items]
    if not items:
        return "nobody"
    if len(items) == 1:
        return items[0]
    return ", ".join(items[:-1]) + " and " + items[-1]


def plural(n: int, one: str, many: str | None = None) -> str:
    return f"{n} {one if abs(n) == 1 else (many or one + 's')}"


def points(n: int) -> str:
    return plural(n, "point")


def signed(n: int) -> str:
    return f"plus {n}" if n > 0 else f"minus {-n}" if n < 0 else "0"


def clip(text: str, most: int = 60) -> str:
    """What was heard, said back no longer than a breath: a 5,000-letter line is not read out."""
    text = str(text)
    return text if len(text) <= most else text[: most - 3].rstrip() + "..."


def standings(rows) -> str:
    return "; ".join(f"{side(r.player)} {r.total}" for r in rows)


WORD_REASONS = {
    "not_found": "it is not in the dictionary",
    "proper_noun": "it is a proper noun",
    "acronym": "it is an acronym",
    "punctuation": "words with apostrophes or hyphens are not allowed",
    "capitalized": "capitalized words are not allowed",
    "not_letters": "a word is letters only",
}
"""Why the dictionary refuses a word (words.Verdict.reason)."""


def word_reason(reason: str | None) -> str:
    return WORD_REASONS.get(reason or "not_found", "it is not in the dictionary")
