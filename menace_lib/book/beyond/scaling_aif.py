"""The Instrumental AIF agent on Connect-4 4×4: exact learning curves against the perfect player.

The scaling chapter measures how MENACE's bead rule scales (:mod:`menace_lib.book.beyond.scaling`);
this module runs the thesis's Instrumental Active Inference agent on the same board, with
the same boxes (left–right symmetry, positions with a choice), side (first) and opponent
(the perfect player, uniform among its best moves), at the same checkpoints, and records
its exact chance of not losing at each (:func:`menace_lib.play.evaluation.exact_outcome`: no
sampling). Seeds are those of the chapter's sweep (0, 1, ...).

The runs take minutes with the compiled training (``pip install menace_lib[fast]``, see
:mod:`menace_lib.agents.aif._kernel`) and hours without it; the chapter reads the cache that
``python scripts/make_scaling_aif.py`` writes.
"""

from __future__ import annotations

from typing import Any

import numpy as np

from ...agents.aif import InstrumentalAIF
from ...base.files import book_data
from ...play.evaluation import exact_outcome
from ...play.opponents import make_opponent
from .scaling import BUDGETS, GAMES, THRESHOLDS, checkpoints

GAME = "connect4:4x4"
SETTINGS = {"game": GAME, **GAMES[GAME]}
"""The agent's game, boxes and side: MENACE's in the scaling sweep."""
CACHE = book_data("beyond_scaling_aif.json")

__all__ = ["CACHE", "GAME", "SETTINGS", "aif_curves", "run_one"]


def run_one(
    seed: int, budget: int = BUDGETS[GAME], tie_break: str = "uniform", stop: int | None = None
) -> dict[str, Any]:
    """Train one Instrumental AIF agent from ``seed`` and record its exact curve.

    ``stop`` ends the run at the last checkpoint not beyond it (a slice of the full
    run, for checking a cache).

    Returns
    -------
    dict
        ``games`` (the checkpoints), ``not_losing`` at each, ``games_to_90`` and
        ``games_to_99`` (the first checkpoint at or above, or ``None``).
    """
    agent = InstrumentalAIF(**SETTINGS)
    opponent = make_opponent("perfect", tie_break, game=GAME)
    rng = np.random.default_rng(seed)
    games = [g for g in checkpoints(budget) if stop is None or g <= stop]
    curve, trained = [], 0
    for g in games:
        if g > trained:
            agent.train_against(opponent, g - trained, rng, record=False)
            trained = g
        curve.append(1.0 - exact_outcome(agent, opponent)["loss"])
    record: dict[str, Any] = {"seed": seed, "games": games, "not_losing": curve}
    for t in THRESHOLDS:
        record[f"games_to_{round(100 * t)}"] = next(
            (g for g, v in zip(games, curve, strict=True) if v >= t), None
        )
    return record


def aif_curves(seeds: int = 8, budget: int = BUDGETS[GAME]) -> dict[str, Any]:
    """:func:`run_one` for seeds ``0 .. seeds-1`` (what the chapter's cache holds)."""
    return {
        "game": GAME,
        "settings": SETTINGS,
        "budget": budget,
        "seeds": seeds,
        "runs": [run_one(seed, budget) for seed in range(seeds)],
    }
