"""The echo gate's two sides: the host alone never heard, and a player talking over the
host always heard; and the echo canceller in a living room.

    .venv/bin/python benchmarks/echo_gate.py --quick    # ~4 minutes (the room: 1 host voice a split)
    .venv/bin/python benchmarks/echo_gate.py            # ~10 minutes

Frame by frame through voice_host.speech.listening.echo.EchoGate (no recognizer):

- **Host alone** (where the speakers reach the microphone): three of the host's sentences
  said by five voices (festival's HTS slt, flite's rms, awb and kal16, espeak-ng), as an
  echo at four gains, delays and room noises within the gate's reach, and on a phone's
  late gate (echo up to 0.3 s late). Reported: the cases in which any frame of the host
  alone passed the gate, and all such frames. Target: none.
- **A player over the host's first words, no echo** (headphones, a null sink: the live
  benchmarks' PulseAudio): a player's introduction begins 0.05-1 s after the host's
  sentence (piper's joe) begins. Reported: the player's voiced frames the gate took for
  the host. Target: none.

The two pull against each other while the gate learns its echo gain: an echo that
begins a moment late looks like a player who begins a moment late (docs/LISTENING.md,
"Known limits").

**The echo canceller in a room** (voice_host.speech.listening.cancel, through the whole
listener: canceller, echo gate, voice activity, Moonshine): the host says an opening
sentence, then, a second after it, a question; both come back into the microphone
through a living room (a synthetic impulse response decaying 60 dB in 0.4 s, its direct
path DELAYS late: 20, 30 and 150 ms) as loud as the players, and 6 dB louder, over a
faint noise floor. Each way of listening (MODES: the echo gate alone, as before the
canceller; the canceller with the gate while it converges, always, or never) is
reported with:

- *echo left*: the echo's level after the canceller against before it (dB; the echo
  return loss enhancement, negated), over the host's first sentence, its first second
  (before the canceller has found the delay and learnt the room) and its question;
- *host starts*: how often the host's own sentences start an utterance (target 0);
- *word over host*: a player's word said half a second into the question, heard right
  (in an utterance's text), against the same word said in silence (target: within 5
  points); *barge-in*: the listener told the host to stop as the word began (the
  microphone then hears the host's echo stop, its reverberation dying away). A case in
  which the host's own echo had already stopped it (a barge-in before the word) is not
  a word over the host: it is counted apart (*host stopped before*).

Splits: TUNING (the canceller's settings were chosen on these) hosts espeak-ng and
flite's kal16, players toolkit.splits.WORD_VOICES["tuning"] saying TUNING_WORDS;
HELD-OUT hosts piper's joe (the host's own voice) and real recordings (CMU's librivox
clips, pocketsphinx-testdata), players the held-out word voices and real people
(pocketsphinx-testdata's cards: "ten of clubs", ...) saying HELD_OUT_WORDS.
"""

from __future__ import annotations

import numpy as np

from toolkit import report
from toolkit.echo_path import room_response
from toolkit.voices import say

from voice_host.speech.audio import SAMPLE_RATE
from voice_host.speech.listening.echo import EchoGate
from voice_host.speech.speaking.voice import HostPlayback

FRAME = 480  # 30 ms, as the listener's
LINES = ("Bob scores twelve points for jewelers. Alice, it is your turn, the timer is running.",
         "Board. Four points: C, R; three points: G, T.", "Cat, did you say objective or objection?")
VOICES = ("fest_slt", "rms", "awb", "kal16", "espeak:en")
ECHOES = ((0.5, 0.0, 0.0), (0.5, 0.04, 0.001), (1.0, 0.1, 0.003), (0.05, 0.02, 0.0005))
"""(gain, delay in s, room noise RMS) of the host's echo at a microphone by the speakers."""
LATE_ECHOES = ((0.5, 0.1, 0.001), (1.0, 0.3, 0.003), (0.05, 0.2, 0.0005))
"""The same on a phone's gate, which allows the echo 0.3 s later."""
INTRO = "I am Dee, and I am ready to play."
ASKED = "Dee, so I know your voice, please say: I am Dee, and I am ready to play."
PLAYERS = ("rms", "fest_slt", "kal16")
STARTS = (0.05, 0.1, 0.2, 0.4, 1.0)
"""When the player begins, in seconds after the host's sentence."""


