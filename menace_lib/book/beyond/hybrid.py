"""Search with bead priors (thesis §11.6.3): does a trained MENACE play better inside a search?

MENACE learns Connect-4 on the 4×4 board, playing first against the perfect player with
uniform tie-breaks (the project's defaults for Connect-4), and tallies the outcome of every
training game at every position it passed through (:class:`~menace_lib.agents.search.
OutcomeCounts`). At each checkpoint its beads and counts are frozen and each searcher of
:data:`menace_lib.agents.search.ARMS` plays at each budget of simulations a move against
the same perfect player.

A condition is ``GAME/ARM``; every arm of a seed trains the same machine (the training
depends on the seed alone), so arms are compared on common random numbers. A record
holds, per checkpoint and budget, the loss probability -- exact for MENACE alone,
greedy beads and the two PUCT searchers, the rate over ``sampled_games`` games (seeded
from the seed, checkpoint and budget) for UCT and Thompson sampling (:data:`SCORING`).
MENACE alone and greedy beads do not search: their one column is budget 0. The sampled
arms cost far more than the exact ones (hundreds of games, each a search at every move),
so they are scored at the ``sampled_checkpoints`` only (by default the headline, 3,000
games); UCT reads nothing MENACE learnt (a flat prior, random rollouts), so its one score
stands for every checkpoint.

``python -m menace_lib experiment hybrid --seeds 8 --json book/data/hybrid_search.json``
regenerates the book's cache.
"""

from __future__ import annotations

from typing import Any

import numpy as np

from ...agents.search import (
    ARMS,
    DETERMINISTIC_ARMS,
    OutcomeCounts,
    arm_outcome,
    check_budget,
    train_counting,
)
from ...base.limits import (
    EXACT_EVALUATION_WORK,
    MAX_GAMES,
    MAX_TABLE_CELLS,
    SECONDS_PER_WORK,
    check_count,
)
from ...experiments.sweep import Sweep
from ...games.registry import game_cells
from ...machine.menace import Menace, MenaceConfig
from ...play.opponents import make_opponent

GAMES = ("connect4:4x4",)
"""The boards the sweep runs (5×4's cost is stated in the chapter: see :data:`POSITIONS`)."""
POSITIONS = {"connect4:4x4": 161_029, "connect4:5x4": 3_945_711}
"""Positions per board, for the cost estimate (a test checks them)."""
CHECKPOINTS = [0, 1_000, 3_000, 10_000, 30_000]
BUDGETS = [0, 4, 16, 64, 256]
HEADLINE = 3_000
"""The checkpoint whose losses are the sweep's summary metrics."""
SCORING = {arm: "exact" if arm in (*DETERMINISTIC_ARMS, "menace") else "sampled" for arm in ARMS}
"""How each arm is scored."""
NO_SEARCH = ("menace", "greedy")
UNTRAINED = ("uct",)
"""Arms that read nothing MENACE learnt: scored once, at the first checkpoint."""
CHUNK = 1_000
"""Training games per chunk (the outcome counts are read after each)."""
SECONDS_PER_SIMULATION = {"exact": 2e-6, "sampled": 1.2e-5}
"""Measured CPU seconds per simulation on 4×4 (an exact evaluation searches about 1,000
positions once each; a sampled game searches about 7): the cost estimate's constants."""
SEARCHED_POSITIONS = 1_000
MOVES_A_GAME = 7

CONDITIONS = tuple(f"{g}/{arm}" for g in GAMES for arm in ARMS)


def check_game(game: str) -> str:
    """``game`` if it has a perfect player and a table of positions, else a one-line error.

    Examples
    --------
    >>> check_game("connect4:4x4")
    'connect4:4x4'
    """
    cells = game_cells(game)
    if cells > MAX_TABLE_CELLS:
        raise ValueError(
            f"game {game}: no perfect player (its {cells} cells are over the "
            f"{MAX_TABLE_CELLS} a solved table allows)"
        )
    return game


