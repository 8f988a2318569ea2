"""Moonshine base (English) run with onnxruntime, with a decoding loop we own.

The model files come from the PyPI package moonshine-cpp (``moonshine_cpp/models/
base-en``). Its own native library is never imported or loaded (it dies with SIGILL
on CPUs without AVX-512): the files are located with importlib's finder, which does
not run the package's ``__init__`` (that one loads the .so with ctypes).

On first use the .ort files are converted once into the user's cache
(:mod:`.convert`, ~10 s); when that fails the .ort files
run as shipped (about 3x slower), and a line on stderr says so.

:class:`MoonshineRecognizer` runs once per utterance when it ends, like the whisper
engine: the encoder once, then the decoder step by step with its key/value cache,
one batch holding the free greedy decode (row 0) and the beams of a search
restricted to what may be said (:class:`~voice_host.speech.recognizing.sayable.Sayable`), each
token allowed only when the text so far plus the token stays a prefix of a sentence
of that language (checked character by character, so no canonical tokenization is
assumed). Scores are the decoder's own log-likelihoods.
"""

from __future__ import annotations

import math
import threading
from pathlib import Path
from typing import Sequence

import numpy as np

from ...audio import SAMPLE_RATE
from ..recognizer import Opinion, Transcript, WholeUtterance, Word, normalize_text
from ..sayable import Language, Sayable
from ..duration import LengthFit
from .confidence import calibrated, evidence
from .decode import Decoded, _posterior, decode, lm_scores
from .model import MoonshineModel, load_moonshine_model
from .opinion import candidates, weigh

CHATTER_MARGIN = 8.0
"""How many nats the free decode must score above the best sayable sentence for the
utterance to be taken as free speech (chatter, an enrollment sentence) instead.
Decided on the tuning split of benchmarks/recognition.py (the full run chose 6.5
with 1 s of padding, 8.0 with 0.5 s)."""

COMPLETE_MARGIN = 3.0
"""How many nats the best sentence must score above the free decode before a pause can
end the utterance early (Transcript.complete): single game words score 3-8 nats above
it, phrases cut short at a pause 0-3 (benchmarks/latency.py, false endings)."""

SPELL_SLACK = 2.0
"""How many more nats the free decode needs per spelled letter when the sentence it
beats is a spelling: a spelling is long and each letter half-heard in noise costs a
few nats ("Juliet, Echo, ..., Lena, ..., Vieira." beats the right spelling by 12.7),
while chatter can hardly pass for a spelling, which must spell a dictionary word."""

PHRASE_SLACK = 2.0
"""How many more nats the free decode needs per word of a phrase (after the first) when
the sentence it beats is one of the language's phrases: the free decode writes each word
of a sentence as the likeliest English goes on ("Cad was next." for "Cat, who's next?",
12.6 nats better), so a long question falls behind it word by word as a spelling does
letter by letter, while chatter can hardly pass for one of the few phrases there are."""

LM_WEIGHT = 0.25
"""How much of the decoder's own prior (its log-likelihood of the sentence given
silence) is taken out of a constrained sentence's score: rare dictionary words lose
less to common ones ("abandoned" against "abandon"). 0.1-0.3 all gave +5 points on
the tuning split (57 -> 62% of words and names, clean and 20 dB)."""
LENGTH_WEIGHT = 8.0
"""Nats a sentence of the language loses per second of voice it is too short to fill
(recognizing.duration.LengthFit; 0: off). Neutral where measured: 8 and 16 left
board_words.py's and confidence.py's words right as often as 0 (the long words that
end as a short one are, with the board's prior, mostly not in the n-best at all); kept
as the guard a scorekeeper has, at a weight that moves nothing it should not."""
RESCORE = 8
"""How many of the search's best sentences are rescored that way."""
PHRASE_PASS = 4
"""How many of the language's phrases nearest the free decode (and, after each name, nearest
its words after the first) the phrase pass scores (MoonshineRecognizer._phrase_pass)."""
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
MoonshineRecognizer._second_pass). Tuning split, "NAME, word" clean / 20 dB: 3 gave
70.8 / 58.3%, 5 70.8 / 62.5% (and 75.0 / 50.0 -> 79.2 / 54.2% on a second set of 24)."""


def _letters(lang: Language, sentence: str) -> int:
    """How many letters `sentence` spells (0 when it is not a spelling)."""
    words = normalize_text(sentence).split()
    lead = max((len(n.split()) for n in lang.names if words[:len(n.split())] == n.split()), default=0)
    words = words[lead:]
    return len(words) if len(words) >= 2 and all(w in lang.spell for w in words) else 0


def _phrase_words(lang: Language, sentence: str) -> int:
    """How many words after the first `sentence` has when it is a phrase of `lang` (a
    name before it counted: "ann whose turn is it" 4), else 0."""
    text = normalize_text(sentence)
    words = text.split()
    body = next((" ".join(words[len(n.split()):]) for n in lang.names if words[:len(n.split())] == n.split()),
                text)
    return len(words) - 1 if _in(lang.phrases, body) or _in(lang.phrases, text) else 0


def _in(strings: list[str], s: str) -> bool:
    from bisect import bisect_left

    i = bisect_left(strings, s)
    return i < len(strings) and strings[i] == s


_SOUNDS: dict[int, tuple[Language, list[str]]] = {}


def _sounds(lang: Language) -> list[str]:
    """The Metaphone key of each of the language's phrases (kept for the last few languages)."""
    hit = _SOUNDS.get(id(lang))
    if hit is None or hit[0] is not lang:
        import jellyfish

        if len(_SOUNDS) >= 8:
            _SOUNDS.pop(next(iter(_SOUNDS)))
        hit = _SOUNDS[id(lang)] = (lang, [jellyfish.metaphone(p) for p in lang.phrases])
    return hit[1]


