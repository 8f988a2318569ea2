"""Speaking: the host's voice.

- ``voice``: ``TtsVoice`` says sentences and earcons in turn, and can be cut off;
  ``HostVoice`` (the protocol the listener needs) and ``HostPlayback`` (what was played
  when, for the echo gate).
- ``tts``: the synthesizers: Piper (natural) and pyttsx3 (portable), ``VoiceSettings``
  and ``make_synthesizer``.
- ``system_voice``: pyttsx3 in a thread of its own.
- ``earcons``: the short sounds of game moments.
- ``record``: ``--speak-to FILE.wav``: everything the host says, on the game's timeline.
"""
