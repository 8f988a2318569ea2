"""The speech layer: audio in, recognition, speaker turns, voice prints, the host's voice.

One package per stage (docs/SPEECH.md indexes a page for each):

- ``listening/``: audio in to utterances: ``sources`` (audio in), ``vad`` (where speech
  starts and ends), ``echo`` (the host's own voice kept out), ``attribution`` (who
  spoke), ``voiceprint``, ``config`` (``TurnConfig``) and ``turns`` (the ``Listener``:
  the stages in order, a recognizer fed each utterance).
- ``recognizing/``: an utterance's audio to text: ``recognizer`` (the protocol),
  ``engines`` (the registry: ``make_recognizer``), ``sayable`` (what may be said, as a
  language), ``models``, and one package per engine: ``moonshine/``, ``whisper/``, ``vosk/``.
- ``speaking/``: the host's voice: ``voice`` (``TtsVoice``, ``HostVoice``,
  ``HostPlayback``), ``tts`` (Piper, pyttsx3), ``system_voice``, ``earcons``, ``record``
  (``--speak-to``).

``audio`` is what all three share (the sample rate, WAV files, resampling, devices). The
lead's entry points:

- ``open_source(audio=None, device=None, channels=None)`` -> WavSource / MicSource
- ``make_recognizer(engine="auto", model=None)`` -> MoonshineRecognizer / WhisperRecognizer / VoskRecognizer
- ``listen(source, recognizer, players, channel_players=..., voiceprints=..., voice=...)``
  -> Iterator[Utterance]  (or ``Listener`` to call ``expect(phrases)`` between turns)
- ``TtsVoice(settings=VoiceSettings.from_config(cfg), clock=source.clock)`` (Piper, else
  pyttsx3; ``say``, ``cue(earcon)``, ``adjust(rate_step, volume_step)``)
- ``VoicePrints().enroll(name, audio)``
- ``models.register(subparsers)``: the ``models fetch|where`` and ``devices`` subcommands
"""

from .audio import SAMPLE_RATE, list_devices
from .listening.attribution import Attribution, Attributor, split_name_prefix
from .listening.config import TurnConfig
from .listening.echo import EchoGate
from .listening.sources import (
    ArraySource, AudioChunk, MicSource, NoInputDevice, WavSource, channel_names, open_source,
)
from .listening.turns import Discarded, Listener, Partial, SpeechStarted, Utterance, listen
from .listening.vad import Segment, Segmenter, segments
from .listening.voiceprint import VoicePrints
from .recognizing.engines import ENGINES, make_recognizer
from .recognizing.models import ModelNotFound, register
from .recognizing.recognizer import Recognizer, Transcript, Word
from .recognizing.vosk import VoskRecognizer
from .recognizing.whisper import WhisperRecognizer
from .speaking.tts import VoiceSettings, make_synthesizer
from .speaking.voice import HostPlayback, HostVoice, TtsVoice

__all__ = [
    "ENGINES", "SAMPLE_RATE", "ArraySource", "Attribution", "Attributor", "AudioChunk", "Discarded", "EchoGate",
    "HostPlayback", "HostVoice", "Listener", "MicSource", "ModelNotFound", "NoInputDevice", "Partial", "Recognizer",
    "Segment", "Segmenter", "SpeechStarted", "Transcript", "TtsVoice", "TurnConfig", "Utterance", "VoicePrints",
    "VoiceSettings", "VoskRecognizer", "WavSource", "WhisperRecognizer", "Word", "channel_names", "list_devices",
    "listen", "make_recognizer", "make_synthesizer", "open_source", "register", "segments", "split_name_prefix",
]
