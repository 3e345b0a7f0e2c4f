"""Adaptive epistemic weight (thesis §11.6.4): does a λ that changes during learning
beat every fixed λ?

The thesis ran its Active Inference agents with one epistemic weight λ for the whole
of training and asks whether a λ that changes -- mirroring MENACE's own implicit
annealing, where each reinforcement matters less as a box fills -- would do better.
This sweep compares, for the Hybrid and the Pure agent, under the thesis's mixed
curriculum and against the perfect player from the start:

* fixed λ ∈ {0, 0.25, 0.5, 1} (the thesis's setting);
* ``decay``: λ_t = λ₀ / (1 + t/τ) over the games played;
* ``concentration``: each box's λ shrinks with the evidence in the beliefs it reads,
  λ(s) = λ₀ · κα₀⁰(s) / (κα₀⁰(s) + n(s)) (large while the box is uncertain,
  vanishing as it fills).

See :class:`~menace_lib.agents.aif.AIFConfig` for the schedules. Every condition runs on
the same seeds (common random numbers: a run's generator is
``default_rng(seed)``), and each run records the exact draw rate against the
perfect player every ``every`` games (:func:`~menace_lib.play.learning_curve.train_with_curve`)
and the agent's traced epistemic term.

Metrics per run: ``games_to_90`` (first mark with an exact draw rate ≥ 0.9, or
``None``), ``reached_90`` (0/1), ``auc`` (mean exact draw rate over the first
``horizon`` games), ``final_draw``, ``emptied_box`` (0/1: an empty box; it cannot
happen here, since a box is rewritten from a softmax, and is kept for comparison
with the other sweeps) and ``epistemic_total`` (the sum over training games of the
game's mean λ·E over its boxes, the epistemic contribution the agent traces).
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

import numpy as np

from ...agents.aif import AIFConfig
from ...agents.registry import get_kind
from ...base.confidence import mean_ci, paired_ci, proportion_ci
from ...experiments.sweep import Sweep, SweepResult
from ...play.evaluation import exact_outcome
from ...play.learning_curve import area_under, curve_marks, games_to_reach, train_with_curve
from ...play.opponents import make_opponent, regimen_blocks

__all__ = [
    "AGENTS",
    "FIXED_LAMBDAS",
    "REGIMENS",
    "SCHEDULES",
    "SWEEP",
    "condition_key",
    "curve_bands",
    "paired_difference",
    "parse_condition",
    "run_config",
    "run_one",
    "summary_table",
]

AGENTS = ("hybrid", "pure")
FIXED_LAMBDAS = (0.0, 0.25, 0.5, 1.0)
SCHEDULES = tuple(f"fixed-{lam:g}" for lam in FIXED_LAMBDAS) + ("decay", "concentration")
REGIMENS = ("mixed", "optimal")
THRESHOLD = 0.9
DEFAULTS: dict[str, Any] = {
    "games": 500,
    "every": 10,
    "horizon": 500,
    "lam0": 1.0,
    "tau": 50.0,
    "kappa": 1.0,
    "tie_break": "lowest",
}
"""The published sweep: the thesis's 500 games, a mark every 10 games, schedules
starting at λ₀ = 1 (the largest fixed λ), decaying to λ₀/2 after τ = 50 games or
when a box's evidence equals its prior (κ = 1)."""

METRICS = ("games_to_90", "reached_90", "auc", "final_draw", "emptied_box", "epistemic_total")


def condition_key(agent: str, schedule: str, regimen: str) -> str:
    """``"hybrid/decay/mixed"``: the condition's name in the sweep."""
    return f"{agent}/{schedule}/{regimen}"


def parse_condition(condition: str) -> tuple[str, str, str]:
    """``(agent, schedule, regimen)`` of a condition key.

    Raises
    ------
    ValueError
        Naming the bad key.
    """
    parts = condition.split("/")
    if len(parts) != 3 or parts[0] not in AGENTS or parts[1] not in SCHEDULES:
        raise ValueError(f"bad condition {condition!r}; e.g. {condition_key(*CONDITIONS[0])!r}")
    if parts[2] not in REGIMENS:
        raise ValueError(f"bad regimen in {condition!r}; choose one of {REGIMENS}")
    return parts[0], parts[1], parts[2]


CONDITIONS = [(a, s, r) for r in REGIMENS for a in AGENTS for s in SCHEDULES]


def agent_config(schedule: str, options: dict[str, Any]) -> AIFConfig:
    """The agent's settings: the thesis's (λ_policy 0.25, Michie's boxes, ...) and the schedule."""
    if schedule.startswith("fixed-"):
        return AIFConfig(lam=float(schedule.removeprefix("fixed-")), lambda_policy=0.25)
    extra = (
        {"lambda_tau": float(options["tau"])}
        if schedule == "decay"
        else {"lambda_kappa": float(options["kappa"])}
    )
    return AIFConfig(
        lam=float(options["lam0"]), lambda_policy=0.25, lambda_schedule=schedule, **extra
    )


def run_one(condition: str, seed: int, options: dict[str, Any]) -> dict[str, Any]:
    """Train one agent on one seed and measure it (see the module docstring)."""
    agent_kind, schedule, regimen = parse_condition(condition)
    return run_config(agent_kind, agent_config(schedule, options), regimen, seed, options)


