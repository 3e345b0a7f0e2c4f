"""Figures of the claims the book used to lack (imports matplotlib; not loaded by the package).

Every function takes :class:`~.evidence.Evidence` (or a finding computed from it) and
returns a matplotlib ``Figure``; the numbers come from :mod:`.findings`. Call
:func:`menace_lib.book.plotting.use_book_style` first for the book's look.

* :func:`variance_split` -- §9.2: each row's seed spread, training vs evaluation;
* :func:`learning_curve_grid` -- §9.8.3: per-seed exact learning curves of every agent;
* :func:`kl_over_training` -- §9.10 / Figure 9.1: policy KL during training, both directions;
* :func:`training_dynamics` -- §8.5.3 and §9.5: coverage, minimax agreement, beads, Q;
* :func:`lambda_bands` -- §7.5.2 / §9.7: Pure AIF at three λ with 95 % bands;
* :func:`regret_loglog` -- §5.3: cumulative regret of a matchbox bandit on log–log axes.
"""

from __future__ import annotations

from collections.abc import Sequence

import matplotlib.pyplot as plt
import numpy as np
from matplotlib.figure import Figure

from .. import plotting as style
from . import findings

__all__ = [
    "kl_over_training",
    "lambda_bands",
    "learning_curve_grid",
    "regret_loglog",
    "training_dynamics",
    "variance_split",
]

_COLOURS = (
    style.BLUE,
    style.ORANGE,
    style.GREEN,
    style.VERMILLION,
    style.SKY,
    style.PURPLE,
    style.BLACK,
)


def _short(key: str) -> str:
    _, agent, condition = key.split("/")
    return f"{agent} ({condition})"


def variance_split(rows: Sequence[dict]) -> Figure:
    """Per Table 9.1 row: training and evaluation SD (ours) beside the thesis's split."""
    fig, ax = plt.subplots(figsize=(7.5, 0.42 * len(rows) + 1.4), constrained_layout=True)
    y = np.arange(len(rows))[::-1]
    h = 0.36
    ax.barh(y + h / 2, [r["training_sd"] for r in rows], h, color=style.BLUE, label="training")
    ax.barh(
        y + h / 2,
        [r["evaluation_sd"] for r in rows],
        h,
        left=[r["training_sd"] for r in rows],
        color=style.SKY,
        label="evaluation (100 games)",
    )
    ax.barh(
        y - h / 2,
        [r["thesis_training_sd"] for r in rows],
        h,
        color=style.ORANGE,
        label="thesis: training",
    )
    ax.barh(
        y - h / 2,
        [r["thesis_evaluation_sd"] for r in rows],
        h,
        left=[r["thesis_training_sd"] for r in rows],
        color=style.YELLOW,
        label="thesis: evaluation",
    )
    ax.set_yticks(y, [f"{r['agent']} ({r['condition']})" for r in rows])
    ax.set_xlabel("standard deviation across seeds (pp), stacked by part")
    ax.legend(loc="lower right", fontsize=8)
    return fig


