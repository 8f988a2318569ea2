"""How long the host takes to answer: end of speech -> the first sound, and the first word of its answer.

    .venv/bin/python benchmarks/latency.py             # 24 words a condition, idle then loaded (~15 minutes)
    .venv/bin/python benchmarks/latency.py --quick     # 4 words a condition (about 6 minutes)
    .venv/bin/python benchmarks/latency.py --conditions idle --verbose   # what the host says, as it says it
    .venv/bin/python benchmarks/latency.py --words 8 --enrolled --paths microphone,phones   # one microphone, then phones
    .venv/bin/python benchmarks/latency.py --quick --set listening.guess_after=0.1   # another setting

Held-out speech (the voices no tuning set uses: piper's neural joe,
festival's HTS slt and flite's slt; no word of the tuning game of benchmarks/table.py)
is played into the LIVE host as `voice-host play` builds it (`voice_host.assembly.build`, run by
`voice_host.by_voice.play_live`: the Listener with its VAD and
echo gate, the default recognizer (Moonshine, told what may be said), voice prints, the
Hearing, the Session) in real time: a fake microphone hands out 20 ms blocks, each when
its last sample has been "spoken" (it sleeps to the block's due time), so the endpoint
wait is real. The host speaks through a real TtsVoice with the default synthesizer
(Piper) and the host's Speaker (earcons as configured) into a fake sound card
(:class:`FakeSoundCard`, given to ``TtsVoice(output=...)``), which plays at real speed and
notes when the first non-silent sample of each write would be heard: the write's time,
plus what is queued ahead of it (the reply's own leading silence included), plus the
stream's latency (PortAudio's ALSA defaults: 8.7 ms for ``latency="low"``, 34.8 ms for
"high", its default; a number as given).

A game of Prolix Classic for Dee (joe), Fay (festival slt, up 300 cents, 10% faster) and
Kim (flite slt), as the live host runs one with one microphone: the host asks each
player to say who they are and each answers "I am NAME, and I am ready to play."
(intro); then the player whose turn it is says a word, alone (one-word) or after their
name ("Kim, vocabulary": name-word), chosen on the board the game shows then (a known
word among the best); every second word is followed by a question from another player
("Whose turn is it?", "What's the score?": question); once a game, after the fourth
word, another player says "Take that back." (command), the word's player answers the
host's "Say yes or no." with "Yes." (answer) and says the word again. Each player speaks
when the host has finished its reply and been quiet for 0.6 s (or, when its words were
never heard and answered, after 20 s). The first utterance of a run is reported on its
own (cold: the models' first run), not in the figures.

For every utterance (wall times, time.perf_counter): end of speech (the last voiced
sample of the clip, known from the script) -> the hearing gets the utterance
(Hearing.on_hear); of that, RECOGNIZE is the recognition whose transcript it is (the
last finish() or guess before it: a guess made at a short pause and kept counts, one
thrown away does not) and WHO the voice print's d-vector computed after it on the
listener's thread, the rest is the ENDPOINT wait (silence waited for, before or after
the recognition) -> the session says the answer's first sentence (GAME: the hearing,
the game, a voice print computed there, an earcon before the sentence) -> the voice
hands its first audio to the sound card (RENDER: Piper's first piece) -> its first
non-silent sample is heard (OUTPUT: leading silence, the card's buffer and latency).
The parts add up to the time to the ANSWER's first word. Per kind and condition: p50
and p95 of the FIRST SOUND the table hears (the answer, or the host's heard tick when
that comes first: [listening] acknowledge_after), p50, p95 and max of the ANSWER's
first word and the mean of each of its parts; how many replies were the typed game's
(its first sentence, or anywhere in it: after what the host settles first, its own
question about the word before); and the synthesizer's own time to its first sample
for every sentence it renders (cached ones included, as the host runs).

Paths (``--paths``): microphone (one, the laptop's: the default) and phones (each
player's own phone, as ``voice-host play --phones`` hears them: the players' page served
over HTTPS here, and the phones in a process of their own, a websocket each, joined
with the code, sending 48 kHz PCM blocks as the page's script does; nobody introduces
themselves, the phone says who speaks). Each path reports the same figures, and the
words on their player's sheet at the end (and on another player's).

Conditions: idle, and loaded: a busy process on one core beside it (``--hogs N``); and,
asked for with ``--conditions`` (``rooms``: all), the real rooms of benchmarks/toolkit/
rooms.py, played idle: the room's sound (the kitchen, or four real held-out talkers at
once) looped into the microphone under everything, the lines reverberant for "reverb"
and "far mic".
The last two lines: ``answer p95: one-word N ms, other N ms, loaded N ms`` (the answer's
first word: idle one-word plays; idle everything else; loaded, every kind), then the
same for the first sound (``latency p95: ...``). Targets (idle 2-core machine): the
answer p95 <= 600 ms one-word and other, <= 800 ms loaded; the first sound p95 <= 400
ms; Piper's first sample p95 <= 120 ms.
"""

from __future__ import annotations

import dataclasses
import faulthandler
import select
import statistics
import subprocess
import sys
import threading
import time
from dataclasses import dataclass, field
from typing import Callable, NamedTuple

import numpy as np