def _complete(lang: Language, alternatives: list[tuple[str, float]], free_over: float) -> float:
    """How sure the search is that the utterance is over: the n-best's probability on
    sentences that cannot go on (not a name before its word, not the start of a longer
    phrase), when the best sentence explains the audio at least COMPLETE_MARGIN nats
    better than the free decode (`free_over`: the free decode's score over the best
    sentence's, before the game's prior; a phrase cut short, "whose turn ...", is
    explained about as well by free text as by the nearest word); else 0."""
    if not math.isfinite(free_over) or free_over > -COMPLETE_MARGIN:
        return 0.0
    top = alternatives[0][1]
    weights = [(math.exp(score - top), lang.goes_on(text)) for text, score in alternatives]
    return sum(w for w, goes_on in weights if not goes_on) / sum(w for w, _ in weights)


class MoonshineRecognizer(WholeUtterance):
    """Moonshine base, run once per utterance when it ends (no partial results).

    Constrained with :meth:`constrain` (a :class:`Sayable`) or :meth:`expect` (a
    closed list), the text is the best sentence of that language by the decoder's
    own scores unless the free decode scores far better (chatter); see
    :meth:`transcribe`.
    """

    name = "moonshine"

    def __init__(self, model_path: str | Path | None = None, cpu_threads: int | None = None,
                 beam_size: int = 8, chatter_margin: float = CHATTER_MARGIN, convert: bool = True,
                 lm_weight: float = LM_WEIGHT, _model: MoonshineModel | None = None, second_pass: bool = True,
                 length_weight: float = LENGTH_WEIGHT, second_ear=None):
        self.model = _model if _model is not None else load_moonshine_model(model_path, cpu_threads, convert)
        self.model_path = self.model.model_dir
        self.beam_size = beam_size
        self.chatter_margin = chatter_margin
        self.lm_weight = lm_weight
        self.second_pass = second_pass
        self.length_weight = length_weight
        self.second_ear = second_ear
        """A second recognizer (speech.recognizing.whisper.second.SecondEar) whose reading of
        each constrained utterance is weighed with this one's (.opinion); None: this one alone."""
        self.opinion: Opinion | None = None
        """The last constrained result's second opinion, for benchmarks."""
        self._sayable: Sayable | None = None
        self._chunks: list[np.ndarray] = []
        self.last: Decoded | None = None
        """The last utterance's decoding details (scores, times), for benchmarks."""
        self.evidence: tuple[float, ...] | None = None
        """The last constrained result's measures (.confidence.evidence), for benchmarks."""

    # -- the Recognizer protocol

    def expect(self, phrases: Sequence[str] | None) -> None:
        """A closed list of phrases (None: anything)."""
        self._sayable = Sayable.closed(phrases) if phrases else None

    def constrain(self, sayable: Sayable | None) -> None:
        """What may be said next (None: anything). Takes effect at the next utterance.

        The language's first tokens, ranked by the game's prior, are worked out at
        once in a background thread (the first Sayable over a dictionary takes ~1 s,
        later ones ~0.1 s), so the next utterance does not wait for them."""
        self._sayable = sayable
        if sayable is not None:
            threading.Thread(target=self._warm, args=(sayable,), daemon=True).start()

    def _warm(self, sayable: Sayable) -> None:
        try:
            lang = sayable.language()
            if lang.start:
                _, nxt = self.model.allowed(lang, lang.start)
                if sayable.prior is not None:  # the first step ranks every first token with the prior
                    lang.ahead(sayable.prior).many(nxt)
        except Exception:  # noqa: BLE001 - only a warm-up: the utterance redoes it
            pass

    @property
    def sayable(self) -> Sayable | None:
        return self._sayable

    def clone(self) -> "MoonshineRecognizer":
        other = MoonshineRecognizer(beam_size=self.beam_size, chatter_margin=self.chatter_margin,
                                    lm_weight=self.lm_weight, _model=self.model, second_pass=self.second_pass,
                                    length_weight=self.length_weight, second_ear=self.second_ear)
        other._sayable = self._sayable
        return other



    # -- recognition

    def transcribe(self, audio: np.ndarray, sayable: Sayable | None | bool = True) -> Transcript:
        """Recognize one whole utterance (`sayable`: True for the current constraint,
        None for free decoding, or a Sayable for this call).

        Free: text is the greedy decode, confidence exp(mean token log-likelihood).
        Constrained: text is the best sentence of the language (normalized),
        ``constrained=True``, alternatives the n-best sentences (normalized, with
        their scores: the log-likelihood minus `lm_weight` times the decoder's
        prior for the sentence, see LM_WEIGHT, plus the game's prior and the length fit),
        confidence how likely the best one is what was said, calibrated on the tuning
        split from its fit, its lead over the runner-up, its share of the n-best and its
        length (.confidence.calibrated). When the free decode's log-likelihood is more than
        `chatter_margin` nats above that of every sentence of the language (table chatter, "I am Ann and I am
        ready to play"), text is the free decode with ``constrained=False`` and a
        confidence of at most 0.2.
        """
        audio = np.asarray(audio, dtype=np.float32).reshape(-1)
        if sayable is True:
            sayable = self._sayable
        if audio.size < SAMPLE_RATE // 10:
            return Transcript("", [], 0.0, engine=self.name)
        lang = sayable.language() if sayable is not None else None
        game_prior = sayable.prior if sayable is not None else None
        fit = LengthFit.of(audio, weight=self.length_weight) if lang is not None and self.length_weight else None
        pending = self.second_ear.hear(audio) if self.second_ear is not None and lang is not None else None
        d = decode(self.model, audio, lang, beam=self.beam_size, free=True, prior=game_prior, fit=fit)
        self.last, self.evidence, self.opinion = d, None, None
        dur = audio.size / SAMPLE_RATE
        free_norm = normalize_text(d.free)
        n_free = max(1, d.free_tokens)
        free_conf = float(math.exp(d.free_score / n_free)) if math.isfinite(d.free_score) else 0.0
        if lang is None:
            return self._transcript(free_norm, d.free, free_conf, dur, free=free_norm, free_score=d.free_score)
        alts: dict[str, float] = {}
        raw_of: dict[str, str] = {}
        for text, score in d.constrained:
            alts.setdefault(normalize_text(text), score)
            raw_of.setdefault(normalize_text(text), text)
        searched = list(d.constrained)  # the chatter check: the search's own sentences
        if self.second_pass:
            self._second_pass(d, audio, lang, free_norm, alts)
            searched += self._spelling_pass(d, audio, lang, free_norm, alts)
            searched += self._phrase_pass(d, audio, lang, free_norm, alts)
        reading = pending.result() if pending is not None else ""
        theirs = candidates(reading, lang, next(iter(alts), ""))
        scored = [c for c in theirs if c not in alts]
        if scored:  # the second ear's reading, scored by this one on the same encoder output
            d.absorb(decode(self.model, audio, Sayable.closed(scored).language(), beam=max(self.beam_size, len(scored)),
                            free=False, hidden=d.hidden))
        found = sorted(dict(d.second + d.constrained).items(), key=lambda kv: -kv[1])
        for text, score in found:
            alts.setdefault(normalize_text(text), score)
            raw_of.setdefault(normalize_text(text), text)
        if self.lm_weight and len(found) > 1:
            top, seen = [], set()  # the best way of writing each of the RESCORE best sentences
            for text, score in found:
                key = normalize_text(text)
                if key not in seen and (len(top) < RESCORE or key in theirs):
                    seen.add(key)
                    top.append((text, score))
            lm = lm_scores(self.model, [d.ids[t] for t, _ in top])
            alts = {}
            for (text, score), prior in sorted(zip(top, lm), key=lambda x: -(x[0][1] - self.lm_weight * x[1])):
                key = normalize_text(text)
                if key not in alts:
                    alts[key] = score - self.lm_weight * prior
                    raw_of[key] = text
        acoustic = max(alts.values(), default=-math.inf)  # before the game's prior
        if game_prior is not None:  # the game's prior: what a player would say on this board
            ahead = lang.ahead(game_prior)
            alts = {text: score + ahead.sentence(text) for text, score in alts.items()}
        if fit is not None:  # a sentence too short for the sound
            alts = {text: score + fit(text) for text, score in alts.items()}
        alternatives = sorted(alts.items(), key=lambda kv: -kv[1])
        if not alternatives or all(d.free_score - score > self.chatter_margin + SPELL_SLACK * _letters(lang, text)
                                   + PHRASE_SLACK * _phrase_words(lang, text) for text, score in searched):
            conf = min(0.2, free_conf)
            return self._transcript(free_norm, d.free, conf, dur, free=free_norm, free_score=d.free_score,
                                    alternatives=alternatives, constrained=False)
        best_text, best = alternatives[0]
        self.evidence = evidence(alternatives, _posterior([s for _, s in alternatives]), free_norm,
                                 d.free_score - acoustic)
        conf = calibrated(self.evidence)
        if pending is not None:
            first = next((text for text, _ in alternatives if text not in scored), best_text)  # the first ear's own
            conf, self.opinion = weigh(conf, alternatives, first, reading, theirs)
        raw = raw_of[best_text]
        return self._transcript(best_text, raw, conf, dur, free=free_norm, free_score=d.free_score,
                                alternatives=alternatives, constrained=True, opinion=self.opinion,
                                complete=_complete(lang, alternatives, d.free_score - acoustic))

    def _second_pass(self, d: Decoded, audio: np.ndarray, lang: Language, free_norm: str,
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
        d2 = decode(self.model, audio, Sayable.closed(cands).language(), beam=max(self.beam_size, len(cands)),
                    free=False, hidden=d.hidden)
        d.absorb(d2)

    def _phrase_pass(self, d: Decoded, audio: np.ndarray, lang: Language, free_norm: str,
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

        keys = _sounds(lang)

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
        d2 = decode(self.model, audio, Sayable.closed(cands).language(), beam=max(self.beam_size, len(cands)),
                    free=False, hidden=d.hidden)
        if not d2.constrained:
            return []
        d.absorb(d2)
        return d2.constrained

    def _spelling_pass(self, d: Decoded, audio: np.ndarray, lang: Language, free_norm: str,
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
        d2 = decode(self.model, audio, lang.spellings(), beam=self.beam_size, free=False, hidden=d.hidden)
        if not d2.constrained:
            return []
        d.absorb(d2)
        return d2.constrained

    def _transcript(self, text: str, raw: str, conf: float, dur: float, **extra) -> Transcript:
        parts = text.split()
        words = [Word(w, dur * i / len(parts), dur * (i + 1) / len(parts), conf) for i, w in enumerate(parts)]
        return Transcript(text, words, conf, final=True, engine=self.name, raw=raw, **extra)

    def rank(self, audio: np.ndarray, candidates: Sequence[str]) -> list[tuple[str, float]]:
        """Score each candidate text as what was said in `audio` (the decoder's
        log-likelihood of the best way of writing it); best first."""
        cands = [c for c in dict.fromkeys(normalize_text(c) for c in candidates) if c]
        if not cands:
            return []
        d = decode(self.model, audio, Sayable.closed(cands).language(), beam=max(self.beam_size, len(cands)),
                   free=False)
        got: dict[str, float] = {}
        for text, score in d.constrained:
            got.setdefault(normalize_text(text), score)
        return sorted(((c, got.get(c, -math.inf)) for c in cands), key=lambda cs: -cs[1])


__all__ = ["CHATTER_MARGIN", "MoonshineRecognizer"]
