"""Speech recognition behind one small interface, with two engines.

A :class:`Recognizer` is fed the audio of one utterance as it arrives (float32 mono
at 16 kHz), may report partial results while it listens, and gives a
:class:`Transcript` when the utterance is over (:meth:`Recognizer.finish`). Word
times are seconds from the start of the audio fed since the last reset.

- :class:`VoskRecognizer` (default): streaming Kaldi recognizer, partial results, its
  own endpoints, word timings, runtime grammars for closed sets (`expect`).
- :class:`WhisperRecognizer` (extra "whisper"): faster-whisper run once per utterance
  when it ends; recognizes rare and long words a small vosk vocabulary cannot output;
  expected words become the decoder's prompt and hotwords.
- :class:`~voice_host.speech.moonshine.MoonshineRecognizer` ("moonshine", the best
  installed by default: "auto"): Moonshine base with our own decoding loop, run once
  per utterance; `constrain(Sayable)` restricts it to what may be said (a dictionary
  word after an optional name, or a phrase), scored by the decoder itself.
"""

from __future__ import annotations

import json
import os
import re
import threading
from dataclasses import dataclass, field
from pathlib import Path
from typing import Protocol, Sequence

import numpy as np

from .models import find_vosk_model, find_whisper_model
from .sources import SAMPLE_RATE


@dataclass
class Word:
    """One recognized word."""

    text: str
    """The word, lower case, without punctuation."""
    start: float
    """Start time in seconds (relative to the utterance audio unless shifted)."""
    end: float
    """End time in seconds."""
    conf: float
    """The engine's confidence in this word, 0..1."""


@dataclass
class Transcript:
    """What a recognizer heard in (part of) an utterance."""

    text: str
    """Normalized text: lower case words separated by single spaces, no punctuation."""
    words: list[Word] = field(default_factory=list)
    """The words with their times; may be empty for partial results."""
    confidence: float = 0.0
    """Overall confidence 0..1 (mean word confidence; 0 when nothing was heard)."""
    final: bool = True
    """False for a partial result that may still change."""
    engine: str = ""
    """Which engine produced it ("vosk", "whisper" or "moonshine")."""
    raw: str = ""
    """The engine's own text before normalization (case, punctuation)."""
    constrained: bool = False
    """True when `text` is a sentence of the language the recognizer was constrained
    to (Recognizer.constrain / expect, moonshine); False for free text, including a
    constrained recognizer's fall-back to free text for chatter."""
    alternatives: list[tuple[str, float]] = field(default_factory=list)
    """Constrained recognition's n-best sentences (normalized), best first, with the
    decoder's log-likelihoods (nats; higher is better)."""
    free: str = ""
    """The unconstrained decode of the same audio, normalized (moonshine)."""
    free_score: float | None = None
    """The free decode's log-likelihood, comparable with `alternatives`' scores."""


class Recognizer(Protocol):
    """The interface the turn detector drives; one instance per audio stream."""

    name: str
    """Engine name: "vosk" or "whisper"."""

    def feed(self, samples: np.ndarray) -> Transcript | None:
        """Accept more audio; return a partial (final=False) or an engine-endpoint
        segment (final=True) when there is news, else None."""

    def finish(self) -> Transcript:
        """The utterance is over: the transcript of everything fed since reset; resets."""

    def reset(self) -> None:
        """Forget the audio fed so far (start of a new utterance)."""

    def expect(self, phrases: Sequence[str] | None) -> None:
        """Tell the engine what it may hear next (None: anything). Takes effect at
        the next utterance."""

    def constrain(self, sayable) -> None:
        """Tell the engine what may be said next as a
        :class:`~voice_host.speech.sayable.Sayable` (None: anything); takes effect
        at the next utterance. Moonshine searches that whole language; vosk and
        whisper get its names and phrases as a closed list when it has no
        dictionary, and decode freely when it has one."""

    def clone(self) -> "Recognizer":
        """A fresh independent stream sharing the loaded model (one per channel)."""


_WORD_RE = re.compile(r"[a-z0-9']+|[^\W\d_]+", re.UNICODE)


def normalize_text(text: str) -> str:
    """Lower case, punctuation dropped, words separated by one space."""
    words = (w.strip("'") for w in _WORD_RE.findall(text.lower()))
    return " ".join(w for w in words if w)


def _closed_phrases(sayable) -> list[str] | None:
    """What a closed-list engine can take of a Sayable: its phrases and names, or
    None (anything) when it holds a dictionary or is None."""
    if sayable is None or sayable.words is not None:
        return None
    return list(dict.fromkeys([*sayable.phrases, *sayable.names])) or None


