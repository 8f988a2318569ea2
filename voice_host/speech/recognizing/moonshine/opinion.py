"""A second opinion: what the second ear (recognizer.SecondEar, given to the recognizer
by the registry: engines.second_ear_for) read in the same utterance, weighed by
Moonshine's own scores and the game's prior
(docs/RECOGNIZING.md, "A second opinion").

The two ears make different mistakes. Where they hear the same sentence it is nearly
always what was said, so the word is taken and said in the score; where they differ,
the second ear's reading joins the first's candidates (scored by Moonshine on the
same encoder output, with the language model, the game's prior and the length fit, as
every candidate is), and the better of the two is taken only when it leads the other
clearly; else the host asks between them.
"""

from __future__ import annotations

from voice_host.messages import Opinion
from ..sayable import Language

AGREED = 0.9
"""The confidence of a sentence both ears heard (at least: the first ear's own may be
higher): over ``[speech] confirm_heard_below``, so it is taken without a question,"""
AGREED_FROM = 0.8
"""... when the first ear was at least this sure of it on its own: both ears hear "oh"
or "yeah" in a kitchen's noise where a word was said, and the babble's own words,"""
FORMS = 0.0
"""... and no other form of its word scored within this many nats of it (0: any form
may): both ears can lose an ending alike ("judgment" for "judgments")."""
CLEAR = 1.0
"""Nats by which one ear's reading must lead the other's (Moonshine's scores with the
game's prior) to be taken when they differ; nearer, the host asks."""
DOUBTED = 0.45
"""The confidence, at most, of a sentence the ears differ on with neither clearly
ahead: under ``[speech] take_above``, so the host asks between them."""
PROMPT_WORDS = 20
"""The board's best plays (by the game's prior) told the second ear as its prompt (0:
none): on board words it agreed on 26 of 39 tuning words clean instead of 16, and
asked 38.5% of them instead of 64.1%, with no word more taken silently wrong.

The weighing was chosen by benchmarks/second_opinion.py on the tuning split of
real_speech.py and board_words.py: the fewest questions among the settings that take no
more words silently wrong than the first ear alone in any tuning condition."""
NEAR = 2
"""Words of the language, nearest a second reading that is not one, scored in its
place (the project's matcher: "full wood" -> "fullwood", "forward")."""


def prompt(sayable, words: int | None = None) -> str | None:
    """The second ear's prompt: the ``words`` (PROMPT_WORDS) plays the game's prior
    favours most, or None."""
    n = PROMPT_WORDS if words is None else words
    if not n or sayable is None or sayable.prior is None or not sayable.words:
        return None
    import numpy as np

    best = np.argsort(-sayable.prior.bonus, kind="stable")[:n]
    return ", ".join(sayable.words[i] for i in best)


class Prompts:
    """The second ear's prompt (:func:`prompt`), worked out once a board: one board's
    prior serves every utterance on it, and sorting a dictionary's bonuses takes a few
    ms. Each recognizer owns one."""

    def __init__(self) -> None:
        self._key: tuple = (None, None, None)
        self._text: str | None = None

    def __call__(self, sayable, words: int | None = None) -> str | None:
        n = PROMPT_WORDS if words is None else words
        if not n or sayable is None or sayable.prior is None or not sayable.words:
            return None
        key = (sayable.prior, sayable.words, n)
        if any(a is not b for a, b in zip(self._key, key)):
            self._key, self._text = key, prompt(sayable, n)
        return self._text


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


def weigh(confidence: float, alternatives: list[tuple[str, float]], first: str, second, theirs: list[str]
          ) -> tuple[float, Opinion]:
    """The confidence of the best of ``alternatives`` (sentence -> score, best first,
    both ears' readings among them) once the second ear is heard: ``first`` is the first
    ear's own best, ``second`` what the second ear heard (recognizer.SecondReading), ``theirs``
    the sentences its reading stands for."""
    reading, sure_of_it = (second.text, second.confidence) if second is not None else ("", 0.0)
    took = getattr(second, "seconds", 0.0)

    def opinion(agreed: bool, lead: float | None) -> Opinion:
        return Opinion(reading, tuple(theirs), agreed, lead, confidence, sure_of_it, took)

    if not reading:
        return confidence, opinion(False, None)
    if reading == first:  # then no sentence of its own was added: ``first`` is the best
        sure = confidence >= AGREED_FROM and not _another_form(alternatives, FORMS)
        return (max(confidence, AGREED) if sure else confidence), opinion(True, None)
    scores = dict(alternatives)
    mine = scores.get(first)
    other = max((scores[c] for c in theirs if c in scores and c != first), default=None)
    if mine is None or other is None:
        return confidence, opinion(False, None)
    lead = abs(mine - other)
    return (confidence if lead >= CLEAR else min(confidence, DOUBTED)), opinion(False, lead)


def _another_form(alternatives: list[tuple[str, float]], within: float) -> bool:
    """Whether another form of the best sentence's word ("judgments" for "judgment")
    scored within ``within`` nats of it."""
    if within <= 0 or not alternatives:
        return False
    from voice_host.words.morphology import forms_of_one_word

    best, top = alternatives[0]
    word = best.split()[-1] if best else ""
    return any(top - score <= within and text.split()[-1:] != [word] and forms_of_one_word(text.split()[-1], word)
               for text, score in alternatives[1:] if text)


__all__ = ["AGREED", "AGREED_FROM", "CLEAR", "FORMS", "DOUBTED", "Opinion", "Prompts", "candidates", "prompt", "weigh"]
