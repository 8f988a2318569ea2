"""Everything the host says, where it goes: printed, spoken, recorded, with earcons.

:class:`Speaker` is what the session's ``speak`` is in ``voice-host play``, ``resume``
and ``demo``: every sentence is printed as ``host: ...``; with a voice it is also said
aloud (speech.speaking.voice.TtsVoice: Piper or pyttsx3 by ``[voice] engine``); with ``--speak-to
FILE.wav`` it is also laid into that file on the game's timeline (speech.speaking.record.SpeakTo).
Earcons (``[voice] earcons``) go to both. ``--no-voice`` silences the loudspeakers only:
the file is still written (docs/VOICE.md, "`--no-voice` with `--speak-to`").
"""

from __future__ import annotations

import sys
from typing import Callable


def _say_plainly(message: str) -> None:
    print(f"host: ({message})", flush=True)


class Speaker:
    """Print, speak and record the host's sentences (see the module's docstring)."""

    def __init__(self, no_voice: bool, cfg: dict, speak_to: str | None = None, play: bool = True) -> None:
        from voice_host.speech.speaking.tts import VoiceSettings, make_synthesizer

        try:
            self.settings = VoiceSettings.from_config(cfg)
        except ValueError as exc:
            _say_plainly(f"{exc} I'll use the default voice")
            self.settings = VoiceSettings()
        self.voice = None
        self.file = None
        self.clock: Callable[[], float] = lambda: 0.0
        """The game clock (:meth:`attach` follows the session's; :meth:`follow`)."""
        if not no_voice:
            try:
                from voice_host.speech.speaking.voice import TtsVoice

                self.voice = TtsVoice(settings=self.settings, notify=_say_plainly, play=play)
            except Exception as exc:  # no engine, no audio output: print only, and say so once
                print(f"host: (I can't speak here: {exc}. Printing only.)", flush=True)
        if speak_to:
            from voice_host.speech.speaking.record import SpeakTo

            synth = self.voice.synth if self.voice is not None else None
            try:
                synth = synth or make_synthesizer(self.settings, notify=_say_plainly)
                self.file = SpeakTo(speak_to, synth)
            except Exception as exc:
                raise ValueError(f"I can't record the host's voice into {speak_to}: {exc}") from exc

    @property
    def engine(self) -> str | None:
        """The voice engine in use ("piper", "pyttsx3"), None when printing only."""
        synth = self.synth
        return getattr(synth, "engine", None) if synth is not None else None

    @property
    def synth(self):
        if self.voice is not None:
            return self.voice.synth
        return self.file.synth if self.file is not None else None

    @property
    def earcons(self) -> Callable[[str, float | None], None] | None:
        """What plays the session's earcons (``Session(earcon=...)``): :meth:`cue`, where
        earcons are on and there is a voice or a file to play them; else None."""
        return self.cue if self.settings.earcons and (self.voice is not None or self.file is not None) else None

    def follow(self, clock: Callable[[], float]) -> None:
        """Time what is said and cued by ``clock`` (the game's, or a recording's as it plays)."""
        self.clock = clock

    def attach(self, session) -> None:
        """Follow ``session``'s game clock (the file starts at its time now: 0 for a new
        game, the resume point after a replay)."""
        self.follow(lambda: session.t)
        if self.file is not None:
            self.file.starts_at(session.t)
        if self.voice is not None:  # what is said first, first: the opening's questions and the game's intro
            asks = [] if session.begun else [line(p) for p in session.players for line in (
                session.announcer.enroll_prompt, session.announcer.enrolled)]
            self.voice.prepare(asks + session.opening() + session.announcer.openings(session.players))

    def __call__(self, line: str) -> None:
        print(f"host: {line}", flush=True)
        if self.voice is not None:
            self.voice.say(line)
        if self.file is not None:
            self.file.say(line, self.clock())

    def cue(self, name: str, t: float | None = None) -> None:
        """An earcon (speech.speaking.earcons) now, or at game time ``t`` in the file."""
        if not self.settings.earcons:
            return
        if self.voice is not None:
            self.voice.cue(name)
        if self.file is not None:
            self.file.cue(name, self.clock() if t is None else t)

    def hush(self) -> None:
        """Stop speaking now ("stop", "be quiet"): the sentence being said and those queued."""
        if self.voice is not None:
            self.voice.stop()

    def adjust(self, rate_step: float = 0, volume_step: float = 0):
        """"slower"/"faster" (rate_step -1/+1), "softer"/"louder" (volume_step -1/+1):
        the new tts.Level (at_limit when a bound stopped it); None when printing only."""
        synth = self.synth
        return synth.adjust(rate_step=rate_step, volume_step=volume_step) if synth is not None else None

    def close(self, wait: float = 60.0) -> None:
        """Let the last sentences be heard (up to ``wait`` seconds), finish the file, stop."""
        try:
            if self.voice is not None:
                self.voice.wait(wait)
            if self.file is not None:  # before the voice closes the synthesizer they share
                try:
                    self.file.close()
                except Exception as exc:  # noqa: BLE001
                    print(f"voice-host: the recording of the host may be incomplete: {exc}", file=sys.stderr)
        finally:
            if self.voice is not None:
                self.voice.close()


class Timeline:
    """An audio source that remembers how far it has been read (``now``, seconds): with
    ``--audio``, the host's reply to an utterance is laid in the ``--speak-to`` file where
    the recording had got to when the host answered, not at the utterance's start."""

    def __init__(self, source) -> None:
        self.source = source
        self.now = 0.0

    def __iter__(self):
        for chunk in self.source:
            self.now = max(self.now, chunk.end)
            yield chunk

    def __getattr__(self, name):
        return getattr(self.source, name)


__all__ = ["Speaker", "Timeline"]
