"""What the benchmarks share, so that each script keeps only what it measures.

- synth: synthetic speech (festival, flite and piper voices, cached on disk), laid on a
  timeline, with noise added; the tests' voices too
- voices: synth's voices, and voices varied with sox effects
- pulse: a private PulseAudio server, for live play without a sound card
- splits: the tuning and held-out voices, and the split of a real speaker
- rooms: the conditions a word is heard in: pink noise, and real rooms (kitchen noise,
  babble of real talkers, a living room's reverberation, a far microphone) made from
  the recordings under the real-audio cache
- listening: the VAD cut, a clip padded with silence heard through the live listener
- report: the common options (--quick, --json, --conditions) and the printed table or JSON

A benchmark run as a script (``python benchmarks/NAME.py``) finds it beside itself; the
tests find it through pytest's ``pythonpath`` (pyproject.toml).
"""

from __future__ import annotations
