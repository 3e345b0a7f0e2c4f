"""How many initial beads? The speed-against-robustness curve (thesis §11.6.1).

The priors sweep (:mod:`.priors`) compares a handful of named schedules. This sweep
asks the question underneath: what happens as the number of initial beads per
colour moves along a log scale, from far below one bead (``2**-12``) to many
(``2**4`` = 16)? Every box gets the same count (a *flat* schedule), so the one
axis is the strength of the prior; Michie's 4-3-2-1 is run alongside as the
reference every level is paired with.

Each run trains a fresh MENACE through a regimen exactly as the priors sweep does
(:func:`menace_lib.book.beyond.priors.run_schedule`: same games, marks, threshold and
random stream, so a level's records are comparable with the priors cache) and then
measures its robustness exactly, against opponents it was not trained on:

``final_draw_uniform``  the perfect player that breaks its ties at random;
``final_noloss_random`` not losing (win or draw) against the random player;
``final_noloss_defensive`` not losing against the defensive player;

and ``boxes_visited``: how many of its boxes the machine ever opened in training
(replayed from the log), which says how much of the game it has seen.

Speed is ``games_to_threshold`` and ``area`` (the mean exact draw rate against
the perfect player over the run). The answer is a curve, read in
:func:`curve_rows`: no point of it is "the optimum", and where a summary picks the
best level it says whether that level is at the edge of the searched range
(:func:`best_level`).
"""

from __future__ import annotations

from typing import Any

from ...base.confidence import mean_ci, paired_ci
from ...experiments.sweep import Sweep, SweepResult, summarise
from ...play.evaluation import exact_outcome
from ...play.opponents import make_opponent
from .priors import FIXED_SCHEDULES, OPTIONS, REGIMENS, run_schedule

__all__ = [
    "BASELINE",
    "EXPONENTS",
    "METRICS",
    "SWEEP",
    "beads_of",
    "best_level",
    "condition_key",
    "curve_rows",
    "level_key",
    "merge",
    "parse_condition",
    "run_one",
]

EXPONENTS = (-12, -8, -6, -4, -3, -2, 0, 2, 4)
"""Beads per colour on the curve: ``2**e`` for each ``e`` (1/4096 to 16, a factor 4 apart
from 1/64 up)."""

BASELINE = "4-3-2-1"
"""Michie's schedule, run on the same seeds as every level (the paired reference)."""

METRICS = (
    "games_to_threshold",
    "reached",
    "area",
    "final_draw",
    "final_draw_uniform",
    "final_noloss_random",
    "final_noloss_defensive",
    "boxes_visited",
    "emptied",
)
"""Record fields summarised per condition."""


def level_key(exponent: int) -> str:
    """``"2^-4"``: the level with ``2**exponent`` beads per colour."""
    return f"2^{exponent}"


def condition_key(regimen: str, level: str) -> str:
    """``"<regimen>/<level>"``, e.g. ``"perfect/2^-4"`` or ``"mixed/4-3-2-1"``."""
    return f"{regimen}/{level}"


LEVELS = (*(level_key(e) for e in EXPONENTS), BASELINE)
CONDITIONS = tuple(condition_key(r, lv) for r in REGIMENS for lv in LEVELS)
PUBLISHED = tuple(condition_key("perfect", lv) for lv in LEVELS)
"""The conditions the book's cache holds: every level against the perfect player from the
first game (the regimen where a machine can reach 90 % within 500 games); the mixed
curriculum's conditions can be run by name."""


def parse_condition(condition: str) -> tuple[str, str]:
    """(regimen, level) of a condition key.

    Raises
    ------
    ValueError
        Naming the key if it is not one of the sweep's conditions.
    """
    if condition not in CONDITIONS:
        raise ValueError(f"unknown priors-curve condition {condition!r}; e.g. {CONDITIONS[0]!r}")
    regimen, level = condition.split("/", 1)
    return regimen, level


def beads_of(level: str) -> tuple[float, ...]:
    """The schedule of a level: ``(2**e,)`` for ``"2^e"``, or Michie's 4-3-2-1."""
    if level == BASELINE:
        return tuple(float(b) for b in FIXED_SCHEDULES[BASELINE])
    return (2.0 ** int(level.removeprefix("2^")),)


