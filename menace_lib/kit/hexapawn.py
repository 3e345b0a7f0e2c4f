"""The printable HER kit: a one-page rule card and 19 box fronts for real matchboxes.

``python -m menace_lib kit --game hexapawn`` writes a two-page PDF from which a class
builds Gardner's HER without anything else:

1. **the rule card**: what to buy (19 matchboxes, beads in four colours, counted per
   colour), how HER plays (find the box, mirror it if needed, draw a bead, move its
   arrow), how it learns (Gardner's rule: after a loss take away the bead of HER's last
   move; an empty box resigns), and the rules of Hexapawn;
2. **the box fronts**, one per box, 48 mm x 34 mm (the top of a standard household
   matchbox, about 53 mm x 36 mm, with room to glue), 3 x 7 to a page with cut lines.
   Each shows the box number, HER's move (2, 4 or 6), the position (White open, Black
   filled, files a-c and ranks 1-3) and one arrow per legal move in the colour of its
   bead, with the move written beside the colour's name.

Bead colour ``k`` is the ``k``-th move of a box, so four colours serve every box; the
colours are Okabe-Ito hues, distinct for colour-blind readers, named on every label with
the palette's names. Box numbers, moves and colours are read from
:func:`menace_lib.machine.printed.printed_layout`, which the HER widget reads too.
"""

from __future__ import annotations

import io
import textwrap
from dataclasses import dataclass
from pathlib import Path

import matplotlib as mpl
import matplotlib.pyplot as plt
from matplotlib.backends.backend_pdf import PdfPages
from matplotlib.patches import Circle, FancyArrowPatch, Rectangle

from .. import __version__
from ..agents.her import her_config
from ..base.files import check_output_path, write_bytes
from ..base.palette import BEAD_COLOUR_NAMES, MOVE_ORDER_COLOURS
from ..base.palette import BEAD_COLOURS as PALETTE_COLOURS
from ..games.hexapawn import BLACK, HEXAPAWN
from ..games.registry import game_tables
from ..machine.engine import box_layout
from ..machine.printed import printed_layout

PAPERS = {"a4": (210.0, 297.0), "letter": (215.9, 279.4)}
LABEL_MM = (48.0, 34.0)
"""A box front, width x height in mm (a household matchbox top is about 53 x 36)."""
COLUMNS, ROWS = 3, 7
BEAD_COLOURS = tuple((BEAD_COLOUR_NAMES[c], PALETTE_COLOURS[c]) for c in MOVE_ORDER_COLOURS)
"""The four bead colours as (name, colour), for a box's 1st to 4th move: the palette's
colours and names (:data:`menace_lib.base.palette.MOVE_ORDER_COLOURS`), as the widgets
show them (:mod:`menace_lib.machine.printed` owns which bead gets which)."""

__all__ = ["BEAD_COLOURS", "LABEL_MM", "HerKit", "her_boxes", "write_her_kit"]


@dataclass(frozen=True)
class HerBox:
    """One box: its number, HER's move, the position's cells and its moves."""

    number: int
    move: int
    cells: tuple[int, ...]
    moves: tuple[tuple[int, int, str], ...]  # (from cell, to cell, name) per bead colour
    colours: tuple[tuple[str, str], ...] = ()  # (name, colour) of each move's bead


@dataclass(frozen=True)
class HerKit:
    """What :func:`write_her_kit` wrote."""

    path: Path
    pages: int
    boxes: int
    beads: dict[str, int]


