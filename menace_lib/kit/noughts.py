"""The printable matchbox kit: labels, a box index, a colour key and instructions.

:func:`write_kit` turns a :class:`~menace_lib.machine.menace.Menace` into a PDF (matplotlib's PDF
backend) that a class can print, cut out and glue onto matchboxes:

1. an instruction sheet -- what to buy, how to fill the boxes, how to find a box, how to
   play, reinforce and restock -- whose rules are read from the agent's own configuration
   (its reinforcement, restock rule and side), so the paper always says what the
   simulation does; it states the label size and, for a reduced kit, what the operator
   does once MENACE has no box;
2. a colour key: the nine bead colours, each naming one square of a box's drawing, and one
   label explained;
3. the box index: every box's position, written as the squares of its crosses and its
   noughts, in order, with its box number;
4. the labels, one per matchbox, as many to a page as fit, with cut marks.

Why these choices
-----------------
* **Boxes in index order.** Each position is drawn in the orientation (of its eight
  turned and mirrored copies) that puts the crosses on the lowest-numbered squares, then
  the noughts. Boxes are numbered from 1 in order of MENACE's move, then of those
  squares: the index is the boxes' own order, so looking a board up is a search in a
  sorted list, and the boxes stand on the shelf in the same order. (The library's own box
  index, :attr:`Label.library_box`, orders positions by its internal state number.) The
  rule has one owner, :mod:`menace_lib.machine.printed`, which the widgets read too, so a
  box's number and its beads' colours on screen are the ones on its label.
* **One colour per square.** Bead colour ``i`` always plays square ``i`` of the drawing
  (:data:`menace_lib.book.plotting.BEAD_COLOURS` and their names
  :data:`~menace_lib.book.plotting.BEAD_COLOUR_NAMES`, the names the widgets print). In the
  ``class`` layout a colour stands for a whole move class and carries the colour of the
  class's first square; the other squares of the class are marked with small dots, since
  any of them is an equivalent move.
* **Label size.** By default 63.5 mm x 50.8 mm (2.5 x 2 inches: a large household
  matchbox's front, or a common sheet of sticky labels); ``small`` is 50 mm x 35 mm, the
  front of a common small matchbox; any size from :data:`MIN_LABEL_MM` to
  :data:`MAX_LABEL_MM` can be given. As many labels as fit go on a page, with at least
  :data:`MARGIN_MM` for the cut marks.
* **Reduced kits.** ``moves=(1, 2)`` prints only the boxes of MENACE's first two moves
  (13 boxes instead of 287), with their numbers in the full kit; the operator then plays
  MENACE's later moves by a fixed rule (:data:`AFTER_LAST_BOX_RULE`), and only the drawn
  beads are reinforced.
* **Text stays text.** Fonts are embedded as TrueType (``pdf.fonttype`` 42), so the PDF
  can be searched, read aloud, and checked by the tests.
"""

from __future__ import annotations

import io
import math
import os
import textwrap
from collections.abc import Sequence
from dataclasses import dataclass
from pathlib import Path

import matplotlib as mpl
import matplotlib.pyplot as plt
from matplotlib.backends.backend_pdf import PdfPages
from matplotlib.collections import LineCollection, PatchCollection
from matplotlib.figure import Figure
from matplotlib.patches import Circle, Patch, Rectangle

from .. import __version__
from ..base.files import check_distinct_files, check_output_path, write_bytes
from ..base.palette import BEAD_COLOUR_NAMES, BEAD_COLOURS
from ..base.progress import bar
from ..games.board import Board, O, X, board_to_grid, square_number
from ..machine.menace import Menace, MenaceConfig
from ..machine.printed import kit_key, printed
from .options import (
    LABEL_SIZE_MM,
    LABEL_SIZES,
    MAX_LABEL_MM,
    MIN_LABEL_MM,
    parse_label_size,
    parse_moves,
)

__all__ = [
    "AFTER_LAST_BOX_RULE",
    "COLUMNS",
    "LABEL_SIZES",
    "LABEL_SIZE_MM",
    "MARGIN_MM",
    "MAX_LABEL_MM",
    "MIN_LABEL_MM",
    "PAPERS",
    "ROWS",
    "Bead",
    "KitSummary",
    "Label",
    "grid",
    "index_entry",
    "instructions",
    "kit_agent",
    "label_figure",
    "labels",
    "page_count",
    "parse_label_size",
    "parse_moves",
    "write_kit",
]

