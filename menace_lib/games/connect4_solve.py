"""Lean solving of Connect-4 boards too large for whole-game tables (5×5, 6×4).

:class:`~menace_lib.games.game.Tables` keep about 70 bytes a position (cells, a child
table, tie-break sets, path counts), which is what the matchbox machine and the exact
evaluator read; 5×5's 69,763,700 positions would need about 5 GB for the children alone.
A :class:`Solution` keeps what a perfect player needs and nothing more: each ply's codes,
sorted (8 bytes a position), and one byte a position packing the minimax value and the
result. Children are not stored: a position's children are recomputed from its code with
the bitboard moves and found by binary search in the next ply's codes, which costs a few
microseconds a move, nothing next to a game's bookkeeping.

The solver walks the plies forward once (every reachable position, the same enumeration
as :func:`~menace_lib.games.connect4.layers`) and backward once (minimax, the last ply
first), a whole ply at a time on NumPy arrays. Peak memory is the solution plus the
children of the largest ply; a board is admitted only if that estimate fits the limit.

Examples
--------
>>> from menace_lib.games.connect4 import ConnectFour
>>> s = solve(ConnectFour(4, 4))
>>> s.n_positions, s.start_value(), s.bytes_per_position()
(161029, 0, 9.0)
"""

from __future__ import annotations

from dataclasses import dataclass
from functools import cache

import numpy as np

from .connect4 import (
    Bitboards,
    ConnectFour,
    Position,
    _children,
    build_tables,
    cache_file,
    layers,
)
from .game import FIRST, FIRST_WIN, ONGOING, SECOND, SECOND_WIN, Tables

__all__ = [
    "MAX_SOLVE_BYTES",
    "AgainstPerfect",
    "Solution",
    "against_perfect",
    "estimated_bytes",
    "solve",
]

MAX_SOLVE_BYTES = 8 << 30
"""Largest estimated peak a solve is admitted with (8 GiB)."""

# Positions of the boards the project knows, from John Tromp's counts ("John's Connect Four
# Playground", https://tromp.github.io/c4/c4.html): the admission estimate uses them, and
# other boards are estimated from the number of cells. The start values the solver finds
# (4x4, 5x4 and 5x5 draws, 6x4 a second-player win) are those of Christophe Steininger's
# table of solved boards (the "c4" solver's README, https://github.com/ChristopheSteininger/c4,
# which credits Tromp with every board of width + height <= 15).
KNOWN_POSITIONS = {
    (4, 4): 161_029,
    (5, 4): 3_945_711,
    (5, 5): 69_763_700,
    (6, 4): 94_910_577,
}


def estimated_bytes(game: ConnectFour) -> int:
    """An upper estimate of a solve's peak memory, before anything is built.

    Nine bytes a position for the solution, plus the largest ply's children (the
    width times 8 bytes for each of about a sixth of the positions) and the forward
    pass's split boards. Boards without a published count are priced at 3^cells,
    which refuses them unless they are small.
    """
    n = KNOWN_POSITIONS.get((game.width, game.height))
    if n is None:
        n = 3**game.n_cells
    largest_ply = n // 6 + 1
    return 9 * n + largest_ply * (8 * game.width + 48)


def _pack(value: np.ndarray, outcome: np.ndarray) -> np.ndarray:
    return ((value + 1).astype(np.uint8) | (outcome.astype(np.uint8) << 2)).astype(np.uint8)