from toolkit import report, rooms
from toolkit.splits import LIVE_PLAYERS
from toolkit.voices import speech_bounds, synth

from voice_host.host.output import Speaker
from voice_host.speech.audio import SAMPLE_RATE
from voice_host.speech.listening.sources import AudioChunk

perf = time.perf_counter

PLAYERS = LIVE_PLAYERS
"""The held-out voices (no tuning voice of benchmarks/table.py), in seating order;
festival's slt shifted as table.py's held-out Fay is, so that two voices of one speaker
(SLT) do not sit at one table: voice prints cannot tell them apart."""
GAME = "prolix-classic"
SEED = 1
ROUNDS = {"prolix": {"rounds_3_players": 20, "rounds_4_5_players": 20}}  # every word said is a play
KINDS = ("one-word", "name-word", "question", "answer", "intro", "command")
QUESTIONS = ("Whose turn is it?", "What's the score?")
INTRO = "I am {name}, and I am ready to play."
UNDO = "Take that back."
KNOWN_ZIPF = 4.0
"""Words chosen are this common (wordfreq Zipf), 4 letters or more."""
BEST = 10
"""A word is chosen among the best-scoring this many known words on the board."""
BLOCK = 0.02
"""The fake microphone's block (s)."""
GAP = 0.6
"""A player speaks once the host has been quiet this long after its reply (s)."""
REPLY_WITHIN = 20.0
"""A player whose words the host has not heard and answered this long after they were
said goes on (s)."""
LATENCY = {"low": 0.0087, "high": 0.0348}
"""The fake sound card's output latency (s) per PortAudio latency setting (its ALSA
defaults); PortAudio's default is "high"."""
SILENT = 1e-3
"""A sample at or below this (-60 dBFS) is silence."""


# ---------------------------------------------------------------------- the script
@dataclass
class Line:
    """One utterance of the script."""

    kind: str
    """One of KINDS."""
    player: str
    text: str
    expect: str
    """The first sentence the host should answer with (from the same game played as typed)."""
    audio: np.ndarray | None = field(default=None, repr=False)
    voiced_end: float = 0.0
    """Seconds from the clip's start to its last voiced sample."""


def tuning_words() -> set[str]:
    """The words of benchmarks/table.py's tuning game (never said here)."""
    import table

    return {t.word for t in table.plans(20, every=0)["tuning"]}


def game_config(extra: dict | None = None) -> dict:
    from voice_host import config

    return config.load(overrides={**ROUNDS, **(extra or {})})


def plan(words: int, *, questions_every: int = 2, undo_after: int | None = 3, seed: int = 21,
         intros: bool = True, bare: bool = True, avoid: set[str] = frozenset(),
         cfg: dict | None = None) -> list[Line]:
    """The script: introductions (when `intros`), then `words` words (one-word and
    name-word in turn; with `bare` False every word after its player's name) with a question after every `questions_every`-th (0: none) and an
    undo, yes and the word again after word `undo_after` (None: none). Each line's
    expected reply comes from the same game played as typed lines."""
    from voice_host.host.records import Said
    from voice_host.host.session import Session, new_header
    from voice_host.words import Words

    w = Words.load()
    cfg = cfg or game_config()
    s = Session(new_header(GAME, list(PLAYERS), SEED, cfg), w, lambda _: None)
    lines = [Line("intro", p, INTRO.format(name=p), s.announcer.enrolled(p)) for p in PLAYERS] if intros else []
    s.begin(0.0, quiet=True)
    zipf = np.asarray(w.data.zipf)
    known = np.array([z >= KNOWN_ZIPF and len(x) >= 4 and x.isalpha() and x not in avoid
                      for x, z in zip(w.data.words, zipf)])
    rng = np.random.default_rng(seed)
    t = 1.0

    def typed(player: str, text: str) -> str:
        nonlocal t
        said = s.play(Said(t, player, text), quiet=True) + s.tick(t + 1.5, quiet=True)
        if not said:
            raise RuntimeError(f"the typed game says nothing to {player}: {text!r}")
        t += 3.0
        return said[0]

    asked = 0
    for i in range(words):
        e = s.game.expectation()
        values = w.values(e.tiles, e.used)
        ok = np.flatnonzero(known & (values > 0))
        word = w.data.words[int(rng.choice(ok[np.argsort(-values[ok], kind="stable")][:BEST]))]
        player = s.game.state.active
        kind = "one-word" if bare and i % 2 == 0 else "name-word"
        text = word if kind == "one-word" else f"{player}, {word}"
        lines.append(Line(kind, player, text, typed(player, word)))
        others = [p for p in PLAYERS if p != player]
        if questions_every and i % questions_every == questions_every - 1:
            who, question = others[asked % 2], QUESTIONS[asked % 2]
            asked += 1
            lines.append(Line("question", who, question, typed(who, question)))
        if undo_after is not None and i == undo_after:
            lines.append(Line("command", others[0], UNDO, typed(others[0], UNDO)))
            lines.append(Line("answer", player, "Yes.", typed(player, "yes")))
            lines.append(Line("one-word", player, word, typed(player, word)))
    return lines


