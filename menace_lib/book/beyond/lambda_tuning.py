"""A fair test of an adaptive epistemic weight (thesis §11.6.4): tune every schedule alike.

The λ-schedule sweep (:mod:`.lambda_schedule`) runs each schedule at one setting
and compares it with the best of four fixed λ -- picked on the very seeds it is
judged on. Here every schedule, the fixed λ included, gets the same treatment:

1. **Tune** each schedule's parameters on a grid, on *tuning* seeds
   (:data:`TUNING_SEEDS`, 1000 onwards): the fixed λ over :data:`GRID` ``"fixed"``,
   the decaying λ over λ₀ × τ, the concentration-tied λ over λ₀ × κ. The
   objective is the mean area under the exact learning curve (``auc``, the mean
   exact draw rate against the perfect player over the run).
2. **Compare** the three tuned settings on *held-out* seeds (:data:`HELD_OUT`,
   0-29), each schedule paired with the tuned fixed λ on common seeds
   (:func:`~menace_lib.base.confidence.paired_ci`).

A tuned setting at the edge of its grid is reported as such (``at_edge`` names the
parameters): then the grid found a direction, not an optimum. λ = 0 is a natural
edge (λ cannot be negative).

Run ``python -m menace_lib.book.beyond.lambda_tuning --json PATH`` (see :func:`main`);
the book's cache is ``book/data/beyond_lambda_tuning.json``.
"""

from __future__ import annotations

import argparse
import sys
import time
from collections.abc import Mapping, Sequence
from typing import Any

import numpy as np

from ...agents.aif import AIFConfig
from ...base.confidence import mean_ci, paired_ci
from ...base.files import write_json
from ...base.parallel import run_tasks
from .lambda_schedule import DEFAULTS, run_config

__all__ = [
    "FORMAT",
    "GRID",
    "HELD_OUT",
    "TUNING_SEEDS",
    "config_of",
    "main",
    "run_setting",
    "setting_label",
    "tune_and_compare",
]

FORMAT = "menace_lib.lambda_tuning"

GRID: dict[str, list[dict[str, float]]] = {
    "fixed": [{"lam": x} for x in (0.0, 0.25, 0.5, 1.0, 2.0)],
    "decay": [
        {"lam": lam, "lambda_tau": tau} for lam in (0.5, 1.0, 2.0) for tau in (10.0, 50.0, 250.0)
    ],
    "concentration": [
        {"lam": lam, "lambda_kappa": k} for lam in (0.5, 1.0, 2.0) for k in (0.25, 1.0, 4.0)
    ],
}
"""Every setting tried, per schedule (λ₀ is ``lam``; τ in games; κ a share of the prior)."""

TUNING_SEEDS = tuple(range(1000, 1004))
"""Seeds the settings are chosen on (disjoint from the held-out seeds)."""

HELD_OUT = tuple(range(20))
"""Seeds the tuned settings are compared on (the first 20 of the λ-schedule cache's seeds)."""

OPTIONS = {k: DEFAULTS[k] for k in ("games", "every", "horizon", "tie_break")}
"""The λ-schedule sweep's protocol: 500 games, a mark every 10, lowest-square ties."""


def config_of(schedule: str, setting: Mapping[str, float]) -> AIFConfig:
    """The agent's settings: the thesis's λ_policy = 0.25, the schedule and its parameters."""
    if schedule not in GRID:
        raise ValueError(f"unknown schedule {schedule!r}; choose one of {tuple(GRID)}")
    return AIFConfig(lambda_policy=0.25, lambda_schedule=schedule, **dict(setting))


def setting_label(schedule: str, setting: Mapping[str, float]) -> str:
    """``"decay λ₀=2, τ=50"``: a setting in words for tables."""
    names = {"lam": "λ₀" if schedule != "fixed" else "λ", "lambda_tau": "τ", "lambda_kappa": "κ"}
    return f"{schedule} " + ", ".join(f"{names[k]}={v:g}" for k, v in setting.items())


def run_setting(
    agent: str,
    schedule: str,
    setting: dict[str, float],
    regimen: str,
    seed: int,
    options: dict[str, Any],
) -> dict[str, Any]:
    """One run (:func:`~.lambda_schedule.run_config`): its area, final rate and speed."""
    r = run_config(agent, config_of(schedule, setting), regimen, seed, options)
    return {k: r[k] for k in ("auc", "final_draw", "games_to_90", "reached_90")}


def _edges(schedule: str, setting: Mapping[str, float]) -> list[str]:
    """The parameters of ``setting`` that sit at the smallest or largest value of the grid."""
    out = []
    for key, value in setting.items():
        values = sorted({s[key] for s in GRID[schedule]})
        if len(values) > 1 and value in (values[0], values[-1]):
            out.append(f"{key}={value:g} ({'lowest' if value == values[0] else 'highest'})")
    return out


