"""One microphone at a real table: words chosen on the board, every word on the right sheet?

    .venv/bin/python benchmarks/table.py              # 20 words a player, tuning and held-out
    .venv/bin/python benchmarks/table.py --quick      # 8 words a player (a few minutes a split)
    .venv/bin/python benchmarks/table.py --quick --prior 0:0,4:1   # the game's prior off and on
    .venv/bin/python benchmarks/table.py --engine whisper
    .venv/bin/python benchmarks/table.py --quick --live --no-answers   # the recording also said live
    .venv/bin/python benchmarks/table.py --quick --live --no-recording   # the table that answers, from the file and live
    .venv/bin/python benchmarks/table.py --quick --mics channels   # a microphone channel per player
    .venv/bin/python benchmarks/table.py --quick --unheard Fay   # one player never says who they are
    .venv/bin/python benchmarks/table.py --splits tuning --confirm-heard 0.9,0.95   # how sure before asking
    .venv/bin/python benchmarks/table.py --quick --no-answers --talk 15   # other people talking, 15 dB under the players

A game of Prolix Classic (the host's own bag, seeded; 20 rounds, so that every word said
is a play) as a host must handle it with its default settings: one
microphone, each player says "I am NAME, and I am ready to play." once, then only bare
words, about 2.5 s apart. The words are chosen the way players choose them:
the game is first played as typed, to know the board the game shows before each word;
the active player says a known word (wordfreq Zipf >= 3.3, 4 letters or more, not used,
not a cheapie: `Words.values(tiles, used)` > 0) among the 25 best-scoring on that
board; one of the active player's turns in five a weak play (a known word worth at
most a third of the best); one turn in eight another player interrupts first with a
good word (at most one interrupt a turn, never a player's last slot), and the active
player then plays again on the new board. A word counts as right when the sheet holds
it or a spelling of the same sound that scored the same on that board (the host writes
"behavior" for "behaviour": one word, the same points).

The recording goes through the real pipeline (`play_recording`: VAD, the recognizer,
voice prints, the host's hearing, with the game's prior `--prior POINTS:KNOWN`, by
default the config's [speech] prior_points, prior_known) with its questions left
unanswered; each word said is compared with the input the host fed the game for it.
Clean, 20 dB and 10 dB pink noise (benchmarks/toolkit/synth.add_noise); `--conditions` also
takes the real rooms of benchmarks/toolkit/rooms.py ("kitchen 10 dB", "babble 15 dB", ...,
or "rooms" for all; the table that answers is not heard in "reverb" and "far mic"). Only the words said
before the game is over count (`n`). Then the same table again, answering
(`--no-answers` skips it): a player the host asks "Did you say X or Y?" says "Yes." when
X is right, says the word when it is Y, and otherwise spells it in the spelling
alphabet ("Tango, Oscar, ..."); "Who said X?" and "Was that Ann?" get the player's name
("It was Ben.") or "Yes."; a player whose word the host scored to another says "That
was mine."; a player whose word the host took wrong says "No, " and the word, and
spells it ("No, Tango, Oscar, ...") when the host takes it wrong again or asks for the
spelling ("I hear towers again. Spell it for me, please."); one whose word was taken
for chatter ("I didn't catch a word in 'okay'") spells it. Nobody says more than three
things about one word. The answers are put into the audio as the host asks (a source
that grows as it is read), in the player's voice, under the same noise, and pass
through the same pipeline. With `--live`, the recording nobody answers is also said
live: streamed in real time into the microphone of a PulseAudio server (null sink, pipe
source: benchmarks/toolkit/pulse.py) and heard by the live loop (`play_live`: the opening
asks each player to say who they are while the introductions come, the host speaks
through Piper to the server's speakers, barge-in and the tick as at a table); the table
"live". The table that answers is said live too ("live+ans"): its answers are put into
the microphone as the host asks, each a short pause after the host has finished the
sentence it answers (the question, or the score a player puts right, over what the host
says next as a player would); each player says
who they are once the host has asked them (said over the host's first words, the first
introduction was sometimes lost, and with it the game's first word, said while the
host still waited for that introduction).

With `--talk DB` other people talk in the room all evening, DB below the players (a
television, another conversation): real recordings of real people (LibriVox read
speech from Debian's pocketsphinx-testdata, Picovoice's recording of many keywords,
Speech Commands words of many speakers: benchmarks/real_speech.py says where they go),
one after another with short pauses, over the introductions and the words alike. STRAY
counts the words the host put on a sheet that nobody at the table said (the recording
nobody answers; the table that answers is heard without the talk).

Reported per split, condition and table: words right FIRST time (on the right sheet
with no question asked and nothing put right), right on the SHEET in the end (word and
player), SILENTly wrong (a wrong word, or a word on the wrong sheet, scored with no
question asked about it: a word the host doubted, took and said in the score counts
here when nobody put it right), QUESTIONS the host asked per word, the SECONDS each
question held the table (from the question to its answer, or to the host settling it
itself), the table's seconds lost a word (s/word: the questions' seconds, and each
"No, ..." that put a word right, from the score said to the end of the player's
reply), the words put right a word (c/word: "Sorry, Ann: ..."), the player right (who)
and the pipeline's real-time factor.

Two splits: TUNING, said by flite rms and awb and awb shifted with sox (no festival
HTS slt, piper joe or flite slt), and HELD-OUT, said by voices no test uses (piper's
neural joe, flite kal16, and sox pitch/tempo-shifted festival slt and rms), whose
words are never chosen in the tuning game. Targets (held-out, one
microphone, nobody answering): right on the sheet >= 95% clean, >=
90% at 20 dB, >= 75% at 10 dB; silently wrong <= 2% in every condition; questions <=
15% of words clean; a table that answers >= 99% clean, >= 97% at 20 dB. The rare-word
stress case stays in benchmarks/recognition.py.
"""

