"""Curiosity against a switching opponent: the opponent-model question with λ > 0.

The opponent-model sweep (:mod:`.opponent_model`) trains its learners with λ = 0 only,
so it cannot say whether an epistemic term helps an agent whose opponent changes. This
sweep runs the Hybrid agent -- the same learner of the opponent's replies, with the
epistemic term switched on at λ ∈ {0.25, 0.5, 1} -- against the same switching opponent
(random for the first half of training, perfect for the second), with the sweep's
options and seeds, so each run pairs seed by seed with the λ = 0 learner and the
forgetful learner of the opponent-model cache (common random numbers: the run's
generator is ``default_rng(seed)`` whatever the agent).
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from ...experiments.sweep import Sweep
from .opponent_model import METRICS, run_agent
from .opponent_model import SWEEP as OPPONENT_SWEEP

__all__ = ["CURIOUS", "SWEEP", "run_one"]

CURIOUS: dict[str, tuple[str, dict[str, Any]]] = {
    f"curious-{lam:g}": ("hybrid", {"lam": lam}) for lam in (0.25, 0.5, 1.0)
}
"""Agent key -> (kind, parameters): the Hybrid agent at three epistemic weights."""


def run_one(key: str, seed: int, options: Mapping[str, Any]) -> dict[str, Any]:
    """One curious agent against the switching opponent (``"curious-0.5/switching"``)."""
    agent, _, opponent = key.partition("/")
    if agent not in CURIOUS or opponent != "switching":
        raise ValueError(f"unknown condition {key!r}; one of {[f'{a}/switching' for a in CURIOUS]}")
    kind, params = CURIOUS[agent]
    return run_agent(kind, params, opponent, seed, options)


SWEEP = Sweep(
    name="opponent-model-curious",
    conditions=tuple(f"{a}/switching" for a in CURIOUS),
    run_one=run_one,
    metrics=METRICS,
    baseline=None,
    options=dict(OPPONENT_SWEEP.options),
    question=(
        "Does an epistemic term (λ > 0) help a learner of the opponent's replies recover "
        "when the opponent switches from random to perfect play?"
    ),
    ranges=dict(OPPONENT_SWEEP.ranges),
)
