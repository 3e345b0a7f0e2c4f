"""Figures of the ``opponent-model`` sweep (numbers from :mod:`.opponent_model`).

Every figure draws a :class:`~menace_lib.experiments.sweep.SweepResult`: curves with
their pointwise 95% confidence bands, and per-condition means with 95% intervals.
Colours are the book's Okabe--Ito palette, and each agent also has its own line
style and marker, so the figures read without colour. matplotlib is imported
when a figure is drawn, not when the sweep is (the command line lists sweeps).
"""

from __future__ import annotations

from typing import TYPE_CHECKING

import numpy as np

from ...experiments.sweep import SweepResult
from .opponent_model import AGENT_LABELS, AGENTS, LEARNERS, OPPONENTS, condition, curve_band

if TYPE_CHECKING:  # pragma: no cover
    from matplotlib.figure import Figure

__all__ = ["STYLES", "draw_curves", "draw_final_scores", "draw_recovery"]

# agent -> (palette colour name, line style, marker)
STYLES = {
    "learned": ("BLUE", "-", "o"),
    "forgetful": ("VERMILLION", "-", "s"),
    "oracle-uniform": ("SKY", "--", "^"),
    "oracle-adversarial": ("ORANGE", "-.", "v"),
    "oracle-minimax": ("GREEN", ":", "D"),
}
OPPONENT_TITLES = {
    "perfect": "perfect",
    "random": "random",
    "defensive": "defensive",
    "switching": "switching\n(random → perfect)",
}


def _style(agent: str) -> dict:
    from .. import plotting

    colour, line, marker = STYLES[agent]
    return {"color": getattr(plotting, colour), "linestyle": line, "marker": marker}


def _error(ci: dict) -> tuple[float, float]:
    """Distances from a mean to its interval's ends (0 where there is no interval)."""
    if ci["low"] is None:
        return (0.0, 0.0)
    return (ci["mean"] - ci["low"], ci["high"] - ci["mean"])


def _agents_in(result: SweepResult, opponent: str) -> list[str]:
    have = set(result.config["conditions"])
    return [a for a in AGENTS if condition(a, opponent) in have]


def draw_curves(
    result: SweepResult, opponents: tuple[str, ...] = ("perfect", "switching")
) -> Figure:
    """Exact draw rate against perfect play during training, one panel per opponent.

    Lines are means over seeds, bands their 95% intervals; the switching panel
    marks the switch and the 90% threshold of the recovery measure.
    """
    import matplotlib.pyplot as plt

    from .. import plotting

    options = result.config["options"]
    fig, axes = plt.subplots(
        1, len(opponents), figsize=(4.2 * len(opponents), 3.6), sharey=True, squeeze=False
    )
    for ax, opponent in zip(axes[0], opponents, strict=True):
        for agent in _agents_in(result, opponent):
            band = curve_band(result, condition(agent, opponent))
            style = _style(agent)
            every = max(1, len(band["games"]) // 8)
            ax.plot(
                band["games"], band["mean"], label=AGENT_LABELS[agent], markevery=every,
                markersize=4, **style,
            )  # fmt: skip
            ax.fill_between(
                band["games"], band["low"], band["high"], color=style["color"], alpha=0.2
            )
        ax.axhline(float(options["threshold"]), color=plotting.GREY, linewidth=0.8, linestyle=":")
        if opponent == "switching":
            ax.axvline(int(options["games"]) // 2, color=plotting.GREY, linewidth=1.0)
            ax.annotate(
                "switch", (int(options["games"]) // 2, 0.02), xytext=(4, 0),
                textcoords="offset points", color=plotting.GREY, fontsize=9,
            )  # fmt: skip
        ax.set_title("trained against " + OPPONENT_TITLES[opponent].replace("\n", " "))
        ax.set_xlabel("training games")
        ax.set_ylim(0, 1.02)
    axes[0][0].set_ylabel("exact draw rate against perfect play")
    fig.tight_layout(rect=(0, 0.12, 1, 1))
    handles, labels = axes[0][0].get_legend_handles_labels()
    fig.legend(handles, labels, loc="lower center", ncol=3, fontsize=9)
    return fig


def draw_final_scores(result: SweepResult, metric: str = "final_score") -> Figure:
    """Each agent's mean ``metric`` (95% interval) against each opponent, grouped by opponent."""
    import matplotlib.pyplot as plt

    fig, ax = plt.subplots(figsize=(7.5, 3.6))
    agents = list(AGENTS)
    width = 0.8 / len(agents)
    for j, agent in enumerate(agents):
        xs, means, errs = [], [], []
        for i, opponent in enumerate(OPPONENTS):
            key = condition(agent, opponent)
            if key not in result.summary:
                continue
            s = result.summary[key][metric]
            if s["mean"] is None:
                continue
            xs.append(i - 0.4 + width * (j + 0.5))
            means.append(s["mean"])
            errs.append(_error(s))
        style = _style(agent)
        ax.errorbar(
            xs, means, yerr=np.array(errs).T if errs else None, color=style["color"],
            marker=style["marker"], linestyle="none", capsize=2, label=AGENT_LABELS[agent],
        )  # fmt: skip
    ax.set_xticks(range(len(OPPONENTS)), [OPPONENT_TITLES[o] for o in OPPONENTS])
    ax.set_ylabel("exact score at the end\n(win 1, draw ½, loss 0)")
    ax.set_xlabel("opponent trained and evaluated against")
    ax.legend(fontsize=8, loc="upper left", bbox_to_anchor=(1.0, 1.0))
    fig.tight_layout()
    return fig


def draw_recovery(result: SweepResult) -> Figure:
    """Games to a 90% draw rate against perfect play: from scratch and after the switch.

    For each learner, two intervals: ``games_to_90`` when trained against perfect
    play from the start, and ``recovery_games`` after the switch. Runs that never
    get there are left out of the mean; the label counts them.
    """
    import matplotlib.pyplot as plt

    from .. import plotting

    rows = []
    for agent in LEARNERS:
        for opponent, metric, what in (
            ("perfect", "games_to_90", "from scratch"),
            ("switching", "recovery_games", "after the switch"),
        ):
            key = condition(agent, opponent)
            if key in result.summary:
                rows.append((agent, what, result.summary[key][metric], key))
    fig, ax = plt.subplots(figsize=(7.0, 0.5 + 0.55 * len(rows)))
    for y, (agent, _what, s, key) in enumerate(rows):
        seeds = len(result.values(key, "final_score"))
        missing = seeds - s["n"]
        note = f" ({missing} of {seeds} never)" if missing else ""
        if s["mean"] is None:
            ax.annotate(
                f"never{note}", (0, y), va="center", fontsize=9, color=plotting.INK["light"]
            )
            continue
        style = _style(agent)
        low, high = _error(s)
        ax.errorbar(
            s["mean"], y, xerr=[[low], [high]], color=style["color"], marker=style["marker"],
            capsize=3,
        )  # fmt: skip
        ax.annotate(
            f"{s['mean']:.0f}{note}", (s["mean"] + high, y), xytext=(6, 0),
            textcoords="offset points", va="center", fontsize=9, color=plotting.INK["light"],
        )  # fmt: skip
    ax.set_yticks(range(len(rows)), [f"{AGENT_LABELS[a]}, {w}" for a, w, _, _ in rows])
    ax.invert_yaxis()
    ax.set_xlabel("training games to an exact draw rate ≥ 90% against perfect play")
    ax.set_xlim(0, None)
    ax.margins(x=0.25)
    fig.tight_layout()
    return fig
