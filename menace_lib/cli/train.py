"""``python -m menace_lib train``: train an agent and save it as JSON."""

from __future__ import annotations

import argparse

import numpy as np

from ..beads import RESTOCKS
from ..limits import MAX_BEADS, MAX_GAMES, MAX_REINFORCEMENT, MAX_SCHEDULE_LENGTH
from ..menace import LAYOUTS
from ..opponents import REGIMENS, TIE_BREAKS
from ..statespace import FILTERS
from .arguments import count, number_list, output_file, seed
from .output import print_json

HELP = "train an agent and save it as JSON"


def configure(p: argparse.ArgumentParser) -> None:
    p.add_argument("learner", choices=["menace"], help="the learner to train")
    p.add_argument(
        "--games", type=count(MAX_GAMES), default=500, help="training games (default 500)"
    )
    p.add_argument("--regimen", default="mixed", choices=REGIMENS, help="training regimen")
    p.add_argument(
        "--tie-break", default="lowest", choices=TIE_BREAKS, help="perfect player's tie-break"
    )
    p.add_argument("--filter", default="michie", choices=FILTERS, help="which states get a box")
    p.add_argument("--restock", default="box", choices=RESTOCKS, help="what refills beads")
    p.add_argument("--layout", default="square", choices=LAYOUTS, help="one colour per ...")
    p.add_argument(
        "--schedule",
        type=number_list((1, MAX_SCHEDULE_LENGTH), 0, MAX_BEADS),
        default=(4.0, 3.0, 2.0, 1.0),
        help="initial beads by move number (default 4,3,2,1)",
    )
    p.add_argument(
        "--reward",
        type=number_list((3, 3), -MAX_REINFORCEMENT, MAX_REINFORCEMENT),
        default=(3.0, 1.0, -1.0),
        help="win,draw,loss reinforcement (default 3,1,-1)",
    )
    p.add_argument("--player", default="X", choices=["X", "O"], help="the side MENACE plays")
    p.add_argument("--seed", type=seed, default=0, help="random seed (default 0)")
    p.add_argument(
        "--output", type=output_file, required=True, help="where to write the agent (JSON)"
    )
    p.add_argument("--progress", action="store_true", help="show a progress bar")
    p.add_argument("--json", action="store_true", help="print a JSON summary")


def run(args: argparse.Namespace) -> int:
    from ..board import O, X
    from ..menace import Menace, MenaceConfig
    from ..training import train

    config = MenaceConfig(
        filter=args.filter,
        schedule=args.schedule,
        reinforcement=args.reward,
        restock=args.restock,
        layout=args.layout,
        player=X if args.player == "X" else O,
    )
    agent = Menace(config)
    rng = np.random.default_rng(args.seed)
    log = train(
        agent, args.regimen, args.games, rng, tie_break=args.tie_break, progress=args.progress
    )
    agent.save(args.output, option="--output")
    summary = {"games": len(log), **log.rates(), "output": str(args.output)}
    if args.json:
        print_json(summary)
    else:
        print(
            f"trained {len(log)} games: win {summary['win']:.3f}, draw {summary['draw']:.3f}, "
            f"loss {summary['loss']:.3f} -> {args.output}"
        )
    return 0
