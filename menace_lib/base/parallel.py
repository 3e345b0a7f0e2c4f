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
``scheduler="tcp://HOST:PORT"``
    A running Dask cluster, reached with ``dask.distributed.Client(address)`` after
    :func:`probe_scheduler` has checked, within :data:`CONNECT_SECONDS`, that a
    Dask scheduler answers there (a refused port, a silent server or a web server
    fails at once with one line). Other transports (``tls://``, ``ucx://``) are
    refused.

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
    "CONNECT_SECONDS",
    "SchedulerError",
    "check_scheduler",
    "dask_client",
    "held_scheduler",
    "probe_scheduler",
    "run_tasks",
    "stop_workers",
]

BACKENDS = ("loky", "sequential")
"""joblib backends a sweep may use on this machine."""

CONNECT_SECONDS = 5.0
"""How long a cluster address may take to connect and greet as a Dask scheduler."""

_LOCAL = re.compile(r"local:(\d{1,4})")
_TCP = re.compile(r"tcp://(?:\[(?P<ipv6>[0-9A-Fa-f:.]+)\]|(?P<host>[^:/\[\]]+)):(?P<port>\d{1,5})")
_LABEL = re.compile(r"(?!-)[A-Za-z0-9-]{1,63}(?<!-)")
_MAX_GREETING = 1 << 16  # a Dask handshake is about a hundred bytes


class SchedulerError(ValueError):
    """A scheduler address that is malformed, unreachable, or not a Dask scheduler."""


def check_scheduler(scheduler: str) -> str:
    """Return ``scheduler`` if it is ``local:N`` (1 ≤ N ≤ MAX_JOBS) or ``tcp://HOST:PORT``.

    Only the syntax is checked (nothing is contacted): ``HOST`` is a host name, an
    IPv4 address (four numbers 0-255) or an IPv6 address in brackets, and ``PORT``
    is 1-65535. Other Dask transports (``tls://``, ``ucx://``, ``ws://``,
    ``inproc://``) are refused: the library runs only on plain TCP clusters.

    Raises
    ------
    SchedulerError
        A ValueError naming the bad value and what is allowed.
    """
    if not isinstance(scheduler, str) or not scheduler.strip():
        raise SchedulerError(
            f"scheduler must be 'local:N' or 'tcp://HOST:PORT', got {_show(scheduler)}"
        )
    if scheduler.startswith("local:"):
        match = _LOCAL.fullmatch(scheduler)
        if match is None or not 1 <= int(match.group(1)) <= MAX_JOBS:
            raise SchedulerError(
                f"scheduler 'local:N' needs N from 1 to {MAX_JOBS} workers, got {_show(scheduler)}"
            )
        return scheduler
    match = _TCP.fullmatch(scheduler) if len(scheduler) <= 300 else None
    if match is None:
        scheme = scheduler.partition("://")[0] if "://" in scheduler else None
        why = (
            f"the {_show(scheme)} transport is not supported"
            if scheme is not None and scheme != "tcp"
            else "expected 'local:N' or 'tcp://HOST:PORT'"
        )
        raise SchedulerError(f"scheduler {_show(scheduler)}: {why} (e.g. tcp://10.0.0.5:8786)")
    port = int(match.group("port"))
    if not 1 <= port <= 65535:
        raise SchedulerError(f"scheduler {_show(scheduler)}: port must be 1 to 65535, got {port}")
    host = match.group("host")
    if host is not None and not _good_host(host):
        raise SchedulerError(f"scheduler {_show(scheduler)}: {_show(host)} is not a host name")
    if match.group("ipv6") is not None:
        import ipaddress

        try:
            ipaddress.IPv6Address(match.group("ipv6"))
        except ValueError:
            raise SchedulerError(
                f"scheduler {_show(scheduler)}: not an IPv6 address in brackets"
            ) from None
    return scheduler


def _good_host(host: str) -> bool:
    """A dotted IPv4 address with parts 0-255, or a host name of valid labels."""
    parts = host.split(".")
    if all(p.isascii() and p.isdigit() for p in parts):
        return len(parts) == 4 and all(len(p) <= 3 and int(p) <= 255 for p in parts)
    return len(host) <= 253 and all(_LABEL.fullmatch(p) for p in parts)


