"""Moonshine's decoding: the free greedy decode and the beam search restricted to a
language in one batch, forced scores of given token sequences, and the decoder's own
prior (its scores given silence)."""

from __future__ import annotations

import math
import time
from dataclasses import dataclass, field
from typing import Sequence

import numpy as np

from ...audio import SAMPLE_RATE
from ..recognizer import normalize_text
from ..sayable import Language

from .model import EOS, PAD_SECONDS, MoonshineModel, _log_softmax


def _tile_cache(cache: dict, n: int) -> dict:
    return {k: np.ascontiguousarray(np.repeat(v, n, axis=0)) for k, v in cache.items()}


def forced_scores(model: MoonshineModel, hidden: np.ndarray, seqs: Sequence[Sequence[int]],
                  first: tuple | None = None) -> list[float]:
    """The decoder's log-likelihood of each token sequence (plus the end token) given
    the encoder output `hidden` (teacher forcing, all sequences in one batch)."""
    if not seqs:
        return []
    ys = [list(q) + [EOS] for q in seqs]
    n, steps = len(ys), max(len(y) for y in ys)
    logits, cache0 = first if first is not None else model.decode_first(hidden)
    lp = _log_softmax(logits)[0]
    scores = np.array([lp[y[0]] for y in ys], np.float64)
    cache = _tile_cache(cache0, n)
    for t in range(1, steps):
        last = np.array([y[t - 1] if t - 1 < len(y) else EOS for y in ys], np.int64)
        logits, cache = model.decode_next(last, cache, hidden)
        lp = _log_softmax(logits)
        for i, y in enumerate(ys):
            if t < len(y):
                scores[i] += lp[i, y[t]]
    return scores.tolist()


def lm_scores(model: MoonshineModel, seqs: Sequence[Sequence[int]]) -> list[float]:
    """The decoder's own language model: log-likelihoods of `seqs` given silence
    (used to take part of the prior out of the scores of rare words)."""
    hidden, first = model.silence
    return forced_scores(model, hidden, seqs, first)


@dataclass
class Hypothesis:
    ids: list[int]
    score: float
    """The decoder's log-likelihood so far."""
    states: frozenset | None = None
    """None for the free decode."""
    done: bool = False
    bonus: float = 0.0
    """The game's prior for it (the best below its state; its word's once whole): the
    beam ranks by score + bonus."""


@dataclass
class Decoded:
    """What one utterance decoded to."""

    free: str
    """The free (greedy) decode, as the model wrote it."""
    free_score: float
    """Its log-likelihood (with the end token)."""
    constrained: list[tuple[str, float]] = field(default_factory=list)
    """Sentences of the language as written, with log-likelihoods, best first."""
    steps: int = 0
    seconds: float = 0.0
    encoder_seconds: float = 0.0
    constraint_seconds: float = 0.0
    """Time spent computing the allowed tokens (the language x vocabulary walk)."""
    free_tokens: int = 0
    """Tokens in the free decode (with the end token)."""
    ids: dict = field(default_factory=dict)
    """The token ids of each text in `constrained` (and of `free`)."""
    second: list[tuple[str, float]] = field(default_factory=list)
    """Sentences scored by the recognizer's second pass (not the search's: the chatter
    check uses only `constrained`), best first."""
    hidden: np.ndarray | None = field(default=None, repr=False)
    """The encoder output (to decode the same audio again without encoding it)."""

    def absorb(self, other: "Decoded") -> None:
        """Take a second search on the same encoder output into this one: its sentences
        into `second` (best first), their token ids, its time."""
        self.second = sorted(self.second + other.constrained, key=lambda kv: -kv[1])
        for text, ids in other.ids.items():
            self.ids.setdefault(text, ids)
        self.seconds += other.seconds
        self.constraint_seconds += other.constraint_seconds


