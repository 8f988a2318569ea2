"""Real speech and rooms in the adaptation's training mix (training/mix.py, guard.py,
the `pack` and `mixed` commands), at toy size on a CPU: which real recordings a training
set may hold, the packs that carry clips to a GPU machine, the rooms a clip is put in,
and one toy training run that guards on held-out people and keeps its best delta.

The recordings here are stand-ins laid out as the real sources are (files named as
Speech Commands and the spoken-digit set name theirs), said by flite, so that the split
rules are checked on names alone.
"""

from __future__ import annotations

import json
import pickle

import numpy as np
import pytest

from support import need

from training import guard, mix, voices

pytestmark = pytest.mark.model  # the training tool: torch and Moonshine's weights

RATE = 16000


def _say(text: str, path) -> None:
    import soundfile as sf

    from training.synth import render

    path.parent.mkdir(parents=True, exist_ok=True)
    sf.write(str(path), render(text, "flite:rms", {"lead_s": 0.2, "trail_s": 0.2}, 0), RATE, subtype="PCM_16")


@pytest.fixture(scope="module")
def real_audio(tmp_path_factory):
    """A real-audio folder of stand-ins: Speech Commands' tuning (0-7) and held-out (8-f)
    speakers, a name folder, the spoken digits, Picovoice, DSPSpeech-20, the rooms."""
    need(voices.tool_missing("flite:rms") is None, "flite is not installed")
    root = tmp_path_factory.mktemp("real-audio")
    sc = root / "speech_commands_test_v002" / "dataset"
    _say("dog", sc / "dog" / "1a2b3c4d_nohash_0.wav")
    _say("dog", sc / "dog" / "9a2b3c4d_nohash_0.wav")
    _say("tree", sc / "_unknown_" / "tree_2b3c4d5e_nohash_1.wav.wav")
    _say("tree", sc / "_unknown_" / "tree_f0e1d2c3_nohash_0.wav.wav")
    _say("marvin", sc / "_unknown_" / "marvin_3c4d5e6f_nohash_0.wav.wav")
    for i in range(6):
        _say(mix.DIGITS[i], root / "fsdd" / "recordings" / f"{i}_george_{i}.wav")
    _say("computer", root / "picovoice_wwb" / "audio" / "computer" / "computer_0.wav")
    _say("open", root / "dspspeech20" / "speech_data" / "1530" / "1530-17-01.wav")  # an English word
    _say("fudan", root / "dspspeech20" / "speech_data" / "1530" / "1530-10-01.wav")  # a Mandarin one
    noise = np.random.default_rng(0).standard_normal(RATE).astype(np.float32) * 0.05
    import soundfile as sf

    for name in ("running_tap", "doing_the_dishes"):
        (root / "sc_background_noise_wids" / "_background_noise_").mkdir(parents=True, exist_ok=True)
        sf.write(str(root / "sc_background_noise_wids" / "_background_noise_" / f"{name}.wav"), noise, RATE)
    return root


def test_training_set_holds_only_the_tuning_speakers_and_the_spoken_digits(real_audio):
    rows = mix.real_rows(real_audio)
    assert sorted((r["source"], r["speaker"], r["word"]) for r in rows) == sorted(
        [("speech commands", "1a2b3c4d", "dog"), ("speech commands", "2b3c4d5e", "tree")]
        + [("fsdd", "george", mix.DIGITS[i]) for i in range(6)])
    assert {r["text"] for r in rows if r["word"] == "dog"} == {"Dog."}
    assert len([r for r in mix.real_rows(real_audio, fsdd=2) if r["source"] == "fsdd"]) == 2


@pytest.mark.parametrize("row", [
    {"source": "speech commands", "speaker": "9a2b3c4d"},
    {"source": "speech commands v1", "speaker": "f0e1d2c3"},
    {"source": "picovoice", "speaker": "computer_0"},
    {"source": "pocketsphinx", "speaker": ""},
])
def test_held_out_recordings_are_refused(row):
    with pytest.raises(mix.HeldOutRecording, match="held out"):
        mix.check_training_recording(dict(row, path="x.wav"))


