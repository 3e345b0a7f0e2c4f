"""Figures for the chapter "Other matchbox machines" (drawing only; numbers come in).

Every function takes results computed by :mod:`~menace_lib.play.selfplay`,
:mod:`~menace_lib.agents.unsymmetrised` or :mod:`~menace_lib.agents.stochastic`
and returns a matplotlib :class:`~matplotlib.figure.Figure` in the book's style
(:mod:`menace_lib.book.plotting`).
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence

import matplotlib.pyplot as plt
import numpy as np
from matplotlib.figure import Figure
from matplotlib.text import Text

from ...base.palette import BEAD_COLOURS
from ...games.board import CENTRE, CORNERS, EDGES, square_numbers
from ...games.statespace import tables
from ...machine.menace import Menace
from ...machine.printed import printed
from ..plotting import (
    BLUE,
    DRAW,
    GREEN,
    GREY,
    LOSS,
    NARROW_MIN_TEXT_PT,
    OKABE_ITO,
    PURPLE,
    RESULT_COLOURS,
    SKY,
    VERMILLION,
    WIN,
    draw_board,
    draw_matchbox,
)

__all__ = [
    "draw_learned_policies",
    "draw_learning_curves",
    "draw_selfplay_training",
    "draw_symmetry_comparison",
    "draw_tournament",
]

_KIND_NAMES = {tuple(CORNERS): "corner", tuple(EDGES): "edge", (CENTRE,): "centre"}


def _class_label(members: Sequence[int]) -> str:
    members = tuple(members)
    if members in _KIND_NAMES:
        return _KIND_NAMES[members]
    return "/".join(str(n) for n in square_numbers(members))


def draw_learned_policies(
    agent: Menace, states: Mapping[str, int], *, size: float = 2.1, pairs: bool = False
) -> Figure:
    """Boxes of a class-layout MENACE: the board with class probabilities, and the beads.

    Parameters
    ----------
    agent
        A MENACE (any layout; the class layout shows one bar per move class).
    states
        Title -> canonical position id of a box.
    size
        Width of one column in inches.

    pairs
        One box a row, its board beside its beads (for a phone's column), instead of
        the boards in one row and their beads in the row below.

    Each box is drawn and coloured as the printed kit draws it. The board shades each
    colour's square by its probability (the other squares of its class are outlined);
    the bars show the bead counts.
    """
    T = tables()
    n = len(states)
    if n == 0:
        raise ValueError("states must name at least one box")
    if pairs:
        fig, grid = plt.subplots(n, 2, figsize=(size * 2, size * n), squeeze=False)
        axes = grid.T  # axes[0]: the boards, axes[1]: the bead charts, as below
    else:
        fig, axes = plt.subplots(2, n, figsize=(size * n, size * 2.1), squeeze=False)
    for j, (title, s) in enumerate(states.items()):
        b = agent.box_of.get(int(s), -1)
        if b < 0:
            raise ValueError(f"{title}: position {T.text(int(s))!r} has no box")
        probs = agent.probabilities(b)
        # The box as the printed kit draws and colours it (machine.printed, the widgets'
        # owner too): each colour on the lowest square of its class.
        kit = printed(agent)
        members = kit.squares[b]
        reps = [cls[0] for cls in members]
        others = [m for cls in members for m in cls[1:]]
        draw_board(
            axes[0, j],
            kit.boards[b],
            fills={r: p for r, p in zip(reps, probs, strict=True)},
            annotations={r: f"{p:.2f}" for r, p in zip(reps, probs, strict=True)},
            marks=others,
            mark_colour=GREY,
            title=title,
        )
        draw_matchbox(
            axes[1, j],
            agent.weights[b],
            labels=[_class_label(cls) for cls in members],
            colours=[BEAD_COLOURS[c] for c in kit.colours[b]],
        )
    axes[1, 0].set_ylabel("beads")
    if pairs:
        # Drawn for a phone: no text below the phone drawing's floor.
        for text in fig.findobj(Text):
            text.set_fontsize(max(text.get_fontsize(), NARROW_MIN_TEXT_PT))
    fig.tight_layout()
    return fig


def draw_selfplay_training(
    cumulative: Mapping[str, np.ndarray], rows: Sequence[Mapping[str, object]]
) -> Figure:
    """Left: cumulative training outcome rates. Right: exact draw rate vs perfect.

    Parameters
    ----------
    cumulative
        ``win``/``draw``/``loss`` running fractions (``SelfPlayRun.cumulative_rates()``).
    rows
        :func:`~menace_lib.play.selfplay.blog_checkpoint_rows` output: per
        checkpoint ``games``, ``blog draw``, ``our draw`` and optionally the seed mean.
    """
    fig, (left, right) = plt.subplots(1, 2, figsize=(10, 3.6))
    for (name, series), colour in zip(cumulative.items(), RESULT_COLOURS, strict=True):
        left.plot(np.arange(1, len(series) + 1), series, color=colour, label=name)
    left.set(xscale="log", xlabel="training game", ylabel="cumulative rate", ylim=(0, 1))
    left.set_title("training games (learner's side)")
    left.legend(frameon=False)
    games = [r["games"] for r in rows]
    mean_key = next((k for k in rows[0] if str(k).startswith("mean of")), None)
    series = [("our draw", "o-", DRAW, "ours"), ("blog draw", "D:", GREY, "blog")]
    if mean_key is not None:
        series.insert(1, (mean_key, "s--", SKY, f"ours, {mean_key}"))
    for key, style, colour, label in series:
        if key in rows[0]:
            right.plot(games, [r[key] for r in rows], style, color=colour, label=label)
    right.set(xscale="log", xlabel="training games", ylabel="P(draw) vs perfect", ylim=(0, 1))
    right.set_title("exact draw rate against the perfect player")
    right.legend(frameon=False)
    fig.tight_layout()
    return fig


def draw_learning_curves(curves: Mapping[str, Sequence[Mapping[str, float]]]) -> Figure:
    """Exact probability of not losing to the perfect player against training games.

    ``curves`` maps a label to a list of ``{"games": n, "draw": p, "win": q, ...}``.
    """
    fig, ax = plt.subplots(figsize=(7.5, 3.8))
    colours = [BLUE, OKABE_ITO[0], GREEN, VERMILLION, PURPLE, SKY]
    for (label, curve), colour in zip(curves.items(), colours, strict=False):
        games = [p["games"] for p in curve]
        ax.plot(games, [p["draw"] + p["win"] for p in curve], color=colour, label=label)
    # symlog keeps the untrained machine (0 games) on a log-like axis.
    ax.set_xscale("symlog", linthresh=10)
    ax.set(xlabel="training games", ylabel="P(not losing) vs perfect", ylim=(-0.02, 1.02))
    top = max(max(p["games"] for p in curve) for curve in curves.values())
    ticks = [0] + [10**k for k in range(1, int(np.log10(max(top, 10))) + 1)]
    ax.set_xticks(ticks, [f"{t:,}" for t in ticks])
    ax.set_xlim(0, top * 1.1)
    ax.legend(frameon=False, fontsize=8, loc="upper left")
    fig.tight_layout()
    return fig


def draw_symmetry_comparison(
    comparison: Mapping, thresholds: Sequence[float] = (0.8, 0.9)
) -> Figure:
    """Exact draw rate against training games with and without symmetry (mean and range).

    ``comparison`` is the output of
    :func:`~menace_lib.agents.unsymmetrised.symmetry_comparison`.
    """
    fig, ax = plt.subplots(figsize=(7, 3.6))
    games = np.asarray(comparison["checkpoints"])
    labels = {"symmetric": "338 canonical boxes", "unsymmetrised": "6,046 raw boxes"}
    for (name, curves), colour in zip(
        comparison["curves"].items(), (BLUE, VERMILLION), strict=True
    ):
        c = np.asarray(curves)
        ax.fill_between(games, c.min(axis=0), c.max(axis=0), color=colour, alpha=0.2, lw=0)
        ax.plot(games, c.mean(axis=0), color=colour, label=labels.get(name, name))
    for t in thresholds:
        ax.axhline(t, color=GREY, lw=0.8, ls=":")
    ax.set(xlabel="training games", ylabel="P(draw) vs perfect", ylim=(0, 1.02))
    ax.legend(frameon=False, loc="lower right")
    fig.tight_layout()
    return fig


def draw_tournament(records: Sequence[Mapping[str, int]], reachable: int | None = None) -> Figure:
    """Per round: games by result (left axis) and positions known (right axis)."""
    rounds = np.array([r["round"] for r in records])
    fig, ax = plt.subplots(figsize=(8, 3.8))
    series = (
        ("x_wins", "X wins", WIN),
        ("o_wins", "O wins", LOSS),
        ("draws", "draws", DRAW),
        ("illegal", "illegal move", GREY),
    )
    for key, label, colour in series:
        ax.plot(rounds, [r[key] for r in records], color=colour, label=label, lw=1.4)
    ax.set(xlabel="round", ylabel="games in the round")
    ax.set_ylim(bottom=0)
    twin = ax.twinx()
    twin.plot(
        rounds,
        [r["positions_known"] for r in records],
        color=BLUE,
        ls="--",
        lw=1.4,
        label="positions known (right)",
    )
    twin.set_ylabel("positions known", color=BLUE)
    if reachable is not None:
        twin.set_ylim(0, reachable * 1.05)
    twin.spines["right"].set_visible(True)
    handles = ax.get_legend_handles_labels()[0] + twin.get_legend_handles_labels()[0]
    ax.legend(
        handles=handles,
        frameon=False,
        fontsize=8,
        ncol=5,
        loc="lower center",
        bbox_to_anchor=(0.5, 1.0),
    )
    fig.tight_layout()
    return fig


def draw_web_curves(curves: Mapping[str, Mapping], smooth: int = 10) -> Figure:
    """Draw rate against games played for web-MENACE set-ups (see :mod:`~.web`).

    Each curve is a :func:`menace_lib.agents.web.web_curve` result (or its cached
    JSON form); the line is a running mean over ``smooth`` games of the fraction of
    still-playing runs that drew, the dots the mean exact draw probability.
    """
    fig, ax = plt.subplots(figsize=(7.5, 3.6))
    colours = [BLUE, VERMILLION, GREEN, PURPLE]
    for (label, c), colour in zip(curves.items(), colours, strict=False):
        draw = np.asarray(c["draw"], dtype=float)
        kernel = np.ones(smooth) / smooth
        smoothed = np.convolve(draw, kernel, mode="valid")
        ax.plot(np.arange(smooth, len(draw) + 1), smoothed, color=colour, label=label)
        ends = [int(k) for k in c["exact"]]
        ax.plot(ends, list(c["exact"].values()), "o", color=colour, ms=4)
    ax.set(xlabel="games played", ylabel="draw rate vs perfect", ylim=(0, 1.02))
    ax.legend(frameon=False, fontsize=9, loc="lower right")
    fig.tight_layout()
    return fig
