"""``python -m menace_lib tournament``: self-play tournament of the stochastic player."""

from __future__ import annotations

import argparse

import numpy as np

from .output import print_json

HELP = "self-play tournament of the stochastic player (the blog post's rule-agnostic MENACE)"

PLAYERS = ("stochastic",)


def configure(p: argparse.ArgumentParser) -> None:
    p.add_argument("--player", default="stochastic", choices=PLAYERS, help="the self-play learner")
    p.add_argument("--rounds", type=int, default=100, help="rounds (default 100)")
    p.add_argument("--games", type=int, default=40, help="games per round (default 40)")
    p.add_argument("--seed", type=int, default=0)
    p.add_argument("--beads", type=float, default=5, help="beads per square in a new box")
    p.add_argument(
        "--restock", default="box", help="box: an empty box is refilled (default); none: it resigns"
    )
    p.add_argument("--json", action="store_true", help="print a JSON array, one record per round")


def run(args: argparse.Namespace) -> int:
    from ..variants.stochastic import ROUND_FIELDS, StochasticPlayer, tournament

    if args.rounds < 0:
        raise ValueError(f"--rounds must be ≥ 0, got {args.rounds}")
    if args.games < 0:
        raise ValueError(f"--games must be ≥ 0, got {args.games}")
    player = StochasticPlayer(beads=args.beads, restock=args.restock)
    records = tournament(player, args.rounds, args.games, np.random.default_rng(args.seed))
    if args.json:
        print_json(records)
        return 0
    widths = [max(len(f), 5) for f in ROUND_FIELDS]
    print("  ".join(f"{f:>{w}}" for f, w in zip(ROUND_FIELDS, widths, strict=True)))
    for r in records:
        print("  ".join(f"{r[f]:>{w}}" for f, w in zip(ROUND_FIELDS, widths, strict=True)))
    return 0
