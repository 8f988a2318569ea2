"""A second opinion: what the second ear (speech.recognizing.whisper.second) read in the
same utterance, weighed by Moonshine's own scores and the game's prior
(docs/RECOGNIZING.md, "A second opinion").

The two ears make different mistakes. Where they hear the same sentence it is nearly
always what was said, so the word is taken and said in the score; where they differ,
the second ear's reading joins the first's candidates (scored by Moonshine on the
same encoder output, with the language model, the game's prior and the length fit, as
every candidate is), and the better of the two is taken only when it leads the other
clearly; else the host asks between them.
"""

from __future__ import annotations

from ..recognizer import Opinion
from ..sayable import Language

AGREED = 0.9
"""The confidence of a sentence both ears heard (at least: the first ear's own may be
higher): over ``[speech] confirm_heard_below``, so it is taken without a question."""
CLEAR = 3.0
"""Nats by which one ear's reading must lead the other's (Moonshine's scores with the
game's prior) to be taken when they differ."""
DOUBTED = 0.45
"""The confidence, at most, of a sentence the ears differ on with neither clearly
ahead: under ``[speech] take_above``, so the host asks between them."""
NEAR = 2
"""Words of the language, nearest a second reading that is not one, scored in its
place (the project's matcher: "full wood" -> "fullwood", "forward")."""


def candidates(reading: str, lang: Language, first: str) -> list[str]:
    """The sentences of ``lang`` the second ear's ``reading`` stands for: itself when it
    is one, else the NEAR words nearest its words (after its name, or the name the
    first ear heard at the start of ``first``)."""
    if not reading:
        return []
    if lang.accepts(reading):
        return [reading]
    if not lang.words:
        return []
    from voice_host.words import Words

    words, names = reading.split(), set(lang.names)
    name = words[0] if len(words) > 1 and words[0] in names else None
    if name is None and first.split()[:1] and first.split()[0] in names:
        name = first.split()[0]
    rest = " ".join(words[1:] if name == words[0] else words)
    near = [w for w, _ in Words.load().match(rest, n=NEAR).alternatives]
    found = [f"{name} {w}" if name else w for w in near]
    return [c for c in dict.fromkeys(found) if lang.accepts(c)]


def weigh(confidence: float, alternatives: list[tuple[str, float]], first: str, reading: str,
          theirs: list[str]) -> tuple[float, Opinion]:
    """The confidence of the best of ``alternatives`` (sentence -> score, best first,
    both ears' readings among them) once the second ear is heard: ``first`` is the first
    ear's own best, ``reading`` the second ear's, ``theirs`` the sentences it stands for."""
    best = alternatives[0][0] if alternatives else ""
    if not reading:
        return confidence, Opinion(reading, tuple(theirs), False, None, confidence)
    if reading == first and best == first:
        return max(confidence, AGREED), Opinion(reading, tuple(theirs), True, None, confidence)
    scores = dict(alternatives)
    mine = scores.get(first)
    other = max((scores[c] for c in theirs if c in scores and c != first), default=None)
    if mine is None or other is None:
        return confidence, Opinion(reading, tuple(theirs), False, None, confidence)
    lead = abs(mine - other)
    opinion = Opinion(reading, tuple(theirs), False, lead, confidence)
    return (confidence if lead >= CLEAR else min(confidence, DOUBTED)), opinion


__all__ = ["AGREED", "CLEAR", "DOUBTED", "Opinion", "candidates", "weigh"]
