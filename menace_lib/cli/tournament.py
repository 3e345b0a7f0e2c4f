"""``python -m menace_lib tournament``: self-play tournament of the stochastic player."""

from __future__ import annotations

import argparse

import numpy as np

from ..base.limits import MAX_BEADS, MAX_GAMES, MAX_ROUNDS
from .arguments import add_json_option, count, number, seed
from .output import emit_json

EXAMPLES = """\
python -m menace_lib tournament --rounds 100 --games 40 --seed 0
python -m menace_lib tournament --rounds 10 --json rounds.json"""

PLAYERS = ("stochastic",)


def configure(p: argparse.ArgumentParser) -> None:
    p.add_argument("--player", default="stochastic", choices=PLAYERS, help="the self-play learner")
    p.add_argument("--rounds", type=count(MAX_ROUNDS), default=100, help="rounds (default 100)")
    p.add_argument(
        "--games", type=count(MAX_GAMES), default=40, help="games per round (default 40)"
    )
    p.add_argument("--seed", type=seed, default=0, help="random seed (default 0)")
    p.add_argument(
        "--beads",
        type=number(minimum=0, maximum=MAX_BEADS),
        default=5,
        help="beads per square in a new box (> 0)",
    )
    p.add_argument(
        "--restock", default="box", help="box: an empty box is refilled (default); none: it resigns"
    )
    add_json_option(p, "one record per round (an array)")


def run(args: argparse.Namespace) -> int:
    from ..agents.stochastic import ROUND_FIELDS, StochasticPlayer, tournament

    if args.rounds * args.games > MAX_GAMES:
        raise ValueError(
            f"--rounds {args.rounds:,} × --games {args.games:,} is over the limit of "
            f"{MAX_GAMES:,} games in all"
        )
    player = StochasticPlayer(beads=args.beads, restock=args.restock)
    records = tournament(player, args.rounds, args.games, np.random.default_rng(args.seed))
    if emit_json(args.json, records):
        return 0
    widths = [max(len(f), 5) for f in ROUND_FIELDS]
    print("  ".join(f"{f:>{w}}" for f, w in zip(ROUND_FIELDS, widths, strict=True)))
    for r in records:
        print("  ".join(f"{r[f]:>{w}}" for f, w in zip(ROUND_FIELDS, widths, strict=True)))
    return 0
