"""``python -m menace_lib experiment``: the thesis's suite (Tables 9.1-9.4) or the λ sweep."""

from __future__ import annotations

import argparse
import os
import sys
import time
from pathlib import Path

from ..experiments.protocol import Protocol
from ..experiments.results import dumps, format_table
from ..experiments.runner import run_suite, total_games
from ..experiments.suite import LAMBDA_SUITE, THESIS_SUITE, select
from ..limits import MAX_CURVE_POINTS, MAX_GAMES, MAX_SEEDS
from .arguments import STDOUT, count, jobs, output_file, output_or_stdout

HELP = "run the thesis's experiment suite (Tables 9.1-9.4) or the λ sweep"

SUITES = {"thesis": THESIS_SUITE, "lambda": LAMBDA_SUITE}


def configure(p: argparse.ArgumentParser) -> None:
    p.add_argument("suite", choices=sorted(SUITES), help="which suite to run")
    p.add_argument(
        "--seeds", type=count(MAX_SEEDS, 1), default=10, help="seeds 0..N-1 (default 10)"
    )
    p.add_argument("--tables", default=None, help="comma-separated subset, e.g. 9.1,9.4")
    p.add_argument(
        "--games", type=count(MAX_GAMES, 1), default=None, help="override every row's games"
    )
    p.add_argument("--validation-games", type=count(MAX_GAMES, 1), default=100)
    p.add_argument(
        "--curve-points", type=count(MAX_CURVE_POINTS), default=20, help="exact checkpoints per run"
    )
    p.add_argument("--jobs", type=jobs, default=-1, help="parallel workers (joblib n_jobs)")
    p.add_argument("--backend", default=None, help="joblib backend (default: loky)")
    p.add_argument(
        "--json",
        metavar="PATH",
        type=output_or_stdout,
        help="write rows, records and config ('-': stdout)",
    )
    p.add_argument(
        "--csv", metavar="PATH", type=output_file, help="write the aggregated rows as CSV"
    )
    p.add_argument("--no-progress", action="store_true", help="no progress bar on stderr")


def run(args: argparse.Namespace) -> int:
    if args.json not in (None, STDOUT) and args.csv is not None and _same_file(args.json, args.csv):
        raise ValueError(f"--json and --csv name the same file {str(args.csv)!r}")
    conditions = [c.with_games(args.games) for c in select(SUITES[args.suite], args.tables)]
    total_games(conditions, args.seeds)  # refuse an absurd run before it starts
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
    if args.json not in (None, STDOUT):
        result.save_json(args.json, option="--json")
    if args.csv is not None:
        result.save_csv(args.csv, option="--csv")
    if args.json == STDOUT:
        print(dumps(result.to_dict()))
    else:
        print(format_table(result.rows))
        print(f"\n{len(result.records)} runs in {elapsed:.1f} s", file=sys.stderr)
    return 0


def _same_file(a: Path, b: Path) -> bool:
    """Whether two output paths end at the same file (links followed)."""
    return os.path.realpath(a) == os.path.realpath(b)
