"""The host's voice.

- :class:`TtsVoice`: a synthesizer (speech.tts: Piper by default, pyttsx3 as the
  portable voice) renders each sentence, clause by clause, in a background thread; the
  audio is played with sounddevice from another, so :meth:`TtsVoice.stop` cuts it off
  mid-sentence (barge-in) and the host knows exactly which samples went out when.
  Earcons (speech.earcons) are played in turn with the sentences (:meth:`TtsVoice.cue`).
- :class:`HostPlayback`: one sentence or earcon played, with its samples and interval on
  the microphone's timeline (:attr:`TtsVoice.history`, what the
  :class:`~voice_host.speech.listening.echo.EchoGate` keeps out of the players' speech).
- :class:`HostVoice`: what the listener needs of a voice (say, stop, speaking, ...).
"""

from __future__ import annotations

import queue
import sys
import threading
import time
from dataclasses import dataclass, field
from typing import Callable, Protocol

import numpy as np

from ..audio import SAMPLE_RATE
from . import earcons, tts

CLOSE_WAIT = 5.0
"""Seconds closing the voice waits for each of its threads to finish the piece under way."""
STEADY_LATENCY = 0.06
"""Seconds of sound the output holds ahead of the speaker while a microphone beside it
has the host's echo cancelled (:meth:`TtsVoice.follow`, ``steady``). PortAudio's least
("low", about 9 ms), which answers soonest, ran dry 38 times in two minutes of a live
game on a busy 2-core machine (the host's own threads, the recognizer and the voice
sharing it): each time ALSA's PulseAudio plugin played the rest of the sentence up to
tens of milliseconds off where the host knew, and the echo canceller's delay wandered
from 40 to 77 ms, its reference astray. 30 ms answers 39 ms sooner through a real audio
server (``benchmarks/output_latency.py``, loaded: said -> heard p95 51 against 90 ms,
no underrun there), but in the live table with the host's echo as loud as the players
(``benchmarks/table.py --live``, one microphone, the 2-core AVX2 machine) its output ran
dry 38 times a game against 13, and the words on the right sheet fell from 87.5% to
65.6 and 71.9% (two runs), 6-9% of them silently wrong. The first sound of a reply
comes about 50 ms later for 60 ms; a player cutting the host off loses nothing
(stopping drops what the output holds)."""
FILL = 0.01
"""Seconds of silence played at a time while the next piece of a sentence is still being
rendered (the output's blocking write paces them): the output is never left to run dry
mid-sentence (ALSA's PulseAudio plugin recovers from that with a deeper buffer, and the
rest of the sentence would sound later than the host knows; the echo canceller's
reference is where the sound is)."""


@dataclass
class HostPlayback:
    """One sentence the host said (or is saying), on the audio source's timeline."""

    text: str
    """What the host said."""
    start: float
    """When its first sample was played (seconds on the source timeline)."""
    end: float
    """When it ended (or was cut off); start + duration while still playing."""
    samples: np.ndarray | None = field(default=None, repr=False)
    """The mono 16 kHz audio played (None when only the interval is known)."""
    interrupted: bool = False
    """True when stop() cut it off (barge-in)."""
    latency: float | None = None
    """Seconds from say() to its first sample going out (TtsVoice)."""
    earcon: str | None = None
    """The earcon's name when this was an earcon, not a sentence."""


class HostVoice(Protocol):
    """What the host loop uses to speak."""

    def say(self, text: str) -> None:
        """Queue a sentence; returns at once."""

    def stop(self) -> None:
        """Stop speaking now (the current sentence and everything queued)."""

    def wait(self, timeout: float | None = None) -> bool:
        """Block until everything queued has been said; False on timeout."""

    @property
    def speaking(self) -> bool:
        """True while a sentence is being played (or is queued)."""

    def close(self) -> None:
        """Stop and release the audio device / threads."""


