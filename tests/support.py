"""Test helpers shared by every test folder: import them as ``from support import ...``.

(pytest imports each folder's conftest.py under the same module name, so helpers that
tests import by name live here, not in a conftest.)
"""

from __future__ import annotations

import os
import shutil
import signal
import subprocess
import sys
import textwrap
import time
from dataclasses import dataclass
from pathlib import Path

import numpy as np
import pytest

ROOT = Path(__file__).resolve().parent.parent


def voice_host(*args: str, stdin: str | None = None, timeout: float = 120) -> subprocess.CompletedProcess:
    """Run ``voice-host ARGS`` as a user would, from the repository root."""
    return subprocess.run(
        [sys.executable, "-m", "voice_host.cli", *args],
        cwd=ROOT, input=stdin, capture_output=True, text=True, timeout=timeout,
    )


IN_CI = os.environ.get("CI", "").lower() == "true"


def ctrl_c_reaches_it() -> None:
    """In a child about to run the host: Ctrl-C stops it as at a terminal. A runner
    started in the background (``nohup ... &``) ignores SIGINT, and its children would
    inherit that: the host would never hear the Ctrl-C a test sends."""
    signal.signal(signal.SIGINT, signal.SIG_DFL)


def need(ok: object, why: str) -> None:
    """Skip a test (on a developer's machine) or fail it (in CI, CI=true) unless ``ok``."""
    if not ok:
        if IN_CI:
            pytest.fail(f"required in CI: {why}", pytrace=False)
        pytest.skip(why)


def by_name(result: dict) -> dict:
    return {p["name"]: p for p in result["players"]}


class Table:
    """A Prolix session driven by script lines, in process: ``table("Ann: jewelers")``.

    Returns the sentences the host said for those lines. Words waiting for the tie
    window are scored at the end of each call, as at the end of a script.
    """

    def __init__(self, words, players="Ann,Ben,Cat", *, seed=1, board="W B J S L C D G", start="Ann",
                 game="prolix-classic", sections: dict | None = None, watch=(), **table):
        """``table``: [table] settings; ``sections``: other config sections, {"prolix": {...}};
        ``watch``: the session's watchers (a scoreboard)."""
        from voice_host import config
        from voice_host.host.session import Session, new_header

        cfg = config.load(overrides={"table": table, **(sections or {})})
        self.heard: list[str] = []
        self.session = Session(new_header(game, players.split(","), seed, cfg), words, self.heard.append,
                               watch=watch)
        setup = []
        if start:
            setup.append(f"@start {start}")
        if board:
            setup.append(f"@board {board}")
        if setup:  # otherwise the game begins with the first line played
            self("\n".join(setup))

    @property
    def game(self):
        return self.session.game

    @property
    def state(self):
        return self.session.game.state

    def __call__(self, script: str, *, heard: bool = False) -> list[str]:
        """``heard``: the lines come as the speech layer gives them (a transcript heard),
        not typed."""
        from dataclasses import replace

        from voice_host.app import run_records
        from voice_host.host.script import parse_script
        from voice_host.messages import Said

        before = len(self.heard)
        records = parse_script(textwrap.dedent(script), self.session.t)
        if heard:
            records = [replace(r, heard=r.text) if isinstance(r, Said) else r for r in records]
        run_records(self.session, records)
        return self.heard[before:]

    def total(self, name: str) -> int:
        return self.game.totals(name)[0]


class Core:
    """A game driven at the core's contract, ``game.step(action) -> events``: no phrases,
    no sentences. ``core(A.PlayWord, "Ann", "jewelers")`` steps the action at the game
    clock (``dt`` seconds after the last one) and, as at the end of a script line, lets
    the words waiting for the tie window be scored (``settle=False``: what waits on the
    clock waits for ``wait``); returns the events.

    Table mode on the jewelers board with Ann to start unless told otherwise:

        W+1 (5)  B (4) | J+2 (5)  S (3) | L (2)  C (2) | D (1)  G (1)
    """

    def __init__(self, words, game="prolix-classic", players="Ann,Ben,Cat", *, seed=1,
                 board="W B J S L C D G", start="Ann", settle=True, sections: dict | None = None, **options):
        """``options``: the game's table settings; ``sections``: other config sections, {"prolix": {...}}."""
        from voice_host import config
        from voice_host.games import actions as A
        from voice_host.games.base import REGISTRY, Setup
        from voice_host.games.prolix import actions as P

        section = "table" if game.startswith("prolix") else game.split("-")[0]
        cfg = config.load(overrides={**({section: options} if options else {}), **(sections or {})} or None)
        self.game = REGISTRY[game].create(Setup(tuple(players.split(",")), seed), cfg, words)
        self.t, self.settle = 0.0, settle
        self.setup = [e for e in ([self(A.SetStart, start)] if start else []) for e in e]
        self.setup += [e for e in ([self(P.SetBoard, tuple(board.split()))] if board else []) for e in e]
        self.begun = self(A.Begin)

    @property
    def state(self):
        return self.game.state

    def total(self, name: str) -> int:
        return self.game.totals(name)[0]

    def __call__(self, action, *args, dt: float = 0.0, **kw) -> list:
        from voice_host.games.actions import Tick

        self.t += dt
        events = self.game.step(action(self.t, *args, **kw))
        while self.settle and (settles := self.game.settles_at()) is not None and settles > self.t:
            self.t = settles  # the tie window, then the last word's challenge window
            events += self.game.step(Tick(self.t))
        return events

    def wait(self, seconds: float) -> list:
        from voice_host.games.actions import Tick

        self.t += seconds
        return self.game.step(Tick(self.t))


