"""Connect-4 on any board: the rules as a :class:`~menace_lib.games.game.Game`, and a fast builder.

Two players drop stones into the columns of a ``width`` × ``height`` board; a stone falls
to the lowest empty cell of its column. The first to make ``line`` stones in a row
(across, up or diagonally) wins; a full board with no line is a draw. The symmetry group
is {identity, left-right mirror}.

Two ways to the same tables
---------------------------
:class:`ConnectFour` states the rules one move at a time, for the generic enumerator
(:func:`~menace_lib.games.game.enumerate_game`) and for play. Boards with millions of positions
(5×4 has 3,945,711) would take the generic enumerator minutes, so :func:`build_tables`
builds the same :class:`~menace_lib.games.game.Tables` a whole ply at a time on NumPy arrays of
bitboards. ``tests/test_connect4.py`` checks the two array for array on small boards.

Bitboards
---------
Column ``c`` owns bits ``c * (height + 1) .. c * (height + 1) + height``; bit
``c * (height + 1) + r`` is the cell ``r`` rows above the bottom, and the top bit of each
column is a sentinel that stays empty, so shifting a board never carries a line from one
column into the next. A position is two bitboards: the first player's stones and the
occupied cells (``mask``). Its code is ``first + mask + bottom`` (``bottom`` has the
lowest bit of every column): in each column, ``mask + bottom`` is a single bit just above
the top stone and the first player's stones lie below it, so the code is unique and fits
in ``width * (height + 1)`` bits (49 on the standard 7×6 board).

Cells
-----
For pictures and tables a position is read row by row from the top, ``width`` cells a
row, holding ``0`` (empty), ``1`` (first player) or ``2`` (second player). A move is a
column, ``0 .. width - 1`` (readers see columns 1 .. width).
"""

from __future__ import annotations

import io
import os
from collections.abc import Callable, Iterator
from functools import cache, cached_property
from pathlib import Path

import numpy as np

from .. import __version__
from ..base.files import write_bytes
from .game import DRAW, FIRST, FIRST_WIN, ONGOING, SECOND, SECOND_WIN, CodeIndex, Tables

Position = tuple[int, ...]
Keep = Callable[[int, np.ndarray, np.ndarray], np.ndarray]
"""``keep(ply, codes, kids) -> kids``: the moves a pruned game follows (see :func:`layers`)."""
MAX_BITS = 62
"""Codes must fit in a signed 64-bit integer: ``width * (height + 1) <= 62``."""