from __future__ import annotations

import re
import sys
import time
from pathlib import Path
from typing import NamedTuple

import numpy as np

from toolkit import listening, report, rooms
from toolkit.splits import TABLE_PLAYERS as SPLITS
from toolkit.voices import add_noise, place, say, speech_bounds

from voice_host.speech.audio import SAMPLE_RATE  # noqa: E402
from voice_host.speech.listening.sources import ArraySource  # noqa: E402

OPENING = "I am {name}, and I am ready to play."
GAP = 2.5
CONDITIONS = ("clean", "20", "10")
"""The default conditions: clean, pink noise at an SNR in dB, or any of toolkit.rooms' rooms."""
KNOWN_ZIPF = 3.3
BEST = 25
WEAK_EVERY = 5
INTERRUPT_EVERY = 8
ROUNDS = {"prolix": {"rounds_3_players": 20, "rounds_4_5_players": 20}}  # a long evening: every word is a play


class Turn(NamedTuple):
    """A word said at the table, chosen on the board the game showed then."""

    player: str
    word: str
    kind: str
    """"good", "weak" (at most a third of the best) or "interrupt" (a good word said
    first by a player whose turn it is not)."""
    same: frozenset
    """The spellings that count as this word: it, and those of the same sound that
    scored the same on that board."""


def plan_game(voices: dict[str, str], n: int, seed: int, avoid: set[str] = frozenset(),
              every: int = INTERRUPT_EVERY) -> list[Turn]:
    """`n` words of a Classic game on the host's own bag (seeded as the recorded game
    is), played as typed to know the board before each word (see the module doc), an
    interrupt one turn in `every` (0: none); words in `avoid` are never chosen."""
    from voice_host import config
    from voice_host.host.records import Said
    from voice_host.host.session import Session, new_header
    from voice_host.words import Words

    w = Words.load()
    cfg = config.load(overrides=ROUNDS)
    s = Session(new_header("prolix-classic", list(voices), 1, cfg), w, lambda _: None)
    s.begin(0.0, quiet=True)
    zipf = np.asarray(w.data.zipf)
    known = np.array([z >= KNOWN_ZIPF and len(x) >= 4 and x.isalpha() and x not in avoid
                      for x, z in zip(w.data.words, zipf)])
    index = {x: i for i, x in enumerate(w.data.words)}
    rng = np.random.default_rng(seed)
    slots = s.game.settings.interrupt_slots
    plays: dict[str, int] = {}
    turns: list[Turn] = []
    t = 1.0

    def choose(kind: str) -> tuple[str, frozenset]:
        e = s.game.expectation()
        values = w.values(e.tiles, e.used)
        ok = np.flatnonzero(known & (values > 0))
        best = int(values[ok].max())
        if kind == "weak" and (weak := ok[values[ok] <= best / 3]).size:
            i = int(rng.choice(weak))
        else:
            i = int(rng.choice(ok[np.argsort(-values[ok], kind="stable")][:BEST]))
        word = w.data.words[i]
        same = {word} | {h for h in w.homophones(word) if h in index and values[index[h]] == values[i]}
        return word, frozenset(same)

    def say_typed(player: str, kind: str) -> None:
        nonlocal t
        word, same = choose(kind)
        turns.append(Turn(player, word, kind, same))
        s.play(Said(t, player, word), quiet=True)
        if s.refused:
            raise RuntimeError(f"the typed game refused {player}'s {word!r}: {s.refused}")
        t += GAP
        s.tick(t, quiet=True)

    while len(turns) < n:
        st = s.game.state
        active = st.active
        others = [p for p in st.players if p != active and not st.sheets[p].out
                  and len(st.sheets[p].interrupts) < slots - 1]
        if every and len(turns) % every == every // 2 and others and len(turns) < n - 1:
            say_typed(others[int(rng.integers(len(others)))], "interrupt")
        plays[active] = plays.get(active, 0) + 1
        say_typed(active, "weak" if plays[active] % WEAK_EVERY == 0 else "good")
    return turns[:n]


def plans(per: int, every: int = INTERRUPT_EVERY) -> dict[str, list[Turn]]:
    """Each split's game; a held-out word is never a tuning one. (Test files are not
    consulted: the games stay the same whatever tests are added.)"""
    tuning = plan_game(SPLITS["tuning"], per * len(SPLITS["tuning"]), 10, every=every)
    held = plan_game(SPLITS["held-out"], per * len(SPLITS["held-out"]), 11, {x.word for x in tuning}, every)
    return {"tuning": tuning, "held-out": held}


