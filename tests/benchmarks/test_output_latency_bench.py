"""benchmarks/output_latency.py through a real audio server: every sentence the voice
says is found on the speakers' monitor after it was said, and the voice's own timing of
it is compared with where it sounded. Nothing about how long it takes is asserted."""

from __future__ import annotations

import pytest
from support import need

from toolkit.pulse import missing as pulse_missing

pytestmark = pytest.mark.slow  # a PulseAudio server and a voice of its own, ~10 s


@pytest.fixture(scope="module")
def output_latency():
    why = pulse_missing()
    need(why is None, why or "")
    import output_latency

    return output_latency


def test_every_sentence_said_is_found_where_it_sounded(output_latency):
    from voice_host.speech.speaking.voice import STEADY_LATENCY

    steady = str(STEADY_LATENCY)  # the output beside a cancelled microphone
    r = output_latency.measure(steady, sentences=3, loaded=False)
    assert r["sentences"] == 3 and r["latency"] == steady and r["underruns"] >= 0
    assert r["heard_median_ms"] > 0  # heard after it was said, on the same clock
    assert r["offset_spread_ms"] < 100  # each sentence matched with its own sound, not the next
