"""Tuning MENACE's initial beads with ``scipy.optimize`` (thesis §11.6.1).

The objective is sample efficiency measured exactly: the mean, over a set of
*tuning* seeds, of a run's area under its exact learning curve against the perfect
player (its mean exact draw rate over ``games`` training games; see
:func:`menace_lib.book.beyond.priors.run_schedule`). Every run of a seed uses the same
random stream whatever the schedule, so the objective is a deterministic function
of the schedule -- but a rugged, piecewise-constant one (a bead draw flips from one
colour to another as the counts move), so it has no useful gradient. The search is
Nelder--Mead on log2 bead counts, bounded to [1/8, 32] beads per colour. Nelder--Mead
is a local search and the objective has many local optima, so it starts from the
best of several schedules: it first evaluates every named schedule of the sweep
(Michie's, the flat ones, the web MENACE's and the two computed from the game
tables) and the two flat schedules at the bounds (1/8 and 32 beads everywhere), then
searches from the best, with a first simplex that halves one entry at a time (or
doubles it, at the lower bound).

The tuning seeds (by default 1000-1029) are disjoint from the seeds the sweep
reports (0, 1, ...), so the sweep measures the tuned schedule on runs it was not
fitted to; the objective's value on its own seeds is an optimistic estimate.

:func:`tune_schedules` returns (and ``python -m menace_lib tune-priors --json``
writes) a JSON document: the objective, the tuning seeds and protocol, and per
regimen the best schedule, its objective value and every evaluation. The copy in
``menace_lib/data/priors_tuned.json`` is what the priors sweep uses.
"""

from __future__ import annotations

import time
from collections.abc import Mapping, Sequence
from typing import Any

import numpy as np

from ...base.files import write_json
from ...base.parallel import run_tasks
from ...experiments.sweep import seed_list
from .priors import (
    BASELINE,
    FIXED_SCHEDULES,
    OPTIONS,
    REGIMENS,
    SCHEDULES,
    run_schedule,
    schedule_for,
)

__all__ = [
    "BOUNDS",
    "FORMAT",
    "at_bounds",
    "bound_verdict",
    "OBJECTIVE",
    "TUNING_SEEDS",
    "objective",
    "protocol_options",
    "tune_schedule",
    "tune_schedules",
    "write_tuning",
]

FORMAT = "menace_lib.priors_tuning"
OBJECTIVE = (
    "mean over the tuning seeds of the area under the exact learning curve: the mean "
    "exact draw rate against the perfect player over games [0, games]"
)
TUNING_SEEDS = tuple(range(1000, 1030))
"""Seeds the schedules are tuned on: disjoint from the sweep's reported seeds 0..N-1."""

BOUNDS = (0.125, 32.0)
"""Beads per colour the search may use (it works on their base-2 logarithms)."""

PROTOCOL_KEYS = ("games", "every", "threshold", "tie_break", "restock")


def protocol_options(options: Mapping[str, Any] | None = None) -> dict[str, Any]:
    """The sweep's run protocol (:data:`~menace_lib.book.beyond.priors.OPTIONS`), overridden.

    Raises
    ------
    ValueError
        Naming an option that is not part of the protocol.
    """
    options = dict(options or {})
    unknown = sorted(set(options) - set(PROTOCOL_KEYS))
    if unknown:
        raise ValueError(f"unknown tuning option(s) {unknown}; choose from {PROTOCOL_KEYS}")
    return {k: options.get(k, OPTIONS[k]) for k in PROTOCOL_KEYS}