def test_the_benchmarks_hold_out_dspspeech_and_hear_only_its_english_words(real_audio):
    from toolkit import rooms

    rows = [r for r in rooms.real_clips(real_audio, 4) if r["source"] == "dspspeech-20"]
    assert [(r["split"], r["word"], r["speaker"]) for r in rows] == [("held-out", "open", "1530")]
    with pytest.raises(mix.HeldOutRecording):
        mix.check_training_recording(rows[0])
    assert {c["source"] for c in rooms.talkers(real_audio, 3)} == {"speech commands", "picovoice"}  # nobody's talk


def test_guard_holds_the_held_out_speakers_and_the_other_source(real_audio):
    rows = mix.guard_rows(real_audio)
    assert sorted((r["source"], r["word"]) for r in rows) == [("picovoice", "computer"),
                                                              ("speech commands", "dog"),
                                                              ("speech commands", "tree")]
    assert {r["speaker"] for r in rows if r["source"] == "speech commands"} == {"9a2b3c4d", "f0e1d2c3"}


def test_a_pack_keeps_its_rows_and_about_its_audio(real_audio, tmp_path):
    rows = mix.real_rows(real_audio)[:2]
    size = mix.pack(rows, tmp_path / "p.pack")
    back = mix.unpack(tmp_path / "p.pack")
    assert [r for r, _ in back] == [{k: v for k, v in r.items() if k != "path"} for r in rows]
    for row, (_, audio) in zip(rows, back):
        said = mix.trim_speech(mix.read_16k(row["path"]))
        assert abs(audio.size - said.size) < 0.03 * RATE  # Opus pads to its 20 ms frames
        assert abs(mix.level(audio) / mix.level(said) - 1) < 0.25
    assert size < 3000 * len(rows)  # about 10 kbit/s


def test_rooms_pack_leaves_out_the_benchmarks_kitchen(real_audio, tmp_path):
    mix.pack_rooms(real_audio, tmp_path / "rooms.pack")
    room = pickle.loads((tmp_path / "rooms.pack").read_bytes())
    assert len(room["noises"]) == 1  # the running tap; "doing the dishes" is the benchmarks' kitchen


def test_a_generated_room_has_the_asked_direct_to_reverberant_ratio():
    rir = mix.generated_room(np.random.default_rng(1), 0.5, 3.0)
    direct, tail = rir[0] ** 2, np.sum(rir[1:] ** 2)
    assert 10 * np.log10(direct / tail) == pytest.approx(3.0, abs=0.01)
    assert rir.size == 8000 and np.sum(rir ** 2) == pytest.approx(1.0, rel=1e-5)


def test_a_clip_in_a_room_stays_in_range_and_is_the_same_for_a_seed():
    x = np.sin(np.arange(RATE) / RATE * 2 * np.pi * 220).astype(np.float32) * 0.3
    talk = [np.random.default_rng(2).standard_normal(RATE).astype(np.float32) * 0.1]
    outs = []
    for _ in range(2):
        rng = np.random.default_rng(5)
        outs.append([mix.in_room(x, rng, [], [], talk) for _ in range(40)])
    kinds = set()
    for (a, done), (b, _) in zip(*outs):
        assert np.array_equal(a, b) and np.isfinite(a).all() and np.abs(a).max() <= 0.99 + 1e-6
        assert a.size > x.size * 0.85
        kinds |= {d.split(" ")[0] for d in done}
    assert {"speed", "babble", "noise"} <= kinds and ({"room", "far"} & kinds)


def test_babble_puts_every_other_talker_under_the_clip():
    rng = np.random.default_rng(3)
    one = np.ones(800, np.float32)
    out = mix.babble([one, one * 2], 4000, rng)
    assert out.size == 4000 and np.count_nonzero(out) > 0


@pytest.mark.parametrize("steps, done, elapsed, per_step, budget, fit", [
    (1000, 15, 20.0, 0.5, 150.0, 275),   # 130 s left at 0.5 s a step
    (100, 15, 20.0, 0.5, 150.0, 100),    # all fit
    (1000, 15, 200.0, 0.5, 150.0, 16),   # over already: one more step, to save what was learnt
])
def test_training_takes_the_steps_that_fit_its_time(steps, done, elapsed, per_step, budget, fit):
    from training.train import steps_that_fit

    assert steps_that_fit(steps, done, elapsed, per_step, budget) == fit


