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

from ...base.limits import evaluation_work
from ...experiments.sweep import Sweep
from ...games.registry import game_tables
from ...machine.menace import Menace, MenaceConfig
from ...play.evaluation import exact_outcome
from ...play.opponents import make_opponent

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

POSITIONS = {
    "noughts-and-crosses": 5478,
    "hexapawn": 135,
    "connect4:4x4": 161_029,
    "connect4:5x4": 3_945_711,
}
"""Positions of each game (``game_tables(game).n_positions``; a test checks them), so a
run's cost is known before any table is built."""

BUDGET_SCALE_RANGE = (1e-3, 1e3)
"""``budget_scale`` from a thousandth (every game still trains at least two games) to a
thousand times the budgets; the work budget refuses most of the top of the range."""

SCHEDULES = {"4-3-2-1": (4, 3, 2, 1), "flat-1": (1,), "flat-8": (8,)}
THRESHOLDS = (0.9, 0.99)
CONDITIONS = (
    *(f"{g}/{s}" for g in GAMES if g != "connect4:5x4" for s in SCHEDULES),
    "connect4:5x4/4-3-2-1",
)
"""Every game with every schedule, except that 5×4 (a minute of CPU a run, mostly its
exact evaluations) runs Michie's schedule only."""


def checkpoints(budget: int, per_decade: int = 5) -> list[int]:
    """0, then games spaced evenly on a log scale up to ``budget`` (distinct integers)."""
    decades = np.log10(budget)
    # At most budget + 1 distinct integers exist: a huge per_decade asks for no more.
    count = min(int(decades * per_decade) + 1, budget + 1)
    points = np.unique(np.round(np.logspace(0, decades, count)))
    return [0, *[int(p) for p in points if p <= budget]]


def budget(options: dict[str, Any], game: str, budgets: dict[str, int] | None = None) -> int:
    """Training games of one run on ``game``: its budget times ``budget_scale`` (at least 1)."""
    return max(1, int(options["budget_scale"] * (budgets or BUDGETS)[game]))


def estimate(options: dict[str, Any], condition: str) -> tuple[int, int]:
    """(games, exact evaluations) of one run of ``condition``, an evaluation of a big game
    counted by its positions (:func:`menace_lib.base.limits.evaluation_work`)."""
    game = condition.split("/")[0]
    games = budget(options, game)
    return games, len(checkpoints(games)) * evaluation_work(POSITIONS[game])


def machine(game: str, schedule: str) -> Menace:
    """An untrained MENACE for ``game`` with one of :data:`SCHEDULES`."""
    return Menace(MenaceConfig(game=game, schedule=SCHEDULES[schedule], **GAMES[game]))


def not_losing(agent: Menace, opponent) -> float:
    """Exact probability that a frozen copy of ``agent`` draws or wins."""
    return 1.0 - exact_outcome(agent.frozen_copy(), opponent)["loss"]


def exact_curve(
    game: str, schedule: str, seed: int, games: list[int], tie_break: str = "uniform"
) -> list[float]:
    """Exact not-losing probability after each of ``games`` (increasing) training games."""
    agent = machine(game, schedule)
    opponent = make_opponent("perfect", tie_break, game=game)
    return train_and_score(agent, opponent, np.random.default_rng(seed), games)


def train_and_score(agent, opponent, rng: np.random.Generator, games: list[int]) -> list[float]:
    """Train ``agent`` against ``opponent`` up to each of ``games`` (increasing) and score its
    frozen copy exactly there: its not-losing probability at each checkpoint."""
    curve, trained = [], 0
    for g in games:
        if g > trained:
            agent.train_against(opponent, g - trained, rng, record=False)
            trained = g
        curve.append(not_losing(agent, opponent))
    return curve


def run_one(condition: str, seed: int, options: dict[str, Any]) -> dict[str, Any]:
    """Train one machine from ``seed`` and record its exact learning curve."""
    game, schedule = condition.split("/")
    games = checkpoints(budget(options, game))
    curve = exact_curve(game, schedule, seed, games, options["tie_break"])
    record: dict[str, Any] = {"games": games, "not_losing": curve}
    for t in THRESHOLDS:
        hit = next((g for g, v in zip(games, curve, strict=True) if v >= t), None)
        record[f"games_to_{round(100 * t)}"] = hit
    record["final_not_losing"] = curve[-1]
    return record


POSITIONS_7X6 = 4_531_985_219_092
"""Every position of the standard 7×6 board (OEIS A212693's total)."""

SCROGGS_RADIUS_M = 302
"""Scroggs' ball of matchboxes for every 7×6 position, in metres (a radius)."""

FIT_GAMES = ("noughts-and-crosses", "connect4:4x4", "connect4:5x4")
"""The games the extrapolation's power law is fitted on (Michie's schedule on each)."""