def frames(gate: EchoGate, mic: np.ndarray) -> list[tuple[float, bool]]:
    """(time, gated) of each frame of `mic`, through `gate`."""
    return [(i / SAMPLE_RATE, gate.is_echo(i / SAMPLE_RATE, (i + FRAME) / SAMPLE_RATE, mic[i:i + FRAME]))
            for i in range(0, mic.size - FRAME + 1, FRAME)]


def host_alone(rng: np.random.Generator) -> list[dict]:
    rows = []
    for late, echoes in ((0.0, ECHOES), (0.3, LATE_ECHOES)):
        cases = leaked = passed = 0
        for voice in VOICES:
            for line in LINES:
                host = say(line, voice)
                start, end = 1.0, 1.0 + host.size / SAMPLE_RATE
                for gain, delay, noise in echoes:
                    mic = (rng.standard_normal(int((end + 1) * SAMPLE_RATE)) * noise).astype(np.float32)
                    at = int((start + delay) * SAMPLE_RATE)
                    mic[at:at + host.size] += gain * host
                    gate = EchoGate.later([HostPlayback(line, start, end, host)], late)
                    through = [t for t, gated in frames(gate, mic) if not gated and start <= t < end]
                    cases += 1
                    leaked += bool(through)
                    passed += len(through)
        rows.append({"gate": "phone (0.3 s late)" if late else "microphone", "cases": cases, "leaked": leaked,
                     "frames": passed})
    return rows


def player_over_the_start() -> list[dict]:
    host = say(ASKED, "joe")
    rows = []
    for voice in PLAYERS:
        intro = say(INTRO, voice)
        for after in STARTS:
            at = 1.0 + after
            mic = np.zeros(int((1.0 + host.size / SAMPLE_RATE + 1.0) * SAMPLE_RATE), np.float32)
            mic[int(at * SAMPLE_RATE):int(at * SAMPLE_RATE) + intro.size] += 0.3 * intro
            gate = EchoGate([HostPlayback(ASKED, 1.0, 1.0 + host.size / SAMPLE_RATE, host)])
            voiced = [gated for t, gated in frames(gate, mic)
                      if at <= t < at + intro.size / SAMPLE_RATE
                      and np.sqrt(np.mean(mic[int(t * SAMPLE_RATE):int(t * SAMPLE_RATE) + FRAME] ** 2)) > 0.01]
            rows.append({"voice": voice, "after": after, "voiced": len(voiced), "gated": sum(voiced)})
    return rows


# ----------------------------------------------------------------- the canceller in a room

QUESTION = "Did you say frequent or incredible?"
OPENING = LINES[0]
DELAYS = (0.02, 0.03, 0.15)
"""Seconds from the host's playback to its direct path at the microphone."""
LOUDER = (0.0, 6.0)
"""The echo's level over the players' (dB)."""
RT60 = 0.4
"""The room's reverberation time (s)."""
DRR = 0.0
"""The direct path's energy over the reflections' (dB): a microphone about as far from
the speakers as the room's critical distance (a laptop's own microphone, a few
centimetres from its speakers, hears them more directly)."""
LEVEL = 0.05
"""The players' speech level (RMS of their voiced 10 ms, about -26 dBFS)."""
NOISE = 0.0005
"""The room's noise floor (RMS, -66 dBFS)."""
MODES = {"gate alone (before)": {"echo_cancel": False},
         "canceller + gate converging": {"echo_cancel": True, "echo_gate": "converging"},
         "canceller + gate": {"echo_cancel": True, "echo_gate": "on"},
         "canceller alone": {"echo_cancel": True, "echo_gate": "off"},
         "... recognizer hears it cancelled": {"echo_cancel": True, "echo_gate": "converging",
                                               "recognize_from": "cancelled"}}
