"""Prolix tiles, bag and board: the value types every Prolix mode shares.

Pure data and rules: no I/O, no clock. Randomness comes only from the seeded
``random.Random`` the bag carries, so a game is reproducible from its seed.
"""

from __future__ import annotations

import random
from collections import Counter
from dataclasses import dataclass, field
from typing import Iterable, Mapping, Sequence

from voice_host.games.errors import Refusal


@dataclass(frozen=True)
class Tile:
    """One letter tile."""

    letter: str
    """Upper-case consonant, e.g. ``"J"``."""
    bonus: int = 0
    """Points added to the column value when this tile is flipped."""
    rare: bool = False
    """Blue or red tiles are rare: at most ``max_rare`` may be on the board."""

    def __str__(self) -> str:
        return self.letter


@dataclass(frozen=True)
class TileSet:
    """A table's tile set and board shape (config/tiles/prolix.toml)."""

    counts: Mapping[str, int]
    """How many tiles of each letter the bag holds."""
    kinds: Mapping[str, Tile]
    """The tile for each letter (bonus and rarity)."""
    columns: tuple[int, ...] = (4, 3, 2, 1)
    """Column values, left to right; new tiles enter the leftmost column."""
    spaces: int = 2
    """Spaces per column."""
    max_rare: int = 2
    """Never more than this many rare tiles on the board at once."""
    max_same: int = 2
    """Never more than this many tiles of one letter on the board at once."""

    @classmethod
    def from_config(cls, cfg: Mapping, *, extra: Mapping[str, Mapping[str, int]] | None = None) -> "TileSet":
        """Build from the parsed TOML of a tiles file (see config/tiles/prolix.toml).

        ``extra`` adds or replaces letters by colour, e.g. Redux's ``{"blue": {"F": 2}}``.
        """
        bonus = cfg.get("bonus", {"plain": 0, "blue": 1, "red": 2})
        counts: dict[str, int] = {}
        kinds: dict[str, Tile] = {}
        groups = {colour: dict(letters) for colour, letters in cfg["tiles"].items()}
        for colour, letters in (extra or {}).items():
            for letter in letters:
                for other in groups.values():
                    other.pop(letter, None)
            groups.setdefault(colour, {}).update(letters)
        for colour, letters in groups.items():
            for letter, n in letters.items():
                letter = letter.upper()
                counts[letter] = int(n)
                kinds[letter] = Tile(letter, int(bonus[colour]), colour != "plain")
        board = cfg.get("board", {})
        return cls(
            counts=counts,
            kinds=kinds,
            columns=tuple(board.get("columns", (4, 3, 2, 1))),
            spaces=int(board.get("spaces_per_column", 2)),
            max_rare=int(board.get("max_rare", 2)),
            max_same=int(board.get("max_same_letter", 2)),
        )

    def tile(self, letter: str) -> Tile:
        """The tile for a letter; a Refusal if the set has no such tile."""
        letter = letter.strip().upper()
        if letter not in self.kinds:
            raise Refusal("no_such_tile", letter=letter)
        return self.kinds[letter]

    def all_tiles(self) -> list[Tile]:
        """Every tile of the set, in a stable order (the bag before shuffling)."""
        return [self.kinds[letter] for letter in sorted(self.counts) for _ in range(self.counts[letter])]


Space = Tile | None
Board = tuple[tuple[Space, ...], ...]
"""columns left to right, each a tuple of spaces top to bottom."""


def empty_board(ts: TileSet) -> Board:
    return tuple((None,) * ts.spaces for _ in ts.columns)


def board_tiles(board: Board) -> list[Tile]:
    return [t for col in board for t in col if t is not None]


def playable(tile: Tile, on_board: Sequence[Tile], ts: TileSet) -> bool:
    """May this tile join the tiles already on the board (rare and same-letter limits)?"""
    if tile.rare and sum(t.rare for t in on_board) >= ts.max_rare:
        return False
    return sum(t.letter == tile.letter for t in on_board) < ts.max_same


def check_board(board: Board, ts: TileSet) -> None:
    """Refuse a board that breaks the limits (table mode, where players place tiles)."""
    tiles = board_tiles(board)
    rare = [t.letter for t in tiles if t.rare]
    if len(rare) > ts.max_rare:
        raise Refusal("too_many_rare", letters=rare, limit=ts.max_rare)
    for letter, n in Counter(t.letter for t in tiles).items():
        if n > ts.max_same:
            raise Refusal("too_many_same", letter=letter, count=n, limit=ts.max_same)