PAPERS: dict[str, tuple[str, float, float]] = {
    "a4": ("A4", 210.0, 297.0),
    "letter": ("US Letter", 215.9, 279.4),
}
"""Paper sizes by option name: (display name, width mm, height mm)."""

MARGIN_MM = 9.5  # at least this much paper around the labels, for the cut marks
COLUMNS, ROWS = 3, 5  # labels per page at the default size (on A4 and on US Letter)
FRONT_PAGES = 2  # the instruction sheet and the colour key
AFTER_LAST_BOX_RULE = (
    "complete a line of three if it can; otherwise block the opponent's line of two; "
    "otherwise play the free square with the lowest number"
)
"""What the operator plays for MENACE once a reduced kit has no box for its move."""

_MM_PER_INCH = 25.4
_MM_PER_POINT = _MM_PER_INCH / 72
_INK = "#222222"
_FAINT = "#BBBBBB"
_MONO = "DejaVu Sans Mono"
_CUT_GAP, _CUT_LENGTH = 1.5, 5.0  # mm between a label's edge and its cut mark; mark length
_PLAYER_NAME = {X: "X", O: "O"}


@dataclass(frozen=True)
class Bead:
    """One bead colour of a matchbox: which squares it plays and how many beads it has."""

    colour: str
    name: str
    squares: tuple[int, ...]
    count: float

    @property
    def square(self) -> int:
        """The square this colour plays (the first of its move class)."""
        return self.squares[0]


@dataclass(frozen=True)
class Label:
    """The front of one matchbox."""

    box: int
    board: Board
    move: int
    player: int
    beads: tuple[Bead, ...]
    library_box: int = -1

    @property
    def text(self) -> str:
        """The position as text, rows top to bottom (``.`` empty)."""
        return board_to_grid(self.board)

    @property
    def key(self) -> tuple[tuple[int, ...], tuple[int, ...]]:
        """The squares (1-9) of the crosses and of the noughts: the index's sort key."""
        return _key(self.board)

    def lines(self) -> list[str]:
        """The label's words, as printed (the tests read them back from the PDF)."""
        rows = [f"{b.name} {square_number(b.square)} {_count(b.count)}" for b in self.beads]
        return [f"Box {self.box}", self.text, *rows]


@dataclass(frozen=True)
class KitSummary:
    """What :func:`write_kit` wrote."""

    path: Path
    paper: str
    labels: int
    pages: int
    beads: float
    label_size: tuple[float, float] = LABEL_SIZE_MM
    moves: tuple[int, int] = (1, 4)


def kit_agent(layout: str = "class", filter: str = "michie", player: int = X) -> Menace:
    """A fresh MENACE to print: Michie's move-class boxes and his 287 positions by default.

    ``filter="decision"`` gives the 304 boxes with a real choice, double threats included.
    """
    return Menace(MenaceConfig(layout=layout, filter=filter, player=player))


def _key(board: Sequence[int]) -> tuple[tuple[int, ...], tuple[int, ...]]:
    return kit_key(board)


def _label(agent: Menace, library_box: int) -> Label:
    """Library box ``library_box`` as the kit prints it: :func:`printed_layout
    <menace_lib.machine.printed.printed_layout>` owns its number, its orientation and its
    bead colours (the widgets show the same)."""
    P = printed(agent)
    beads = tuple(
        Bead(
            BEAD_COLOURS[P.colours[library_box][j]],
            BEAD_COLOUR_NAMES[P.colours[library_box][j]],
            P.squares[library_box][j],
            agent.weights[library_box][j],
        )
        for j in P.bead_order[library_box]
    )
    return Label(
        P.numbers[library_box],
        P.boards[library_box],
        P.moves[library_box],
        agent.config.player,
        beads,
        library_box,
    )


def labels(agent: Menace, moves: tuple[int, int] | None = None) -> list[Label]:
    """One :class:`Label` per matchbox of ``agent``, with its current bead counts.

    Labels come in the kit's order and carry the kit's numbers (MENACE's move, then
    :attr:`Label.key`; :mod:`menace_lib.machine.printed`); ``moves=(first, last)`` keeps
    only the boxes of those moves of MENACE, with the numbers they have in the full kit.
    """
    first, last = (1, 99) if moves is None else moves
    P = printed(agent)
    return [_label(agent, b) for b in P.order if first <= P.moves[b] <= last]