def her_boxes() -> list[HerBox]:
    """HER's 19 boxes in printed order (HER's move, then the library's box order), each
    with its moves and their bead colours, as :func:`printed_layout` numbers and colours
    them."""
    config = her_config("gardner")  # both rules share HER's boxes
    P = printed_layout("hexapawn", config.filter, config.layout, BLACK)
    T = game_tables("hexapawn")
    layout = box_layout("hexapawn", config.filter, config.layout, BLACK)
    out = []
    for b in P.order:
        pid = layout.states[b]
        pos = T.position(pid)
        moves, colours = [], []
        for j in P.bead_order[b]:
            (m,) = P.squares[b][j]
            r, c = divmod(m // 3, 3)
            dest = 3 * (r + 1) + c + m % 3 - 1
            moves.append((m // 3, dest, HEXAPAWN.move_name(pos, m)))
            colours.append((BEAD_COLOUR_NAMES[P.colours[b][j]], PALETTE_COLOURS[P.colours[b][j]]))
        out.append(
            HerBox(P.numbers[b], int(T.ply[pid]) + 1, P.boards[b], tuple(moves), tuple(colours))
        )
    return out


class _Page:
    """One page drawn in millimetres from the top left corner."""

    def __init__(self, paper: str) -> None:
        self.w, self.h = PAPERS[paper]
        self.fig = plt.figure(figsize=(self.w / 25.4, self.h / 25.4))
        self.ax = self.fig.add_axes((0, 0, 1, 1))
        self.ax.set_xlim(0, self.w)
        self.ax.set_ylim(self.h, 0)
        self.ax.axis("off")

    def text(self, x: float, y: float, s: str, size: float = 9, **kw) -> None:
        self.ax.text(x, y, s, fontsize=size, va="top", ha=kw.pop("ha", "left"), **kw)


def _board(page: _Page, box: HerBox, x: float, y: float, cell: float) -> None:
    ax = page.ax
    for r in range(3):
        for c in range(3):
            shade = "#e6e6e6" if (r + c) % 2 else "#ffffff"
            ax.add_patch(
                Rectangle((x + c * cell, y + r * cell), cell, cell, fc=shade, ec="#555555", lw=0.6)
            )
            v = box.cells[3 * r + c]
            if v:
                ax.add_patch(
                    Circle(
                        (x + (c + 0.5) * cell, y + (r + 0.5) * cell),
                        cell * 0.3,
                        fc="white" if v == 1 else "black",
                        ec="black",
                        lw=0.9,
                    )
                )
    for k, (a, b, _) in enumerate(box.moves):
        (ra, ca), (rb, cb) = divmod(a, 3), divmod(b, 3)
        ax.add_patch(
            FancyArrowPatch(
                (x + (ca + 0.5) * cell, y + (ra + 0.5) * cell),
                (x + (cb + 0.5) * cell, y + (rb + 0.5) * cell),
                arrowstyle="-|>",
                mutation_scale=7,
                color=box.colours[k][1],
                lw=1.6,
                shrinkA=2,
                shrinkB=2,
            )
        )
    for c in range(3):
        page.text(x + (c + 0.5) * cell, y + 3 * cell + 0.3, "abc"[c], 5, ha="center")
    for r in range(3):
        page.text(x - 1.8, y + (r + 0.35) * cell, str(3 - r), 5, ha="center")


def _label(page: _Page, box: HerBox, x: float, y: float) -> None:
    w, h = LABEL_MM
    page.ax.add_patch(Rectangle((x, y), w, h, fill=False, ec="#999999", lw=0.4, ls=(0, (2, 2))))
    page.text(x + 2, y + 1.5, f"HER box {box.number}", 8, weight="bold")
    page.text(x + w - 2, y + 1.8, f"move {box.move}", 6.5, ha="right")
    _board(page, box, x + 4, y + 7, 8.0)
    for k, (_, _, name) in enumerate(box.moves):
        colour, hexcode = box.colours[k]
        yy = y + 8 + 5.5 * k
        page.ax.add_patch(Circle((x + 32, yy + 1.4), 1.5, fc=hexcode, ec="black", lw=0.4))
        page.text(x + 34.5, yy, f"{colour}\n{name}", 5.5)


def _rule_card(paper: str, boxes: list[HerBox], beads: dict[str, int]) -> plt.Figure:
    page = _Page(paper)
    x, y = 18.0, 16.0
    page.text(x, y, "HER: the Hexapawn Educable Robot", 16, weight="bold")
    y += 9
    page.text(
        x,
        y,
        "A learning machine made of 19 matchboxes "
        "(Martin Gardner, Scientific American, March 1962)",
        8.5,
        style="italic",
    )
    y += 8
    buy = ", ".join(f"{n} {c}" for c, n in beads.items())
    sections = [
        (
            "You need",
            f"19 matchboxes; {sum(beads.values())} beads: {buy}; 3 white and 3 black "
            "counters for the pawns; a 3 x 3 board (draw one). Cut out the 19 box fronts on "
            "the next page and  "
            "glue each onto a matchbox. Put one bead of each arrow's colour into each box.",
        ),
        (
            "The game (Hexapawn)",
            "White's three pawns start on rank 1, Black's on rank 3. White moves first; "
            "players take turns. A pawn moves one square straight ahead to an empty square, "
            "or one square  "
            "diagonally ahead to capture an enemy pawn (take it off the board). You win by "
            "reaching the far rank, by capturing every enemy pawn, or when your opponent "
            "cannot move.  "
            "There are no draws.",
        ),
        (
            "How HER plays",
            "You play White, HER plays Black. After each of your moves, find the box whose drawing "
            "shows the board. If none does, find the one showing its mirror image (left and right "
            "swapped) and mirror HER's arrow too. Shake the box, draw one bead without looking, "
            "and make the move of the arrow of that colour. Leave the bead on top of its box "
            "until the game ends. If the box is empty, HER resigns: you win.",
        ),
        (
            "How HER learns",
            "If HER wins, put every bead back in its box. If HER loses, take away the bead of "
            "HER's last move (the one on top of the last box it opened; if HER resigned at an "
            "empty box, the bead of the move before) and put the other beads back. Nothing "
            "else changes.",
        ),
        (
            "What to watch",
            "Keep a tally of wins and losses. HER starts by playing at random and loses often. "
            "Since each loss removes one bad move for good, HER soon stops losing: how many games "
            'does your class need? The book\'s chapter "HER" gives the exact answer for a '
            "perfect, a random and a careful White.",
        ),
    ]
    for title, body in sections:
        page.text(x, y, title, 11, weight="bold")
        y += 5.5
        for line in textwrap.wrap(" ".join(body.split()), 95):
            page.text(x, y, line, 9)
            y += 4.4
        y += 3.5
    page.text(x, y, "Bead colours", 11, weight="bold")
    y += 6
    for k, (name, hexcode) in enumerate(BEAD_COLOURS):
        page.ax.add_patch(Circle((x + 3 + 40 * k, y + 2), 2.5, fc=hexcode, ec="black", lw=0.5))
        page.text(x + 7 + 40 * k, y, f"{name}: {beads.get(name, 0)} beads", 9)
    y += 10
    page.text(
        x, y, "Example: box 1, HER's first move after White advances a side pawn", 9, weight="bold"
    )
    _label(page, boxes[0], x, y + 6)
    page.text(
        x,
        page.h - 12,
        f"menace_lib {__version__} · python -m menace_lib kit --game hexapawn",
        7,
        color="#555555",
    )
    return page.fig


def _label_sheet(paper: str, boxes: list[HerBox]) -> plt.Figure:
    page = _Page(paper)
    w, h = LABEL_MM
    x0 = (page.w - COLUMNS * w) / 2
    y0 = 20.0
    page.text(
        x0,
        10,
        "HER's 19 box fronts: cut along the dashed lines and glue one onto each matchbox",
        9,
        weight="bold",
    )
    for i, box in enumerate(boxes):
        r, c = divmod(i, COLUMNS)
        _label(page, box, x0 + c * w, y0 + r * h)
    return page.fig


def write_her_kit(path: str | Path, paper: str = "a4", *, option: str | None = None) -> HerKit:
    """Write the HER kit as a PDF (all or nothing; see :mod:`menace_lib.base.files`)."""
    if paper not in PAPERS:
        raise ValueError(f"unknown paper {paper!r}; choose one of {tuple(PAPERS)}")
    target = check_output_path(path, option=option)
    boxes = her_boxes()
    beads: dict[str, int] = {name: 0 for name, _ in BEAD_COLOURS}
    for box in boxes:
        for name, _ in box.colours:
            beads[name] += 1
    buffer = io.BytesIO()
    with (
        mpl.rc_context({"pdf.fonttype": 42, "font.family": "DejaVu Sans"}),
        PdfPages(buffer, metadata={"Title": "HER matchbox kit", "CreationDate": None}) as pdf,
    ):
        for fig in (_rule_card(paper, boxes, beads), _label_sheet(paper, boxes)):
            pdf.savefig(fig)
            plt.close(fig)
    write_bytes(target, buffer.getvalue())
    return HerKit(Path(target), 2, len(boxes), beads)