def _to_int16_bytes(samples: np.ndarray) -> bytes:
    samples = np.asarray(samples, dtype=np.float32).reshape(-1)
    return (np.clip(samples, -1.0, 1.0) * 32767.0).astype("<i2").tobytes()


# --------------------------------------------------------------------------- vosk

_vosk_models: dict[str, object] = {}
_vosk_lock = threading.Lock()


def load_vosk_model(path: str | Path):
    """Load (once per process) the vosk model in directory `path`."""
    import vosk

    key = str(Path(path).resolve())
    with _vosk_lock:
        if key not in _vosk_models:
            vosk.SetLogLevel(-1)
            _vosk_models[key] = vosk.Model(key)
        return _vosk_models[key]


class VoskRecognizer:
    """Streaming vosk (Kaldi) recognizer with partials, word timings and grammars."""

    name = "vosk"

    def __init__(
        self,
        model_path: str | Path | None = None,
        grammar: Sequence[str] | None = None,
        sample_rate: int = SAMPLE_RATE,
        _model=None,
    ):
        self.model_path = Path(model_path) if model_path else find_vosk_model()
        self.model = _model if _model is not None else load_vosk_model(self.model_path)
        self.sample_rate = sample_rate
        self._grammar: list[str] | None = list(grammar) if grammar else None
        self._pending_grammar: list[str] | None | bool = False  # False: no change
        self._segments: list[dict] = []
        self._partial = ""
        self._rec = self._new_recognizer()

    def _new_recognizer(self):
        import vosk

        if self._grammar:
            phrases = list(dict.fromkeys(p.lower() for p in self._grammar)) + ["[unk]"]
            rec = vosk.KaldiRecognizer(self.model, self.sample_rate, json.dumps(phrases))
        else:
            rec = vosk.KaldiRecognizer(self.model, self.sample_rate)
        rec.SetWords(True)
        rec.SetPartialWords(True)
        return rec

    @property
    def grammar(self) -> list[str] | None:
        """The phrases the recognizer is restricted to (None: free vocabulary)."""
        return self._grammar

    def expect(self, phrases: Sequence[str] | None) -> None:
        self._pending_grammar = list(phrases) if phrases else None

    def constrain(self, sayable) -> None:
        self.expect(_closed_phrases(sayable))

    def clone(self) -> "VoskRecognizer":
        grammar = self._grammar if self._pending_grammar is False else self._pending_grammar
        return VoskRecognizer(self.model_path, grammar or None, self.sample_rate, _model=self.model)

    def reset(self) -> None:
        self._segments = []
        self._partial = ""
        if self._pending_grammar is not False:
            self._grammar = self._pending_grammar  # type: ignore[assignment]
            self._pending_grammar = False
            self._rec = self._new_recognizer()
        else:
            self._rec.Reset()

    def feed(self, samples: np.ndarray) -> Transcript | None:
        if self._rec.AcceptWaveform(_to_int16_bytes(samples)):
            result = json.loads(self._rec.Result())
            self._partial = ""
            if result.get("text"):
                self._segments.append(result)
                return self._transcript([result])
            return None
        partial = json.loads(self._rec.PartialResult())
        text = partial.get("partial", "")
        if text and text != self._partial:
            self._partial = text
            words = [
                Word(normalize_text(w["word"]), float(w["start"]), float(w["end"]), float(w.get("conf", 0.0)))
                for w in partial.get("partial_result", [])
            ]
            return Transcript(normalize_text(text), words, 0.0, final=False, engine=self.name, raw=text)
        return None

    def finish(self) -> Transcript:
        result = json.loads(self._rec.FinalResult())
        segments = self._segments + ([result] if result.get("text") else [])
        transcript = self._transcript(segments)
        self.reset()
        return transcript

    def _transcript(self, segments: list[dict]) -> Transcript:
        words = []
        for seg in segments:
            for w in seg.get("result", []):
                if w["word"] == "[unk]":
                    continue
                words.append(Word(w["word"].lower(), float(w["start"]), float(w["end"]), float(w["conf"])))
        raw = " ".join(s.get("text", "") for s in segments).strip()
        text = " ".join(w.text for w in words) if words else normalize_text(raw.replace("[unk]", ""))
        conf = float(np.mean([w.conf for w in words])) if words else 0.0
        return Transcript(text, words, conf, final=True, engine=self.name, raw=raw)


# ------------------------------------------------------------------------ whisper

_whisper_models: dict[tuple, object] = {}
_whisper_lock = threading.Lock()