MICS = ("one", "channels", "names")
"""How the host knows who spoke: ONE microphone and voice prints (each player introduced
first), a microphone CHANNEL per player, or one microphone and every word said after
the player's NAME ("Dee, harbour")."""


def _script(voices: dict[str, str], plan: list[Turn], mics: str = "one", unheard: str | None = None):
    """([(gap before, audio, label)], [(start, audio, label)]): the opening (label None;
    only with one microphone; `unheard` does not introduce themself), then the words of
    the plan (label (player, word)), as said with nobody answering."""
    script, planned, t = [], [], 0.0
    gap = 0.5
    for name, spec in voices.items() if mics == "one" else ():
        if name == unheard:
            continue
        a = say(OPENING.format(name=name), spec)
        script.append((gap, a, None))
        gap = 1.5
    for turn in plan:
        text = f"{turn.player}, {turn.word}" if mics == "names" else turn.word
        script.append((gap, say(text, voices[turn.player]), (turn.player, turn.word)))
        gap = GAP
    for g, a, label in script:
        t += g
        planned.append((t, a, label))
        t += a.size / SAMPLE_RATE
    return script, planned


def session(voices: dict[str, str], plan: list[Turn], mics: str = "one", unheard: str | None = None):
    """(audio, [(start, end, player, word)]): the opening, then the words of the plan;
    audio (n,), or (n, players) with a channel per player."""
    _, planned = _script(voices, plan, mics, unheard)
    truth = []
    for t, a, label in planned:
        if label is not None:
            s, e = speech_bounds(a)
            truth.append((t + s, t + e, *label))
    channel = {name: i for i, name in enumerate(voices)} if mics == "channels" else {}
    audio = place([(t, a, channel.get(label[0], 0) if label else 0) for t, a, label in planned],
                  duration=planned[-1][0] + planned[-1][1].size / SAMPLE_RATE + 1.0, channels=max(1, len(channel)))
    return (audio if channel else audio[:, 0]), truth


NATO = dict(a="Alfa", b="Bravo", c="Charlie", d="Delta", e="Echo", f="Foxtrot", g="Golf", h="Hotel", i="India",
            j="Juliett", k="Kilo", l="Lima", m="Mike", n="November", o="Oscar", p="Papa", q="Quebec", r="Romeo",
            s="Sierra", t="Tango", u="Uniform", v="Victor", w="Whiskey", x="Xray", y="Yankee", z="Zulu")


class Reply(NamedTuple):
    """The label of what a player says back to the host about their word."""

    about: tuple[str, str]
    correction: bool = False
    """ "No, ..." to a word the host took: the table's time it costs is counted too."""


UNCAUGHT = re.compile(r"^I didn't catch a word in '(.+?)(?:\.\.\.)?'")
SPELL_IT = re.compile(r"^Sorry, (\w+), I .+\. Spell it for me")


def spelled(word: str) -> str:
    """``word`` spelled in the spelling alphabet, as a player says it ("Tango, Oscar, ...")."""
    return ", ".join(NATO[c] for c in word) + "."


class Conversation:
    """A mono source that grows as it is read: the scripted clips, each after its gap,
    and answers the table gives when the host asks (`answer`), put in as soon as the
    clip being said (if any) has ended, after a short pause. `noise` (a track as long
    as needed, looped) is added to everything. Said live, an answer also waits until the
    host has said what it answers (`answer`'s ``heard``), and `offset` is the
    microphone's time of the first sample, so that `placed` is on the host's clock."""

    realtime = False
    channels = 1
    PAUSE = 0.8

    def __init__(self, script: list[tuple[float, np.ndarray, object]], noise: np.ndarray | None = None):
        # every entry: (pause before it, audio, label, heard: a test it waits for, or None)
        self.script: list[tuple[float, np.ndarray, object, object]] = [(*e, None) for e in script]
        self.answers: list[tuple[float, np.ndarray, object, object]] = []
        self.noise = noise
        self.placed: list[tuple[float, float, object]] = []
        """(start, end, label) of every clip as it was put in the timeline."""
        self.duration = None
        self.offset = 0.0

    def answer(self, audio: np.ndarray, label=None, heard=None) -> None:
        """Say ``audio`` next, once ``heard()`` is true (None: at once), after the pause."""
        self.answers.append((self.PAUSE, audio, label, heard))

    def __iter__(self):
        from voice_host.speech.listening.sources import AudioChunk

        step, n, tail = SAMPLE_RATE // 10, 0, SAMPLE_RATE
        entry, gap, rest = None, 0, None  # what comes next: its pause, then its audio
        while True:
            if self.answers and (entry is None or not isinstance(entry[2], Reply) and gap > 0):
                if entry is not None:  # a scripted clip not yet begun waits for the answer
                    self.script.insert(0, entry)
                entry = self.answers.pop(0)
                gap, rest = int(entry[0] * SAMPLE_RATE), entry[1]
            if entry is None:
                if self.script:
                    entry = self.script.pop(0)
                    gap, rest = int(entry[0] * SAMPLE_RATE), entry[1]
                elif tail > 0:
                    tail -= step
                else:
                    self.duration = n / SAMPLE_RATE
                    return
            chunk = np.zeros(step, np.float32)
            heard = entry[3] if entry is not None else None
            if heard is not None and rest is entry[1] and not heard():
                gap = max(gap, int(self.PAUSE * SAMPLE_RATE))  # the player lets the host finish
            if entry is not None:
                pause = min(step, gap)
                gap -= pause
                if pause < step:
                    if rest is entry[1]:  # the clip begins in this chunk
                        s, e = speech_bounds(entry[1])
                        t = self.offset + (n + pause) / SAMPLE_RATE
                        self.placed.append((t + s, t + e, entry[2]))
                    k = min(step - pause, rest.size)
                    chunk[pause:pause + k] = rest[:k]
                    rest = rest[k:]
                    if rest.size == 0:
                        entry = None
            if self.noise is not None:
                chunk = chunk + self.noise[np.arange(n, n + step) % self.noise.size]
            yield AudioChunk(n / SAMPLE_RATE, chunk[:, None])
            n += step

    def close(self) -> None:
        pass


