"""Figures and tables of the scaling sweep (:mod:`menace_lib.book.beyond.scaling`).

Each bead schedule keeps one colour and one line style (Okabe--Ito colours, so the
figures read without colour and in both of the book's themes).
"""

from __future__ import annotations

import math
from typing import Any

import matplotlib.pyplot as plt
import matplotlib.ticker as mticker
import numpy as np
from matplotlib.figure import Figure

from ...base.confidence import mean_ci
from ...experiments.sweep import SweepResult
from .. import plotting
from .scaling import GAMES, SCHEDULES, THRESHOLDS, power_law

__all__ = [
    "GAME_TITLES",
    "STYLES",
    "curve_band",
    "five_by_five",
    "games_to_table",
    "learning_curves",
    "open_growth",
    "power_law",
]

STYLES: dict[str, dict[str, Any]] = {
    "4-3-2-1": {"color": plotting.BLUE, "linestyle": "-", "linewidth": 2.4},
    "flat-1": {"color": plotting.ORANGE, "linestyle": "--"},
    "flat-8": {"color": plotting.PURPLE, "linestyle": ":"},
}
GAME_TITLES = {
    "noughts-and-crosses": "Noughts and crosses",
    "hexapawn": "Hexapawn (HER, second)",
    "connect4:4x4": "Connect-4, 4×4",
    "connect4:5x4": "Connect-4, 5×4",
}


def curve_band(result: SweepResult, condition: str) -> dict[str, list]:
    """Mean exact not-losing probability per checkpoint, with its 95 % interval."""
    records = [r for r in result.records if r["condition"] == condition]
    games = records[0]["games"]
    stats = [mean_ci([r["not_losing"][i] for r in records]) for i in range(len(games))]
    return {
        "games": games,
        "mean": [s["mean"] for s in stats],
        "low": [s["low"] if s["low"] is not None else s["mean"] for s in stats],
        "high": [s["high"] if s["high"] is not None else s["mean"] for s in stats],
    }


def learning_curves(result: SweepResult) -> Figure:
    """One panel per game: the exact chance of not losing against the perfect player."""
    games = [g for g in GAMES if any(c.startswith(g + "/") for c in result.config["conditions"])]
    cols = 2
    rows = math.ceil(len(games) / cols)
    fig, axes = plt.subplots(rows, cols, figsize=(9.6, 3.4 * rows), sharey=True, squeeze=False)
    for ax, game in zip(axes.flat, games, strict=False):
        for name in SCHEDULES:
            if f"{game}/{name}" not in result.config["conditions"]:
                continue
            band = curve_band(result, f"{game}/{name}")
            x = np.maximum(band["games"], 0.7)  # the untrained point sits left of 1 game
            style = STYLES[name]
            ax.fill_between(x, band["low"], band["high"], color=style["color"], alpha=0.18, lw=0)
            ax.plot(x, band["mean"], label=name, **style)
        for t in THRESHOLDS:
            ax.axhline(t, color=plotting.GREY, lw=0.8, ls=":")
        ax.set_xscale("log")
        # Unlabelled minor ticks over six decades cost most of the figure's layout time.
        ax.xaxis.set_minor_locator(mticker.NullLocator())
        ax.set_title(GAME_TITLES[game])
        ax.set_ylim(0, 1.02)
    for ax in axes.flat[len(games) :]:
        ax.set_visible(False)
    for ax in axes[-1]:
        ax.set_xlabel("training games (log scale; leftmost point: untrained)")
    for ax in axes[:, 0]:
        ax.set_ylabel("exact P(not losing)")
    handles, labels = axes[0, 0].get_legend_handles_labels()
    fig.legend(handles, labels, loc="lower center", ncol=len(labels), bbox_to_anchor=(0.5, -0.04))
    fig.tight_layout()
    return fig


