"""Noughts and crosses as a :class:`~menace_lib.games.game.Game`.

The rules, the text form and the D4 symmetry group live in :mod:`menace_lib.games.board`;
this module only states them in the game layer's terms, so the one enumerator
(:func:`menace_lib.games.game.enumerate_game`) builds the same tables as
:mod:`menace_lib.games.statespace` (ids, successors, canonical ids and transforms, values
and tie-break sets agree array for array; ``tests/test_game.py`` checks it).

A position is the board, a 9-tuple; a move is a square 0..8; the group's eight
elements are :data:`~menace_lib.games.board.TRANSFORMS` in their order; the code is the
base-3 number ``sum(board[i] * 3**i)``; the canonical image is the one whose text is
smallest in ASCII order (the thesis implementation's choice).
"""

from __future__ import annotations

from .board import EMPTY, TRANSFORMS, Board, legal_moves, winner
from .game import DRAW, ONGOING

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


NOUGHTS_AND_CROSSES = NoughtsAndCrosses()
