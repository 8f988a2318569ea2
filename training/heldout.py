"""The words the benchmarks and the tests use: never in a training set.

Each benchmark picks its words with its own seeded function; they are called here
with the sizes the benchmarks run (full and --quick), and every lower-case word in a
string of the benchmarks (benchmarks/, their toolkit) and of the tests (tests/, every
folder) is added as well (their fixed lists: names, phrases, chatter, test words). With ``games=True`` the words chosen on the
boards of benchmarks/board_words.py and benchmarks/table.py are added too (the games
are played as typed to choose them: slower, so cached in the user cache by the files'
hash). A new benchmark adds its picker to :data:`PICKERS`.
"""

from __future__ import annotations

import ast
import hashlib
import importlib.util
import json
import re
from pathlib import Path

from . import BENCHMARKS

ROOT = Path(__file__).resolve().parents[1]
PICKERS = (("recognition", "pick_words", (80, 320)), ("speech", "game_words", (60, 300)))
"""(benchmark module, function, sizes): each called as function(n)."""
_WORD = re.compile(r"[a-z][a-z'\-]*")


def _bench(name: str):
    """The module of benchmarks/NAME.py (its ``toolkit``: the one the package loaded)."""
    path = BENCHMARKS / f"{name}.py"
    spec = importlib.util.spec_from_file_location(f"_adapt_bench_{name}", path)
    mod = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(mod)
    return mod


def literal_words(paths=None) -> set[str]:
    """Every lower-case word in the string literals of the benchmarks and the tests."""
    paths = paths or [*sorted(BENCHMARKS.rglob("*.py")), *sorted((ROOT / "tests").rglob("*.py"))]
    out: set[str] = set()
    for p in paths:
        for node in ast.walk(ast.parse(Path(p).read_text())):
            if isinstance(node, ast.Constant) and isinstance(node.value, str):
                out.update(w.strip("'-") for w in _WORD.findall(node.value.lower()))
    return {w for w in out if w}


def picked_words() -> set[str]:
    out: set[str] = set()
    for name, fn, sizes in PICKERS:
        f = getattr(_bench(name), fn)
        for n in sizes:
            out.update(f(n))
    return out


def game_words() -> set[str]:
    """The words played on the boards of board_words.py and table.py (cached)."""
    from voice_host.speech.recognizing.moonshine.convert import cache_root
    from voice_host.words import Words

    files = [BENCHMARKS / "board_words.py", BENCHMARKS / "table.py"]
    key = hashlib.sha256(b"".join(p.read_bytes() for p in files)).hexdigest()[:16]
    cache = cache_root() / "adapt" / f"game-words-{key}.json"
    if cache.is_file():
        return set(json.loads(cache.read_text()))
    words = Words.load()
    out = {r["word"] for r in _bench("board_words").plan(60, words)}
    for turns in _bench("table").plans(20).values():
        out.update(t.word for t in turns)
        out.update(w for t in turns for w in t.same)
    cache.parent.mkdir(parents=True, exist_ok=True)
    cache.write_text(json.dumps(sorted(out)))
    return out


def benchmark_words(games: bool = False) -> set[str]:
    """Every word a benchmark or a test may say (lower case)."""
    out = picked_words() | literal_words()
    if games:
        out |= game_words()
    return out