def check_options(options: dict[str, Any]) -> tuple[list[int], list[int], int]:
    """The checkpoints, budgets and sampled games of ``options``, each checked."""
    points = [check_count("hybrid checkpoint", g, MAX_GAMES) for g in options["checkpoints"]]
    budgets = [check_budget(b) for b in options["budgets"]]
    off = [g for g in points if g % CHUNK]
    if off:
        raise ValueError(
            f"hybrid checkpoints {off}: expected multiples of {CHUNK:,} training games"
        )
    if not points or points != sorted(set(points)):
        raise ValueError(f"hybrid checkpoints {points}: expected distinct games in rising order")
    if not budgets or budgets != sorted(set(budgets)):
        raise ValueError(f"hybrid budgets {budgets}: expected distinct budgets in rising order")
    games = check_count("hybrid sampled_games", options["sampled_games"], MAX_GAMES, minimum=1)
    extra = sorted(set(options["sampled_checkpoints"]) - set(points), key=str)
    if extra:
        raise ValueError(f"hybrid sampled_checkpoints {extra}: not among the checkpoints {points}")
    return points, budgets, games


def estimate(options: dict[str, Any], condition: str) -> tuple[int, int]:
    """(training games, exact evaluations) of one run: the searches' seconds from
    :data:`SECONDS_PER_SIMULATION`, counted as exact evaluations of noughts and crosses
    (the cost line's unit, :func:`menace_lib.base.limits.check_work`)."""
    game, arm = condition.split("/")
    check_game(game)
    points, budgets, games = check_options(options)
    scale = POSITIONS.get(game, POSITIONS["connect4:4x4"]) / POSITIONS["connect4:4x4"]
    if arm in NO_SEARCH:
        seconds = len(points) * 0.5 * scale
    elif SCORING[arm] == "exact":
        sims = sum(budgets) * SEARCHED_POSITIONS * len(points)
        seconds = len(points) * len(budgets) * 0.1 * scale + sims * SECONDS_PER_SIMULATION["exact"]
    else:
        sampled_at = [g for g in points if g in options["sampled_checkpoints"]]
        runs = min(1, len(sampled_at)) if arm in UNTRAINED else len(sampled_at)
        sims = sum(budgets) * games * MOVES_A_GAME * runs
        seconds = sims * SECONDS_PER_SIMULATION["sampled"]
    return max(points), round(seconds / (SECONDS_PER_WORK * EXACT_EVALUATION_WORK))


def machine(game: str) -> Menace:
    """The untrained learner: Michie's schedule, one box per canonical position with a
    choice, playing first (as in the scaling chapter)."""
    return Menace(MenaceConfig(game=game, schedule=(4, 3, 2, 1), filter="decision", player=1))


KEPT_SEEDS = 8
"""Seeds whose trained copies a process keeps (a sweep runs each arm over the seeds)."""
_TRAINED: dict[tuple[str, int, str], dict[str, Any]] = {}
"""Per (game, seed, tie-break) of this process: the machine as far as it was trained,
and frozen copies at the games asked for, so the arms of one seed train it once."""


def trained_machine(
    game: str, seed: int, games: int, tie_break: str = "uniform"
) -> tuple[Menace, OutcomeCounts]:
    """The machine of ``seed`` after ``games`` training games, with its outcome counts.

    Training is seeded by ``seed`` alone and played in chunks that end at multiples of
    :data:`CHUNK` games. MENACE draws its random numbers in blocks per chunk, so the
    machine after ``games`` games is the same whether it is trained there at once or
    on the way to more when the stops on the way are multiples of :data:`CHUNK` (the
    sweep's checkpoints must be). Copies are kept per process for the last
    :data:`KEPT_SEEDS` seeds asked for (memory stays flat in the number of games).

    Examples
    --------
    >>> agent, counts = trained_machine("connect4:4x4", 0, 10)
    >>> agent.games_trained, int(counts.counts[0].sum())
    (10, 10)
    """
    key = (game, seed, tie_break)
    if key not in _TRAINED:
        if len(_TRAINED) >= KEPT_SEEDS:
            _TRAINED.pop(next(iter(_TRAINED)))  # the oldest
        _TRAINED[key] = {
            "agent": machine(game),
            "counts": OutcomeCounts(game),
            "rng": np.random.default_rng(seed),
            "trained": 0,
            "copies": {},
        }
    state = _TRAINED[key]
    if games not in state["copies"]:
        if games < state["trained"]:  # behind the live machine: train a fresh one there
            _TRAINED.pop(key)
            return trained_machine(game, seed, games, tie_break)
        opponent = make_opponent("perfect", tie_break, game=game)
        while state["trained"] < games:  # chunks end at multiples of CHUNK, whatever the path
            step = min(CHUNK - state["trained"] % CHUNK, games - state["trained"])
            train_counting(
                state["agent"], opponent, step, state["rng"], state["counts"], chunk=CHUNK
            )
            state["trained"] += step
        counts = OutcomeCounts(game)
        counts.counts = state["counts"].counts.copy()
        state["copies"][games] = (state["agent"].frozen_copy(), counts)
    return state["copies"][games]


