"""The game of noughts and crosses, its text form and its D4 symmetries.

A board is a tuple of 9 ints in row-major order, square 0 at the top left::

    0 1 2
    3 4 5
    6 7 8

These are indices. Readers see the squares numbered 1 to 9 in the same order (the book,
its figures and its widgets); :func:`square_number` is the one place that converts.

with ``EMPTY = 0``, ``X = 1`` and ``O = 2``. X always moves first.

Text form
---------
A board is written as 9 characters from ``.XO`` (``x``/``o`` and ``-``/``_``/space
for empty are accepted when parsing), optionally split into rows by ``/``:
``"X.O/.X./..O"`` and ``"X.O.X...O"`` are the same board. :func:`board_to_text`
writes the 9-character form; :func:`board_to_grid` writes the three-row form.

Symmetries
----------
The dihedral group D4 acts on squares by 8 explicit permutations, listed in
:data:`TRANSFORMS` in the order ``id, refl, r90, r90+refl, r180, r180+refl,
r270, r270+refl`` (the thesis implementation's order). Element ``k`` maps
square ``i`` to ``TRANSFORMS[k][i]``; "refl" mirrors columns first, then the
board is rotated clockwise. Transforming a board writes
``new[T[i]] = old[i]``. :data:`COMPOSE` and :data:`INVERSE` give the group
table: ``COMPOSE[a][b]`` is "first ``b``, then ``a``".

Checked input
-------------
Every public function that takes a board, a square, a transform or a player checks
it first (:func:`check_board`, :func:`check_square`, :func:`check_transform`,
:func:`check_player`) and raises :class:`BoardError` (a ``ValueError``) naming the
bad value: a board is exactly 9 integers from ``{0, 1, 2}`` (a tuple, a list or a
NumPy row), a square an integer 0..8, a transform an integer 0..7. Floats, bools
and strings are refused, never rounded. These checks are structural: only
:func:`parse_board` and :func:`validate_board` also ask whether a board can arise
in play.

Canonical form
--------------
The canonical board is the image whose text is lexicographically smallest in
ASCII order (``.`` < ``O`` < ``X``), ties going to the first transform in the
order above. So empties are pulled to the front, then noughts.
"""

from __future__ import annotations

import operator
from collections.abc import Iterable, Sequence
from functools import cache
from typing import Any

EMPTY, X, O = 0, 1, 2
SYMBOLS = ".XO"
PLAYER_NAMES = {X: "X", O: "O"}

Board = tuple[int, ...]

LINES: tuple[tuple[int, int, int], ...] = (
    (0, 1, 2),
    (3, 4, 5),
    (6, 7, 8),
    (0, 3, 6),
    (1, 4, 7),
    (2, 5, 8),
    (0, 4, 8),
    (2, 4, 6),
)

CENTRE = 4
CORNERS = (0, 2, 6, 8)
EDGES = (1, 3, 5, 7)

EMPTY_BOARD: Board = (EMPTY,) * 9

_PARSE = {".": EMPTY, "-": EMPTY, "_": EMPTY, " ": EMPTY, "X": X, "x": X, "O": O, "o": O}


class BoardError(ValueError):
    """A board, square or move that is malformed or cannot arise in a legal game."""


# --- checked input -----------------------------------------------------------


def _show(value: Any, limit: int = 60) -> str:
    text = repr(value)
    return text if len(text) <= limit else text[: limit - 3] + "..."


def _small_int(value: Any) -> int | None:
    """``value`` as an int if it is an integer (Python or NumPy, not bool), else None."""
    if isinstance(value, bool):
        return None
    try:  # NumPy integers pass; NumPy bools, floats and strings raise TypeError
        return operator.index(value)
    except TypeError:
        return None