def run_config(
    agent_kind: str, config: AIFConfig, regimen: str, seed: int, options: dict[str, Any]
) -> dict[str, Any]:
    """Train a ``"hybrid"`` or ``"pure"`` agent with ``config`` on one seed and measure it.

    The run the sweep makes for every condition (:func:`run_one`), for any
    settings: the λ tuner (:mod:`.lambda_tuning`) calls it with settings the
    sweep's conditions do not name. ``options`` gives ``games``, ``every``,
    ``horizon`` and ``tie_break``.
    """
    if agent_kind not in AGENTS or regimen not in REGIMENS:
        raise ValueError(f"bad agent or regimen {agent_kind!r}, {regimen!r}")
    agent = get_kind(agent_kind).make(config, trace=True)
    games, tie_break = int(options["games"]), str(options["tie_break"])
    rng = np.random.default_rng(seed)  # common random numbers across conditions
    start = exact_outcome(agent, make_opponent("perfect", tie_break))["draw"]

    def on_mark(trained, _games: int) -> dict[str, float]:
        return {
            "epistemic": float(sum(t["epistemic_contribution"] for t in trained.trace)),
            "lambda_root": float(trained.efe_table(0).lam),
        }

    curve = train_with_curve(
        agent,
        regimen_blocks(regimen, games, tie_break),
        rng,
        curve_marks(games, int(options["every"])),
        tie_break=tie_break,
        on_mark=on_mark,
    )
    draw = curve.rates["perfect"]["draw"]
    reach = games_to_reach(curve.games, draw, THRESHOLD)
    return {
        "games_to_90": reach,
        "reached_90": int(reach is not None),
        "auc": area_under(curve.games, draw, int(options["horizon"]), start=start),
        "final_draw": draw[-1],
        "emptied_box": int(curve.stopped or any(curve.log.resigned)),
        "epistemic_total": curve.extra[-1]["epistemic"] if curve.extra else 0.0,
        "marks": curve.games,
        "draw_curve": draw,
        "epistemic_curve": [e["epistemic"] for e in curve.extra],
        "lambda_curve": [e["lambda_root"] for e in curve.extra],
    }


SWEEP = Sweep(
    name="lambda-schedule",
    conditions=tuple(condition_key(*c) for c in CONDITIONS),
    run_one=run_one,
    metrics=METRICS,
    baseline=None,  # compared within each agent and regimen: see summary_table
    options=DEFAULTS,
    question=(
        "Does an epistemic weight that changes during learning (decaying with games, "
        "or tied to each box's concentration) beat every fixed λ? (thesis §11.6.4)"
    ),
)


# --- read-outs for the chapter ----------------------------------------------------------


def curve_bands(result: SweepResult, condition: str, field: str = "draw_curve") -> dict:
    """Per mark, the mean of a per-run curve and its 95% interval over seeds."""
    runs = [r for r in result.records if r["condition"] == condition]
    if not runs:
        raise ValueError(f"no runs of {condition!r} in the result")
    marks = runs[0]["marks"]
    values = np.array([r[field] for r in runs], dtype=float)
    cis = [mean_ci(values[:, i].tolist()) for i in range(len(marks))]
    return {
        "games": list(marks),
        "mean": [c["mean"] for c in cis],
        "low": [c["low"] for c in cis],
        "high": [c["high"] for c in cis],
    }


def paired_difference(
    result: SweepResult, condition: str, reference: str, metric: str = "auc"
) -> dict:
    """``metric`` of ``condition`` minus that of ``reference``, seed by seed, with its
    95% interval (:func:`~menace_lib.base.confidence.paired_ci`)."""
    mine = {r["seed"]: r[metric] for r in result.records if r["condition"] == condition}
    theirs = {r["seed"]: r[metric] for r in result.records if r["condition"] == reference}
    seeds = sorted(set(mine) & set(theirs))
    if not seeds:
        raise ValueError(f"no common seeds for {condition!r} and {reference!r}")
    return paired_ci([mine[s] for s in seeds], [theirs[s] for s in seeds])


def _best_fixed(result: SweepResult, agent: str, regimen: str) -> str:
    """The fixed-λ condition with the highest mean area under the curve."""
    fixed = [condition_key(agent, f"fixed-{lam:g}", regimen) for lam in FIXED_LAMBDAS]
    fixed = [c for c in fixed if c in result.summary]
    return max(fixed, key=lambda c: result.summary[c]["auc"]["mean"])


def summary_table(result: SweepResult) -> list[dict[str, Any]]:
    """One row per condition: the metrics with 95% intervals, and the paired
    difference in area under the curve from the best fixed λ of the same agent and
    regimen (common seeds)."""
    rows = []
    for condition in result.config["conditions"]:
        agent, schedule, regimen = parse_condition(condition)
        runs = [r for r in result.records if r["condition"] == condition]
        best = _best_fixed(result, agent, regimen)
        rows.append(
            {
                "agent": agent,
                "schedule": schedule,
                "regimen": regimen,
                "runs": len(runs),
                "reached_90": proportion_ci(sum(r["reached_90"] for r in runs), len(runs)),
                "games_to_90": mean_ci([r["games_to_90"] for r in runs]),
                "auc": mean_ci([r["auc"] for r in runs]),
                "final_draw": mean_ci([r["final_draw"] for r in runs]),
                "emptied_box": sum(r["emptied_box"] for r in runs),
                "epistemic_total": mean_ci([r["epistemic_total"] for r in runs]),
                "best_fixed": best.split("/")[1],
                "auc_vs_best_fixed": paired_difference(result, condition, best),
            }
        )
    return rows


def conditions_for(
    agents: Sequence[str] = AGENTS,
    schedules: Sequence[str] = SCHEDULES,
    regimens: Sequence[str] = REGIMENS,
) -> list[str]:
    """Condition keys for a slice of the sweep (e.g. the chapter's live cell)."""
    return [condition_key(a, s, r) for r in regimens for a in agents for s in schedules]
