"""Connect-4 on 4×4: how many games MENACE needs to stop losing, over many fresh seeds.

The scaling sweep (:mod:`menace_lib.book.beyond.scaling`) trains eight seeds (0-7) and
evaluates on a log scale, so its "games to 99 % not losing" can only be one of its
checkpoints (11,406, 18,196, 29,029, ...). :func:`stress_runs` trains Michie's machine
against the perfect player (random tie-breaks) on seeds no earlier run has seen
(:data:`STRESS_SEEDS`) and evaluates it exactly every :data:`EVERY` games, plus at the
sweep's own checkpoints up to the budget, so the distribution of the first game at
which the machine draws or wins at least 99 % of the time is read at that resolution
and can be set against the sweep's "by 18,196".
"""

from __future__ import annotations

from typing import Any

from ..beyond.scaling import BUDGETS, checkpoints, exact_curve

__all__ = ["BOARD", "EVERY", "GAMES", "STRESS_SEEDS", "THRESHOLD", "first_reach", "stress_runs"]

BOARD = "connect4:4x4"
SCHEDULE = "4-3-2-1"
STRESS_SEEDS = tuple(range(100, 132))
"""32 seeds disjoint from the sweep's 0-7 (and from every tuning range, 1000 up)."""
GAMES = 60_000
"""Training games per seed: three times the sweep's 18,196, past which its seeds all stood."""
EVERY = 500
THRESHOLD = 0.99


def stress_checkpoints(games: int = GAMES, every: int = EVERY) -> list[int]:
    """Every ``every`` games up to ``games``, with the sweep's log checkpoints in that range."""
    if games < 1 or every < 1:
        raise ValueError(f"games and every must be at least 1, got {games!r} and {every!r}")
    grid = set(range(0, games + 1, every)) | {games}
    grid |= {c for c in checkpoints(BUDGETS[BOARD]) if c <= games}
    return sorted(grid)


def first_reach(games: list[int], curve: list[float], threshold: float = THRESHOLD) -> int | None:
    """The first checkpoint at which ``curve`` reaches ``threshold`` (None: never)."""
    return next((g for g, v in zip(games, curve, strict=True) if v >= threshold), None)


def stress_runs(
    seeds: tuple[int, ...] = STRESS_SEEDS, games: int = GAMES, every: int = EVERY
) -> dict[str, Any]:
    """Exact learning curves of Michie's machine on 4×4 against the perfect player, one per seed.

    About 10 CPU-seconds a seed at the defaults (measured: training costs ~0.1 ms a game,
    an exact evaluation ~0.05 s).
    """
    marks = stress_checkpoints(games, every)
    runs = []
    for seed in seeds:
        curve = exact_curve(BOARD, SCHEDULE, seed, marks)
        runs.append(
            {"seed": int(seed), "not_losing": curve, "games_to_99": first_reach(marks, curve)}
        )
    return {
        "format": "menace_lib.claims.stress",
        "version": 1,
        "board": BOARD,
        "schedule": SCHEDULE,
        "opponent": "perfect, uniform tie-breaks",
        "threshold": THRESHOLD,
        "games": marks,
        "runs": runs,
    }