def check_board(board: Any) -> Board:
    """``board`` as a tuple of 9 ints from {0, 1, 2}, or a :class:`BoardError` naming it.

    Accepts any sequence of 9 integers (tuple, list, NumPy array); refuses text (use
    :func:`parse_board`), floats, bools and other lengths.
    """
    if isinstance(board, (str, bytes)):
        raise BoardError(f"board {_show(board)}: text must go through parse_board")
    try:
        cells = tuple(board)
    except TypeError:
        raise BoardError(f"board {_show(board)}: expected a sequence of 9 squares") from None
    if len(cells) != 9:
        raise BoardError(f"board {_show(board)}: expected 9 squares, got {len(cells)}")
    out = []
    for i, cell in enumerate(cells):
        v = _small_int(cell)
        if v not in (EMPTY, X, O):
            raise BoardError(
                f"board {_show(board)}: square {i} holds {_show(cell)}; "
                f"expected 0 (empty), 1 (X) or 2 (O)"
            )
        out.append(v)
    return tuple(out)


def check_square(square: Any, what: str = "square") -> int:
    """``square`` as an int in 0..8, or a :class:`BoardError` naming it."""
    v = _small_int(square)
    if v is None or not 0 <= v <= 8:
        raise BoardError(f"{what} {_show(square)}: squares are integers 0..8")
    return v


def check_transform(t: Any) -> int:
    """``t`` as an int in 0..7 (an index into :data:`TRANSFORMS`), or a :class:`BoardError`."""
    v = _small_int(t)
    if v is None or not 0 <= v <= 7:
        raise BoardError(f"transform {_show(t)}: transforms are integers 0..7")
    return v


def check_player(player: Any) -> int:
    """``player`` if it is ``X`` (1) or ``O`` (2), else a :class:`BoardError` naming it."""
    v = _small_int(player)
    if v not in (X, O):
        raise BoardError(f"player {_show(player)}: expected X ({X}) or O ({O})")
    return v


# --- the symmetry group -----------------------------------------------------


def _rotate_cw(square: int) -> int:
    r, c = divmod(square, 3)
    return 3 * c + (2 - r)


def _mirror(square: int) -> int:
    r, c = divmod(square, 3)
    return 3 * r + (2 - c)


def _element(quarter_turns: int, reflect: bool) -> tuple[int, ...]:
    perm = []
    for i in range(9):
        j = _mirror(i) if reflect else i
        for _ in range(quarter_turns):
            j = _rotate_cw(j)
        perm.append(j)
    return tuple(perm)