class ConnectFour:
    """Connect-4 on a ``width`` × ``height`` board, ``line`` in a row to win.

    Parameters
    ----------
    width, height
        Board size, each from 1 to 15, with ``width * (height + 1) <= 62``.
    line
        Stones in a row that win, from 2 to ``max(width, height)``.

    Examples
    --------
    >>> g = ConnectFour(4, 4)
    >>> g.name, g.legal_moves(g.start())
    ('connect4:4x4', [0, 1, 2, 3])
    """

    n_symmetries = 2
    symbols = ".XO"  # the first player's stones spell X, as in noughts and crosses

    def __init__(self, width: int = 7, height: int = 6, line: int = 4) -> None:
        for label, v in (("width", width), ("height", height)):
            if isinstance(v, bool) or not isinstance(v, int) or not 1 <= v <= 15:
                raise ValueError(f"Connect-4 {label} {v!r}: expected an integer from 1 to 15")
        if width * (height + 1) > MAX_BITS:
            raise ValueError(
                f"Connect-4 board {width}x{height}: needs {width * (height + 1)} bits, "
                f"at most {MAX_BITS}"
            )
        if (
            isinstance(line, bool)
            or not isinstance(line, int)
            or not 2 <= line <= max(width, height)
        ):
            raise ValueError(f"Connect-4 line {line!r}: expected 2 to {max(width, height)}")
        self.width, self.height, self.line = width, height, line
        self.n_moves = width
        self.n_cells = width * height
        self.shape = (height, width)
        self.n_codes = 1 << (width * (height + 1))
        suffix = "" if line == 4 else f"/{line}"
        self.name = f"connect4:{width}x{height}{suffix}"
        self._lines = _lines(width, height, line)

    def __repr__(self) -> str:
        return f"ConnectFour({self.width}, {self.height}, {self.line})"

    def build_tables(self) -> Tables:
        """The whole game's tables: bitboards a ply at a time, cached on disk
        (:func:`cached_tables`)."""
        return cached_tables(self)

    # --- rules -----------------------------------------------------------------

    def start(self) -> Position:
        return (0,) * self.n_cells

    def to_move(self, position: Position) -> int:
        stones = sum(1 for v in position if v)
        return FIRST if stones % 2 == 0 else SECOND

    def legal_moves(self, position: Position) -> list[int]:
        return [c for c in range(self.width) if position[c] == 0]

    def play(self, position: Position, move: int) -> Position:
        w = self.width
        for row in range(self.height - 1, -1, -1):
            if position[row * w + move] == 0:
                cells = list(position)
                cells[row * w + move] = self.to_move(position)
                return tuple(cells)
        raise ValueError(f"column {move + 1} is full")

    def result(self, position: Position) -> int:
        for cells in self._lines:
            v = position[cells[0]]
            if v and all(position[c] == v for c in cells):
                return FIRST_WIN if v == FIRST else SECOND_WIN
        return DRAW if all(position) else ONGOING

    # --- symmetry and encoding -------------------------------------------------------

    def transform(self, g: int, position: Position) -> Position:
        if g == 0:
            return tuple(position)
        w = self.width
        return tuple(position[r * w + (w - 1 - c)] for r in range(self.height) for c in range(w))

    def transform_move(self, g: int, move: int) -> int:
        return move if g == 0 else self.width - 1 - move

    def encode(self, position: Position) -> int:
        h1 = self.height + 1
        code = 0
        for c in range(self.width):
            k = 0
            for r in range(self.height):  # r rows above the bottom
                v = position[(self.height - 1 - r) * self.width + c]
                if not v:
                    break
                if v == FIRST:
                    code |= 1 << (c * h1 + r)
                k += 1
            code += 1 << (c * h1 + k)
        return code

    def decode(self, code: int) -> Position:
        h1, w = self.height + 1, self.width
        cells = [0] * self.n_cells
        for c in range(w):
            col = (code >> (c * h1)) & ((1 << h1) - 1)
            k = col.bit_length() - 1
            for r in range(k):
                cells[(self.height - 1 - r) * w + c] = FIRST if (col >> r) & 1 else SECOND
        return tuple(cells)

    def canonical_key(self, position: Position) -> int:
        return self.encode(position)

    def cells(self, position: Position) -> tuple[int, ...]:
        return tuple(position)


def _lines(width: int, height: int, line: int) -> list[tuple[int, ...]]:
    """Every run of ``line`` cells in a row, as cell indices (row-major from the top)."""
    out = []
    for r in range(height):
        for c in range(width):
            for dr, dc in ((0, 1), (1, 0), (1, 1), (1, -1)):
                end_r, end_c = r + dr * (line - 1), c + dc * (line - 1)
                if 0 <= end_r < height and 0 <= end_c < width:
                    out.append(tuple((r + dr * k) * width + c + dc * k for k in range(line)))
    return out


# --- bitboards, a whole ply at a time ---------------------------------------------------