def _answer_for(question, truth: tuple[str, str]) -> str | None:
    """What the player whose word it was says to the host's open question."""
    name, word = truth
    if question.kind == "word":
        if question.options[0] == word:
            return "Yes."
        if word in question.options[1:2]:
            return word.capitalize() + "."
        return spelled(word)
    if question.kind == "spelling":
        return "The first." if question.options[0] == word else "The other."
    if question.kind == "who":
        return "Yes." if question.options[:1] == [name] else f"It was {name}."
    return None


TRACE: list[bool] = []
SPEECH: dict = {}
"""[speech] settings given on the command line (--background-below)."""


def _host(engine: str, voices: dict[str, str], prior: tuple[float, ...] | None, say_to=None):
    """The host for a run; `prior` (points, known[, confirm_heard_below]) or None: the config's.
    (the session, ``host(source, heard=None, **options)`` that builds the live host hearing
    ``source`` as ``voice-host play`` does (voice_host.assembly.build; ``heard``: shown
    each utterance), what the host said, when the game was over, its questions)."""
    from voice_host import config
    from voice_host.assembly import build
    from voice_host.host.hearing import HearingSettings
    from voice_host.host.session import Session, new_header
    from voice_host.speech.recognizing.engines import make_recognizer
    from voice_host.speech.recognizing.moonshine.adapted import recognizer_options
    from voice_host.speech.listening.voiceprint import VoicePrints
    from voice_host.words import Words

    speech = {} if prior is None else dict(zip(("prior_points", "prior_known", "confirm_heard_below"), prior))
    cfg = config.load(overrides={**ROUNDS, "speech": {**speech, **SPEECH}})
    said: list[str] = []
    asked: list[list] = []

    def out(sentence: str) -> None:
        if sentence.startswith("Game over") and not over:
            over.append(s.t)  # words said after it are not plays: they are not counted
        said.append(sentence)
        if hearing:
            _questions(hearing[0], asked)
        if TRACE:
            print(f"      host: {sentence}")
        if say_to is not None:
            say_to(sentence)

    over: list[float] = []
    hearing: list = []
    s = Session(new_header("prolix-classic", list(voices), 1, cfg), Words.load(), out)
    settings = HearingSettings.from_config(cfg)
    rec = make_recognizer(engine, **recognizer_options(settings.model, engine, settings.second_ear))

    def host(source, heard=None, **options):
        def on_hear(u) -> None:
            if heard is not None:
                heard(u)
            if TRACE:
                print(f"  {u.start:7.2f} {u.speaker}: {u.text!r} ({u.confidence:.2f})")
        built = build(s, rec, source, cfg=cfg, voiceprints=VoicePrints(),
                      on_hear=on_hear if heard is not None or TRACE else None, **options)
        hearing.append(built.hearing)
        return built
    return s, host, said, over, asked


def _questions(hearing, asked: list[list]) -> None:
    """Keeps `asked` up to date whenever the host says something: [said at, closed at,
    t of the utterance asked about, kind, the question] of each question the hearing
    asked; closed when it was answered (the answer's end) or settled (`answer_within`
    after it was asked, and after the host has finished talking, live), whichever came
    first."""
    q = hearing.question
    last = asked[-1] if asked and asked[-1][1] is None else None
    if last is not None and last[4] is not q:
        settled_by = last[0] + hearing.settings.answer_within + hearing.host_speech(last[0], hearing.now)
        last[1] = max(last[0], min(hearing.now, settled_by))
        last = None
    if q is not None and last is None:
        asked.append([max(q.asked_at, hearing.now), None, q.t, q.kind, q])


def _same(plan: list[Turn]) -> dict[str, frozenset]:
    return {x.word: x.same for x in plan}


def run(engine: str, voices: dict[str, str], audio: np.ndarray, truth, plan: list[Turn], prior=None) -> dict:
    s, host, said, over, questions = _host(engine, voices, prior)
    t0 = time.perf_counter()
    channels = list(voices) if audio.ndim == 2 else None  # a channel per player
    host(ArraySource(audio), channel_players=channels, recording=True).play_recording()
    wall = time.perf_counter() - t0
    return score(s, said, over, truth, wall, audio.size / SAMPLE_RATE, plan, questions)


LIVE: list = []
"""The PulseAudio server of a --live run (benchmarks/toolkit/pulse.py), started before PortAudio,
and the host's voice (host.output.Speaker) on its speakers."""