"""The ways of listening compared ([listening] echo_cancel, echo_gate and recognize_from; the
recognizer hears the microphone's own sound but in the last)."""
TUNING_WORDS = ("frequent", "incredible", "jewelers", "window", "challenge", "balances")
HELD_OUT_WORDS = ("sandwich", "orange", "quarter", "demonstrate", "yellow", "bicycle")
LIBRIVOX = "/usr/share/pocketsphinx/test/data/librivox/sense_and_sensibility_01_austen_64kb-{}.wav"
CARDS = "/usr/share/pocketsphinx/test/data/cards/{}.wav"
REAL_HOSTS = {"librivox 0870+0880": ("0870", "0880"), "librivox 0920+0930": ("0920", "0930")}
REAL_PLAYERS = {"001": "ten of clubs", "003": "seven of clubs", "002": "four queen of clubs"}
HOSTS = {"tuning": ("espeak:en", "kal16"), "held-out": ("joe", *REAL_HOSTS)}


def voiced_level(x: np.ndarray) -> float:
    """RMS of the 10 ms pieces of ``x`` within 30 dB of its loudest."""
    n = x.size // 160
    levels = np.sqrt(np.mean(x[: n * 160].reshape(n, 160) ** 2, axis=1))
    return float(np.sqrt(np.mean(levels[levels > levels.max() * 10 ** (-30 / 20)] ** 2)))


def at_level(x: np.ndarray, level: float) -> np.ndarray:
    return (x * (level / max(voiced_level(x), 1e-9))).astype(np.float32)


def _wav(path: str) -> np.ndarray:
    from voice_host.speech.audio import read_wav

    return read_wav(path)[:, 0]


def host_sentences(host: str) -> tuple[str, np.ndarray, str, np.ndarray]:
    """The host's opening and question: (text, audio) each, said by ``host`` (a voice, or
    real recordings)."""
    if host in REAL_HOSTS:
        a, b = REAL_HOSTS[host]
        return "", _wav(LIBRIVOX.format(a)), "", _wav(LIBRIVOX.format(b))
    return OPENING, say(OPENING, host), QUESTION, say(QUESTION, host)


def players(split: str) -> list[tuple[str, str, np.ndarray]]:
    """(voice, text, audio) of the players' words of ``split``."""
    from toolkit.splits import WORD_VOICES

    words = TUNING_WORDS if split == "tuning" else HELD_OUT_WORDS
    out = [(v, w, say(w.capitalize() + ".", v)) for i, w in enumerate(words)
           for v in [WORD_VOICES[split][i % len(WORD_VOICES[split])]]]
    if split == "held-out":
        out += [(f"cards {k}", text, _wav(CARDS.format(k))) for k, text in REAL_PLAYERS.items()]
    return out