def voice_lines(lines: list[Line]) -> list[Line]:
    """Each line's audio, in its player's voice (benchmarks/toolkit/synth: cached on disk)."""
    for line in lines:
        line.audio = synth(line.text, PLAYERS[line.player])
        line.voiced_end = speech_bounds(line.audio)[1]
    return lines


# ---------------------------------------------------------------------- what happened when
class Said(NamedTuple):
    t: float
    text: str | None
    earcon: str | None


class Write(NamedTuple):
    t: float
    """When the samples were handed to the sound card."""
    heard: float | None
    """When their first non-silent sample is heard (None: all silence)."""


class Span(NamedTuple):
    start: float
    end: float
    what: str = ""


class Placed(NamedTuple):
    line: int
    start: float
    """Wall time of the clip's first sample."""
    end: float
    """Wall time of its last voiced sample: the end of speech."""


@dataclass
class Log:
    """Wall times (perf_counter) of what happened, appended from every thread."""

    finishes: list[Span] = field(default_factory=list)
    """Each recognition (RECOGNITIONS: finish(), a guess at a pause): asked for .. its transcript."""
    heard: list[Span] = field(default_factory=list)
    """Each utterance the hearing got (Hearing.on_hear), on the main loop."""
    identifies: list[Span] = field(default_factory=list)
    said: list[Said] = field(default_factory=list)
    writes: list[Write] = field(default_factory=list)
    sentences: list[Span] = field(default_factory=list)
    """The synthesizer: a sentence's rendering started .. its first piece."""
    placed: list[Placed] = field(default_factory=list)


RECOGNITIONS = ("finish", "transcribe")
"""The recognizer's calls that give a transcript (finish at the end; transcribe, the
listener's guess at a short pause, made in the background): each is timed."""


class TimedRecognizer:
    """The recognizer, its RECOGNITIONS timed (everything else passes through; a method
    it lacks stays missing, so ``hasattr`` tells the listener the truth)."""

    def __init__(self, inner, log: Log):
        self._inner, self._log = inner, log

    def __getattr__(self, name):
        attr = getattr(self._inner, name)
        if name not in RECOGNITIONS or not callable(attr):
            return attr

        def timed(*args, **kwargs):
            t0 = perf()
            transcript = attr(*args, **kwargs)
            self._log.finishes.append(Span(t0, perf(), f"{name}: {getattr(transcript, 'text', '')}"))
            return transcript

        return timed

    def clone(self):
        return TimedRecognizer(self._inner.clone(), self._log)


class TimedSynth:
    """The synthesizer, the time to each sentence's first piece noted."""

    def __init__(self, inner, log: Log):
        self._inner, self._log = inner, log

    def __getattr__(self, name):
        return getattr(self._inner, name)

    def pieces(self, text: str):
        t0 = perf()
        first = True
        for piece in self._inner.pieces(text):
            if first:
                self._log.sentences.append(Span(t0, perf(), text))
                first = False
            yield piece


def timed_prints(log: Log):
    """Voice prints whose d-vectors are timed where they are computed (on the listener's
    thread, or in the game), not where a remembered one is looked up."""
    from voice_host.speech.listening.voiceprint import SpeakerEmbedder, VoicePrints

    class TimedEmbedder(SpeakerEmbedder):
        def _embed(self, audio):
            t0 = perf()
            try:
                return super()._embed(audio)
            finally:
                log.identifies.append(Span(t0, perf()))

    return VoicePrints(TimedEmbedder())


class BenchSpeaker(Speaker):
    """The host's Speaker (voice, earcons) with the moment of each sentence and earcon
    noted; it prints only with `echo`."""

    def __init__(self, cfg: dict, voice, log: Log, echo: bool = False):
        super().__init__(True, cfg)
        self.voice, self.log, self.echo = voice, log, echo

    def __call__(self, line: str) -> None:
        self.log.said.append(Said(perf(), line, None))
        if self.echo:
            print(f"      host: {line}", flush=True)
        self.voice.say(line)

    def cue(self, name: str, t: float | None = None) -> None:
        if self.settings.earcons:
            self.log.said.append(Said(perf(), None, name))
        super().cue(name, t)


class FakeSoundCard:
    """A sound output for ``TtsVoice(output=...)``: opened like sounddevice.OutputStream,
    it plays what it is given at real speed (`speed` times faster, for tests): a write
    waits while the buffer holds more than the stream's latency, as a blocking PortAudio
    write does. Every write is noted (Log.writes) with when its first non-silent sample
    is heard."""

    default_samplerate = 48000

    def __init__(self, log: Log, speed: float = 1.0):
        self.log, self.speed = log, speed
        self.until = 0.0
        """When everything written so far has been heard (perf_counter)."""
        self.opened: list[dict] = []
        """The keywords each stream was opened with."""

    def __call__(self, **options) -> "FakeStream":
        self.opened.append(options)
        return FakeStream(self, options)

    def busy(self) -> bool:
        return perf() < self.until


