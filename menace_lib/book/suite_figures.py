"""Figures of the thesis's Chapter 9, redrawn from suite results.

Every function takes a :class:`~menace_lib.experiments.results.SuiteResult`
and returns a matplotlib ``Figure``; nothing is computed here beyond means and
bands across seeds. Colours come from :mod:`menace_lib.book.plotting` (call
:func:`menace_lib.book.plotting.use_book_style` first for the book's look).

* :func:`figure_9_1` -- MENACE (mixed) vs Instrumental AIF (optimal): cumulative
  training draw rates, per-seed validation draw rates (sampled and exact), and
  per-state empirical policy KL to the uniform-minimax reference.
* :func:`figure_9_2` -- Pure AIF λ sweep: training draw trajectories, the
  epistemic value and its contribution λ·E over games.
* :func:`learning_curves` -- exact draw probability against the perfect player
  at checkpoints during training (beyond the thesis).
* :func:`comparison` -- every row beside the thesis's number.
* :func:`lambda_sweep` -- final draw probability against λ (the λ suite).
* :func:`information_price` -- exact draw of λ > 0 minus λ = 0 during training.
* :func:`validation_noise` -- repeated 100-game validations of one agent.
"""

from __future__ import annotations

from collections.abc import Sequence

import matplotlib.pyplot as plt
import numpy as np
from matplotlib.axes import Axes
from matplotlib.figure import Figure

from ..experiments.results import SuiteResult, cumulative_draws
from . import plotting as style

MENACE_KEY = "9.1/MENACE/restock box"
INSTRUMENTAL_KEY = "9.1/Instrumental AIF/λ=0"
PURE_KEYS = ("9.1/Pure AIF/λ=0", "9.1/Pure AIF/λ=0.25", "9.1/Pure AIF/λ=0.5")
CURVE_KEYS = (
    MENACE_KEY,
    INSTRUMENTAL_KEY,
    "9.1/Hybrid AIF/λ=0.5",
    "9.1/Pure AIF/λ=0",
    "9.1/Oracle AIF/λ=0.5, uniform model",
)


def _style(result: SuiteResult, keys: Sequence[str]) -> list[tuple[str, str | tuple]]:
    """(colour, line style) per key: the agent kind's one colour (menace_lib.base.palette); a
    kind's second, third, ... setting keeps the colour and changes the line style."""
    seen: dict[str, int] = {}
    out = []
    for key in keys:
        kind = result.row(key)["kind"]
        out.append((style.agent_colour(kind), style.linestyle(seen.get(kind, 0))))
        seen[kind] = seen.get(kind, 0) + 1
    return out


def _band(curves: Sequence[np.ndarray]) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """Mean and ± one sample SD across seeds, over the common length."""
    n = min(len(c) for c in curves)
    stack = np.array([c[:n] for c in curves])
    sd = stack.std(axis=0, ddof=1) if len(stack) > 1 else np.zeros(n)
    return np.arange(1, n + 1), stack.mean(axis=0), sd


def _label(result: SuiteResult, key: str) -> str:
    row = result.row(key)
    return f"{row['agent']} ({row['condition']}, {row['regimen']})"


def _plot_band(ax, x, mean, sd, colour, label, linestyle: str | tuple = "-") -> None:
    ax.plot(x, mean, color=colour, label=label, linestyle=linestyle)
    ax.fill_between(x, mean - sd, mean + sd, color=colour, alpha=0.2, linewidth=0)


def figure_9_1(result: SuiteResult, keys: Sequence[str] = (MENACE_KEY, INSTRUMENTAL_KEY)) -> Figure:
    """Thesis Figure 9.1: training draw rates, validation per seed, policy KL."""
    fig, (top, middle, bottom) = plt.subplots(3, 1, figsize=(7, 9), constrained_layout=True)
    _training_panel(top, result, keys)
    _validation_panel(middle, result, keys)
    _policy_kl_panel(bottom, result, keys)
    return fig


def _training_panel(top: Axes, result: SuiteResult, keys: Sequence[str]) -> None:
    styles = _style(result, keys)
    for i, key in enumerate(keys):
        recs = result.records_for(key)
        x, mean, sd = _band([cumulative_draws(r) for r in recs])
        _plot_band(top, x, 100 * mean, 100 * sd, styles[i][0], _label(result, key), styles[i][1])
    top.set(xlabel="training game", ylabel="cumulative draw rate (%)", ylim=(0, 100))
    top.set_title("Training (mean ± SD over seeds)")
    top.legend(loc="lower right")