class Scene:
    """The host's two sentences through the room, and when each was played."""

    def __init__(self, host: str, delay: float, louder: float, seed: int = 0, drr: float = DRR):
        from voice_host.speech.speaking.voice import HostPlayback

        t1, a1, t2, a2 = host_sentences(host)
        a1, a2 = (0.9 * a / np.abs(a).max() for a in (a1, a2))  # as played: loud, never clipped
        self.first = (1.0, 1.0 + a1.size / SAMPLE_RATE)
        self.second = (self.first[1] + 1.0, self.first[1] + 1.0 + a2.size / SAMPLE_RATE)
        self.playbacks = [HostPlayback(t1, *self.first, a1), HostPlayback(t2, *self.second, a2)]
        self.duration = self.second[1] + 1.5
        self.delay, self.rir = delay, room_response(RT60, drr, seed)
        self.echo = self.heard(self.playbacks, 0, int(self.duration * SAMPLE_RATE))
        self.gain = LEVEL * 10 ** (louder / 20) / voiced_level(self.echo)
        self.echo *= self.gain
        self.noise = (np.random.default_rng(seed + 1).standard_normal(self.echo.size) * NOISE).astype(np.float32)

    def heard(self, playbacks, i: int, n: int) -> np.ndarray:
        """The room's echo of ``playbacks`` over samples [i, i + n) of the microphone."""
        from scipy.signal import fftconvolve

        from voice_host.speech.listening.cancel import reference

        tail, late = self.rir.size - 1, int(round(self.delay * SAMPLE_RATE))
        played = reference(playbacks, (i - late - tail) / SAMPLE_RATE, n + tail)
        return fftconvolve(played, self.rir)[tail:tail + n].astype(np.float32)

    def mic(self, word: np.ndarray | None = None, at: float = 0.0, echo: bool = True) -> np.ndarray:
        """The microphone's sound when the host says both sentences whole."""
        return (self.near(word, at) + (self.echo if echo else 0)).astype(np.float32)

    def near(self, word: np.ndarray | None, at: float) -> np.ndarray:
        """The room's noise, and the player's ``word`` at ``at`` s."""
        x = self.noise.copy()
        if word is not None:
            i = int(round(at * SAMPLE_RATE))
            x[i:i + word.size] += at_level(word, LEVEL)[: x.size - i]
        return x

    def live(self, word: np.ndarray | None = None, at: float = 0.0) -> "RoomMic":
        """A microphone in the room as the listener reads it: the host's echo of what it
        has played by then, so that a host told to stop (barge-in) stops being heard."""
        return RoomMic(self, self.near(word, at))

    def word_at(self) -> float:
        return self.second[0] + 0.5


class RoomMic:
    """The microphone in a :class:`Scene`, read 0.1 s at a time: the near sound, and the
    room's echo of the host's playbacks (fresh copies: :attr:`voice` cuts them off when
    the listener stops the host, 20 ms after the audio read so far)."""

    channels, realtime, step = 1, False, 1600

    def __init__(self, scene: Scene, near: np.ndarray):
        from dataclasses import replace

        self.scene, self.near = scene, near
        self.playbacks = [replace(p) for p in scene.playbacks]
        self.now = 0.0
        self.voice = _Voice(self.playbacks, self)

    def __iter__(self):
        from voice_host.messages import AudioChunk

        for i in range(0, self.near.size, self.step):
            n = min(self.step, self.near.size - i)
            x = self.near[i:i + n] + self.scene.gain * self.scene.heard(self.playbacks, i, n)
            self.now = (i + n) / SAMPLE_RATE
            yield AudioChunk(i / SAMPLE_RATE, x.reshape(-1, 1))


class _Voice:
    """The host's voice as the listener sees it: its history, cut off at a barge-in."""

    def __init__(self, history, mic: RoomMic | None = None):
        self.history, self.mic, self.stopped = history, mic, False

    @property
    def speaking(self) -> bool:
        return not self.stopped and (self.mic is None or any(p.end > self.mic.now for p in self.history))

    def stop(self) -> None:
        self.stopped = True
        if self.mic is not None:
            for p in self.history:
                if p.end > self.mic.now:
                    p.end, p.interrupted = max(p.start, self.mic.now + 0.02), True


class Deaf:
    """A recognizer that hears nothing (the host-alone runs count starts, not words)."""

    name = "deaf"

    def feed(self, samples):
        return None

    def finish(self):
        from voice_host.messages import Transcript

        return Transcript("")

    def reset(self):
        pass

    def expect(self, phrases):
        pass

    def clone(self):
        return self