class FakeStream:
    def __init__(self, card: FakeSoundCard, options: dict):
        self.card = card
        self.rate = float(options["samplerate"]) * card.speed
        latency = options.get("latency", "high")
        self.latency = LATENCY[latency] if isinstance(latency, str) else float(latency)

    def start(self) -> None:
        pass

    def abort(self) -> None:
        self.card.until = min(self.card.until, perf())  # what was buffered is dropped

    def stop(self) -> None:
        pass

    def close(self) -> None:
        pass

    def write(self, frames: np.ndarray) -> None:
        x = np.asarray(frames, dtype=np.float32).reshape(-1)
        now = perf()
        card = self.card
        begin = max(now + self.latency, card.until)
        loud = np.flatnonzero(np.abs(x) > SILENT)
        card.log.writes.append(Write(now, begin + loud[0] / self.rate if loud.size else None))
        card.until = begin + x.size / self.rate
        if begin - now > self.latency:  # the buffer is full: wait for room
            time.sleep(begin - now - self.latency)


class FakeMic:
    """A microphone (an AudioSource with a clock) that says the script's lines in real
    time, 20 ms blocks, each handed out when its last sample is due; a line starts when
    the host has answered the one before and been quiet `gap` seconds (or after
    `reply_within` seconds of silence), the first once the host has spoken."""

    realtime = True
    channels = 1

    def __init__(self, lines: list[Line], log: Log, host_busy: Callable[[], bool],
                 gap: float = GAP, reply_within: float = REPLY_WITHIN, background: np.ndarray | None = None):
        self.lines, self.log, self.host_busy = lines, log, host_busy
        self.background = background
        """The room's own sound, looped under everything (None: silence between the lines)."""
        self.gap, self.reply_within = gap, reply_within
        self.t0: float | None = None
        self.owner: str | None = None
        """Whose line the block just handed out holds (None: nobody's)."""
        self._closed = threading.Event()

    def clock(self) -> float:
        return 0.0 if self.t0 is None else perf() - self.t0

    def close(self) -> None:
        self._closed.set()

    def _may_speak(self, now: float, quiet_since: float, after: float) -> bool:
        if self.host_busy() or now - quiet_since < self.gap:
            return False
        answered = any(s.t > after and s.text is not None for s in self.log.said[-50:]) and (  # a sentence, not a tick
            after == 0.0 or any(h.start > after for h in self.log.heard[-5:]))
        return answered or now - after > self.reply_within

    def __iter__(self):
        n = int(round(BLOCK * SAMPLE_RATE))
        self.t0 = t0 = perf()
        quiet_since, after = t0, 0.0  # a line waits for the host to have spoken after `after`
        clip, pos, index, k = None, 0, 0, 0
        while not self._closed.is_set():
            now = perf()
            if self.host_busy():
                quiet_since = now
            if clip is None and t0 + k * BLOCK >= now - BLOCK:  # a line starts now, never in the past
                # (while the listener is behind, the blocks due meanwhile go out silent first)
                if index == len(self.lines) and self._may_speak(now, quiet_since, after):
                    return  # the last line answered: the microphone closes
                if index < len(self.lines) and self._may_speak(now, quiet_since, after):
                    line = self.lines[index]
                    clip, pos = line.audio, 0
                    start = t0 + k * BLOCK
                    after = start + line.voiced_end
                    self.log.placed.append(Placed(index, start, after))
                    index += 1
            block = np.zeros(n, np.float32)
            self.owner = None
            if clip is not None:
                self.owner = self.lines[index - 1].player
                part = clip[pos:pos + n]
                block[:part.size] = part
                pos += n
                if pos >= clip.size:
                    clip = None
            if self.background is not None:
                block += self.background[(k * n + np.arange(n)) % self.background.size]
            due = t0 + (k + 1) * BLOCK
            time.sleep(max(0.0, due - perf()))
            yield AudioChunk(k * BLOCK, block[:, None])
            k += 1


# ---------------------------------------------------------------------- one run
@dataclass
class Run:
    """One condition's game: the script, the log, the result."""

    condition: str
    lines: list[Line]
    log: Log
    opened: list[dict]
    engine: str
    wall: float
    sheets: dict[str, list[str]] = field(default_factory=dict)
    """The words on each player's sheet at the end."""

    def on_sheets(self) -> tuple[int, int, int]:
        """Of the words said (each once), how many are on their player's sheet, how many on
        another player's, and how many were said."""
        said = {(x.player, x.text.split(", ")[-1]) for x in self.lines if x.kind in ("one-word", "name-word")}
        own = sum(word in self.sheets.get(p, ()) for p, word in said)
        other = sum(any(word in w for q, w in self.sheets.items() if q != p) for p, word in said)
        return own, other, len(said)