@dataclass
class Heard:
    """An utterance as the speech layer gives it to the host's hearing."""

    start: float
    text: str
    speaker: str | None = "Ann"
    speaker_confidence: float = 0.95
    ask: bool = False
    speaker_method: str | None = None
    audio: np.ndarray | None = None
    confidence: float = 1.0
    constrained: bool = False
    alternatives: tuple = ()
    room: float | None = None
    opinion: object | None = None
    barged: bool = False
    drowned: bool = False

    @property
    def end(self) -> float:
        return self.start + 0.8

    @property
    def body(self) -> str:
        return self.text


def said(t, hearing, *utterances) -> list[str]:
    """What the host said for these utterances (a host.hearing.Hearing on Table `t`),
    the clock then run past the tie window."""
    before = len(t.heard)
    for u in utterances:
        hearing.hear(u)
    hearing.tick(utterances[-1].start + 1)
    return t.heard[before:]


def unsure(start, text, alternatives=(), confidence=0.55, speaker="Ann") -> Heard:
    """A constrained recognizer's utterance it was unsure of: ``alternatives`` its n-best,
    best first."""
    return Heard(start, text, speaker, confidence=confidence, constrained=True,
                 alternatives=[(a, -float(i)) for i, a in enumerate(alternatives)])


def spoke(*spans):
    """A host's voice that spoke over these (start, end) spans of the game clock."""
    return lambda since, until: sum(max(0.0, min(e, until) - max(s, since)) for s, e in spans)


def rms(x: np.ndarray) -> float:
    """The root mean square of ``x`` (0 for no samples)."""
    return float(np.sqrt(np.mean(np.square(x, dtype=np.float64)))) if x.size else 0.0


def pcm(seconds: float, rate: int, tone: float = 440.0) -> bytes:
    """``seconds`` of a tone at ``rate``, as a phone sends its audio: 16-bit little-endian PCM."""
    t = np.arange(int(seconds * rate)) / rate
    return (0.5 * np.sin(2 * np.pi * tone * t) * 32767).astype("<i2").tobytes()


def wait_for(condition, what: str, patience: float):
    """Poll ``condition()`` until it is truthy (returned), failing after ``patience``
    seconds: a condition a loaded machine may take a while to reach, never a timing."""
    deadline = time.monotonic() + patience
    last = None
    while time.monotonic() < deadline:
        last = condition()
        if last:
            return last
        time.sleep(0.05)
    pytest.fail(f"waited {patience:.0f} s for {what}; last saw {last!r}")


def print_server_log(display) -> None:
    """What the web server logged (its troubles, one line a kind), printed: pytest shows
    it beside a failed test's traceback, with this process's threads and open files."""
    import threading

    log = display.server.log
    text = log.read_text() if log.exists() else ""
    if text.strip():
        print("the server's log:\n" + text)
    fds = len(os.listdir("/proc/self/fd")) if os.path.isdir("/proc/self/fd") else -1
    print(f"threads: {[t.name for t in threading.enumerate()]}; open files: {fds}")


CHROMIUM = shutil.which("chromium") or shutil.which("chromium-browser")
"""Debian's chromium, for the tests that open the host's pages in a real browser."""


def chromium(*args: str, insecure: bool = False):
    """A headless Chromium driven by selenium through Debian's chromium-driver, with the
    extra command-line ``args`` (``insecure``: the host's self-signed certificate taken);
    skipped on a developer's machine without them, a failure in CI."""
    driver_path = shutil.which("chromedriver")
    need(CHROMIUM and driver_path, "a real-browser test needs Debian's chromium and chromium-driver "
                                   "(apt-get install chromium chromium-driver; bash .ci/setup test installs them)")
    try:
        from selenium import webdriver
        from selenium.webdriver.chrome.service import Service
    except ImportError:
        need(False, "a real-browser test needs selenium (bash .ci/setup test installs it)")
    options = webdriver.ChromeOptions()
    options.binary_location = CHROMIUM
    options.accept_insecure_certs = insecure
    for arg in ("--headless=new", "--no-sandbox", "--disable-gpu", "--disable-dev-shm-usage", "--no-first-run",
                "--disable-extensions", *args):
        options.add_argument(arg)
    return webdriver.Chrome(options=options, service=Service(driver_path))


LIBRIVOX = Path("/usr/share/pocketsphinx/test/data/librivox")
"""Real people reading aloud (Debian's pocketsphinx-testdata): the talk of a room."""


def room_talk(seconds: float, seed: int) -> np.ndarray:
    """Real people reading aloud, one recording after another (LibriVox), at speech level 1."""
    need(LIBRIVOX.is_dir(), "Debian's pocketsphinx-testdata (real recorded speech) is not installed")
    from voice_host.speech.audio import SAMPLE_RATE, read_wav, speech_level

    clips = [read_wav(p)[:, 0] for p in sorted(LIBRIVOX.glob("*.wav"))]
    order = np.random.default_rng(seed).permutation(len(clips))
    track = np.concatenate([clips[i] / 10 ** (speech_level(clips[i]) / 20) for i in order])
    track = np.resize(track, int(seconds * SAMPLE_RATE))
    return track.astype(np.float32)
