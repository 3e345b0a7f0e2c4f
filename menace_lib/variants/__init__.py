"""The other matchbox machines of the sources, and their command-line entry.

- :mod:`menace_lib.variants.selfplay` -- pooled self-play with move-class boxes (the blog chapter)
- :mod:`menace_lib.variants.unsymmetrised` -- 6,046 raw-position boxes (the APL article)
- :mod:`menace_lib.variants.stochastic` -- the rule-agnostic stochastic player (the blog post)
- :mod:`menace_lib.variants.figures` -- their figures

Importing this package registers the ``tournament`` command with
:mod:`menace_lib.cli` (the CLI imports it automatically)::

    python -m menace_lib tournament --player stochastic --rounds 100 --games 40 --seed 0 --json
"""

from __future__ import annotations

import argparse

import numpy as np

from ..cli import _print_json, command

PLAYERS = ("stochastic",)


def _tournament_options(p: argparse.ArgumentParser) -> None:
    p.add_argument("--player", default="stochastic", choices=PLAYERS, help="the self-play learner")
    p.add_argument("--rounds", type=int, default=100, help="rounds (default 100)")
    p.add_argument("--games", type=int, default=40, help="games per round (default 40)")
    p.add_argument("--seed", type=int, default=0)
    p.add_argument("--beads", type=float, default=5, help="beads per square in a new box")
    p.add_argument("--on-empty", default="restock", help="empty box: restock (default) or resign")
    p.add_argument("--json", action="store_true", help="print a JSON array, one record per round")


@command("tournament", "self-play tournament of the stochastic player", _tournament_options)
def run_tournament(args) -> int:
    from .stochastic import ROUND_FIELDS, StochasticPlayer, tournament

    if args.rounds < 0:
        raise ValueError(f"--rounds must be ≥ 0, got {args.rounds}")
    if args.games < 0:
        raise ValueError(f"--games must be ≥ 0, got {args.games}")
    player = StochasticPlayer(beads=args.beads, on_empty=args.on_empty)
    records = tournament(player, args.rounds, args.games, np.random.default_rng(args.seed))
    if args.json:
        _print_json(records)
        return 0
    widths = [max(len(f), 5) for f in ROUND_FIELDS]
    print("  ".join(f"{f:>{w}}" for f, w in zip(ROUND_FIELDS, widths, strict=True)))
    for r in records:
        print("  ".join(f"{r[f]:>{w}}" for f, w in zip(ROUND_FIELDS, widths, strict=True)))
    return 0
