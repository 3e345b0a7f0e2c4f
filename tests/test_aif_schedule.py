"""λ schedules of the Active Inference agents (AIFConfig.lambda_schedule)."""

from __future__ import annotations

import numpy as np
import pytest

from menace_lib.agents import aif
from menace_lib.agents.aif.model import AGENT_NODE, OPPONENT_NODE
from menace_lib.agents.registry import agent_from_dict
from menace_lib.play.opponents import make_opponent


def test_default_config_is_fixed_and_files_are_unchanged() -> None:
    config = aif.AIFConfig(lam=0.5)
    assert config.lambda_schedule == "fixed" and not config.scheduled
    assert "lambda_schedule" not in config.to_dict()  # old files stay byte for byte
    scheduled = aif.AIFConfig(lam=0.5, lambda_schedule="decay", lambda_tau=20)
    data = scheduled.to_dict()
    assert data["lambda_schedule"] == "decay" and data["lambda_tau"] == 20
    assert aif.AIFConfig.from_dict(data) == scheduled


@pytest.mark.parametrize(
    ("fields", "message"),
    [
        ({"lambda_schedule": "cosine"}, "lambda schedule"),
        ({"lambda_schedule": "decay", "lambda_tau": 0}, "lambda_tau"),
        ({"lambda_schedule": "decay", "lambda_tau": float("inf")}, "lambda_tau"),
        ({"lambda_schedule": "concentration", "lambda_kappa": -1}, "lambda_kappa"),
        ({"lambda_tau": 10}, "applies only to lambda_schedule='decay'"),
        ({"lambda_schedule": "decay", "lambda_kappa": 2}, "applies only"),
    ],
)
def test_bad_schedules_are_refused(fields: dict, message: str) -> None:
    with pytest.raises(ValueError, match=message):
        aif.AIFConfig(lam=0.5, **fields)


def test_epistemic_weight_formulas() -> None:
    decay = aif.AIFConfig(lam=1.0, lambda_schedule="decay", lambda_tau=50)
    assert decay.epistemic_weight(0) == 1.0
    assert decay.epistemic_weight(50) == pytest.approx(0.5)
    assert decay.epistemic_weight(450) == pytest.approx(0.1)
    conc = aif.AIFConfig(lam=0.8, lambda_schedule="concentration", lambda_kappa=2)
    assert conc.epistemic_weight(999, prior=6, evidence=0) == pytest.approx(0.8)
    assert conc.epistemic_weight(0, prior=6, evidence=12) == pytest.approx(0.4)
    assert conc.epistemic_weight(0, prior=0, evidence=5) == 0.8  # a box with no beliefs
    assert aif.AIFConfig(lam=0.3).epistemic_weight(10**6, 1, 10**6) == 0.3


def test_oracle_refuses_a_schedule() -> None:
    with pytest.raises(ValueError, match="does not apply"):
        aif.OracleAIF(lam=0.5, lambda_schedule="decay")


@pytest.mark.parametrize("make", [aif.HybridAIF, aif.PureAIF])
def test_decay_weight_is_used_in_the_boxes_and_the_trace(make) -> None:
    agent = make(lam=1.0, lambda_schedule="decay", lambda_tau=10, trace=True)
    assert agent.efe_table(0).lam == 1.0
    agent.train_against(make_opponent("perfect"), 30, np.random.default_rng(0))
    table = agent.efe_table(0)
    assert table.lam == pytest.approx(1.0 / (1 + 30 / 10))
    np.testing.assert_allclose(
        table.G, table.risk + table.beta_amb * table.ambiguity - table.lam * table.epistemic
    )
    # The trace weighs each game's epistemic term by that game's λ.
    first, last = agent.trace[0], agent.trace[-1]
    assert first["epistemic_contribution"] == pytest.approx(first["epistemic"] / 1.1)
    assert last["epistemic_contribution"] == pytest.approx(last["epistemic"] / 4.0)


def test_concentration_weight_follows_the_box_evidence() -> None:
    agent = aif.HybridAIF(lam=1.0, lambda_schedule="concentration", lambda_kappa=1)
    agent.train_against(make_opponent("random"), 40, np.random.default_rng(1))
    model = agent.model
    prior, evidence = model.box_concentration(0)
    kids = {k for k in model.tree.children[0] if model.kind[k] == OPPONENT_NODE}
    assert prior == sum(len(model.alpha[k]) for k in kids)
    assert evidence == 40  # every game passes through one of the root's replies
    assert agent.efe_table(0).lam == pytest.approx(prior / (prior + evidence))
    # Pure: the box's own outcome counts.
    pure = aif.PureAIF(lam=1.0, lambda_schedule="concentration", lambda_kappa=0.5)
    pure.train_against(make_opponent("random"), 40, np.random.default_rng(1))
    n = len(pure.efe_table(0).moves)
    assert pure.efe_table(0).lam == pytest.approx(0.5 * 3 * n / (0.5 * 3 * n + 40))


def test_scheduled_tree_values_equal_a_fresh_valuation() -> None:
    """The full recompute with per-box weights is the model's node rule."""
    agent = aif.HybridAIF(lam=1.0, lambda_schedule="concentration", beta_amb=0.2)
    agent.train_against(make_opponent("random"), 25, np.random.default_rng(2))
    fresh = aif.GenerativeModel(agent.config)
    for c in fresh.tree.ids:
        if fresh.kind[c] == OPPONENT_NODE:
            fresh.set_counts(c, agent.model.alpha[c])
    fresh.agent_lam = list(agent.model.agent_lam)
    fresh.recompute()
    for name in ("R", "E", "G", "A", "best"):
        assert getattr(agent.model, name) == getattr(fresh, name), name
    # Each agent node copies its child of least G as that node weighs it.
    model = agent.model
    for c in model.tree.ids[:200]:
        if model.kind[c] == AGENT_NODE:
            lam = model.agent_lam[c]
            options = [
                model.R[k] + 0.2 * model.A[k] - lam * model.E[k] for k in model.tree.children[c]
            ]
            assert model.G[c] == min(options)


@pytest.mark.parametrize(
    "settings",
    [
        {"lambda_schedule": "decay", "lambda_tau": 15},
        {"lambda_schedule": "concentration", "lambda_kappa": 3},
    ],
)
@pytest.mark.parametrize("make", [aif.HybridAIF, aif.PureAIF])
def test_scheduled_agents_save_load_and_continue_identically(make, settings: dict) -> None:
    agent = make(lam=0.7, **settings)
    opp = make_opponent("random")
    agent.train_against(opp, 20, np.random.default_rng(3))
    again = agent_from_dict(agent.to_dict())
    assert again.config == agent.config
    assert again.efe_table(0).lam == agent.efe_table(0).lam
    a = agent.train_against(opp, 15, np.random.default_rng(4))
    b = again.train_against(opp, 15, np.random.default_rng(4))
    assert a.results == b.results and agent.menace.weights == again.menace.weights