def objective(
    schedule: Sequence[float],
    regimen: str,
    seeds: Sequence[int],
    options: Mapping[str, Any],
    *,
    scheduler: str | None = None,
    jobs: int = 1,
    backend: str | None = None,
) -> float:
    """Mean area under the exact learning curve over ``seeds`` (higher is better).

    Each seed's run is :func:`~menace_lib.book.beyond.priors.run_schedule`, the same
    code the sweep runs; the engine (``scheduler``, ``jobs``, ``backend``) cannot
    change the value.
    """
    tasks = [(tuple(schedule), regimen, int(s), dict(options)) for s in seeds]
    desc = f"{regimen} " + "-".join(f"{b:g}" for b in schedule)
    runs = run_tasks(
        run_schedule, tasks, scheduler=scheduler, jobs=jobs, backend=backend, desc=desc
    )
    return float(np.mean([r["area"] for r in runs]))


def tune_schedule(
    regimen: str,
    seeds: Sequence[int] = TUNING_SEEDS,
    options: Mapping[str, Any] | None = None,
    *,
    max_evaluations: int = 40,
    starts: Sequence[Sequence[float]] | None = None,
    scheduler: str | None = None,
    jobs: int = 1,
    backend: str | None = None,
) -> dict[str, Any]:
    """Search for the bead schedule with the best :func:`objective` in ``regimen``.

    Parameters
    ----------
    regimen
        ``"mixed"`` or ``"perfect"`` (:data:`~menace_lib.book.beyond.priors.REGIMENS`).
    seeds
        The tuning seeds.
    options
        Overrides of the run protocol (:func:`protocol_options`).
    max_evaluations
        The search's budget: schedules Nelder--Mead evaluates, each on every seed
        (the starting candidates come on top).
    starts
        Candidate starting schedules, all evaluated first (default: every named
        schedule of the sweep but the tuned one, and flat schedules at both
        bounds). A schedule shorter than four entries repeats its last one.
    scheduler, jobs, backend
        Where the runs of one evaluation go (:func:`menace_lib.base.parallel.run_tasks`).

    Returns
    -------
    dict
        ``schedule`` (the best found, rounded to 3 decimals: the stored schedule is
        the one the value belongs to), ``value`` (its objective), ``start`` (the
        best candidate, where the search began) and ``start_value``,
        ``at_bound`` (entries at a bound of the search, :func:`at_bounds`) and
        ``verdict`` (:func:`bound_verdict`: a schedule at a bound is no optimum),
        ``baseline_value`` (Michie's 4-3-2-1 on the same seeds), ``evaluations``
        (every schedule tried with its value, candidates first), ``message`` and
        ``seconds``.
    """
    if regimen not in REGIMENS:
        raise ValueError(f"unknown regimen {regimen!r}; choose one of {tuple(REGIMENS)}")
    if isinstance(max_evaluations, bool) or not 2 <= int(max_evaluations) <= 10_000:
        raise ValueError(f"max_evaluations must be 2 to 10,000, got {max_evaluations!r}")
    seeds = seed_list(list(seeds))
    opts = protocol_options(options)
    moves = 4  # MENACE's boxes (X, any filter with choices) sit at its moves 1-4
    lo, hi = np.log2(BOUNDS)
    evaluations: list[dict[str, Any]] = []

    def schedule_of(x: np.ndarray) -> tuple[float, ...]:
        # Rounded so that the stored schedule reproduces its value exactly.
        return tuple(round(float(b), 3) for b in np.exp2(np.clip(x, lo, hi)))

    def loss(x: np.ndarray) -> float:
        schedule = schedule_of(x)
        value = objective(
            schedule, regimen, seeds, opts, scheduler=scheduler, jobs=jobs, backend=backend
        )
        evaluations.append({"schedule": list(schedule), "value": value})
        return -value

    t0 = time.perf_counter()
    if starts is None:
        starts = [schedule_for(n, regimen, opts) for n in SCHEDULES if n != "tuned"]
        starts += [(BOUNDS[0],), (BOUNDS[1],)]
    candidates = [np.log2([s[min(k, len(s) - 1)] for k in range(moves)]) for s in starts]
    if not candidates:
        raise ValueError("starts must list at least one schedule")
    values = [-loss(x) for x in candidates]
    x0 = candidates[int(np.argmax(values))]
    # Halve one entry at a time, or double it where halving would leave the bounds.
    steps = np.where(x0 - 1 < lo, 1.0, -1.0)
    simplex = np.vstack([x0, x0 + np.diag(steps)])
    from scipy.optimize import minimize  # 0.4 s to import: not for `tune-priors --help`

    result = minimize(
        loss,
        x0,
        method="Nelder-Mead",
        bounds=[(lo, hi)] * moves,
        options={
            "maxfev": int(max_evaluations),
            "initial_simplex": simplex,
            "xatol": 0.05,
            "fatol": 1e-4,
        },
    )
    best = max(evaluations, key=lambda e: e["value"])
    michie = list(schedule_of(np.log2(FIXED_SCHEDULES[BASELINE])))
    edges = at_bounds(best["schedule"])
    return {
        "schedule": best["schedule"],
        "value": best["value"],
        "at_bound": edges,
        "verdict": bound_verdict(edges),
        "start": list(schedule_of(x0)),
        "start_value": max(values),
        "baseline_value": next((e["value"] for e in evaluations if e["schedule"] == michie), None),
        "evaluations": evaluations,
        "message": str(result.message),
        "seconds": time.perf_counter() - t0,
    }


