"""The command line: ``python -m menace_lib <command>``.

Each command is one small function registered in :data:`COMMANDS`; it parses
its own options and prints either a readable table or, with ``--json``, one
JSON document. Bad input ends with a one-line error and exit status 2.
"""

from __future__ import annotations

import argparse
import json
import sys
from collections.abc import Callable, Sequence

import numpy as np

COMMANDS: dict[str, tuple[str, Callable[[argparse.ArgumentParser], None], Callable]] = {}


def command(name: str, help: str, configure: Callable[[argparse.ArgumentParser], None]):
    """Register ``run(args) -> int`` as a sub-command."""

    def register(run: Callable) -> Callable:
        COMMANDS[name] = (help, configure, run)
        return run

    return register


def _print_json(obj) -> None:
    print(json.dumps(obj, indent=2, default=_json_default))


def _json_default(obj):
    if isinstance(obj, np.generic):
        return obj.item()
    if isinstance(obj, np.ndarray):
        return obj.tolist()
    raise TypeError(f"cannot serialise {type(obj).__name__}")


# --- states -------------------------------------------------------------------


def _states_options(p: argparse.ArgumentParser) -> None:
    p.add_argument("--json", action="store_true", help="print one JSON object")


@command("states", "golden facts of the enumerated game", _states_options)
def run_states(args) -> int:
    from .statespace import tables

    summary = tables().summary()
    if args.json:
        _print_json(summary)
        return 0
    rows = [
        ("legal positions", summary["positions"]),
        ("canonical positions", summary["canonical_positions"]),
        ("complete games", summary["games"]),
        (
            "  X wins / O wins / draws",
            f"{summary['x_wins']} / {summary['o_wins']} / {summary['draws']}",
        ),
        ("  by length 5..9", " / ".join(str(v) for v in summary["game_lengths"].values())),
        ("canonical trajectories", summary["canonical_trajectories"]),
        (
            "matchboxes all / decision / michie",
            " / ".join(str(v) for v in summary["matchboxes"].values()),
        ),
        ("double threats", len(summary["double_threats"])),
    ]
    width = max(len(r[0]) for r in rows)
    for label, value in rows:
        print(f"{label:<{width}}  {value:>}")
    return 0


# --- train ----------------------------------------------------------------------


def _train_options(p: argparse.ArgumentParser) -> None:
    p.add_argument("learner", choices=["menace"], help="the learner to train")
    p.add_argument("--games", type=int, default=500)
    p.add_argument("--regimen", default="mixed", help="random, defensive, optimal or mixed")
    p.add_argument("--filter", default="michie", help="all, decision or michie")
    p.add_argument("--restock", default="box", help="none, move or box")
    p.add_argument("--layout", default="square", help="square or class")
    p.add_argument("--schedule", default="4,3,2,1", help="initial beads by move number")
    p.add_argument("--reward", default="3,1,-1", help="win,draw,loss reinforcement")
    p.add_argument("--player", default="X", choices=["X", "O"])
    p.add_argument("--seed", type=int, default=0)
    p.add_argument("--output", required=True, help="where to write the agent (JSON)")
    p.add_argument("--progress", action="store_true")
    p.add_argument("--json", action="store_true")


def _numbers(text: str, name: str) -> tuple[float, ...]:
    try:
        return tuple(float(v) for v in text.split(","))
    except ValueError:
        raise ValueError(f"--{name}: expected comma-separated numbers, got {text!r}") from None


@command("train", "train an agent and save it as JSON", _train_options)
def run_train(args) -> int:
    from .board import O, X
    from .menace import Menace, MenaceConfig
    from .training import train

    config = MenaceConfig(
        filter=args.filter,
        schedule=_numbers(args.schedule, "schedule"),
        reinforcement=_numbers(args.reward, "reward"),
        restock=args.restock,
        layout=args.layout,
        player=X if args.player == "X" else O,
    )
    if args.games < 0:
        raise ValueError(f"--games must be ≥ 0, got {args.games}")
    agent = Menace(config)
    log = train(
        agent, args.regimen, args.games, np.random.default_rng(args.seed), progress=args.progress
    )
    agent.save(args.output)
    summary = {"games": len(log), **log.rates(), "output": args.output}
    if args.json:
        _print_json(summary)
    else:
        print(
            f"trained {len(log)} games: win {summary['win']:.3f}, draw {summary['draw']:.3f}, "
            f"loss {summary['loss']:.3f} -> {args.output}"
        )
    return 0


# --- evaluate -------------------------------------------------------------------


def _evaluate_options(p: argparse.ArgumentParser) -> None:
    p.add_argument("agent", help="agent JSON written by `train`")
    p.add_argument("--opponent", default="perfect")
    p.add_argument("--tie-break", default="lowest", help="perfect player's tie-break")
    p.add_argument("--exact", action="store_true", help="exact probabilities (default)")
    p.add_argument("--games", type=int, help="sampled validation games instead of --exact")
    p.add_argument("--seed", type=int, default=1)
    p.add_argument("--json", action="store_true")


@command("evaluate", "evaluate a saved agent, exactly or by sampling", _evaluate_options)
def run_evaluate(args) -> int:
    from .evaluation import exact_outcome
    from .menace import Menace
    from .opponents import make_opponent
    from .training import validate

    agent = Menace.load(args.agent)
    opponent = make_opponent(args.opponent, args.tie_break)
    if args.games is not None and args.exact:
        raise ValueError("choose --exact or --games N, not both")
    if args.games is not None:
        rates = validate(agent, args.games, np.random.default_rng(args.seed), opponent)
    else:
        rates = exact_outcome(agent, opponent)
    rates = {k: float(v) for k, v in rates.items()}
    if args.json:
        _print_json(rates)
    else:
        how = f"{args.games} sampled games" if args.games is not None else "exact"
        print(f"vs {opponent.name} ({how}): " + ", ".join(f"{k} {v:.4f}" for k, v in rates.items()))
    return 0


# --- bench ----------------------------------------------------------------------


def _bench_options(p: argparse.ArgumentParser) -> None:
    p.add_argument("--games", type=int, default=200_000)
    p.add_argument("--json", action="store_true")


@command("bench", "measure the speed targets", _bench_options)
def run_bench(args) -> int:
    from .bench import run_benchmarks

    figures = run_benchmarks(games=args.games)
    if args.json:
        _print_json(figures)
    else:
        for k, v in figures.items():
            print(f"{k:<28} {v:,.3f}" if isinstance(v, float) else f"{k:<28} {v}")
    return 0


# --- entry point ----------------------------------------------------------------


def build_parser() -> argparse.ArgumentParser:
    parser = argparse.ArgumentParser(
        prog="python -m menace_lib", description=__doc__.splitlines()[0]
    )
    sub = parser.add_subparsers(dest="command", required=True)
    for name, (help, configure, _) in COMMANDS.items():
        configure(sub.add_parser(name, help=help))
    return parser


def main(argv: Sequence[str] | None = None) -> int:
    _load_plugins()
    parser = build_parser()
    args = parser.parse_args(argv)
    try:
        return COMMANDS[args.command][2](args)
    except (ValueError, OSError) as err:
        print(f"error: {err}", file=sys.stderr)
        return 2


def _load_plugins() -> None:
    """Import modules that register further commands (experiments, tournaments)."""
    import importlib

    for module in ("menace_lib.experiments", "menace_lib.variants"):
        try:
            importlib.import_module(module)
        except ModuleNotFoundError as err:
            if err.name != module:
                raise
