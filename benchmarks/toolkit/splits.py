"""Tuning and held-out: which voices say what, so that nothing held out is tuned on.

Synthetic voices: each kind of benchmark has its sets below (a held-out word is never
one chosen for tuning: the scripts see to that). Real speakers (Speech Commands) are
split by their id: 0-7 tuning, 8-f held-out (:func:`speech_commands_split`, the one
rule, which the recognizer's training refuses by too); every other real source is held
out.
"""

from __future__ import annotations

import re
from pathlib import Path

SPLITS = ("tuning", "held-out")
SC_SPEAKER = re.compile(r"([0-9a-f]{8})_nohash_\d+")
NOT_WORDS = ("marvin", "sheila", "_silence_", "_background_noise_")
"""Speech Commands' folders that hold no word a player says (names, silence)."""


def speech_commands_split(speaker: str) -> str:
    """A Speech Commands speaker's split (its 8-hex-digit id): 0-7 tuning, 8-f held-out."""
    return "tuning" if speaker[:1] in "01234567" else "held-out"


def speech_commands(root: Path, source: str) -> list[dict]:
    """The Speech Commands recordings under `root` that hold a word (not a name, not
    silence), each {source, speaker, word, text, path}, sorted by path."""
    rows = []
    for path in sorted(root.rglob("*.wav")):
        m = SC_SPEAKER.search(path.name)
        word = path.parent.name if path.parent.name != "_unknown_" else path.name.split("_")[0]
        if m is None or word in NOT_WORDS or not word.isalpha():
            continue
        rows.append({"source": source, "speaker": m.group(1), "word": word, "text": word.capitalize() + ".",
                     "path": str(path)})
    return rows


WORD_VOICES = {"tuning": ("rms", "kal16", "awb~p200~t0.95", "kal~p-150~t1.05"),
               "held-out": ("joe", "fest_slt", "slt", "joe~p250~t0.93")}
"""Voices of words said alone (board_words.py, confidence.py, endings.py, game_plays.py)."""

TABLE_PLAYERS = {
    "tuning": {"Ann": "awb|pitch 200|tempo 0.95", "Ben": "rms", "Cat": "awb"},
    "held-out": {"Dee": "joe", "Eli": "kal16", "Fay": "fest_slt|pitch 300|tempo 1.1", "Gus": "rms|pitch -250"},
}
"""The players of a game at one microphone (table.py), voices as toolkit.voices.say takes them."""

LIVE_PLAYERS = {"Dee": "joe", "Fay": "fest_slt~p300~t1.1", "Kim": "slt"}
"""The held-out players of the live game (latency.py)."""

