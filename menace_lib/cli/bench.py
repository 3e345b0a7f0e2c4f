"""``python -m menace_lib bench``: measure the speed targets."""

from __future__ import annotations

import argparse

from ..limits import MAX_GAMES
from .arguments import count
from .output import print_json

HELP = "measure the speed targets"


def configure(p: argparse.ArgumentParser) -> None:
    p.add_argument(
        "--games",
        type=count(MAX_GAMES, 1),
        default=200_000,
        help="games in the MENACE timing run",
    )
    p.add_argument("--json", action="store_true", help="print one JSON object")


def run(args: argparse.Namespace) -> int:
    from ..bench import run_benchmarks

    figures = run_benchmarks(games=args.games)
    if args.json:
        print_json(figures)
    else:
        for k, v in figures.items():
            print(f"{k:<28} {v:,.3f}" if isinstance(v, float) else f"{k:<28} {v}")
    return 0
