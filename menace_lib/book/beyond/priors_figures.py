"""Figures of the priors sweep (:mod:`menace_lib.book.beyond.priors`).

Each schedule keeps one colour and one line style in every figure (Okabe--Ito
colours, mid-grey for the web MENACE's schedule; no yellow, which vanishes on a
white page), so the figures read without colour and in both of the book's themes.
"""

from __future__ import annotations

import matplotlib.pyplot as plt
from matplotlib.figure import Figure

from ...experiments.sweep import SweepResult
from .. import plotting
from .priors import (
    BASELINE,
    REGIMENS,
    condition_key,
    curve_band,
    paired_by_regimen,
    parse_condition,
)

__all__ = [
    "REGIMEN_TITLES",
    "STYLES",
    "TRADE_OFF",
    "learning_curves",
    "paired_differences",
    "trade_off",
]

STYLES: dict[str, dict[str, object]] = {
    "4-3-2-1": {"color": plotting.BLUE, "linestyle": "-", "linewidth": 2.6},
    "flat-1": {"color": plotting.ORANGE, "linestyle": "--"},
    "flat-4": {"color": plotting.SKY, "linestyle": "--"},
    "8-4-2-1": {"color": plotting.GREY, "linestyle": ":"},
    "branching": {"color": plotting.GREEN, "linestyle": "-."},
    "subtree": {"color": plotting.PURPLE, "linestyle": "-."},
    "tuned": {"color": plotting.VERMILLION, "linestyle": "-"},
}
"""Line colour and style per schedule."""

REGIMEN_TITLES = {
    "mixed": "Mixed curriculum (random → defensive → perfect)",
    "perfect": "Perfect player from the first game",
}


def _schedules(result: SweepResult, regimen: str) -> list[str]:
    return [
        parse_condition(c)[1] for c in result.config["conditions"] if c.startswith(f"{regimen}/")
    ]


def learning_curves(result: SweepResult, schedules: list[str] | None = None) -> Figure:
    """Exact draw rate against the perfect player during training, per schedule.

    One panel per regimen; each line is the mean over seeds with its 95% band.
    """
    regimens = [r for r in REGIMENS if _schedules(result, r)]
    fig, axes = plt.subplots(1, len(regimens), figsize=(5.2 * len(regimens), 3.9), sharey=True)
    axes = [axes] if len(regimens) == 1 else list(axes)
    threshold = float(result.config["options"]["threshold"])
    for ax, regimen in zip(axes, regimens, strict=True):
        for name in schedules or _schedules(result, regimen):
            band = curve_band(result, condition_key(regimen, name))
            style = STYLES[name]
            ax.fill_between(
                band["games"], band["low"], band["high"], color=style["color"], alpha=0.18, lw=0
            )
            ax.plot(band["games"], band["mean"], label=name, **style)
        ax.axhline(threshold, color=plotting.GREY, lw=0.8, ls=":")
        ax.set_title(REGIMEN_TITLES[regimen])
        ax.set_xlabel("training games")
        ax.set_xlim(0, band["games"][-1])
        ax.set_ylim(0, 1)
    axes[0].set_ylabel("exact draw rate vs the perfect player")
    handles, labels = axes[0].get_legend_handles_labels()
    fig.legend(handles, labels, loc="lower center", ncol=len(labels), bbox_to_anchor=(0.5, -0.08))
    fig.tight_layout()
    return fig


