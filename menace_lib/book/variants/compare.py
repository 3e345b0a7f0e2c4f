"""The four matchbox machines side by side: what they are and how fast they learn.

:func:`machines_table` describes the thesis's MENACE, the blog chapter's pooled
self-play MENACE, the APL article's unsymmetrised MENACE and the blog post's
stochastic player, with box and bead counts computed from freshly built
machines. :func:`learning_curves` trains one of each in its source's setting
and evaluates it exactly against the perfect player at common checkpoints.
"""

from __future__ import annotations

from collections.abc import Sequence

import numpy as np

from ...agents.stochastic import StochasticPlayer, exact_outcome_stochastic, non_terminal_positions
from ...agents.unsymmetrised import ARTICLE_CONFIG, UnsymmetrisedMenace, train_unsymmetrised_against
from ...base.display import markdown_table  # noqa: F401 (re-exported for notebooks)
from ...games.board import X
from ...machine.menace import Menace, MenaceConfig
from ...play.evaluation import exact_outcome
from ...play.opponents import make_opponent
from ...play.selfplay import SELFPLAY_CONFIG, other_side, play_menace_vs_menace, selfplay_config

__all__ = ["CURVE_CHECKPOINTS", "learning_curves", "machines_table", "markdown_table"]

CURVE_CHECKPOINTS = (0, 10, 25, 50, 100, 200, 500, 1000, 2000, 5000, 12000)
"""Training games at which :func:`learning_curves` evaluates each machine."""


def _fmt(x: float) -> str:
    return f"{x:g}"


def machines_table() -> list[dict[str, str]]:
    """One row per machine: source, boxes, opening box, updates, empty boxes, prior knowledge."""
    thesis = Menace(MenaceConfig())
    pooled = Menace(SELFPLAY_CONFIG)
    pool_member = Menace(selfplay_config(other_side(X)))
    raw = UnsymmetrisedMenace(ARTICLE_CONFIG)
    lazy = StochasticPlayer()

    def updates(r: Sequence[float]) -> str:
        return " / ".join(f"{v:+g}" for v in r)

    return [
        {
            "machine": "MENACE (thesis)",
            "source": "thesis, Michie",
            "boxes": f"{thesis.n_boxes} (X only)",
            "opening box": f"{len(thesis.weights[0])} colours × {_fmt(thesis.weights[0][0])}",
            "win / draw / loss": updates(thesis.config.reinforcement),
            "empty box": "refilled",
            "knows in advance": "rules, symmetry, its side",
        },
        {
            "machine": "pooled self-play",
            "source": "blog chapter",
            "boxes": f"{pooled.n_boxes} X + 4 × {pool_member.n_boxes} O",
            "opening box": f"{len(pooled.weights[0])} classes × {_fmt(pooled.weights[0][0])}",
            "win / draw / loss": updates(pooled.config.reinforcement) + " (both sides)",
            "empty box": "refilled",
            "knows in advance": "rules, symmetry, move classes",
        },
        {
            "machine": "unsymmetrised",
            "source": "APL article",
            "boxes": f"{raw.n_boxes:,} (either side)",
            "opening box": f"9 squares × {_fmt(raw.weights[raw.row_of[0]][0])}",
            "win / draw / loss": updates(raw.config.reinforcement),
            "empty box": "refilled (our choice)",
            "knows in advance": "rules only",
        },
        {
            "machine": "stochastic player",
            "source": "blog post",
            "boxes": f"{lazy.positions_known} at start, ≤ {non_terminal_positions():,}",
            "opening box": f"9 squares × {_fmt(lazy.beads)} (occupied too)",
            "win / draw / loss": updates(lazy.reinforcement) + "; illegal: square emptied",
            "empty box": "refilled (our choice)",
            "knows in advance": "nothing: not even the rules",
        },
    ]


def learning_curves(
    checkpoints: Sequence[int] = CURVE_CHECKPOINTS,
    seed: int = 0,
    tie_break: str = "lowest",
) -> dict[str, list[dict[str, float]]]:
    """Exact outcome of each machine (as X) against the perfect player during training.

    Each machine trains in its source's setting, one seed each:

    * thesis MENACE: against the perfect player (the thesis's ``optimal`` regimen);
    * pooled self-play: the blog's pool of four O-MENACEs, 5 % random moves;
    * unsymmetrised (article settings): against the perfect player;
    * stochastic player: self-play, evaluated on the X side (unknown positions
      uniform over all nine squares; an illegal move loses).

    Returns
    -------
    dict
        Label -> list of ``{"games", "win", "draw", "loss"}``.
    """
    if list(checkpoints) != sorted(checkpoints) or (checkpoints and checkpoints[0] < 0):
        raise ValueError("checkpoints must be ascending and ≥ 0")
    perfect = make_opponent("perfect", tie_break)
    out: dict[str, list[dict[str, float]]] = {}

    thesis = Menace(MenaceConfig())
    rng = np.random.default_rng(seed)
    out["MENACE (thesis), vs perfect"] = _curve(
        checkpoints,
        lambda n: thesis.train_against(perfect, n, rng, record=False),
        lambda: exact_outcome(thesis, perfect),
    )

    learner = Menace(SELFPLAY_CONFIG)
    pool = [Menace(selfplay_config(other_side(X))) for _ in range(4)]
    rng_pool = np.random.default_rng(seed)
    played = [0]

    def pooled_step(n: int) -> None:
        for _ in range(n):
            opponent = pool[played[0] % len(pool)]
            play_menace_vs_menace(learner, opponent, rng_pool, epsilon_o=0.05)
            played[0] += 1

    out["pooled self-play (blog)"] = _curve(
        checkpoints, pooled_step, lambda: exact_outcome(learner, perfect)
    )

    raw = UnsymmetrisedMenace(ARTICLE_CONFIG)
    rng_raw = np.random.default_rng(seed)
    out["unsymmetrised (APL), vs perfect"] = _curve(
        checkpoints,
        lambda n: train_unsymmetrised_against(raw, perfect, n, rng_raw),
        lambda: exact_outcome(raw, perfect),
    )

    lazy = StochasticPlayer()
    rng_lazy = np.random.default_rng(seed)

    def lazy_step(n: int) -> None:
        for _ in range(n):
            lazy.play_game(rng_lazy)

    out["stochastic player (post), self-play"] = _curve(
        checkpoints, lazy_step, lambda: exact_outcome_stochastic(lazy, X, perfect)
    )
    return out


def _curve(checkpoints, step, evaluate) -> list[dict[str, float]]:
    curve, done = [], 0
    for c in checkpoints:
        step(c - done)
        done = c
        result = evaluate()
        curve.append({"games": c, **{k: result[k] for k in ("win", "draw", "loss")}})
    return curve