def run(lines: list[Line], *, condition: str = "idle", hogs: int = 0, cfg: dict | None = None,
        engine: str | None = None, speed: float = 1.0, gap: float = GAP, enrolled: bool = False,
        echo: bool = False, background: np.ndarray | None = None, phones: bool = False) -> Run:
    """Play `lines` (voiced) into the live loop, with `hogs` busy processes beside it
    (and the room's `background` sound under everything).
    `phones`: each player's lines reach the host through their own phone (PhoneLink):
    a websocket of 48 kHz PCM to the players' page, one channel each.
    `enrolled`: the players' voice prints are taken from their introductions before the
    game (as from a --voices file), so the live opening asks nobody."""
    from voice_host.assembly import build
    from voice_host.host.hearing import HearingSettings
    from voice_host.host.session import Session, new_header
    from voice_host.speech.recognizing.engines import make_recognizer
    from voice_host.speech.speaking import tts
    from voice_host.speech.speaking.voice import TtsVoice
    from voice_host.words import Words

    cfg = cfg or game_config()
    log = Log()
    words = Words.load()
    settings = HearingSettings.from_config(cfg)
    engine = engine or settings.engine
    synthesizer = TimedSynth(tts.make_synthesizer(tts.VoiceSettings.from_config(cfg)), log)
    card = FakeSoundCard(log, speed)
    voice = TtsVoice(synthesizer=synthesizer, play=True, output=card)
    speaker = BenchSpeaker(cfg, voice, log, echo)
    session = Session(new_header(GAME, list(PLAYERS), SEED, cfg), words, speaker)
    speaker.attach(session)  # the voice prepares its openings while the recognizer loads, as the host's does
    recognizer = TimedRecognizer(make_recognizer(engine), log)
    prints = timed_prints(log)
    if enrolled:
        for p, v in PLAYERS.items():
            prints.enroll(p, synth(INTRO.format(name=p), v))
    mic = FakeMic(lines, log, lambda: voice.speaking or card.busy(), gap, background=background)
    link = PhoneLink(mic) if phones else None
    hogging = [subprocess.Popen([sys.executable, "-c", "while True: pass"]) for _ in range(hogs)]
    t0 = perf()
    try:
        host = build(session, recognizer, mic if link is None else link.source, cfg=cfg, voice=voice, speaker=speaker,
                     voiceprints=prints, on_hear=lambda u: log.heard.append(Span(perf(), perf(), u.text)),
                     channel_players=None if link is None else link.source.channel_players,
                     notices=None if link is None else lambda: link.hub.notices(session.announcer))
        if link is not None:
            link.start()  # the phones join and the host says so; the players speak once it is quiet
            for line in link.hub.notices(session.announcer):
                session.say(line)
            link.play()
        host.play_live()  # the host as voice-host play builds it (voice_host.assembly)
    finally:
        for p in hogging:
            p.kill()
            p.wait()
        if link is not None:
            link.close()
        speaker.close(wait=5.0 / speed)
    sheets = {p["name"]: [w["word"] for w in p["words"] if w.get("counts", True)] for p in session.result()["players"]}
    return Run(condition, lines, log, card.opened, recognizer.name, perf() - t0, sheets)


JOIN_WAIT = 40
"""Seconds the phones' process has to join the game (each phone's handshake may take 30)."""
JOIN_TRIES = 3
"""Phones' processes started before the run gives up: in two of three full test runs on
this machine one process did not join (its handshakes never answered, though a
second process joins in well under a second), and the reason is not known yet."""
PHONES_PROCESS = """
import json, ssl, sys
import numpy as np, soxr
from websockets.sync.client import connect
url, code, players = sys.argv[1], sys.argv[2], sys.argv[3:]
context = ssl.create_default_context()
context.check_hostname, context.verify_mode = False, ssl.CERT_NONE  # the host's own certificate
sockets = []
for player in players:
    ws = connect(url, ssl=context, max_queue=None, legacy=True, open_timeout=30)
    ws.send(json.dumps({"code": code, "name": player, "rate": 48000}))
    assert json.loads(ws.recv(timeout=30))["joined"] == player
    sockets.append(ws)
print("joined", flush=True)
up = soxr.ResampleStream(16000, 48000, 1, dtype="float32")
while True:
    head = sys.stdin.buffer.read(3)
    if len(head) < 3:
        break
    owner, size = head[0], int.from_bytes(head[1:], "little")
    block = np.frombuffer(sys.stdin.buffer.read(size), "<f4")
    pcm = (np.clip(up.resample_chunk(block), -1, 1) * 32767).astype("<i2").tobytes()
    if pcm:  # the resampler is still filling at first
        for i, ws in enumerate(sockets):
            ws.send(pcm if i == owner else bytes(len(pcm)))
for ws in sockets:
    ws.close()
"""
"""The players' phones, in a process of their own (as phones are devices of their own):
one websocket per player, joined with the code as the page's script does, each block
from stdin resampled to 48 kHz and sent as 16-bit PCM to its owner's phone, silence to
the others."""


