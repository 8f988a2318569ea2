"""Listening: audio in, utterances out (who spoke, when, and what was heard).

- ``sources``: audio in, from a recording or a microphone, at 16 kHz (``open_source``).
- ``vad``: where speech starts and ends on each channel (``Segmenter``).
- ``echo``: the host's own voice kept out (``EchoGate``).
- ``attribution``: who spoke: channel > voice print > spoken name > unknown (``Attributor``).
- ``voiceprint``: the players' voice prints (``VoicePrints``).
- ``config``: ``TurnConfig``, the settings these stages read.
- ``turns``: the stages in order, a recognizer (voice_host.speech.recognizing) fed each
  utterance while it is spoken: ``Listener`` and ``listen`` give ``Utterance`` objects.
"""