def learning_curve_grid(shapes: dict[str, dict]) -> Figure:
    """Every agent's exact loss probability against games: seeds (thin) and mean (thick)."""
    keys = list(shapes)
    cols = 4
    rows = -(-len(keys) // cols)
    fig, axes = plt.subplots(rows, cols, figsize=(11, 2.5 * rows), constrained_layout=True)
    for ax, key in zip(axes.flat, keys, strict=False):
        s = shapes[key]
        games = np.asarray(s["games"])
        for y in s["loss"]:
            ax.plot(games, 100 * y, color=style.GREY, lw=0.6, alpha=0.7)
        ax.plot(games, 100 * s["loss"].mean(axis=0), color=style.BLUE, lw=2)
        words = [w for w, ok in s["words"].items() if ok] or ["none of the words"]
        ax.set_title(f"{_short(key)}\n{', '.join(words)}", fontsize=8)
        ax.set_ylim(-3, 103)
        ax.tick_params(labelsize=7)
    for ax in axes.flat[len(keys) :]:
        ax.axis("off")
    fig.supxlabel("training games", fontsize=9)
    fig.supylabel("exact loss probability vs perfect (%)", fontsize=9)
    return fig


def kl_over_training(ev, keys: Sequence[str]) -> Figure:
    """Forward KL(π_mm,U ‖ π) on frequently visited states, and where the reverse is finite."""
    fig, (left, right) = plt.subplots(1, 2, figsize=(10, 3.6), constrained_layout=True)
    for i, key in enumerate(keys):
        colour = _COLOURS[i % len(_COLOURS)]
        games = ev.runs(key)[0]["games"][1:]
        kl = ev.observed(key, "kl_forward")
        mean = np.nanmean(kl, axis=0)
        sd = np.nanstd(kl, axis=0, ddof=1)
        left.plot(games, mean, color=colour, label=_short(key))
        left.fill_between(games, mean - sd, mean + sd, color=colour, alpha=0.15, lw=0)
        finite = 100 * np.nanmean(ev.observed(key, "reverse_finite"), axis=0)
        right.plot(games, finite, color=colour, label=_short(key))
    left.set(xlabel="training games", ylabel="KL(π_mm,U ‖ π), nats (mean ± SD)")
    left.set_ylim(bottom=0)
    right.set(
        xlabel="training games",
        ylabel="states where KL(π ‖ π_mm,U) is finite (%)",
        ylim=(-3, 103),
    )
    left.legend(fontsize=8)
    return fig


def training_dynamics(ev, keys: Sequence[str]) -> Figure:
    """Coverage, minimax agreement, MENACE's beads and the RL agents' Q changes over training."""
    fig, axes = plt.subplots(2, 2, figsize=(10, 6.4), constrained_layout=True)
    cov, agree, beads, q = axes.flat
    for i, key in enumerate(keys):
        colour = _COLOURS[i % len(_COLOURS)]
        games = np.asarray(ev.runs(key)[0]["games"][1:])
        frac = games / games[-1]  # RL runs are ten times longer: share of training
        cov.plot(frac, 100 * np.nanmean(ev.observed(key, "coverage"), axis=0), color=colour)
        agree.plot(
            frac,
            100 * np.nanmean(ev.observed(key, "agreement"), axis=0),
            color=colour,
            label=_short(key),
        )
    twin = beads.twinx()
    menaces = (("9.1/MENACE/restock box", style.BLUE), (findings.PERFECT_ONLY_KEY, style.SKY))
    for key, colour in menaces:
        games = ev.runs(key)[0]["games"][1:]
        beads.plot(
            games,
            np.nanmean(ev.observed(key, "beads", "total"), axis=0),
            color=colour,
            label=_short(key),
        )
        zero = ev.observed(key, "beads", "zero_share")
        twin.plot(games, 100 * np.nanmean(zero, axis=0), color=colour, ls="--")
    twin.set_ylabel("colours at zero beads (%, dashed)")
    for key, colour in (
        ("9.1/Q-learning/random", style.GREEN),
        ("9.1/SARSA/random", style.VERMILLION),
    ):
        games = ev.runs(key)[0]["games"][2:]
        rms = ev.observed(key, "q_change", "rms")[:, 1:]
        q.plot(games, np.nanmean(rms, axis=0), color=colour, label=_short(key))
    cov.set(xlabel="share of training done", ylabel="matchbox states visited (%)", ylim=(0, 100))
    agree.set(
        xlabel="share of training done",
        ylabel="minimax-optimal moves, visit-weighted (%)",
        ylim=(40, 101),
    )
    agree.legend(fontsize=7, loc="lower right")
    beads.set(xlabel="training games", ylabel="total beads (solid)")
    beads.legend(fontsize=7, loc="upper left")
    q.set(xlabel="training games", ylabel="RMS change of Q between checkpoints", yscale="log")
    q.legend(fontsize=7)
    return fig


def lambda_bands(bands: dict) -> Figure:
    """Pure AIF at λ = 0, 0.25, 0.5: exact and cumulative training draw with 95 % bands."""
    fig, (exact, cumul) = plt.subplots(1, 2, figsize=(10, 3.6), constrained_layout=True)
    for i, (key, c) in enumerate(bands["curves"].items()):
        colour = _COLOURS[i]
        label = key.split("/")[-1]
        mean, lo, hi = c["exact_band"]
        exact.plot(c["games"], mean, color=colour, label=label, marker=".")
        exact.fill_between(c["games"], lo, hi, color=colour, alpha=0.18, lw=0)
        mean, lo, hi = c["cumulative_band"]
        x = np.arange(1, mean.size + 1)
        cumul.plot(x, mean, color=colour, label=label)
        cumul.fill_between(x, lo, hi, color=colour, alpha=0.18, lw=0)
    exact.set(xlabel="training games", ylabel="exact draw probability vs perfect (%)")
    cumul.set(xlabel="training games", ylabel="cumulative training draw rate (%)")
    exact.legend(title="Pure AIF", fontsize=8)
    return fig


def regret_loglog(doc: dict) -> Figure:
    """Mean cumulative regret of each rule on log–log axes, with a √T·ln T guide."""
    T = np.asarray(doc["horizons"], dtype=float)
    fig, ax = plt.subplots(figsize=(6.5, 4), constrained_layout=True)
    names = {
        "matching": "MENACE (draw a bead)",
        "thompson": "Thompson sampling on the beads",
        "value-thompson": "Thompson sampling on outcomes",
    }
    for i, (rule, chunks) in enumerate(doc["curves"].items()):
        mean = np.mean(np.asarray(chunks, dtype=float), axis=0)
        ax.loglog(T, mean, color=_COLOURS[i], label=names.get(rule, rule))
    guide = np.sqrt(T) * np.log(np.maximum(T, 2.0))
    final = np.mean(np.asarray(doc["curves"]["value-thompson"], dtype=float), axis=0)[-1]
    scale = final / guide[-1]
    ax.loglog(T, 2 * scale * guide, color=style.GREY, ls="--", label="∝ √T ln T")
    ax.loglog(T, T * 0.1, color=style.GREY, ls=":", label="∝ T (linear)")
    ax.set(xlabel="draws from the box, T", ylabel="mean cumulative regret")
    ax.legend(fontsize=8)
    return fig