class PhoneLink:
    """The players' phones, played by the fake microphone: the players' page served over
    HTTPS on this machine and the phones in another process (PHONES_PROCESS), handed
    each microphone block with the player whose line it holds (phones listen all the
    time: the others send silence). The host listens to ``source``, a PhoneSource."""

    def __init__(self, mic: FakeMic) -> None:
        from voice_host.assembly import serve_phones
        from voice_host.phones import Phones
        from voice_host.phones.source import PhoneSource

        self.mic = mic
        self.hub = Phones(list(PLAYERS))
        self.display = serve_phones(self.hub, "127.0.0.1", 0)
        self.source = PhoneSource(self.hub)
        self.thread = threading.Thread(target=self._send, name="phones", daemon=True)
        self.phones: subprocess.Popen | None = None

    def start(self) -> None:
        for _ in range(JOIN_TRIES):
            self.phones = subprocess.Popen([sys.executable, "-c", PHONES_PROCESS,
                                            self.display.url.replace("https", "wss") + "phone", self.hub.code, *PLAYERS],
                                           stdin=subprocess.PIPE, stdout=subprocess.PIPE)
            # a websocket handshake that times out can leave websockets' client waiting on
            # its reader thread for ever: the phones get JOIN_WAIT seconds, then go
            ready, _, _ = select.select([self.phones.stdout], [], [], JOIN_WAIT)
            if ready and self.phones.stdout.readline().strip() == b"joined":
                return
            self.phones.kill()
            self.phones.wait()
            for _ in range(50):  # the page lets the killed phones go before others take their names
                if len(self.hub.missing()) == len(PLAYERS):
                    break
                time.sleep(0.1)
            print(f"latency: the phones could not join in {JOIN_WAIT} s; this process's threads:", file=sys.stderr)
            faulthandler.dump_traceback(sys.stderr, all_threads=True)
        raise RuntimeError(f"the phones could not join in {JOIN_TRIES} tries")

    def play(self) -> None:
        """The players' lines, from now on."""
        self.source.start()
        self.thread.start()

    def _send(self) -> None:
        owners = {p: i for i, p in enumerate(PLAYERS)}
        try:
            for chunk in self.mic:
                block = chunk.samples[:, 0].astype("<f4").tobytes()
                self.phones.stdin.write(bytes([owners.get(self.mic.owner, 255)]) + len(block).to_bytes(2, "little")
                                        + block)
                self.phones.stdin.flush()
        finally:
            self.source.close()  # the script is over: the host stops listening

    def close(self) -> None:
        self.mic.close()
        if self.thread.ident is not None:  # started (not when the phones could not join)
            self.thread.join(10)
        if self.phones is not None:
            self.phones.stdin.close()
            self.phones.wait(10)
        self.display.close()


def in_room(lines: list[Line], condition: str, room: rooms.Room) -> tuple[list[Line], np.ndarray | None]:
    """The lines as the microphone hears them in a room condition (toolkit.rooms), and the
    room's own sound to loop under everything, set against the players' speech level."""
    from voice_host.speech.audio import SAMPLE_RATE as RATE

    speech = rooms.level(np.concatenate([line.audio for line in lines]))

    def below(track: np.ndarray, snr: float) -> np.ndarray:
        return (track * speech / (np.sqrt(np.mean(track ** 2)) + 1e-12) / 10 ** (snr / 20)).astype(np.float32)

    if condition in ("reverb", "far mic"):
        quieter = 12.0 if condition == "far mic" else 0.0
        lines = [dataclasses.replace(x, audio=room.reverberant(x.audio, x.audio, quieter)) for x in lines]
    if condition == "kitchen 10 dB":
        return lines, below(room.kitchen, 10)
    if condition.startswith("babble "):
        return lines, below(room.talk(60 * RATE, seed=1), float(condition.split()[1]))
    return lines, below(room.kitchen, 20) if condition == "far mic" else None


# ---------------------------------------------------------------------- measuring
PARTS = ("endpoint", "recognize", "who", "game", "render", "output")


@dataclass
class Measure:
    """One utterance, end of speech to the first word of the host's answer (seconds)."""

    line: Line
    segments: int
    """How many utterances the hearing got of it (1: as said)."""
    heard: str | None
    """What the recognizer heard."""
    reply: list[str]
    """What the host said (sentences; earcons as '<name>') before the next line."""
    parts: dict[str, float] | None
    """PARTS of the time to the answer's first word (None: no spoken answer)."""
    span: float | None = None
    """End of speech -> the answer's first word heard, measured whole (s): the parts add
    up to it."""
    first: float | None = None
    """End of speech -> the first sound of the host at all (s): the heard tick, when it
    comes before the answer, else the answer's."""
    cold: bool = False
    """The run's first utterance (the models' first run): left out of the figures."""

    @property
    def total(self) -> float | None:
        """The answer's first word (the sum of its parts)."""
        return None if self.parts is None else sum(self.parts.values())

    @property
    def sound(self) -> float | None:
        """The first sound (a tick or the answer): what the table hears first."""
        if self.total is None:
            return None
        return min(self.total, self.first) if self.first is not None else self.total

    @property
    def expected(self) -> bool:
        """The reply's first sentence is the typed game's."""
        first = next((r for r in self.reply if not r.startswith("<")), None)
        return first == self.line.expect

    @property
    def answered(self) -> bool:
        """The typed game's sentence is in the reply (after what the host settled first: its
        own question about the word before, "I'll take straight.")."""
        return self.line.expect in self.reply


