"""What a game family's players may say, as the pieces of a recognizer's language
(speech.recognizing.sayable): host.hearing.understand adds the table's own (names,
commands, questions, answers) and hears only sentences of it."""

from __future__ import annotations

from dataclasses import dataclass


@dataclass(frozen=True)
class Spoken:
    """A family's own sentences: ``lead_ins`` come before a word ("bank", "play"),
    ``tails`` after it ("for 5", "unused 3"), ``phrases`` are whole ("spend", "no word,
    unused 2"); with ``repeat`` a word and its tail may be followed by another (the
    road game's "fire for 7, fir for 6"). With ``bare`` a word may be said alone
    (Prolix, Phlounder's ringer); without it, only after a lead-in ("bank catch")."""

    lead_ins: tuple[str, ...] = ()
    phrases: tuple[str, ...] = ()
    tails: tuple[str, ...] = ()
    repeat: bool = False
    bare: bool = True