def run_live(engine: str, voices: dict[str, str], audio: np.ndarray, truth, plan: list[Turn], prior=None) -> dict:
    """The recording nobody answers, said live: streamed at real speed into the
    microphone of a PulseAudio server, heard by the live loop (`play_live`: the opening
    that asks each player to say who they are, barge-in, the tick), the host speaking
    to the server's speakers."""
    speaker = _live_speaker()
    s, host, said, over, questions = _host(engine, voices, prior, speaker.voice.say if speaker.voice else None)
    wall, shift = _say_live(host, speaker, lambda mic, at: mic.say(audio[:, None]))
    truth = [(a + shift, b + shift, *rest) for a, b, *rest in truth]
    return score(s, said, over, truth, wall, audio.size / SAMPLE_RATE, plan, questions)


def _live_speaker():
    """The host's voice on the live server's speakers: one for every live run (a voice
    closed mid-sentence can take the process down)."""
    from voice_host import config
    from voice_host.host.output import Speaker

    if len(LIVE) == 1:
        import atexit

        LIVE.append(Speaker(False, config.load(overrides=ROUNDS)))
        atexit.register(LIVE[1].close)  # before the audio server stops (registered later, run first)
    return LIVE[1]


def _say_live(host, speaker, write, heard=None) -> tuple[float, float]:
    """The live host (``host``, from _host: its loop `play_live`) hearing the server's
    microphone while ``write(mic, at)`` says the table into it in real time (``at``: the
    microphone's time of its first sample); (the loop's wall seconds, ``at``)."""
    import threading

    from voice_host.speech.listening.sources import open_source

    server = LIVE[0]
    source = open_source()
    source.start()
    began: list[float] = []
    done = threading.Event()

    def stream() -> None:
        began.append(time.monotonic() - source.started_at)
        try:
            write(server.mic, began[0])
            server.mic.silence(4.0)  # the host answers the last word
        finally:  # a writer that fails ends the run, not hangs it
            source.close()
        while not done.is_set():  # a microphone never falls silent: the stream stops on its next block
            server.mic.silence()

    writer = threading.Thread(target=stream, daemon=True)
    t0 = time.perf_counter()
    writer.start()
    host(source, heard, voice=speaker.voice, speaker=speaker).play_live()
    wall = time.perf_counter() - t0
    done.set()
    writer.join()
    if speaker.voice is not None:
        speaker.voice.stop()
    return wall, began[0]


def _asked_for(voice, name: str, within: float = 15.0):
    """Live: whether the host has finished a sentence naming ``name`` (asking them to say
    who they are) and is quiet; or, after ``within`` seconds of waiting, true anyway."""
    waiting_since = None

    def done() -> bool:
        nonlocal waiting_since
        now = voice.clock()
        waiting_since = now if waiting_since is None else waiting_since
        asked = any(name in r.text and r.end <= now for r in voice.history)
        return (asked and not voice.speaking) or now - waiting_since > within
    return done


