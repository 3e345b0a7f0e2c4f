"""The printed kit's box numbers and bead colours: the one owner, for every machine.

A class builds the matchbox kit and then plays the widgets, so a box must carry the same
number, be drawn the same way round and give each move the same bead colour on paper and
on screen. :func:`printed_layout` decides all three for any machine (game, filter,
layout, side); the kits (:mod:`menace_lib.kit`) print it and the widgets receive it in
their data traits (never a second copy of the rule in JavaScript).

The rule is the printed kit's, since the kit is what a teacher builds:

* **Orientation.** Noughts and crosses: each box is drawn in the turn or mirror image of
  the library's canonical position that puts the crosses on the lowest-numbered squares,
  then the noughts (:func:`kit_orientation`); looking a board up in the printed index is
  then a search in a sorted list. Other games keep the library's position (the HER kit
  asks the reader to mirror the board).
* **Numbers.** Boxes are numbered from 1 in order of the machine's move, then (noughts
  and crosses) of the printed board's squares of crosses and noughts (:func:`kit_key`),
  else of the library's box order. A reduced kit (some of the moves only) keeps these
  numbers, so its boxes are the full kit's boxes.
* **Colours.** Bead colour ``i`` of :data:`menace_lib.base.palette.BEAD_COLOURS` plays
  square ``i`` of the printed drawing: a move class takes the colour of its
  lowest-numbered printed square. A game with more move ids than colours (Hexapawn)
  colours a box's ``k``-th move by :data:`~menace_lib.base.palette.MOVE_ORDER_COLOURS`.

The library's own box index (the order of :attr:`Menace.states
<menace_lib.machine.menace.Menace.states>`, which agent files keep) is unchanged;
:attr:`PrintedLayout.numbers` maps it to the printed number.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from functools import cache

from ..base.palette import BEAD_COLOUR_NAMES, BEAD_COLOURS, MOVE_ORDER_COLOURS
from ..games.board import TRANSFORMS, O, X, transform_board
from ..games.registry import DEFAULT_GAME, game_tables
from .engine import box_layout

__all__ = [
    "PrintedLayout",
    "colour_names",
    "kit_key",
    "kit_orientation",
    "printed",
    "printed_layout",
]


@dataclass(frozen=True)
class PrintedLayout:
    """How the kit prints the boxes of one machine; every field is per library box.

    Attributes
    ----------
    numbers
        The printed box number (1, 2, ...) of each library box.
    order
        The library box of printed number ``k`` at index ``k - 1``.
    moves
        The machine's move (1 = its first) that each box serves.
    transforms
        The element of :data:`menace_lib.games.board.TRANSFORMS` taking the library's
        canonical position to the printed one (0, the identity, for other games).
    boards
        The printed position's cells.
    squares
        Per bead colour of the library's box (its order), the printed squares (moves
        for games other than noughts and crosses) of its move class, ascending.
    colours
        Per bead colour of the library's box, its index into
        :data:`~menace_lib.base.palette.BEAD_COLOURS`.
    bead_order
        The library's bead indices in the order the label lists them.
    """

    game: str
    filter: str
    layout: str
    player: int
    numbers: tuple[int, ...]
    order: tuple[int, ...]
    moves: tuple[int, ...]
    transforms: tuple[int, ...]
    boards: tuple[tuple[int, ...], ...]
    squares: tuple[tuple[tuple[int, ...], ...], ...]
    colours: tuple[tuple[int, ...], ...]
    bead_order: tuple[tuple[int, ...], ...]

    def colour_names(self, box: int) -> list[str]:
        """The colour names of library box ``box``'s beads, in the library's bead order."""
        return [BEAD_COLOUR_NAMES[c] for c in self.colours[box]]


def kit_key(board: Sequence[int]) -> tuple[tuple[int, ...], tuple[int, ...]]:
    """The squares (1-9) of the crosses and of the noughts: the printed index's sort key."""
    squares = range(1, 10)
    xs = tuple(n for n, v in zip(squares, board, strict=True) if v == X)
    return xs, tuple(n for n, v in zip(squares, board, strict=True) if v == O)


def kit_orientation(board: Sequence[int]) -> int:
    """The transform putting the crosses on the lowest squares, then the noughts (the
    first such element of :data:`~menace_lib.games.board.TRANSFORMS` on a tie)."""
    return min(range(8), key=lambda t: (kit_key(transform_board(t, board)), t))


@cache
def printed_layout(
    game: str = DEFAULT_GAME, filter: str = "michie", layout: str = "class", player: int = X
) -> PrintedLayout:
    """The printed numbers, orientations and bead colours of one machine (built once)."""
    L = box_layout(game, filter, layout, player)
    T = game_tables(game)
    noughts = game == DEFAULT_GAME
    moves, transforms, boards, squares, colours, order_in_box, keys = [], [], [], [], [], [], []
    for b, state in enumerate(L.states):
        move = int(T.ply[state]) // 2 + 1
        cells = tuple(int(v) for v in T.cells[state])
        if noughts:
            t = kit_orientation(cells)
            perm = TRANSFORMS[t]
            printed_board = transform_board(t, cells)
            classes = tuple(tuple(sorted(perm[m] for m in cls)) for cls in L.members[b])
            box_colours = tuple(cls[0] for cls in classes)
            key: tuple = (move, kit_key(printed_board))
        else:
            t, printed_board = 0, cells
            classes = tuple(tuple(sorted(int(m) for m in cls)) for cls in L.members[b])
            if T.succ.shape[1] <= len(BEAD_COLOURS):  # one colour per move id (Connect-4)
                box_colours = tuple(cls[0] for cls in classes)
            else:
                box_colours = tuple(MOVE_ORDER_COLOURS[k] for k in range(len(classes)))
            key = (move, b)
        moves.append(move)
        transforms.append(t)
        boards.append(printed_board)
        squares.append(classes)
        colours.append(box_colours)
        order_in_box.append(tuple(sorted(range(len(classes)), key=lambda j, c=classes: c[j])))
        keys.append(key)
    order = tuple(sorted(range(len(L.states)), key=lambda b: keys[b]))
    numbers = [0] * len(order)
    for k, b in enumerate(order, start=1):
        numbers[b] = k
    return PrintedLayout(
        game=game,
        filter=filter,
        layout=layout,
        player=player,
        numbers=tuple(numbers),
        order=order,
        moves=tuple(moves),
        transforms=tuple(transforms),
        boards=tuple(boards),
        squares=tuple(squares),
        colours=tuple(colours),
        bead_order=tuple(order_in_box),
    )


def printed(agent) -> PrintedLayout:
    """The printed layout of a :class:`~menace_lib.machine.menace.Menace` (its game,
    filter, layout and side)."""
    c = agent.config
    return printed_layout(c.game, c.filter, c.layout, c.player)


def colour_names() -> list[str]:
    """The bead colours' names, by colour index (what every surface prints)."""
    return list(BEAD_COLOUR_NAMES)
