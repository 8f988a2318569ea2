"""Adapting Moonshine (training/), at toy size on a CPU: the training set's synthesis
(training voices only), the .ort weights in PyTorch (the same logits as onnxruntime),
one fine-tune step, the delta format (written by training/delta.py, read by the host's
moonshine/delta.py) and its use when the model is converted, the evaluation, and the
[speech] model setting (moonshine/adapted.py).

torch and transformers come with the ``adapt`` extra (.ci/setup test installs it):
without them these tests skip on a developer's machine and fail in CI.
"""

from __future__ import annotations

import json
import shutil

import numpy as np
import pytest

from support import need

from training import delta as deltas
from training import heldout, texts, voices
from training.synth import read_manifest, synthesize
from voice_host.speech.recognizing.moonshine import adapted
from voice_host.speech.recognizing.moonshine.delta import DamagedDelta, checksum, dequantize, load

pytestmark = pytest.mark.model  # the training tool: torch and Moonshine's weights

VOICES = ["flite:rms", "espeak:en-us+m3"]


@pytest.fixture(scope="module")
def model_dir():
    from voice_host.speech.recognizing.models import ModelNotFound
    from voice_host.speech.recognizing.moonshine.files import find_model_dir

    try:
        return find_model_dir()
    except ModelNotFound as e:
        need(False, str(e))


@pytest.fixture(scope="module")
def torch_ok():
    try:
        import torch  # noqa: F401
        import transformers  # noqa: F401
    except ImportError:
        need(False, "torch and transformers are not installed (the 'adapt' extra: pip install -e '.[adapt]')")
    return True


@pytest.fixture(scope="module")
def toy_set(tmp_path_factory):
    for v in VOICES:
        why = voices.tool_missing(v)
        need(why is None, why or "")
    out = tmp_path_factory.mktemp("toy-set")
    words = texts.training_words(4, seed=3)
    manifest = synthesize(out, 4, VOICES, seed=3, words=words,
                          shares={"word": 0.5, "name_word": 0.25, "command": 0.25})
    return out, read_manifest(manifest), words


@pytest.fixture(scope="module")
def base(model_dir):
    from training.weights import base_weights

    return base_weights(model_dir)


@pytest.fixture(scope="module")
def clip():
    from training.synth import render

    audio = render("Lantern.", "flite:rms", {"lead_s": 0.5, "trail_s": 0.5}, 0)
    return audio


def test_manifest_holds_training_voices_texts_and_16khz_audio(toy_set):
    import soundfile as sf

    out, rows, words = toy_set
    assert len(rows) == 4
    kinds = [r["kind"] for r in rows]
    assert kinds.count("word") == 2 and kinds.count("name_word") == 1 and kinds.count("command") == 1
    held = heldout.benchmark_words()
    for r in rows:
        assert r["voice"] in VOICES and set(r) >= {"path", "text", "voice", "augmentation", "seconds", "word"}
        assert r["word"] in words and r["word"] not in held
        if r["kind"] != "command":
            assert r["word"] in r["text"].lower()
        audio, rate = sf.read(str(out / r["path"]), dtype="float32")
        assert rate == 16000 and audio.ndim == 1
        assert abs(audio.size / 16000 - r["seconds"]) < 1e-3
        a = r["augmentation"]
        # the silence added on each side is there, and something louder in between
        lead, trail = int(a["lead_s"] * 16000), int(a["trail_s"] * 16000)
        assert audio.size > lead + trail + 1600
        if "noise" not in a:
            assert np.abs(audio[: lead - 10]).max() < 1e-3 and np.abs(audio[audio.size - trail + 10:]).max() < 1e-3
        assert np.abs(audio[lead:audio.size - trail]).max() > 0.05


def test_held_out_voices_and_words_are_refused(tmp_path):
    for v in ("piper:joe", "festival:slt", "flite:slt", "fest_slt", "slt~p300", "joe", "flite:SLT", "espeak:en-us+slt"):
        with pytest.raises(voices.HeldOutVoice):
            voices.check_training_voice(v)
    with pytest.raises(voices.HeldOutVoice):
        voices.check_training_voice("flite:nosuchvoice")
    with pytest.raises(voices.HeldOutVoice):
        synthesize(tmp_path, 2, ["flite:rms", "flite:slt"], words=["tarn"])
    assert not (tmp_path / "manifest.jsonl").exists()
    assert all(voices.check_training_voice(v) == v for v in voices.training_voices())
    held = heldout.benchmark_words()
    assert {"abandoned", "whispered"} <= held  # the benchmarks' own words and a picked one
    picked = heldout._bench("recognition").pick_words(320)
    assert set(picked) <= held and not held & set(texts.training_words(2000, seed=1))


