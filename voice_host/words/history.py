"""No Cheapies: is a word a cheapie of a word already used in the game?"""

from __future__ import annotations

from collections import deque
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from functools import lru_cache

from voice_host.words.morphology import RULE_NAMES, Families, unknown_units

Unit = int | str  # a node of the graph, or the spelling of a lemma the graph lacks
Family = int | tuple[str, str]


@dataclass(frozen=True)
class Conflict:
    """A word that breaks No Cheapies, and the earlier word it breaks it against."""

    word: str
    """The candidate word (lower case)."""
    earlier: str
    """The earlier word it conflicts with, as it was used."""
    player: str
    """Who used the earlier word."""
    rule: str
    """"same", "plural", "tense", "ly", "ing", or "chain" (several different rules)."""
    path: tuple[tuple[str, str], ...]
    """The steps from `word` to `earlier`: each step is (next word, rule that links it
    to the previous one), e.g. begrudged -> (("begrudge", "tense"), ("begrudging", "ing")).
    Empty for "same"."""


class Cheapies:
    """No Cheapies checks over a compiled family graph (read-only, shareable)."""

    def __init__(self, families: Families, n_words: int, index: Mapping[str, int]) -> None:
        """`index` maps every node spelling of `families` to its node id."""
        self._fam = families
        self._n_words = n_words
        self._index = index
        self._root = families.root.tolist()
        self.units = lru_cache(maxsize=8192)(self._units)

    def _units(self, word: str) -> tuple[tuple[Unit, int], ...]:
        """The units `word` belongs to with the rule reaching each (0: itself)."""
        f = self._fam
        i = self._index.get(word)
        if i is not None:
            lo, hi = int(f.lemma_ptr[i]), int(f.lemma_ptr[i + 1])
            return ((i, 0), *zip(f.lemma_ids[lo:hi].tolist(), f.lemma_rule[lo:hi].tolist()))
        known = self._known
        return tuple((self._index.get(u, u), rule) for u, rule in unknown_units(word, known).items())

    def _known(self, word: str) -> bool:
        i = self._index.get(word)
        return i is not None and i < self._n_words

    def _family(self, unit: Unit) -> Family:
        return self._root[unit] if isinstance(unit, int) else ("?", unit)

    def families(self, word: str) -> set[Family]:
        """The families `word` belongs to; two words conflict if theirs intersect."""
        return {self._family(u) for u, _ in self.units(word)}

    def family_ids(self, word: str) -> set[int]:
        """The families of `word` that are part of the compiled graph."""
        return {f for f in self.families(word) if isinstance(f, int)}

    def conflict(self, word: str, used: Sequence[tuple[str, str]]) -> Conflict | None:
        """The earlier word `word` is a cheapie of, or None. Same spelling wins, then a
        direct relation, then a chain; among equals the earliest word played."""
        w = word.strip().lower()
        mine = self.families(w)
        found: list[tuple[int, int, Conflict]] = []
        for order, (earlier, player) in enumerate(used):
            e = earlier.strip().lower()
            if e == w:
                return Conflict(w, earlier, player, "same", ())
            shared = mine & self.families(e)
            if shared:
                path = self._path(w, e, shared)
                rules = {rule for _, rule in path}
                rule = rules.pop() if len(rules) == 1 else "chain"
                found.append((rule == "chain", order, Conflict(w, earlier, player, rule, path)))
        return min(found, key=lambda c: c[:2])[2] if found else None

    def _path(self, word: str, earlier: str, shared: set[Family]) -> tuple[tuple[str, str], ...]:
        """The shortest chain of rules from `word` to `earlier` inside a shared family."""
        starts = {u: r for u, r in self.units(word) if self._family(u) in shared}
        ends = {u: r for u, r in self.units(earlier) if self._family(u) in shared}
        best: list[tuple[str, str]] | None = None
        for start, r0 in starts.items():
            for end, r1 in ends.items():
                if self._family(start) != self._family(end):
                    continue
                middle = self._walk(start, end, self._family(start))
                if middle is None:
                    continue
                steps = ([] if r0 == 0 else [(self._name(start), RULE_NAMES[r0])]) + middle
                steps += [] if r1 == 0 else [(earlier, RULE_NAMES[r1])]
                if best is None or len(steps) < len(best):
                    best = steps
        return tuple(best or ())

    def _name(self, unit: Unit) -> str:
        return self._fam.nodes[unit] if isinstance(unit, int) else unit

    def _walk(self, start: Unit, end: Unit, family: Family) -> list[tuple[str, str]] | None:
        """Breadth-first path from unit `start` to unit `end` through edges that touch
        `family`, as [(node, rule)] steps after `start`."""
        if start == end:
            return []
        if not isinstance(start, int) or not isinstance(end, int):
            return None
        f, root = self._fam, self._root
        back: dict[int, tuple[int, int]] = {start: (start, 0)}
        queue = deque([start])
        while queue:
            x = queue.popleft()
            for k in range(int(f.adj_ptr[x]), int(f.adj_ptr[x + 1])):
                y = int(f.adj_ids[k])
                if y in back or (root[x] != family and root[y] != family):
                    continue
                back[y] = (x, int(f.adj_rule[k]))
                if y == end:
                    steps = []
                    while y != start:
                        x, rule = back[y]
                        steps.append((f.nodes[y], RULE_NAMES[rule]))
                        y = x
                    return steps[::-1]
                queue.append(y)
        return None
