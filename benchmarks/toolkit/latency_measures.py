"""benchmarks/latency.py's measures: a run, each utterance's wait cut into its parts, and the report."""

from __future__ import annotations

import statistics
from dataclasses import dataclass, field

import numpy as np

from .latency_script import KINDS, Line
from .latency_timing import Log


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

    def unsaid(self) -> int:
        """Words on the sheets that nobody said (the host's own, heard back: a misheard echo)."""
        said = {x.text.split(", ")[-1] for x in self.lines if x.kind in ("one-word", "name-word")}
        return sum(word not in said for words in self.sheets.values() for word in words)


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
    print(f"  words on their player's sheet at the end: {own} of {said}; on another player's: {other}; "
          f"nobody's: {r.unsaid()}")
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
    echoed = {name: [m for m in group if not m.cold] for name, group in results.items() if " echo " in name}
    more = "".join(f"; {name}: one-word {p95([m for m in group if m.line.kind == 'one-word'])} ms, "
                   f"other {p95([m for m in group if m.line.kind != 'one-word'])} ms" for name, group in echoed.items())
    return (f"{'answer' if answer else 'latency'} p95: one-word "
            f"{p95([m for m in idle if m.line.kind == 'one-word'])} ms, "
            f"other {p95([m for m in idle if m.line.kind != 'one-word'])} ms, loaded {p95(loaded)} ms" + more)
