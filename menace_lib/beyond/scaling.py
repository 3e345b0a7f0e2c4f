"""Does matchbox learning survive a bigger game? (thesis §11.6.2)

The same MENACE -- Michie's bead rules, one box per canonical position with a choice --
learns four games of growing size against the perfect player with random tie-breaks:
noughts and crosses, Hexapawn (HER's game, HER playing second), and Connect-4 on the
4×4 and 5×4 boards. Every game is small enough to solve exactly, so the learning curve
is the exact probability of *not losing* (a draw or a win) after each stretch of
training, with no sampling noise: under perfect play noughts and crosses and both small
Connect-4 boards are draws and Hexapawn is a win for the second player, so a machine
that has learnt the game never loses.

A condition is ``GAME/SCHEDULE``: the game and the initial beads per colour by the
machine's move number (Michie's ``4-3-2-1``, or a flat ``1`` or ``8``). Checkpoints are
spaced on a log scale up to each game's training budget (:data:`BUDGETS`).
"""

from __future__ import annotations

from typing import Any

import numpy as np

from ..evaluation import exact_outcome
from ..game_registry import game_tables
from ..menace import Menace, MenaceConfig
from ..opponents import make_opponent
from .sweep import Sweep

GAMES = {
    "noughts-and-crosses": {"filter": "michie", "player": 1},
    "hexapawn": {"filter": "decision", "player": 2},
    "connect4:4x4": {"filter": "decision", "player": 1},
    "connect4:5x4": {"filter": "decision", "player": 1},
}
"""Each game's machine: the boxes it gets and the side it plays (HER plays second)."""

BUDGETS = {
    "noughts-and-crosses": 10_000,
    "hexapawn": 2_000,
    "connect4:4x4": 300_000,
    "connect4:5x4": 300_000,
}
"""Training games per run: 30 to 100 times what Michie's schedule needs to pass
99 % not-losing, so a slow schedule's curve is seen to flatten, not cut off."""

SCHEDULES = {"4-3-2-1": (4, 3, 2, 1), "flat-1": (1,), "flat-8": (8,)}
THRESHOLDS = (0.9, 0.99)
CONDITIONS = tuple(f"{g}/{s}" for g in GAMES for s in SCHEDULES)


def checkpoints(budget: int, per_decade: int = 5) -> list[int]:
    """0, then games spaced evenly on a log scale up to ``budget`` (distinct integers)."""
    decades = np.log10(budget)
    points = np.unique(np.round(np.logspace(0, decades, int(decades * per_decade) + 1)))
    return [0, *[int(p) for p in points if p <= budget]]


def machine(game: str, schedule: str) -> Menace:
    """An untrained MENACE for ``game`` with one of :data:`SCHEDULES`."""
    return Menace(MenaceConfig(game=game, schedule=SCHEDULES[schedule], **GAMES[game]))


def not_losing(agent: Menace, opponent) -> float:
    """Exact probability that a frozen copy of ``agent`` draws or wins."""
    return 1.0 - exact_outcome(agent.frozen_copy(), opponent)["loss"]


def run_one(condition: str, seed: int, options: dict[str, Any]) -> dict[str, Any]:
    """Train one machine from ``seed`` and record its exact learning curve."""
    game, schedule = condition.split("/")
    agent = machine(game, schedule)
    opponent = make_opponent("perfect", options["tie_break"], game=game)
    rng = np.random.default_rng(seed)
    games = checkpoints(int(options["budget_scale"] * BUDGETS[game]))
    curve, trained = [], 0
    for g in games:
        if g > trained:
            agent.train_against(opponent, g - trained, rng, record=False)
            trained = g
        curve.append(not_losing(agent, opponent))
    record: dict[str, Any] = {"games": games, "not_losing": curve}
    for t in THRESHOLDS:
        hit = next((g for g, v in zip(games, curve, strict=True) if v >= t), None)
        record[f"games_to_{round(100 * t)}"] = hit
    record["final_not_losing"] = curve[-1]
    return record


def sizes() -> list[dict[str, Any]]:
    """Positions, boxes and beads of each game's machine (Michie's schedule)."""
    rows = []
    for game in GAMES:
        T = game_tables(game)
        agent = machine(game, "4-3-2-1")
        rows.append(
            {
                "game": game,
                "positions": T.n_positions,
                "boxes": len(agent.weights),
                "beads": float(sum(sum(w) for w in agent.weights)),
                "colours": sum(len(w) for w in agent.weights),
                "moves_longest_game": int(T.ply.max()),
            }
        )
    return rows


SWEEP = Sweep(
    name="scaling",
    conditions=CONDITIONS,
    run_one=run_one,
    metrics=("games_to_90", "games_to_99", "final_not_losing"),
    options={"tie_break": "uniform", "budget_scale": 1.0},
    question=(
        "How many games does MENACE need to stop losing as the game grows, from noughts "
        "and crosses to Connect-4 on 5x4? (thesis §11.6.2)"
    ),
)
