"""``python -m menace_lib experiment``: the thesis's suite (Tables 9.1-9.4) or the λ sweep."""

from __future__ import annotations

import argparse
import sys
import time

from ..experiments.protocol import Protocol
from ..experiments.results import dumps, format_table
from ..experiments.runner import run_suite
from ..experiments.suite import LAMBDA_SUITE, THESIS_SUITE, select

HELP = "run the thesis's experiment suite (Tables 9.1-9.4) or the λ sweep"

SUITES = {"thesis": THESIS_SUITE, "lambda": LAMBDA_SUITE}


def configure(p: argparse.ArgumentParser) -> None:
    p.add_argument("suite", choices=sorted(SUITES), help="which suite to run")
    p.add_argument("--seeds", type=int, default=10, help="seeds 0..N-1 (default 10)")
    p.add_argument("--tables", default=None, help="comma-separated subset, e.g. 9.1,9.4")
    p.add_argument("--games", type=int, default=None, help="override every row's training games")
    p.add_argument("--validation-games", type=int, default=100)
    p.add_argument("--curve-points", type=int, default=20, help="exact checkpoints per run")
    p.add_argument("--jobs", type=int, default=-1, help="parallel workers (joblib n_jobs)")
    p.add_argument("--backend", default=None, help="joblib backend (default: loky)")
    p.add_argument("--json", metavar="PATH", help="write rows, records and config ('-': stdout)")
    p.add_argument("--csv", metavar="PATH", help="write the aggregated rows as CSV")
    p.add_argument("--no-progress", action="store_true", help="no progress bar on stderr")


def run(args: argparse.Namespace) -> int:
    if args.games is not None and args.games < 1:
        raise ValueError(f"--games must be ≥ 1, got {args.games}")
    conditions = [c.with_games(args.games) for c in select(SUITES[args.suite], args.tables)]
    protocol = Protocol(validation_games=args.validation_games, curve_points=args.curve_points)
    t0 = time.perf_counter()
    result = run_suite(
        conditions,
        seeds=args.seeds,
        protocol=protocol,
        n_jobs=args.jobs,
        backend=args.backend,
        progress=not args.no_progress,
        cache=False,
    )
    result.config["command"] = " ".join(["python -m menace_lib experiment", *sys.argv[2:]])
    elapsed = time.perf_counter() - t0
    if args.json and args.json != "-":
        result.save_json(args.json)
    if args.csv:
        result.save_csv(args.csv)
    if args.json == "-":
        print(dumps(result.to_dict()))
    else:
        print(format_table(result.rows))
        print(f"\n{len(result.records)} runs in {elapsed:.1f} s", file=sys.stderr)
    return 0
