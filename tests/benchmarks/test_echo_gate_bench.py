"""benchmarks/echo_gate.py counts the frames of the host alone that pass the echo gate and
the frames of a player the gate takes for the host, frame by frame through the gate; and
hears the host's echo through a simulated room with and without the echo canceller."""

from __future__ import annotations

import numpy as np
import pytest

from toolkit.echo_path import room_response

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
    assert echo_gate.main(["--json", "--no-room"]) == 0
    import json

    figures = json.loads(capsys.readouterr().out)["figures"]
    assert figures["cases"] == len(echo_gate.VOICES) * len(echo_gate.LINES) * (
        len(echo_gate.ECHOES) + len(echo_gate.LATE_ECHOES))
    assert 0 <= figures["leaked"] <= figures["cases"]
    assert figures["player_frames"] > 0 and 0 <= figures["player_frames_gated"] <= figures["player_frames"]


def test_the_room_decays_in_its_reverberation_time(echo_gate):
    h = room_response(rt60=0.4, drr=0.0)
    assert np.sum(h**2) == pytest.approx(1.0, rel=1e-3)
    assert h[0] ** 2 == pytest.approx(0.5, rel=1e-3)  # the direct path as strong as the reflections
    energy = np.cumsum(h[::-1] ** 2)[::-1]  # Schroeder's backward integral
    at = lambda s: 10 * np.log10(energy[int(s * 16000)] / energy[1])  # noqa: E731
    assert at(0.2) == pytest.approx(-30, abs=3)


def test_the_live_microphone_hears_what_the_host_played_and_stops_with_it(echo_gate):
    rng = np.random.default_rng(0)
    scene = echo_gate.Scene.__new__(echo_gate.Scene)  # without its voices: a second of noise played
    scene.delay, scene.rir, scene.gain = 0.15, room_response(drr=echo_gate.DRR), 1.0
    played = (0.1 * rng.standard_normal(16000)).astype(np.float32)
    scene.playbacks = [HostPlayback("", 1.0, 2.0, played)]
    whole = scene.heard(scene.playbacks, 0, 64000)
    assert np.abs(whole[:int(1.15 * 16000) - 1]).max() < 1e-6 and whole[int(1.15 * 16000)] == pytest.approx(
        played[0] * scene.rir[0], abs=1e-6)  # nothing before the delay, then the direct path
    pieces = np.concatenate([scene.heard(scene.playbacks, i, 1600) for i in range(0, 64000, 1600)])
    assert np.allclose(pieces, whole, atol=1e-5)
    mic = echo_gate.RoomMic(scene, np.zeros(64000, np.float32))
    chunks = iter(mic)
    for _ in range(10):  # up to 1.0 s: the host is heard from 1.15 s on
        next(chunks)
    heard_before = np.concatenate([c.samples[:, 0] for c in [next(chunks) for _ in range(5)]])  # 1.0-1.5 s
    assert heard_before.any()
    mic.voice.stop()  # barge-in at 1.5 s: the host stops 20 ms later
    assert mic.playbacks[0].interrupted and mic.playbacks[0].end == pytest.approx(1.52)
    after = np.concatenate([c.samples[:, 0] for c in chunks])[int(1.1 * 16000):]  # from 2.6 s: the tail is gone
    assert np.abs(after).max() < 1e-3 * np.abs(heard_before).max()
