"""Benchmark: a sweep's throughput on one and on two Dask workers.

Target: two workers finish the same sweep at least 1.8× faster than one, on a 2-core
machine (a ``LocalCluster`` of single-threaded worker processes). Both runs must
give identical numbers; the script checks that and prints the speed-up. It is a
benchmark, not a test: it prints timings and never asserts them.

    python benchmarks/bench_dask.py [--suite opponent-model] [--seeds 4] [--workers 1,2]
    python benchmarks/bench_dask.py --suite thesis --tables 9.3,9.4 --seeds 10

The default, four seeds of the opponent-model sweep, is 80 runs of about 0.4 s each:
even tasks, so two workers can share them evenly (the thesis's Table 9.1 is dominated
by a few long runs and cannot scale as well).

A cluster's start-up (about a second) is timed separately and not counted, since a
real sweep pays it once. Run on an otherwise idle machine: other processes on the
same cores make the two-worker run look slower than it is.
"""

from __future__ import annotations

import argparse
import json
import os
import time

from menace_lib.base.parallel import dask_client
from menace_lib.book.beyond import get_sweep, run_sweep
from menace_lib.experiments import THESIS_SUITE, run_suite, select
from menace_lib.experiments.results import same_numbers


def _suite_run(args, scheduler):
    conditions = select(THESIS_SUITE, args.tables)
    result = run_suite(conditions, seeds=args.seeds, scheduler=scheduler, cache=False)
    return result.records


def _sweep_run(args, scheduler):
    sweep = get_sweep(args.suite)
    return run_sweep(sweep, seeds=args.seeds, scheduler=scheduler).records


def _same(a, b) -> bool:
    if len(a) != len(b):
        return False
    if all("kind" in r for r in a):  # thesis-suite records
        return all(same_numbers(x, y) for x, y in zip(a, b, strict=True))
    strip = [{k: v for k, v in r.items() if k != "seconds"} for r in a + b]
    return strip[: len(a)] == strip[len(a) :]


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--suite", default="opponent-model", help="'thesis' or a sweep name")
    parser.add_argument("--tables", default="9.1", help="thesis tables to run (default 9.1)")
    parser.add_argument("--seeds", type=int, default=4)
    parser.add_argument("--workers", default="1,2", help="worker counts to compare")
    parser.add_argument("--json", action="store_true", help="print one JSON object")
    args = parser.parse_args()
    run = _suite_run if args.suite == "thesis" else _sweep_run

    timings, records = {}, {}
    for n in [int(w) for w in args.workers.split(",")]:
        t0 = time.perf_counter()
        with dask_client(f"local:{n}") as client:
            start = time.perf_counter() - t0
            address = client.scheduler.address
            t1 = time.perf_counter()
            records[n] = run(args, address)
            timings[n] = {"seconds": time.perf_counter() - t1, "startup_s": start}
        timings[n]["runs_per_s"] = len(records[n]) / timings[n]["seconds"]
    first = min(timings)
    out = {
        "suite": args.suite,
        "tables": args.tables if args.suite == "thesis" else None,
        "seeds": args.seeds,
        "runs": len(records[first]),
        "cores": os.cpu_count(),
        "load_average": [round(v, 2) for v in os.getloadavg()],
        "workers": timings,
        "speedup": {n: timings[first]["seconds"] / t["seconds"] for n, t in timings.items()},
        "identical": all(_same(records[first], r) for r in records.values()),
    }
    if args.json:
        print(json.dumps(out, indent=2))
        return
    print(f"{out['runs']} runs of {args.suite} ({args.seeds} seeds), {out['cores']} cores")
    for n, t in timings.items():
        print(
            f"  {n} worker(s): {t['seconds']:6.1f} s  ({t['runs_per_s']:.2f} runs/s, "
            f"start-up {t['startup_s']:.1f} s)  speed-up {out['speedup'][n]:.2f}×"
        )
    print(f"identical numbers on every cluster size: {out['identical']}")
    print(f"load average: {out['load_average']}  (target: ≥ 1.8× with 2 workers)")


if __name__ == "__main__":
    main()