def listened(rec, source, mode: dict, events: list | None = None, voice=None) -> list:
    """What the listener in ``mode`` hears from ``source`` (an array, or a RoomMic with its
    voice), with ``voice`` (or the RoomMic's) as the host's."""
    from voice_host.speech.listening.config import TurnConfig
    from voice_host.speech.listening.sources import ArraySource
    from voice_host.speech.listening.turns import Listener

    config = TurnConfig(**{**listening_settings(), **mode})
    if isinstance(source, RoomMic):
        voice = source.voice
    else:
        source = ArraySource(source)
    ear = Listener(rec, [], voice=voice, config=config, on_event=(events.append if events is not None else None))
    return list(ear.utterances(source))


def listening_settings() -> dict:
    from toolkit import listening

    s = listening.settings()
    return {k: getattr(s, k) for k in type(s).__annotations__ if hasattr(s, k)}


def echo_left(scene: Scene) -> dict:
    """dB of the echo the canceller leaves: over the first sentence, its first second, the question."""
    from voice_host.speech.listening.cancel import EchoCanceller

    canceller = EchoCanceller(scene.playbacks)
    mic = scene.echo
    out = np.concatenate([canceller.process(i / SAMPLE_RATE, mic[i:i + 480])
                          for i in range(0, mic.size - 479, 480)])
    def left(a: float, b: float) -> float:
        i, j = int(a * SAMPLE_RATE), int(b * SAMPLE_RATE)
        return float(10 * np.log10(np.mean(out[i:j] ** 2) / np.mean(mic[i:j] ** 2)))
    return {"first": left(*scene.first), "first second": left(scene.first[0], scene.first[0] + 1.0),
            "question": left(*scene.second), "delay found": canceller.tracker.delay}


def heard_right(utterances: list, text: str, at: float) -> bool:
    from voice_host.speech.recognizing.recognizer import normalize_text

    want = normalize_text(text).split()
    return any(u.start <= at + 1.5 and u.end >= at and all(w in u.text.split() for w in want) for u in utterances)


def in_a_room(quick: bool, out) -> dict:
    """The canceller's figures (see the module's docstring), per split and mode."""
    from voice_host.speech.listening.turns import SpeechStarted
    from toolkit import listening

    rec = listening.recognizer()
    deaf = Deaf()
    rows, echo_rows = [], []
    for split in ("tuning", "held-out"):
        hosts = HOSTS[split][:1] + HOSTS[split][-1:] if quick else HOSTS[split]
        said = players(split)
        words = said[::2] if quick else said
        alone = {}  # each word in silence
        for k, (voice, text, audio) in enumerate(words):
            scene = Scene(hosts[0], DELAYS[0], 0.0)
            us = listened(rec, scene.mic(audio, scene.word_at(), echo=False), {"echo_cancel": False})
            alone[k] = heard_right(us, text, scene.word_at())
        base = 100.0 * sum(alone.values()) / len(alone)
        tally = {m: {"starts": 0, "sentences": 0, "right": 0, "words": 0, "barge": 0, "stopped": 0} for m in MODES}
        for h, host in enumerate(hosts):
            for delay in DELAYS:
                for louder in LOUDER:
                    scene = Scene(host, delay, louder, seed=h)
                    left = echo_left(scene)
                    echo_rows.append({"split": split, "host": host, "delay": delay, "louder": louder, **left})
                    for mode_name, mode in MODES.items():
                        t = tally[mode_name]
                        events: list = []
                        listened(deaf, scene.live(), mode, events)
                        t["starts"] += sum(isinstance(e, SpeechStarted) for e in events)
                        t["sentences"] += 2
                        pick = [(h * 7 + int(delay * 100) + int(louder)) % len(words)] if quick else range(len(words))
                        for k in pick:
                            voice, text, audio = words[k]
                            events = []
                            us = listened(rec, scene.live(audio, scene.word_at()), mode, events)
                            if any(isinstance(e, SpeechStarted) and e.barge_in and e.time < scene.word_at() - 0.1
                                   for e in events):
                                t["stopped"] += 1  # its own echo stopped the host: the word was said in silence
                                continue
                            t["right"] += heard_right(us, text, scene.word_at())
                            t["words"] += 1
                            t["barge"] += any(isinstance(e, SpeechStarted) and e.barge_in
                                              and abs(e.time - scene.word_at()) < 0.5 for e in events)
        for mode_name, t in tally.items():
            words_over = max(t["words"], 1)
            rows.append({"split": split, "mode": mode_name, "host starts": t["starts"], "sentences": t["sentences"],
                         "over host %": 100.0 * t["right"] / words_over, "alone %": base, "words": t["words"],
                         "barge-in %": 100.0 * t["barge"] / words_over, "stopped": t["stopped"]})
        out.say(f"  {split}: done")
    return {"rows": rows, "echo": echo_rows}


