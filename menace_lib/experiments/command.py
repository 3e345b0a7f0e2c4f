"""``python -m menace_lib experiment thesis``: the thesis's suite from the command line."""

from __future__ import annotations

import argparse
import sys
import time

from ..cli import command
from .protocol import Protocol
from .results import dumps, format_table
from .runner import run_suite
from .suite import LAMBDA_SUITE, THESIS_SUITE, select

SUITES = {"thesis": THESIS_SUITE, "lambda": LAMBDA_SUITE}


def _options(p: argparse.ArgumentParser) -> None:
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


@command(
    "experiment", "run the thesis's experiment suite (Tables 9.1-9.4) or the λ sweep", _options
)
def run_experiment(args) -> int:
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