def load_whisper_model(path: str | Path, compute_type: str = "int8", cpu_threads: int = 0):
    """Load (once per process) a CTranslate2 Whisper model directory on the CPU."""
    try:
        from faster_whisper import WhisperModel
    except ImportError as e:  # pragma: no cover - depends on the extra
        raise RuntimeError(
            "the whisper engine needs faster-whisper: pip install 'voice-host[whisper]'"
        ) from e
    key = (str(Path(path).resolve()), compute_type, cpu_threads)
    with _whisper_lock:
        if key not in _whisper_models:
            _whisper_models[key] = WhisperModel(
                key[0], device="cpu", compute_type=compute_type, cpu_threads=cpu_threads
            )
        return _whisper_models[key]


def _default_threads() -> int:
    return max(1, min(4, os.cpu_count() or 1))


class WhisperRecognizer:
    """faster-whisper, run once per utterance when it ends (no partial results)."""

    name = "whisper"

    def __init__(
        self,
        model_path: str | Path | None = None,
        language: str | None = "en",
        beam_size: int = 1,
        compute_type: str = "int8",
        cpu_threads: int | None = None,
        word_timestamps: bool = True,
        prompt_prefix: str = "",
        _model=None,
    ):
        self.model_path = Path(model_path) if model_path else find_whisper_model()
        self.cpu_threads = cpu_threads or _default_threads()
        self.compute_type = compute_type
        self.model = _model if _model is not None else load_whisper_model(
            self.model_path, compute_type, self.cpu_threads
        )
        self.language = language
        self.beam_size = beam_size
        self.word_timestamps = word_timestamps
        self.prompt_prefix = prompt_prefix
        self._expected: list[str] | None = None
        self._chunks: list[np.ndarray] = []

    def expect(self, phrases: Sequence[str] | None) -> None:
        self._expected = list(phrases) if phrases else None

    def constrain(self, sayable) -> None:
        self.expect(_closed_phrases(sayable))

    @property
    def prompt(self) -> str | None:
        """The initial prompt given to the decoder (built from expected phrases)."""
        parts = [self.prompt_prefix.strip()] if self.prompt_prefix.strip() else []
        if self._expected:
            parts.append(", ".join(self._expected[:60]) + ".")
        return " ".join(parts) or None

    def clone(self) -> "WhisperRecognizer":
        other = WhisperRecognizer(
            self.model_path, self.language, self.beam_size, self.compute_type,
            self.cpu_threads, self.word_timestamps, self.prompt_prefix, _model=self.model,
        )
        other._expected = self._expected
        return other

    def reset(self) -> None:
        self._chunks = []

    def feed(self, samples: np.ndarray) -> Transcript | None:
        self._chunks.append(np.asarray(samples, dtype=np.float32).reshape(-1))
        return None

    def transcribe(self, audio: np.ndarray) -> Transcript:
        """Recognize one whole utterance."""
        audio = np.asarray(audio, dtype=np.float32).reshape(-1)
        if audio.size < SAMPLE_RATE // 10:
            return Transcript("", [], 0.0, engine=self.name)
        segments, _info = self.model.transcribe(
            audio,
            language=self.language,
            beam_size=self.beam_size,
            initial_prompt=self.prompt,
            hotwords=None,
            condition_on_previous_text=False,
            word_timestamps=self.word_timestamps,
            vad_filter=False,
            temperature=0.0,
        )
        words: list[Word] = []
        raw_parts = []
        logprobs = []
        for i, seg in enumerate(segments):
            if seg.no_speech_prob > 0.8 and seg.avg_logprob < -1.0:
                continue  # the decoder itself says there is no speech here
            if i > 0 and (seg.avg_logprob < -1.0 or seg.no_speech_prob > 0.35):
                continue  # a doubtful tail in the trailing silence ("Thank you.")
            raw_parts.append(seg.text)
            logprobs.append(seg.avg_logprob)
            for w in seg.words or []:
                t = normalize_text(w.word)
                for part in t.split():
                    words.append(Word(part, float(w.start), float(w.end), float(w.probability)))
        raw = "".join(raw_parts).strip()
        text = normalize_text(raw)
        if words:
            conf = float(np.mean([w.conf for w in words]))
        elif logprobs:
            conf = float(np.exp(np.mean(logprobs)))
        else:
            conf = 0.0
        return Transcript(text, words, conf, final=True, engine=self.name, raw=raw)

    def finish(self) -> Transcript:
        audio = np.concatenate(self._chunks) if self._chunks else np.zeros(0, np.float32)
        self.reset()
        return self.transcribe(audio)

    def rank(self, audio: np.ndarray, candidates: Sequence[str]) -> list[tuple[str, float]]:
        """Score each candidate text as what was said in `audio` (forced decoding:
        the sum of the log probabilities of its tokens); best first.

        For a closed choice after recognition, e.g. the matcher's top alternatives
        for a rare word: whisper often hears "pewtest" but prefers "cutest" when asked.
        """
        import ctranslate2
        from faster_whisper.audio import pad_or_trim
        from faster_whisper.tokenizer import Tokenizer

        cands = [c for c in dict.fromkeys(candidates) if c and c.strip()]
        if not cands:
            return []
        audio = np.asarray(audio, dtype=np.float32).reshape(-1)
        fw = self.model
        tokenizer = Tokenizer(fw.hf_tokenizer, fw.model.is_multilingual, task="transcribe",
                              language=self.language or "en")
        features = fw.feature_extractor(audio)
        num_frames = min(features.shape[-1], 3000)
        encoded = np.asarray(fw.encode(pad_or_trim(features)))
        batch = np.ascontiguousarray(np.repeat(encoded, len(cands), axis=0))
        tokens = [tokenizer.encode(" " + c.strip()) for c in cands]
        results = fw.model.align(ctranslate2.StorageView.from_array(batch), tokenizer.sot_sequence,
                                 tokens, num_frames)
        scored = [(c, float(np.sum(np.log(np.asarray(r.text_token_probs) + 1e-9))))
                  for c, r in zip(cands, results)]
        return sorted(scored, key=lambda cs: cs[1], reverse=True)


