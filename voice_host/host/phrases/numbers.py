"""Numbers in the games' own phrases ("bank catch for five", "unused 3").

Numbers may be said as digits or as words; text2num reads the words, num2words writes
them (for the sentences a recognizer may hear: :func:`spoken`).
"""

from __future__ import annotations

from functools import cache

from num2words import num2words
from text_to_num import text2num


def number(text: str) -> int | None:
    """The whole number ``text`` says ("3", "three", "twenty one"); None if it says none."""
    said = text.strip().replace("-", " ")
    if said.isdigit():
        return int(said)
    try:
        return int(text2num(said, "en"))
    except ValueError:
        return None


@cache
def spoken(low: int, high: int) -> tuple[str, ...]:
    """Every number from ``low`` to ``high`` as a recognizer may write it: "7", "seven",
    "twenty one"."""
    return tuple(form for n in range(low, high + 1) for form in (str(n), num2words(n).replace("-", " ")))
