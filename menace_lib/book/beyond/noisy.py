"""MENACE through noisy eyes (the observation model the thesis says MENACE lacks): the
``noisy`` sweep.

Every cell of the board is misread with probability eps (shown as one of the other two
symbols, equally likely); :mod:`menace_lib.agents.noisy` defines the model, the three
observers (``naive``: the box of the board as read; ``uniform`` and ``reach``: Bayes with a
uniform or a reach prior over the positions of the ply) and their exact policies.

Conditions
----------
``perfect``
    The perfect player (uniform over its optimal moves) read by each observer: no
    training, the same numbers on every seed.
``train-E``
    MENACE (Michie's boxes, the library's default machine) trained for ``games`` games
    against the perfect player while reading the board with noise ``E``
    (:data:`TRAIN_EPS`), every seed drawing the same random numbers.

Each run is scored **exactly** against the perfect player (``tie_break``, which also
trains MENACE and defines the reach prior) at every eps of :data:`EVAL_EPS` by every
observer: the metric ``"naive@0.1"`` is the chance of losing at eps = 0.1 read by the
naive observer. The ``perfect`` and ``train-0`` runs also store the loss over the finer
grid ``curve_eps`` (the chapter's figure).

Learning through noisy eyes is the ``train-E`` machine read naively at eps = E;
inferring through them is the ``train-0`` machine read by Bayes at the same eps.

Examples
--------
>>> from menace_lib.book.beyond import get_sweep
>>> sweep = get_sweep("noisy")
>>> sweep.conditions[:2], "reach@0.1" in sweep.metrics
(('perfect', 'train-0'), True)
"""

from __future__ import annotations

from collections.abc import Mapping
from functools import lru_cache
from typing import Any

import numpy as np

from ...agents import noisy
from ...base.confidence import mean_ci
from ...base.limits import MAX_GAMES, check_count
from ...experiments.sweep import Sweep, SweepResult
from ...machine.menace import Menace
from ...play.opponents import TIE_BREAKS, make_opponent

__all__ = [
    "CONDITIONS",
    "EVAL_EPS",
    "METRICS",
    "OBSERVERS",
    "SWEEP",
    "TRAIN_EPS",
    "admit",
    "curve",
    "learn_minus_infer",
    "learn_vs_infer",
    "metric",
    "run_one",
]

OBSERVERS = noisy.OBSERVERS
TRAIN_EPS = (0.0, 0.05, 0.1, 0.2)
"""Misreading rates MENACE trains at."""
EVAL_EPS = (0.0, 0.05, 0.1, 0.2)
"""Misreading rates every run is scored at."""
CONDITIONS = ("perfect", *(f"train-{e:g}" for e in TRAIN_EPS))
CURVE_EPS = [round(0.02 * i, 2) for i in range(11)]
NOISY_EVALUATION_WORK = 50
"""Exact evaluations of noughts and crosses that one noisy evaluation (one observer at
one eps: the policy over 19,683 readings, then the pass) costs, roughly."""
NOISY_GAME_WORK = 4
"""Game-equivalents of one training game through noisy eyes (a reading per move)."""
_DIGITS = 12


def metric(observer: str, eps: float) -> str:
    """The metric name of an observer's loss at eps, e.g. ``"naive@0.1"``."""
    return f"{observer}@{eps:g}"


METRICS = tuple(metric(o, e) for e in EVAL_EPS for o in OBSERVERS)


def train_eps(condition: str) -> float | None:
    """The training noise of a condition (``None`` for ``perfect``); ValueError if unknown."""
    if condition not in CONDITIONS:
        raise ValueError(f"unknown condition {condition!r}; choose one of {CONDITIONS}")
    return None if condition == "perfect" else float(condition.split("-", 1)[1])


def admit(options: Mapping[str, Any]) -> None:
    """The options' own checks: every rate of ``curve_eps`` in [0, 1), a known tie-break."""
    grid = options["curve_eps"]
    if not 1 <= len(grid) <= 101:
        raise ValueError(f"noisy option curve_eps: 1 to 101 rates, got {len(grid)}")
    for e in grid:
        noisy.check_eps(e, "noisy option curve_eps: eps")
    if options["tie_break"] not in TIE_BREAKS:
        raise ValueError(
            f"noisy option tie_break: {options['tie_break']!r}; choose one of {TIE_BREAKS}"
        )
    check_count("noisy option games", options["games"], MAX_GAMES, minimum=1)


def _losses(policy: noisy.PolicySource, grid, tie_break: str) -> dict[str, list[float]]:
    opp = make_opponent("perfect", tie_break)
    return {
        o: [round(noisy.noisy_outcome(policy, e, o, opp)["loss"], _DIGITS) for e in grid]
        for o in OBSERVERS
    }


