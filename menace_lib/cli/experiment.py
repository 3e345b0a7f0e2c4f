"""``python -m menace_lib experiment``: the thesis's suite, the λ sweep, or a question beyond it.

``thesis`` and ``lambda`` run the thesis's tables (:mod:`menace_lib.experiments`);
``exact-regret`` and ``history`` are the two studies of :data:`STUDIES` (exact
bandit regret, :mod:`menace_lib.maths.bandit_regret`; the historical record,
:mod:`menace_lib.book.history`), single-process and deterministic; every other name
is a sweep of :mod:`menace_lib.book.beyond` (``priors``, ``lambda-schedule``,
``opponent-model``, ...). All of them take the same engine options (``--jobs``,
``--backend``, ``--scheduler``), which cannot change the numbers.
"""

from __future__ import annotations

import argparse
import sys
import time
from typing import Any

from ..base.files import check_distinct_files
from ..base.limits import MAX_CURVE_POINTS, MAX_GAMES, MAX_SEEDS, SECONDS_PER_WORK, check_work
from ..base.parallel import admit_scheduler
from ..book.beyond import get_sweep, run_sweep, sweeps
from ..experiments.protocol import Protocol
from ..experiments.results import format_table
from ..experiments.runner import run_suite, total_games
from ..experiments.suite import LAMBDA_SUITE, THESIS_SUITE, select
from .arguments import (
    STDOUT,
    add_engine_options,
    add_huge_option,
    add_json_option,
    count,
    output_file,
)

EXAMPLES = """\
python -m menace_lib experiment thesis --seeds 10 --json results.json
python -m menace_lib experiment thesis --tables 9.1 --seeds 2 --games 200 --json
python -m menace_lib experiment priors --seeds 30 --scheduler local:2
python -m menace_lib experiment opponent-model --seeds 4 --conditions menace --csv summary.csv
python -m menace_lib experiment exact-regret --json book/data/exact_regret.json
python -m menace_lib experiment history --json book/data/history.json"""

SUITES = {"thesis": THESIS_SUITE, "lambda": LAMBDA_SUITE}
STUDIES = {
    "exact-regret": "exact Bayesian regret of six bandit policies, horizons 1-100 "
    "(about 5 CPU-minutes)",
    "history": "Michie's computer MENACE: the A, B sweep against a random opponent and "
    "self-play against the perfect player (about 3 CPU-minutes)",
}
"""Deterministic studies (no seeds option, no engine): name -> what they cost."""
SWEEP_SEEDS = 30


def configure(p: argparse.ArgumentParser) -> None:
    names = sorted(SUITES) + sorted(STUDIES) + sorted(sweeps())
    p.add_argument("suite", choices=names, help="which suite or sweep to run")
    p.add_argument(
        "--seeds",
        type=count(MAX_SEEDS, 1),
        default=None,
        help=f"seeds 0..N-1 (default 10 for the thesis's suites, {SWEEP_SEEDS} for sweeps)",
    )
    p.add_argument("--tables", default=None, help="thesis suites: a subset, e.g. 9.1,9.4")
    p.add_argument(
        "--conditions", default=None, help="sweeps: a comma-separated subset of conditions"
    )
    p.add_argument(
        "--games", type=count(MAX_GAMES, 1), default=None, help="override every run's games"
    )
    p.add_argument(
        "--set",
        dest="settings",
        action="append",
        default=[],
        metavar="KEY=VALUE",
        help="sweeps: override one of the sweep's options (VALUE is JSON, e.g. "
        "regimen='\"perfect\"' or horizon=500); repeatable",
    )
    p.add_argument(
        "--validation-games",
        type=count(MAX_GAMES, 1),
        default=None,
        help="thesis suites: sampled validation games per run (default 100)",
    )
    p.add_argument(
        "--curve-points",
        type=count(MAX_CURVE_POINTS),
        default=None,
        help="thesis suites: exact checkpoints per run (default 20)",
    )
    add_engine_options(p)
    add_huge_option(p)
    add_json_option(p, "every record, the summaries and the config")
    p.add_argument(
        "--csv",
        metavar="PATH",
        type=output_file,
        help="write the summary rows as CSV ('-': stdout)",
    )


def run(args: argparse.Namespace) -> int:
    check_distinct_files({"--json": args.json, "--csv": args.csv})
    if args.scheduler is not None and args.backend is not None:
        raise ValueError("choose --backend or --scheduler, not both")
    admit_scheduler(args.scheduler)  # the backend answers before the cost is announced
    command = " ".join(["python -m menace_lib experiment", *sys.argv[2:]])
    if args.suite in SUITES:
        return _run_suite(args, command)
    if args.suite in STUDIES:
        return _run_study(args, command)
    return _run_sweep(args, command)


def _run_study(args: argparse.Namespace, command: str) -> int:
    """One of :data:`STUDIES`: its cost said first, its document written to ``--json``."""
    for option, value in (
        ("--seeds", args.seeds),
        ("--tables", args.tables),
        ("--conditions", args.conditions),
        ("--games", args.games),
        ("--validation-games", args.validation_games),
        ("--curve-points", args.curve_points),
        ("--csv", args.csv),
    ):
        if value is not None:  # every option acts or is refused, never silently ignored
            raise ValueError(f"{option} does not apply to {args.suite!r}")
    if args.settings:
        raise ValueError(f"--set does not apply to {args.suite!r}")
    print(f"experiment {args.suite}: {STUDIES[args.suite]}", file=sys.stderr)
    t0 = time.perf_counter()
    if args.suite == "exact-regret":
        from ..maths.bandit_regret import exact_regret_table

        doc = exact_regret_table(progress=args.progress)
    else:
        from ..book.history import history_study

        doc = history_study(progress=args.progress)
    doc["command"] = command
    doc["seconds"] = round(time.perf_counter() - t0, 1)
    if args.json is not None:
        from ..base.files import dumps as json_dumps
        from ..base.files import write_json

        if args.json == STDOUT:
            print(json_dumps(doc))
        else:
            write_json(args.json, doc, option="--json")
    if args.json != STDOUT:
        print(f"{args.suite}: done in {doc['seconds']:.1f} s", file=sys.stderr)
    return 0


