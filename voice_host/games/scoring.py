"""Final standings every game shares: most points wins, ties broken word by word."""

from __future__ import annotations

from collections.abc import Callable, Iterable

from voice_host.games import events as E


def ranking(players: Iterable[str], total: Callable[[str], int], values: Callable[[str], list[int]],
            ) -> tuple[tuple[E.Standing, ...], tuple[str, ...], str | None]:
    """Standings best first, the winners, and how a tie was broken.

    Most points wins; a tie goes to the best single word, then the second best, and so
    on (``values(player)``: word values, best first; games without that tiebreak give
    ``[]``); if it persists the victory is shared. Returns (standings, winners,
    None | "best_word" | "shared" | "tie"); "tie": shared with no words to compare.
    """
    table = tuple(sorted((E.Standing(p, total(p)) for p in players), key=lambda r: (r.total, values(r.player)),
                         reverse=True))
    tied = [r.player for r in table if r.total == table[0].total]
    if len(tied) == 1:
        return table, tuple(tied), None
    best = max(values(p) for p in tied)
    if not best:
        return table, tuple(tied), "tie"
    winners = tuple(p for p in tied if values(p) == best)
    return table, winners, "best_word" if len(winners) == 1 else "shared"
