"""The whisper engine (extra "whisper"): faster-whisper run once per utterance when it
ends; expected words become the decoder's prompt."""

from __future__ import annotations

import os
from pathlib import Path
from typing import Sequence

import numpy as np

from ...audio import SAMPLE_RATE
from ..models import LOADED, find_whisper_model
from ..recognizer import WholeUtterance, _closed_phrases, normalize_text
from voice_host.messages import Transcript, Word


def load_whisper_model(path: str | Path, compute_type: str = "int8", cpu_threads: int = 0):
    """Load (once per process) a CTranslate2 Whisper model directory on the CPU."""
    try:
        from faster_whisper import WhisperModel
    except ImportError as e:  # pragma: no cover - depends on the extra
        raise RuntimeError(
            "the whisper engine needs faster-whisper: pip install 'voice-host[whisper]'"
        ) from e
    key = (str(Path(path).resolve()), compute_type, cpu_threads)
    return LOADED.get(("whisper", *key), lambda: WhisperModel(
        key[0], device="cpu", compute_type=compute_type, cpu_threads=cpu_threads))


def _default_threads() -> int:
    return max(1, min(4, os.cpu_count() or 1))


class WhisperRecognizer(WholeUtterance):
    """faster-whisper, run once per utterance when it ends (no partial results)."""

    name = "whisper"
    takes_phrases = True
    """What it can take beyond a closed list (Takes): a prompt of the phrases expected."""

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
        expected: Sequence[str] | None = None,
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
        self._expected: list[str] | None = list(expected) if expected else None  # expect(); a clone's, its original's
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
        return WhisperRecognizer(
            self.model_path, self.language, self.beam_size, self.compute_type,
            self.cpu_threads, self.word_timestamps, self.prompt_prefix, _model=self.model, expected=self._expected,
        )


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