def test_converted_weights_give_onnxruntime_logits(model_dir, torch_ok, base, clip):
    from training.tokens import Tokenizer
    from training.torchmodel import load_base, logits
    from voice_host.speech.recognizing.moonshine.model import BOS, EOS, MoonshineModel

    ort_model = MoonshineModel(model_dir, cpu_threads=2, convert=False)  # the .ort files as shipped
    hidden = ort_model.encode(clip)
    lg, cache = ort_model.decode_first(hidden)
    ids, rows = [BOS], [lg[0]]
    while len(ids) < 10:
        ids.append(int(rows[-1][:32000].argmax()))
        if ids[-1] == EOS:
            break
        lg, cache = ort_model.decode_next(np.array([ids[-1]]), cache, hidden)
        rows.append(lg[0])
    text = ort_model.detokenize(ids)
    assert text.lower().strip(".") == "lantern"
    pt = logits(load_base(weights=base), clip, ids[:len(rows)])
    diff = float(np.abs(np.stack(rows) - pt).max())
    assert diff < 1e-4, diff  # 4e-5 measured
    assert Tokenizer(model_dir).encode(text) == ids  # the BPE replayed writes it as the model did


def test_one_step_lowers_the_loss_and_writes_a_delta(toy_set, torch_ok, base, tmp_path):
    from training.train import train

    out, rows, _ = toy_set
    s = train(out / "manifest.jsonl", tmp_path, steps=1, batch=2, lr=3e-5, warmup=0, weights=base, quiet=True,
              level=1)
    assert s["loss_first_batch_after"] < s["loss_first_batch_before"]
    assert s["dtype"] == "fp32" and s["steps"] == 1
    d = load(tmp_path / "adapted.delta")
    assert d.sha256 == s["sha256"] and len(d) == s["changed_tensors"] > 100
    assert d.meta["lr"] == 3e-5 and json.loads((tmp_path / "train.json").read_text())["loss_curve"]
    w = "model.decoder.layers.3.mlp.fc1.weight"
    assert np.abs(d.tensors[w]).max() > 1e-6  # the weights moved
    shutil.copy(tmp_path / "adapted.delta", out / "trained.delta")