def run_answering(engine: str, voices: dict[str, str], plan: list[Turn], snr, prior=None,
                  mics: str = "one", unheard: str | None = None, room=None, live: bool = False) -> dict:
    """The table answers the host's questions (see the module doc); one microphone.
    ``live``: said in real time into the live server's microphone, the host speaking to
    its speakers and each answer waiting until the host has finished its question."""
    from voice_host.host.records import Said

    same = _same(plan)
    script, planned = _script(voices, plan, mics, unheard)
    noise = None
    if snr is not None:  # the room's sound alone, as long as needed
        plain = place([(t, a, 0) for t, a, _ in planned], duration=planned[-1][0] + 5)[:, 0]
        noise = np.tile(in_condition(plain, plain, snr, room) - plain, 4)
    conv = Conversation(script, noise)
    answers: dict[object, int] = {}

    def about(t: float):
        """The word (player, word) said at `t`, itself or in a reply about it."""
        lab = next((lab for st, e, lab in conv.placed if lab is not None and st - 0.5 <= t <= e + 0.5), None)
        return lab.about if isinstance(lab, Reply) else lab

    speaker = _live_speaker() if live else None
    voice = speaker.voice if speaker is not None else None
    saying: list[str] = []  # what the host said, in order
    if voice is not None:  # live, each player says who they are once the host has asked them
        names = iter([n for n in voices if n != unheard] if mics == "one" else [])
        conv.script = [(g, a, lab, _asked_for(voice, next(names)) if lab is None else h)
                       for g, a, lab, h in conv.script]

    def reply(label, text: str, correction: bool = False) -> None:
        if answers.get(label, 0) < 3:  # a player gives up after three tries
            answers[label] = answers.get(label, 0) + 1
            conv.answer(say(text, voices[label[0]]), Reply(label, correction), heard_out())

    def heard_out():
        """Live: whether the host has finished the sentence being answered, or fell
        silent (a sentence cut off by a player is never finished)."""
        if voice is None:
            return None
        since, sentence = len(voice.history), saying[-1]

        def done() -> bool:
            later = voice.history[since:]
            return not voice.speaking or any(
                r.text == sentence and (r is not later[-1] or r.end <= voice.clock()) for r in later)
        return done

    def on_say(sentence: str) -> None:
        q = hearing[0].question if hearing else None
        if q is not None:
            label = about(q.t)
            text = _answer_for(q, label) if label else None
            if text is not None and ("q", q.asked_at) not in asked:
                asked.add(("q", q.asked_at))
                reply(label, text)
            return
        caught = UNCAUGHT.match(sentence)
        if caught:  # "I didn't catch a word in 'okay'": the player whose word it was spells it
            u = next((u for u in reversed(heard) if u.text.startswith(caught.group(1))), None)
            label = about(u.start) if u is not None else None
            if label and ("c", u.start) not in asked:
                asked.add(("c", u.start))
                reply(label, spelled(label[1]))
            return
        spell = SPELL_IT.match(sentence)
        if spell and spell.group(1) in said_no:  # "I hear premises again. Spell it for me": they spell
            reply(said_no[spell.group(1)], spelled(said_no[spell.group(1)][1]), correction=True)
            return
        idx = s.undoable[-1] if s.undoable else None  # the newest play (its score may come with a later record)
        r = s.records[idx] if idx is not None else None
        if isinstance(r, Said) and ("r", r.t, r.text) not in asked:  # a play the host took (replayed: judged once)
            asked.add(("r", r.t, r.text))
            label = about(r.t)
            if label and label[0] != r.speaker:  # on another's sheet: its player claims it
                reply(label, "That was mine.", correction=True)
            elif label and r.text.split()[-1] not in same.get(label[1], {label[1]}):  # the word, then its spelling
                again = said_no.get(label[0]) == label
                said_no[label[0]] = label
                reply(label, "No, " + (spelled(label[1]) if again else label[1] + "."), correction=True)

    def say_to(sentence: str) -> None:
        if voice is not None:
            voice.say(sentence)
        saying.append(sentence)
        on_say(sentence)

    def write(mic, at: float) -> None:
        conv.offset = at
        for chunk in conv:
            mic.say(chunk.samples)

    asked: set = set()
    said_no: dict[str, tuple[str, str]] = {}  # player -> the word they last said "No, ..." about
    heard: list = []
    hearing: list = []  # the host's, once built

    def built(source, heard_by=None, **options):
        made = host(source, heard_by, **options)
        hearing.append(made.hearing)
        return made

    s, host, said, over, questions = _host(engine, voices, prior, say_to)
    if live:
        wall, _ = _say_live(built, speaker, write, heard.append)
    else:
        t0 = time.perf_counter()
        built(conv, heard.append, recording=True).play_recording()
        wall = time.perf_counter() - t0
    truth = [(st, e, *lab) for st, e, lab in conv.placed if isinstance(lab, tuple) and not isinstance(lab, Reply)]
    replies = [(st, e, lab.about, lab.correction) for st, e, lab in conv.placed if isinstance(lab, Reply)]
    return score(s, said, over, truth, wall, conv.duration or 1.0, plan, questions, replies)


def score(s, said: list[str], over: list[float], truth, wall: float, seconds: float, plan: list[Turn],
          questions: list[list], replies=()) -> dict:
    """Each word said against what is on the sheets: the input fed at the time it was
    said (or at the time of a reply about it that was heard as the play again), the
    questions asked about it (about the word or a reply), and what the game scored."""
    from voice_host.host.records import Said

    fed = [(i, r) for i, r in enumerate(s.records) if isinstance(r, Said) and i not in s.undone and r.text != "undo"]
    if TRACE:
        for i, r in enumerate(s.records):
            print(f"      record {i}: {r}{'  (undone)' if i in s.undone else ''}")
    sheets = s.game.state.sheets
    scored = {(p, e.word) for p, sheet in sheets.items() for e in sheet.regular + sheet.interrupts if e.word}
    kinds = {(x.player, x.word): x.kind for x in plan}
    same = _same(plan)
    end = over[0] if over else float("inf")
    questions = [q for q in questions if q[0] < end]
    word = who = both = first = silent = 0
    misses = []
    truth = [x for x in truth if x[0] < end]
    for start, stop, name, w in truth:
        windows = [(start, stop)] + [(st, e) for st, e, lab, _ in replies if lab == (name, w)]
        i, r = next(((i, r) for i, r in fed for st, e in windows if st - 0.5 <= r.t <= e + 0.5), (None, None))
        heard = r.text.split()[-1] if r is not None and r.text.split() else None
        if TRACE:
            print(f"      said {name}:{w} at {start:.2f}-{stop:.2f}: record {i}")
        got_w = heard in same.get(w, {w})
        got_p = r is not None and r.speaker == name
        about = [q for q in questions for st, e in windows if st - 0.5 <= q[2] <= e + 0.5]
        word += got_w
        who += got_p
        both += got_w and got_p
        first += got_w and got_p and not about and len(windows) == 1
        wrong = r is not None and not (got_w and got_p) and i not in s.refusals and (r.speaker, heard) in scored
        silent += wrong and not about
        if not (got_w and got_p):
            mark = {"weak": "*", "interrupt": "!"}.get(kinds.get((name, w)), "")
            how = ("SILENT " if wrong and not about else "") + (f"{r.speaker}:{r.text}" if r else "nothing")
            misses.append(f"{mark}{name}:{w}->{how}")
    n = len(truth)
    costs = [q[1] - q[0] for q in questions if q[1] is not None]
    put_right = [Conversation.PAUSE + e - st for st, e, _, correction in replies if correction]
    said_at = [(st, e) for st, e, *_ in truth] + [(st, e) for st, e, *_ in replies]
    stray = sum(1 for i, r in fed if i not in s.refusals and r.t < end
                and not any(st - 0.5 <= r.t <= e + 0.5 for st, e in said_at))
    return {"n": n, "stray": stray, "words": word / n, "attribution": who / n, "sheet": both / n, "first": first / n,
            "silent": silent / n, "questions": len(questions), "per_word": len(questions) / n,
            "cost": float(np.mean(costs)) if costs else 0.0, "lost": float(np.sum(costs) + np.sum(put_right)) / n,
            "corrections": sum(x.startswith("Sorry, ") for x in said) / n, "rtf": wall / seconds, "misses": misses}