def _show(value: object, limit: int = 60) -> str:
    text = repr(value)
    return text if len(text) <= limit else text[: limit - 4] + "...'"


def probe_scheduler(address: str, seconds: float | None = None) -> None:
    """Connect to ``tcp://HOST:PORT`` and check that a Dask scheduler greets us.

    A Dask server sends its handshake as soon as a connection opens: an 8-byte
    little-endian length, then that many bytes naming its ``pickle-protocol``.
    Anything else -- a refused port, a server that says nothing within ``seconds``,
    an HTTP reply -- is refused here in at most about ``2 * seconds``, before
    ``dask.distributed.Client`` could hang on it or read an absurd frame length.
    ``seconds`` defaults to :data:`CONNECT_SECONDS`.

    Raises
    ------
    SchedulerError
        One line naming the address and what went wrong.
    """
    import socket
    import struct

    seconds = CONNECT_SECONDS if seconds is None else seconds
    match = _TCP.fullmatch(check_scheduler(address))
    if match is None:
        raise SchedulerError(f"scheduler {_show(address)}: only tcp:// addresses can be probed")
    host = match.group("ipv6") or match.group("host")
    port = int(match.group("port"))
    try:
        with socket.create_connection((host, port), timeout=seconds) as sock:
            sock.settimeout(seconds)
            head = _receive(sock, 8)
            (size,) = struct.unpack("<Q", head)
            if not 16 <= size <= _MAX_GREETING:
                raise SchedulerError(
                    f"scheduler {_show(address)}: the server there is not a Dask scheduler "
                    "(its first bytes are not a Dask handshake)"
                )
            greeting = _receive(sock, size)
    except SchedulerError:
        raise
    except TimeoutError:
        raise SchedulerError(
            f"scheduler {_show(address)}: no Dask handshake within {seconds:g} s "
            "(is it a Dask scheduler?)"
        ) from None
    except OSError as err:
        why = err.strerror or str(err) or type(err).__name__
        raise SchedulerError(f"scheduler {_show(address)}: cannot connect ({why})") from None
    if b"pickle-protocol" not in greeting:
        raise SchedulerError(
            f"scheduler {_show(address)}: the server there is not a Dask scheduler "
            "(its greeting is not a Dask handshake)"
        )


def _receive(sock: Any, n: int) -> bytes:
    """Exactly ``n`` bytes from ``sock`` (an ``OSError`` if it closes first)."""
    chunks, got = [], 0
    while got < n:
        chunk = sock.recv(min(n - got, 1 << 16))
        if not chunk:
            raise ConnectionError("the server closed the connection without a Dask handshake")
        chunks.append(chunk)
        got += len(chunk)
    return b"".join(chunks)


@contextmanager
def dask_client(scheduler: str) -> Iterator[Any]:
    """A ``dask.distributed.Client`` for ``local:N`` (a fresh LocalCluster) or an address.

    Raises :class:`menace_lib.base.extras.MissingExtraError` without the ``[dask]`` extra.
    """
    from .extras import require

    require("dask", "a Dask scheduler")
    from dask.distributed import Client, LocalCluster

    scheduler = check_scheduler(scheduler)
    match = _LOCAL.fullmatch(scheduler)
    if match is None:
        probe_scheduler(scheduler)
        with Client(scheduler, timeout=f"{2 * CONNECT_SECONDS:g}s") as client:
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


def admit_scheduler(scheduler: str | None) -> None:
    """Refuse, in one line and before any work is announced or started, a scheduler
    address where no Dask scheduler answers (``local:N`` and ``None`` need nothing)."""
    if scheduler is None:
        return
    scheduler = check_scheduler(scheduler)
    if _LOCAL.fullmatch(scheduler) is None:
        probe_scheduler(scheduler)


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
        A tqdm bar on stderr; ``None`` follows :func:`menace_lib.base.progress.showing`
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