def tune_and_compare(
    agents: Sequence[str] = ("hybrid",),
    regimens: Sequence[str] = ("optimal",),
    tuning_seeds: Sequence[int] = TUNING_SEEDS,
    held_out: Sequence[int] = HELD_OUT,
    options: Mapping[str, Any] | None = None,
    *,
    jobs: int = 1,
    command: str | None = None,
) -> dict[str, Any]:
    """Tune every schedule on ``tuning_seeds``, then compare them on ``held_out``.

    Returns
    -------
    dict
        A JSON-ready document: the grid, the seeds, the protocol and, per
        ``"<agent>/<regimen>"``, for each schedule its ``tuning`` (every setting's
        mean auc), ``best`` setting, ``at_edge`` and, on the held-out seeds,
        ``held_out`` (auc per seed, with :func:`~menace_lib.base.confidence.mean_ci`
        summaries of auc, final draw rate and games to 90 %) and ``vs_fixed`` (auc
        minus the tuned fixed λ's, paired).
    """
    if set(tuning_seeds) & set(held_out):
        raise ValueError("tuning and held-out seeds overlap")
    opts = {**OPTIONS, **dict(options or {})}
    t0 = time.perf_counter()
    cells = [(a, r) for a in agents for r in regimens]
    tasks = [
        (a, sched, dict(s), r, int(seed), opts)
        for a, r in cells
        for sched, settings in GRID.items()
        for s in settings
        for seed in tuning_seeds
    ]
    runs = iter(run_tasks(run_setting, tasks, jobs=jobs))
    doc: dict[str, Any] = {
        "format": FORMAT,
        "version": 1,
        "objective": "mean auc (exact draw rate against the perfect player over the run)",
        "grid": GRID,
        "tuning_seeds": list(tuning_seeds),
        "held_out": list(held_out),
        "options": opts,
        "cells": {},
    }
    for a, r in cells:
        cell: dict[str, Any] = {}
        for sched, settings in GRID.items():
            tuning = []
            for s in settings:
                values = [next(runs)["auc"] for _ in tuning_seeds]
                tuning.append({"setting": dict(s), "auc": float(np.mean(values))})
            best = max(tuning, key=lambda t: t["auc"])
            cell[sched] = {
                "tuning": tuning,
                "best": best["setting"],
                "tuning_auc": best["auc"],
                "at_edge": _edges(sched, best["setting"]),
            }
        doc["cells"][f"{a}/{r}"] = cell
    held = [
        (a, sched, dict(doc["cells"][f"{a}/{r}"][sched]["best"]), r, int(seed), opts)
        for a, r in cells
        for sched in GRID
        for seed in held_out
    ]
    out = iter(run_tasks(run_setting, held, jobs=jobs))
    for a, r in cells:
        cell = doc["cells"][f"{a}/{r}"]
        for sched in GRID:
            recs = [next(out) for _ in held_out]
            cell[sched]["held_out"] = {
                "auc_per_seed": [x["auc"] for x in recs],
                "auc": mean_ci([x["auc"] for x in recs]),
                "final_draw": mean_ci([x["final_draw"] for x in recs]),
                "games_to_90": mean_ci([x["games_to_90"] for x in recs]),
                "reached_90": int(sum(x["reached_90"] for x in recs)),
            }
        fixed = cell["fixed"]["held_out"]["auc_per_seed"]
        for sched in GRID:
            if sched != "fixed":
                mine = cell[sched]["held_out"]["auc_per_seed"]
                cell[sched]["vs_fixed"] = paired_ci(mine, fixed)
    doc["seconds"] = time.perf_counter() - t0
    if command is not None:
        doc["command"] = command
    return doc


def main(argv: Sequence[str] | None = None) -> int:
    """``python -m menace_lib.book.beyond.lambda_tuning --json PATH [--jobs N]``."""
    p = argparse.ArgumentParser(prog="python -m menace_lib.book.beyond.lambda_tuning")
    p.add_argument("--json", required=True, help="where to write the document")
    p.add_argument("--jobs", type=int, default=1, help="joblib processes (default 1)")
    args = p.parse_args(argv)
    command = "python -m menace_lib.book.beyond.lambda_tuning " + " ".join(
        sys.argv[1:] if argv is None else argv
    )
    doc = tune_and_compare(jobs=args.jobs, command=command)
    write_json(args.json, doc, option="--json")
    return 0


if __name__ == "__main__":  # pragma: no cover
    raise SystemExit(main())
