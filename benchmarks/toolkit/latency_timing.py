"""benchmarks/latency.py's log: when each part of the live host did what, timed where it works."""

from __future__ import annotations

import time
from dataclasses import dataclass, field
from typing import NamedTuple

from voice_host.host.output import Speaker

perf = time.perf_counter


# ---------------------------------------------------------------------- what happened when
class Said(NamedTuple):
    t: float
    text: str | None
    earcon: str | None


class Write(NamedTuple):
    t: float
    """When the samples were handed to the sound card."""
    heard: float | None
    """When their first non-silent sample is heard (None: all silence)."""


class Span(NamedTuple):
    start: float
    end: float
    what: str = ""


class Placed(NamedTuple):
    line: int
    start: float
    """Wall time of the clip's first sample."""
    end: float
    """Wall time of its last voiced sample: the end of speech."""


@dataclass
class Log:
    """Wall times (perf_counter) of what happened, appended from every thread."""

    finishes: list[Span] = field(default_factory=list)
    """Each recognition (RECOGNITIONS: finish(), a guess at a pause): asked for .. its transcript."""
    heard: list[Span] = field(default_factory=list)
    """Each utterance the hearing got (Hearing.on_hear), on the main loop."""
    identifies: list[Span] = field(default_factory=list)
    said: list[Said] = field(default_factory=list)
    writes: list[Write] = field(default_factory=list)
    sentences: list[Span] = field(default_factory=list)
    """The synthesizer: a sentence's rendering started .. its first piece."""
    placed: list[Placed] = field(default_factory=list)


RECOGNITIONS = ("finish", "transcribe")
"""The recognizer's calls that give a transcript (finish at the end; transcribe, the
listener's guess at a short pause, made in the background): each is timed."""


class TimedRecognizer:
    """The recognizer, its RECOGNITIONS timed (everything else passes through; a method
    it lacks stays missing, so ``hasattr`` tells the listener the truth)."""

    def __init__(self, inner, log: Log):
        self._inner, self._log = inner, log

    def __getattr__(self, name):
        attr = getattr(self._inner, name)
        if name not in RECOGNITIONS or not callable(attr):
            return attr

        def timed(*args, **kwargs):
            t0 = perf()
            transcript = attr(*args, **kwargs)
            self._log.finishes.append(Span(t0, perf(), f"{name}: {getattr(transcript, 'text', '')}"))
            return transcript

        return timed

    def clone(self):
        return TimedRecognizer(self._inner.clone(), self._log)


class TimedSynth:
    """The synthesizer, the time to each sentence's first piece noted."""

    def __init__(self, inner, log: Log):
        self._inner, self._log = inner, log

    def __getattr__(self, name):
        return getattr(self._inner, name)

    def pieces(self, text: str):
        t0 = perf()
        first = True
        for piece in self._inner.pieces(text):
            if first:
                self._log.sentences.append(Span(t0, perf(), text))
                first = False
            yield piece


def timed_prints(log: Log):
    """Voice prints whose d-vectors are timed where they are computed (on the listener's
    thread, or in the game), not where a remembered one is looked up."""
    from voice_host.speech.listening.voiceprint import SpeakerEmbedder, VoicePrints

    class TimedEmbedder(SpeakerEmbedder):
        def _embed(self, audio):
            t0 = perf()
            try:
                return super()._embed(audio)
            finally:
                log.identifies.append(Span(t0, perf()))

    return VoicePrints(TimedEmbedder())


class BenchSpeaker(Speaker):
    """The host's Speaker (voice, earcons) with the moment of each sentence and earcon
    noted; it prints only with `echo`."""

    def __init__(self, cfg: dict, voice, log: Log, echo: bool = False):
        super().__init__(True, cfg)
        self.voice, self.log, self.echo = voice, log, echo

    def __call__(self, line: str) -> None:
        self.log.said.append(Said(perf(), line, None))
        if self.echo:
            print(f"      host: {line}", flush=True)
        self.voice.say(line)

    def cue(self, name: str, t: float | None = None) -> None:
        if self.settings.earcons:
            self.log.said.append(Said(perf(), None, name))
        super().cue(name, t)