def power_law(boxes: list[float], games: list[float]) -> tuple[float, float]:
    """Least-squares fit of ``games = a * boxes ** b`` on log scales; returns ``(a, b)``."""
    b, log_a = np.polyfit(np.log(boxes), np.log(games), 1)
    return float(np.exp(log_a)), float(b)


def _bracket(records: list[dict[str, Any]]) -> tuple[float, float]:
    """Mean over seeds of the last checkpoint below 99 % and the first at or above it."""
    low, high = [], []
    for r in records:
        hit = r["games_to_99"]
        if hit is None:
            raise ValueError(f"seed {r['seed']} of {r['condition']} never reached 99 %")
        i = r["games"].index(hit)
        low.append(r["games"][max(i - 1, 0)])
        high.append(hit)
    return float(np.mean(low)), float(np.mean(high))


def extrapolate(records: list[dict[str, Any]], sizes: list[dict[str, Any]]) -> dict[str, Any]:
    """Games, years and matchbox ball of a 7×6 MENACE, from the sweep's Michie runs.

    The power law ``games = a · boxes^b`` is fitted on :data:`FIT_GAMES`, each board's
    games to 99 % not losing averaged over seeds. On the largest board every seed crosses
    99 % between the same two checkpoints, so its mean has no spread to average over and
    is known only to lie between them: the fit is made twice, on the lower and on the
    upper checkpoint, and the answer is a range. ``low`` and ``high`` each give that
    board's games, ``b``, the extrapolated ``games`` and ``years`` (at one game a minute,
    day and night). ``boxes`` carries the largest board's share of boxes per position
    over to 7×6.
    """
    boxes = {s["game"]: s["boxes"] for s in sizes}
    positions = {s["game"]: s["positions"] for s in sizes}
    largest = FIT_GAMES[-1]
    share = boxes[largest] / positions[largest]
    boxes_7x6 = share * POSITIONS_7X6
    runs = {g: [r for r in records if r["condition"] == f"{g}/4-3-2-1"] for g in FIT_GAMES}
    mean = {g: _bracket(runs[g])[1] for g in FIT_GAMES}
    out: dict[str, Any] = {
        "boxes": boxes_7x6,
        "radius_m": SCROGGS_RADIUS_M * (boxes_7x6 / POSITIONS_7X6) ** (1 / 3),
        "fitted_on": list(FIT_GAMES),
    }
    for end, k in (("low", 0), ("high", 1)):
        games = {**mean, largest: _bracket(runs[largest])[k]}
        a, b = power_law([boxes[g] for g in FIT_GAMES], [games[g] for g in FIT_GAMES])
        total = a * boxes_7x6**b
        out[end] = {
            "largest_games": games[largest],
            "b": b,
            "games": total,
            "years": total / (60 * 24 * 365.25),
        }
    return out


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
    ranges={"budget_scale": BUDGET_SCALE_RANGE},
    estimate=estimate,
    question=(
        "How many games does MENACE need to stop losing as the game grows, from noughts "
        "and crosses to Connect-4 on 5x4? (thesis §11.6.2)"
    ),
)


# --- beyond enumeration: boxes made on first visit ----------------------------------------

OPEN_BOARDS = ("6x5", "6x6", "7x6")


def open_growth(
    board: str = "7x6", games: int = 2_000, every: int = 250, seed: int = 0, eval_games: int = 200
) -> dict[str, Any]:
    """Boxes made, and the sampled results, as MENACE trains on a board too big to tabulate.

    MENACE (Michie's schedule, box restock) plays first against the one-ply "win or block"
    player; after every ``every`` games a frozen copy plays ``eval_games`` games against
    it (Wilson 95 % intervals). Returns the checkpoints, the boxes made so far and the
    not-losing rate with its interval.
    """
    from ...agents.open_menace import OpenMenace, sampled_outcome, train_open, win_or_block
    from ...games.connect4 import ConnectFour

    width, height = (int(x) for x in board.split("x"))
    agent = OpenMenace(ConnectFour(width, height))
    rng = np.random.default_rng(seed)
    out: dict[str, Any] = {"board": board, "games": [], "boxes": [], "not_losing": []}
    trained = 0
    for g in range(0, games + 1, every):
        train_open(agent, win_or_block, g - trained, rng)
        trained = g
        check = sampled_outcome(agent, win_or_block, eval_games, np.random.default_rng(seed + g))
        loss = check["loss"]
        out["games"].append(g)
        out["boxes"].append(len(agent.index))
        out["not_losing"].append([1 - loss["rate"], 1 - loss["high"], 1 - loss["low"]])
    return out


def open_growth_all(games: int = 20_000, every: int = 2_000, eval_games: int = 400) -> dict:
    """:func:`open_growth` on every board of :data:`OPEN_BOARDS` (the chapter's cache)."""
    runs = [open_growth(b, games, every, 0, eval_games) for b in OPEN_BOARDS]
    return {
        "format": "menace_lib.scaling-open",
        "settings": {"games": games, "every": every, "eval_games": eval_games, "seed": 0},
        "runs": runs,
        "sizes": sizes(),
    }