class Bitboards:
    """Masks and shifts of one board size, for vectorised moves and line tests."""

    def __init__(self, game: ConnectFour) -> None:
        w, h, h1 = game.width, game.height, game.height + 1
        self.game = game
        self.bottom_of = np.array([1 << (c * h1) for c in range(w)], dtype=np.int64)
        self.top_of = np.array([1 << (c * h1 + h - 1) for c in range(w)], dtype=np.int64)
        self.column_of = np.array([((1 << h) - 1) << (c * h1) for c in range(w)], dtype=np.int64)
        self.bottom = int(self.bottom_of.sum())
        # vertical, horizontal and the two diagonals: neighbours are 1, h+1, h and h+2 bits apart
        self.shifts = (1, h1, h, h + 2)

    def has_line(self, stones: np.ndarray) -> np.ndarray:
        """Whether each bitboard holds ``line`` stones in a row."""
        found = np.zeros(stones.shape, dtype=bool)
        for s in self.shifts:
            run = stones.copy()
            for k in range(1, self.game.line):
                run &= stones >> (k * s)
            found |= run != 0
        return found

    def code(self, first: np.ndarray, mask: np.ndarray) -> np.ndarray:
        return first + mask + self.bottom

    def split(self, codes: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
        """``(first, mask)`` of each code (the inverse of :meth:`code`)."""
        h1 = self.game.height + 1
        below = self._below_top  # a column's code -> its stones (below the sentinel)
        mask = np.zeros_like(codes)
        for c in range(self.game.width):
            col = (codes >> (c * h1)) & ((1 << h1) - 1)
            mask |= below[col] << (c * h1)
        return codes - mask - self.bottom, mask

    @cached_property
    def _below_top(self) -> np.ndarray:
        """For each column code (``height + 1`` bits, its sentinel the highest set bit), the
        bits below the sentinel: a lookup of at most 2^16 entries instead of a bit search."""
        col = np.arange(1 << (self.game.height + 1), dtype=np.int64)
        out = (np.int64(1) << _highest_bit(np.maximum(col, 1))) - 1
        out[0] = 0
        return out

    def mirror(self, bits: np.ndarray) -> np.ndarray:
        """Each bitboard mirrored left to right."""
        h1, w = self.game.height + 1, self.game.width
        out = np.zeros_like(bits)
        for c in range(w):
            col = (bits >> (c * h1)) & ((1 << h1) - 1)
            out |= col << ((w - 1 - c) * h1)
        return out

    def cells(self, first: np.ndarray, mask: np.ndarray) -> np.ndarray:
        """(N, width * height) int8 cells, row by row from the top."""
        g = self.game
        out = np.zeros((len(first), g.n_cells), dtype=np.int8)
        for r in range(g.height):
            for c in range(g.width):
                bit = np.int64(1) << (c * (g.height + 1) + r)
                cell = (g.height - 1 - r) * g.width + c
                occupied = (mask & bit) != 0
                out[:, cell] = np.where(occupied, np.where((first & bit) != 0, 1, 2), 0)
        return out


def _highest_bit(x: np.ndarray) -> np.ndarray:
    """Index of the highest set bit of each positive int64 (exact: no float log)."""
    out = np.zeros(x.shape, dtype=np.int64)
    rest = x.copy()
    for step in (32, 16, 8, 4, 2, 1):
        big = rest >= (np.int64(1) << step)
        out += np.where(big, step, 0)
        rest = np.where(big, rest >> step, rest)
    return out


def _children(bb: Bitboards, first: np.ndarray, mask: np.ndarray, mover_first: bool):
    """Codes of every child of each position, ``-1`` where the column is full."""
    n, w = len(first), bb.game.width
    out = np.full((n, w), -1, dtype=np.int64)
    for c in range(w):
        legal = (mask & bb.top_of[c]) == 0
        new_mask = mask | (mask + bb.bottom_of[c])
        new_first = first | (new_mask ^ mask) if mover_first else first
        out[:, c] = np.where(legal, bb.code(new_first, new_mask), -1)
    return out


def _outcomes(bb: Bitboards, first: np.ndarray, mask: np.ndarray, ply: int) -> np.ndarray:
    """Result of each position of one ply (the side that just moved may have a line)."""
    g = bb.game
    if ply == 0:
        return np.full(len(first), ONGOING, dtype=np.int8)
    just_moved_first = ply % 2 == 1
    stones = first if just_moved_first else mask ^ first
    won = bb.has_line(stones)
    out = np.full(len(first), ONGOING, dtype=np.int8)
    if ply == g.n_cells:
        out[:] = DRAW
    out[won] = FIRST_WIN if just_moved_first else SECOND_WIN
    return out


def layers(
    game: ConnectFour, max_pieces: int | None = None, keep: Keep | None = None
) -> Iterator[tuple[np.ndarray, np.ndarray]]:
    """Positions by number of pieces: ``(codes, outcomes)`` for ply 0, 1, ..., sorted by code.

    Every position reachable in play is counted once, terminal positions included
    (they have no children). ``max_pieces`` stops early: the standard board's first
    plies can be counted although the whole board cannot. ``keep(ply, codes, kids)``
    prunes moves: it gets a ply's live codes and their child codes (``-1`` for a full
    column) and returns the child codes to follow (``-1`` elsewhere), for a game in
    which one side plays only some of its moves (:func:`build_tables`).
    """
    bb = Bitboards(game)
    codes = np.array([bb.bottom], dtype=np.int64)
    last = game.n_cells if max_pieces is None else min(max_pieces, game.n_cells)
    for ply in range(last + 1):
        first, mask = bb.split(codes)
        outcome = _outcomes(bb, first, mask, ply)
        yield codes, outcome
        if ply == last:
            return
        live = outcome == ONGOING
        kids = _children(bb, first[live], mask[live], ply % 2 == 0)
        if keep is not None:
            kids = keep(ply, codes[live], kids)
        codes = _sorted_distinct(kids[kids >= 0])


def _sorted_distinct(values: np.ndarray) -> np.ndarray:
    """``np.unique(values)`` by a sort: NumPy's hash-based unique is several times slower
    on the tens of millions of child codes of a ply."""
    values = np.sort(values)
    if len(values):
        keep = np.empty(len(values), dtype=bool)
        keep[0] = True
        np.not_equal(values[1:], values[:-1], out=keep[1:])
        values = values[keep]
    return values


def positions_by_pieces(game: ConnectFour, max_pieces: int) -> list[int]:
    """How many positions have 0, 1, ..., ``max_pieces`` stones (OEIS A212693 for 7×6)."""
    return [len(codes) for codes, _ in layers(game, max_pieces)]


def build_tables(game: ConnectFour, keep: Keep | None = None) -> Tables:
    """The whole game as :class:`~menace_lib.games.game.Tables`, a ply at a time.

    Equal, array for array, to ``enumerate_game(game)`` (ids by ply, then code).
    ``keep`` (see :func:`layers`) prunes moves: the tables then hold only the positions
    the remaining moves reach, and a pruned move is illegal in them.
    """
    bb = Bitboards(game)
    plies = list(layers(game, keep=keep))
    codes = np.concatenate([c for c, _ in plies])
    outcome = np.concatenate([o for _, o in plies])
    ply = np.concatenate([np.full(len(c), d, dtype=np.int8) for d, (c, _) in enumerate(plies)])
    offsets = np.cumsum([0] + [len(c) for c, _ in plies])
    first, mask = bb.split(codes)
    player = np.where(ply % 2 == 0, FIRST, SECOND).astype(np.int8)
    succ = np.full((len(codes), game.width), -1, dtype=np.int32)
    for d in range(len(plies) - 1):
        lo, hi = offsets[d], offsets[d + 1]
        live = np.flatnonzero(outcome[lo:hi] == ONGOING) + lo
        kids = _children(bb, first[live], mask[live], d % 2 == 0)
        if keep is not None:
            kids = keep(d, codes[live], kids)
        nxt = plies[d + 1][0]
        rows = np.where(kids >= 0, np.searchsorted(nxt, kids) + offsets[d + 1], -1)
        succ[live] = rows
    mirrored = bb.code(bb.mirror(first), bb.mirror(mask))
    index = CodeIndex(codes)
    mirror_id = index.ids(mirrored)
    canon_transform = (mirrored < codes).astype(np.int8)
    canon = np.where(canon_transform == 1, mirror_id, np.arange(len(codes))).astype(np.int32)
    value, optimal = _minimax(succ, outcome, player, offsets)
    paths = _paths(succ, offsets)
    cells = bb.cells(first, mask)
    arrays = (cells, codes, ply, player, outcome, succ, canon, canon_transform, value, optimal)
    for arr in (*arrays, paths):
        arr.setflags(write=False)
    return Tables(game, *arrays, paths=paths, code_to_id=index)


def _minimax(succ, outcome, player, offsets):
    """Values for the first player and tie-break sets, the last ply first."""
    value = np.zeros(len(outcome), dtype=np.int8)
    value[outcome == FIRST_WIN] = 1
    value[outcome == SECOND_WIN] = -1
    optimal = np.zeros(succ.shape, dtype=bool)
    for d in range(len(offsets) - 2, -1, -1):
        lo, hi = offsets[d], offsets[d + 1]
        rows = np.arange(lo, hi)[outcome[lo:hi] == ONGOING]
        kids = succ[rows]
        legal = kids >= 0
        vals = np.where(legal, value[np.maximum(kids, 0)], 0).astype(np.int8)
        firsts = player[rows] == FIRST
        best = np.where(
            firsts,
            np.where(legal, vals, -2).max(axis=1),
            np.where(legal, vals, 2).min(axis=1),
        ).astype(np.int8)
        value[rows] = best
        optimal[rows] = legal & (vals == best[:, None])
    return value, optimal


def _paths(succ, offsets):
    """How many move sequences from the start reach each position."""
    paths = np.zeros(len(succ), dtype=np.int64)
    paths[0] = 1
    for d in range(len(offsets) - 2):
        rows = np.arange(offsets[d], offsets[d + 1])
        kids = succ[rows]
        legal = kids >= 0
        np.add.at(paths, kids[legal], np.broadcast_to(paths[rows][:, None], kids.shape)[legal])
    return paths


@cache
def connect4_tables(width: int = 4, height: int = 4, line: int = 4) -> Tables:
    """The shared tables of one Connect-4 board (built once per process)."""
    return build_tables(ConnectFour(width, height, line))


# --- tables on disk ----------------------------------------------------------------------

CACHE_ENV = "MENACE_LIB_CACHE"
"""Folder for built tables (``off`` turns the cache off); by default ``menace_lib`` in
``$XDG_CACHE_HOME`` (``~/.cache`` when that is unset or not an absolute path, as the XDG
Base Directory specification says)."""
TABLE_FIELDS = (  # the Tables arrays a cache file holds (and the tests compare)
    "cells",
    "codes",
    "ply",
    "player",
    "outcome",
    "succ",
    "canon",
    "canon_transform",
    "value",
    "optimal",
    "paths",
)


def cache_home() -> Path:
    """``$XDG_CACHE_HOME`` if it is an absolute path, else ``~/.cache`` (the XDG rule)."""
    xdg = os.environ.get("XDG_CACHE_HOME", "")
    return Path(xdg) if xdg and os.path.isabs(xdg) else Path.home() / ".cache"


def cache_file(game: ConnectFour) -> Path | None:
    """Where ``game``'s tables are kept, keyed by the library version (``None``: no cache)."""
    folder = os.environ.get(CACHE_ENV, "")
    if folder.lower() == "off":
        return None
    base = Path(folder) if folder else cache_home() / "menace_lib"
    name = f"connect4-{game.width}x{game.height}-{game.line}-v{__version__}.npz"
    return base / name


def cached_tables(game: ConnectFour) -> Tables:
    """``build_tables(game)``, read from the disk cache when it holds them.

    A missing, unreadable or mismatched cache file is rebuilt and written again (all or
    nothing, through :func:`menace_lib.base.files.write_bytes`); the file holds plain arrays
    and is read with ``allow_pickle=False``.
    """
    path = cache_file(game)
    if path is not None and path.is_file():
        tables = _read_cache(game, path)
        if tables is not None:
            return tables
    tables = connect4_tables(game.width, game.height, game.line)
    if path is not None:
        _write_cache(tables, path)
    return tables


def _read_cache(game: ConnectFour, path: Path) -> Tables | None:
    try:
        with np.load(path, allow_pickle=False) as data:
            arrays = {f: data[f] for f in TABLE_FIELDS}
    except (OSError, ValueError, KeyError):
        return None
    n = len(arrays["codes"])
    if any(len(a) != n for a in arrays.values()) or arrays["succ"].shape != (n, game.width):
        return None
    for a in arrays.values():
        a.setflags(write=False)
    return Tables(game, **arrays, code_to_id=CodeIndex(arrays["codes"]))


def _write_cache(tables: Tables, path: Path) -> None:
    buffer = io.BytesIO()
    np.savez(buffer, **{f: getattr(tables, f) for f in TABLE_FIELDS})
    try:
        path.parent.mkdir(parents=True, exist_ok=True)
        write_bytes(path, buffer.getvalue())
    except (OSError, ValueError):
        pass  # a cache that cannot be written only costs a rebuild next time
