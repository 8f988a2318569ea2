"""What one stage hands the next is never changed on the way (docs/ARCHITECTURE.md, the
pipeline): each message between the stages is immutable, so a stage that wants it
otherwise makes a new one (dataclasses.replace)."""

from __future__ import annotations

import dataclasses

import numpy as np
import pytest

from voice_host import messages
from voice_host.games import events as E
from voice_host.messages import (AudioChunk, Begin, ClockMark, Directive, EndOfAudio, HeardUtterance, Intent, Opinion,
                                 Parsed, Reading, Said, Step, Transcript, Unreadable, Utterance, Wait, Word)

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
    (Directive(0.0, "start", ("Ann",)), "name"),
    (Wait(3.0, 2.0), "seconds"),
    (Begin(0.0), "t"),
    (Unreadable(1.0, "bad_line", "@nope"), "text"),
    (EndOfAudio(), "at"),
    (Word("jewelers", 1.0, 1.5, 0.9), "text"),
    (Opinion("jewelers", ("jewelers",), True, None, 0.9), "reading"),
    (Intent("word", "jewelers"), "word"),
    (E.StartSet("Ann"), "player"),
    (Step(2.0, (E.StartSet("Ann"),), ("Ann starts.",)), "said"),
]


@pytest.mark.parametrize("message, field", MESSAGES, ids=[type(m).__name__ for m, _ in MESSAGES])
def test_a_message_between_stages_cannot_be_changed_in_place(message, field):
    with pytest.raises((dataclasses.FrozenInstanceError, AttributeError)):
        setattr(message, field, None)


def test_every_message_in_the_messages_module_is_checked_here():
    checked = {type(m).__name__ for m, _ in MESSAGES}
    kinds = {name for name in messages.__all__ if isinstance(getattr(messages, name), type)}
    assert kinds <= checked, sorted(kinds - checked)