def test_delta_round_trip_is_exact_to_its_quantization_and_refuses_damage(tmp_path, model_dir):
    rng = np.random.default_rng(0)
    diffs = {"a.weight": rng.normal(0, 1e-3, (64, 32)).astype(np.float32),
             "b.bias": rng.normal(0, 1e-2, (32,)).astype(np.float32),
             "c.weight": np.zeros((8, 8), np.float32)}
    diffs["c.weight"][2, 3] = 0.5
    lowrank = deltas.make({"m.weight": np.zeros((40, 30), np.float32)},
                          {"m.weight": (rng.normal(size=(40, 2)) @ rng.normal(size=(2, 30))).astype(np.float32)}, rank=2)
    path = tmp_path / "x.delta"
    sha = deltas.save(path, {**diffs, **lowrank}, {"note": "toy"})
    d = load(path)
    assert d.sha256 == sha == checksum(path) and d.meta == {"note": "toy"}
    for name, x in diffs.items():
        q, scale = deltas.quantize(x)
        assert np.array_equal(d.tensors[name], dequantize(q, scale))
        per_row = np.repeat(scale, x.size // scale.size).reshape(x.shape)
        assert np.all(np.abs(d.tensors[name] - x) <= per_row / 2 + 1e-12)
    target = (lowrank["m.weight@A"] @ lowrank["m.weight@B"])
    assert np.abs(d.tensors["m.weight"] - target).max() < 1e-2 * np.abs(target).max()
    data = bytearray(path.read_bytes())
    data[-5] ^= 0x01
    bad = tmp_path / "bad.delta"
    bad.write_bytes(bytes(data))
    with pytest.raises(DamagedDelta, match=r"damaged \(its checksum does not match\).*model = \"base\""):
        load(bad)
    (tmp_path / "junk.delta").write_bytes(b"not a delta at all")
    with pytest.raises(DamagedDelta, match="not a voice-host delta"):
        load(tmp_path / "junk.delta")
    from voice_host.speech.recognizing.moonshine.convert import converted_models

    with pytest.raises(DamagedDelta):  # refused before any conversion, never the base model instead
        converted_models(model_dir, delta=bad, quiet=True)


def test_delta_changes_the_onnx_graphs_as_it_changes_torch(toy_set, torch_ok, base, model_dir, clip):
    import onnxruntime as ort
    import torch

    from voice_host.speech.recognizing.moonshine import convert
    from training.torchmodel import load_base, logits

    out, _, _ = toy_set
    path = out / "trained.delta"
    need(path.is_file(), "the training test did not leave its delta")
    d = load(path)
    # two layers of each stack, the step amplified so the change is plain, stored again
    big = {k: v * 300 for k, v in d.tensors.items() if ".layers.2." in k or ".layers.5." in k or "conv" in k}
    deltas.save(path.with_name("big.delta"), big)
    d = load(path.with_name("big.delta"))
    so = ort.SessionOptions()
    so.log_severity_level = 3

    def first_logits(diffs):
        applied: set = set()
        enc = convert.float_encoder(model_dir, diffs, applied)
        first, _ = convert.float_decoders(model_dir, diffs, applied)
        h = ort.InferenceSession(enc.SerializeToString(), so).run(None, {"input_values": clip[None]})[0]
        sess = ort.InferenceSession(first.SerializeToString(), so)
        lg = sess.run(["logits"], {"input_ids": np.array([[1]], np.int64), "encoder_hidden_states": h})[0]
        return lg[0, -1], applied

    new_lg, applied = first_logits(d.tensors)
    assert applied == set(d.tensors)
    model = load_base(weights=base)
    base_lg = logits(model, clip, [1])[0]  # onnxruntime's own, to 1e-4 (test above)
    deltas.apply_torch(model, d)
    with torch.no_grad():
        pt = logits(model, clip, [1])[0]
    assert np.abs(new_lg - base_lg).max() > 0.05  # the delta changes what the graphs compute ...
    assert np.abs(new_lg - pt).max() < 1e-4  # ... exactly as it changes the torch model (3e-5 measured)
    assert convert.converted_dir(model_dir, path).name.endswith("-adapted-" + checksum(path)[:16])
    assert convert.converted_dir(model_dir, path) != convert.converted_dir(model_dir)


def test_speech_model_setting(tmp_path, monkeypatch):
    monkeypatch.delenv("VOICE_HOST_MOONSHINE_DELTA", raising=False)
    from voice_host import config
    from voice_host.host.hearing import HearingSettings

    assert config.load()["speech"]["model"] == "base"
    speech = HearingSettings.from_config(config.load())
    assert adapted.recognizer_options(speech.model, "moonshine", speech.second_ear) == {"second_ear": "off"}
    assert adapted.recognizer_options(speech.model, "whisper", speech.second_ear) == {}
    if not adapted.SHIPPED.is_file():
        with pytest.raises(adapted.NoAdaptedModel) as e:
            adapted.recognizer_options("adapted", "moonshine")
        assert str(e.value) == 'No adapted recognizer is installed; set [speech] model = "base".'
    with pytest.raises(adapted.NoAdaptedModel, match='"base" or "adapted"'):
        adapted.delta_for("tuned")
    f = tmp_path / "my.delta"
    deltas.save(f, {"model.decoder.norm.weight": np.full(416, 1e-3, np.float32)})
    monkeypatch.setenv("VOICE_HOST_MOONSHINE_DELTA", str(f))
    assert adapted.recognizer_options("adapted", "moonshine", "off") == {"delta": f, "second_ear": "off"}
    with pytest.raises(adapted.NoAdaptedModel, match="engine is whisper"):
        adapted.recognizer_options("adapted", "whisper")


def test_evaluation_prints_a_table(model_dir):
    from training import evaluate

    need(shutil.which("flite"), "flite is not installed")
    r = evaluate.evaluate(None, ["lantern", "whispered"], choices=4, voices=("slt",), conditions=("clean", "10"),
                          cpu_threads=2, quiet=True)
    assert [row["word"] for row in r["rows"]] == ["lantern", "whispered"] * 2
    assert set(r["table"]) == {"slt clean", "slt 10 dB"} and r["table"]["slt clean"]["n"] == 2
    assert r["table"]["slt clean"]["choice"] == 100.0  # two words among four, clean
    text = evaluate.format_table(r)
    assert "slt 10 dB" in text and "choose/4" in text
