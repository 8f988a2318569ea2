"""After an undo the host says where the game stands, in that game's own terms."""

from __future__ import annotations

import pytest
from support import voice_host

pytestmark = pytest.mark.slow  # voice-host run as a command


def test_undo_in_a_game_without_a_board_reads_scores_and_turn():
    proc = voice_host("play", "--game", "dexikon", "--players", "Ann,Ben", "--no-voice", "--typed",
                      stdin="Ann: bank catch for 5\nBen: undo\nAnn: yes\n")
    assert proc.returncode == 0, proc.stderr
    lines = proc.stdout.splitlines()
    asked = lines.index("host: Ann, Ben asks to undo your 'bank catch for 5'. Say yes or no.")
    assert lines[asked + 1:asked + 4] == ["host: Undone: Ann: bank catch for 5.", "host: Scores: Ann 0; Ben 0.",
                                          "host: Round 1: Ann's turn."]
