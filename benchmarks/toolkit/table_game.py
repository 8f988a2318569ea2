"""benchmarks/table.py's game: the words chosen on the board, the recording said at the table, its conditions."""

from __future__ import annotations

from itertools import cycle
from pathlib import Path
from typing import NamedTuple

import numpy as np

from voice_host.speech.audio import SAMPLE_RATE

from . import rooms
from .splits import TABLE_PLAYERS as SPLITS
from .voices import add_noise, place, say, speech_bounds

OPENING = "I am {name}, and I am ready to play."
GAP = 2.5
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
    from voice_host.host.session import Session, new_header
    from voice_host.messages import Said
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
    order = cycle(rng.permutation(len(paths)))  # round and round
    track = rooms.one_after_another(int(duration * SAMPLE_RATE), lambda: rooms.load(paths[next(order)]), rng,
                                    pause=(0.3, 1.5))
    return track * players_level / 10 ** (below / 20)


def in_condition(audio: np.ndarray, players: np.ndarray, condition, room) -> np.ndarray:
    """The recording in a condition: pink noise at an SNR (a number) under the players'
    speech level, or a room (its name; seeded as the pink noise is)."""
    if isinstance(condition, float):
        return add_noise(audio, condition, seed=3, reference=players)
    return room.apply(audio, players, condition, 3)
