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
  -> Iterator[Utterance] (voice_host.messages)  (or ``Listener`` to call ``expect(phrases)`` between turns)
- ``TtsVoice(settings=VoiceSettings.from_config(cfg), clock=source.clock)`` (Piper, else
  pyttsx3; ``say``, ``cue(earcon)``, ``adjust(rate_step, volume_step)``)
- ``VoicePrints().enroll(name, audio)``
- ``models.register(subparsers)``: the ``models fetch|where`` and ``devices`` subcommands
"""

import lazy_loader

# Each name is imported from its module when it is first used, so importing the speech
# layer (or one of its modules) loads no recognition engine, voice or listener it does
# not use.
__getattr__, __dir__, __all__ = lazy_loader.attach(__name__, submod_attrs={
    "audio": ["SAMPLE_RATE", "list_devices"],
    "listening.attribution": ["Attribution", "Attributor", "split_name_prefix"],
    "listening.config": ["TurnConfig"],
    "listening.echo": ["EchoGate"],
    "listening.sources": ["ArraySource", "MicSource", "NoInputDevice", "WavSource", "channel_names",
                          "open_source"],
    "listening.turns": ["Discarded", "Listener", "Partial", "SpeechStarted", "listen"],
    "listening.vad": ["Segment", "Segmenter", "segments"],
    "listening.voiceprint": ["VoicePrints"],
    "recognizing.engines": ["ENGINES", "make_recognizer"],
    "recognizing.models": ["ModelNotFound", "register"],
    "recognizing.recognizer": ["Recognizer"],
    "recognizing.vosk": ["VoskRecognizer"],
    "recognizing.whisper": ["WhisperRecognizer"],
    "speaking.tts": ["VoiceSettings", "make_synthesizer"],
    "speaking.voice": ["HostPlayback", "HostVoice", "TtsVoice"],
})