def _validation_panel(middle: Axes, result: SuiteResult, keys: Sequence[str]) -> None:
    styles = _style(result, keys)
    width = 0.35
    for i, key in enumerate(keys):
        recs = result.records_for(key)
        seeds = np.arange(len(recs))
        offsets = (seeds - seeds.mean()) / max(len(recs), 1) * width
        middle.scatter(
            i + offsets,
            [100 * r["val_draw"] for r in recs],
            color=styles[i][0],
            marker="o",
            label="sampled (100 games)" if i == 0 else None,
            zorder=3,
        )
        middle.scatter(
            i + offsets,
            [100 * r["exact_draw"] for r in recs],
            facecolor="none",
            edgecolor=styles[i][0],
            marker="D",
            label="exact" if i == 0 else None,
            zorder=3,
        )
        for off, r in zip(offsets, recs, strict=True):
            middle.plot(
                [i + off] * 2,
                [100 * r["val_draw"], 100 * r["exact_draw"]],
                color=style.GREY,
                linewidth=0.6,
                zorder=2,
            )
    middle.set_xticks(range(len(keys)), [_label(result, k) for k in keys])
    middle.set(ylabel="draw rate vs perfect (%)", xlim=(-0.6, len(keys) - 0.4))
    middle.set_title("Validation per seed: 100 sampled games and the exact probability")
    middle.legend(loc="lower right")


def _policy_kl_panel(bottom: Axes, result: SuiteResult, keys: Sequence[str]) -> None:
    styles = _style(result, keys)
    data = []
    for key in keys:
        data.append([v for r in result.records_for(key) for v in r["empirical_kl"].values()])
    parts = bottom.boxplot(
        data, positions=range(len(keys)), widths=0.5, showfliers=False, patch_artist=True
    )
    for i, box in enumerate(parts["boxes"]):
        box.set(facecolor="none", edgecolor=styles[i][0])
        parts["medians"][i].set(color=styles[i][0], linewidth=2)
    for line in parts["whiskers"] + parts["caps"]:
        line.set(color=style.GREY)
    jitter = np.random.default_rng(0)  # fixed: the figure is deterministic
    for i, values in enumerate(data):
        bottom.scatter(
            i + jitter.uniform(-0.2, 0.2, len(values)),
            values,
            s=8,
            color=styles[i][0],
            alpha=0.5,
            zorder=3,
        )
    bottom.set_xticks(range(len(keys)), [_label(result, k) for k in keys])
    protocol = result.config["protocol"]
    bottom.set(ylabel=r"$D_{KL}(\pi^{mm,U}_s \,\|\, \hat\pi_s)$ (nats)")
    bottom.set_title(
        f"Per-state policy KL, last {protocol['kl_window']} training games, "
        f"states visited ≥ {protocol['kl_min_visits']} times (all seeds)"
    )


def figure_9_2(result: SuiteResult, keys: Sequence[str] = PURE_KEYS) -> Figure:
    """Thesis Figure 9.2: Pure AIF λ sweep, draw trajectories and epistemic value."""
    fig, axes = plt.subplots(1, 3, figsize=(11, 3.6), constrained_layout=True)
    styles = _style(result, keys)
    for i, key in enumerate(keys):
        recs = result.records_for(key)
        label = result.row(key)["condition"]
        x, mean, sd = _band([cumulative_draws(r) for r in recs])
        _plot_band(axes[0], x, 100 * mean, 100 * sd, styles[i][0], label, styles[i][1])
        for ax, field in zip(axes[1:], ("epistemic", "epistemic_contribution"), strict=True):
            traces = [r["trace"] for r in recs if r.get("trace")]
            if not traces:
                continue
            games = np.array(traces[0]["games"])
            values = np.array([[np.nan if v is None else v for v in t[field]] for t in traces])
            mean = np.nanmean(values, axis=0)
            sd = np.nanstd(values, axis=0, ddof=1) if len(values) > 1 else np.zeros_like(mean)
            _plot_band(ax, games, mean, sd, styles[i][0], label, styles[i][1])
    axes[0].set(
        xlabel="training game",
        ylabel="cumulative draw rate (%)",
        ylim=(0, 100),
        title="Training draws vs perfect",
    )
    axes[1].set(xlabel="training game", ylabel="nats", title="Epistemic value E (q-weighted MI)")
    axes[2].set(xlabel="training game", ylabel="nats", title="Contribution λ·E to −G")
    axes[0].legend(loc="lower right")
    return fig


