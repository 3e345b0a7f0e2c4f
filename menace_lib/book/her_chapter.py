"""The HER chapter's numbers and figures: HER's learning curves, its box counts, the
chapter's cached results and its pictures of Hexapawn positions (Gardner's 24 boxes).

HER itself (:func:`~menace_lib.agents.her.her_config`) is library code; this module is the
book's. :func:`build_results` computes the chapter's numbers and writes them as JSON (the
book reads :func:`her_results`); regenerate with ``python -m menace_lib.book.her_chapter``.
"""

from __future__ import annotations

import json
import sys
from pathlib import Path

import numpy as np

from ..agents.her import RULES, her, opponents
from ..base.files import book_data
from ..games.hexapawn import BLACK, gardner_positions
from ..games.registry import game_tables
from ..machine.menace import Menace
from ..play.exact_learning import exact_curve, exact_rates, expected_games_until

RESULTS_FILE = book_data("her.json")
"""The chapter's cached numbers (regenerate: ``python -m menace_lib.book.her_chapter``)."""

__all__ = [
    "RESULTS_FILE",
    "box_counts",
    "build_results",
    "draw_position",
    "exact_part",
    "gardner_figure",
    "her_results",
    "load_results",
    "move_arrows",
    "sampled_curve",
]


def _state(agent: Menace) -> tuple:
    return tuple(tuple(w) for w in agent.weights)


def sampled_curve(rule: str, opponent: str, games: int, seeds: int, every: int) -> dict:
    """HER trained on ``seeds`` seeds; at each mark the exact rates of each seed's HER
    against every opponent, averaged, and the share of seeds that can no longer lose
    to the training opponent; per seed, the games until its last loss."""
    opps = opponents()
    train_opp = opps[opponent]
    marks = list(range(0, games + 1, every))
    rates = {name: np.zeros((len(marks), 3)) for name in opps}
    unbeatable = np.zeros(len(marks))
    last_loss = []
    for seed in range(seeds):
        agent = her(rule)
        rng = np.random.default_rng(seed)
        results: list[int] = []
        for k, mark in enumerate(marks):
            if k:
                results += agent.train_against(train_opp, mark - marks[k - 1], rng).results
            state = _state(agent)
            for name, opp in opps.items():
                rates[name][k] += exact_rates(agent, state, opp.next_ids)
            unbeatable[k] += exact_rates(agent, state, train_opp.next_ids)[2] == 0
        last_loss.append(max((i + 1 for i, r in enumerate(results) if r == 2), default=0))
    return {
        "marks": marks,
        "rates": {k: (v / seeds).tolist() for k, v in rates.items()},
        "unbeatable": (unbeatable / seeds).tolist(),
        "last_loss_mean": float(np.mean(last_loss)),
        "last_loss_median": float(np.median(last_loss)),
        "seeds": seeds,
    }


def exact_part(opponent: str, games: int, every: int) -> dict:
    """Gardner's HER against ``opponent``: the exact curve (no seeds)."""
    opps = opponents()
    c = exact_curve(her("gardner"), opps[opponent], games, opps, every=every)
    keep = list(range(0, games + 1, every))
    if keep[-1] != games:
        keep.append(games)
    return {
        "marks": keep,
        "train_loss": c.train_loss.tolist(),
        "rates": {k: v[keep].tolist() for k, v in c.rates.items()},
        "unbeatable": c.unbeatable.tolist(),
        "expected_games_to_unbeatable_at_least": expected_games_until(c.unbeatable),
        "states_max": int(c.states.max()),
    }


def box_counts() -> dict:
    """The box counts the chapter reconciles: 37 raw, 19 boxes, 17 with a choice, 24."""
    T = game_tables("hexapawn")
    raw = np.flatnonzero((T.outcome == 0) & (T.player == BLACK))
    boxes = T.matchbox_states("all", BLACK)
    gardner = gardner_positions(T)
    by = T.counts_by_ply
    return {
        "raw": {"total": len(raw), "by_move": {str(p + 1): n for p, n in by(raw).items()}},
        "boxes": {"total": len(boxes), "by_move": {str(p + 1): n for p, n in by(boxes).items()}},
        "choice": len(T.matchbox_states("decision", BLACK)),
        "gardner": {
            "total": len(gardner),
            "by_move": {str(p + 1): n for p, n in by(np.array(gardner)).items()},
        },
        "beads": sum(len(T.legal(int(s))) for s in boxes),
    }