def measure(r: Run) -> list[Measure]:
    log = r.log
    out = []
    for j, p in enumerate(log.placed):
        stop = log.placed[j + 1].start if j + 1 < len(log.placed) else float("inf")
        heard = [h for h in log.heard if p.start < h.start < stop]
        said = [s for s in log.said if p.end < s.t < stop]
        reply = [s.text if s.text is not None else f"<{s.earcon}>" for s in said]
        line = r.lines[p.line]
        # the recognition whose transcript the hearing got (a speculative one thrown away is not it)
        decided = None
        if heard:
            decided = next((f for f in reversed(log.finishes) if p.start < f.start and f.end <= heard[0].start), None)
        parts = span = None
        if decided is not None:
            # the answer: its first sentence (a tick while it waited, an earcon before it, is not it)
            sentence = next((s for s in said if s.t >= heard[0].start and s.text is not None), None)
            sounds = [w for w in log.writes if sentence and w.t >= sentence.t and w.heard is not None]
            if sounds:
                t_heard, t_said = heard[0].start, sentence.t
                rendered = next(w.t for w in log.writes if w.t >= t_said)
                prints = [i for i in log.identifies if i.start >= decided.end and i.end <= t_said]
                who = sum(i.end - i.start for i in prints)
                listening = sum(i.end - i.start for i in prints if i.end <= t_heard)  # on the listener's thread
                recognize = decided.end - decided.start
                parts = {"endpoint": t_heard - p.end - recognize - listening, "recognize": recognize, "who": who,
                         "game": t_said - t_heard - (who - listening), "render": rendered - t_said,
                         "output": float(sounds[0].heard - rendered)}
                span = float(sounds[0].heard - p.end)
        first = next((float(w.heard - p.end) for w in log.writes if p.end <= w.t < stop and w.heard is not None), None)
        out.append(Measure(line, len(heard), " | ".join(h.what for h in heard), reply, parts, span, first,
                           cold=j == 0))
    return out


def first_samples(r: Run) -> list[float]:
    """The synthesizer's time to each sentence's first piece (s)."""
    return [s.end - s.start for s in r.log.sentences]


# ---------------------------------------------------------------------- the report
def pct(values: list[float], q: float) -> float:
    return float(np.percentile(values, q)) if values else float("nan")


def ms(x: float | None) -> str:
    return "-" if x is None or x != x else f"{1000 * x:.0f}"


def report_run(r: Run, ms_: list[Measure]) -> None:
    print(f"\n{r.condition}: {len(ms_)} utterances in {r.wall:.0f} s, {r.engine} -> piper, output opened with "
          f"{', '.join(sorted({str(o.get('latency', 'default (high)')) for o in r.opened})) or 'nothing'}")
    head = f"  {'kind':<10} {'n':>3} | {'sound p50':>9} {'p95':>5} | {'answer p50':>10} {'p95':>5} {'max':>5} |" + \
        "".join(f" {p:>9}" for p in PARTS) + "  replied as expected (first / anywhere)"
    print(head + "   (ms; sound: the first sound, a tick or the answer; answer: its first word; parts: means)")
    warm = [m for m in ms_ if not m.cold]
    groups = [(k, [m for m in warm if m.line.kind == k]) for k in KINDS] + [("all", warm)]
    for kind, group in groups:
        if not group:
            continue
        timed = [m for m in group if m.total is not None]
        sound, answer = [m.sound for m in timed], [m.total for m in timed]
        parts = "".join(f" {ms(statistics.fmean(m.parts[p] for m in timed) if timed else None):>9}" for p in PARTS)
        missing = f", {len(group) - len(timed)} unanswered" if len(timed) < len(group) else ""
        print(f"  {kind:<10} {len(timed):>3} | {ms(pct(sound, 50)):>9} {ms(pct(sound, 95)):>5} | "
              f"{ms(pct(answer, 50)):>10} {ms(pct(answer, 95)):>5} {ms(max(answer, default=None)):>5} |{parts}"
              f"  {sum(m.expected for m in group):>9} / {sum(m.answered for m in group)} of {len(group)}{missing}")
    own, other, said = r.on_sheets()
    print(f"  words on their player's sheet at the end: {own} of {said}; on another player's: {other}")
    for m in ms_[:1]:
        print(f"  cold start ({m.line.kind}, left out): {ms(m.total)} ms, of which recognize "
              f"{ms((m.parts or {}).get('recognize'))} ms, game {ms((m.parts or {}).get('game'))} ms")
    first = first_samples(r)
    render = [m.parts["render"] for m in ms_ if m.parts]
    print(f"  piper first sample: p50 {ms(pct(first, 50))} ms, p95 {ms(pct(first, 95))} ms over {len(first)} "
          f"sentences; reply text -> first audio (render) p95 {ms(pct(render, 95))} ms")
    slow = sorted(r.log.sentences, key=lambda s: s.start - s.end)[:4]
    print("  slowest first samples: " + "; ".join(f"{ms(s.end - s.start)} ms {s.what!r}" for s in slow))
    odd = [m for m in ms_ if not m.expected or m.segments != 1 or m.parts is None]
    for m in odd:
        print(f"    ! {m.line.player}: {m.line.text!r} heard {m.heard!r} ({m.segments} utterance(s)); "
              f"host: {' / '.join(m.reply[:2]) or 'nothing'} (expected {m.line.expect!r})")