def decode(model: MoonshineModel, audio: np.ndarray, lang: Language | None = None, beam: int = 8,
           free: bool = True, max_tokens: int | None = None, hidden: np.ndarray | None = None,
           prior=None, fit=None) -> Decoded:
    """Free greedy decode and (with `lang`) a beam search restricted to it, run in one
    batch. The first step never ends the text; the length is capped by the audio's
    duration. `hidden`: the encoder output of this audio when already computed
    (`Decoded.hidden` of an earlier decode). `prior` (words.prior.SearchPrior over the
    language's words): the beam ranks each hypothesis by its log-likelihood plus the
    best bonus it can still reach, and a whole sentence by its log-likelihood plus its
    own bonus; the scores returned are the log-likelihoods alone. `fit` (a callable, e.g.
    recognizing.duration.LengthFit): a further bonus of each whole sentence (normalized
    text), added where it ends, so a sentence too short for the sound does not end the
    search early."""
    t0 = time.perf_counter()
    audio = np.asarray(audio, np.float32).reshape(-1)
    dur = audio.size / SAMPLE_RATE
    if hidden is None:
        pad = np.zeros(int(PAD_SECONDS * SAMPLE_RATE), np.float32)
        hidden = model.encode(np.concatenate([pad, audio, pad]))
    t_enc = time.perf_counter() - t0
    cap = max_tokens or int(math.ceil(dur * 7.0)) + 6
    logits, cache0 = model.decode_first(hidden)
    lp0 = _log_softmax(logits)[0]
    lp0[EOS] = -np.inf  # never end at the first step
    t_con = 0.0

    free_h: Hypothesis | None = None
    free_done: Hypothesis | None = None
    rows: list[Hypothesis] = []
    if free:
        tok = int(np.argmax(lp0))
        free_h = Hypothesis([tok], float(lp0[tok]))
        rows.append(free_h)
    finished: list[Hypothesis] = []
    done_text: dict[str, float] = {}
    ahead = lang.ahead(prior) if prior is not None and lang is not None else None

    def bonus(states: frozenset, parent: float) -> float:
        if ahead is None:
            return 0.0
        b = ahead.states(states)
        return parent if b is None else b

    if lang is not None and lang.start:
        tc = time.perf_counter()
        ids, nxt = model.allowed(lang, lang.start)
        t_con += time.perf_counter() - tc
        if ids.size:
            ranked = lp0[ids] + (ahead.many(nxt) if ahead is not None else 0.0)
            order = np.argsort(-ranked)[:beam]
            rows.extend(Hypothesis([int(ids[j])], float(lp0[ids[j]]), nxt[j], bonus=bonus(nxt[j], 0.0))
                        for j in order)
    if not rows:
        return Decoded("", -math.inf, [], 0, time.perf_counter() - t0, t_enc, t_con)
    enc_cache = {k: v for k, v in _tile_cache(cache0, beam + 1).items() if ".encoder." in k}
    dec_cache = {k: v for k, v in cache0.items() if ".encoder." not in k}
    parents = [0] * len(rows)
    steps = 1
    bar = -math.inf  # the runner-up sentence's score: a beam below it cannot matter
    while rows and steps < cap:
        idx = np.asarray(parents, np.int64)
        n = len(rows)
        cache = {k: np.ascontiguousarray(v[idx]) for k, v in dec_cache.items()}
        cache.update({k: v[:n] for k, v in enc_cache.items()})
        last = np.asarray([h.ids[-1] for h in rows], np.int64)
        logits, cache = model.decode_next(last, cache, hidden)
        dec_cache = {k: v for k, v in cache.items() if ".encoder." not in k}
        lp = _log_softmax(logits)
        steps += 1
        new_rows: list[Hypothesis] = []
        new_parents: list[int] = []
        cands: list[tuple[float, float, int, int, frozenset | None, float]] = []  # rank, score, row, token, states, bonus
        for r, h in enumerate(rows):
            if h.states is None:  # the free decode: greedy
                tok = int(np.argmax(lp[r]))
                s = h.score + float(lp[r, tok])
                if tok == EOS:
                    free_done = Hypothesis(h.ids, s, None, True)
                else:
                    new_rows.append(Hypothesis(h.ids + [tok], s))
                    new_parents.append(r)
                continue
            tc = time.perf_counter()
            ids, nxt = model.allowed(lang, h.states)
            t_con += time.perf_counter() - tc
            if lang.final(h.states):
                s = h.score + float(lp[r, EOS])
                b = 0.0
                if ahead is not None or fit is not None:
                    text = normalize_text(model.detokenize(h.ids))
                    b = (ahead.sentence(text, searching=True) if ahead is not None else 0.0) \
                        + (fit(text) if fit is not None else 0.0)
                cands.append((s + b, s, r, EOS, None, b))
            if ids.size:
                sc = lp[r, ids]
                if ahead is not None:  # rank the tokens by what they lead to, the prior included
                    sc = sc + np.fromiter((bonus(st, h.bonus) for st in nxt), np.float32, len(nxt))
                k = min(beam, ids.size)
                top = np.argpartition(-sc, k - 1)[:k] if ids.size > k else np.arange(ids.size)
                for j in top:
                    b = bonus(nxt[j], h.bonus)
                    s = h.score + float(lp[r, ids[j]])
                    cands.append((s + b, s, r, int(ids[j]), nxt[j], b))
        cands.sort(key=lambda c: -c[0])
        kept = 0
        for rank, s, r, tok, st, b in cands:
            if kept >= beam or rank < bar:
                break
            if tok == EOS:
                f = Hypothesis(rows[r].ids, s, rows[r].states, True, b)
                finished.append(f)
                done_text.setdefault(normalize_text(model.detokenize(f.ids)), rank)
                if len(done_text) >= 2:
                    bar = sorted(done_text.values(), reverse=True)[1]
                else:
                    bar = max(done_text.values()) - 12.0
                continue
            new_rows.append(Hypothesis(rows[r].ids + [tok], s, st, bonus=b))
            new_parents.append(r)
            kept += 1
        keep = [i for i, h in enumerate(new_rows) if h.states is None or h.score + h.bonus >= bar]
        rows = [new_rows[i] for i in keep]
        parents = [new_parents[i] for i in keep]
    if free and free_done is None:
        # capped: take the free decode as it stands, with a penalty
        last_free = next((h for h in rows if h.states is None), free_h)
        free_done = Hypothesis(last_free.ids, last_free.score - 5.0, None, True)
    merged: dict[str, float] = {}
    seqs: dict[str, list[int]] = {}
    for f in sorted(finished, key=lambda f: -(f.score + f.bonus)):
        text = model.detokenize(f.ids)
        merged.setdefault(text, f.score)
        seqs.setdefault(text, f.ids)
    if free_done is not None:
        seqs.setdefault(model.detokenize(free_done.ids), free_done.ids)
    return Decoded(
        model.detokenize(free_done.ids) if free_done else "",
        free_done.score if free_done else -math.inf,
        sorted(merged.items(), key=lambda kv: -kv[1]),
        steps, time.perf_counter() - t0, t_enc, t_con,
        len(free_done.ids) + 1 if free_done else 0,
        seqs,
        hidden=hidden,
    )


def _posterior(scores: Sequence[float]) -> float:
    """The share of the first of `scores` (log-likelihoods) among them all."""
    if not scores:
        return 0.0
    s = np.asarray(scores, np.float64)
    return float(1.0 / np.exp(s - s[0]).sum())