TRANSFORM_NAMES: tuple[str, ...] = (
    "id",
    "refl",
    "r90",
    "r90+refl",
    "r180",
    "r180+refl",
    "r270",
    "r270+refl",
)
TRANSFORMS: tuple[tuple[int, ...], ...] = tuple(_element(k // 2, bool(k % 2)) for k in range(8))
IDENTITY = 0


def _index_of(perm: Sequence[int]) -> int:
    return TRANSFORMS.index(tuple(perm))


COMPOSE: tuple[tuple[int, ...], ...] = tuple(
    tuple(_index_of([TRANSFORMS[a][TRANSFORMS[b][i]] for i in range(9)]) for b in range(8))
    for a in range(8)
)
"""``COMPOSE[a][b]`` is the transform "apply ``b``, then ``a``"."""

INVERSE: tuple[int, ...] = tuple(
    next(b for b in range(8) if COMPOSE[a][b] == IDENTITY) for a in range(8)
)
"""``INVERSE[a]`` undoes ``a``: reflections are their own inverse, r90 ↔ r270."""


def transform_board(t: int, board: Sequence[int]) -> Board:
    """The image of ``board`` under transform ``t`` (``new[T[i]] = old[i]``)."""
    return _transform(check_transform(t), check_board(board))


def _transform(t: int, board: Board) -> Board:
    perm = TRANSFORMS[t]
    new = [EMPTY] * 9
    for i, cell in enumerate(board):
        new[perm[i]] = cell
    return tuple(new)


# --- text form ---------------------------------------------------------------


def parse_board(text: str | Sequence[int]) -> Board:
    """Parse a board from text (``"X.O/.X./..O"`` or ``"X.O.X...O"``) and validate it.

    Raises
    ------
    BoardError
        On wrong length, unknown symbols, impossible piece counts, two winners, or
        a position where play went on after a win.
    """
    if isinstance(text, str):
        rows = text.split("/")
        if len(rows) > 1 and (len(rows) != 3 or any(len(r) != 3 for r in rows)):
            raise BoardError(f"board {text!r}: expected three rows of 3 squares like 'X.O/.X./..O'")
        flat = "".join(rows)
        if len(flat) != 9:
            raise BoardError(f"board {text!r}: expected 9 squares, got {len(flat)}")
        unknown = sorted({ch for ch in flat if ch not in _PARSE})
        if unknown:
            raise BoardError(f"board {text!r}: unknown symbol(s) {unknown}; use '.', 'X', 'O'")
        board = tuple(_PARSE[ch] for ch in flat)
    else:
        board = check_board(text)
    validate_board(board)
    return board


def board_to_text(board: Sequence[int]) -> str:
    """The 9-character text form, e.g. ``'X.O.X...O'``."""
    return "".join(SYMBOLS[c] for c in check_board(board))


def board_to_grid(board: Sequence[int]) -> str:
    """The three-row text form, e.g. ``'X.O/.X./..O'``."""
    t = board_to_text(board)  # checks the board
    return f"{t[0:3]}/{t[3:6]}/{t[6:9]}"


def validate_board(board: Sequence[int]) -> None:
    """Raise :class:`BoardError` unless ``board`` can arise in a game where X moves first."""
    board = check_board(board)
    nx, no = board.count(X), board.count(O)
    if nx - no not in (0, 1):
        raise BoardError(
            f"board {board_to_text(board)!r}: impossible piece counts X={nx}, O={no} "
            "(X moves first, so X = O or X = O + 1)"
        )
    x_won, o_won = _has_line(board, X), _has_line(board, O)
    if x_won and o_won:
        raise BoardError(f"board {board_to_text(board)!r}: both players have a line")
    if x_won and nx != no + 1:
        raise BoardError(f"board {board_to_text(board)!r}: O played after X had already won")
    if o_won and nx != no:
        raise BoardError(f"board {board_to_text(board)!r}: X played after O had already won")


# --- rules -------------------------------------------------------------------


def has_line(board: Sequence[int], player: int) -> bool:
    """Whether ``player`` owns one of the 8 lines."""
    return _has_line(check_board(board), check_player(player))


def _has_line(board: Board, player: int) -> bool:
    return any(board[a] == board[b] == board[c] == player for a, b, c in LINES)


def winner(board: Sequence[int]) -> int:
    """``X`` or ``O`` if that player has a line, else ``EMPTY``."""
    return _winner(check_board(board))


def _winner(board: Board) -> int:
    for a, b, c in LINES:
        if board[a] != EMPTY and board[a] == board[b] == board[c]:
            return board[a]
    return EMPTY


def is_terminal(board: Sequence[int]) -> bool:
    """A line has been made or no square is empty."""
    return _is_terminal(check_board(board))


def _is_terminal(board: Board) -> bool:
    return _winner(board) != EMPTY or EMPTY not in board


def to_move(board: Sequence[int]) -> int:
    """The player whose turn it is (X moves first)."""
    board = check_board(board)
    return X if board.count(X) == board.count(O) else O


def legal_moves(board: Sequence[int]) -> list[int]:
    """Empty squares in ascending order; none once the game is over."""
    return _legal_moves(check_board(board))


def _legal_moves(board: Board) -> list[int]:
    if _is_terminal(board):
        return []
    return [i for i, c in enumerate(board) if c == EMPTY]


def play(board: Sequence[int], square: int) -> Board:
    """The board after the player to move takes ``square``.

    Raises
    ------
    BoardError
        If the game is over, ``square`` is not in 0..8, or the square is occupied.
    """
    board = check_board(board)
    square = check_square(square, "move")
    if _is_terminal(board):
        raise BoardError(f"move {square}: the game on {board_to_text(board)!r} is already over")
    if board[square] != EMPTY:
        raise BoardError(
            f"move {square}: square {square} is occupied by {SYMBOLS[board[square]]} "
            f"on {board_to_text(board)!r}"
        )
    new = list(board)
    new[square] = X if board.count(X) == board.count(O) else O
    return tuple(new)


def winning_squares(board: Sequence[int], player: int) -> list[int]:
    """Empty squares where ``player`` would complete a line at once (ascending)."""
    board, player = check_board(board), check_player(player)
    found = []
    for i, c in enumerate(board):
        if c != EMPTY:
            continue
        trial = list(board)
        trial[i] = player
        if _has_line(tuple(trial), player):
            found.append(i)
    return found


# --- canonical form and move mapping -----------------------------------------

# '.' < 'O' < 'X' in ASCII, so rank empties 0, noughts 1, crosses 2.
_ASCII_RANK = {EMPTY: 0, O: 1, X: 2}


def _sort_key(board: Sequence[int]) -> tuple[int, ...]:
    return tuple(_ASCII_RANK[c] for c in board)


def canonical_transform(board: Sequence[int]) -> int:
    """The first transform (in :data:`TRANSFORMS` order) giving the canonical image."""
    return _canonical_transform(check_board(board))


@cache
def _canonical_transform(board: Board) -> int:
    best_t, best_key = IDENTITY, _sort_key(board)
    for t in range(1, 8):
        key = _sort_key(_transform(t, board))
        if key < best_key:
            best_t, best_key = t, key
    return best_t


def canonical(board: Sequence[int]) -> Board:
    """The canonical representative of ``board``'s symmetry class."""
    board = check_board(board)
    return _transform(_canonical_transform(board), board)


def to_canonical_move(board: Sequence[int], square: int) -> int:
    """Map a move on the raw ``board`` to the same move on its canonical board."""
    square = check_square(square)
    return TRANSFORMS[_canonical_transform(check_board(board))][square]


def from_canonical_move(board: Sequence[int], canonical_square: int) -> int:
    """Map a move on ``board``'s canonical board back to the raw ``board``."""
    square = check_square(canonical_square, "canonical square")
    t = INVERSE[_canonical_transform(check_board(board))]
    return TRANSFORMS[t][square]


# --- stabilisers and move classes --------------------------------------------


def stabiliser(board: Sequence[int]) -> list[int]:
    """Transforms that leave ``board`` unchanged (always includes the identity)."""
    return _stabiliser(check_board(board))


def _stabiliser(board: Board) -> list[int]:
    return [t for t in range(8) if _transform(t, board) == board]


def move_classes(board: Sequence[int]) -> list[tuple[int, ...]]:
    """Orbits of the legal moves under ``board``'s own symmetry group.

    Each class is a sorted tuple of squares; classes are ordered by their
    representative (smallest square). The empty board gives three classes:
    corners ``(0, 2, 6, 8)``, edges ``(1, 3, 5, 7)`` and the centre ``(4,)``.
    """
    board = check_board(board)
    group = _stabiliser(board)
    seen: set[int] = set()
    classes = []
    for square in _legal_moves(board):
        if square in seen:
            continue
        orbit = tuple(sorted({TRANSFORMS[t][square] for t in group}))
        seen.update(orbit)
        classes.append(orbit)
    return classes


def move_class_representatives(board: Sequence[int]) -> list[int]:
    """The smallest square of each move class of ``board``."""
    return [cls[0] for cls in move_classes(board)]


def square_kind(square: int) -> str:
    """``'corner'``, ``'edge'`` or ``'centre'``."""
    square = check_square(square)
    if square == CENTRE:
        return "centre"
    return "corner" if square in CORNERS else "edge"


def square_number(square: int) -> int:
    """The number a reader sees for square index ``square``: 0-8 become 1-9.

    Raises
    ------
    BoardError
        If ``square`` is not an integer 0-8 (:func:`check_square`).
    """
    return check_square(square) + 1


def square_numbers(squares: Iterable[int]) -> list[int]:
    """:func:`square_number` of each square, in order."""
    return [square_number(s) for s in squares]
