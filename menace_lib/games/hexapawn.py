"""Hexapawn, Martin Gardner's game for HER (*Scientific American*, March 1962).

Three white pawns stand on the near row of a 3×3 board and three black pawns on the
far row. White moves first. A pawn moves one square straight forward to an empty
square, or one square diagonally forward to capture an enemy pawn. A player wins by
reaching the far row, by capturing every enemy pawn, or by leaving the opponent
without a move. There are no draws; under perfect play the second player (Black,
HER's side) wins.

Representation
--------------
Cells are numbered 0..8 row by row from the top (Black's home row is 0..2, White's
6..8), holding ``0`` empty, ``1`` White, ``2`` Black. A position is the 9 cells and
the side to move (a 10-tuple: side to move cannot be read off the pieces once
captures happen). A move is ``3 * cell + direction``: the pawn on ``cell`` goes
diagonally towards the lower column (``0``), straight ahead (``1``) or diagonally
towards the higher column (``2``); White goes up, Black down. The symmetry group is
{identity, left-right mirror}; the mirror maps direction ``d`` to ``2 - d``.

For readers squares are named like chess: files a, b, c left to right and ranks 1 to
3 from White's side, so White starts on a1 b1 c1 and Black on a3 b3 c3.
"""

from __future__ import annotations

from .game import FIRST_WIN, ONGOING, SECOND_WIN

EMPTY, WHITE, BLACK = 0, 1, 2
Position = tuple[int, ...]
START: Position = (BLACK, BLACK, BLACK, EMPTY, EMPTY, EMPTY, WHITE, WHITE, WHITE, WHITE)


def _mirror_cell(cell: int) -> int:
    r, c = divmod(cell, 3)
    return 3 * r + 2 - c


def square_name(cell: int) -> str:
    """A cell's chess-like name for readers: ``a1`` is White's left corner."""
    r, c = divmod(cell, 3)
    return "abc"[c] + str(3 - r)


class Hexapawn:
    """Gardner's Hexapawn on the 3×3 board; White (player 1) moves first."""

    name = "hexapawn"
    n_moves = 27
    n_symmetries = 2
    n_codes = 2 * 3**9
    n_cells = 9
    symbols = ".WB"
    shape = (3, 3)

    def start(self) -> Position:
        return START

    def to_move(self, position: Position) -> int:
        return position[9]

    def _targets(self, position: Position, cell: int):
        """(move, destination) pairs for the pawn of the side to move on ``cell``."""
        me = position[9]
        r, c = divmod(cell, 3)
        r2 = r - 1 if me == WHITE else r + 1
        if not 0 <= r2 <= 2:
            return
        for d in (0, 1, 2):
            c2 = c + d - 1
            if not 0 <= c2 <= 2:
                continue
            target = position[3 * r2 + c2]
            if (d == 1 and target == EMPTY) or (d != 1 and target not in (EMPTY, me)):
                yield 3 * cell + d, 3 * r2 + c2

    def _moves(self, position: Position) -> list[int]:
        me = position[9]
        return [
            m for cell in range(9) if position[cell] == me for m, _ in self._targets(position, cell)
        ]

    def legal_moves(self, position: Position) -> list[int]:
        return [] if self.result(position) != ONGOING else self._moves(position)

    def play(self, position: Position, move: int) -> Position:
        cell = move // 3
        dest = dict(self._targets(position, cell)).get(move)
        if position[cell] != position[9] or dest is None:
            raise ValueError(f"move {move}: not a legal Hexapawn move here")
        new = list(position)
        new[dest], new[cell] = new[cell], EMPTY
        new[9] = BLACK if position[9] == WHITE else WHITE
        return tuple(new)

    def result(self, position: Position) -> int:
        if WHITE in position[0:3]:
            return FIRST_WIN
        if BLACK in position[6:9]:
            return SECOND_WIN
        if not self._moves(position):  # no pawns, or every pawn blocked
            return SECOND_WIN if position[9] == WHITE else FIRST_WIN
        return ONGOING

    def transform(self, g: int, position: Position) -> Position:
        if g == 0:
            return position
        return (*(position[_mirror_cell(i)] for i in range(9)), position[9])

    def transform_move(self, g: int, move: int) -> int:
        if g == 0:
            return move
        cell, d = divmod(move, 3)
        return 3 * _mirror_cell(cell) + 2 - d

    def encode(self, position: Position) -> int:
        return sum(c * 3**i for i, c in enumerate(position[:9])) + 3**9 * (position[9] - 1)

    def decode(self, code: int) -> Position:
        return (*((code // 3**i) % 3 for i in range(9)), code // 3**9 + 1)

    def canonical_key(self, position: Position) -> int:
        return self.encode(position)

    def cells(self, position: Position) -> tuple[int, ...]:
        return position[:9]

    def move_name(self, position: Position, move: int) -> str:
        """A move for readers, e.g. ``'b1-b2'``, or ``'a2xb3'`` for a capture."""
        cell = move // 3
        dest = dict(self._targets(position, cell)).get(move)
        if dest is None:
            raise ValueError(f"move {move}: not a legal Hexapawn move here")
        sep = "-" if position[dest] == EMPTY else "x"
        return square_name(cell) + sep + square_name(dest)


HEXAPAWN = Hexapawn()


def gardner_positions(tables) -> list[int]:
    """The Black-to-move positions of Gardner's 24 boxes, as ids of ``tables``.

    Gardner's figure is reproduced by reducing symmetry on *moves*, not on positions:
    from the start, play one move of each move class (a move and its mirror image
    count once in a position that is its own mirror image, such as the start), for
    both sides, and keep every unfinished Black-to-move position reached. Mirror
    images that arise from different positions are not merged, so the count is
    2 + 11 + 11 = 24 (HER's moves 2, 4 and 6); merging them gives the 19 boxes
    (2 + 10 + 7) of :meth:`~menace_lib.games.game.Tables.matchbox_states`.
    """
    found: list[int] = []
    layer = {0}
    while layer:
        nxt = set()
        for pid in sorted(layer):
            if tables.is_terminal(pid):
                continue
            if int(tables.player[pid]) == BLACK:
                found.append(pid)
            for cls in tables.move_classes(pid):
                nxt.add(int(tables.succ[pid, cls[0]]))
        layer = nxt
    return found


def gardner_boxes(tables=None) -> dict[int, int]:
    """Gardner's boxes by HER's move number (2, 4, 6): ``{2: 2, 4: 11, 6: 11}``."""
    if tables is None:
        from .game import enumerate_game

        tables = enumerate_game(HEXAPAWN)
    counts: dict[int, int] = {}
    for pid in gardner_positions(tables):
        move = int(tables.ply[pid]) + 1
        counts[move] = counts.get(move, 0) + 1
    return counts
