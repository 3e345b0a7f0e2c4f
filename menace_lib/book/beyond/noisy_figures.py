"""Figures of the ``noisy`` sweep (numbers from :mod:`.noisy`).

The loss against the perfect player as the misreading rate grows, for the perfect player
and for a trained MENACE, each read by the three observers: colour names the observer,
line style the player, and markers let the lines be told apart without colour.
matplotlib is imported when a figure is drawn, not when the sweep is.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from ...experiments.sweep import SweepResult
from .noisy import OBSERVERS, curve

if TYPE_CHECKING:  # pragma: no cover
    from matplotlib.figure import Figure

__all__ = ["OBSERVER_LABELS", "draw_loss_curves"]

OBSERVER_LABELS = {
    "naive": "naive (the box of the board as read)",
    "uniform": "Bayes, uniform prior",
    "reach": "Bayes, reach prior",
}
_STYLE = {"naive": ("VERMILLION", "o"), "uniform": ("ORANGE", "s"), "reach": ("BLUE", "D")}
# Each observer's two lines: the trained MENACE solid, the perfect player dashed and hollow.
_PLAYERS = (
    ("train-0", "MENACE", {"linestyle": "-"}),
    ("perfect", "perfect player", {"linestyle": "--", "markerfacecolor": "none"}),
)


def draw_loss_curves(result: SweepResult) -> Figure:
    """Exact chance of losing to the perfect player against eps: the perfect player
    (dashed) and the trained MENACE (solid, mean of seeds with its 95% band)."""
    import matplotlib.pyplot as plt

    from .. import plotting

    fig, ax = plt.subplots(figsize=(6.4, 4.0))
    for observer in OBSERVERS:
        colour, marker = _STYLE[observer]
        c = getattr(plotting, colour)
        for player, name, style in _PLAYERS:
            line = curve(result, player, observer)
            ax.plot(
                line["eps"],
                line["mean"],
                color=c,
                marker=marker,
                label=f"{name}, {OBSERVER_LABELS[observer]}",
                **style,
            )
            if player != "perfect":  # the trained machine's seeds: a band around the mean
                ax.fill_between(line["eps"], line["low"], line["high"], color=c, alpha=0.18, lw=0)
    ax.set_xlabel("misreading rate per cell, ε")
    ax.set_ylabel("chance of losing to the perfect player")
    ax.set_ylim(0, 1)
    ax.set_xlim(0, max(result.config["options"]["curve_eps"]))
    ax.legend(fontsize=7.5, loc="upper left", frameon=False)
    fig.tight_layout()
    return fig