@pytest.mark.parametrize("said, word, right", [
    ("Computer.", "computer", True), ("4", "four", True), ("Four!", "four", True),
    ("Computers.", "computer", False), ("Dog, dog.", "dog", False), ("", "dog", False),
])
def test_guard_reads_a_decode_as_the_word_only_when_it_is_the_word(said, word, right):
    assert (guard.normalize(said) == word) is right


def test_mixed_training_guards_each_variant_and_keeps_the_best_delta(real_audio, tmp_path, monkeypatch):
    try:
        import torch  # noqa: F401
        import transformers  # noqa: F401
    except ImportError:
        need(False, "torch and transformers are not installed (the 'adapt' extra: pip install -e '.[adapt]')")
    from training.__main__ import main
    from voice_host.speech.recognizing.moonshine.delta import load

    synth = tmp_path / "synth"
    _say("Lantern.", synth / "a.wav")
    (synth / "manifest.jsonl").write_text(json.dumps({"path": "a.wav", "text": "Lantern.", "kind": "word"}) + "\n")
    packs, out, back = tmp_path / "packs", tmp_path / "run", tmp_path / "back"
    assert main(["pack", str(synth / "manifest.jsonl"), str(real_audio), str(packs)]) == 0
    assert main(["mixed", str(packs), str(out), "--variant", "a:decoder:1:1e-5:0:0.5:60", "--variant",
                 "b:decoder:1:1e-9:0:0.5:60", "--batch", "2", "--workers", "0", "--device", "cpu",
                 "--copy-to", str(back)]) == 0
    heard = json.loads((back / "guard.json").read_text())
    assert set(heard) == {"base", "a", "b"}
    assert set(heard["base"]) == set(guard.CONDITIONS)
    assert heard["base"]["clean"]["speech commands"][1] == 2 and heard["base"]["clean"]["picovoice"][1] == 1
    trained = json.loads((back / "train.json").read_text())
    assert set(trained) == {"a", "b"} and trained["a"]["steps"] == 1
    parts = sorted(back.glob("*.delta.*"))
    kept = parts[0].name.split(".")[0]
    scores = {k: guard.right(v) for k, v in heard.items() if k != "base"}
    assert scores[kept] == max(scores.values())
    assert kept == "a" or scores["b"] > scores["a"]  # a later variant replaces it only when better
    (tmp_path / "kept.delta").write_bytes(b"".join(p.read_bytes() for p in parts))
    assert load(tmp_path / "kept.delta").sha256 == trained[kept]["sha256"]


def test_the_guards_best_deltas_are_kept_and_the_rest_removed(tmp_path):
    from training.__main__ import PART_BYTES, copy_best

    out, dest = tmp_path / "run", tmp_path / "back"
    dest.mkdir()
    sizes = {"a": 10, "b": PART_BYTES + 5, "c": 3}
    for name, size in sizes.items():
        (out / name).mkdir(parents=True)
        (out / name / "adapted.delta").write_bytes(bytes([ord(name)]) * size)
    copy_best(out, dest, {"a": 5}, keep=2)
    copy_best(out, dest, {"a": 5, "b": 7}, keep=2)
    copy_best(out, dest, {"a": 5, "b": 7, "c": 6}, keep=2)
    assert sorted(p.name for p in dest.iterdir()) == ["b.delta.000", "b.delta.015", "c.delta.000"]
    assert (dest / "b.delta.000").read_bytes() + (dest / "b.delta.015").read_bytes() == bytes([ord("b")]) * sizes["b"]


def test_benchmarks_hear_with_the_weights_asked_for(monkeypatch, tmp_path):
    import voice_host.speech.recognizing.moonshine as moonshine
    from real_speech import listening

    from voice_host.speech.recognizing.moonshine.adapted import NoAdaptedModel

    asked = []
    monkeypatch.setattr(moonshine, "create", lambda delta=None, **_: asked.append(delta) or "recognizer")
    monkeypatch.setenv("VOICE_HOST_MOONSHINE_DELTA", str(tmp_path / "none.delta"))
    with pytest.raises(NoAdaptedModel, match="No adapted recognizer is installed"):
        listening.recognizer("adapted")
    (tmp_path / "c.delta").write_bytes(b"VHDELTA1")
    monkeypatch.setenv("VOICE_HOST_MOONSHINE_DELTA", str(tmp_path / "c.delta"))
    assert listening.recognizer("adapted") == "recognizer" and listening.recognizer("base") == "recognizer"
    assert asked == [tmp_path / "c.delta", None]
