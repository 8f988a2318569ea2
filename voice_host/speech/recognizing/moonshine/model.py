"""Moonshine base's networks: its tokenizer, the converted (or shipped) ONNX sessions,
and the walk that says which tokens keep a text inside a language (see .recognizer for
the recognizer, .files for where the files are)."""

from __future__ import annotations

import os
from functools import cached_property
from pathlib import Path
from typing import Sequence

import numpy as np

from ...audio import SAMPLE_RATE
from ..models import LOADED
from ..sayable import Language
from .files import find_model_dir

BOS, EOS = 1, 2
VOCAB = 32000
"""Real tokens; the logits are padded to 32768."""
PAD_SECONDS = 0.5
"""Silence added on each side of an utterance (the model misses words at the edges
without it). Tuning split, 320 words clean and 20 dB: 1.0 s 68.1%, RTF 0.43; 0.5 s
68.4%, RTF 0.25; 0.3 s 65.3%."""


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

    def __init__(self, model_dir: Path | None = None, cpu_threads: int | None = None, convert: bool = True,
                 delta: Path | None = None):
        import onnxruntime as ort

        self.model_dir = Path(model_dir) if model_dir else find_model_dir()
        self.tokens = read_tokenizer(self.model_dir / "tokenizer.bin")
        def options(threads: int):
            so = ort.SessionOptions()
            so.intra_op_num_threads = threads
            so.inter_op_num_threads = 1
            so.log_severity_level = 3
            # its threads sleep between runs instead of spinning: the decoder runs once per token
            # with Python between, and spinning threads held both cores of a 2-core machine from
            # the listener (ticks 150-200 ms late) and from that Python (a word 139 -> 125 ms)
            so.add_session_config_entry("session.intra_op.allow_spinning", "0")
            so.graph_optimization_level = ort.GraphOptimizationLevel.ORT_ENABLE_ALL
            return so

        so = self.session_options = options(cpu_threads or max(1, min(4, os.cpu_count() or 1)))
        # the decoder steps are small (a few rows at a time): a second thread costs more to
        # wake than it saves, and with a busy process beside it a word took 75 ms, not 65
        step = options(1)
        providers = ["CPUExecutionProvider"]
        converted = None
        self.delta = Path(delta) if delta else None
        """The adaptation delta added to the weights (.delta), or None: base."""
        if self.delta is not None or (convert and os.environ.get("VOICE_HOST_MOONSHINE_ORT", "") != "1"):
            from .convert import converted_models

            # with a delta: converted (into a folder of its own) or an error, never the base files
            converted = converted_models(self.model_dir, delta=self.delta)
        self.converted = converted
        if converted is not None:
            self.encoder = ort.InferenceSession(str(converted / "encoder.onnx"), so, providers=providers)
            self.first = ort.InferenceSession(str(converted / "decoder_first.onnx"), step, providers=providers)
            self.next = ort.InferenceSession(str(converted / "decoder_next.onnx"), step, providers=providers)
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
        in the dictionary (W, P: a word, its end; L, LM: a word spelled out) do not
        depend on the phrases or names, so their walks are cached per dictionary (and
        what may follow a word: a game's tails) for the whole process: only the first
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
        if kind in ("W", "P", "L", "LM"):
            key = (id(lang.words), lang.word_context, "", s)
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
                        key = (id(lang.words), lang.word_context, " ", r)
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

    @cached_property
    def silence(self) -> tuple:
        """The encoder's output for silence and the decoder's first step on it (the
        decoder's own language model: decode.lm_scores)."""
        hidden = self.encode(np.zeros(int((1 + 2 * PAD_SECONDS) * SAMPLE_RATE), np.float32))
        return hidden, self.decode_first(hidden)

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


def load_moonshine_model(model_dir: str | Path | None = None, cpu_threads: int | None = None,
                         convert: bool = True, delta: str | Path | None = None) -> MoonshineModel:
    """Load (once per process) the Moonshine model (with an adaptation `delta`)."""
    d = Path(model_dir) if model_dir else find_model_dir()
    key = (str(d.resolve()), cpu_threads, convert, str(Path(delta).resolve()) if delta else None)
    return LOADED.get(("moonshine", *key), lambda: MoonshineModel(d, cpu_threads, convert, Path(delta) if delta else None))
