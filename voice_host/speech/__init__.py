"""The speech layer: audio in, recognition, speaker turns, voice prints, the host's voice.

One stage per module (docs/SPEECH.md): ``sources`` (audio in), ``vad`` (where speech
starts and ends), ``echo`` (the host's own voice kept out), ``recognizer`` (and
``moonshine``, ``sayable``), ``attribution`` (who spoke), ``turns`` (utterances: the
stages in order), ``voiceprint``; the host's voice in ``voice``, ``tts``, ``earcons``
and ``record``. The lead's entry points:

- ``open_source(audio=None, device=None, channels=None)`` -> WavSource / MicSource
- ``make_recognizer(engine="vosk", model=None)`` -> VoskRecognizer / WhisperRecognizer
- ``listen(source, recognizer, players, channel_players=..., voiceprints=..., voice=...)``
  -> Iterator[Utterance]  (or ``Listener`` to call ``expect(phrases)`` between turns)
- ``TtsVoice(settings=VoiceSettings.from_config(cfg), clock=source.clock)`` (Piper, else
  pyttsx3; ``say``, ``cue(earcon)``, ``adjust(rate_step, volume_step)``)
- ``VoicePrints().enroll(name, audio)``
- ``models.register(subparsers)``: the ``models fetch|where`` and ``devices`` subcommands
"""

from .attribution import Attribution, Attributor, split_name_prefix
from .config import TurnConfig
from .echo import EchoGate
from .models import ModelNotFound, register
from .recognizer import ENGINES, Recognizer, Transcript, Word, make_recognizer
from .vosk import VoskRecognizer
from .whisper import WhisperRecognizer
from .sources import (
    SAMPLE_RATE, ArraySource, AudioChunk, MicSource, NoInputDevice, WavSource, channel_names, list_devices,
    open_source,
)
from .tts import VoiceSettings, make_synthesizer
from .turns import Discarded, Listener, Partial, SpeechStarted, Utterance, listen
from .vad import Segment, Segmenter, segments
from .voice import HostPlayback, HostVoice, TtsVoice
from .voiceprint import VoicePrints

__all__ = [
    "ENGINES", "SAMPLE_RATE", "ArraySource", "Attribution", "Attributor", "AudioChunk", "Discarded", "EchoGate",
    "HostPlayback", "HostVoice", "Listener", "MicSource", "ModelNotFound", "NoInputDevice", "Partial", "Recognizer",
    "Segment", "Segmenter", "SpeechStarted", "Transcript", "TtsVoice", "TurnConfig", "Utterance", "VoicePrints",
    "VoiceSettings", "VoskRecognizer", "WavSource", "WhisperRecognizer", "Word", "channel_names", "list_devices",
    "listen", "make_recognizer", "make_synthesizer", "open_source", "register", "segments", "split_name_prefix",
]
