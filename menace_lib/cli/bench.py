"""``python -m menace_lib bench``: measure the speed targets."""

from __future__ import annotations

import argparse

from ..base.limits import MAX_GAMES
from .arguments import add_json_option, count
from .output import emit_json

EXAMPLES = """\
python -m menace_lib bench
python -m menace_lib bench --games 20000 --json
python -m menace_lib bench --thesis --json figures.json
python -m menace_lib bench --compile
python -m menace_lib bench --memory
python -m menace_lib bench --solve 5x4,5x5,6x4
python -m menace_lib bench --whole 5x4"""


def configure(p: argparse.ArgumentParser) -> None:
    p.add_argument(
        "--games",
        type=count(MAX_GAMES, 1),
        default=200_000,
        help="games in the MENACE timing run; the other timing runs (Active Inference "
        "5,000, Q-learning and SARSA 5,000, Connect-4 20,000 games) take as many when "
        "that is fewer (a short run is short throughout)",
    )
    add_json_option(p, "the figures")
    p.add_argument(
        "--thesis",
        action="store_true",
        help="the thesis's §8.8 figures instead: 500-game runs, memory, suite and sweep (minutes)",
    )
    p.add_argument(
        "--compile",
        action="store_true",
        help="measure the compile decision's costs (numba import, compile, load, per-move "
        "speeds) and print the break-even runs it gives",
    )
    p.add_argument(
        "--memory",
        action="store_true",
        help="only the flat-memory figures: counts-only MENACE training at 10^4, 10^6 and "
        "10^7 games, each path, fresh processes (minutes)",
    )
    p.add_argument(
        "--solve",
        type=_boards,
        metavar="WxH[,WxH]",
        help="solve these Connect-4 boards with the lean solver, one fresh process each: "
        "positions, start value, bytes a position, peak memory, CPU (5x5 and 6x4: minutes)",
    )
    p.add_argument(
        "--whole",
        type=_board,
        metavar="WxH",
        help="one whole Connect-4 run against the perfect player in a fresh process with an "
        "empty cache (solve, tables, perfect player, 300,000 MENACE games, one exact "
        "evaluation): peak memory and CPU of each phase (5x4: about 20 CPU-s)",
    )


def _board(text: str) -> str:
    """One ``WxH`` Connect-4 board."""
    boards = _boards(text)
    if len(boards) != 1:
        raise argparse.ArgumentTypeError(f"board {text!r}: expected one board, e.g. 5x4")
    return boards[0]


def _boards(text: str) -> tuple[str, ...]:
    """``WxH[,WxH...]``: Connect-4 boards the lean solver may take (width x height)."""
    boards = tuple(b.strip() for b in text.split(",") if b.strip())
    for b in boards:
        w, _, h = b.partition("x")
        if not (w.isdigit() and h.isdigit()) or not (1 <= int(w) <= 15 and 1 <= int(h) <= 15):
            raise argparse.ArgumentTypeError(
                f"board {b!r}: expected WIDTHxHEIGHT, each from 1 to 15 (e.g. 5x5)"
            )
    if not boards:
        raise argparse.ArgumentTypeError(f"boards {text!r}: expected at least one, e.g. 5x4")
    return boards


def run(args: argparse.Namespace) -> int:
    from ..experiments import bench

    if args.whole:
        figures = bench.whole_run_figures(args.whole)
    elif args.solve:
        figures = bench.solve_figures(args.solve)
    elif args.compile:
        measured = bench.compile_costs()
        figures = {"measured": measured, "break_even_games": bench.compile_thresholds()}
    elif args.memory:
        figures = bench.memory_figures()
    elif args.thesis:
        figures = bench.thesis_figures()
    else:
        figures = bench.run_benchmarks(games=args.games)
    if not emit_json(args.json, figures):
        _print(figures)
    return 0


def _print(figures: dict, indent: str = "") -> None:
    for k, v in figures.items():
        if isinstance(v, dict):
            print(f"{indent}{k}")
            _print(v, indent + "  ")
        else:
            label = f"{indent}{k}"
            print(f"{label:<28} {v:,.3f}" if isinstance(v, float) else f"{label:<28} {v}")
