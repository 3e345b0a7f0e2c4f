"""Figures and tables of the ``hybrid`` sweep (numbers from :mod:`.hybrid`).

Every figure draws a :class:`~menace_lib.experiments.sweep.SweepResult`: means over seeds
with their 95 % intervals. Each searcher has its own colour, line style and marker, so
the figures read without colour; the sampled searchers are drawn dashed with hollow
markers. matplotlib is imported when a figure is drawn.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

import numpy as np

from ...base import palette
from ...base.confidence import mean_ci
from ...base.files import book_data
from ...experiments.sweep import SweepResult
from .hybrid import ARMS, HEADLINE, SCORING, UNTRAINED

if TYPE_CHECKING:  # pragma: no cover
    from matplotlib.figure import Figure

__all__ = [
    "LABELS",
    "STYLES",
    "draw_arms",
    "draw_tradeoff",
    "explorer_data",
    "headline_table",
    "loss_grid",
]

LABELS = {
    "menace": "MENACE alone (a bead drawn)",
    "greedy": "greedy beads (most beads)",
    "puct": "search, bead prior + learned values",
    "flat": "search, flat prior + learned values",
    "uct": "UCT, random rollouts",
    "thompson": "Thompson sampling on outcome counts",
}
# arm -> (palette colour name, line style, marker)
STYLES = {
    "menace": ("SKY", ":", None),
    "greedy": ("ORANGE", "--", None),
    "puct": ("BLUE", "-", "o"),
    "flat": ("VERMILLION", "-", "s"),
    "uct": ("PURPLE", "--", "^"),
    "thompson": ("GREEN", "--", "D"),
}


def _records(result: SweepResult, arm: str) -> list[dict[str, Any]]:
    game = result.config["conditions"][0].split("/")[0]
    return [r for r in result.records if r["condition"] == f"{game}/{arm}"]


def _arms(result: SweepResult) -> list[str]:
    """The searchers the result holds, in display order."""
    return [arm for arm in ARMS if _records(result, arm)]


def loss_grid(result: SweepResult, arm: str) -> dict[str, Any]:
    """One arm's loss per checkpoint and budget: mean over seeds and 95 % interval.

    Returns ``{"checkpoints", "budgets", "mean", "low", "high"}`` (arrays of shape
    checkpoints × budgets, ``nan`` where the arm was not scored; an arm that reads
    nothing learnt, scored once, stands for every checkpoint).
    """
    runs = _records(result, arm)
    points = result.config["options"]["checkpoints"]
    budgets = runs[0]["budgets"]
    scored = runs[0]["checkpoints"]
    shape = (len(points), len(budgets))
    mean, low, high = (np.full(shape, np.nan) for _ in range(3))
    for i, g in enumerate(points):
        if arm in UNTRAINED:
            at = 0
        elif g in scored:
            at = scored.index(g)
        else:
            continue
        for j in range(len(budgets)):
            ci = mean_ci([r["loss"][at][j] for r in runs])
            mean[i, j] = ci["mean"]
            low[i, j] = ci["low"] if ci["low"] is not None else ci["mean"]
            high[i, j] = ci["high"] if ci["high"] is not None else ci["mean"]
    return {"checkpoints": points, "budgets": budgets, "mean": mean, "low": low, "high": high}


def draw_tradeoff(result: SweepResult, levels: tuple[float, ...] = (0.001, 0.01, 0.1)) -> Figure:
    """Training games against simulations a move for the bead-prior search: its mean
    exact loss in every cell (colour on a log scale), and lines of equal loss."""
    import matplotlib.pyplot as plt
    from matplotlib.colors import LogNorm

    from .. import plotting

    grid = loss_grid(result, "puct")
    mean = grid["mean"] * 100
    floor = 0.01  # a loss below 0.01 % is drawn as 0.01 % (the log scale has no 0)
    shown = np.maximum(mean, floor)
    fig, ax = plt.subplots(figsize=(6.4, 4.2))
    image = ax.imshow(
        shown,
        origin="lower",
        cmap="Blues",
        aspect="auto",
        norm=LogNorm(vmin=floor, vmax=max(100.0, float(np.nanmax(shown)))),
    )
    for i in range(mean.shape[0]):
        for j in range(mean.shape[1]):
            value = mean[i, j]
            text = "0" if value == 0 else (f"{value:.2f}" if value < 10 else f"{value:.0f}")
            ax.text(
                j,
                i,
                text,
                ha="center",
                va="center",
                fontsize=9,
                color="white" if shown[i, j] > 3 else "black",
            )
    contours = ax.contour(
        np.log10(shown),
        levels=[np.log10(100 * v) for v in levels],
        colors=[plotting.VERMILLION],
        linewidths=1.6,
        linestyles=["-", "--", ":"][: len(levels)],
    )
    ax.clabel(contours, fmt=lambda v: f"{10**v:g} %", fontsize=8)
    ax.set_xticks(range(len(grid["budgets"])), [str(b) for b in grid["budgets"]])
    ax.set_yticks(range(len(grid["checkpoints"])), [f"{g:,}" for g in grid["checkpoints"]])
    ax.set_xlabel("simulations a move")
    ax.set_ylabel("training games")
    fig.colorbar(image, ax=ax, label="exact loss against perfect (%)")
    fig.tight_layout()
    return fig


def draw_arms(result: SweepResult) -> Figure:
    """Loss against simulations a move, one panel per checkpoint, every searcher."""
    import matplotlib.pyplot as plt

    from .. import plotting

    points = result.config["options"]["checkpoints"]
    budgets = result.config["options"]["budgets"]
    fig, axes = plt.subplots(
        1, len(points), figsize=(2.6 * len(points), 3.4), sharey=True, squeeze=False
    )
    x = np.arange(len(budgets))
    for i, (ax, games) in enumerate(zip(axes[0], points, strict=True)):
        for arm in _arms(result):
            grid = loss_grid(result, arm)
            colour, line, marker = STYLES[arm]
            style = {"color": getattr(plotting, colour), "linestyle": line}
            m, lo, hi = (100 * grid[k][i] for k in ("mean", "low", "high"))
            if np.isnan(m).all():
                continue
            if len(grid["budgets"]) == 1:  # no search: one level across the panel
                ax.axhline(m[0], label=LABELS[arm], **style)
                continue
            face = "none" if SCORING[arm] == "sampled" else style["color"]
            ax.plot(
                x, m, marker=marker, markerfacecolor=face, markersize=4, label=LABELS[arm], **style
            )
            ax.fill_between(x, lo, hi, color=style["color"], alpha=0.15, linewidth=0)
        ax.set_yscale("symlog", linthresh=1.0, linscale=0.6)  # small losses stay visible
        ax.set_yticks([0, 0.5, 1, 10, 100], ["0", "0.5", "1", "10", "100"])
        ax.set_ylim(-0.05, 100)
        ax.set_title(f"after {games:,} games", fontsize=9)
        ax.set_xticks(x, [str(b) for b in budgets], fontsize=8)
        ax.set_xlabel("simulations a move", fontsize=8)
    axes[0][0].set_ylabel("loss against perfect (%, log above 1)")
    found: dict[str, Any] = {}
    for ax in axes[0]:  # the sampled searchers appear only in the panels where they were scored
        for handle, label in zip(*ax.get_legend_handles_labels(), strict=True):
            found.setdefault(label, handle)
    order = [LABELS[arm] for arm in ARMS if LABELS[arm] in found]
    handles, labels = [found[label] for label in order], order
    fig.legend(handles, labels, loc="lower center", ncol=3, fontsize=8, frameon=False)
    fig.tight_layout(rect=(0, 0.14, 1, 1))
    return fig


def headline_table(result: SweepResult, games: int = HEADLINE) -> list[dict[str, str]]:
    """Rows of the loss table at ``games`` training games: each searcher's loss (%) at
    every budget, mean over seeds [95 % interval over seeds, clipped at 0], and how it
    was scored."""
    points = result.config["options"]["checkpoints"]
    budgets = result.config["options"]["budgets"]
    i = points.index(games)
    n_seeds = len(result.config["seeds"])
    sampled = result.config["options"]["sampled_games"]
    rows = []
    for arm in _arms(result):
        grid = loss_grid(result, arm)
        row = {"searcher": LABELS[arm]}
        for b in budgets:
            if b in grid["budgets"] and not np.isnan(grid["mean"][i, grid["budgets"].index(b)]):
                j = grid["budgets"].index(b)
                m, lo, hi = (100 * grid[k][i, j] for k in ("mean", "low", "high"))
                lo = max(lo, 0.0)  # a loss rate is never below 0: the t-interval is clipped
                row[f"{b} sims"] = f"{m:.2f} [{lo:.2f}, {hi:.2f}]"
            else:
                row[f"{b} sims"] = "—"
        how = "exact" if SCORING[arm] == "exact" else f"sampled, {sampled} games a seed"
        row["scored"] = f"{how}; {n_seeds} seed{'s' if n_seeds != 1 else ''}"
        rows.append(row)
    return rows


def explorer_data(result: SweepResult | None = None) -> dict[str, Any]:
    """The data of the chapter's live figure (:class:`menace_lib.widgets.SearchExplorer`):
    every searcher's loss at every checkpoint and budget, as :func:`loss_grid` gives it.

    Parameters
    ----------
    result
        The sweep; None reads the book's cache (``hybrid_search.json``).

    Returns
    -------
    dict
        ``checkpoints``, ``budgets``, ``headline``, ``seeds`` (how many), ``sampled_games``
        and ``arms``: per searcher ``arm``, ``name``, ``colour`` (:mod:`menace_lib.base.
        palette`), ``scored`` (``"exact"`` or ``"sampled"``), ``searches`` (False: one
        column, budget 0, stands for every budget), ``once`` (scored once, read nothing
        learnt) and ``loss``: per checkpoint, per budget, ``{"mean", "low", "high"}``
        (fractions, the 95 % interval over seeds as :func:`~menace_lib.base.confidence.
        mean_ci` gives it, not clipped) or None where the searcher was not scored.
    """
    if result is None:
        result = SweepResult.load_json(book_data("hybrid_search.json"))
    points = list(result.config["options"]["checkpoints"])
    budgets = list(result.config["options"]["budgets"])
    arms = []
    for arm in _arms(result):
        grid = loss_grid(result, arm)
        searches = len(grid["budgets"]) > 1
        loss = []
        for i in range(len(points)):
            row = []
            for b in budgets:
                j = grid["budgets"].index(b) if searches else 0
                if (searches and b not in grid["budgets"]) or np.isnan(grid["mean"][i, j]):
                    row.append(None)
                    continue
                row.append({k: float(grid[k][i, j]) for k in ("mean", "low", "high")})
            loss.append(row)
        arms.append(
            {
                "arm": arm,
                "name": LABELS[arm],
                "colour": getattr(palette, STYLES[arm][0]),
                "scored": SCORING[arm],
                "searches": searches,
                "once": arm in UNTRAINED,
                "loss": loss,
            }
        )
    return {
        "checkpoints": points,
        "budgets": budgets,
        "headline": HEADLINE,
        "seeds": len(result.config["seeds"]),
        "sampled_games": int(result.config["options"]["sampled_games"]),
        "arms": arms,
    }
