"""Adapting Moonshine base to words said alone at a noisy table: the training pipeline.

A tool beside the product, as the benchmarks are: it is not installed with voice-host
and may import any of it (the host's sentences, the words, the recognizer). The host
itself only applies a finished delta (voice_host/speech/recognizing/moonshine: ``adapted``,
``delta``, ``weights``). One module per job (docs/ADAPTING.md):

- ``voices``: the training voices, and the check that refuses the held-out ones;
- ``heldout``: the words the benchmarks and the tests use (never trained on);
- ``texts``: what is said (dictionary words, the host's sentences), ``augment``: how
  (speed, level, silence, noise), ``synth``: the clips and their manifest;
- ``mix``: real people and rooms in the mix, packed for a GPU machine; ``guard``: the
  held-out people that choose which delta comes back from it (``on_gpu.sh``);
- ``tokens``: text -> token ids (BPE replayed from moonshine-cpp's vocabulary);
- ``weights``: the .ort weights as a state dict, ``torchmodel``: the PyTorch model
  (MoonshineForConditionalGeneration);
- ``train``: the fine-tune, writing a delta; ``delta``: writing the delta file;
- ``evaluate``: held-out voices and words, forced choice and free decoding.

Commands, from the repository root: ``python -m training --help``. torch and
transformers (the ``adapt`` extra) are needed by torchmodel and train only.
"""
