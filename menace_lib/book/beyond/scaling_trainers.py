"""Whom should a Connect-4 MENACE train against? (thesis §11.6.2, with Chapter 8's curricula)

The scaling chapter trains every machine against the perfect player. The thesis trains
MENACE on a curriculum instead (random, then defensive, then perfect: §8.4), and a class
would train it against itself or against people. Here the same MENACE (Michie's beads,
one box per canonical position with a choice) learns Connect-4 on 4×4 from three
trainers (on 5×4 a run takes minutes of CPU, most of it exact evaluations; add the board
to :data:`BOARDS` to run it):

* ``perfect``: the perfect player, tie-breaks at random;
* ``random``: a player who picks a legal column at random;
* ``mixed``: the thesis's 40/20/40 curriculum, with the one-ply "human-like" player
  (take a win, else avoid handing one over) in the defensive player's place, which only
  noughts and crosses has.

After each stretch of training the frozen machine is evaluated **exactly** against the
perfect player (its chance of not losing) and against the random player (its chance of
winning), so the curves carry no sampling noise.
"""

from __future__ import annotations

from typing import Any

import numpy as np

from ...base.limits import evaluation_work
from ...experiments.sweep import Sweep
from ...play.evaluation import exact_outcome
from ...play.opponents import make_opponent, mixed_split
from .scaling import BUDGET_SCALE_RANGE, POSITIONS, budget, checkpoints, machine

BOARDS = {"connect4:4x4": 100_000}
"""Training games per run on each board."""

TRAINERS = ("perfect", "random", "mixed")
CONDITIONS = tuple(f"{board}/{trainer}" for board in BOARDS for trainer in TRAINERS)


def blocks(trainer: str, games: int) -> list[tuple[str, int]]:
    """The trainer as ``(opponent, games)`` blocks, in the order they are played."""
    if trainer == "mixed":
        r, d, p = mixed_split(games)
        return [("random", r), ("human-like", d), ("perfect", p)]
    if trainer not in TRAINERS:
        raise ValueError(f"unknown trainer {trainer!r}; choose one of {TRAINERS}")
    return [(trainer, games)]


def _schedule(trainer: str, games: int) -> list[tuple[int, str]]:
    """The opponent of every training game, as block boundaries: ``[(end, name), ...]``."""
    out, end = [], 0
    for name, n in blocks(trainer, games):
        end += n
        out.append((end, name))
    return out


def run_one(condition: str, seed: int, options: dict[str, Any]) -> dict[str, Any]:
    """Train one machine from ``seed``; its exact rates against both players at checkpoints."""
    board, trainer = condition.split("/")
    agent = machine(board, "4-3-2-1")
    rng = np.random.default_rng(seed)
    games = budget(options, board, BOARDS)
    marks = checkpoints(games, int(options["per_decade"]))
    perfect = make_opponent("perfect", options["tie_break"], game=board)
    rand = make_opponent("random", game=board)
    bounds = _schedule(trainer, games)
    vs_perfect, vs_random, trained = [], [], 0
    for mark in marks:
        for end, name in bounds:  # train up to the mark, block by block
            if trained < min(end, mark):
                n = min(end, mark) - trained
                opponent = make_opponent(name, options["tie_break"], game=board)
                agent.train_against(opponent, n, rng, record=False)
                trained += n
        frozen = agent.frozen_copy()
        vs_perfect.append(1.0 - exact_outcome(frozen, perfect)["loss"])
        vs_random.append(exact_outcome(frozen, rand)["win"])
    hit = next((g for g, v in zip(marks, vs_perfect, strict=True) if v >= 0.9), None)
    return {
        "games": marks,
        "not_losing_vs_perfect": vs_perfect,
        "winning_vs_random": vs_random,
        "games_to_90": hit,
        "final_not_losing": vs_perfect[-1],
        "final_winning_vs_random": vs_random[-1],
    }


def estimate(options: dict[str, Any], condition: str) -> tuple[int, int]:
    """(games, exact evaluations) of one run: two evaluations (perfect and random
    players) at every mark."""
    board = condition.split("/")[0]
    games = budget(options, board, BOARDS)
    marks = len(checkpoints(games, int(options["per_decade"])))
    return games, 2 * marks * evaluation_work(POSITIONS[board])


SWEEP = Sweep(
    name="scaling-trainers",
    conditions=CONDITIONS,
    run_one=run_one,
    metrics=("games_to_90", "final_not_losing", "final_winning_vs_random"),
    baseline="connect4:4x4/perfect",
    options={"tie_break": "uniform", "budget_scale": 1.0, "per_decade": 3},
    ranges={"budget_scale": BUDGET_SCALE_RANGE},
    estimate=estimate,
    question=(
        "Against whom should a Connect-4 MENACE train: the perfect player, a random one, or "
        "the thesis's curriculum? (thesis §11.6.2, §8.4)"
    ),
)
