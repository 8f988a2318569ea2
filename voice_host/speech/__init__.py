"""The speech layer: audio in, recognition, speaker turns, voice prints, the host's voice.

The lead's entry points (see docs/SPEECH.md):

- ``open_source(audio=None, device=None, channels=None)`` -> WavSource / MicSource
- ``make_recognizer(engine="vosk", model=None)`` -> VoskRecognizer / WhisperRecognizer
- ``listen(source, recognizer, players, channel_players=..., voiceprints=..., voice=...)``
  -> Iterator[Utterance]  (or ``Listener`` to call ``expect(phrases)`` between turns)
- ``TtsVoice(settings=VoiceSettings.from_config(cfg), clock=source.clock)`` (Piper, else
  pyttsx3; ``say``, ``cue(earcon)``, ``adjust(rate_step, volume_step)``) / ``PrintVoice()``
- ``VoicePrints().enroll(name, audio)``
- ``models.register(subparsers)``: the ``models fetch|where`` and ``devices`` subcommands
"""

from .models import ModelNotFound, register
from .recognizer import ENGINES, Recognizer, Transcript, VoskRecognizer, WhisperRecognizer, Word, make_recognizer
from .sources import (
    SAMPLE_RATE, ArraySource, AudioChunk, MicSource, NoInputDevice, WavSource, channel_names, list_devices,
    open_source,
)
from .turns import Discarded, Listener, Partial, SpeechStarted, TurnConfig, Utterance, listen, simultaneous_groups
from .tts import VoiceSettings, make_synthesizer
from .voice import EchoGate, HostPlayback, PrintVoice, TtsVoice
from .voiceprint import VoicePrints

__all__ = [
    "ENGINES", "SAMPLE_RATE", "ArraySource", "AudioChunk", "Discarded", "EchoGate", "HostPlayback", "Listener",
    "MicSource", "ModelNotFound", "NoInputDevice", "Partial", "PrintVoice", "Recognizer", "SpeechStarted",
    "Transcript", "TtsVoice", "TurnConfig", "Utterance", "VoicePrints", "VoiceSettings", "VoskRecognizer", "WavSource",
    "WhisperRecognizer", "Word", "channel_names", "list_devices", "listen", "make_recognizer", "make_synthesizer", "open_source",
    "register", "simultaneous_groups",
]