def learning_curves(result: SuiteResult, keys: Sequence[str] = CURVE_KEYS) -> Figure:
    """Exact draw probability against the perfect player during training."""
    fig, ax = plt.subplots(figsize=(7, 4), constrained_layout=True)
    styles = _style(result, keys)
    for i, key in enumerate(keys):
        recs = result.records_for(key)
        n = min(len(r["curve"]["games"]) for r in recs)
        games = np.array(recs[0]["curve"]["games"][:n])
        stack = np.array([r["curve"]["draw"][:n] for r in recs])
        sd = stack.std(axis=0, ddof=1) if len(stack) > 1 else np.zeros(n)
        ax.plot(
            games,
            100 * stack.mean(axis=0),
            marker=".",
            color=styles[i][0],
            linestyle=styles[i][1],
            label=_label(result, key),
        )
        ax.fill_between(
            games,
            100 * (stack.mean(axis=0) - sd),
            100 * (stack.mean(axis=0) + sd),
            color=styles[i][0],
            alpha=0.15,
            linewidth=0,
        )
    ax.set(xlabel="training games", ylabel="exact draw probability vs perfect (%)", ylim=(0, 100))
    # Below the axes: inside, the labels would sit on MENACE's late rise.
    fig.legend(loc="outside lower center", ncols=2)
    return fig


def comparison(result: SuiteResult, rows: Sequence[dict] | None = None) -> Figure:
    """Every row: our draw rate (mean ± SD, sampled and exact) beside the thesis's."""
    rows = list(rows if rows is not None else result.rows)
    fig, ax = plt.subplots(figsize=(7.5, 0.32 * len(rows) + 1.2), constrained_layout=True)
    y = np.arange(len(rows))[::-1]
    for yi, r in zip(y, rows, strict=True):
        training = r["thesis_metric"] == "training"
        ours, ours_sd = (
            (r["train_draw_mean"], r["train_draw_sd"])
            if training
            else (r["draw_mean"], r["draw_sd"])
        )
        ax.errorbar(ours, yi + 0.12, xerr=ours_sd or 0, fmt="o", color=style.BLUE, capsize=2)
        if not training:
            ax.plot(r["exact_draw_mean"], yi + 0.12, "D", mfc="none", color=style.BLUE)
        if r["thesis_draw"] is not None:
            ax.errorbar(
                r["thesis_draw"],
                yi - 0.12,
                xerr=r["thesis_draw_sd"] or 0,
                fmt="s",
                color=style.ORANGE,
                capsize=2,
            )
    ax.set_yticks(
        y,
        [
            f"{r['table']}  {r['agent']} · {r['condition']}"
            + (" (training)" if r["thesis_metric"] == "training" else "")
            for r in rows
        ],
    )
    ax.set(xlabel="draw rate (%)", xlim=(-3, 103))
    handles = [
        plt.Line2D(
            [], [], marker="o", color=style.BLUE, linestyle="", label="ours (sampled, ± SD)"
        ),
        plt.Line2D(
            [], [], marker="D", mfc="none", color=style.BLUE, linestyle="", label="ours (exact)"
        ),
        plt.Line2D([], [], marker="s", color=style.ORANGE, linestyle="", label="thesis (± SD)"),
    ]
    ax.legend(handles=handles, loc="lower left", fontsize=8)
    return fig


