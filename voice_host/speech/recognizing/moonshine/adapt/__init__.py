"""Adapting Moonshine base to words said alone at a noisy table.

One module per job (docs/ADAPTING.md):

- ``voices``: the training voices, and the check that refuses the held-out ones;
- ``heldout``: the words the benchmarks and speech tests use (never trained on);
- ``texts``: what is said (dictionary words, the host's sentences), ``augment``: how
  (speed, level, silence, noise), ``synth``: the clips and their manifest;
- ``tokens``: text -> token ids (BPE replayed from moonshine-cpp's vocabulary);
- ``weights``: the .ort weights under transformers' names, ``torchmodel``: the
  PyTorch model (MoonshineForConditionalGeneration);
- ``train``: the fine-tune, writing a delta; ``delta``: the delta file format;
- ``evaluate``: held-out voices and words, forced choice and free decoding;
- ``setting``: ``[speech] model = "base" | "adapted"``.

Commands: ``python -m voice_host.speech.recognizing.moonshine.adapt --help``. torch
and transformers (the ``adapt`` extra) are needed by torchmodel and train only: the
host applies a delta with numpy and onnx when it converts the model.
"""