def build_results(path: Path = RESULTS_FILE, games: int = 60, seeds: int = 300) -> dict:
    """Compute every number of the HER chapter and write them to ``path`` (JSON)."""
    from ..base.files import write_json

    out: dict = {"games": games, "seeds": seeds, "boxes": box_counts(), "exact": {}, "sampled": {}}
    for opponent in ("perfect", "human-like"):
        out["exact"][opponent] = exact_part(opponent, games, 5)
    for rule in RULES:
        out["sampled"][rule] = {
            opponent: sampled_curve(rule, opponent, games, seeds, 5) for opponent in opponents()
        }
    write_json(path, out)
    return out


def load_results(path: Path = RESULTS_FILE) -> dict:
    """The cached numbers (see :func:`build_results`)."""
    from ..base.files import read_json

    return read_json(path, "HER results")


if __name__ == "__main__":  # python -m menace_lib.book.her_chapter [games] [seeds]
    args = [int(a) for a in sys.argv[1:3]]
    json.dump(build_results(RESULTS_FILE, *args)["boxes"], sys.stdout, indent=1)


def her_results(path: Path = RESULTS_FILE) -> dict:
    """The HER chapter's cached numbers (:func:`load_results`).

    Parameters
    ----------
    path
        The JSON file written by :func:`build_results`.

    Returns
    -------
    dict
        Box counts, exact curves and seeded curves.

    Examples
    --------
    >>> import menace_lib as ml
    >>> ml.book.her_chapter.her_results()["boxes"]["gardner"]["total"]
    24
    """
    return load_results(path)


def draw_position(
    ax, cells, title: str = "", arrows=(), at: tuple[float, float] | None = None
) -> None:
    """Draw a Hexapawn position on a matplotlib axis: White pawns as open circles, Black
    as filled ones; ``arrows`` are (from cell, to cell) pairs. With ``at=(x, y)`` the
    board is drawn as a 3 x 3 block with its lower left corner there (many boards on
    one axis, for speed); without it the axis shows this board alone.

    Parameters
    ----------
    ax
        A matplotlib axis.
    cells
        The 9 cells (0 empty, 1 White, 2 Black).

    Examples
    --------
    >>> import matplotlib.pyplot as plt
    >>> import menace_lib as ml
    >>> fig, ax = plt.subplots()
    >>> ch = ml.book.her_chapter
    >>> ch.draw_position(ax, ml.game_tables("hexapawn").cells[0], "start", ch.move_arrows(0))
    >>> plt.close(fig)
    """
    from matplotlib.collections import PatchCollection
    from matplotlib.patches import Circle, FancyArrowPatch, Rectangle

    x0, y0 = at if at is not None else (-0.5, -0.5)
    squares, pawns = [], []
    for r in range(3):
        for c in range(3):
            shade = "#d9d9d9" if (r + c) % 2 else "#ffffff"
            squares.append(Rectangle((x0 + c, y0 + 2 - r), 1, 1, fc=shade, ec="#8c8c8c"))
            v = int(cells[3 * r + c])
            if v:
                centre = (x0 + c + 0.5, y0 + 2 - r + 0.5)
                pawns.append(Circle(centre, 0.3, fc="white" if v == 1 else "black", ec="black"))
    ax.add_collection(PatchCollection(squares, match_original=True))
    ax.add_collection(PatchCollection(pawns, match_original=True, lw=1.2, zorder=2))
    for a, b in arrows:
        (ra, ca), (rb, cb) = divmod(a, 3), divmod(b, 3)
        ax.add_patch(
            FancyArrowPatch(
                (x0 + ca + 0.5, y0 + 2.5 - ra),
                (x0 + cb + 0.5, y0 + 2.5 - rb),
                arrowstyle="->",
                mutation_scale=9,
                color="#d55e00",
                lw=1.6,
                zorder=3,
            )
        )
    if title:
        ax.text(x0 + 1.5, y0 + 3.1, title, ha="center", va="bottom", fontsize=8)
    if at is None:
        ax.set_xlim(-0.6, 2.6)
        ax.set_ylim(-0.6, 3.0)
        ax.set_aspect("equal")
        ax.axis("off")