ENGINES = ("auto", "moonshine", "whisper", "vosk")
"""The engine names `--engine` accepts ("auto": the best one installed)."""

AUTO_ORDER = ("moonshine", "whisper", "vosk")
"""Best first, by benchmarks/recognition.py (words right on held-out voices)."""


def available_engines() -> list[str]:
    """The engines whose software and model are installed here, best first."""
    out = []
    try:
        from .moonshine import moonshine_available

        if moonshine_available():
            out.append("moonshine")
    except ImportError:  # pragma: no cover - onnxruntime is a dependency
        pass
    try:
        import faster_whisper  # noqa: F401

        find_whisper_model()
        out.append("whisper")
    except Exception:  # noqa: BLE001 - not installed or no model
        pass
    try:
        import vosk  # noqa: F401

        find_vosk_model()
        out.append("vosk")
    except Exception:  # noqa: BLE001
        pass
    return out


def resolve_engine(engine: str = "auto") -> str:
    """The engine "auto" stands for here (moonshine, else whisper, else vosk); other
    names are returned as they are."""
    if engine != "auto":
        return engine
    found = available_engines()
    return found[0] if found else "vosk"  # vosk's error message says how to get a model


def make_recognizer(engine: str = "auto", model: str | Path | None = None, **options) -> Recognizer:
    """The recognizer for `--engine` and `--model` (each engine finds its default model).

    "auto" picks the best engine installed (see :func:`available_engines`); with an
    explicit `model` path it keeps the engine that path belongs to (a vosk model
    folder, a CTranslate2 whisper folder, a Moonshine folder with encoder_model.ort).
    """
    if engine == "auto":
        if model is not None:
            p = Path(model)
            if (p / "encoder_model.ort").is_file():
                engine = "moonshine"
            elif (p / "model.bin").is_file():
                engine = "whisper"
            else:
                engine = "vosk"
        else:
            engine = resolve_engine("auto")
    if engine == "vosk":
        return VoskRecognizer(model, **options)
    if engine == "whisper":
        return WhisperRecognizer(model, **options)
    if engine == "moonshine":
        from .moonshine import MoonshineRecognizer

        return MoonshineRecognizer(model, **options)
    raise ValueError(f"unknown speech engine {engine!r} (choose from {', '.join(ENGINES)})")


def constrain_recognizer(recognizer: Recognizer, sayable) -> None:
    """Tell any recognizer what may be said next (`constrain` when it has it, else
    the closed list `expect` takes)."""
    if hasattr(recognizer, "constrain"):
        recognizer.constrain(sayable)
    else:
        recognizer.expect(_closed_phrases(sayable))


__all__ = [
    "AUTO_ORDER",
    "ENGINES",
    "available_engines",
    "constrain_recognizer",
    "resolve_engine",
    "Recognizer",
    "Transcript",
    "VoskRecognizer",
    "WhisperRecognizer",
    "Word",
    "load_vosk_model",
    "load_whisper_model",
    "make_recognizer",
    "normalize_text",
]