def talk(duration: float, players_level: float, below: float, seed: int = 5) -> np.ndarray:
    """Other people talking for ``duration`` seconds, ``below`` dB under ``players_level``
    (RMS of the voiced frames): real recordings one after another, short pauses between."""
    data = rooms.default_data()
    paths = sorted(Path("/usr/share/pocketsphinx/test/data/librivox").glob("*.wav")) or \
        sorted(data.rglob("librivox/*.wav"))
    paths += sorted(data.rglob("multiple_keywords.wav"))
    paths += [c["path"] for c in rooms.talkers(data, 2)]
    if not paths:
        raise SystemExit(f"--talk: no recordings of people talking under {data} (see benchmarks/real_speech.py)")
    rng = np.random.default_rng(seed)
    order = rng.permutation(len(paths))
    n = int(duration * SAMPLE_RATE)
    track, at, k = np.zeros(n, np.float32), 0, 0
    while at < n:
        a = rooms.load(paths[order[k % len(paths)]])
        a = a / (rooms.level(a) + 1e-9)
        track[at:at + a.size] += a[: n - at]
        at += a.size + int(rng.uniform(0.3, 1.5) * SAMPLE_RATE)
        k += 1
    return track * players_level / 10 ** (below / 20)


def in_condition(audio: np.ndarray, players: np.ndarray, condition, room) -> np.ndarray:
    """The recording in a condition: pink noise at an SNR (a number) under the players'
    speech level, or a room (its name; seeded as the pink noise is)."""
    if isinstance(condition, float):
        return add_noise(audio, condition, seed=3, reference=players)
    return room.apply(audio, players, condition, 3)


def _prior(item: str) -> tuple[float, float] | None:
    """POINTS:KNOWN, or None for the config's."""
    if item in ("", "config", "DEFAULT"):
        return None
    p, k = item.split(":")
    return float(p), float(k)


