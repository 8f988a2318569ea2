"""The speech layer's subcommands for `voice-host`: `models fetch|where` and `devices`.

`register(subparsers)` adds them (each sets `func`; `args.func(args)` returns the exit
code). The code lives in voice_host.speech.recognizing.models.
"""

from .recognizing.models import register, run, run_devices, run_models_fetch, run_models_where

__all__ = ["register", "run", "run_devices", "run_models_fetch", "run_models_where"]
