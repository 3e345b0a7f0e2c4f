"""The learned-opponent agents (Instrumental AIF and its forgetful variant) and the
switching opponent of the opponent-model sweep."""

from __future__ import annotations

import json
import math

import numpy as np
import pytest

from menace_lib.agents import aif
from menace_lib.agents.aif.forgetful import DEFAULT_DECAY, decayed_counts
from menace_lib.agents.aif.model import OPPONENT_NODE
from menace_lib.agents.registry import agent_from_dict, load_agent
from menace_lib.base.files import AgentFileError, write_json
from menace_lib.experiments.suite import make_agent
from menace_lib.games.agent import Agent
from menace_lib.play.opponents import REGIMENS, make_opponent, regimen_blocks, switching_blocks
from menace_lib.play.training import train


def observed_states(agent, prior: float = 1.0):
    """(canonical opponent state, counts) wherever the agent has seen a reply."""
    model = agent.model
    return [
        (c, np.array(model.alpha[c]))
        for c in model.tree.ids
        if model.kind[c] == OPPONENT_NODE and any(a != prior for a in model.alpha[c])
    ]


def opponent_probabilities(opponent, state: int, moves) -> np.ndarray:
    """The scripted opponent's move probabilities in a canonical state, over its moves."""
    return opponent.distribution()[state][list(moves)]


# --- the posterior mean learns a scripted opponent --------------------------------------


@pytest.mark.parametrize(("name", "tie_break"), [("random", "lowest"), ("perfect", "uniform")])
def test_posterior_mean_converges_to_the_scripted_opponents_distribution(name, tie_break):
    # Both opponents treat symmetric positions alike, so their distribution in a
    # canonical state is what the agent sees there, whichever raw position it came from.
    opponent = make_opponent(name, tie_break)
    agent = aif.InstrumentalAIF()
    agent.train_against(opponent, 3000, np.random.default_rng(5), record=False)
    checked = 0
    for c, alpha in observed_states(agent):
        n = alpha.sum() - len(alpha)  # replies observed
        if n < 100:
            continue
        p = opponent_probabilities(opponent, c, agent.model.tree.moves[c])
        mean = alpha / alpha.sum()
        # Binomial spread (5 sd) plus the prior's pull of at most k / (n + k).
        tolerance = 5 * np.sqrt(p * (1 - p) / n) + len(alpha) / alpha.sum()
        assert np.all(np.abs(mean - p) <= tolerance), (c, mean, p)
        checked += 1
    assert checked >= 3


# --- the forgetful update ----------------------------------------------------------------


def test_decayed_counts_shrink_towards_the_prior_then_add_the_reply():
    assert decayed_counts([3.0, 1.0, 5.0], 1, 1.0, 0.5) == [2.0, 2.0, 3.0]
    assert decayed_counts([3.0, 1.0], 0, 1.0, 1.0) == [4.0, 1.0]  # decay 1: plain counting


def test_decay_one_is_the_instrumental_agent_bit_for_bit():
    plain, forgetful = aif.InstrumentalAIF(), aif.ForgetfulAIF(decay=1.0)
    for agent in (plain, forgetful):
        train(agent, "mixed", 300, np.random.default_rng(11))
    assert forgetful.model.alpha == plain.model.alpha
    assert forgetful.menace.weights == plain.menace.weights


def test_forgetful_memory_is_bounded_and_follows_a_new_opponent():
    decay = 0.8
    blocks = switching_blocks(1200)  # random, then perfect
    learned, forgetful = aif.InstrumentalAIF(), aif.ForgetfulAIF(decay=decay)
    for agent in (learned, forgetful):
        # Uniform tie-breaks make the perfect player's replies symmetric, so its
        # distribution in a canonical state is what the agents observe there.
        train(agent, blocks, None, np.random.default_rng(3), tie_break="uniform")
    bound = 1 / (1 - decay)  # total weight above the prior never exceeds this
    for _, alpha in observed_states(forgetful):
        assert (alpha - 1.0).sum() <= bound + 1e-9
    # Where perfect play has bad replies to avoid, the forgetful agent's evidence (its
    # counts above the prior) lies more on the good ones than plain counting's, which
    # still remembers random play.
    perfect = make_opponent("perfect", "uniform")
    compared = 0
    for c, alpha in observed_states(forgetful):
        good = opponent_probabilities(perfect, c, forgetful.model.tree.moves[c]) > 0
        plain = np.array(learned.model.alpha[c])
        if (plain - 1).sum() < 200 or good.all():
            continue
        recent, old = alpha - 1.0, plain - 1.0
        assert recent[good].sum() / recent.sum() > old[good].sum() / old.sum()
        compared += 1
    assert compared >= 1


