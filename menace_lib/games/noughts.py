"""Noughts and crosses as a :class:`~menace_lib.games.game.Game`.

The rules, the text form and the D4 symmetry group live in :mod:`menace_lib.games.board`;
this module only states them in the game layer's terms, so the one enumerator
(:func:`menace_lib.games.game.enumerate_game`) builds the same tables as
:mod:`menace_lib.games.statespace` (ids, successors, canonical ids and transforms, values
and tie-break sets agree array for array; ``tests/test_game.py`` checks it).

Noughts and crosses adds one matchbox filter to the game layer's two: Michie's
(``michie``), which drops the double threats, positions lost whatever is played
(:func:`threat_states`; 17 for X, so 287 boxes).

A position is the board, a 9-tuple; a move is a square 0..8; the group's eight
elements are :data:`~menace_lib.games.board.TRANSFORMS` in their order; the code is the
base-3 number ``sum(board[i] * 3**i)``; the canonical image is the one whose text is
smallest in ASCII order (the thesis implementation's choice).
"""

from __future__ import annotations

from functools import lru_cache
from typing import Any

import numpy as np

from .board import (
    EMPTY,
    INVERSE,
    LINES,
    TRANSFORMS,
    Board,
    O,
    X,
    check_board,
    check_player,
    legal_moves,
    parse_board,
    winner,
    winning_squares,
)
from .game import DRAW, ONGOING, CodeIndex, Tables

X_WIN, O_WIN = 1, 2  # the game layer's FIRST_WIN, SECOND_WIN

_RANK = (0, 2, 1)  # '.' < 'O' < 'X'
_POW3 = tuple(3**i for i in range(9))


class NoughtsAndCrosses:
    """Noughts and crosses on the 3×3 board; X (player 1) moves first."""

    name = "noughts-and-crosses"
    n_moves = 9
    n_symmetries = 8
    n_codes = 3**9
    n_cells = 9
    symbols = ".XO"
    shape = (3, 3)

    def start(self) -> Board:
        return (EMPTY,) * 9

    def to_move(self, position: Board) -> int:
        return 1 if position.count(1) == position.count(2) else 2

    def legal_moves(self, position: Board) -> list[int]:
        return legal_moves(position)

    def play(self, position: Board, move: int) -> Board:
        new = list(position)
        new[move] = self.to_move(position)
        return tuple(new)

    def result(self, position: Board) -> int:
        w = winner(position)
        if w != EMPTY:
            return w  # X_WIN = 1, O_WIN = 2
        return ONGOING if EMPTY in position else DRAW

    def transform(self, g: int, position: Board) -> Board:
        new = [EMPTY] * 9  # board.transform_board's action, without re-checking the board
        for i, j in enumerate(TRANSFORMS[g]):
            new[j] = position[i]
        return tuple(new)

    def transform_move(self, g: int, move: int) -> int:
        return TRANSFORMS[g][move]

    def encode(self, position: Board) -> int:
        return sum(c * p for c, p in zip(position, _POW3, strict=True))

    def decode(self, code: int) -> Board:
        return tuple((code // 3**i) % 3 for i in range(9))

    def canonical_key(self, position: Board) -> tuple[int, ...]:
        r = _RANK
        return (r[position[0]], r[position[1]], r[position[2]], r[position[3]], r[position[4]],
                r[position[5]], r[position[6]], r[position[7]], r[position[8]])  # fmt: skip

    def cells(self, position: Board) -> Board:
        return position

    def check_position(self, position: Any) -> Board:
        """A board from its 9-tuple or its text (``"X.O......"``), or a BoardError."""
        return parse_board(position) if isinstance(position, str) else check_board(position)

    def build_tables(self) -> Tables:
        """The whole game's tables, by one vectorised pass (:func:`build_tables`)."""
        return build_tables()

    @property
    def filters(self) -> dict:
        """Michie's filter: the positions with a choice that are not lost double threats."""
        return {"michie": michie_filter}


def threat_states(T, player: int = X) -> np.ndarray:
    """Double threats against ``player``: canonical positions with ``player`` to move in
    which it cannot win at once and the other side has two or more winning squares (17
    for X).

    Parameters
    ----------
    T
        Noughts and crosses' :class:`~menace_lib.games.game.Tables`.
    player
        ``X`` (1) or ``O`` (2).
    """
    return _threat_states(T, check_player(player))


@lru_cache(maxsize=4)
def _threat_states(T, player: int) -> np.ndarray:
    other = O if player == X else X
    found = [
        s
        for s in T.player_states(player).tolist()
        if not winning_squares(T.position(s), player)
        and len(winning_squares(T.position(s), other)) >= 2
    ]
    threats = np.array(found, dtype=np.int64)
    threats.setflags(write=False)
    return threats


def michie_filter(T, choice: np.ndarray, player: int) -> np.ndarray:
    """Michie's boxes: the states with a choice, less the double threats (287 for X)."""
    return choice[~np.isin(choice, threat_states(T, player))]


NOUGHTS_AND_CROSSES = NoughtsAndCrosses()


# --- the tables, built by one vectorised pass ------------------------------------

_POW3_ARRAY = 3 ** np.arange(9, dtype=np.int32)
_LINES = np.array(LINES)


def _winners(boards: np.ndarray) -> np.ndarray:
    """Per board: X, O or 0 for the owner of a line."""
    cells = boards[:, _LINES]  # (n, 8, 3)
    x_line = (cells == X).all(axis=2).any(axis=1)
    o_line = (cells == O).all(axis=2).any(axis=1)
    return np.where(x_line, X, np.where(o_line, O, 0)).astype(np.int8)


def _decode(codes: np.ndarray) -> np.ndarray:
    return ((codes[:, None] // _POW3_ARRAY[None, :]) % 3).astype(np.int8)


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
        children = codes[live][rows] + mover * _POW3_ARRAY[cols]
        layers.append(np.unique(children))
    codes = np.concatenate(layers)
    return codes, _winners(_decode(codes))


def build_tables() -> Tables:
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
    child_codes = codes[:, None] + player[:, None].astype(np.int32) * _POW3_ARRAY[None, :]
    succ = np.where(empty, code_to_id[np.where(empty, child_codes, 0)], -1).astype(np.int32)

    # Image under t: new[T[i]] = old[i], i.e. new[j] = old[T^-1[j]].
    gather = np.array([TRANSFORMS[INVERSE[t]] for t in range(8)])  # (8, 9)
    images = boards[:, gather]  # (n, 8, 9)
    rank = np.array([0, 2, 1], dtype=np.int32)  # '.' < 'O' < 'X'
    keys = (rank[images] * (3 ** np.arange(8, -1, -1, dtype=np.int32))).sum(axis=2)
    canon_transform = keys.argmin(axis=1).astype(np.int8)  # first minimum wins ties
    canon_images = images[np.arange(n), canon_transform]
    canon = code_to_id[(canon_images.astype(np.int32) * _POW3_ARRAY).sum(axis=1)]

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
    codes64 = codes.astype(np.int64)
    codes64.setflags(write=False)
    return Tables(
        NOUGHTS_AND_CROSSES,
        cells=boards,
        codes=codes64,
        ply=ply,
        player=player,
        outcome=outcome,
        succ=succ,
        canon=canon,
        canon_transform=canon_transform,
        value=value,
        optimal=optimal,
        paths=paths,
        code_to_id=CodeIndex(codes64),
    )