def figures(ms_: list[Measure]) -> dict:
    """Per kind (and all): n, p50 / p95 of the first sound, p50 / p95 / max of the
    answer's first word and its parts' means (ms); how many were answered as expected."""
    def ms(x: float | None) -> int | None:
        return None if x is None or x != x else round(1000 * x)

    warm = [m for m in ms_ if not m.cold]
    out = {}
    for kind, group in [(k, [m for m in warm if m.line.kind == k]) for k in KINDS] + [("all", warm)]:
        timed = [m for m in group if m.total is not None]
        if not group:
            continue
        sound, answer = [m.sound for m in timed], [m.total for m in timed]
        out[kind] = {"n": len(group), "answered": len(timed), "expected": sum(m.expected for m in group),
                     "expected anywhere": sum(m.answered for m in group),
                     "sound p50": ms(pct(sound, 50)), "sound p95": ms(pct(sound, 95)),
                     "answer p50": ms(pct(answer, 50)), "answer p95": ms(pct(answer, 95)),
                     "answer max": ms(max(answer, default=None)),
                     "parts": {p: ms(statistics.fmean(m.parts[p] for m in timed) if timed else None) for p in PARTS}}
    return out


def verbose_lines(ms_: list[Measure]) -> None:
    for m in ms_:
        parts = " ".join(f"{p} {ms(v)}" for p, v in (m.parts or {}).items())
        tick = "tick" if m.first is not None and m.total is not None and m.first < m.total else "answer"
        print(f"    {m.line.kind:<9} {m.line.player}: {m.line.text:<32} first sound {ms(m.sound):>5} ms ({tick:<6})"
              f" answer {ms(m.total):>5} ms  [{parts}]  heard {m.heard!r} -> {(m.reply or ['nothing'])[0]}")


def summary(results: dict[str, list[Measure]], answer: bool = False) -> str:
    """The last lines: p95 of the first sound (with `answer`: of the answer's first word)."""
    def p95(group) -> str:
        totals = [m.total if answer else m.sound for m in group]
        totals = [t for t in totals if t is not None]
        return ms(pct(totals, 95)) if totals else "-"

    idle = [m for m in results.get("idle", []) if not m.cold]
    loaded = [m for m in results.get("loaded", []) if not m.cold]
    return (f"{'answer' if answer else 'latency'} p95: one-word "
            f"{p95([m for m in idle if m.line.kind == 'one-word'])} ms, "
            f"other {p95([m for m in idle if m.line.kind != 'one-word'])} ms, loaded {p95(loaded)} ms")


def main(argv: list[str] | None = None) -> int:
    ap = report.arguments(__doc__, "4 words a condition instead of 24 (a few minutes)", "idle,loaded",
                          ("idle", "loaded", *rooms.ROOMS), settings=True)
    ap.add_argument("--words", type=int, help="words said a condition (default 24; 4 with --quick)")
    ap.add_argument("--hogs", type=int, default=1, help="busy processes beside the loaded condition (default 1)")
    ap.add_argument("--engine", help="the recognizer (default: the config's, auto: Moonshine)")
    ap.add_argument("--enrolled", action="store_true", help="voices known before the game: no introductions")
    ap.add_argument("--verbose", action="store_true", help="every utterance, and what the host says as it says it")
    ap.add_argument("--paths", default="microphone",
                    help="how the players reach the host, comma-separated: microphone (one, the laptop's), "
                         "phones (each player's own, over the network: --phones); default microphone")
    args = ap.parse_args(argv)
    sys.stdout.reconfigure(line_buffering=True)  # each table as it is done, into a file too
    out = report.Report("latency", args.json)
    n = args.words or (4 if args.quick else 24)
    conditions = rooms.choose(args.conditions, "idle,loaded", ("idle", "loaded", *rooms.ROOMS))
    room = rooms.by_split(conditions, ("held-out",))["held-out"]  # the players are held-out voices
    conditions = [c for c in conditions if c in ("idle", "loaded") or room is not None]
    cfg = game_config(report.overrides(args.set))
    lines = voice_lines(plan(n, intros=not args.enrolled, avoid=tuning_words(), cfg=cfg,
                             undo_after=min(3, n - 1)))
    out.say(f"{len(lines)} utterances a condition ({n} words), said by "
            f"{', '.join(f'{p} ({v})' for p, v in PLAYERS.items())}; a room condition is played idle")
    paths = [p.strip() for p in args.paths.split(",") if p.strip()]
    if not paths or set(paths) - {"microphone", "phones"}:
        ap.error(f"--paths takes microphone and phones, not {args.paths!r}")
    for path in paths:
        results = {}
        for c in conditions:
            said, background = (lines, None) if c in ("idle", "loaded") else in_room(lines, c, room)
            if path == "phones":  # each phone says who is speaking: nobody introduces themselves
                said = [line for line in said if line.kind != "intro"]
            name = c if path == "microphone" else f"{c} (phones)"
            r = run(said, condition=name, hogs=args.hogs if c == "loaded" else 0, cfg=cfg, engine=args.engine,
                    enrolled=args.enrolled or path == "phones", echo=args.verbose, background=background,
                    phones=path == "phones")
            results[c] = measure(r)
            with out.text():
                report_run(r, results[c])
                if args.verbose:
                    verbose_lines(results[c])
            out.figures[name] = figures(results[c])
            out.figures[name]["sheets"] = dict(zip(("own", "other", "said"), r.on_sheets()))
        prefix = "" if path == "microphone" else "phones: "
        out.say(prefix + summary(results, answer=True))
        out.say(prefix + summary(results))
    return out.finish(words=n, players=PLAYERS)


if __name__ == "__main__":
    sys.exit(main())