@dataclass(frozen=True, eq=False)
class Solution:
    """A solved Connect-4 board: sorted codes and packed values, a ply at a time.

    Attributes
    ----------
    game
        The board.
    codes
        One sorted int64 array per ply (ply = stones on the board).
    packed
        One uint8 array per ply: bits 0-1 hold the minimax value for the first player
        plus one (0 loss, 1 draw, 2 win), bits 2-3 the result
        (:data:`~menace_lib.games.game.ONGOING`, ...).
    """

    game: ConnectFour
    codes: tuple[np.ndarray, ...]
    packed: tuple[np.ndarray, ...]

    @property
    def n_positions(self) -> int:
        """Every reachable position, finished ones included."""
        return sum(len(c) for c in self.codes)

    def positions_by_ply(self) -> list[int]:
        """Positions with 0, 1, 2, ... stones."""
        return [len(c) for c in self.codes]

    def nbytes(self) -> int:
        """Bytes the solution's arrays hold."""
        return sum(c.nbytes for c in self.codes) + sum(p.nbytes for p in self.packed)

    def bytes_per_position(self) -> float:
        return self.nbytes() / self.n_positions

    def _index(self, code: int) -> tuple[int, int]:
        first, mask = Bitboards(self.game).split(np.array([code], dtype=np.int64))
        ply = int(mask[0]).bit_count()  # stones on the board
        codes = self.codes[ply] if ply < len(self.codes) else np.empty(0, np.int64)
        i = int(np.searchsorted(codes, code))
        if i == len(codes) or codes[i] != code:
            raise KeyError(f"code {code}: no reachable position of {self.game.name} has it")
        return ply, i

    def value(self, code: int) -> int:
        """Minimax value for the first player (+1 win, 0 draw, -1 loss) of one position."""
        ply, i = self._index(code)
        return int(self.packed[ply][i] & 3) - 1

    def start_value(self) -> int:
        """The board's value with perfect play by both sides (+1: the first player wins)."""
        return int(self.packed[0][0] & 3) - 1

    def values(self, ply: int, codes: np.ndarray) -> np.ndarray:
        """Values (+1, 0, -1 for the first player) of many positions of one ply, all
        reachable."""
        at = np.searchsorted(self.codes[ply], codes)
        return (self.packed[ply][at] & 3).astype(np.int8) - 1

    def optimal_moves(self, code: int) -> list[int]:
        """The columns (0-based) that keep the position's value: the perfect player's
        tie-break set."""
        ply, i = self._index(code)
        if (self.packed[ply][i] >> 2) != ONGOING:
            return []
        bb = Bitboards(self.game)
        first, mask = bb.split(np.array([code], dtype=np.int64))
        kids = _children(bb, first, mask, ply % 2 == 0)[0]
        nxt = self.codes[ply + 1]
        at = np.searchsorted(nxt, np.maximum(kids, 0))
        child = (self.packed[ply + 1][np.minimum(at, len(nxt) - 1)] & 3).astype(np.int8) - 1
        return [c for c, k in enumerate(kids.tolist()) if k >= 0 and child[c] == self.value(code)]


def solve(game: ConnectFour, max_bytes: int = MAX_SOLVE_BYTES) -> Solution:
    """Every reachable position of ``game`` and its minimax value, in ~9 bytes a position.

    Parameters
    ----------
    game
        The board.
    max_bytes
        The admission limit: a board whose :func:`estimated_bytes` exceed it is refused
        before anything is built.

    Raises
    ------
    ValueError
        The board's estimated peak memory is above ``max_bytes``.
    """
    need = estimated_bytes(game)
    if need > max_bytes:
        raise ValueError(
            f"Connect-4 board {game.width}x{game.height}: solving needs about "
            f"{need / 2**30:.1f} GiB, the limit is {max_bytes / 2**30:.1f} GiB"
        )
    bb = Bitboards(game)
    codes, outcomes = [], []
    for c, o in layers(game):
        codes.append(c)
        outcomes.append(o)
    packed: list[np.ndarray] = [np.empty(0, np.uint8)] * len(codes)
    for d in range(len(codes) - 1, -1, -1):
        outcome = outcomes[d]
        value = np.zeros(len(outcome), dtype=np.int8)
        value[outcome == FIRST_WIN] = 1
        value[outcome == SECOND_WIN] = -1
        live = np.flatnonzero(outcome == ONGOING)
        if len(live):
            first, mask = bb.split(codes[d][live])
            kids = _children(bb, first, mask, d % 2 == 0)
            del first, mask
            nxt, nxt_packed = codes[d + 1], packed[d + 1]
            legal = kids >= 0
            at = np.searchsorted(nxt, np.where(legal, kids, 0))
            del kids
            child = (nxt_packed[np.minimum(at, len(nxt) - 1)] & 3).astype(np.int8) - 1
            del at
            if d % 2 == 0:  # the first player moves: the best child for them
                value[live] = np.where(legal, child, -2).max(axis=1)
            else:
                value[live] = np.where(legal, child, 2).min(axis=1)
        packed[d] = _pack(value, outcome)
        outcomes[d] = None  # type: ignore[call-overload]  # free the ply's results early
    for a in (*codes, *packed):
        a.setflags(write=False)
    return Solution(game, tuple(codes), tuple(packed))


