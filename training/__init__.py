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

The benchmarks' toolkit (benchmarks/toolkit/) is imported under its one name,
``toolkit``, as the benchmarks and the tests import it (pytest's ``pythonpath``): where
it is not importable already (``python -m training`` from the repository root), it is
loaded here from benchmarks/toolkit/ under that name, without editing ``sys.path``.
"""

from __future__ import annotations

import importlib.util
import sys
from pathlib import Path

BENCHMARKS = Path(__file__).resolve().parents[1] / "benchmarks"
"""The benchmarks beside the pipeline (their toolkit, and the pickers of heldout)."""


def _toolkit() -> None:
    """``toolkit``, the benchmarks' own package, in sys.modules under that name."""
    if "toolkit" in sys.modules:
        return
    folder = BENCHMARKS / "toolkit"
    spec = importlib.util.find_spec("toolkit")
    if spec is not None and spec.origin and Path(spec.origin).resolve().parent == folder.resolve():
        return  # importable as it is (benchmarks/ on the path: the tests)
    spec = importlib.util.spec_from_file_location("toolkit", folder / "__init__.py",
                                                  submodule_search_locations=[str(folder)])
    module = importlib.util.module_from_spec(spec)
    sys.modules["toolkit"] = module
    try:
        spec.loader.exec_module(module)
    except BaseException:
        del sys.modules["toolkit"]
        raise


_toolkit()
