"""Recognizing: an utterance's audio to text, free or constrained to what may be said.

- ``recognizer``: the protocol every engine offers (``Recognizer``, ``Engine``) and what
  it gives (``Transcript``, ``Word``).
- ``engines``: the registry that finds an engine by name (``make_recognizer``,
  ``available_engines``, ``ENGINES``).
- ``sayable``: what may be said next, as a language a search can walk (``Sayable``).
- ``models``: where the engines' models are, ``models fetch|where``, ``devices``.
- one package per engine: ``moonshine/`` (the default: the model, decoding, conversion,
  the recognizer), ``whisper/``, ``vosk/``.
"""
