"""The searches a Moonshine recognizer runs after its first (recognizer.MoonshineRecognizer.
transcribe), each on the same encoder output, for sentences the first search may have
lost: after a name (:func:`second_pass`), the table's phrases (:func:`phrase_pass`) and
words spelled out (:func:`spelling_pass`). ``rec`` is the recognizer (its model and beam)."""

from __future__ import annotations

import numpy as np

from ..sayable import Language, Sayable
from .decode import Decoded, decode

PHRASE_PASS = 4
"""How many of the language's phrases nearest the free decode (and, after each name, nearest
its words after the first) the phrase pass scores (phrase_pass)."""
PHRASE_NEAR = 60.0
"""How near (rapidfuzz ratio, 0-100, of the letters or of the Metaphone keys) the free
decode must be to a phrase for the phrase pass to score it: "this turn" is 74 from
"whose turn", "then do that" 76 from "undo that", "lots of scour" 57 from "whats the
score" by its letters and 74 by its sound."""
PHRASE_NAMES = 2
PHRASE_NAME_NEAR = 50.0
"""The phrase pass puts a phrase after the PHRASE_NAMES names the free decode's first
word is nearest (and at least PHRASE_NAME_NEAR like, by letters or by sound): "cad" is
67 like "cat", 100 by sound; "then" 75 like "ben". Every name was 16 sentences to
score and up to 175 ms more an utterance."""
SECOND_PASS_WORDS = 5
"""How many of the matcher's words for the rest of the free decode (and of the
search's best sentences) the second pass puts after each name (see
second_pass). Tuning split, "NAME, word" clean / 20 dB: 3 gave
70.8 / 58.3%, 5 70.8 / 62.5% (and 75.0 / 50.0 -> 79.2 / 54.2% on a second set of 24)."""

def second_pass(rec, d: Decoded, audio: np.ndarray, lang: Language, free_norm: str,
                 found: dict[str, float]) -> None:
    """Sentences the search may have lost, scored by a second search restricted to
    them (on the same encoder output): into `d.second` and `d.ids`.

    Only when names may come first, the free decode has two words or more and the
    search's best sentence neither starts with a name nor has as many words as the
    free decode (then it has lost none of them): the search often keeps
    a short sentence that ends early ("An interlocutor." -> "an"; "God, blascoot!"
    -> "god") and loses the name at its first steps. The candidates are each name
    followed by the project matcher's best words for the rest of the free decode
    or by the search's own best sentences. Only sentences of the language not
    already found are scored."""
    fw = free_norm.split()
    names = set(lang.names)
    best = next(iter(found), "").split()
    if len(fw) < 2 or not names or (best and best[0] in names and len(best) > 1) or len(best) >= len(fw):
        return
    words = None
    if lang.words or len(lang.names) > 4:  # the matcher (loaded with the dictionary)
        from voice_host.words import Words

        words = Words.load()
    rest = [w for w, _ in words.match(" ".join(fw[1:]), n=SECOND_PASS_WORDS).alternatives] \
        if lang.words else []
    own = []
    for text in list(found)[:SECOND_PASS_WORDS]:
        t = text.split()
        own.append(" ".join(t[1:]) if len(t) > 1 and t[0] in names else text)
    names_first = lang.names
    if len(names_first) > 4:
        names_first = [n for n, _ in words.match(fw[0], n=3, candidates=lang.names).alternatives]
    cands = [f"{n} {b}" for n in names_first for b in dict.fromkeys(rest + own) if b]
    cands = [c for c in dict.fromkeys(cands) if c not in found and lang.accepts(c)]
    if not cands:
        return
    d2 = decode(rec.model, audio, Sayable.closed(cands).language(), beam=max(rec.beam_size, len(cands)),
                free=False, hidden=d.hidden)
    d.absorb(d2)