def lambda_sweep(result: SuiteResult, kinds: Sequence[str] = ("hybrid", "pure")) -> Figure:
    """Final draw rate against the epistemic weight λ: exact (± SD), sampled, thesis."""
    fig, ax = plt.subplots(figsize=(8.5, 3.6), layout="constrained")
    conditions = {c.key: c for c in result.conditions()}
    names = {"hybrid": "tree + learnt opponent (Instrumental / Hybrid)", "pure": "Pure AIF"}
    handles = []
    for family in kinds:
        members = [
            r
            for r in result.rows
            if r["kind"] == family or (family == "hybrid" and r["kind"] == "instrumental")
        ]
        lams = np.array([conditions[r["key"]].kwargs["lam"] for r in members])
        order = np.argsort(lams)
        exact = np.array([r["exact_draw_mean"] for r in members])[order]
        sd = np.array([r["exact_draw_sd"] or 0.0 for r in members])[order]
        sampled = np.array([r["draw_mean"] for r in members])[order]
        colour = style.agent_colour(family)
        ax.errorbar(lams[order], exact, yerr=sd, marker="o", capsize=3, color=colour)
        ax.plot(lams[order], sampled, linestyle="", marker="x", color=colour)
        thesis = [
            (lam, r["thesis_draw"])
            for lam, r in zip(lams, members, strict=True)
            if r["thesis_draw"] is not None
        ]
        if thesis:
            ax.plot(*zip(*thesis, strict=True), linestyle="", marker="s", mfc="none", color=colour)
        handles.append(plt.Line2D([], [], color=colour, label=names.get(family, family)))
    handles += [
        plt.Line2D([], [], marker="o", color=style.GREY, label="exact, mean ± SD over seeds"),
        plt.Line2D([], [], marker="x", color=style.GREY, linestyle="", label="100 sampled games"),
        plt.Line2D([], [], marker="s", mfc="none", color=style.GREY, linestyle="", label="thesis"),
    ]
    ax.set(xlabel="epistemic weight λ", ylabel="draw rate vs perfect (%)")
    ax.set_xscale("symlog", linthresh=0.1)
    ticks = sorted({c.kwargs["lam"] for c in conditions.values() if "lam" in c.kwargs})
    ax.set_xticks(ticks, [f"{t:g}" for t in ticks])
    ax.minorticks_off()
    fig.legend(handles=handles, loc="outside right center")
    return fig


def information_price(result: SuiteResult, pairs: Sequence[tuple[str, str]]) -> Figure:
    """Exact draw probability of each ``(key, baseline)`` pair's difference during training.

    Plotted in percentage points with ± one standard error (Welch) of the
    difference of the two seed means at each checkpoint.
    """
    fig, ax = plt.subplots(figsize=(6.5, 3.6), constrained_layout=True)
    styles = _style(result, [key for key, _ in pairs])
    for i, (key, base) in enumerate(pairs):
        stacks = []
        for k in (key, base):
            recs = result.records_for(k)
            n = min(len(r["curve"]["games"]) for r in recs)
            stacks.append(np.array([r["curve"]["draw"][:n] for r in recs]))
        n = min(s.shape[1] for s in stacks)
        a, b = stacks[0][:, :n], stacks[1][:, :n]
        games = np.array(result.records_for(key)[0]["curve"]["games"][:n])
        diff = 100 * (a.mean(axis=0) - b.mean(axis=0))
        se = 100 * np.sqrt(a.var(axis=0, ddof=1) / len(a) + b.var(axis=0, ddof=1) / len(b))
        label = (
            f"{result.row(key)['agent']} {result.row(key)['condition']} − "
            f"{result.row(base)['condition']}"
        )
        _plot_band(ax, games, diff, se, styles[i][0], label, styles[i][1])
    ax.axhline(0, color=style.GREY, linewidth=0.8)
    ax.set(xlabel="training games", ylabel="exact draw difference (pp)")
    ax.legend(loc="lower right")
    return fig


def validation_noise(rates: np.ndarray, exact: float, games: int = 100) -> Figure:
    """Histogram of repeated sampled validations with the exact probability and ±1 SD."""
    fig, ax = plt.subplots(figsize=(5.5, 3), constrained_layout=True)
    bins = np.arange(-0.5, games + 1.5) / games * 100
    ax.hist(100 * np.asarray(rates), bins=bins, color=style.SKY, edgecolor="none")
    sd = 100 * np.sqrt(exact * (1 - exact) / games)
    ax.axvline(100 * exact, color=style.VERMILLION, label=f"exact {100 * exact:.1f}%")
    for side in (-1, 1):
        ax.axvline(
            100 * exact + side * sd,
            color=style.VERMILLION,
            linestyle=":",
            label="± binomial SD" if side == 1 else None,
        )
    lo, hi = 100 * np.min(rates), 100 * np.max(rates)
    ax.set(
        xlabel=f"draw rate in {games} sampled games (%)",
        ylabel="validations",
        xlim=(max(lo - 5, -1), min(hi + 5, 101)),
    )
    ax.legend(fontsize=8)
    return fig
