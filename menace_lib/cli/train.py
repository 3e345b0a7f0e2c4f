"""``python -m menace_lib train``: train an agent and save it as JSON."""

from __future__ import annotations

import argparse

import numpy as np

from .output import numbers, print_json

HELP = "train an agent and save it as JSON"


def configure(p: argparse.ArgumentParser) -> None:
    p.add_argument("learner", choices=["menace"], help="the learner to train")
    p.add_argument("--games", type=int, default=500, help="training games (default 500)")
    p.add_argument("--regimen", default="mixed", help="random, defensive, optimal or mixed")
    p.add_argument("--tie-break", default="lowest", help="perfect player's tie-break")
    p.add_argument("--filter", default="michie", help="all, decision or michie")
    p.add_argument("--restock", default="box", help="none, move or box")
    p.add_argument("--layout", default="square", help="square or class")
    p.add_argument("--schedule", default="4,3,2,1", help="initial beads by move number")
    p.add_argument("--reward", default="3,1,-1", help="win,draw,loss reinforcement")
    p.add_argument("--player", default="X", choices=["X", "O"], help="the side MENACE plays")
    p.add_argument("--seed", type=int, default=0, help="random seed (default 0)")
    p.add_argument("--output", required=True, help="where to write the agent (JSON)")
    p.add_argument("--progress", action="store_true", help="show a progress bar")
    p.add_argument("--json", action="store_true", help="print a JSON summary")


def run(args: argparse.Namespace) -> int:
    from ..board import O, X
    from ..menace import Menace, MenaceConfig
    from ..training import train

    config = MenaceConfig(
        filter=args.filter,
        schedule=numbers(args.schedule, "--schedule"),
        reinforcement=numbers(args.reward, "--reward"),
        restock=args.restock,
        layout=args.layout,
        player=X if args.player == "X" else O,
    )
    if args.games < 0:
        raise ValueError(f"--games must be ≥ 0, got {args.games}")
    agent = Menace(config)
    rng = np.random.default_rng(args.seed)
    log = train(
        agent, args.regimen, args.games, rng, tie_break=args.tie_break, progress=args.progress
    )
    agent.save(args.output)
    summary = {"games": len(log), **log.rates(), "output": args.output}
    if args.json:
        print_json(summary)
    else:
        print(
            f"trained {len(log)} games: win {summary['win']:.3f}, draw {summary['draw']:.3f}, "
            f"loss {summary['loss']:.3f} -> {args.output}"
        )
    return 0
