"""``python -m menace_lib tune-priors``: tune MENACE's initial beads with scipy.optimize.

The schedules are tuned on their own seeds (default 1000-1029) for the priors sweep
(``python -m menace_lib experiment priors``), which reports them on held-out seeds.
To update the schedules the sweep uses, write to the library's copy:
``--json menace_lib/data/priors_tuned.json``.
"""

from __future__ import annotations

import argparse
import sys

from ..base.limits import MAX_GAMES, MAX_SEED, MAX_SEEDS, check_work
from ..base.parallel import held_scheduler
from .arguments import STDOUT, add_engine_options, add_huge_option, add_json_option, count, seed
from .output import print_json

EXAMPLES = """\
python -m menace_lib tune-priors --regimen mixed --seeds 4 --evaluations 8 --games 100 --json
python -m menace_lib tune-priors --json menace_lib/data/priors_tuned.json"""


def configure(p: argparse.ArgumentParser) -> None:
    from ..book.beyond.priors import REGIMENS
    from ..book.beyond.priors_tuning import TUNING_SEEDS

    p.add_argument(
        "--regimen",
        choices=(*REGIMENS, "all"),
        default="all",
        help="training regimen to tune for: the thesis's mixed curriculum, the perfect "
        "player throughout, or both (default: all)",
    )
    p.add_argument(
        "--seeds",
        type=count(MAX_SEEDS, 1),
        default=len(TUNING_SEEDS),
        help=f"number of tuning seeds (default {len(TUNING_SEEDS)})",
    )
    p.add_argument(
        "--first-seed",
        type=seed,
        default=TUNING_SEEDS[0],
        help=f"first tuning seed (default {TUNING_SEEDS[0]}; keep clear of the sweep's 0..N-1)",
    )
    p.add_argument(
        "--evaluations",
        type=count(10_000, 2),
        default=40,
        help="schedules to evaluate per regimen, each on every seed (default 40)",
    )
    p.add_argument(
        "--games",
        type=count(MAX_GAMES, 1),
        default=None,
        help="training games per run (default: the sweep's, 500)",
    )
    add_engine_options(p)
    add_huge_option(p)
    add_json_option(p, "the tuning result (menace_lib/data/priors_tuned.json is the sweep's copy)")


def run(args: argparse.Namespace) -> int:
    from ..book.beyond.priors import REGIMENS
    from ..book.beyond.priors_tuning import tune_schedules, write_tuning

    if args.first_seed + args.seeds - 1 > MAX_SEED:
        raise ValueError(f"--first-seed {args.first_seed} leaves no room for {args.seeds} seeds")
    regimens = tuple(REGIMENS) if args.regimen == "all" else (args.regimen,)
    options = {} if args.games is None else {"games": args.games}
    from ..book.beyond.priors import PRIORS

    resolved, _ = PRIORS.resolve(options)
    games, evaluations = PRIORS.work(resolved, len(regimens) * args.evaluations * args.seeds)
    check_work("tune-priors", games, evaluations, allow_huge=args.huge)
    with held_scheduler(args.scheduler) as scheduler:  # one cluster for every evaluation
        doc = tune_schedules(
            regimens,
            range(args.first_seed, args.first_seed + args.seeds),
            options,
            max_evaluations=args.evaluations,
            scheduler=scheduler,
            jobs=args.jobs,
            backend=args.backend,
            command=" ".join(["python -m menace_lib tune-priors", *sys.argv[2:]]),
        )
    if args.json == STDOUT:
        print_json(doc)
        return 0
    if args.json is not None:
        write_tuning(doc, args.json, option="--json")
    for regimen, r in doc["regimens"].items():
        shown = "-".join(f"{b:g}" for b in r["schedule"])
        start = "-".join(f"{b:g}" for b in r["start"])
        base = r["baseline_value"]
        print(
            f"{regimen:<8} best {shown:<24} area {r['value']:.4f} "
            f"(4-3-2-1: {'–' if base is None else f'{base:.4f}'}; search from {start}; "
            f"{len(r['evaluations'])} schedules, {r['seconds']:.0f} s)"
        )
        if r.get("at_bound"):  # a schedule at the search's edge is no optimum: say so
            print(f"{'':<8} {r['verdict']}")
    return 0
