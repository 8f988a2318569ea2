"""A whole Prolix game heard from one recording: the same result as its text script.

The script is synthesized line by line into one 3-channel WAV (one synthetic voice and
one channel per player, each line at its script time: pauses, a 46-second silence for
the timer, and two words said at the same moment), then `voice-host play --audio` runs
the game on it with the whisper engine, attributing by channel.
"""

from __future__ import annotations

from audio_script import text_and_audio

PLAYERS = ("Ann", "Ben", "Cat")
VOICES = {"Ann": "fest_slt", "Ben": "rms", "Cat": "awb"}
"""Each player says only words the whisper model hears right in their voice (checked with
the same pipeline): the test is about the host, not about synthetic voices' accents."""

SCRIPT = """
# round 1 (the host draws the tiles: seeded)
Ann: pocket
[+3] Ben: market
[+3] Cat: window
# round 2: Ann and Ben at the same moment (a tiebreak), then the timer on Ben
[+3] Ann: basket
[+0.2] Ben: kitchen
[+3] Ann: timer
@wait 46
[+2] Cat: forest
[+3] Cat: tiger
# round 3, with a challenge that fails
[+3] Ann: rocket
[+3] Ben: monkey
[+3] Ann: challenge
[+3] Cat: pencil
# rounds 4 to 6
[+3] Ann: button
[+3] Ben: summer
[+3] Cat: winter
[+3] Ann: silver
[+3] Ben: yellow
[+3] Cat: orange
[+3] Ann: purple
[+3] Ben: castle
[+3] Cat: island
"""


def test_a_recorded_game_gives_the_same_result_as_its_script(tmp_path, say, whisper_rec):
    (expected, text_out), (heard, audio_out) = text_and_audio(
        tmp_path, say, SCRIPT, VOICES, "--players", ",".join(PLAYERS), "--start", "Ann", "--seed", "5")
    assert expected["finished"] is True
    for out in (text_out, audio_out):  # the audio run said the same things about the game as the text run
        assert "host: Time! The timer interrupts Ben." in out
        assert any(line.startswith("host: Tiebreaker: Ann basket") for line in out.splitlines())
    assert heard == expected, audio_out
