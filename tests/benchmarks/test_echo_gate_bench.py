"""benchmarks/echo_gate.py counts the frames of the host alone that pass the echo gate and
the frames of a player the gate takes for the host, frame by frame through the gate."""

from __future__ import annotations


import numpy as np
import pytest

from voice_host.speech.listening.echo import EchoGate
from voice_host.speech.speaking.voice import HostPlayback


@pytest.fixture(scope="module")
def echo_gate():
    import echo_gate

    return echo_gate


def test_each_frame_is_judged_once_at_its_own_time(echo_gate):
    host = np.full(16000, 0.1, np.float32)
    gate = EchoGate([HostPlayback("Round 1.", 0.5, 1.5, host)])
    mic = np.zeros(48000, np.float32)
    mic[8000:24000] = 0.05 * host  # its echo, at once
    mic[32000:36000] = 0.2  # a player after the host
    judged = echo_gate.frames(gate, mic)
    assert [t for t, _ in judged] == pytest.approx([i * 0.03 for i in range(100)])
    assert all(gated for t, gated in judged if 0.5 <= t < 1.47)  # the echo
    assert not any(gated for t, gated in judged if 2.0 <= t < 2.22)  # the player, the host gone


@pytest.mark.slow
def test_the_report_counts_every_case_of_the_host_alone(echo_gate, capsys):
    assert echo_gate.main(["--json"]) == 0
    import json

    figures = json.loads(capsys.readouterr().out)["figures"]
    assert figures["cases"] == len(echo_gate.VOICES) * len(echo_gate.LINES) * (
        len(echo_gate.ECHOES) + len(echo_gate.LATE_ECHOES))
    assert 0 <= figures["leaked"] <= figures["cases"]
    assert figures["player_frames"] > 0 and 0 <= figures["player_frames_gated"] <= figures["player_frames"]
