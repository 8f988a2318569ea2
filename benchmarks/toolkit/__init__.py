"""What the benchmarks share, so that each script keeps only what it measures.

- voices: synthetic speech (tests/speech/synth.py) and sox-varied voices
- splits: the tuning and held-out voices, and the split of a real speaker
- rooms: the conditions a word is heard in: pink noise, and real rooms (kitchen noise,
  babble of real talkers, a living room's reverberation, a far microphone) made from
  the recordings under the real-audio cache
- listening: the VAD cut, a clip padded with silence heard through the live listener
- report: the common options (--quick, --json, --conditions) and the printed table or JSON

Importing it puts the repository and tests/speech on sys.path.
"""

from __future__ import annotations

import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
for _path in (ROOT, ROOT / "tests" / "speech"):
    if str(_path) not in sys.path:
        sys.path.insert(0, str(_path))
