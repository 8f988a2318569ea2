"""Numbers in the games' own phrases ("bank catch for five", "unused 3").

Numbers may be said as digits or as words; text2num reads the words.
"""

from __future__ import annotations

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