def paired_differences(result: SweepResult) -> Figure:
    """Each schedule minus 4-3-2-1 on the same seeds, in three panels.

    The area under the learning curve (percentage points), the games to the
    threshold, and the final draw rate against a perfect player that breaks ties at
    random (percentage points). Rows are schedules; each marker is the mean paired
    difference with its 95% interval. Right of zero is better, except for the games.
    """
    paired = paired_by_regimen(result)
    regimens = [r for r in REGIMENS if condition_key(r, BASELINE) in result.config["conditions"]]
    panels = (
        ("area", 100.0, "Δ area under the curve (pp)"),
        ("games_to_threshold", 1.0, ""),
        ("final_draw_uniform", 100.0, "Δ final draw rate, uniform ties (pp)"),
    )
    fig, axes = plt.subplots(1, 3, figsize=(11.5, 3.8), sharey=True)
    threshold = float(result.config["options"]["threshold"])
    names = [n for n in _schedules(result, regimens[0]) if n != BASELINE]
    offsets = {r: (i - (len(regimens) - 1) / 2) * 0.3 for i, r in enumerate(regimens)}
    markers = {"mixed": "o", "perfect": "s"}
    for ax, (metric, scale, label) in zip(axes, panels, strict=True):
        for regimen in regimens:
            ys, xs, lo, hi = [], [], [], []
            for i, name in enumerate(names):
                d = paired.get(condition_key(regimen, name), {}).get(metric)
                if d is None or d["mean"] is None or d["low"] is None:
                    continue
                ys.append(i + offsets[regimen])
                xs.append(d["mean"] * scale)
                lo.append((d["mean"] - d["low"]) * scale)
                hi.append((d["high"] - d["mean"]) * scale)
            colour = plotting.BLUE if regimen == "mixed" else plotting.VERMILLION
            ax.errorbar(
                xs,
                ys,
                xerr=[lo, hi],
                fmt=markers[regimen],
                color=colour,
                capsize=3,
                label=REGIMEN_TITLES[regimen],
            )
        ax.axvline(0, color=plotting.GREY, lw=0.8)
        ax.set_xlabel(label or f"Δ games to a {threshold:.0%} draw rate")
    axes[0].set_yticks(range(len(names)), names)
    axes[0].invert_yaxis()
    axes[0].set_ylabel(f"schedule − {BASELINE}")
    handles, labels = axes[0].get_legend_handles_labels()
    fig.legend(handles, labels, loc="lower center", ncol=2, bbox_to_anchor=(0.5, -0.1))
    fig.tight_layout()
    return fig


TRADE_OFF = {
    "area": ("Speed: area under the exact curve", plotting.BLUE, "-"),
    "final_draw_uniform": ("Robustness: draws vs perfect, random ties", plotting.VERMILLION, "--"),
    "final_noloss_random": ("Not losing to the random player", plotting.GREEN, "-."),
    "final_noloss_defensive": ("Not losing to the defensive player", plotting.PURPLE, ":"),
}
"""The trade-off figure's lines: metric -> (label, colour, line style)."""


def trade_off(rows: list[dict]) -> Figure:
    """Speed and robustness against initial beads per colour (log scale), with 95% bands.

    ``rows`` are :func:`menace_lib.book.beyond.priors_curve.curve_rows`; Michie's 4-3-2-1
    (the row without a single bead count) is drawn as a dotted level per metric.
    """
    levels = [r for r in rows if len(r["beads"]) == 1]
    michie = next((r for r in rows if len(r["beads"]) > 1), None)
    x = [r["beads"][0] for r in levels]
    fig, ax = plt.subplots(figsize=(7.2, 4.2))
    for metric, (label, colour, style) in TRADE_OFF.items():
        mean = [100 * r[metric]["mean"] for r in levels]
        low = [
            100 * (r[metric]["low"] if r[metric]["low"] is not None else r[metric]["mean"])
            for r in levels
        ]
        high = [
            100 * (r[metric]["high"] if r[metric]["high"] is not None else r[metric]["mean"])
            for r in levels
        ]
        ax.plot(x, mean, color=colour, linestyle=style, marker="o", markersize=3.5, label=label)
        ax.fill_between(x, low, high, color=colour, alpha=0.18, linewidth=0)
        if michie is not None:
            ax.axhline(100 * michie[metric]["mean"], color=colour, linestyle=":", linewidth=1)
    ax.set_xscale("log", base=2)
    ax.set_xlabel("initial beads per colour, every box (log scale)")
    ax.set_ylabel("percent (mean over seeds, 95% band)")
    ax.set_ylim(0, 100)
    if michie is not None:
        ax.text(x[-1], 2, "dotted: Michie's 4-3-2-1", ha="right", va="bottom", fontsize=8)
    ax.legend(loc="lower left", fontsize=8)
    fig.tight_layout()
    return fig