def phrase_pass(rec, d: Decoded, audio: np.ndarray, lang: Language, free_norm: str,
                 found: dict[str, float]) -> list[tuple[str, float]]:
    """The language's phrases (commands, questions, answers) that the search lost,
    scored on the same encoder output: its sentences join `d.second` and are
    returned (for the chatter check); none when not tried.

    The search keeps 8 hypotheses, and over a whole dictionary, where the game's prior
    favours the board's words, a phrase's first tokens are soon crowded out by words
    that begin alike ("whose turn" heard "history" or "mister", "Cat, who's next?"
    heard "caird") although the free decode is near it ("His turn.", "Cad was
    next."). The candidates are the PHRASE_PASS phrases nearest the free decode
    (rapidfuzz ratio at least PHRASE_NEAR), and each name followed by those nearest
    its words after the first (by letters or by sound); only sentences of the
    language not already found are scored. Not tried when the search's best
    sentence is the free decode ("how much time" heard whole pays nothing for it)."""
    if not lang.phrases or not free_norm or next(iter(found), None) == free_norm:
        return []
    import jellyfish
    from rapidfuzz import fuzz, process

    keys = lang.phrase_sounds

    def nearest(text: str) -> list[str]:
        by_letters = process.extract(text, lang.phrases, scorer=fuzz.ratio, score_cutoff=PHRASE_NEAR, limit=None)
        by_sound = process.extract(jellyfish.metaphone(text), keys, scorer=fuzz.ratio, score_cutoff=PHRASE_NEAR,
                                   limit=None)
        best: dict[int, float] = {}
        for _, score, i in by_letters + by_sound:
            best[i] = max(best.get(i, 0.0), score)
        return [lang.phrases[i] for i in sorted(best, key=lambda i: -best[i])[:PHRASE_PASS]]

    cands = nearest(free_norm)
    fw = free_norm.split()
    if lang.names and len(fw) >= 2:  # the names the first word sounds like ("cad": cat; "then": ben)
        first = jellyfish.metaphone(fw[0])
        near = sorted(((max(fuzz.ratio(fw[0], n), fuzz.ratio(first, jellyfish.metaphone(n))), n)
                       for n in lang.names), reverse=True)
        names = [n for score, n in near[:PHRASE_NAMES] if score >= PHRASE_NAME_NEAR]
        rest = nearest(" ".join(fw[1:])) if names else []
        cands += [f"{n} {p}" for n in names for p in rest]
    cands = [c for c in dict.fromkeys(cands) if c not in found and lang.accepts(c)]
    if not cands:
        return []
    d2 = decode(rec.model, audio, Sayable.closed(cands).language(), beam=max(rec.beam_size, len(cands)),
                free=False, hidden=d.hidden)
    if not d2.constrained:
        return []
    d.absorb(d2)
    return d2.constrained

def spelling_pass(rec, d: Decoded, audio: np.ndarray, lang: Language, free_norm: str,
                   found: dict[str, float]) -> list[tuple[str, float]]:
    """A word spelled out that the search lost, found by a search of spellings only
    of the language's words (on the same encoder output): its sentences join
    `d.second` and are returned (for the chatter check); none when not tried.

    Only when the language holds spellings, the free decode looks like one (three
    words or more, most of them a letter or near a spelling-alphabet word) and the
    search's best is not one: the search tends to end early on a dictionary word
    ("Papa, Romeo, Oscar, ..." -> "poker") or to lose to the free decode's
    run-together words ("Papuromio, Oskar Sierra, ...")."""
    from rapidfuzz import fuzz, process

    fw = free_norm.split()
    if not lang.spell or len(fw) < 3:
        return []
    best = next(iter(found), "").split()
    if len(best) >= 2 and all(w in lang.spell for w in best[-2:]):
        return []
    near = sum(len(w) == 1 or process.extractOne(w, lang.spell, scorer=fuzz.ratio, score_cutoff=70) is not None
               for w in fw)
    if near * 2 < len(fw):
        return []
    d2 = decode(rec.model, audio, lang.spellings(), beam=rec.beam_size, free=False, hidden=d.hidden)
    if not d2.constrained:
        return []
    d.absorb(d2)
    return d2.constrained
