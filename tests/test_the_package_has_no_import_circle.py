"""No module of voice_host imports, even inside a function, a module that imports it
back: the stages depend one way (docs/ARCHITECTURE.md). A module's own packages are
loaded before it whatever it imports, so they are left out."""

from __future__ import annotations

import ast
import graphlib
from pathlib import Path

PACKAGE = Path(__file__).resolve().parents[1] / "voice_host"


def modules() -> dict[str, Path]:
    out = {}
    for path in PACKAGE.rglob("*.py"):
        parts = list(path.relative_to(PACKAGE.parent).with_suffix("").parts)
        out[".".join(parts[:-1] if parts[-1] == "__init__" else parts)] = path
    return out


def imports(name: str, path: Path, known: set[str]) -> set[str]:
    """The modules of voice_host that ``name`` imports anywhere in it."""
    found = set()
    for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
        if isinstance(node, ast.Import):
            found |= {a.name for a in node.names}
        elif isinstance(node, ast.ImportFrom):
            if node.level:
                base = name.split(".")[: len(name.split(".")) - node.level + (path.name == "__init__.py")]
                origin = ".".join(base + ([node.module] if node.module else []))
            else:
                origin = node.module
            found |= {origin, *(f"{origin}.{a.name}" for a in node.names)}
    return {m for m in found if m in known and m != name and not name.startswith(m + ".")}


def circle(graph: dict[str, set[str]]) -> list[str] | None:
    """A circle of imports in ``graph`` (module -> the modules it imports), if any."""
    try:
        graphlib.TopologicalSorter(graph).prepare()
    except graphlib.CycleError as found:
        return found.args[1]
    return None


def test_no_module_imports_a_module_that_imports_it_back():
    found = modules()
    graph = {name: imports(name, path, set(found)) for name, path in found.items()}
    assert len(graph) > 100 and sum(map(len, graph.values())) > 300
    assert circle(graph) is None


def test_a_circle_would_be_found():
    assert circle({"voice_host.a": {"voice_host.b"}, "voice_host.b": {"voice_host.a"}}) is not None
    assert circle({"voice_host.a": {"voice_host.b"}, "voice_host.b": {"voice_host.c"},
                   "voice_host.c": {"voice_host.a"}}) is not None
    assert circle({"voice_host.a": {"voice_host.b"}, "voice_host.b": set()}) is None
