"""MENACE on Connect-4 5×5, trained and scored exactly against the perfect player (§11.6.2).

The scaling chapter's machines stop at 5×4, the largest board whose every position the
library tabulates. 5×5 has 69,763,700 positions, but a machine that trains against the
perfect player and is scored against it meets only the positions that player lets it
reach: the game :class:`~menace_lib.games.connect4_solve.AgainstPerfect` keeps those
(21,718,650), with the perfect player's moves narrowed to its tie-break set, so training
and exact evaluation there are training and exact evaluation on the whole board (a test
checks it on 4×4). The same MENACE as the chapter's (Michie's 4-3-2-1 beads, one box per
canonical position with a choice, playing first) learns it from each seed, and after each
stretch of training its frozen copy is evaluated exactly: its chance of not losing. 5×5 is
a draw under perfect play, so not losing is drawing.

What a run needs: the board's solution (cached on disk, about 6 CPU-minutes the first
time), the pruned game's tables (about 2.5 CPU-minutes), then per checkpoint one exact
evaluation of 21.7 million positions; all in one process under 8 GB. ``board`` is an
option so that a test runs the same code on 4×4, whose pruned game plays the very games of
the whole 4×4 board's sweep.
"""

from __future__ import annotations

import os
import resource
import time
from typing import Any

import numpy as np

from ...base.limits import evaluation_work
from ...experiments.sweep import Sweep
from ...games.connect4_solve import against_perfect
from ...machine.menace import Menace, MenaceConfig
from ...play.opponents import make_opponent
from .scaling import BUDGET_SCALE_RANGE, SCHEDULES, THRESHOLDS, checkpoints, train_and_score

BUDGET = 1_000_000
"""Training games per run (a 5×4 machine passes 99 % not-losing by about 74,000)."""

FIRST_MARK = 100
"""The first checkpoint after 0 games: below it an evaluation (the run's dear part) shows
nothing new, the machine having played too few games to change."""

POSITIONS = {"4x4": 97_684, "5x4": 1_524_411, "5x5": 21_718_650}
"""Positions of each board's game against the perfect player (a test checks them), so a
run's cost is known before anything is built."""

CONDITIONS = ("connect4:5x5/4-3-2-1",)


def marks(budget: int, per_decade: int) -> list[int]:
    """0, then checkpoints spaced on a log scale from :data:`FIRST_MARK` to ``budget``."""
    return [0, *[g for g in checkpoints(budget, per_decade)[1:] if g >= FIRST_MARK]]


def _board(options: dict[str, Any]) -> str:
    board = options["board"]
    if board not in POSITIONS:
        raise ValueError(f"board {board!r}: choose one of {sorted(POSITIONS)}")
    return board


def run_one(condition: str, seed: int, options: dict[str, Any]) -> dict[str, Any]:
    """Train one machine from ``seed`` on the board against the perfect player; its exact
    chance of not losing at every checkpoint, and what the process needed."""
    schedule = condition.split("/")[1]
    game = against_perfect(_board(options))
    agent = Menace(
        MenaceConfig(game=game, schedule=SCHEDULES[schedule], filter="decision", player=1)
    )
    opponent = make_opponent("perfect", options["tie_break"], game=game)
    rng = np.random.default_rng(seed)
    games = marks(max(1, int(options["budget_scale"] * BUDGET)), int(options["per_decade"]))
    curve = train_and_score(agent, opponent, rng, games)
    record: dict[str, Any] = {"games": games, "not_losing": curve}
    for t in THRESHOLDS:
        hit = next((g for g, v in zip(games, curve, strict=True) if v >= t), None)
        record[f"games_to_{round(100 * t)}"] = hit
    record["final_not_losing"] = curve[-1]
    record["positions"] = agent.tables.n_positions
    record["boxes"] = agent.n_boxes
    record["peak_mb"] = _peak_mb()
    record["process_cpu_s"] = time.process_time()
    return record


def _peak_mb() -> float:
    """This process's peak resident memory so far (``VmHWM``), in MB."""
    try:
        with open(f"/proc/{os.getpid()}/status", encoding="ascii") as f:
            kb = int(f.read().split("VmHWM:")[1].split()[0])
    except (OSError, IndexError, ValueError):
        kb = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss
    return kb / 1024


def estimate(options: dict[str, Any], condition: str) -> tuple[int, int]:
    """(games, exact evaluations) of one run, an evaluation counted by its positions;
    building the pruned tables is counted as two evaluations."""
    games = max(1, int(options["budget_scale"] * BUDGET))
    count = len(marks(games, int(options["per_decade"]))) + 2
    return games, count * evaluation_work(POSITIONS[_board(options)])


SWEEP = Sweep(
    name="scaling-5x5",
    conditions=CONDITIONS,
    run_one=run_one,
    metrics=("games_to_90", "games_to_99", "final_not_losing"),
    baseline="connect4:5x5/4-3-2-1",
    options={"tie_break": "uniform", "budget_scale": 1.0, "per_decade": 1, "board": "5x5"},
    ranges={"budget_scale": BUDGET_SCALE_RANGE},
    estimate=estimate,
    admit=_board,
    question=(
        "Does MENACE learn Connect-4 on 5×5 (21.7 million positions against the perfect "
        "player), and after how many games does it stop losing? (thesis §11.6.2)"
    ),
)
