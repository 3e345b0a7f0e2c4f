"""Running a suite: seeds × conditions in parallel with joblib.

:func:`run_suite` sends one task per (training run, seed) through
:class:`joblib.Parallel`. Rows whose training runs coincide (the Michie/box
MENACE appears in Tables 9.1, 9.3 and 9.4) share their runs. Each task seeds
itself from its seed alone, so results do not depend on the worker, the
backend or the order tasks finish in: serial, process-parallel and Dask runs
give identical numbers (:func:`menace_lib.base.parallel.run_tasks` chooses the engine;
``scheduler="local:2"`` or a Dask address runs on a cluster).

Within a process, results are cached by (conditions, seeds, protocol), so
notebooks and figure functions can ask for the same suite repeatedly.
"""

from __future__ import annotations

import copy
import time
from collections.abc import Sequence

from .. import __version__
from ..agents.registry import get_kind
from ..base.limits import MAX_SEED, MAX_SEEDS, MAX_SUITE_GAMES, check_count
from ..base.parallel import run_tasks
from .protocol import Protocol, run_seed
from .results import SuiteResult, aggregate
from .suite import Condition


def _seeds(seeds: int | Sequence[int]) -> tuple[int, ...]:
    if isinstance(seeds, bool):
        raise ValueError("seeds must be a count or a list of integers")
    if isinstance(seeds, int):
        return tuple(range(check_count("seeds", seeds, MAX_SEEDS, minimum=1)))
    out = tuple(check_count("seed", s, MAX_SEED) for s in seeds)
    if not 1 <= len(out) <= MAX_SEEDS or len(set(out)) != len(out):
        raise ValueError(f"seeds must be 1 to {MAX_SEEDS:,} distinct integers ≥ 0")
    return out


def total_games(conditions: Sequence[Condition], seeds: int) -> int:
    """Training games of a run: every condition's games, once per seed.

    Raises
    ------
    ValueError
        If the total is over :data:`~menace_lib.base.limits.MAX_SUITE_GAMES`.
    """
    total = sum(c.games for c in conditions) * seeds
    if total > MAX_SUITE_GAMES:
        raise ValueError(
            f"{len(conditions)} conditions × {seeds:,} seeds would train {total:,} games; "
            f"the limit is {MAX_SUITE_GAMES:,} per run"
        )
    return total


def run_suite(
    conditions: Sequence[Condition],
    seeds: int | Sequence[int] = 10,
    protocol: Protocol | None = None,
    *,
    n_jobs: int = -1,
    backend: str | None = None,
    scheduler: str | None = None,
    progress: bool | None = None,
    cache: bool = True,
) -> SuiteResult:
    """Run every condition with every seed and aggregate.

    Parameters
    ----------
    conditions
        The rows to run (e.g. :data:`~menace_lib.experiments.suite.THESIS_SUITE`).
    seeds
        A count ``n`` (seeds ``0 .. n-1``, as in the thesis) or explicit seeds.
    protocol
        Validation and diagnostic settings (default :class:`Protocol`).
    n_jobs, backend, scheduler
        Where the runs go (:func:`menace_lib.base.parallel.run_tasks`): joblib's
        ``n_jobs`` and backend (``"loky"`` or ``"sequential"``), or a Dask
        ``scheduler`` (``"local:N"`` or an address). They cannot change the numbers.
    progress
        A tqdm bar on stderr.
    cache
        Reuse an earlier identical call's result within this process.
    """
    conditions = tuple(conditions)
    if not conditions:
        raise ValueError("no conditions to run")
    keys = [c.key for c in conditions]
    if len(set(keys)) != len(keys):
        raise ValueError("condition keys must be unique")
    seed_tuple = _seeds(seeds)
    total_games(conditions, len(seed_tuple))
    protocol = protocol or Protocol()
    # n_jobs, backend, scheduler and progress cannot change the numbers, so they are not in the key.
    key = (conditions, seed_tuple, protocol)
    if cache and key in _CACHE:
        return copy.deepcopy(_CACHE[key])
    result = _run(conditions, seed_tuple, protocol, (n_jobs, backend, scheduler), progress)
    if cache:
        if len(_CACHE) >= _CACHE_SIZE:
            _CACHE.pop(next(iter(_CACHE)))
        _CACHE[key] = copy.deepcopy(result)
    return result


_CACHE: dict[tuple, SuiteResult] = {}
_CACHE_SIZE = 16


def clear_cache() -> None:
    """Forget every cached suite result of this process."""
    _CACHE.clear()


def _run(conditions, seeds, protocol, engine, progress) -> SuiteResult:
    t0 = time.perf_counter()
    n_jobs, backend, scheduler = engine
    runs: dict[tuple, Condition] = {}
    for c in conditions:
        runs.setdefault(c.run_key(), c)
    tasks = [(rk, c, s) for rk, c in runs.items() for s in seeds]
    order = sorted(
        range(len(tasks)), key=lambda i: -tasks[i][1].games * get_kind(tasks[i][1].agent).cost
    )
    outputs = run_tasks(
        run_seed,
        [(tasks[i][1], tasks[i][2], protocol) for i in order],
        scheduler=scheduler,
        jobs=n_jobs,
        backend=backend,
        progress=progress,
        desc="experiments",
    )
    done = dict(zip(order, outputs, strict=True))
    by_run = {(tasks[i][0], tasks[i][2]): done[i] for i in range(len(tasks))}
    records = []
    for c in conditions:
        for s in seeds:
            rec = copy.deepcopy(by_run[(c.run_key(), s)])
            rec.update(
                key=c.key,
                table=c.table,
                agent=c.label,
                condition=c.condition,
                config={**rec["config"], "condition": c.to_dict()},
            )
            records.append(rec)
    config = {
        "library": "menace_lib",
        "version": __version__,
        "seeds": list(seeds),
        "protocol": protocol.to_dict(),
        "conditions": [c.to_dict() for c in conditions],
    }
    return SuiteResult(
        rows=aggregate(records, conditions),
        records=records,
        config=config,
        seconds=time.perf_counter() - t0,
    )
