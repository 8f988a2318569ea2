"""benchmarks/table.py's runs: the host built for a run, heard recorded or live, the table that answers, the score."""

from __future__ import annotations

import time

import numpy as np

from voice_host.speech.audio import SAMPLE_RATE
from voice_host.speech.listening.sources import ArraySource

from .table_conversation import SPELL_IT, UNCAUGHT, WORTHLESS, Conversation, Reply, _answer_for, spelled
from .table_game import ROUNDS, Turn, _script, in_condition
from .voices import place, say

TRACE: list[bool] = []
SPEECH: dict = {}
"""[speech] settings given on the command line (--background-below)."""


class HostLines(list):
    """What the host said, in order, and how many inputs the game had had by each line
    (``inputs``): which of its words a later input could have heard back."""

    def __init__(self) -> None:
        super().__init__()
        self.inputs: list[int] = []

    def words_before(self, record: int) -> set[str]:
        """The words of the lines said before input ``record`` was fed."""
        from voice_host.host.intents import normalize

        return {w for line, n in zip(self, self.inputs) if n <= record for w in normalize(line).split()}


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
    said = HostLines()
    asked: list[list] = []

    def out(sentence: str) -> None:
        if sentence.startswith("Game over") and not over:
            over.append(s.t)  # words said after it are not plays: they are not counted
        said.append(sentence)
        said.inputs.append(len(s.records))
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
    from voice_host.messages import Said

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
        worthless = WORTHLESS.match(sentence)
        if worthless:  # "Ann, interrupt with dig for 0 points? Say yes or no.": yes, if it was her word
            r = next((r for r in reversed(s.records) if isinstance(r, Said) and r.speaker == worthless.group(1)), None)
            label = about(r.t) if r is not None else None
            if label and ("w", r.t) not in asked:
                asked.add(("w", r.t))
                reply(label, "Yes." if worthless.group(2) in same.get(label[1], {label[1]}) else "No.")
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
    from voice_host.messages import Said

    fed = [(i, r) for i, r in enumerate(s.records) if isinstance(r, Said) and i not in s.history.undone and r.text != "undo"]
    if TRACE:
        for i, r in enumerate(s.records):
            print(f"      record {i}: {r}{'  (undone)' if i in s.history.undone else ''}")
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
        wrong = r is not None and not (got_w and got_p) and i not in s.history.refusals and (r.speaker, heard) in scored
        silent += wrong and not about
        if not (got_w and got_p):
            mark = {"weak": "*", "interrupt": "!"}.get(kinds.get((name, w)), "")
            how = ("SILENT " if wrong and not about else "") + (f"{r.speaker}:{r.text}" if r else "nothing")
            misses.append(f"{mark}{name}:{w}->{how}")
    n = len(truth)
    costs = [q[1] - q[0] for q in questions if q[1] is not None]
    put_right = [Conversation.PAUSE + e - st for st, e, _, correction in replies if correction]
    said_at = [(st, e) for st, e, *_ in truth] + [(st, e) for st, e, *_ in replies]
    strays = [(i, r) for i, r in fed if i not in s.history.refusals and r.t < end
              and not any(st - 0.5 <= r.t <= e + 0.5 for st, e in said_at)]
    own = sum(1 for i, r in strays if isinstance(said, HostLines) and r.text.split()  # the host's words, played
              and r.text.split()[-1] in said.words_before(i))
    return {"n": n, "stray": len(strays), "own": own, "words": word / n, "attribution": who / n, "sheet": both / n, "first": first / n,
            "silent": silent / n, "questions": len(questions), "per_word": len(questions) / n,
            "cost": float(np.mean(costs)) if costs else 0.0, "lost": float(np.sum(costs) + np.sum(put_right)) / n,
            "corrections": sum(x.startswith("Sorry, ") for x in said) / n, "rtf": wall / seconds, "misses": misses}
