"""Audio in: WAV files at any rate and channel count, devices, the no-device error."""

from __future__ import annotations

import numpy as np
import pytest
import soundfile as sf

from voice_host.speech.listening import sources
from voice_host.speech.audio import SAMPLE_RATE, read_wav
from voice_host.speech.listening.sources import ArraySource, MicSource, NoInputDevice, WavSource, channel_names


def tone(freq: float, seconds: float, rate: int) -> np.ndarray:
    t = np.arange(int(seconds * rate)) / rate
    return (0.3 * np.sin(2 * np.pi * freq * t)).astype(np.float32)


@pytest.mark.parametrize("rate", [8000, 22050, 44100, 48000])
def test_wav_source_resamples_each_channel_to_16k(tmp_path, rate):
    left, right = tone(440, 2.0, rate), tone(1000, 2.0, rate)
    path = tmp_path / "two.wav"
    sf.write(path, np.stack([left, right], axis=1), rate)
    src = WavSource(path, chunk_seconds=0.1)
    chunks = list(src)
    assert src.channels == 2 and all(c.channels == 2 for c in chunks)
    # chunks are contiguous on the recording's timeline
    for a, b in zip(chunks, chunks[1:]):
        assert b.start == pytest.approx(a.end, abs=1e-9)
    audio = np.concatenate([c.samples for c in chunks])
    assert audio.shape[0] == pytest.approx(2.0 * SAMPLE_RATE, abs=SAMPLE_RATE * 0.01)
    # each channel keeps its own content: dominant frequency survives resampling
    for ch, freq in ((0, 440), (1, 1000)):
        spec = np.abs(np.fft.rfft(audio[4000:20000, ch]))
        assert np.fft.rfftfreq(16000, 1 / SAMPLE_RATE)[spec.argmax()] == pytest.approx(freq, abs=5)


def test_read_wav_and_array_source(tmp_path):
    path = tmp_path / "mono.wav"
    sf.write(path, tone(300, 1.0, 44100), 44100)
    audio = read_wav(path)
    assert audio.shape == (pytest.approx(SAMPLE_RATE, abs=20), 1)
    chunks = list(ArraySource(audio, chunk_seconds=0.25))
    assert [round(c.start, 2) for c in chunks] == [0.0, 0.25, 0.5, 0.75]


def test_missing_wav_is_a_clear_error(tmp_path):
    with pytest.raises(FileNotFoundError, match="audio file not found"):
        WavSource(tmp_path / "nope.wav")


def test_channel_names():
    assert channel_names("Alice,Bob,Carol", 3) == ["Alice", "Bob", "Carol"]
    assert channel_names("Alice,,Bob", 4) == ["Alice", None, "Bob", None]
    assert channel_names(None, 2) == [None, None]
    with pytest.raises(ValueError):
        channel_names("A,B,C", 2)


def test_list_devices_never_raises():
    for d in sources.list_devices():
        assert d.name and d.max_input_channels >= 0


def test_no_input_device_is_a_clear_exception(monkeypatch):
    monkeypatch.setattr(sources, "list_devices", lambda: [])
    with pytest.raises(NoInputDevice, match="no audio input device"):
        MicSource()


def test_device_choice_by_name_and_channels(monkeypatch):
    devs = [
        sources.DeviceInfo(0, "HDA Intel: Speaker", 0, 2, 48000.0, "ALSA", default_output=True),
        sources.DeviceInfo(1, "USB Table Mic", 4, 0, 44100.0, "ALSA", default_input=True),
    ]
    monkeypatch.setattr(sources, "list_devices", lambda: devs)
    mic = MicSource(device="table mic", channels=4)
    assert mic.device.index == 1 and mic.native_rate == 44100.0 and mic.channels == 4
    assert MicSource().device.index == 1
    with pytest.raises(NoInputDevice, match="4 channel"):
        MicSource(channels=6)
    with pytest.raises(NoInputDevice, match="no input device named"):
        MicSource(device="webcam")


def _feed(chunks: list[tuple[float, float]]) -> float:
    """A stream of 50 ms chunks: each (seconds of input dropped just before it, its lag on
    arrival beyond the sound card's 0.1 s); the silence LostInput puts back, in all."""
    from voice_host.speech.listening.sources import LostInput

    lost, count, wall, put = LostInput(), 0.0, 0.0, 0.0
    for dropped, late in chunks:
        wall += dropped + 0.05  # the clock runs on through what was dropped
        count += 0.05  # the count does not
        gap = lost.missing(count, wall + 0.1 + late)
        count += gap
        put += gap
    return put


def test_a_steady_stream_loses_nothing():
    assert _feed([(0.0, 0.01 * (i % 3)) for i in range(200)]) == 0.0


def test_a_hold_up_that_lost_nothing_puts_nothing_back():
    # 0.8 s without a chunk, then the held chunks all at once (each less late than the one before)
    held = [(0.0, 0.8 - 0.05 * k) for k in range(16)]
    assert _feed([(0.0, 0.0)] * 40 + held + [(0.0, 0.0)] * 40) == 0.0


def test_dropped_input_is_put_back_as_silence():
    put = _feed([(0.0, 0.0)] * 40 + [(0.3, 0.0)] + [(0.0, 0.0)] * 40 + [(0.12, 0.0)] + [(0.0, 0.0)] * 40)
    assert put == pytest.approx(0.42, abs=0.01)