def five_by_five(five: SweepResult, sweep: SweepResult) -> Figure:
    """Connect-4 on 5×5 against the perfect player: each seed's exact chance of not losing
    (thin lines) and their mean, beside the sweep's 4×4 and 5×4 means (Michie's beads)."""
    fig, ax = plt.subplots(figsize=(6.5, 3.4))
    for game, color in (("connect4:4x4", plotting.GREY), ("connect4:5x4", plotting.ORANGE)):
        band = curve_band(sweep, f"{game}/4-3-2-1")
        x = np.maximum(band["games"], 0.7)  # the untrained point sits left of 1 game
        ax.plot(x, band["mean"], color=color, linestyle="--", label=GAME_TITLES[game])
    runs = five.records
    x = np.maximum(runs[0]["games"], 0.7)
    for r in runs:
        ax.plot(x, r["not_losing"], color=plotting.BLUE, linewidth=0.8, alpha=0.5)
    band = curve_band(five, five.config["conditions"][0])
    label = f"Connect-4, 5×5 ({len(runs)} seeds, each thin)"
    ax.plot(x, band["mean"], color=plotting.BLUE, linewidth=2.4, label=label)
    for t in THRESHOLDS:
        ax.axhline(t, color=plotting.GREY, lw=0.8, ls=":")
    ax.set_xscale("log")
    ax.xaxis.set_minor_locator(mticker.NullLocator())
    ax.set(ylim=(0, 1.02), title="Against the perfect player, Michie's beads")
    ax.set(xlabel="training games (log scale; leftmost point: untrained)")
    ax.set(ylabel="exact P(not losing)")
    ax.legend(loc="lower right", fontsize="small")
    fig.tight_layout()
    return fig


def games_to_table(result: SweepResult, sizes: list[dict[str, Any]]) -> list[dict[str, Any]]:
    """Per game and schedule: boxes, and games to 90 % and 99 % not-losing (mean, 95 % CI).

    A run that never reached a threshold within its budget counts as missing; the
    table says how many seeds reached it.
    """
    boxes = {s["game"]: s["boxes"] for s in sizes}
    rows = []
    for cond in result.config["conditions"]:
        game, schedule = cond.split("/")
        row: dict[str, Any] = {
            "game": GAME_TITLES[game],
            "schedule": schedule,
            "boxes": boxes[game],
        }
        for t in THRESHOLDS:
            key = f"games_to_{round(100 * t)}"
            s = result.summary[cond][key]
            n = len(result.config["seeds"])
            row[f"games to {round(100 * t)} %"] = _interval(s)
            row[f"seeds reaching {round(100 * t)} %"] = f"{n - s['missing']} / {n}"
        rows.append(row)
    return rows


def _interval(s: dict) -> str:
    if s["n"] == 0:
        return "not reached"
    if s["low"] is None:
        return f"{s['mean']:,.0f}"
    return f"{s['mean']:,.0f} [{max(s['low'], 0):,.0f}, {s['high']:,.0f}]"


OPEN_STYLES = {
    "6x5": {"color": plotting.SKY, "linestyle": "--"},
    "6x6": {"color": plotting.ORANGE, "linestyle": ":"},
    "7x6": {"color": plotting.BLUE, "linestyle": "-", "linewidth": 2.4},
}


def open_growth(runs: list[dict[str, Any]]) -> Figure:
    """Boxes made on first visit, and the sampled chance of not losing, on big boards."""
    fig, (left, right) = plt.subplots(1, 2, figsize=(9.6, 3.6))
    for run in runs:
        style = OPEN_STYLES.get(run["board"], {"color": plotting.GREY})
        label = run["board"].replace("x", "×")
        left.plot(run["games"], run["boxes"], label=label, **style)
        mean, low, high = (np.array(v) for v in zip(*run["not_losing"], strict=True))
        right.fill_between(run["games"], low, high, color=style["color"], alpha=0.15, lw=0)
        right.plot(run["games"], mean, label=label, **style)
    left.set_xlabel("training games")
    left.set_ylabel("boxes made")
    right.set_xlabel("training games")
    right.set_ylabel("P(not losing) vs win-or-block")
    right.set_ylim(0, 1)
    left.legend(loc="upper left")
    fig.tight_layout()
    return fig
