"""The tree agents' fast learning path against a straightforward reference, over a grid.

A Hybrid/Instrumental agent learns through three fast copies of rules: the
opponent's moves read from :func:`~menace_lib.agents.aif.tree.canonical_steps` (the rule:
``opponent_moves`` + ``observe_moves``), the counts' weights and information
gains updated one slot at a time (the rule: ``_set_counts``), and the values
refreshed incrementally (the rule: ``recompute``, node by node). Here a trained
agent is compared, bit for bit, with a fresh model given the same counts and
valued from scratch, and its boxes with :func:`menace_lib.maths.efe.softmax_policy` of
that model's ``G``, over λ, the opponent model, the risk form, the epistemic
term, the policy prior, the ambiguity weight and the side played.
"""

from __future__ import annotations

import itertools

import numpy as np
import pytest

from menace_lib.agents import aif
from menace_lib.agents.aif.model import OPPONENT_NODE
from menace_lib.agents.aif.tree import canonical_steps, canonical_tree
from menace_lib.games.board import O, X
from menace_lib.games.statespace import tables
from menace_lib.maths.dirichlet import mutual_information
from menace_lib.maths.efe import softmax_policy
from menace_lib.play.opponents import make_opponent

# Every combination of the readings, thinned to a fixed quarter so the test stays
# short; λ, side and prior vary with it.
_GRID = list(
    itertools.product(
        (0.0, 0.5, 2.0),  # lam
        ("cross_entropy", "kl"),  # risk_form
        ("summed", "next"),  # epistemic
        ("uniform", "menace", "menace-initial"),  # policy_prior
        (0.0, 0.3),  # beta_amb
        (X, O),  # player
    )
)
CONFIGS = [
    {
        "lam": lam,
        "risk_form": risk,
        "epistemic": epistemic,
        "policy_prior": prior,
        "beta_amb": beta,
        "player": player,
        "opponent_alpha": 0.5 if i % 3 == 0 else 1.0,
    }
    for i, (lam, risk, epistemic, prior, beta, player) in enumerate(_GRID)
    if i % 4 == 0
]


def _agent(options: dict) -> aif.ActiveInferenceAgent:
    return aif.InstrumentalAIF(**options) if options["lam"] == 0 else aif.HybridAIF(**options)


def _reference_model(agent: aif.ActiveInferenceAgent) -> aif.GenerativeModel:
    """A model with the agent's counts, valued from scratch by the node rule."""
    fresh = aif.GenerativeModel(agent.config)
    for c in fresh.tree.ids:
        if fresh.kind[c] == OPPONENT_NODE:
            fresh.set_counts(c, agent.model.alpha[c])
    fresh.recompute()
    return fresh


@pytest.mark.parametrize("options", CONFIGS, ids=[str(i) for i in range(len(CONFIGS))])
@pytest.mark.parametrize("opponent", ["perfect", "random"])
def test_trained_tree_agent_equals_the_reference(options: dict, opponent: str) -> None:
    agent = _agent(options)
    opp = make_opponent(opponent, "uniform" if opponent == "perfect" else "lowest")
    rng = np.random.default_rng(len(str(options)))
    agent.train_against(opp, 40, rng, record=False)
    last = agent.train_against(opp, 1, rng).paths[0]
    model, fresh = agent.model, _reference_model(agent)
    for name in ("R", "E", "G", "A", "D0", "D1", "D2", "mi", "best"):
        assert getattr(model, name) == getattr(fresh, name), name
    for c in fresh.tree.ids:
        if fresh.kind[c] == OPPONENT_NODE:
            total = sum(model.alpha[c])
            assert model._weights[c] == [a / total for a in model.alpha[c]]
            assert model.mi[c] == pytest.approx(mutual_information(model.alpha[c]), abs=1e-12)
    # The boxes of the last game hold the rule's policy of the reference's G (the
    # others were written at earlier games, with the values of their time).
    menace = agent.menace
    boxes = [b for _, _, b in last if b >= 0]
    assert boxes
    for b in boxes:
        state = menace.states[b]
        q, _ = agent._policy_terms(state)
        kids = canonical_tree().children[state]
        G = np.array([fresh.G[k] for k in kids])
        if options["epistemic"] == "next":
            G = G - fresh.lam_next * np.array([fresh.mi[k] for k in kids])
        expected = softmax_policy(G, agent.config.lambda_policy, agent._prior_of(state))
        np.testing.assert_array_equal(q, expected)
        assert menace.weights[b] == (expected * agent.config.bead_scale).tolist()


@pytest.mark.parametrize("player", [X, O])
@pytest.mark.parametrize("opponent", ["perfect", "random", "defensive"])
def test_count_slots_are_the_observed_moves(player: int, opponent: str) -> None:
    """The table read of a game's opponent moves equals the rule's reading."""
    T = tables()
    agent = aif.HybridAIF(player=player)
    opp = make_opponent(opponent, "uniform")
    rng = np.random.default_rng(3)
    log = agent.train_against(opp, 30, rng)
    for path, result in zip(log.paths, log.results, strict=True):
        # The final position: the last agent move's successor, or the opponent's reply.
        final = None if not path else T.succ_lists[path[-1][0]][path[-1][1]]
        if final is not None and agent.result[final] < 0:
            final = None  # the opponent ended the game: the rule infers its move
        rule = agent.opponent_moves(path, result, final)
        slots = agent._count_slots(path, final)
        if slots is None:
            assert final is None
            continue
        moves = canonical_tree().moves
        assert slots == [
            (T.canon_list[b], moves[T.canon_list[b]].index(T.canon_square_lists[b][m]))
            for b, m in rule
        ]


def test_canonical_steps_cover_every_move() -> None:
    T = tables()
    steps, moves = canonical_steps(), canonical_tree().moves
    for pid in range(0, T.n_positions, 7):
        children = [s for s in T.succ_lists[pid] if s >= 0]
        assert sorted(steps[pid]) == sorted(children)
        for m, s in enumerate(T.succ_lists[pid]):
            if s >= 0:
                c, i = steps[pid][s]
                assert c == T.canon_list[pid]
                assert moves[c][i] == T.canon_square_lists[pid][m]


def test_count_moves_equals_set_counts() -> None:
    """One added move updates weights and gain exactly as replacing the counts does."""
    model = aif.GenerativeModel(lam=0.5, opponent_alpha=0.7)
    twin = model.copy()
    opp = [c for c in model.tree.ids if model.kind[c] == OPPONENT_NODE]
    rng = np.random.default_rng(0)
    for _ in range(200):
        c = opp[int(rng.integers(len(opp)))]
        i = int(rng.integers(len(model.alpha[c])))
        model.count_moves([(c, i)])
        alpha = list(twin.alpha[c])
        alpha[i] += 1.0
        twin.set_counts(c, alpha)
    model.refresh()
    twin.refresh()
    for name in ("alpha", "_weights", "_gapped", "mi", "R", "E", "G", "best"):
        assert getattr(model, name) == getattr(twin, name), name