def eval_seed(seed: int, games: int, budget: int) -> int:
    """The sampled games' seed, from the run's seed, the checkpoint and the budget."""
    return int(np.random.SeedSequence([seed, games, budget]).generate_state(1)[0] >> 1)


def run_one(condition: str, seed: int, options: dict[str, Any]) -> dict[str, Any]:
    """Train one machine from ``seed``; score ``condition``'s arm at every checkpoint.

    Returns the checkpoints, the budgets and per checkpoint and budget the loss (and
    draw) probability against the perfect player, with the scoring it had.
    """
    game, arm = condition.split("/")
    check_game(game)
    points, budgets, sampled_games = check_options(options)
    if arm in NO_SEARCH:
        budgets = [0]
    if SCORING[arm] == "sampled":
        points = [g for g in points if g in options["sampled_checkpoints"]]
    if arm in UNTRAINED:
        points = points[:1]  # it reads neither beads nor counts: training cannot change it
    opponent = make_opponent("perfect", options["tie_break"], game=game)
    loss: list[list[float]] = []
    draw: list[list[float]] = []
    for g in points:
        agent, counts = trained_machine(game, seed, g, options["tie_break"])
        row = [
            arm_outcome(
                arm, agent, counts, opponent, b, games=sampled_games, seed=eval_seed(seed, g, b)
            )
            for b in budgets
        ]
        loss.append([r["loss"] for r in row])
        draw.append([r["draw"] for r in row])
    record: dict[str, Any] = {
        "scored": SCORING[arm],
        "checkpoints": points,
        "budgets": budgets,
        "loss": loss,
        "draw": draw,
    }
    for b in BUDGETS:
        key = f"loss_{HEADLINE}g_{b}sims"
        at = 0 if arm in UNTRAINED else (points.index(HEADLINE) if HEADLINE in points else None)
        at = at if points else None
        ok = at is not None and b in budgets
        record[key] = loss[at][budgets.index(b)] if ok else None
    return record


SWEEP = Sweep(
    name="hybrid",
    conditions=CONDITIONS,
    run_one=run_one,
    metrics=tuple(f"loss_{HEADLINE}g_{b}sims" for b in BUDGETS),
    options={
        "checkpoints": CHECKPOINTS,
        "budgets": BUDGETS,
        "sampled_games": 400,
        "sampled_checkpoints": [HEADLINE],
        "tie_break": "uniform",
    },
    estimate=estimate,
    question=(
        "Does a trained MENACE play Connect-4 better inside a tree search that reads its "
        "beads as priors and its outcome counts as values? (thesis §11.6.3)"
    ),
)


def coverage(game: str = "connect4:4x4", seed: int = 0, games: int = HEADLINE) -> dict[str, Any]:
    """Where the learned values exist: how many positions MENACE's training games reached.

    Returns the positions of the game, those reachable when MENACE may play any move and
    the perfect player replies as it does, how many of those have outcome counts after
    ``games`` training games of ``seed``, and the mean learned value over them (an
    unreached position is worth 0).

    Examples
    --------
    >>> c = coverage(games=100)
    >>> c["with_counts"] < c["reachable"] < c["positions"]
    True
    """
    from ...games.game import ONGOING
    from ...games.registry import game_tables

    check_game(game)
    T = game_tables(game)
    _, counts = trained_machine(game, seed, games)
    support = make_opponent("perfect", "uniform", game=game).distribution() > 0
    mine = T.player == machine(game).player
    moves = np.where(mine[:, None], T.succ >= 0, support) & (T.outcome == ONGOING)[:, None]
    reached = np.zeros(T.n_positions, dtype=bool)
    reached[0] = True
    for p in range(int(T.ply.max()) + 1):
        ids = np.flatnonzero(reached & (T.ply == p))
        reached[T.succ[ids][moves[ids]]] = True
    seen = counts.counts.sum(axis=1) > 0
    values = counts.values()
    return {
        "positions": int(T.n_positions),
        "reachable": int(reached.sum()),
        "with_counts": int((seen & reached).sum()),
        "mean_value": float(values[seen].mean()),
        "negative": int((values[seen] < 0).sum()),
    }
