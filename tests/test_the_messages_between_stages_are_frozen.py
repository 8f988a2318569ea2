"""What one stage hands the next is never changed on the way (docs/ARCHITECTURE.md, the
pipeline): each message between the stages is immutable, so a stage that wants it
otherwise makes a new one (dataclasses.replace)."""

from __future__ import annotations

import dataclasses

import numpy as np
import pytest

from voice_host.by_voice import ClockMark, HeardUtterance
from voice_host.games import events as E
from voice_host.host.hearing.understand import Reading
from voice_host.host.intents import Intent, Parsed
from voice_host.host.records import Said
from voice_host.speech.listening.sources import AudioChunk
from voice_host.speech.listening.turns import Utterance
from voice_host.speech.recognizing.recognizer import Transcript

HEARD = Utterance(0, 1.0, 1.5, "jewelers", "jewelers", [], 0.9, "Ann", 0.95, "channel", 0)
MESSAGES = [
    (AudioChunk(0.0, np.zeros((320, 1), np.float32)), "start"),
    (Transcript("jewelers"), "text"),
    (HEARD, "text"),
    (HeardUtterance(HEARD), "utterance"),
    (ClockMark(2.0), "at"),
    (Reading("jewelers"), "text"),
    (Parsed("jewelers", "Ann", 1.0, Intent("word", "jewelers"), None), "text"),
    (Said(1.0, "Ann", "jewelers"), "text"),
    (E.StartSet("Ann"), "player"),
]


@pytest.mark.parametrize("message, field", MESSAGES, ids=[type(m).__name__ for m, _ in MESSAGES])
def test_a_message_between_stages_cannot_be_changed_in_place(message, field):
    with pytest.raises((dataclasses.FrozenInstanceError, AttributeError)):
        setattr(message, field, None)
