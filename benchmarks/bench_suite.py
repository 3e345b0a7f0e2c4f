"""Benchmark: the thesis's whole experiment suite (Tables 9.1-9.4 × 10 seeds).

Target: ≤ 60 s wall clock on a 2-core machine, including the 5,000-game RL rows.
This is a benchmark, not a test: it prints timings and never asserts them.

    python benchmarks/bench_suite.py [--seeds 10] [--jobs -1] [--profile]

``--profile`` also prints each condition's summed run time (CPU seconds spent in
its runs), which shows where the wall clock goes.
"""

from __future__ import annotations

import argparse
import os
import time
from collections import defaultdict

from menace_lib.experiments import THESIS_SUITE, Condition, run_suite


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--seeds", type=int, default=10)
    parser.add_argument("--jobs", type=int, default=-1)
    parser.add_argument("--backend", default=None)
    parser.add_argument("--profile", action="store_true")
    args = parser.parse_args()

    t0 = time.perf_counter()
    result = run_suite(
        THESIS_SUITE, seeds=args.seeds, n_jobs=args.jobs, backend=args.backend, cache=False
    )
    wall = time.perf_counter() - t0
    unique = {}
    for r in result.records:
        run = (Condition.from_dict(r["config"]["condition"]).run_key(), r["seed"])
        unique[run] = r["seconds"]
    print(f"cores available      {os.cpu_count()}")
    print(f"rows × seeds         {len(result.rows)} × {args.seeds} ({len(unique)} distinct runs)")
    print(f"suite wall clock     {wall:.1f} s  (target ≤ 60 s)")
    print(f"summed run times     {sum(unique.values()):.1f} s  (≈ one core's work)")
    print(f"load average         {' '.join(f'{v:.2f}' for v in os.getloadavg())}")
    if args.profile:
        per_key: dict[str, float] = defaultdict(float)
        for r in result.records:
            per_key[r["key"]] += r["seconds"]
        print("\nsummed run time per condition (shared runs counted once per row):")
        for key, seconds in sorted(per_key.items(), key=lambda kv: -kv[1]):
            print(f"  {seconds:7.2f} s  {key}")


if __name__ == "__main__":
    main()