class AgainstPerfect(ConnectFour):
    """Connect-4 in which one side plays only perfect moves: what a learner meets when its
    trainer and evaluator are the perfect player.

    The perfect side's legal moves are its tie-break set (every move that keeps the
    position's value), so its tables hold only the positions such play reaches: the
    learner's every move, the perfect side's best replies. Drawing uniformly among the
    legal moves of this game is the perfect player with a uniform tie-break, so MENACE
    trained and scored exactly against it here is MENACE against the perfect player on
    the full board, on tables a fraction of the full game's size (5×5 needs no table of
    its 69.8 million positions, only the lean :class:`Solution`).

    Parameters
    ----------
    solution
        The board's :class:`Solution`.
    perfect
        The side that plays perfectly: :data:`~menace_lib.games.game.SECOND` (the
        learner moves first, the project's default) or ``FIRST``.

    Examples
    --------
    >>> from menace_lib.games.connect4 import ConnectFour
    >>> g = AgainstPerfect(solve(ConnectFour(4, 4)))
    >>> g.name, g.build_tables().n_positions
    ('connect4-vs-perfect:4x4', 97684)
    """

    def __init__(self, solution: Solution, perfect: int = SECOND) -> None:
        base = solution.game
        super().__init__(base.width, base.height, base.line)
        if perfect not in (FIRST, SECOND):
            raise ValueError(f"perfect side {perfect!r}: expected {FIRST} or {SECOND}")
        self.solution, self.perfect = solution, perfect
        side = "" if perfect == SECOND else "-first"
        self.name = f"connect4-vs-perfect{side}:{base.name.split(':', 1)[1]}"

    def __repr__(self) -> str:
        return f"AgainstPerfect({self.width}x{self.height}, perfect={self.perfect})"

    def build_tables(self) -> Tables:
        """The tables of the pruned game (built a ply at a time, never the whole board's)."""
        return build_tables(self, keep=self._keep)

    def _keep(self, ply: int, codes: np.ndarray, kids: np.ndarray) -> np.ndarray:
        mover = FIRST if ply % 2 == 0 else SECOND
        if mover != self.perfect:
            return kids
        best = self.solution.values(ply, codes)
        legal = kids >= 0
        child = self.solution.values(ply + 1, np.where(legal, kids, kids.max(initial=0)))
        return np.where(legal & (child == best[:, None]), kids, -1)

    def legal_moves(self, position: Position) -> list[int]:
        """The rules' moves; the perfect side's narrowed to its tie-break set."""
        moves = super().legal_moves(position)
        if self.to_move(position) != self.perfect or self.result(position) != ONGOING:
            return moves
        return self.solution.optimal_moves(self.encode(position))


def against_perfect(board: str, perfect: int = SECOND) -> str:
    """Solve a Connect-4 ``board`` (``"5x5"``), register its :class:`AgainstPerfect`
    game and return the game's name, for MENACE and the exact evaluator.

    Solving is admitted first (:func:`estimated_bytes`); the solution is kept for the
    process (:func:`_solution`). A board of at most
    :data:`~menace_lib.base.limits.MAX_TABLE_CELLS` cells needs no pruning (its whole
    tables are built anyway), but works too.

    Examples
    --------
    >>> from menace_lib.machine.menace import Menace, MenaceConfig
    >>> name = against_perfect("4x4")
    >>> name, Menace(MenaceConfig(game=name, filter="decision")).n_boxes
    ('connect4-vs-perfect:4x4', 15148)
    """
    from .registry import register_game

    w, _, h = board.partition("x")
    if not (w.isdigit() and h.isdigit()):
        raise ValueError(f"board {board!r}: expected WIDTHxHEIGHT, e.g. 5x5")
    game = AgainstPerfect(_solution(int(w), int(h)), perfect)
    return register_game(game).name


@cache
def _solution(width: int, height: int) -> Solution:
    """The board's solution, from the disk cache of built tables when it holds it
    (:func:`~menace_lib.games.connect4.cache_file`'s folder; plain arrays, read with
    ``allow_pickle=False``), else solved and written there."""
    game = ConnectFour(width, height)
    path = solution_file(game)
    if path is not None and path.is_file():
        try:
            with np.load(path, allow_pickle=False) as data:
                n = int(data["plies"])
                codes = tuple(data[f"codes{d}"] for d in range(n))
                packed = tuple(data[f"packed{d}"] for d in range(n))
            if all(len(c) == len(p) for c, p in zip(codes, packed, strict=True)) and n:
                for a in (*codes, *packed):
                    a.setflags(write=False)
                return Solution(game, codes, packed)
        except (OSError, ValueError, KeyError):
            pass  # unreadable or stale: solve again and rewrite it
    solution = solve(game)
    if path is not None:
        arrays = {f"codes{d}": c for d, c in enumerate(solution.codes)}
        arrays |= {f"packed{d}": p for d, p in enumerate(solution.packed)}
        try:
            path.parent.mkdir(parents=True, exist_ok=True)
            tmp = path.with_suffix(".tmp.npz")
            np.savez(tmp, plies=len(solution.codes), **arrays)
            tmp.replace(path)  # all or nothing
        except OSError:
            pass  # a cache that cannot be written only costs a solve next time
    return solution


def solution_file(game: ConnectFour):
    """Where ``game``'s solution is cached (``None`` when the cache is off)."""
    tables = cache_file(game)
    return (
        None
        if tables is None
        else tables.with_name(tables.name.replace("connect4-", "connect4-solved-"))
    )