class TtsVoice:
    """The host's spoken voice: a queue of sentences (and earcons) rendered by a
    synthesizer (Piper or pyttsx3, see speech.tts) in one thread and played with
    sounddevice from another, piece by piece, so the first clause sounds while the
    rest is rendered; stop() cuts playback at once.

    `clock` gives the current time on the microphone's timeline (MicSource.clock), so
    :attr:`history` can be compared with what the microphone hears. Without an output
    device (`play=False`) sentences are rendered and timed as if played; with
    `play=True` and no output device the constructor raises RuntimeError. A sentence
    that fails to render (after the synthesizer's retries) is printed instead
    (``host: ...`` on stderr) and the voice carries on.
    """

    def __init__(
        self,
        rate: int | None = None,
        volume: float | None = None,
        voice: str | None = None,
        clock: Callable[[], float] | None = None,
        device: int | str | None = None,
        play: bool = True,
        synthesizer=None,
        engine: str | None = None,
        settings=None,
        notify: Callable[[str], None] | None = None,
        output: Callable[..., object] | None = None,
    ):
        """`synthesizer`: a ready one (speech.tts, or a bare system_voice.Synthesizer); else
        `settings` (tts.VoiceSettings) or `engine` ("auto", "piper", "pyttsx3"; default
        "pyttsx3" when only rate/volume/voice are given, as before) build one.
        `output`: opens the sound output in place of ``sounddevice.OutputStream`` (called
        with the same keywords; its ``default_samplerate`` is the device's rate): a fake
        sound card, e.g. benchmarks/latency.py's; no audio device is needed then."""
        self._open_output = output
        if play and output is None:
            from ..audio import list_devices

            if not any(d.max_output_channels > 0 for d in list_devices()):
                raise RuntimeError("no audio output device")
        if synthesizer is None:
            if settings is None:
                settings = tts.VoiceSettings(engine=engine or "pyttsx3",
                                             pyttsx3={"rate": rate, "volume": volume, "voice": voice},
                                             piper={"volume": volume})
            synthesizer = tts.make_synthesizer(settings, notify=notify)
        elif not hasattr(synthesizer, "pieces"):  # a bare pyttsx3 Synthesizer
            synthesizer = tts.Pyttsx3Synthesizer(synthesizer=synthesizer, volume=volume, warm_up=False)
        self.synth = synthesizer
        self.clock = clock or time.monotonic
        self.device = device
        self.play = play
        self.history: list[HostPlayback] = []
        """Every sentence and earcon played, with its interval and audio (for the EchoGate)."""
        self._texts: queue.Queue = queue.Queue()
        self._audio: queue.Queue = queue.Queue()
        self._gen = 0
        self._idle = threading.Event()
        self._idle.set()
        self._pending = 0
        self._lock = threading.Lock()
        self._stream = None
        self._streaming = False
        """Whether the output stream is started (it is stopped whenever nothing is left to
        say, unless steady: see _keep_going)."""
        self._latency: float | str = "low"
        """The output's latency to open it with (PortAudio's: "low" answers soonest; see follow)."""
        self._stream_latency: float | str | None = None
        """... and the one the open output has."""
        self._heard_until: float | None = None
        """When all that was written to the output will have been heard (on ``clock``)."""
        self._renderer = threading.Thread(target=self._render_loop, name="host-voice-render", daemon=True)
        self._player = threading.Thread(target=self._play_loop, name="host-voice-play", daemon=True)
        self._renderer.start()
        self._player.start()

    @property
    def engine(self) -> str:
        """"piper" or "pyttsx3"."""
        return getattr(self.synth, "engine", "pyttsx3")

    def say(self, text: str) -> None:
        self._enqueue(("say", text))

    def prepare(self, phrases) -> None:
        """Render the openings the host says most (`phrases`) while it is quiet, one at a
        time in the background, so that a reply starting with one sounds at once (an
        engine without a cache of pieces ignores this)."""
        prepare = getattr(self.synth, "prepare", None)
        if prepare is None:
            return

        def run() -> None:
            for phrase in phrases:
                self._idle.wait()
                prepare([phrase])

        threading.Thread(target=run, name="host-voice-prepare", daemon=True).start()

    def cue(self, name: str) -> None:
        """Play the earcon `name` (speech.earcons) in turn with the sentences."""
        self._enqueue(("cue", name))

    def adjust(self, rate_step: float = 0, volume_step: float = 0):
        """Slower/faster, softer/louder from the next sentence: see tts.Level."""
        return self.synth.adjust(rate_step=rate_step, volume_step=volume_step)

    def follow(self, clock: Callable[[], float], since: float | None, steady: bool = False) -> None:
        """Time the sentences by ``clock`` from now on (the microphone's timeline), whose
        zero is ``since`` on the clock the voice had until now (None: unknown). What was
        said before, while the models loaded, moves onto it, so that the echo canceller
        and the gate find it where the microphone heard it. ``steady``: the microphone's
        echo is cancelled with what the voice says it played, so the output holds
        STEADY_LATENCY from its next start, never running dry."""
        with self._lock:
            self._latency = STEADY_LATENCY if steady else "low"
            if since is not None:
                for record in self.history:
                    record.start -= since
                    record.end -= since
                if self._heard_until is not None:
                    self._heard_until -= since
            self.clock = clock

    def _enqueue(self, item: tuple[str, str]) -> None:
        with self._lock:
            self._pending += 1
            self._idle.clear()
            self._texts.put((self._gen, item, time.monotonic()))

    @property
    def speaking(self) -> bool:
        return not self._idle.is_set()

    def stop(self) -> None:
        with self._lock:
            self._gen += 1
            while True:
                try:
                    self._texts.get_nowait()
                    self._pending -= 1
                except queue.Empty:
                    break
            if self._pending <= 0:
                self._pending = 0
                self._idle.set()

    def wait(self, timeout: float | None = None) -> bool:
        return self._idle.wait(timeout)

    def close(self) -> None:
        self.stop()
        self._texts.put(None)
        self._renderer.join(CLOSE_WAIT)  # the renderer ends the player's queue: no write is under way
        self._player.join(CLOSE_WAIT)  # when the stream is closed (PortAudio may hang on a close mid-write)
        self.synth.close()
        if self._stream is not None:
            try:
                self._stream.close()
            except Exception:  # noqa: BLE001
                pass

    # ------------------------------------------------------------------ threads
    def _render_loop(self) -> None:
        while True:
            item = self._texts.get()
            if item is None:
                self._audio.put(None)
                return
            gen, (kind, what), said_at = item
            try:
                if kind == "cue":
                    self._audio.put((gen, kind, what, said_at, earcons.earcon(what, self.synth.sample_rate)))
                else:
                    for piece in tts.render(self.synth, what):
                        if gen != self._gen:
                            break
                        self._audio.put((gen, kind, what, said_at, piece))
            except Exception as e:  # noqa: BLE001 - never kill the host; say it in text
                print(f"host: {what}  [voice error: {e}]", file=sys.stderr, flush=True)
            self._audio.put((gen, "end", what, said_at, None))

    def _play_loop(self) -> None:
        record: HostPlayback | None = None
        record_gen = None
        failed = False
        while True:
            filling = record is not None and self._streaming and record_gen == self._gen and not failed
            waiting = record is None and self._streaming and self._steady
            try:
                item = self._audio.get_nowait() if filling or waiting else self._audio.get()
            except queue.Empty:  # mid-sentence, the next piece not rendered yet: silence, not a dry output
                try:
                    if filling:
                        self._play_piece(record, np.zeros(round(self.synth.sample_rate * FILL), np.float32), record_gen)
                    else:
                        self._keep_going()
                except Exception:  # noqa: BLE001 - the sound card failed: the next piece says so
                    if filling:
                        failed = True
                    else:
                        self._stream, self._streaming = None, False
                continue
            if item is None:
                return
            gen, kind, what, said_at, piece = item
            if kind == "end":
                record, failed = None, False
                if self._texts.empty() and self._audio.empty() and not self._steady:
                    self._rest_output()  # (steady, it goes on: see _keep_going)
                with self._lock:
                    self._pending -= 1
                    if self._pending <= 0:
                        self._pending = 0
                        self._idle.set()
                continue
            if gen != self._gen or failed:
                continue
            piece = piece * float(self.synth.volume) if kind == "say" else piece
            if record is None:
                start = self.clock()
                record = HostPlayback(what if kind == "say" else "", start, start, np.zeros(0, np.float32),
                                      latency=time.monotonic() - said_at, earcon=what if kind == "cue" else None)
                record_gen = gen
                self.history.append(record)
            try:
                self._play_piece(record, piece, gen)
            except Exception as e:  # noqa: BLE001 - the sound card failed: say it in text, go on
                failed = True
                if kind == "say":
                    print(f"host: {what}  [voice error: {e}]", file=sys.stderr, flush=True)
                self._stream, self._streaming = None, False

    def _play_piece(self, record: HostPlayback, piece: np.ndarray, gen: int) -> None:
        from ..audio import resample

        rate = self.synth.sample_rate
        duration = piece.size / rate
        at = self._heard_at()
        if not record.samples.size:
            record.start = record.end = at
        gap = round(max(0.0, at - record.end) * SAMPLE_RATE)
        # a piece rendered after the last one ran out is heard after a silence: kept as it
        # sounds, so that its samples stay where they are heard (the echo canceller's reference)
        first = record.samples.size + gap  # the piece's first sample in the record
        record.samples = np.concatenate([record.samples, np.zeros(gap, np.float32), resample(piece, rate, SAMPLE_RATE)])
        record.end = self._heard_until = at + duration
        if self.play:
            stream, out_rate = self._output()
            audio = resample(np.clip(piece, -1.0, 1.0), rate, out_rate).astype(np.float32)
            block = max(1, out_rate // 50)
            for i in range(0, audio.size, block):
                if gen != self._gen:
                    stream.abort()
                    stream.start()
                    self._cut(record)
                    return
                if i:  # (the first block was timed just now)
                    dry = self._ran_dry(record, first + round(i / out_rate * SAMPLE_RATE), at + i / out_rate)
                    first, at = first + round(dry * SAMPLE_RATE), at + dry
                stream.write(audio[i:i + block].reshape(-1, 1))
            return
        t0 = time.monotonic()
        while time.monotonic() - t0 < duration:
            if gen != self._gen:
                self._cut(record)
                return
            time.sleep(0.01)

    def _ran_dry(self, record: HostPlayback, index: int, due: float) -> float:
        """Before the block of ``record`` at ``index`` (its sample in the record) is
        written, due to be heard at ``due``: where the output ran dry meanwhile (this
        thread held up longer than the output holds: on a busy 2-core machine, 9 times
        in two seconds of a live game with four cancelled microphones), the block is
        heard from now, not when it was due, and so is the rest of the sentence: the
        record gets the silence the speakers played in its place. Left as it was due,
        every later sample was timed that much too early, for the rest of the game (the
        output goes on), and the echo canceller's reference was 0.25 s astray. Gives the
        seconds the block is later than due (0 when the output did not run dry)."""
        late = self.clock() - due
        if late <= 0:
            return 0.0
        record.samples = np.concatenate([record.samples[:index], np.zeros(round(late * SAMPLE_RATE), np.float32),
                                         record.samples[index:]])
        record.end += late
        self._heard_until += late
        return late

    @property
    def _steady(self) -> bool:
        """Whether the output is open with STEADY_LATENCY, as follow() asked."""
        return self._latency != "low" and self._stream_latency == self._latency

    def _keep_going(self) -> None:
        """Nothing to say, beside a cancelled microphone (steady): FILL seconds of silence,
        so that the output keeps one latency all game. Stopped between sentences and
        started again, each sentence came 1.5-8 ms off the last one's delay (a live game:
        the echo's main path, fitted sentence by sentence, anywhere in 1.6-8.1 ms), for
        the canceller to learn anew each time; going on, it drifts by about 0.1 ms a
        second (the output's clock against the microphone's)."""
        stream, rate = self._output()
        at = self._heard_at()
        stream.write(np.zeros((round(rate * FILL), 1), np.float32))
        self._heard_until = at + FILL

    def _heard_at(self) -> float:
        """When what is written to the output next will be heard: after all it holds (a
        sentence written while the one before still plays is heard when that one ends,
        up to the output's latency after it was written), or now where it holds nothing."""
        now = self.clock()
        return now if self._heard_until is None or self._heard_until < now else self._heard_until

    def _cut(self, record: HostPlayback) -> None:
        record.end = max(record.start, self.clock())  # cut before it sounded: none of it heard
        record.interrupted = True
        self._heard_until = None  # what the output held is dropped

    def _output(self):
        if self._stream is not None and not self._streaming and self._stream_latency != self._latency:
            self._stream.close()  # follow() asked for another latency: opened anew with it
            self._stream = None
        if self._stream is None:
            if self._open_output is not None:
                open_stream, rate = self._open_output, int(self._open_output.default_samplerate)
            else:
                import sounddevice as sd

                # play at the device's own rate (hardware devices may not offer 16 or 22 kHz)
                open_stream, rate = sd.OutputStream, int(sd.query_devices(self.device, "output")["default_samplerate"])
            self._stream = open_stream(samplerate=rate, channels=1, dtype="float32", device=self.device,
                                       latency=self._latency)
            self._stream_rate, self._stream_latency = rate, self._latency
        if not self._streaming:
            self._stream.start()
            self._streaming = True
        return self._stream, self._stream_rate

    def _rest_output(self) -> None:
        """Nothing is left to say: let the output play what it holds and stop. A stream
        left running between sentences runs dry, and ALSA's PulseAudio plugin recovers
        from that with a buffer about a second deeper (every later sentence heard that
        much later, and "underrun occurred" printed each time)."""
        if self._stream is not None and self._streaming:
            self._streaming = False
            try:
                self._stream.stop()
            except Exception:  # noqa: BLE001 - the next sentence opens the output again
                self._stream = None


__all__ = ["HostPlayback", "HostVoice", "TtsVoice"]