def main(argv=None) -> int:
    ap = report.arguments(__doc__, "the room with one host voice a split and a word a case (~4 minutes)")
    ap.add_argument("--no-room", action="store_true", help="the gate's frame counts only (seconds)")
    args = ap.parse_args(argv)
    out = report.Report("echo_gate", args.json)
    alone = host_alone(np.random.default_rng(0))
    out.say("The host alone, as an echo (target: no case leaks)")
    out.table(alone, [("gate", "gate", "<s"), ("cases", "cases", ">d"), ("leaked", "leaked", ">d"),
                      ("frames", "frames through", ">d")], "  ")
    over = player_over_the_start()
    out.say("\nA player over the host's first words, no echo (target: no frame gated)")
    out.table(over, [("voice", "voice", "<s"), ("after", "begins after (s)", ">.2f"), ("voiced", "voiced frames", ">d"),
                     ("gated", "gated", ">d")], "  ")
    out.figures = {"host_alone": alone, "player_over_the_start": over,
                   "leaked": sum(r["leaked"] for r in alone), "cases": sum(r["cases"] for r in alone),
                   "player_frames_gated": sum(r["gated"] for r in over), "player_frames": sum(r["voiced"] for r in over)}
    out.say(f"\nhost alone leaked in {out.figures['leaked']} of {out.figures['cases']} cases; "
            f"{out.figures['player_frames_gated']} of {out.figures['player_frames']} of the players' voiced frames gated")
    if not args.no_room:
        out.say(f"\nThe echo canceller in a room (RT60 {RT60} s; delays {', '.join(f'{d * 1000:.0f}' for d in DELAYS)} ms; "
                f"echo as loud as the players and {LOUDER[-1]:.0f} dB louder)")
        room = in_a_room(args.quick, out)
        out.say("\nEcho left by the canceller (dB against the echo without it: 0 without the canceller)")
        out.table(room["echo"], [("split", "split", "<s"), ("host", "host", "<s"), ("delay", "delay (s)", ">.2f"),
                                 ("louder", "louder (dB)", ">.0f"), ("first second", "first 1 s", ">.1f"),
                                 ("first", "first sentence", ">.1f"), ("question", "question", ">.1f"),
                                 ("delay found", "delay found (s)", ">.4f")], "  ")
        out.say("\nThe host's sentences starting an utterance (target 0), and a word said over the question "
                "against the same word in silence (target: within 5 points)")
        out.table(room["rows"], [("split", "split", "<s"), ("mode", "mode", "<s"), ("host starts", "host starts", ">d"),
                                 ("sentences", "of sentences", ">d"), ("over host %", "word over host %", ">.1f"),
                                 ("alone %", "alone %", ">.1f"), ("words", "words", ">d"),
                                 ("barge-in %", "barge-in %", ">.1f"), ("stopped", "host stopped before", ">d")], "  ")
        out.figures["room"] = room
    return out.finish()


if __name__ == "__main__":
    raise SystemExit(main())
