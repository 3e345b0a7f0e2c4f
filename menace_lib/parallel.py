"""Where a sweep's tasks run: in this process, on local worker processes, or on a Dask cluster.

:func:`run_tasks` is the one place that chooses an engine. A task is a module-level
function and its arguments; every task seeds itself from its own arguments, so the
numbers do not depend on the engine, the number of workers or the order tasks
finish in. The engines:

``scheduler=None``
    joblib on this machine: ``backend="loky"`` (worker processes, the default) or
    ``"sequential"`` (this process, one task after another).
``scheduler="local:N"``
    A :class:`dask.distributed.LocalCluster` of ``N`` single-threaded worker
    processes, started for the call and shut down after it.
``scheduler="tcp://HOST:PORT"`` (any other text)
    A running Dask cluster, reached with ``dask.distributed.Client(address)``.

A script that starts a ``LocalCluster`` must guard its entry point with
``if __name__ == "__main__":``, because the workers re-import the main module.
"""

from __future__ import annotations

import re
import sys
from collections.abc import Callable, Iterator, Sequence
from contextlib import contextmanager
from typing import Any

from .limits import MAX_JOBS

__all__ = [
    "BACKENDS",
    "check_scheduler",
    "dask_client",
    "held_scheduler",
    "run_tasks",
    "stop_workers",
]

BACKENDS = ("loky", "sequential")
"""joblib backends a sweep may use on this machine."""

_LOCAL = re.compile(r"local:(\d{1,4})")


def check_scheduler(scheduler: str) -> str:
    """Return ``scheduler`` if it is ``local:N`` (1 ≤ N ≤ MAX_JOBS) or a cluster address.

    Raises
    ------
    ValueError
        Naming the bad value: an empty text, ``local:`` with a bad count, or an
        address with spaces or control characters.
    """
    if not isinstance(scheduler, str) or not scheduler.strip():
        raise ValueError(f"scheduler must be 'local:N' or a Dask address, got {scheduler!r}")
    if scheduler.startswith("local:"):
        match = _LOCAL.fullmatch(scheduler)
        if match is None or not 1 <= int(match.group(1)) <= MAX_JOBS:
            raise ValueError(
                f"scheduler 'local:N' needs N from 1 to {MAX_JOBS} workers, got {scheduler!r}"
            )
        return scheduler
    if any(c.isspace() or not c.isprintable() for c in scheduler) or len(scheduler) > 300:
        raise ValueError(f"not a Dask scheduler address: {scheduler!r}")
    return scheduler


@contextmanager
def dask_client(scheduler: str) -> Iterator[Any]:
    """A ``dask.distributed.Client`` for ``local:N`` (a fresh LocalCluster) or an address.

    Raises :class:`menace_lib.extras.MissingExtraError` without the ``[dask]`` extra.
    """
    from .extras import require

    require("dask", "a Dask scheduler")
    from dask.distributed import Client, LocalCluster

    scheduler = check_scheduler(scheduler)
    match = _LOCAL.fullmatch(scheduler)
    if match is None:
        with Client(scheduler) as client:
            yield client
        return
    workers = int(match.group(1))
    with (
        LocalCluster(
            n_workers=workers, threads_per_worker=1, processes=True, dashboard_address=None
        ) as cluster,
        Client(cluster) as client,
    ):
        yield client


@contextmanager
def held_scheduler(scheduler: str | None) -> Iterator[str | None]:
    """A scheduler that stays up for a whole ``with`` block.

    For ``local:N`` this starts one LocalCluster and yields its address, so many
    :func:`run_tasks` calls (an optimiser's evaluations, say) share it instead of
    each starting its own; an address or ``None`` is yielded as it is.
    """
    if scheduler is None or _LOCAL.fullmatch(scheduler) is None:
        yield scheduler
        return
    with dask_client(scheduler) as client:
        yield client.scheduler.address


def run_tasks(
    fn: Callable[..., Any],
    tasks: Sequence[tuple],
    *,
    scheduler: str | None = None,
    jobs: int = -1,
    backend: str | None = None,
    progress: bool | None = None,
    desc: str = "tasks",
) -> list[Any]:
    """``[fn(*task) for task in tasks]``, computed on the chosen engine, in task order.

    Parameters
    ----------
    fn
        A module-level function (it is sent to worker processes by reference).
    tasks
        Argument tuples, one per task.
    scheduler
        ``None`` (joblib on this machine), ``"local:N"`` or a Dask address.
    jobs
        joblib's ``n_jobs`` when ``scheduler`` is ``None``.
    backend
        ``"loky"`` or ``"sequential"``, only without a scheduler; ``None`` is
        joblib's default (loky, or an enclosing ``joblib.parallel_backend``).
    progress
        A tqdm bar on stderr; ``None`` follows :func:`menace_lib.progress.showing`
        (on for a command line run at a terminal, off otherwise).
    desc
        The bar's label.

    Examples
    --------
    >>> import math
    >>> import menace_lib as ml
    >>> ml.run_tasks(math.pow, [(2, 3), (3, 2)], backend="sequential")
    [8.0, 9.0]
    """
    tasks = [tuple(t) for t in tasks]
    if backend is not None and backend not in BACKENDS:
        raise ValueError(f"unknown backend {backend!r}; choose one of {BACKENDS}")
    if scheduler is not None and backend is not None:
        raise ValueError("choose a joblib backend or a Dask scheduler, not both")
    from .progress import enabled

    bar = _bar(len(tasks), desc) if enabled(progress) else None
    try:
        if scheduler is not None:
            return _on_dask(fn, tasks, scheduler, bar)
        return _on_joblib(fn, tasks, jobs, backend, bar)
    finally:
        if bar is not None:
            bar.close()


def _bar(total: int, desc: str):
    from tqdm.auto import tqdm

    return tqdm(total=total, desc=desc, unit="run", file=sys.stderr)


def _on_joblib(fn, tasks, jobs, backend, bar) -> list[Any]:
    from joblib import Parallel, delayed

    if backend == "sequential":
        jobs = 1
    parallel = Parallel(n_jobs=jobs, backend=backend, return_as="generator")
    results = []
    for result in parallel(delayed(fn)(*t) for t in tasks):
        results.append(result)
        if bar is not None:
            bar.update(1)
    return results


def _on_dask(fn, tasks, scheduler, bar) -> list[Any]:
    from dask.distributed import as_completed

    with dask_client(scheduler) as client:
        # pure=False: identical arguments are still separate tasks (a sweep never
        # repeats a task, but a user-supplied list might).
        futures = [client.submit(fn, *t, pure=False) for t in tasks]
        index = {f.key: i for i, f in enumerate(futures)}
        results: list[Any] = [None] * len(tasks)
        for future in as_completed(futures):
            results[index[future.key]] = future.result()
            if bar is not None:
                bar.update(1)
        return results


def stop_workers() -> None:
    """End this process's joblib (loky) worker processes now, without waiting.

    The command line calls it on Ctrl-C or SIGTERM, so no worker outlives the command
    (loky keeps idle workers for minutes otherwise). A Dask ``LocalCluster`` started
    by :func:`dask_client` closes with its ``with`` block.
    """
    if "joblib.externals.loky" not in sys.modules:
        return  # no worker was ever started
    from joblib.externals.loky import reusable_executor

    executor = getattr(reusable_executor, "_executor", None)
    if executor is not None:
        executor.shutdown(wait=False, kill_workers=True)