def parse_board(letters: Sequence[str], ts: TileSet) -> Board:
    """A board from letters, leftmost column first, top space before bottom; ``-`` is empty."""
    size = len(ts.columns) * ts.spaces
    if len(letters) != size:
        raise Refusal("board_size", count=len(letters), size=size)
    spaces = [None if x in ("-", "_", ".") else ts.tile(x) for x in letters]
    board = tuple(tuple(spaces[c * ts.spaces:(c + 1) * ts.spaces]) for c in range(len(ts.columns)))
    check_board(board, ts)
    return board


def slide(board: Board, steps: int = 1) -> tuple[Board, list[Tile]]:
    """Move every tile ``steps`` columns right; return the new board and the discards."""
    n = len(board)
    spaces = len(board[0])
    gone = [t for col in board[n - steps:] for t in col if t is not None]
    moved = tuple((None,) * spaces for _ in range(min(steps, n))) + board[: n - steps]
    return moved, gone


def place(board: Board, tiles: Iterable[Tile]) -> Board:
    """Fill the empty spaces with ``tiles``, leftmost column first, top before bottom."""
    cols = [list(col) for col in board]
    pending = list(tiles)
    for col in cols:
        for i, space in enumerate(col):
            if space is None and pending:
                col[i] = pending.pop(0)
    if pending:
        raise Refusal("no_room", count=len(pending))
    return tuple(tuple(col) for col in cols)


def empty_spaces(board: Board) -> int:
    return sum(t is None for col in board for t in col)


@dataclass
class Bag:
    """The cloth bag, the box of discards, and the seeded hand that draws."""

    tiles: list[Tile]
    rng: random.Random
    discards: list[Tile] = field(default_factory=list)

    @classmethod
    def full(cls, ts: TileSet, seed: int | None) -> "Bag":
        return cls(ts.all_tiles(), random.Random(seed))

    def remove(self, tiles: Iterable[Tile]) -> None:
        """Take known tiles out of the bag (they are on the board); ignore ones not in it."""
        for t in tiles:
            if t in self.tiles:
                self.tiles.remove(t)

    def draw_one(self) -> Tile | None:
        if not self.tiles:
            return None
        return self.tiles.pop(self.rng.randrange(len(self.tiles)))

    def draw_playable(self, count: int, on_board: Sequence[Tile], ts: TileSet) -> tuple[list[Tile], list[Tile], bool]:
        """Draw ``count`` playable tiles as the rulebook says.

        Unplayable draws are set aside and go back to the bag once the tiles are placed;
        when the bag holds no playable tile the discards are mixed back in first.
        Returns (drawn, set_aside, refilled). Fewer than ``count`` tiles come back only
        when the whole set holds no playable tile.
        """
        drawn: list[Tile] = []
        aside: list[Tile] = []
        refilled = False
        while len(drawn) < count:
            tile = self.draw_one()
            if tile is None:
                if refilled or not self.discards:
                    break
                self.tiles.extend(self.discards)
                self.discards.clear()
                refilled = True
                continue
            if playable(tile, [*on_board, *drawn], ts):
                drawn.append(tile)
            else:
                aside.append(tile)
        self.tiles.extend(aside)
        return drawn, aside, refilled


@dataclass(frozen=True)
class Flip:
    """One tile flipped by a word."""

    letter: str
    column: int
    """0-based column index, left to right."""
    points: int


def tile_points(board: Board, ts: TileSet) -> list[tuple[str, int, int]]:
    """(letter, points, column) for every tile on the board; points = column value + bonus."""
    return [(t.letter, ts.columns[c] + t.bonus, c) for c, col in enumerate(board) for t in col if t is not None]


def score(word: str, board: Board, ts: TileSet) -> tuple[int, tuple[Flip, ...]]:
    """Score a word: each letter flips at most one matching tile, the best ones first."""
    need = Counter(ch for ch in word.upper() if ch.isalpha())
    flips: list[Flip] = []
    for letter, points, column in sorted(tile_points(board, ts), key=lambda x: -x[1]):
        if need[letter] > 0:
            need[letter] -= 1
            flips.append(Flip(letter, column, points))
    return sum(f.points for f in flips), tuple(flips)