def grid(paper: str, label_size: tuple[float, float] = LABEL_SIZE_MM) -> tuple[int, int]:
    """Labels per page of ``label_size`` on ``paper``: (columns, rows)."""
    _, width, height = PAPERS[paper]
    w, h = label_size
    return int((width - 2 * MARGIN_MM) // w), int((height - 2 * MARGIN_MM) // h)


def page_count(n_labels: int, per_page: int = COLUMNS * ROWS, index_pages: int = 0) -> int:
    """Pages of a kit: the two front pages, ``index_pages`` and the label sheets."""
    return FRONT_PAGES + index_pages + math.ceil(n_labels / per_page)


def index_entry(label: Label) -> str:
    """One line of the box index: the crosses' squares, the noughts' squares, the box."""
    xs, os_ = ("".join(map(str, squares)) or "-" for squares in label.key)
    return f"{xs:<4} {os_:<4}{label.box:>4}"


# --- the instruction sheet -------------------------------------------------------------


def _count(x: float) -> str:
    return f"{x:g}"


def _beads(n: float) -> str:
    return f"{_count(n)} bead" + ("" if n == 1 else "s")


def _after_game(delta: float) -> str:
    """What to do with one drawn bead when the game has changed its colour by ``delta``."""
    if delta > 0:
        return f"put the bead back with {_beads(delta)} more of its colour"
    if delta == 0:
        return "put the bead back, nothing more"
    if delta == -1:
        return "keep the bead out of the box"
    return f"keep the bead out and take {_beads(-delta - 1)} more of its colour out"


def _restock_rule(config: MenaceConfig) -> str:
    if config.restock == "box":
        return (
            "When a box has no beads left at all, refill it with the beads printed on its "
            "label before MENACE draws from it again. (Michie's own machine resigned instead; "
            "the thesis's program, and this kit, refill.)"
        )
    if config.restock == "move":
        refill = config.move_restock_beads
        how = "its count printed on the label" if refill is None else _beads(refill)
        return (
            f"When the last bead of a colour leaves a box, put back {how} of that colour at "
            "once, so no move is ever lost for good."
        )
    return (
        "Never refill a box. If MENACE has to draw from an empty box, it resigns: the game "
        "is a loss, like the original machine."
    )


def _no_box_rule(config: MenaceConfig) -> str:
    if config.filter == "all":
        return "Every position MENACE can meet on its turn has a box."
    if config.filter == "decision":
        return "If no box shows the board, only one square is free: play it."
    opponent = _PLAYER_NAME[O if config.player == X else X]
    return (
        "If no box shows the board, either only one square is free (play it) or "
        f"{opponent} already threatens to complete two lines, so MENACE loses whatever it "
        "does (play any free square). Nothing is learnt there."
    )


def _reduced_rule(moves: tuple[int, int], last_move: int) -> str:
    """What the operator does in a reduced kit when MENACE has no box for its move."""
    first, last = moves
    kept = f"move {first}" if first == last else f"moves {first} to {last}"
    return (
        f"This reduced kit has boxes for MENACE's {kept} (of {last_move}) only. For its other "
        f"moves you play for MENACE by a fixed rule: {AFTER_LAST_BOX_RULE}. Only beads drawn "
        f"from boxes are rewarded, so MENACE learns its {kept} and nothing else."
    )


def instructions(
    agent: Menace,
    source: str | None = None,
    *,
    moves: tuple[int, int] | None = None,
    label_size: tuple[float, float] = LABEL_SIZE_MM,
) -> list[tuple[str, str]]:
    """The instruction sheet as (heading, paragraph) pairs, written for ``agent``'s rules.

    Parameters
    ----------
    agent
        The MENACE whose boxes are printed; its configuration decides the rules.
    source
        Where the bead counts come from (an agent file), or ``None`` for a fresh agent.
    moves
        The (first, last) moves of MENACE whose boxes are printed; ``None`` for all.
    label_size
        The labels' width and height in mm, stated on the sheet.
    """
    cfg = agent.config
    me = _PLAYER_NAME[cfg.player]
    first = "moves first" if cfg.player == X else "moves second"
    win, draw, loss = cfg.reinforcement
    printed = labels(agent, moves)
    last_move = max(label.move for label in labels(agent))
    total = sum(bead.count for label in printed for bead in label.beads)
    if source is None:
        counts = (
            "Each label lists a fresh MENACE's beads: "
            + ", ".join(_count(b) for b in cfg.schedule)
            + " of each colour for MENACE's first, second, ... move."
        )
    else:
        counts = (
            f"Each label lists the beads of the trained MENACE in {source} "
            f"({agent.games_trained} games of training), so your boxes start where it stopped."
        )
    colour_word = "move class (a set of equivalent squares)" if cfg.layout == "class" else "square"
    w, h = label_size
    size = f"{w:g} mm x {h:g} mm"
    if label_size == LABEL_SIZES["large"]:
        size += " (large matchboxes; --label-size small prints 50 mm x 35 mm ones)"
    reduced = moves is not None and moves != (1, last_move)
    rule = _no_box_rule(cfg)
    if reduced:
        rule = _reduced_rule(moves, last_move) + " " + rule
    return [
        (
            "What you need",
            f"{len(printed)} empty matchboxes, glue and scissors; beads in the nine colours of "
            f"the colour key: {_count(total)} to fill every box as printed, and plenty more for "
            "the rewards; a paper board and a cup for the beads drawn during a game. "
            f"Each label is {size}.",
        ),
        (
            "Making the boxes",
            "Cut the labels out along the marks and glue one onto each box. Put into every box "
            f"the beads its label lists: for each colour, the number printed after it. {counts} "
            f"Each colour stands for one {colour_word}. Stand the boxes in order of their "
            "numbers, which is the order of the box index.",
        ),
        (
            "Finding the box",
            "Number the squares 1 to 9, row by row from the top left. Write down the squares "
            "of the crosses, then of the noughts: that is how the box index lists every "
            "position, sorted by move, then by those squares, with its box number. Each box "
            "shows its position turned or mirrored so that the crosses sit on the lowest "
            "squares (then the noughts): if your board is not in the index, turn or flip the "
            "paper board (eight ways at most) until it is.",
        ),
        (
            "Playing a game",
            f"MENACE plays {me} and {first}. On its turn, find its box. Shake the box, draw one "
            "bead without looking, and play the square its colour marks on the drawing, then "
            "turn the board back. Small dots of the same colour mark equivalent squares: any of "
            "them will do. Put the bead on top of its box until the game is over. " + rule,
        ),
        (
            "After the game",
            "Every bead that was drawn is treated the same way, whatever the move. "
            f"If MENACE won: {_after_game(win)}. If it was a draw: {_after_game(draw)}. "
            f"If MENACE lost: {_after_game(loss)}. Moves that led to wins become more likely, "
            "moves that led to losses less likely: that is all the learning there is.",
        ),
        ("Empty boxes", _restock_rule(cfg)),
        (
            "Keeping score",
            "Tally wins, draws and losses in blocks of ten games. A fresh MENACE plays almost "
            "at random; after a few dozen games against a careful player it should draw more "
            "and more often. The book's chapter 'MENACE: history and mechanism' explains every "
            "rule; 'Build your own MENACE' prints the boxes of a MENACE trained on a computer.",
        ),
    ]


# --- drawing ---------------------------------------------------------------------------


class _Page:
    """One page drawn in millimetres from its bottom left corner.

    Lines and dots are collected and added as one collection each when the page is
    finished: thousands of separate artists would make a kit take many seconds.
    """

    def __init__(self, width: float, height: float, figure: Figure | None = None) -> None:
        self.width, self.height = width, height
        size = (width / _MM_PER_INCH, height / _MM_PER_INCH)
        self.figure = Figure(figsize=size) if figure is None else figure
        self.figure.set_size_inches(size)
        self.ax = self.figure.add_axes((0, 0, 1, 1))
        self.ax.set_xlim(0, self.width)
        self.ax.set_ylim(0, self.height)
        self.ax.set_axis_off()
        self.lines: dict[tuple, list] = {}
        self.dots: list[Patch] = []

    def line(self, xs: Sequence[float], ys: Sequence[float], colour: str = "black",
             width: float = 0.3, dashed: bool = False) -> None:  # fmt: skip
        self.lines.setdefault((colour, width, dashed), []).append(list(zip(xs, ys, strict=True)))

    def dot(self, xy: tuple[float, float], radius: float, face: str, width: float) -> None:
        self.dots.append(Circle(xy, radius, facecolor=face, edgecolor=_INK, lw=width))

    def box(self, xy: tuple[float, float], w: float, h: float, face: str, width: float) -> None:
        self.dots.append(Rectangle(xy, w, h, facecolor=face, edgecolor=_INK, lw=width))

    def text(self, x: float, y: float, text: str, size: float, **style) -> None:
        """Dark text, top left aligned unless ``style`` says otherwise."""
        style = {"ha": "left", "va": "top", "color": _INK, "clip_on": False, **style}
        self.ax.text(x, y, text, fontsize=size, **style)

    def finish(self) -> Figure:
        for (colour, width, dashed), segments in self.lines.items():
            style = (0, (2, 2)) if dashed else "solid"
            lines = LineCollection(segments, colors=colour, linewidths=width, linestyles=style)
            self.ax.add_collection(lines, autolim=False)
        self.ax.add_collection(PatchCollection(self.dots, match_original=True), autolim=False)
        return self.figure


def _text_colour(hex_colour: str) -> str:
    """Black or white, whichever reads better on ``hex_colour`` (WCAG relative luminance)."""

    def linear(c: float) -> float:
        return c / 12.92 if c <= 0.03928 else ((c + 0.055) / 1.055) ** 2.4

    r, g, b = (linear(c) for c in mpl.colors.to_rgb(hex_colour))
    return "black" if 0.2126 * r + 0.7152 * g + 0.0722 * b > 0.179 else "white"


def _draw_board(page: _Page, label: Label, x: float, y: float, cell: float, s: float) -> None:
    """The position with its bead dots; top left corner at (x, y), ``cell`` mm a square."""
    for i in (1, 2):
        page.line([x + i * cell] * 2, [y, y - 3 * cell], _INK, 0.6 * s)
        page.line([x, x + 3 * cell], [y - i * cell] * 2, _INK, 0.6 * s)

    def centre(sq: int) -> tuple[float, float]:
        return x + (sq % 3 + 0.5) * cell, y - (sq // 3 + 0.5) * cell

    arm = 0.3 * cell
    for sq, piece in enumerate(label.board):
        cx, cy = centre(sq)
        if piece == X:
            page.line([cx - arm, cx + arm], [cy - arm, cy + arm], _INK, 1.4 * s)
            page.line([cx - arm, cx + arm], [cy + arm, cy - arm], _INK, 1.4 * s)
        elif piece == O:
            page.dots.append(Circle((cx, cy), arm, fill=False, edgecolor=_INK, lw=1.4 * s))
    for bead in label.beads:
        hollow = bead.count <= 0  # a trained box can hold no beads of a colour
        for k, sq in enumerate(bead.squares):
            radius = (0.34 if k == 0 else 0.16) * cell
            page.dot(centre(sq), radius, "white" if hollow else bead.colour, 0.4 * s)
        ink = _INK if hollow else _text_colour(bead.colour)
        size = (6.5 if bead.count < 100 else 5.0) * s
        page.text(*centre(bead.square), _count(bead.count), size, ha="center", va="center",
                  color=ink)  # fmt: skip


def _legend_row(name: str, square: str, count: str) -> str:
    """One legend line in a monospaced font, so its three columns line up."""
    return f"{name:<9}{square:>2}{count:>6}"


def _draw_label(
    page: _Page,
    label: Label,
    x0: float,
    y0: float,
    s: float = 1.0,
    size: tuple[float, float] | None = None,
) -> None:
    """One label with its bottom left corner at (x0, y0), scaled by ``s``.

    ``size`` is the label's printed width and height in mm (the drawing is laid out for
    :data:`LABEL_SIZE_MM` times ``s``, which must fit inside it).
    """
    w, h = size or tuple(v * s for v in LABEL_SIZE_MM)
    pad = 2.5 * s
    top = y0 + h - pad
    page.text(x0 + pad, top, f"Box {label.box}", 10 * s, fontweight="bold")
    side = f"{_PLAYER_NAME[label.player]} to play, move {label.move}"
    page.text(x0 + w - pad, top, side, 6 * s, ha="right")
    page.text(x0 + pad, top - 5.0 * s, label.text, 6.5 * s, family=_MONO)
    cell, board_top = 10.0 * s, top - 9.5 * s
    _draw_board(page, label, x0 + pad, board_top, cell, s)
    # The legend: one row per colour -- swatch, then name, the square it plays, bead count;
    # the rows are one text (one artist per label instead of one per row: a faster kit).
    left = x0 + pad + 3 * cell + 2.5 * s
    font = 5.2 * s
    row = min(3.6 * s, (board_top - (top - h + 2 * pad)) / (len(label.beads) + 1))
    spacing = row / (font * _MM_PER_POINT)  # matplotlib's linespacing: row / font size
    header = _legend_row("bead", "sq", "beads")
    page.text(left + 2.8 * s, board_top, header, font, family=_MONO, color="#555555")
    rows = [
        _legend_row(bead.name, str(square_number(bead.square)), _count(bead.count))
        for bead in label.beads
    ]
    page.text(left + 2.8 * s, board_top - row, "\n".join(rows), font, family=_MONO,
              linespacing=spacing)  # fmt: skip
    for k, bead in enumerate(label.beads):
        page.dot((left + 1.1 * s, board_top - (k + 1.5) * row), 1.1 * s, bead.colour, 0.3 * s)


def _cut_marks(page: _Page, x0: float, y0: float, size: tuple[float, float],
               columns: int, rows: int) -> None:  # fmt: skip
    """Marks in the margin on every cut line, and a faint outline of every label."""
    w, h = size
    x1, y1 = x0 + columns * w, y0 + rows * h
    near, far = _CUT_GAP, _CUT_GAP + _CUT_LENGTH
    for x in (x0 + i * w for i in range(columns + 1)):
        page.line([x, x], [y1 + near, y1 + far])
        page.line([x, x], [y0 - near, y0 - far])
        page.line([x, x], [y0, y1], _FAINT, 0.2, dashed=True)
    for y in (y0 + j * h for j in range(rows + 1)):
        page.line([x0 - near, x0 - far], [y, y])
        page.line([x1 + near, x1 + far], [y, y])
        page.line([x0, x1], [y, y], _FAINT, 0.2, dashed=True)


def _footer(page: _Page, text: str) -> None:
    page.text(page.width / 2, 4.0, text, 6, ha="center", va="bottom", color="#555555")


def _label_sheet(
    paper: str, sheet: Sequence[Label], footer: str, size: tuple[float, float] = LABEL_SIZE_MM
) -> Figure:
    page = _Page(*PAPERS[paper][1:])
    columns, rows = grid(paper, size)
    w, h = size
    s = min(w / LABEL_SIZE_MM[0], h / LABEL_SIZE_MM[1])
    x0, y0 = (page.width - columns * w) / 2, (page.height - rows * h) / 2
    _cut_marks(page, x0, y0, size, columns, rows)
    for k, label in enumerate(sheet):
        col, row = k % columns, k // columns
        _draw_label(page, label, x0 + col * w, y0 + (rows - 1 - row) * h, s, size)
    _footer(page, footer)
    return page.finish()


def _index_sheets(paper: str, all_labels: Sequence[Label]) -> list[list[tuple[str, str]]]:
    """The box index's lines, page by page: ("move", heading) or ("entry", text)."""
    lines: list[tuple[str, str]] = []
    for move in sorted({label.move for label in all_labels}):
        mine = [label for label in all_labels if label.move == move]
        lines.append(("move", f"Move {move}"))
        lines.append(("head", f"{'X':<4} {'O':<4}{'box':>4}"))
        lines.extend(("entry", index_entry(label)) for label in mine)
    per_page = _INDEX_COLUMNS * _index_rows(paper)
    first = per_page - _INDEX_INTRO_ROWS * _INDEX_COLUMNS
    pages = [lines[:first]]
    pages += [lines[k : k + per_page] for k in range(first, len(lines), per_page)]
    return pages


_INDEX_COLUMNS, _INDEX_FONT, _INDEX_INTRO_ROWS = 5, 7.5, 8
_INDEX_ROW_MM = _INDEX_FONT * _MM_PER_POINT * 1.3


def _index_rows(paper: str) -> int:
    return int((PAPERS[paper][2] - 2 * 20.0 - 12) // _INDEX_ROW_MM)


def _index_page(paper: str, lines: Sequence[tuple[str, str]], first: bool, footer: str) -> Figure:
    page = _Page(*PAPERS[paper][1:])
    margin = 20.0
    width = page.width - 2 * margin
    top = page.height - margin
    page.text(margin, top, "Box index" if first else "Box index (continued)", 18,
              fontweight="bold")  # fmt: skip
    y = top - 12
    if first:
        note = (
            "Squares are numbered 1 to 9, row by row from the top left. Each line gives the "
            "squares of the crosses (X), then of the noughts (O), then the box. Turn or flip "
            "the board until its crosses sit on the lowest squares it can (then its noughts): "
            "that board is in this list. The boxes are numbered in the list's order."
        )
        end = _paragraph(page, margin, y, note, 9.5, width)
        y = top - 12 - (_INDEX_INTRO_ROWS - 1) * _INDEX_ROW_MM
        assert end > y, "the index's note overflows its rows"  # a bug, not input
    rows = _index_rows(paper) - (_INDEX_INTRO_ROWS if first else 0)
    column = width / _INDEX_COLUMNS
    for k, (kind, text) in enumerate(lines):
        x, yy = margin + (k // rows) * column, y - (k % rows) * _INDEX_ROW_MM
        style = {"fontweight": "bold"} if kind == "move" else {"family": _MONO}
        if kind == "head":
            style["color"] = "#555555"
        page.text(x, yy, text, _INDEX_FONT, **style)
    _footer(page, footer)
    return page.finish()


def _paragraph(page: _Page, x: float, y: float, text: str, size: float, width: float) -> float:
    """Write ``text`` wrapped to ``width`` mm; return the y below it."""
    chars = int(width / (0.55 * size * _MM_PER_POINT))  # DejaVu Sans's average glyph width
    for line in textwrap.wrap(text, chars):
        page.text(x, y, line, size)
        y -= size * _MM_PER_POINT * 1.45
    return y


def _instruction_sheet(paper: str, agent: Menace, source: str | None, footer: str,
                       moves: tuple[int, int] | None,
                       size: tuple[float, float]) -> Figure:  # fmt: skip
    """The first page; its text shrinks a little if the rules run long (a reduced kit on
    US Letter), and never below 8.5 pt."""
    for font in (9.5, 9.0, 8.5):
        page = _Page(*PAPERS[paper][1:])
        if _instructions_fit(page, agent, source, moves, size, font):
            _footer(page, footer)
            return page.finish()
        plt.close(page.figure)
    raise RuntimeError("the instruction sheet does not fit on one page")  # a bug, not input


def _instructions_fit(page: _Page, agent: Menace, source: str | None,
                      moves: tuple[int, int] | None, size: tuple[float, float],
                      font: float) -> bool:  # fmt: skip
    margin, width = 20.0, page.width - 40.0
    top = page.height - margin
    page.text(margin, top, "Build your own MENACE", 18, fontweight="bold")
    cfg = agent.config
    layout = "move-class beads (Michie's)" if cfg.layout == "class" else "one colour per square"
    n = len(labels(agent, moves))
    which = "" if moves is None else f", MENACE's moves {moves[0]}-{moves[1]}"
    page.text(margin, top - 10, f"{n} matchboxes ({cfg.filter} filter{which}), {layout}", 10)
    y = top - 19
    for heading, text in instructions(agent, source, moves=moves, label_size=size):
        page.text(margin, y, heading, font + 1.5, fontweight="bold")
        y = _paragraph(page, margin, y - 0.68 * (font + 1.5), text, font, width) - 3.5
    return y >= 12.0  # the footer's line


def _colour_key(paper: str, sample: Label, footer: str) -> Figure:
    page = _Page(*PAPERS[paper][1:])
    margin, cell, scale = 20.0, 24.0, 1.45
    width = page.width - 2 * margin
    page.text(margin, page.height - margin, "Colour key", 18, fontweight="bold")
    note = (
        f"A bead's colour names a square of the drawing on its box: {BEAD_COLOUR_NAMES[0]} is "
        f"always the top left square (1), {BEAD_COLOUR_NAMES[8]} the bottom right (9). Buy "
        "beads in these nine colours (close shades are fine: every label prints the colour's "
        "name too)."
    )
    top = _paragraph(page, margin, page.height - margin - 11, note, 10, width) - 4
    for sq, (colour, name) in enumerate(zip(BEAD_COLOURS, BEAD_COLOUR_NAMES, strict=True)):
        x, y = margin + (sq % 3) * cell, top - (sq // 3 + 1) * cell
        page.box((x, y), cell, cell, colour, 0.8)
        ink = _text_colour(colour)
        number = str(square_number(sq))
        page.text(x + cell / 2, y + cell * 0.6, number, 16, ha="center", va="center",
                  color=ink, fontweight="bold")  # fmt: skip
        page.text(x + cell / 2, y + cell * 0.25, name, 9, ha="center", va="center", color=ink)
    sx = margin + 3 * cell + 10
    page.text(sx, top, f"Reading a label (box {sample.box}, enlarged)", 10, fontweight="bold")
    lw, lh = (v * scale for v in LABEL_SIZE_MM)
    page.box((sx, top - 6 - lh), lw, lh, "none", 0.3)
    _draw_label(page, sample, sx, top - 6 - lh, scale)
    y = top - 6 - max(lh, 3 * cell) - 10
    for point in (
        "Top line: the box number (the box index's order), whose turn it is and which of "
        "their moves the box serves.",
        "Second line: the position as text, rows from top to bottom; '.' is an empty square.",
        "The drawing: a big dot on each square a bead colour plays, with the number of beads "
        "of that colour inside; small dots of the same colour mark equivalent squares.",
        "The list: each bead colour, the square (sq) it plays and how many beads of it the "
        "box holds.",
    ):
        y = _paragraph(page, margin, y, "- " + point, 10, width) - 1.5
    _footer(page, footer)
    return page.finish()


def label_figure(some: Sequence[Label], columns: int = 3) -> Figure:
    """A few labels at print size, on white cards with their cut lines, for a book page."""
    if not some:
        raise ValueError("label_figure needs at least one label")
    w, h = LABEL_SIZE_MM
    rows = math.ceil(len(some) / columns)
    # A pyplot figure, so that notebooks show it with plt.show() like every other figure.
    page = _Page(min(columns, len(some)) * w, rows * h, plt.figure())
    page.figure.patch.set_alpha(0)  # the cards are white; the page around them shows through
    for k, label in enumerate(some):
        x0, y0 = (k % columns) * w, (rows - 1 - k // columns) * h
        page.dots.append(Rectangle((x0, y0), w, h, facecolor="white", edgecolor=_FAINT, lw=0.8))
        _draw_label(page, label, x0, y0)
    return page.finish()


# --- the file --------------------------------------------------------------------------


def write_kit(
    agent: Menace,
    path: str | os.PathLike[str],
    paper: str = "a4",
    source: str | None = None,
    *,
    option: str | None = None,
    moves: tuple[int, int] | None = None,
    label_size: tuple[float, float] = LABEL_SIZE_MM,
    progress: bool | None = None,
) -> KitSummary:
    """Write the kit for ``agent`` as a PDF at ``path``.

    Parameters
    ----------
    agent
        The MENACE to print; its current bead counts go on the labels.
    path
        The PDF file to write, through :func:`menace_lib.base.files.write_bytes`: in one step,
        only ever replacing a regular file; a failure leaves any old file intact.
    paper
        ``"a4"`` or ``"letter"``.
    source
        The agent file the beads were read from, named on the instruction sheet.
    option
        The command-line option ``path`` came from, named in errors.
    moves
        Print only the boxes of MENACE's moves ``(first, last)`` (:func:`parse_moves`);
        ``None`` prints them all.
    label_size
        Width and height of a label in mm (:func:`parse_label_size`).
    progress
        A bar of pages on standard error (:mod:`menace_lib.base.progress`): ``None`` follows the
        command line's ``--progress/--no-progress`` switch.

    Returns
    -------
    KitSummary
        Path, paper, numbers of labels and pages, beads needed, label size and moves.
    """
    if paper not in PAPERS:
        raise ValueError(f"unknown paper {paper!r}; choose one of {sorted(PAPERS)}")
    parse_label_size(f"{label_size[0]:g}x{label_size[1]:g}")  # the same limits as the CLI
    target = check_output_path(path, option)  # refuse a bad target before the work
    if source is not None:  # never write the kit over the agent file it prints
        check_distinct_files({option or "path": path}, {"--from" if option else "source": source})
    all_labels = labels(agent, moves)
    if not all_labels:
        raise ValueError(f"moves {moves}: MENACE has no box for those moves")
    columns, rows = grid(paper, label_size)
    per_sheet = columns * rows
    index = _index_sheets(paper, all_labels)
    pages = page_count(len(all_labels), per_sheet, len(index))
    name = PAPERS[paper][0]

    def footer(page: int) -> str:
        return f"MENACE matchbox kit, menace_lib {__version__}, {name}, page {page} of {pages}"

    def figures():
        yield _instruction_sheet(paper, agent, source, footer(1), moves, label_size)
        yield _colour_key(paper, all_labels[0], footer(2))
        for k, lines in enumerate(index):
            yield _index_page(paper, lines, k == 0, footer(FRONT_PAGES + k + 1))
        for k in range(0, len(all_labels), per_sheet):
            page = FRONT_PAGES + len(index) + k // per_sheet + 1
            yield _label_sheet(paper, all_labels[k : k + per_sheet], footer(page), label_size)

    buffer = io.BytesIO()
    # Type 42 (TrueType) fonts keep the text extractable; no creation date, so the same
    # agent always gives the same bytes.
    with (
        mpl.rc_context({"pdf.fonttype": 42, "font.family": "DejaVu Sans"}),
        PdfPages(buffer, metadata={"Title": "MENACE matchbox kit", "CreationDate": None}) as pdf,
        bar(pages, "kit", unit="page", progress=progress) as shown,
    ):
        for figure in figures():
            pdf.savefig(figure)
            shown.update(1)
    write_bytes(target, buffer.getvalue(), option=option)
    beads = sum(bead.count for label in all_labels for bead in label.beads)
    first_last = moves or (1, all_labels[-1].move)
    return KitSummary(target, paper, len(all_labels), pages, beads, label_size, first_last)
