"""Speech recognition's protocol: what every engine offers, and what it gives.

A :class:`Recognizer` is fed the audio of one utterance as it arrives (float32 mono
at 16 kHz), may report partial results while it listens, and gives a
:class:`Transcript` when the utterance is over (:meth:`Recognizer.finish`). Word
times are seconds from the start of the audio fed since the last reset.

Each engine is a package beside this module that offers the :class:`Engine` protocol,
found by name through the registry (:mod:`.engines`: ``make_recognizer``):

- ``vosk`` (:class:`~voice_host.speech.recognizing.vosk.VoskRecognizer`): streaming
  Kaldi recognizer, partial results, its own endpoints, word timings, runtime grammars
  for closed sets (`expect`).
- ``whisper`` (:class:`~voice_host.speech.recognizing.whisper.WhisperRecognizer`, extra
  "whisper"): faster-whisper run once per utterance when it ends; recognizes rare and
  long words a small vosk vocabulary cannot output; expected words become the
  decoder's prompt and hotwords.
- ``moonshine`` (:class:`~voice_host.speech.recognizing.moonshine.MoonshineRecognizer`,
  the best installed by default: "auto"): Moonshine base with our own decoding loop,
  run once per utterance; `constrain(Sayable)` restricts it to what may be said (a
  dictionary word after an optional name, or a phrase), scored by the decoder itself.
"""

from __future__ import annotations

import re
from pathlib import Path
from concurrent.futures import Future
from typing import NamedTuple, Protocol, Sequence

import numpy as np

from voice_host.messages import Transcript


class SecondReading(NamedTuple):
    """What a second ear heard: its reading (normalized, said once; "" for nothing) and
    how sure it was of it (0..1)."""

    text: str
    confidence: float
    seconds: float = 0.0
    """How long it took to read it (wall clock, on its own thread)."""


class SecondEar(Protocol):
    """A second recognizer beside the first, reading the same utterance in the background
    for a second opinion: built by the registry (:func:`.engines.second_ear_for`,
    ``[speech] second_ear``) and given to a recognizer that weighs one
    (``takes_second_ear``), which never names its engine."""

    def hear(self, audio: np.ndarray, prompt: str | None = None) -> "Future[SecondReading]":
        """Start reading ``audio`` (16 kHz mono; ``prompt``: words it is told to expect)
        and return at once: the future's result is what it heard."""


class Recognizer(Protocol):
    """The interface the turn detector drives; one instance per audio stream."""

    name: str
    """Engine name: "vosk", "whisper" or "moonshine"."""

    # What the engine can take, declared by its class, so that callers ask the engine
    # and never test its name:
    searches: bool
    """`constrain` searches the whole language of a Sayable (moonshine): a prompt or a
    closed list would not help it."""
    takes_phrases: bool
    """A prompt of the phrases expected (`expect`) biases it without shutting out other
    words (whisper), so it is told the players' names even when anything may be said."""
    takes_second_ear: bool
    """It weighs a second ear's reading with its own (``second_ear``: a SecondEar)."""
    takes_delta: bool
    """Its weights can be adapted (``delta``: ``[speech] model = "adapted"``)."""

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
        :class:`~voice_host.speech.recognizing.sayable.Sayable` (None: anything); takes effect
        at the next utterance. Moonshine searches that whole language; vosk and
        whisper get its names and phrases as a closed list when it has no
        dictionary, and decode freely when it has one."""

    def clone(self) -> "Recognizer":
        """A fresh independent stream sharing the loaded model (one per channel)."""


class Engine(Protocol):
    """What an engine's package offers the registry (:mod:`.engines`), as functions of
    the package: ``voice_host/speech/recognizing/<name>/__init__.py``."""

    name: str
    """The engine's name, the package's: what `--engine` takes."""
    recognizer_class: type
    """The class of its recognizers, which declares what they can take (``searches``,
    ``takes_phrases``, ``takes_second_ear``, ``takes_delta``)."""

    def available(self) -> bool:
        """Its software and its default model are installed here."""

    def owns(self, model: Path) -> bool:
        """`model` is a folder of this engine's (`--model` with `--engine auto`)."""

    def create(self, model: str | Path | None = None, **options) -> Recognizer:
        """A recognizer on `model` (None: the engine's default model)."""


class Takes:
    """What a recognizer can take (the Recognizer protocol's ``searches``,
    ``takes_phrases``, ``takes_second_ear``, ``takes_delta``): nothing beyond a closed
    list, unless its class says so."""

    searches = False
    takes_phrases = False
    takes_second_ear = False
    takes_delta = False


class WholeUtterance(Takes):
    """For an engine that recognizes an utterance once it has ended (whisper, moonshine):
    `feed` keeps the audio, `finish` gives all of it to the engine's `transcribe`."""

    _chunks: list[np.ndarray]

    def transcribe(self, audio: np.ndarray) -> "Transcript":
        raise NotImplementedError

    def reset(self) -> None:
        self._chunks = []

    def feed(self, samples: np.ndarray) -> "Transcript | None":
        self._chunks.append(np.asarray(samples, dtype=np.float32).reshape(-1))
        return None

    def finish(self) -> "Transcript":
        transcript = self.transcribe(self.snapshot())
        self.reset()
        return transcript

    def snapshot(self) -> np.ndarray:
        """The audio fed so far (the listener's guess at a pause transcribes it in the
        background while more comes)."""
        return np.concatenate(self._chunks) if self._chunks else np.zeros(0, np.float32)


_WORD_RE = re.compile(r"[a-z0-9']+|[^\W\d_]+", re.UNICODE)


_NUMBER_RE = re.compile(r"\s*(\d{1,3}(?:,\d{3})+|\d+)(st|nd|rd|th)?\s*[.!?]?\s*", re.IGNORECASE)
"""A number written in digits, said alone ("7", "3,000.", "21st")."""


def normalize_text(text: str) -> str:
    """Lower case, punctuation dropped, words separated by one space; a number said
    alone that a recognizer wrote in digits is the word a player said ("7" -> "seven"; in
    a phrase, "bank catch for 5", the digits stay, as the games' phrases have them)."""
    number = _NUMBER_RE.fullmatch(text)
    if number is not None:
        from num2words import num2words

        text = num2words(int(number.group(1).replace(",", "")), to="ordinal" if number.group(2) else "cardinal")
    words = (w.strip("'") for w in _WORD_RE.findall(text.lower()))
    return " ".join(w for w in words if w)


def _closed_phrases(sayable) -> list[str] | None:
    """What a closed-list engine can take of a Sayable: its phrases and names, or
    None (anything) when it holds a dictionary or is None."""
    if sayable is None or sayable.words is not None:
        return None
    return list(dict.fromkeys([*sayable.phrases, *sayable.names])) or None


def constrain_recognizer(recognizer: Recognizer, sayable) -> None:
    """Tell any recognizer what may be said next (`constrain` when it has it, else
    the closed list `expect` takes)."""
    if hasattr(recognizer, "constrain"):
        recognizer.constrain(sayable)
    else:
        recognizer.expect(_closed_phrases(sayable))


__all__ = ["Engine", "Recognizer", "SecondEar", "SecondReading", "Takes", "WholeUtterance", "constrain_recognizer", "normalize_text"]
