"""The VAD cut: a clip with silence around it, heard through the live listener (its
VAD, then the recognizer told what may be said), as `voice-host hear` hears a recording."""

from __future__ import annotations

import numpy as np

from voice_host.speech.audio import SAMPLE_RATE

BEFORE, AFTER = 0.6, 0.8
"""Seconds of silence around a word in the recording `hear` is given."""


def padded(audio: np.ndarray, before: float = BEFORE, after: float = AFTER) -> np.ndarray:
    """``audio`` with ``before`` seconds of silence before it and ``after`` after it."""
    return np.concatenate([np.zeros(int(before * SAMPLE_RATE), np.float32), audio,
                           np.zeros(int(after * SAMPLE_RATE), np.float32)])


def recognizer(model: str = "base", second_ear: str = "off"):
    """The Moonshine recognizer the host runs with ``[speech] model = model`` and
    ``second_ear = second_ear``."""
    from voice_host.speech.recognizing.engines import second_ear_for
    from voice_host.speech.recognizing.moonshine import create
    from voice_host.speech.recognizing.moonshine.adapted import delta_for

    return create(delta=delta_for(model), second_ear=second_ear_for(second_ear))


EARS = {"without": "off", "with": "whisper"}
"""The two hosts a benchmark compares (``--second-ear``): Moonshine alone, and with
whisper as its second ear (``[speech] second_ear``)."""


def ears(choice: str) -> dict[str, str]:
    """``--second-ear`` both / with / without: the hosts to run, by name."""
    return dict(EARS) if choice == "both" else {choice: EARS[choice]}


def add_ear_option(ap) -> None:
    """``--second-ear``, as every benchmark that hears words takes it."""
    ap.add_argument("--second-ear", choices=("both", *EARS), default="both",
                    help="the host with whisper as a second ear, without it, or both side by side (default)")


def opinion(u, settings) -> dict | None:
    """What the second ear did to utterance ``u`` (for tuning moonshine.opinion on a
    benchmark's --json): the first ear's confidence, the reading, agreed, the lead,
    whether the word fits the sound (HearingSettings.fits), and how far below the best
    the nearest other form of its word was (nats; None: none among the alternatives)."""
    from voice_host.words.morphology import forms_of_one_word

    o = getattr(u, "opinion", None)
    if o is None:
        return None
    best, top = u.alternatives[0] if u.alternatives else ("", 0.0)
    word = best.split()[-1] if best else ""
    form = min((top - score for text, score in u.alternatives[1:]
                if text.split() and text.split()[-1] != word and forms_of_one_word(text.split()[-1], word)),
               default=None)
    return {"confidence": o.confidence, "reading": o.reading, "agreed": o.agreed, "lead": o.lead,
            "fits": settings.fits(u), "final": u.confidence, "form": form,
            "second_confidence": o.second_confidence}


def settings():
    """The ``[listening]`` settings the host runs with (a TurnConfig; `voice-host play
    --audio` and the live loop take the same)."""
    from voice_host import config
    from voice_host.speech.listening.config import TurnConfig

    return TurnConfig.from_config(config.load())


def listener(recognizer, players, sayable=None, config=None, **options):
    """The live listener (voice_host.speech.listening.turns.Listener), told what may be
    said, with ``config`` (a TurnConfig; default: :func:`settings`)."""
    from voice_host.speech.listening.turns import Listener

    ear = Listener(recognizer, players, config=config or settings(), **options)
    if sayable is not None:
        ear.constrain(sayable)
    return ear


def cut(ear, x: np.ndarray, chunk_seconds: float | None = None) -> list:
    """The utterances ``ear`` (a listener) cuts from the recording ``x`` and hears."""
    from voice_host.speech.listening.sources import ArraySource

    source = ArraySource(x) if chunk_seconds is None else ArraySource(x, chunk_seconds=chunk_seconds)
    return list(ear.utterances(source))


def hearing(words, seed: int = 1, points: float | None = None, known: float | None = None):
    """A Classic game on the host's own bag (seeded), begun, with its hearing: the game's
    prior POINTS:KNOWN as given (None: the config's hearing settings)."""
    from voice_host import config
    from voice_host.host.hearing import Hearing, HearingSettings
    from voice_host.host.session import Session, new_header

    cfg = config.load()
    session = Session(new_header("prolix-classic", ["Ann", "Ben", "Cat"], seed, cfg), words, lambda _: None)
    session.begin(0.0, quiet=True)
    settings = HearingSettings.from_config(cfg) if points is None else \
        HearingSettings(prior_points=points, prior_known=known or 0.0)
    return Hearing(session, words, settings)
