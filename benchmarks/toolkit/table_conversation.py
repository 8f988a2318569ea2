"""benchmarks/table.py's table that answers: the players' replies, and the source that grows as the host asks."""

from __future__ import annotations

import re
from typing import NamedTuple

import numpy as np

from voice_host.speech.audio import SAMPLE_RATE

from .voices import speech_bounds

NATO = dict(a="Alfa", b="Bravo", c="Charlie", d="Delta", e="Echo", f="Foxtrot", g="Golf", h="Hotel", i="India",
            j="Juliett", k="Kilo", l="Lima", m="Mike", n="November", o="Oscar", p="Papa", q="Quebec", r="Romeo",
            s="Sierra", t="Tango", u="Uniform", v="Victor", w="Whiskey", x="Xray", y="Yankee", z="Zulu")


class Reply(NamedTuple):
    """The label of what a player says back to the host about their word."""

    about: tuple[str, str]
    correction: bool = False
    """ "No, ..." to a word the host took: the table's time it costs is counted too."""


UNCAUGHT = re.compile(r"^I didn't catch a word in '(.+?)(?:\.\.\.)?'")
SPELL_IT = re.compile(r"^Sorry, (\w+), I .+\. Spell it for me")
WORTHLESS = re.compile(r"^(\w+), interrupt with (\S+) for .+\? Say yes or no\.")
"""The host's yes-or-no question before an interrupt worth nothing counts."""


def spelled(word: str) -> str:
    """``word`` spelled in the spelling alphabet, as a player says it ("Tango, Oscar, ...")."""
    return ", ".join(NATO[c] for c in word) + "."


class Conversation:
    """A mono source that grows as it is read: the scripted clips, each after its gap,
    and answers the table gives when the host asks (`answer`), put in as soon as the
    clip being said (if any) has ended, after a short pause. `noise` (a track as long
    as needed, looped) is added to everything. Said live, an answer also waits until the
    host has said what it answers (`answer`'s ``heard``), and `offset` is the
    microphone's time of the first sample, so that `placed` is on the host's clock."""

    realtime = False
    channels = 1
    PAUSE = 0.8

    def __init__(self, script: list[tuple[float, np.ndarray, object]], noise: np.ndarray | None = None):
        # every entry: (pause before it, audio, label, heard: a test it waits for, or None)
        self.script: list[tuple[float, np.ndarray, object, object]] = [(*e, None) for e in script]
        self.answers: list[tuple[float, np.ndarray, object, object]] = []
        self.noise = noise
        self.placed: list[tuple[float, float, object]] = []
        """(start, end, label) of every clip as it was put in the timeline."""
        self.duration = None
        self.offset = 0.0

    def answer(self, audio: np.ndarray, label=None, heard=None) -> None:
        """Say ``audio`` next, once ``heard()`` is true (None: at once), after the pause."""
        self.answers.append((self.PAUSE, audio, label, heard))

    def __iter__(self):
        from voice_host.messages import AudioChunk

        step, n, tail = SAMPLE_RATE // 10, 0, SAMPLE_RATE
        entry, gap, rest = None, 0, None  # what comes next: its pause, then its audio
        while True:
            if self.answers and (entry is None or not isinstance(entry[2], Reply) and gap > 0):
                if entry is not None:  # a scripted clip not yet begun waits for the answer
                    self.script.insert(0, entry)
                entry = self.answers.pop(0)
                gap, rest = int(entry[0] * SAMPLE_RATE), entry[1]
            if entry is None:
                if self.script:
                    entry = self.script.pop(0)
                    gap, rest = int(entry[0] * SAMPLE_RATE), entry[1]
                elif tail > 0:
                    tail -= step
                else:
                    self.duration = n / SAMPLE_RATE
                    return
            chunk = np.zeros(step, np.float32)
            heard = entry[3] if entry is not None else None
            if heard is not None and rest is entry[1] and not heard():
                gap = max(gap, int(self.PAUSE * SAMPLE_RATE))  # the player lets the host finish
            if entry is not None:
                pause = min(step, gap)
                gap -= pause
                if pause < step:
                    if rest is entry[1]:  # the clip begins in this chunk
                        s, e = speech_bounds(entry[1])
                        t = self.offset + (n + pause) / SAMPLE_RATE
                        self.placed.append((t + s, t + e, entry[2]))
                    k = min(step - pause, rest.size)
                    chunk[pause:pause + k] = rest[:k]
                    rest = rest[k:]
                    if rest.size == 0:
                        entry = None
            if self.noise is not None:
                chunk = chunk + self.noise[np.arange(n, n + step) % self.noise.size]
            yield AudioChunk(n / SAMPLE_RATE, chunk[:, None])
            n += step

    def close(self) -> None:
        pass


def _answer_for(question, truth: tuple[str, str]) -> str | None:
    """What the player whose word it was says to the host's open question."""
    name, word = truth
    if question.kind == "word":
        if question.options[0] == word:
            return "Yes."
        if word in question.options[1:2]:
            return word.capitalize() + "."
        return spelled(word)
    if question.kind == "again":  # "Sorry, Ann, I was talking. Say that again?"
        return word.capitalize() + "."
    if question.kind == "spelling":
        return "The first." if question.options[0] == word else "The other."
    if question.kind == "who":
        return "Yes." if question.options[:1] == [name] else f"It was {name}."
    return None
