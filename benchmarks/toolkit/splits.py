"""Tuning and held-out: which voices say what, so that nothing held out is tuned on.

Synthetic voices: each kind of benchmark has its sets below (a held-out word is never
one chosen for tuning: the scripts see to that). Real speakers (Speech Commands) are
split by their id: 0-7 tuning, 8-f held-out (the one rule, which the recognizer's
training refuses by too: adapt.mix.speech_commands_split); every other real source is
held out.
"""

from __future__ import annotations

SPLITS = ("tuning", "held-out")

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

