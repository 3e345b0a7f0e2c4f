"""The whole game, enumerated once into integer tables.

Every legal position (5,478 of them) gets an integer id. Ids are ordered by ply
and, within a ply, by the base-3 code ``sum(board[i] * 3**i)``; the empty board
is id 0. Everything later in the library is a lookup in these tables:

``boards``           (N, 9) int8, the position itself
``codes``            (N,) int32, base-3 code (``code_to_id`` inverts it)
``ply``              (N,) int8, pieces on the board
``player``           (N,) int8, side to move (``X`` or ``O``; for terminals, who would move)
``outcome``          (N,) int8, :data:`ONGOING`, :data:`X_WIN`, :data:`O_WIN` or :data:`DRAW`
``succ``             (N, 9) int32, child id after playing a square, ``-1`` if illegal
``canon``            (N,) int32, id of the canonical image
``canon_transform``  (N,) int8, transform taking the position to its canonical image
``value``            (N,) int8, minimax value for X: +1 win, 0 draw, -1 loss
``optimal``          (N, 9) bool, moves achieving the minimax value
``paths``            (N,) int64, number of move sequences from the empty board

The tables are built lazily by :func:`tables` (vectorised, a few tens of
milliseconds), so ``import menace_lib`` stays cheap.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from functools import cached_property, lru_cache
from typing import Any

import numpy as np

from .board import (
    INVERSE,
    LINES,
    TRANSFORMS,
    Board,
    BoardError,
    O,
    X,
    board_to_text,
    check_board,
    check_player,
    move_classes,
    parse_board,
    winning_squares,
)

ONGOING, X_WIN, O_WIN, DRAW = 0, 1, 2, 3
OUTCOME_NAMES = {ONGOING: "ongoing", X_WIN: "X wins", O_WIN: "O wins", DRAW: "draw"}

FILTERS = ("all", "decision", "michie")
"""Matchbox filters: every canonical X-to-move state, those with a choice, and
those with a choice that are not lost double threats (Michie's 287)."""

_POW3 = 3 ** np.arange(9, dtype=np.int32)
_LINES = np.array(LINES)


def _winners(boards: np.ndarray) -> np.ndarray:
    """Per board: X, O or 0 for the owner of a line."""
    cells = boards[:, _LINES]  # (n, 8, 3)
    x_line = (cells == X).all(axis=2).any(axis=1)
    o_line = (cells == O).all(axis=2).any(axis=1)
    return np.where(x_line, X, np.where(o_line, O, 0)).astype(np.int8)


def _decode(codes: np.ndarray) -> np.ndarray:
    return ((codes[:, None] // _POW3[None, :]) % 3).astype(np.int8)


@dataclass(frozen=True, eq=False)
class GameTables:
    """Integer tables of the full game; see the module docstring."""

    boards: np.ndarray
    codes: np.ndarray
    ply: np.ndarray
    player: np.ndarray
    outcome: np.ndarray
    succ: np.ndarray
    canon: np.ndarray
    canon_transform: np.ndarray
    value: np.ndarray
    optimal: np.ndarray
    paths: np.ndarray
    code_to_id: np.ndarray = field(repr=False)

    @property
    def n_positions(self) -> int:
        return len(self.codes)

    # --- lookups ---------------------------------------------------------

    def check_id(self, pid: Any) -> int:
        """``pid`` as an int if it is a position id (0 .. n_positions - 1), else a ValueError."""
        if isinstance(pid, bool) or not isinstance(pid, (int, np.integer)):
            raise ValueError(f"position id {pid!r}: expected an integer")
        if not 0 <= pid < self.n_positions:
            raise ValueError(f"position id {pid!r}: ids run from 0 to {self.n_positions - 1}")
        return int(pid)

    def id_of(self, board: Board | str) -> int:
        """Position id of a board (a tuple or its text form)."""
        board = parse_board(board) if isinstance(board, str) else check_board(board)
        code = int(np.dot(np.asarray(board, dtype=np.int32), _POW3))
        pid = int(self.code_to_id[code]) if 0 <= code < len(self.code_to_id) else -1
        if pid < 0:
            raise BoardError(f"board {board_to_text(board)!r} cannot arise in play")
        return pid

    def board(self, pid: int) -> Board:
        """The position as a 9-tuple."""
        return tuple(int(v) for v in self.boards[self.check_id(pid)])

    def text(self, pid: int) -> str:
        """The position's 9-character text form."""
        return board_to_text(self.boards[self.check_id(pid)])

    def legal(self, pid: int) -> list[int]:
        """Legal squares, ascending (none in a finished game)."""
        return [int(m) for m in np.flatnonzero(self.succ[self.check_id(pid)] >= 0)]

    def optimal_moves(self, pid: int) -> list[int]:
        """All minimax-optimal squares, ascending."""
        return [int(m) for m in np.flatnonzero(self.optimal[self.check_id(pid)])]

    def is_terminal(self, pid: int) -> bool:
        return bool(self.outcome[self.check_id(pid)] != ONGOING)

    # --- list views --------------------------------------------------------
    # Plain-Python copies of the arrays, for per-move loops: indexing a tuple is
    # several times faster than indexing a NumPy array with a Python int.

    @cached_property
    def succ_lists(self) -> tuple[tuple[int, ...], ...]:
        """``succ`` as tuples: per position, the 9 successor ids (``-1`` if illegal)."""
        return tuple(tuple(row) for row in self.succ.tolist())

    @cached_property
    def legal_lists(self) -> tuple[tuple[int, ...], ...]:
        """Per position, its legal squares, ascending (empty at terminals)."""
        return tuple(tuple(m for m, s in enumerate(row) if s >= 0) for row in self.succ_lists)

    @cached_property
    def canon_list(self) -> tuple[int, ...]:
        """``canon`` as a tuple: the canonical id of each position."""
        return tuple(self.canon.tolist())

    @cached_property
    def canon_square_lists(self) -> tuple[tuple[int, ...], ...]:
        """Per position, ``[raw square] -> square of the canonical image``."""
        return tuple(TRANSFORMS[t] for t in self.canon_transform.tolist())

    @cached_property
    def outcome_list(self) -> tuple[int, ...]:
        """``outcome`` as a tuple."""
        return tuple(self.outcome.tolist())

    @cached_property
    def player_list(self) -> tuple[int, ...]:
        """``player`` as a tuple."""
        return tuple(self.player.tolist())

    @cached_property
    def ply_list(self) -> tuple[int, ...]:
        """``ply`` as a tuple."""
        return tuple(self.ply.tolist())

    @cached_property
    def value_list(self) -> tuple[int, ...]:
        """``value`` as a tuple."""
        return tuple(self.value.tolist())

    # --- canonical structure ---------------------------------------------

    @cached_property
    def canonical_ids(self) -> np.ndarray:
        """Ids of canonical positions, ascending."""
        return np.flatnonzero(self.canon == np.arange(self.n_positions))

    def player_states(self, player: int = X) -> np.ndarray:
        """Canonical, non-terminal positions with ``player`` to move (filter ``all``)."""
        player = check_player(player)
        c = self.canonical_ids
        return c[(self.outcome[c] == ONGOING) & (self.player[c] == player)]

    @cached_property
    def x_states(self) -> np.ndarray:
        """Canonical, non-terminal, X-to-move positions (filter ``all``: 338)."""
        return self.player_states(X)

    def threat_states(self, player: int = X) -> np.ndarray:
        """Double threats against ``player``: it cannot win at once and the other side
        has two or more distinct winning squares (17 for X)."""
        player = check_player(player)
        return _threat_states(self, player)

    @cached_property
    def double_threats(self) -> np.ndarray:
        """X-to-move canonical states where X cannot win at once and O threatens twice."""
        return self.threat_states(X)

    def matchbox_states(self, filter: str = "michie", player: int = X) -> np.ndarray:
        """Canonical states of ``player`` that get a matchbox under ``filter``.

        ``all`` keeps every non-terminal canonical state with ``player`` to move,
        ``decision`` those with more than one legal move, and ``michie`` drops from
        those the double threats, which are lost whatever is played.
        """
        if filter not in FILTERS:
            raise ValueError(f"unknown filter {filter!r}; choose one of {FILTERS}")
        states = self.player_states(player)
        if filter == "all":
            return states
        choice = states[(self.succ[states] >= 0).sum(axis=1) > 1]
        if filter == "decision":
            return choice
        return choice[~np.isin(choice, self.threat_states(player))]

    def move_classes(self, pid: int) -> list[tuple[int, ...]]:
        """Orbits of the legal moves under the position's own symmetry group."""
        return move_classes(self.board(pid))

    # --- counts ----------------------------------------------------------

    @cached_property
    def terminal_ids(self) -> np.ndarray:
        return np.flatnonzero(self.outcome != ONGOING)

    def game_counts(self) -> dict[str, int]:
        """Complete games, by outcome."""
        t = self.terminal_ids
        by = {o: int(self.paths[t][self.outcome[t] == o].sum()) for o in (X_WIN, O_WIN, DRAW)}
        return {
            "games": int(self.paths[t].sum()),
            "x_wins": by[X_WIN],
            "o_wins": by[O_WIN],
            "draws": by[DRAW],
        }

    def game_lengths(self) -> dict[str, int]:
        """Complete games keyed by their number of moves (``"5"`` .. ``"9"``)."""
        t = self.terminal_ids
        return {str(n): int(self.paths[t][self.ply[t] == n].sum()) for n in range(5, 10)}

    def canonical_trajectories(self) -> int:
        """Distinct sequences of canonical positions from the empty board to an end."""
        count = np.zeros(self.n_positions, dtype=np.int64)
        for pid in self.canonical_ids[::-1]:  # children have larger ids
            if self.outcome[pid] != ONGOING:
                count[pid] = 1
            else:
                kids = np.unique(self.canon[self.succ[pid][self.succ[pid] >= 0]])
                count[pid] = count[kids].sum()
        return int(count[0])

    def summary(self) -> dict:
        """The golden facts of the game, as reported by ``python -m menace_lib states``."""
        return {
            "positions": self.n_positions,
            "canonical_positions": len(self.canonical_ids),
            **self.game_counts(),
            "game_lengths": self.game_lengths(),
            "canonical_trajectories": self.canonical_trajectories(),
            "matchboxes": {f: len(self.matchbox_states(f)) for f in FILTERS},
            "double_threats": [self.text(s) for s in self.double_threats],
        }


@lru_cache(maxsize=4)
def _threat_states(T: GameTables, player: int) -> np.ndarray:
    other = O if player == X else X
    found = [
        s
        for s in T.player_states(player)
        if not winning_squares(T.board(s), player) and len(winning_squares(T.board(s), other)) >= 2
    ]
    threats = np.array(found, dtype=np.int64)
    threats.setflags(write=False)
    return threats


def _enumerate() -> tuple[np.ndarray, np.ndarray]:
    """Codes of all legal positions in id order, and the per-position winner."""
    layers = [np.array([0], dtype=np.int32)]
    for ply in range(9):
        codes = layers[-1]
        boards = _decode(codes)
        live = (_winners(boards) == 0) & (boards == 0).any(axis=1)
        mover = X if ply % 2 == 0 else O
        empty = boards[live] == 0
        rows, cols = np.nonzero(empty)
        children = codes[live][rows] + mover * _POW3[cols]
        layers.append(np.unique(children))
    codes = np.concatenate(layers)
    return codes, _winners(_decode(codes))


def build_tables() -> GameTables:
    """Enumerate the game from scratch (vectorised; tens of milliseconds)."""
    codes, win = _enumerate()
    n = len(codes)
    boards = _decode(codes)
    code_to_id = np.full(3**9, -1, dtype=np.int32)
    code_to_id[codes] = np.arange(n, dtype=np.int32)
    ply = (boards != 0).sum(axis=1).astype(np.int8)
    player = np.where(ply % 2 == 0, X, O).astype(np.int8)
    full = ply == 9
    outcome = np.where(
        win == X, X_WIN, np.where(win == O, O_WIN, np.where(full, DRAW, ONGOING))
    ).astype(np.int8)

    live = outcome == ONGOING
    empty = (boards == 0) & live[:, None]
    child_codes = codes[:, None] + player[:, None].astype(np.int32) * _POW3[None, :]
    succ = np.where(empty, code_to_id[np.where(empty, child_codes, 0)], -1).astype(np.int32)

    # Image under t: new[T[i]] = old[i], i.e. new[j] = old[T^-1[j]].
    gather = np.array([TRANSFORMS[INVERSE[t]] for t in range(8)])  # (8, 9)
    images = boards[:, gather]  # (n, 8, 9)
    rank = np.array([0, 2, 1], dtype=np.int32)  # '.' < 'O' < 'X'
    keys = (rank[images] * (3 ** np.arange(8, -1, -1, dtype=np.int32))).sum(axis=2)
    canon_transform = keys.argmin(axis=1).astype(np.int8)  # first minimum wins ties
    canon_images = images[np.arange(n), canon_transform]
    canon = code_to_id[(canon_images.astype(np.int32) * _POW3).sum(axis=1)]

    value = np.zeros(n, dtype=np.int8)
    value[outcome == X_WIN] = 1
    value[outcome == O_WIN] = -1
    optimal = np.zeros((n, 9), dtype=bool)
    for p in range(8, -1, -1):
        ids = np.flatnonzero(live & (ply == p))
        if len(ids) == 0:
            continue
        s = succ[ids]
        child_val = np.where(s >= 0, value[np.maximum(s, 0)], 0).astype(np.int8)
        if p % 2 == 0:  # X maximises
            best = np.where(s >= 0, child_val, -2).max(axis=1)
        else:
            best = np.where(s >= 0, child_val, 2).min(axis=1)
        value[ids] = best
        optimal[ids] = (s >= 0) & (child_val == best[:, None])

    paths = np.zeros(n, dtype=np.int64)
    paths[0] = 1
    for p in range(9):
        ids = np.flatnonzero(live & (ply == p))
        s = succ[ids]
        mask = s >= 0
        np.add.at(paths, s[mask], np.repeat(paths[ids], mask.sum(axis=1)))

    for arr in (boards, codes, ply, player, outcome, succ, canon, canon_transform, value, optimal):
        arr.setflags(write=False)
    paths.setflags(write=False)
    code_to_id.setflags(write=False)
    return GameTables(
        boards=boards,
        codes=codes,
        ply=ply,
        player=player,
        outcome=outcome,
        succ=succ,
        canon=canon,
        canon_transform=canon_transform,
        value=value,
        optimal=optimal,
        paths=paths,
        code_to_id=code_to_id,
    )


@lru_cache(maxsize=1)
def tables() -> GameTables:
    """The shared, read-only game tables (built on first use).

    Returns
    -------
    GameTables
        The enumerated game: positions, moves, successors, symmetries and minimax values.

    Examples
    --------
    >>> import menace_lib as ml
    >>> t = ml.tables()
    >>> t.summary()["positions"], t.summary()["canonical_positions"]
    (5478, 765)
    """
    return build_tables()
