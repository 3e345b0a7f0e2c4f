"""The evaluation fast paths against their plain counterparts.

* :func:`menace_lib.play.evaluation.exact_outcome` evaluates only the positions the empty
  board can reach against the opponent; :func:`~menace_lib.play.evaluation.dense_values` is
  the plain pass over every position. Their numbers must agree (under the library's
  comparison, :func:`menace_lib.base.reproducibility.same_numbers`) for every agent kind,
  both sides, every scripted opponent and resigning agents.
* :func:`menace_lib.play.evaluation.policy_kl` asks an agent once for all its states
  (``canonical_policies``); the per-state values must be those of one
  ``canonical_policy`` call per state.
"""

from __future__ import annotations

import numpy as np
import pytest

from menace_lib.agents.unsymmetrised import UnsymmetrisedMenace
from menace_lib.base.reproducibility import same_numbers
from menace_lib.experiments import make_agent
from menace_lib.games.board import O, X
from menace_lib.games.statespace import tables
from menace_lib.play.evaluation import (
    dense_values,
    exact_outcome,
    exact_values,
    kl_to_reference,
    policy_kl,
)
from menace_lib.play.opponents import make_opponent
from menace_lib.play.training import train

KINDS = [
    ("menace", {}),
    ("menace", {"layout": "class", "restock": "none"}),
    ("instrumental", {"lam": 0.0}),
    ("hybrid", {"lam": 0.5}),
    ("pure", {"lam": 0.5}),
    ("oracle", {"lam": 0.5}),
    ("qlearning", {}),
    ("sarsa", {}),
]
OPPONENTS = [
    ("perfect", "lowest"),
    ("perfect", "uniform"),
    ("random", "lowest"),
    ("defensive", "lowest"),
]


def _trained(kind: str, params: dict, player: int):
    agent = make_agent(kind, player=player, **params)
    train(agent, "mixed", 60, np.random.default_rng(11))
    return agent


@pytest.mark.parametrize(("kind", "params"), KINDS, ids=[f"{k}{p}" for k, p in KINDS])
def test_exact_outcome_equals_the_plain_pass(kind: str, params: dict) -> None:
    player = O if kind in ("menace", "sarsa") else X
    agent = _trained(kind, params, player)
    for i, (name, tie_break) in enumerate(OPPONENTS):
        opponent = make_opponent(name, tie_break)
        plain = dense_values(agent, opponent)
        if i == 0:  # every position, once per agent
            assert same_numbers(exact_values(agent, opponent).tolist(), plain.tolist())
        fast = exact_outcome(agent, opponent)
        assert same_numbers(list(fast.values()), plain[0].tolist())
        assert abs(sum(fast.values()) - 1.0) < 1e-9


def test_a_resigning_agent_is_evaluated_alike() -> None:
    agent = make_agent("menace", restock="none", reinforcement=(1, 0, -4))
    train(agent, "optimal", 40, np.random.default_rng(2))
    assert agent.policy_matrix().resign_rows.any()  # some boxes are empty
    for name, tie_break in OPPONENTS:
        opponent = make_opponent(name, tie_break)
        fast = exact_outcome(agent, opponent)
        assert same_numbers(list(fast.values()), dense_values(agent, opponent)[0].tolist())


@pytest.mark.parametrize(("kind", "params"), KINDS, ids=[f"{k}{p}" for k, p in KINDS])
def test_policy_kl_equals_one_call_per_state(kind: str, params: dict) -> None:
    for player in (X, O) if kind in ("menace", "qlearning") else (X,):
        agent = _trained(kind, params, player)
        per_state = {
            int(s): kl_to_reference(int(s), agent.canonical_policy(int(s)))
            for s in tables().player_states(player)
        }
        fast = policy_kl(agent)
        assert list(fast) == list(per_state)
        assert same_numbers(
            [str(v) if np.isinf(v) else v for v in fast.values()],
            [str(v) if np.isinf(v) else v for v in per_state.values()],
        )


def test_policy_kl_of_unsymmetrised_menace() -> None:
    agent = UnsymmetrisedMenace()
    train(agent, "mixed", 60, np.random.default_rng(3))
    states = tables().player_states(agent.player)
    rows = agent.canonical_policies(states)
    assert rows.shape == (len(states), 9)
    for s, row in zip(states[:50], rows[:50], strict=False):
        assert np.array_equal(row, agent.canonical_policy(int(s)))