def main(argv=None) -> int:
    ap = report.arguments(__doc__, "8 words a player instead of 20", ",".join(CONDITIONS),
                          ("clean", "an SNR in dB (pink noise)", *rooms.ROOMS), model=True)
    ap.add_argument("--engine", default="auto")
    ap.add_argument("--words", type=int, help="words per player")
    ap.add_argument("--splits", default=",".join(SPLITS))
    ap.add_argument("--prior", default="config",
                    help="the game's prior POINTS:KNOWN ([speech] prior_points, prior_known; 0:0 off), "
                         "several separated by commas; default: the config's")
    ap.add_argument("--confirm-heard", metavar="X,Y",
                    help="[speech] confirm_heard_below values to compare (default: the config's)")
    ap.add_argument("--interrupts", type=int, default=INTERRUPT_EVERY, metavar="N",
                    help=f"an interrupt one turn in N (default {INTERRUPT_EVERY}; 0: none)")
    ap.add_argument("--live", action="store_true",
                    help="also the recording and the table that answers said live, through a PulseAudio server "
                         "in real time")
    ap.add_argument("--no-recording", action="store_true", help="only the table that answers")
    ap.add_argument("--no-answers", action="store_true", help="only the recording nobody answers")
    ap.add_argument("--mics", default="one", choices=MICS,
                    help="one microphone and voice prints (default), a channel per player (the recording "
                         "nobody answers only), or one microphone and the name said before every word")
    ap.add_argument("--unheard", metavar="NAME",
                    help="with one microphone: this player never says who they are (the host must ask)")
    ap.add_argument("--talk", type=float, metavar="DB",
                    help="other people talking in the room all evening, DB under the players (real recordings)")
    ap.add_argument("--background-below", type=float, metavar="DB",
                    help="[speech] background_below (0: the room's talk is not told apart)")
    ap.add_argument("--plan", action="store_true", help="print the words chosen and stop")
    ap.add_argument("--trace", action="store_true", help="print what was heard and said")
    listening.add_ear_option(ap)
    args = ap.parse_args(argv)
    if args.trace:
        TRACE.append(True)
    if args.background_below is not None:
        SPEECH["background_below"] = args.background_below
    SPEECH["model"] = args.model
    from voice_host import config

    speech = config.load().get("speech", {})
    default = (float(speech.get("prior_points", 0.0)), float(speech.get("prior_known", 0.0)))
    asks = [float(x) for x in args.confirm_heard.split(",")] if args.confirm_heard else \
        [float(speech.get("confirm_heard_below", 0.9))]
    priors = list(dict.fromkeys((*(_prior(x) or default), a) for x in args.prior.split(",") for a in asks))
    per = args.words or (8 if args.quick else 20)
    conds = [None if c == "clean" else c if c in rooms.ROOMS else float(c.removesuffix("dB"))
             for c in rooms.choose(args.conditions, ",".join(CONDITIONS), available=None)]
    room = rooms.by_split([c for c in conds if isinstance(c, str)], args.splits.split(","))
    conds = [c for c in conds if not isinstance(c, str) or room[args.splits.split(",")[0]] is not None]
    out = report.Report("table", args.json)
    games = plans(per, args.interrupts)
    for split in args.splits.split(","):
        plan = games[split]
        out.say(f"{split}: " + ", ".join(f"{t.player}:{t.word}{ {'weak': '*', 'interrupt': '!'}.get(t.kind, '')}"
                                       for t in plan) + "  (* weak play, ! interrupt)")
    if args.plan:
        return 0
    if args.live:
        import atexit
        import os
        import tempfile

        from toolkit.pulse import Pulse, missing

        if missing():
            out.say(f"--live: {missing()}")
            return 2
        server = Pulse(Path(tempfile.mkdtemp(prefix="voice-host-live-")))
        LIVE.append(server.__enter__())
        atexit.register(server.__exit__, None, None, None)  # stopped however the run ends
        os.environ.update(server.env)  # before PortAudio starts, so that it finds the server
    who = {"one": "One-microphone table, after one enrollment sentence each",
           "channels": "A microphone channel per player", "names": "One microphone, the name said before every word"}
    out.say(f"{who[args.mics]}, engine {args.engine}, {per} words per player chosen on the board")
    ears = listening.ears(args.second_ear)
    out.say(f"{'split':9} {'noise':6} {'prior':6} {'ask<':4} {'ear':7} {'table':9} {'n':>3} {'first':>6} {'sheet':>6} "
            f"{'silent':>6} "
            f"{'q/word':>6} {'s/q':>5} {'s/word':>6} {'c/word':>6} {'who':>6} {'stray':>5} {'RTF':>5}")
    for split in args.splits.split(","):
        voices, plan = SPLITS[split], games[split]
        unheard = args.unheard if args.unheard in voices else None
        audio, truth = session(voices, plan, args.mics, unheard)
        players = audio
        if args.talk is not None:
            audio = audio + (talk(audio.shape[0] / SAMPLE_RATE, rooms.level(audio.reshape(-1)), args.talk)
                             if audio.ndim == 1 else 0)
        for snr in conds:
            label = ("clean" if snr is None else f"{snr:g} dB" if isinstance(snr, float) else snr) + \
                ("+talk" if args.talk is not None else "")
            for prior, (ear, second_ear) in ((p, e) for p in priors for e in ears.items()):
                SPEECH["second_ear"] = second_ear
                runs = []
                mixed = audio if snr is None else in_condition(audio, players, snr, room[split])  # nobody answers
                if not args.no_recording:
                    runs.append(("recording", run(args.engine, voices, mixed, truth, plan, prior)))
                if args.live and args.mics == "one" and not args.no_recording:
                    runs.append(("live", run_live(args.engine, voices, mixed, truth, plan, prior)))
                if not args.no_answers and args.mics != "channels" and snr not in ("reverb", "far mic"):
                    answering = run_answering(args.engine, voices, plan, snr, prior, args.mics, unheard, room[split])
                    runs.append(("answering", answering))
                    if args.live and args.mics == "one":
                        runs.append(("live+ans", run_answering(args.engine, voices, plan, snr, prior, args.mics,
                                                               unheard, room[split], live=True)))
                for kind, r in runs:
                    head = f"{split:9} {label:6} {prior[0]:g}:{prior[1]:g}"
                    out.say((head.ljust(24) if len(head) < 24 else head + " ") + f"{prior[2]:<4g} {ear:7} " +
                            f"{kind:9} {r['n']:3d} {r['first']:6.1%} {r['sheet']:6.1%} {r['silent']:6.1%} "
                            f"{r['per_word']:6.2f} {r['cost']:5.1f} {r['lost']:6.1f} {r['corrections']:6.2f} "
                            f"{r['attribution']:6.1%} {r['stray']:5d} "
                            f"{r['rtf']:5.2f}")
                    out.figures[f"{split}|{label}|{prior[0]:g}:{prior[1]:g}|{prior[2]:g}|{ear}|{kind}"] = {
                        k: round(v, 4) if isinstance(v, float) else v for k, v in r.items()}
                    if r["misses"]:
                        out.say("          missed: " + ", ".join(r["misses"]))
    out.say("targets (held-out, nobody answering): sheet >= 95% clean, >= 90% at 20 dB, >= 75% at 10 dB; "
            "silently wrong <= 2%; questions <= 0.15 a word clean; answering: sheet >= 99% clean, >= 97% at 20 dB")
    return out.finish(engine=args.engine, model=args.model, words_per_player=per, mics=args.mics)


if __name__ == "__main__":
    sys.exit(main())