def at_bounds(schedule: Sequence[float], bounds: Sequence[float] = BOUNDS) -> list[str]:
    """Which entries of a tuned schedule lie at a bound of the search (within 1 %).

    Returns one text per such entry, e.g. ``"move 1 at the lower bound 0.125"``.
    """
    lo, hi = bounds
    out = []
    for k, b in enumerate(schedule):
        if b <= lo * 1.01:
            out.append(f"move {k + 1} at the lower bound {lo:g}")
        elif b >= hi * 0.99:
            out.append(f"move {k + 1} at the upper bound {hi:g}")
    return out


def bound_verdict(edges: Sequence[str]) -> str:
    """What a tuning result may claim: an optimum only when no entry lies at a bound."""
    if not edges:
        return "an interior optimum of the searched range"
    return (
        "no optimum: the best schedule lies at the edge of the searched range ("
        + "; ".join(edges)
        + "), so the search found a direction, not an optimum; see the priors-curve sweep"
    )


def tune_schedules(
    regimens: Sequence[str] = tuple(REGIMENS),
    seeds: Sequence[int] = TUNING_SEEDS,
    options: Mapping[str, Any] | None = None,
    *,
    max_evaluations: int = 40,
    scheduler: str | None = None,
    jobs: int = 1,
    backend: str | None = None,
    command: str | None = None,
) -> dict[str, Any]:
    """:func:`tune_schedule` for each regimen, as one JSON-ready document."""
    seeds = seed_list(list(seeds))
    opts = protocol_options(options)
    doc: dict[str, Any] = {
        "format": FORMAT,
        "version": 1,
        "objective": OBJECTIVE,
        "tuning_seeds": seeds,
        **opts,
        "method": (
            f"scipy.optimize.minimize(method='Nelder-Mead') on log2 beads per colour for "
            f"MENACE's moves 1-4, bounded to [{BOUNDS[0]:g}, {BOUNDS[1]:g}] beads, "
            "from the best of the sweep's named schedules and flat schedules at both bounds"
        ),
        "max_evaluations": int(max_evaluations),
        "regimens": {},
    }
    for regimen in regimens:
        doc["regimens"][regimen] = tune_schedule(
            regimen,
            seeds,
            opts,
            max_evaluations=max_evaluations,
            scheduler=scheduler,
            jobs=jobs,
            backend=backend,
        )
    if command is not None:
        doc["command"] = command
    return doc


def write_tuning(doc: Mapping[str, Any], path: str, *, option: str | None = None) -> None:
    """Write a :func:`tune_schedules` document as JSON, all or nothing."""
    write_json(path, dict(doc), option=option)