def gardner_figure(columns: int = 6):
    """Gardner's 24 boxes by HER's move, each titled with its box among the 19 (mirror
    images share a number) and arrows for HER's moves.

    Parameters
    ----------
    columns
        Boards per row (2 to 8). The figure carries its drawing for a phone's column, three
        boards a row (:func:`menace_lib.book.plotting.narrow_drawing`).

    Returns
    -------
    matplotlib.figure.Figure
        For each of HER's moves 2, 4 and 6 a heading, then its 2, 11 and 11 boards.

    Examples
    --------
    >>> import matplotlib.pyplot as plt
    >>> import menace_lib as ml
    >>> fig = ml.gardner_figure()
    >>> plt.close(fig)
    """
    import matplotlib.pyplot as plt

    from .plotting import narrow_drawing

    if isinstance(columns, bool) or not isinstance(columns, int) or not 2 <= columns <= 8:
        raise ValueError(f"columns must be an integer from 2 to 8, got {columns!r}")
    T = game_tables("hexapawn")
    found = gardner_positions(T)
    boxes = [int(s) for s in T.matchbox_states("all", BLACK)]
    groups = [[p for p in found if T.ply[p] == ply] for ply in (1, 3, 5)]
    # One heading row per move, then its boards, `columns` to a row.
    layout = []
    for g, group in enumerate(groups):
        layout.append(("heading", g))
        layout += [("boards", group[i : i + columns]) for i in range(0, len(group), columns)]
    heights = [0.32 if kind == "heading" else 1.0 for kind, _ in layout]
    cell = 1.2
    fig = plt.figure(figsize=(cell * columns, cell * 1.12 * sum(heights)))
    grid = fig.add_gridspec(len(layout), columns, height_ratios=heights, hspace=0.35)
    for r, (kind, content) in enumerate(layout):
        if kind == "heading":
            ax = fig.add_subplot(grid[r, :])
            n = len(groups[content])
            text = f"HER's move {2 * content + 2}: {n} boxes"
            ax.text(0.0, 0.1, text, ha="left", va="bottom", fontsize=11, weight="bold")
            ax.axis("off")
            continue
        for k, pid in enumerate(content):
            ax = fig.add_subplot(grid[r, k])
            number = boxes.index(int(T.canon[pid])) + 1
            draw_position(ax, T.cells[pid], arrows=move_arrows(pid))
            ax.set_ylim(-0.6, 2.6)
            ax.set_title(f"box {number}", fontsize=10, pad=2)
    if columns != 3:
        narrow_drawing(fig, lambda: gardner_figure(columns=3))
    return fig


def move_arrows(pid: int) -> list[tuple[int, int]]:
    """(from cell, to cell) of every legal move in Hexapawn position ``pid``.

    Parameters
    ----------
    pid
        A position id of ``ml.game_tables("hexapawn")``.

    Returns
    -------
    list of (int, int)
        Cells 0-8, row by row from Black's side.

    Examples
    --------
    >>> import menace_lib as ml
    >>> ml.book.her_chapter.move_arrows(0)  # White's three pawns can each step forward
    [(6, 3), (7, 4), (8, 5)]
    """
    T = game_tables("hexapawn")
    pid = T.check_id(pid)  # a ValueError naming a bad position id
    step = -1 if int(T.player[pid]) == 1 else 1
    out = []
    for m in T.legal(pid):
        r, c = divmod(m // 3, 3)
        out.append((m // 3, 3 * (r + step) + c + m % 3 - 1))
    return out
