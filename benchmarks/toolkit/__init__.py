"""What the benchmarks share, so that each script keeps only what it measures.

- synth: synthetic speech (festival, flite and piper voices, cached on disk), laid on a
  timeline, with noise added; the tests' voices too
- voices: synth's voices, and voices varied with sox effects
- pulse: a private PulseAudio server, for live play without a sound card
- splits: the tuning and held-out voices, and the split of a real speaker
- rooms: the conditions a word is heard in: pink noise, and real rooms (kitchen noise,
  babble of real talkers, a living room's reverberation, a far microphone) made from
  the recordings under the real-audio cache
- listening: the VAD cut, a clip padded with silence heard through the live listener;
  the recognizer with or without its second ear (--second-ear)
- report: the common options (--quick, --json, --conditions) and the printed table or JSON
- boards: the boards and words a player would choose (board_words.py, table.py)

One script's own parts, kept here so that each module stays readable:
- latency.py: latency_script (the players and their lines), latency_timing (the timed
  stages), fake_audio (the fake sound card and microphone), phone_link (the phones'
  process), latency_measures (what is measured and printed)
- table.py: table_game (the game planned and said), table_conversation (the table
  that answers), table_host (the host built, run and scored)
- kill.py: kill_games (the games killed), killed_runs (a run and its kill)

A benchmark run as a script (``python benchmarks/NAME.py``) finds it beside itself; the
tests find it through pytest's ``pythonpath`` (pyproject.toml).
"""

from __future__ import annotations
