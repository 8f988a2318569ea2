"""The vosk (Kaldi) engine: streaming, partial results, its own endpoints, word
timings, runtime grammars for closed sets (`expect`)."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Sequence

import numpy as np

from ...audio import SAMPLE_RATE
from ..models import LOADED, find_vosk_model
from ..recognizer import Takes, _closed_phrases, normalize_text
from voice_host.messages import Transcript, Word


def _to_int16_bytes(samples: np.ndarray) -> bytes:
    samples = np.asarray(samples, dtype=np.float32).reshape(-1)
    return (np.clip(samples, -1.0, 1.0) * 32767.0).astype("<i2").tobytes()


def load_vosk_model(path: str | Path):
    """Load (once per process) the vosk model in directory `path`."""
    import vosk

    key = str(Path(path).resolve())

    def load():
        vosk.SetLogLevel(-1)
        return vosk.Model(key)
    return LOADED.get(("vosk", key), load)


class VoskRecognizer(Takes):
    """Streaming vosk (Kaldi) recognizer with partials, word timings and grammars."""

    name = "vosk"  # it takes a closed list as a grammar, nothing more (Takes)

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
