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
from ..recognizer import WholeUtterance, normalize_text
from voice_host.messages import Opinion, Transcript, Word
from ..sayable import Language, Sayable
from ..duration import LengthFit
from .confidence import calibrated, evidence
from .decode import Decoded, _posterior, decode, lm_scores
from .model import MoonshineModel, load_moonshine_model
from .opinion import Prompts, candidates, weigh
from .passes import phrase_pass, second_pass, spelling_pass

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
    searches = takes_second_ear = takes_delta = True
    """What it can take (the Recognizer protocol): it searches a whole language, weighs a
    second ear and runs adapted weights."""

    def __init__(self, model_path: str | Path | None = None, cpu_threads: int | None = None,
                 beam_size: int = 8, chatter_margin: float = CHATTER_MARGIN, convert: bool = True,
                 lm_weight: float = LM_WEIGHT, _model: MoonshineModel | None = None, second_pass: bool = True,
                 length_weight: float = LENGTH_WEIGHT, second_ear=None, sayable: Sayable | None = None):
        self.model = _model if _model is not None else load_moonshine_model(model_path, cpu_threads, convert)
        self.model_path = self.model.model_dir
        self.beam_size = beam_size
        self.chatter_margin = chatter_margin
        self.lm_weight = lm_weight
        self.second_pass = second_pass
        self.length_weight = length_weight
        self.second_ear = second_ear
        """A second recognizer (recognizer.SecondEar, given by the registry) whose reading of
        each constrained utterance is weighed with this one's (.opinion); None: this one alone."""
        self._prompts = Prompts()
        self.opinion: Opinion | None = None
        """The last constrained result's second opinion, for benchmarks."""
        self._sayable: Sayable | None = sayable  # what may be said (constrain); a clone's is its original's
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
        return MoonshineRecognizer(beam_size=self.beam_size, chatter_margin=self.chatter_margin,
                                   lm_weight=self.lm_weight, _model=self.model, second_pass=self.second_pass,
                                   length_weight=self.length_weight, second_ear=self.second_ear,
                                   sayable=self._sayable)



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
        pending = None if self.second_ear is None or lang is None else \
            self.second_ear.hear(audio, self._prompts(sayable))
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
            second_pass(self, d, audio, lang, free_norm, alts)
            searched += spelling_pass(self, d, audio, lang, free_norm, alts)
            searched += phrase_pass(self, d, audio, lang, free_norm, alts)
        second = pending.result() if pending is not None else None
        theirs = candidates(second.text if second else "", lang, next(iter(alts), ""))
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
            conf, self.opinion = weigh(conf, alternatives, first, second, theirs)
        raw = raw_of[best_text]
        return self._transcript(best_text, raw, conf, dur, free=free_norm, free_score=d.free_score,
                                alternatives=alternatives, constrained=True, opinion=self.opinion,
                                complete=_complete(lang, alternatives, d.free_score - acoustic))

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
