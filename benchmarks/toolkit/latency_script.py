"""benchmarks/latency.py's game: the players, the lines they say and the reply the typed game gives each."""

from __future__ import annotations

from dataclasses import dataclass, field

import numpy as np

from .splits import LIVE_PLAYERS
from .voices import speech_bounds, synth

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
    from voice_host.host.session import Session, new_header
    from voice_host.messages import Said
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