@lru_cache(maxsize=4)
def _perfect_losses(grid: tuple[float, ...], tie_break: str) -> dict[str, list[float]]:
    return _losses(noisy.perfect_policy("uniform"), grid, tie_break)


def run_one(condition: str, seed: int, options: Mapping[str, Any]) -> dict[str, Any]:
    """One run (see the module docstring): its exact losses, and its curves where kept."""
    admit(options)
    eps_train = train_eps(condition)
    tie_break = options["tie_break"]
    grid = tuple(float(e) for e in options["curve_eps"])
    record: dict[str, Any] = {}
    if eps_train is None:
        at = _perfect_losses(EVAL_EPS, tie_break)
        curves = _perfect_losses(grid, tie_break)
        record["clean_loss"] = 0.0
    else:
        agent = Menace()
        opp = make_opponent("perfect", tie_break)
        noisy.train_noisy(agent, opp, options["games"], eps_train, np.random.default_rng(seed))
        policy = noisy.menace_policy(agent)
        at = _losses(policy, EVAL_EPS, tie_break)
        curves = _losses(policy, grid, tie_break) if eps_train == 0 else None
        record["clean_loss"] = at["naive"][0]
    for o in OBSERVERS:
        for e, v in zip(EVAL_EPS, at[o], strict=True):
            record[metric(o, e)] = v
        record[f"curve_{o}"] = None if curves is None else curves[o]
    return record


def estimate(options: Mapping[str, Any], condition: str) -> tuple[int, int]:
    """(games, exact evaluations) of one run, noisy evaluations counted at their cost."""
    evaluations = len(EVAL_EPS) * len(OBSERVERS)
    if condition in ("perfect", "train-0"):
        evaluations += len(options["curve_eps"]) * len(OBSERVERS)
    games = 0 if condition == "perfect" else options["games"] * NOISY_GAME_WORK
    return games, evaluations * NOISY_EVALUATION_WORK


SWEEP = Sweep(
    name="noisy",
    conditions=CONDITIONS,
    run_one=run_one,
    metrics=METRICS,
    baseline="train-0",
    options={"games": 3000, "tie_break": "lowest", "curve_eps": CURVE_EPS},
    question=(
        "When each cell of the board is misread with probability eps, what does MENACE lose, "
        "and which buys more: learning through the noise or inferring through it?"
    ),
    estimate=estimate,
    admit=admit,
)


# --- read-outs of a result -------------------------------------------------------------


def curve(result: SweepResult, condition: str, observer: str) -> dict[str, np.ndarray]:
    """The loss over ``curve_eps`` of one condition and observer: mean, low and high over
    seeds (95% interval; the perfect player's is the same on every seed)."""
    rows = np.array(result.values(condition, f"curve_{observer}"), dtype=float)
    cis = [mean_ci(list(rows[:, j])) for j in range(rows.shape[1])]
    out = {"eps": np.array(result.config["options"]["curve_eps"], dtype=float)}
    for k in ("mean", "low", "high"):
        out[k] = np.array([np.nan if c[k] is None else c[k] for c in cis], dtype=float)
    return out


def learn_minus_infer(result: SweepResult, eps: float, observer: str = "reach") -> dict:
    """Per seed, the loss of learning through noise ``eps`` (trained at it, read naively)
    minus that of inferring through it (trained clean, read by ``observer``): the paired
    mean with its 95% interval (both arms share each seed)."""
    from ...base.confidence import paired_ci

    learn = {
        r["seed"]: r[metric("naive", eps)]
        for r in result.records
        if r["condition"] == f"train-{eps:g}"
    }
    infer = {
        r["seed"]: r[metric(observer, eps)] for r in result.records if r["condition"] == "train-0"
    }
    seeds = sorted(set(learn) & set(infer))
    return paired_ci([learn[s] for s in seeds], [infer[s] for s in seeds])


def learn_vs_infer(result: SweepResult) -> list[dict[str, Any]]:
    """Per eps of :data:`EVAL_EPS` above 0: the loss of learning through the noise (the
    machine trained at that eps, read naively), of inferring through it (the clean
    machine read by each Bayes observer), of the clean machine read naively, and of both
    (the noisy-trained machine read by the reach prior); seed means with 95% intervals."""
    rows = []
    for e in EVAL_EPS[1:]:
        cond = f"train-{e:g}"
        row: dict[str, Any] = {"eps": e}
        for key, c, o in (
            ("clean, naive", "train-0", "naive"),
            ("learn (trained at ε), naive", cond, "naive"),
            ("infer (trained clean), uniform", "train-0", "uniform"),
            ("infer (trained clean), reach", "train-0", "reach"),
            ("both (trained at ε), reach", cond, "reach"),
        ):
            row[key] = result.summary[c][metric(o, e)] if c in result.summary else None
        rows.append(row)
    return rows