@pytest.mark.parametrize("decay", [0.0, -0.1, 1.5, math.nan, "0.9", True, None])
def test_a_bad_decay_is_refused_with_its_value(decay):
    with pytest.raises(ValueError, match="decay"):
        aif.ForgetfulAIF(decay=decay)


# --- the agent interface and files -------------------------------------------------------


def test_the_learned_opponent_agents_are_agents_and_kinds():
    for kind, cls in (("instrumental", aif.InstrumentalAIF), ("forgetful", aif.ForgetfulAIF)):
        agent = make_agent(kind)
        assert type(agent) is cls and isinstance(agent, Agent)
    assert make_agent("forgetful", decay=0.5, lam=0.25).decay == 0.5
    with pytest.raises(ValueError, match="decay"):
        make_agent("forgetful", decay=2)


def test_forgetful_agent_saves_and_loads_back(tmp_path):
    agent = aif.ForgetfulAIF(decay=0.7, lam=0.25)
    train(agent, "switching", 200, np.random.default_rng(2))
    doc = agent.to_dict()
    assert doc["format"] == "menace_lib.aif.forgetful" and doc["opponent_decay"] == 0.7
    again = load_agent(write_json(tmp_path / "agent.json", doc))
    assert type(again) is aif.ForgetfulAIF
    assert again.decay == 0.7 and again.model.alpha == agent.model.alpha
    assert again.to_dict() == doc
    # It goes on learning exactly as the original does.
    for a in (agent, again):
        train(a, "optimal", 50, np.random.default_rng(9))
    assert again.to_dict() == agent.to_dict()


@pytest.mark.parametrize("bad", [0, 1.5, "0.9", None])
def test_a_file_with_a_bad_or_missing_decay_is_refused(bad):
    doc = aif.ForgetfulAIF().to_dict()
    if bad is None:
        del doc["opponent_decay"]
    else:
        doc["opponent_decay"] = bad
    with pytest.raises(AgentFileError):
        agent_from_dict(json.loads(json.dumps(doc)))


def test_only_the_forgetful_format_carries_a_decay():
    doc = aif.InstrumentalAIF().to_dict()
    doc["opponent_decay"] = DEFAULT_DECAY
    with pytest.raises(AgentFileError):
        agent_from_dict(doc)


# --- the switching opponent ------------------------------------------------------------


def test_switching_blocks_play_random_then_perfect_halfway():
    assert "switching" in REGIMENS
    assert regimen_blocks("switching", 4000) == [("random", 2000), ("perfect", 2000)]
    assert switching_blocks(7) == [("random", 3), ("perfect", 4)]
    assert switching_blocks(10, "defensive", "random", at=0.3) == [
        ("defensive", 3),
        ("random", 7),
    ]
    assert switching_blocks(1) == [("perfect", 1)] and switching_blocks(0) == []


def test_training_against_the_switching_opponent_meets_each_half():
    agent = aif.InstrumentalAIF()
    log = train(agent, "switching", 40, np.random.default_rng(0))
    assert log.opponents[:20] == ["random"] * 20
    assert set(log.opponents[20:]) == {"perfect(lowest)"}


@pytest.mark.parametrize(
    ("args", "match"),
    [((-1,), "games"), ((10, "nobody"), "opponent"), ((10, "random", "perfect", 1.5), "at")],
)
def test_switching_blocks_refuse_bad_input(args, match):
    with pytest.raises(ValueError, match=match):
        switching_blocks(*args)
