"""``python -m menace_lib bench``: measure the speed targets."""

from __future__ import annotations

import argparse

from ..base.limits import MAX_GAMES
from .arguments import add_json_option, count
from .output import emit_json

EXAMPLES = """\
python -m menace_lib bench
python -m menace_lib bench --games 20000 --json
python -m menace_lib bench --thesis --json figures.json"""


def configure(p: argparse.ArgumentParser) -> None:
    p.add_argument(
        "--games",
        type=count(MAX_GAMES, 1),
        default=200_000,
        help="games in the MENACE timing run",
    )
    add_json_option(p, "the figures")
    p.add_argument(
        "--thesis",
        action="store_true",
        help="the thesis's §8.8 figures instead: 500-game runs, memory, suite and sweep (minutes)",
    )


def run(args: argparse.Namespace) -> int:
    from ..experiments.bench import run_benchmarks, thesis_figures

    figures = thesis_figures() if args.thesis else run_benchmarks(games=args.games)
    if not emit_json(args.json, figures):
        for k, v in figures.items():
            print(f"{k:<28} {v:,.3f}" if isinstance(v, float) else f"{k:<28} {v}")
    return 0