def run_one(condition: str, seed: int, options: dict[str, Any]) -> dict[str, Any]:
    """One (condition, seed) run: the priors sweep's run, then robustness measured exactly."""
    regimen, level = parse_condition(condition)
    schedule = beads_of(level)
    record = run_schedule(schedule, regimen, seed, options, keep_agent=True)
    agent, log = record.pop("agent"), record.pop("log")
    record.pop("curve")
    return {
        "beads": schedule[0] if level != BASELINE else None,
        **record,
        "final_noloss_random": 1.0 - exact_outcome(agent, make_opponent("random"))["loss"],
        "final_noloss_defensive": 1.0 - exact_outcome(agent, make_opponent("defensive"))["loss"],
        "boxes_visited": len({b for path in log.paths for b, _ in path}),
    }


_OPTIONS = {
    **{k: OPTIONS[k] for k in ("games", "threshold", "tie_break", "restock")},
    "every": 10,
}
"""The priors sweep's protocol (500 games, 90 %, lowest-square ties, box restock), with an
exact evaluation every 10 games instead of 5: a hundred seeds per level fit a shared
machine's budget, and games to 90 % are resolved to 10 games."""

SWEEP = Sweep(
    name="priors-curve",
    conditions=PUBLISHED,
    run_one=run_one,
    metrics=METRICS,
    baseline=None,  # paired with Michie's schedule per regimen: see curve_rows
    options=_OPTIONS,
    question=(
        "How do speed and robustness change with the number of initial beads per colour, "
        "from 1/4096 to 16? (thesis §11.6.1)"
    ),
)


def merge(parts: list[SweepResult], command: str | None = None) -> SweepResult:
    """One result from runs of disjoint condition subsets on the same seeds and options
    (each run seeds itself from its seed alone, so the parts are the whole sweep's records)."""
    first = parts[0].config
    for p in parts[1:]:
        if p.config["seeds"] != first["seeds"] or p.config["options"] != first["options"]:
            raise ValueError("parts differ in seeds or options")
    records = [r for p in parts for r in p.records]
    conditions = [c for c in SWEEP.conditions if any(c in p.config["conditions"] for p in parts)]
    records.sort(key=lambda r: (conditions.index(r["condition"]), r["seed"]))
    summary, paired = summarise(records, conditions, SWEEP.metrics, SWEEP.baseline)
    config = {**first, "conditions": conditions}
    if command is not None:
        config["command"] = command
    return SweepResult(SWEEP.name, records, summary, paired, config, sum(p.seconds for p in parts))


def _values(result: SweepResult, condition: str, metric: str) -> dict[int, Any]:
    return {r["seed"]: r[metric] for r in result.records if r["condition"] == condition}


def paired_with_baseline(result: SweepResult, condition: str, metric: str) -> dict[str, Any]:
    """``metric`` of ``condition`` minus Michie's schedule in the same regimen, seed by seed."""
    regimen, _ = parse_condition(condition)
    mine = _values(result, condition, metric)
    base = _values(result, condition_key(regimen, BASELINE), metric)
    seeds = sorted(s for s in set(mine) & set(base) if mine[s] is not None and base[s] is not None)
    return paired_ci([mine[s] for s in seeds], [base[s] for s in seeds])


def curve_rows(result: SweepResult, regimen: str) -> list[dict[str, Any]]:
    """One row per level of ``regimen`` (Michie's last): each metric's mean and 95%
    interval over seeds (:func:`~menace_lib.base.confidence.mean_ci`), and the paired
    differences from Michie's schedule in area and in draws against the perfect
    player with random tie-breaks."""
    rows = []
    for cond in result.config["conditions"]:
        reg, level = parse_condition(cond)
        if reg != regimen:
            continue
        row: dict[str, Any] = {"level": level, "beads": beads_of(level)}
        for metric in METRICS:
            row[metric] = mean_ci(list(_values(result, cond, metric).values()))
        if level != BASELINE:
            row["d_area"] = paired_with_baseline(result, cond, "area")
            row["d_uniform"] = paired_with_baseline(result, cond, "final_draw_uniform")
        rows.append(row)
    return rows


def best_level(rows: list[dict[str, Any]], metric: str, *, larger: bool = True) -> dict[str, Any]:
    """The level with the best mean ``metric`` on the curve, and whether it is at an edge.

    Returns ``level``, ``mean`` and ``at_edge`` (True when the best level is the
    smallest or the largest bead count searched: then the curve has no interior
    optimum, only a direction, and must be reported so).
    """
    levels = [r for r in rows if r["level"] != BASELINE and r[metric]["mean"] is not None]
    if not levels:
        raise ValueError(f"no levels with a value of {metric!r}")
    sign = 1.0 if larger else -1.0
    best = max(levels, key=lambda r: sign * r[metric]["mean"])
    edge = best is levels[0] or best is levels[-1]
    return {"level": best["level"], "mean": best[metric]["mean"], "at_edge": edge}