def _engine(args: argparse.Namespace) -> dict[str, Any]:
    return {
        "scheduler": args.scheduler,
        "backend": args.backend,
        "progress": args.progress,
    }


def _run_suite(args: argparse.Namespace, command: str) -> int:
    if args.conditions or args.settings:
        raise ValueError(f"--conditions and --set apply to sweeps, not to {args.suite!r}")
    seeds = args.seeds or 10
    if args.validation_games is None:
        args.validation_games = 100
    if args.curve_points is None:
        args.curve_points = 20
    conditions = [c.with_games(args.games) for c in select(SUITES[args.suite], args.tables)]
    total_games(conditions, seeds)  # refuse an absurd run before it starts
    protocol = Protocol(validation_games=args.validation_games, curve_points=args.curve_points)
    runs = len(conditions) * seeds
    games = total_games(conditions, seeds) + runs * args.validation_games
    evaluations = runs * (args.curve_points + 2)  # the curve, then exact and robust validation
    work = check_work(f"experiment {args.suite}", games, evaluations, allow_huge=args.huge)
    _cost(args.suite, runs, games, evaluations, work)
    t0 = time.perf_counter()
    result = run_suite(
        conditions, seeds=seeds, protocol=protocol, n_jobs=args.jobs, cache=False, **_engine(args)
    )
    result.config["command"] = command
    _write(result, args)
    if args.json != STDOUT:
        print(format_table(result.rows))
        _done(len(result.records), time.perf_counter() - t0)
    return 0


def _run_sweep(args: argparse.Namespace, command: str) -> int:
    for option, value in (
        ("--tables", args.tables),
        ("--validation-games", args.validation_games),
        ("--curve-points", args.curve_points),
    ):
        if value is not None:  # every option acts or is refused, never silently ignored
            raise ValueError(f"{option} applies to the thesis's suites, not to {args.suite!r}")
    sweep = get_sweep(args.suite)
    options = _settings(args.settings)
    if args.games is not None:
        if "games" in options:
            raise ValueError("--games and --set games=... both set the games: give one")
        if "games" not in sweep.options:
            raise ValueError(
                f"--games does not apply to {args.suite!r}: it has no games option "
                f"(its options: {', '.join(sorted(sweep.options))})"
            )
        options["games"] = args.games
    conditions = args.conditions.split(",") if args.conditions else None
    resolved, chosen = sweep.resolve(options, conditions)
    seeds = args.seeds or SWEEP_SEEDS
    games, evaluations = sweep.work(resolved, seeds, chosen)
    work = check_work(f"experiment {args.suite}", games, evaluations, allow_huge=args.huge)
    _cost(args.suite, len(chosen) * seeds, games, evaluations, work)
    result = run_sweep(
        sweep,
        seeds=seeds,
        options=options,
        conditions=conditions,
        jobs=args.jobs,
        command=command,
        allow_huge=args.huge,
        **_engine(args),
    )
    _write(result, args)
    if args.json != STDOUT:
        print(_sweep_table(result))
        _done(len(result.records), result.seconds)
    return 0


def _cost(what: str, runs: int, games: int, evaluations: int, work: int) -> None:
    """Say on stderr what a run will cost before it starts (it may take hours)."""
    hours = work * SECONDS_PER_WORK / 3600  # limits: about 0.1 ms of one core per unit
    when = f"about {hours:.1f} h" if hours >= 0.1 else f"about {hours * 60:.0f} min"
    print(
        f"experiment {what}: {runs:,} runs, {games:,} training games and {evaluations:,} "
        f"exact evaluations (noughts-and-crosses size): {when} of one core in all",
        file=sys.stderr,
    )


def _settings(pairs: list[str]) -> dict[str, Any]:
    """``KEY=VALUE`` pairs with JSON values; the sweep checks each against its option's type."""
    from ..base.files import loads, shorten

    out: dict[str, Any] = {}
    for pair in pairs:
        key, sep, text = pair.partition("=")
        if not sep or not key.strip():
            raise ValueError(f"--set needs KEY=VALUE, got {shorten(repr(pair))}")
        try:
            out[key.strip()] = loads(text, f"--set {shorten(key.strip(), 30)}: VALUE")
        except ValueError as err:
            raise ValueError(f"{err}; quote text as JSON, e.g. regimen='\"perfect\"'") from None
    return out


def _write(result, args: argparse.Namespace) -> None:
    if args.json is not None:
        result.save_json(args.json, option="--json")
    if args.csv is not None:
        result.save_csv(args.csv, option="--csv")


def _sweep_table(result) -> str:
    """Each condition's metrics as ``mean [low, high]``."""
    from ..base.display import markdown_table

    metrics = result.config["metrics"]
    rows = [
        {"condition": cond, **{m: _interval(result.summary[cond][m]) for m in metrics}}
        for cond in result.summary
    ]
    return markdown_table(rows)


def _interval(s: dict) -> str:
    if s["mean"] is None:
        return "—"
    if s["low"] is None:
        return f"{s['mean']:.4g}"
    return f"{s['mean']:.4g} [{s['low']:.4g}, {s['high']:.4g}]"


def _done(runs: int, seconds: float) -> None:
    print(f"\n{runs} runs in {seconds:.1f} s", file=sys.stderr)
