"""Tests for menace_lib.agents.aif: the generative model, the EFE tables, the four agents, their
files and their fast paths (each checked bit for bit against the rule it copies)."""

from __future__ import annotations

import json
import math

import numpy as np
import pytest

from menace_lib.agents import aif
from menace_lib.agents.aif.model import OPPONENT_NODE, opponent_mi
from menace_lib.agents.aif.policy import log_prior, numpy_sum, prior_weights, softmax_rows
from menace_lib.base.reproducibility import assert_same_numbers
from menace_lib.games.agent import Agent, PolicyMatrix
from menace_lib.games.board import O, X
from menace_lib.games.statespace import ONGOING, tables
from menace_lib.machine.menace import DRAW_RESULT, LOSS, WIN, AgentFileError
from menace_lib.maths.dirichlet import digamma_gap, digamma_plus_one_minus_log, mutual_information
from menace_lib.maths.efe import THESIS_TABLE_7_1, softmax_policy
from menace_lib.play.evaluation import exact_outcome
from menace_lib.play.loop import play_game as play_between
from menace_lib.play.loop import play_games
from menace_lib.play.opponents import make_opponent
from menace_lib.play.training import train

GOLDEN_PREFS = (0.9, 0.09, 0.01)  # the reference's regression tests use these
THREE_MOVE_STATE = ".OXXOO.X."  # a Michie box with exactly three legal moves

# Derived Pure-AIF values (reference notes §5): alpha -> (KL, MI, G at lam 0, 0.25, 0.5).
PURE_AIF_TABLE = {
    (1, 1, 1): (0.420181, 0.265279, 0.420181, 0.353861, 0.287542),
    (2, 1, 1): (0.227081, 0.206387, 0.227081, 0.175484, 0.123887),
    (1, 2, 1): (0.361830, 0.206387, 0.361830, 0.310233, 0.258636),
    (1, 1, 2): (0.848307, 0.206387, 0.848307, 0.796710, 0.745114),
}


def play_game(agent, opponent, rng):
    """One game of ``agent`` against a scripted opponent: (result, agent's records)."""
    side = 0 if agent.player == 1 else 1
    game = play_between(*((agent, opponent) if side == 0 else (opponent, agent)), rng)
    return game.result(agent.player), game.records[side]


@pytest.fixture(scope="module")
def T():
    return tables()


def agent_states(T, player=X):
    return [int(c) for c in T.player_states(player)]


# ------------------------------------------------------------------ generative model


def test_minimax_model_all_root_moves_equal_with_golden_prefs() -> None:
    model = aif.GenerativeModel(prefs=GOLDEN_PREFS, lam=0.0, opponent_model="minimax")
    terms = model.action_terms(0)
    assert list(terms["moves"]) == list(range(9))
    np.testing.assert_allclose(terms["G"], terms["G"][0], rtol=0, atol=1e-12)
    # Every first move draws under optimal play: G = -ln p(draw).
    assert terms["G"][0] == pytest.approx(-math.log(0.09))


@pytest.mark.parametrize("lam", [0.0, 0.5, 2.0])
def test_minimax_model_has_no_epistemic_or_ambiguity_term(T, lam: float) -> None:
    agent = aif.OracleAIF(opponent_model="minimax", lam=lam, prefs=GOLDEN_PREFS, beta_amb=0.3)
    for c in agent_states(T)[::7]:
        tab = agent.efe_table(c)
        np.testing.assert_array_equal(tab.epistemic, 0.0)
        np.testing.assert_array_equal(tab.ambiguity, 0.0)
        np.testing.assert_allclose(tab.G, tab.risk, atol=1e-12)
        np.testing.assert_allclose(tab.G, tab.kl_risk, atol=1e-12)  # one-hot: KL = -ln p


@pytest.mark.parametrize(("lam", "beta"), [(0.0, 0.0), (0.5, 0.0), (1.0, 0.7)])
def test_adversarial_equals_minimax_everywhere(lam: float, beta: float) -> None:
    adv = aif.GenerativeModel(lam=lam, beta_amb=beta, opponent_model="adversarial")
    mm = aif.GenerativeModel(lam=lam, beta_amb=beta, opponent_model="minimax")
    live = [c for c in adv.tree.ids if adv.tree.outcome[c] == ONGOING]
    np.testing.assert_allclose([adv.G[c] for c in live], [mm.G[c] for c in live], atol=1e-12)


def test_uniform_model_prefers_the_centre_with_golden_prefs() -> None:
    # Reference regression: uniform opponent, Dir(1) beliefs, lam = 0.5,
    # p = (0.9, 0.09, 0.01): move 4 is in the argmin set of (KL risk - 0.5 * epistemic).
    agent = aif.OracleAIF(opponent_model="uniform", lam=0.5, prefs=GOLDEN_PREFS)
    tab = agent.efe_table(0)
    score = tab.kl_risk - 0.5 * tab.epistemic
    assert 4 in tab.moves[np.isclose(score, score.min(), rtol=0, atol=1e-9)]
    assert tab.moves[np.argmin(tab.G)] == 4


def test_uniform_model_values_follow_the_recursion(T) -> None:
    # One level by hand: an opponent node is the Dirichlet-mean average of its
    # children plus its own information gain, and A is the entropy of the mixture.
    model = aif.GenerativeModel(lam=0.5, beta_amb=0.2)
    node = int(T.canon[T.succ[0, 4]])  # after X takes the centre
    kids = model.tree.children[node]
    w = np.full(len(kids), 1 / len(kids))
    d = w @ np.array([[model.D0[k], model.D1[k], model.D2[k]] for k in kids])
    assert model.R[node] == pytest.approx(w @ [model.R[k] for k in kids])
    assert model.E[node] == pytest.approx(
        w @ [model.E[k] for k in kids] + mutual_information(np.ones(len(kids)))
    )
    assert model.A[node] == pytest.approx(-(d * np.log(d, where=d > 0, out=np.zeros(3))).sum())
    assert model.G[node] == pytest.approx(model.R[node] + 0.2 * model.A[node] - 0.5 * model.E[node])


def test_terminal_risk_is_minus_log_preference(T) -> None:
    model = aif.GenerativeModel(prefs=(0.6, 0.35, 0.05))
    x_win = int(T.canon[T.id_of("XXX/OO./...")])  # values live at canonical ids
    assert model.R[x_win] == pytest.approx(-math.log(0.6))
    assert model.R[x_win] == pytest.approx(0.510826, abs=1e-6)
    o_model = aif.GenerativeModel(player=O, prefs=(0.6, 0.35, 0.05))
    assert o_model.R[x_win] == pytest.approx(-math.log(0.05))  # a loss for O


@pytest.mark.parametrize(
    "options",
    [
        {"lam": 0.5},  # the lean refresh: d and A left for ensure_outcomes
        {"lam": 0.5, "beta_amb": 0.1},  # A enters G: every value refreshed at once
        {"lam": 1.0, "risk_form": "kl", "epistemic": "next", "opponent_alpha": 0.5},
        {"lam": 0.5, "player": O},
    ],
)
def test_incremental_refresh_equals_full_recomputation_bit_for_bit(options: dict) -> None:
    agent = aif.HybridAIF(**options)
    train(agent, "random", 60, np.random.default_rng(4))
    fresh = aif.GenerativeModel(agent.config)
    model = agent.model
    for c in fresh.tree.ids:
        if fresh.kind[c] == OPPONENT_NODE:
            fresh.set_counts(c, model.alpha[c])
    fresh.recompute()
    for name in ("R", "E", "G", "A", "D0", "D1", "D2", "mi", "best"):
        assert getattr(model, name) == getattr(fresh, name), name
    # ... and the information gains kept by refresh() are the rule's and the library's.
    for c in fresh.tree.ids:
        if fresh.kind[c] == OPPONENT_NODE:
            assert model.mi[c] == opponent_mi(model.alpha[c])
            if len(model.alpha[c]) > 1 and c % 7 == 0:
                assert model.mi[c] == pytest.approx(mutual_information(model.alpha[c]), abs=1e-12)


def test_refresh_recomputes_only_what_changes() -> None:
    model = aif.GenerativeModel(lam=0.5)
    deep = next(c for c in reversed(model.tree.ids) if model.kind[c] == OPPONENT_NODE)
    model.observe(deep, model.tree.moves[deep][0])
    assert 1 <= model.refresh() < len(model.tree.ids) // 10
    assert model.refresh() == 0  # nothing new to learn


@pytest.mark.parametrize(
    "options",
    [{}, {"risk_form": "kl"}, {"epistemic": "next"}, {"risk_form": "kl", "epistemic": "next"}],
)
def test_efe_identity_holds_for_every_reading(T, options: dict) -> None:
    agent = aif.HybridAIF(lam=0.5, beta_amb=0.2, **options)
    train(agent, "random", 10, np.random.default_rng(0))
    for c in agent_states(T)[::9]:
        tab = agent.efe_table(c)
        np.testing.assert_allclose(
            tab.G, tab.risk + 0.2 * tab.ambiguity - 0.5 * tab.epistemic, atol=1e-12
        )
        if options.get("risk_form") == "kl":  # the text's reading: risk is KL(d || p)
            np.testing.assert_allclose(tab.risk, tab.kl_risk, atol=1e-12)
        if options.get("epistemic") == "next":  # only the next opponent node's gain
            kids = agent.model.tree.children[c]
            np.testing.assert_allclose(tab.epistemic, [agent.model.mi[k] for k in kids])


def test_default_risk_is_the_propagated_cross_entropy(T) -> None:
    tab = aif.OracleAIF(opponent_model="uniform", lam=0.5).efe_table(0)
    # R = E_d[-ln p(o)] = KL(d || p) + H(d), and A = H(d).
    np.testing.assert_allclose(tab.risk, tab.kl_risk + tab.ambiguity, atol=1e-12)
    assert np.all(tab.risk > tab.kl_risk)


def test_tree_agent_trace_reports_the_kl_risk(T) -> None:
    agent = aif.HybridAIF(trace=True)
    result, trajectory = play_game(agent, make_opponent("random"), np.random.default_rng(6))
    agent.end_game(trajectory, result)
    states = list(dict.fromkeys(agent.menace.states[r[2]] for r in trajectory if r[2] >= 0))
    tabs = [agent.efe_table(c) for c in states]
    entry = agent.trace[0]
    assert entry["states"] == len(states)
    assert entry["kl_risk"] == pytest.approx(np.mean([t.q @ t.kl_risk for t in tabs]), abs=1e-9)
    assert entry["risk"] == pytest.approx(np.mean([t.q @ t.risk for t in tabs]), abs=1e-12)


def test_readings_agree_without_an_epistemic_weight(T) -> None:
    summed = aif.OracleAIF(lam=0.0)
    nxt = aif.OracleAIF(lam=0.0, epistemic="next")
    for c in agent_states(T)[::13]:
        np.testing.assert_allclose(summed.efe_table(c).G, nxt.efe_table(c).G, atol=1e-12)


def test_observe_rejects_bad_input(T) -> None:
    model = aif.GenerativeModel()
    with pytest.raises(ValueError, match="opponent state"):
        model.observe(0, 4)
    node = int(T.canon[T.succ[0, 4]])
    with pytest.raises(ValueError, match="not legal"):
        model.observe(node, 4)


# ---------------------------------------------------------------------- policies


def test_tiny_policy_temperature_puts_all_mass_on_the_argmin() -> None:
    tab = aif.OracleAIF(lam=0.5, lambda_policy=1e-6).efe_table(0)
    best = np.isclose(tab.G, tab.G.min(), rtol=0, atol=1e-12)
    assert tab.q[best].sum() == pytest.approx(1.0)
    assert tab.q[4] == pytest.approx(1.0)


def test_policy_is_the_softmax_of_G_and_beads_follow_it(T) -> None:
    agent = aif.OracleAIF(lam=0.5, lazy=False, bead_scale=40)
    tab = agent.efe_table(0)
    np.testing.assert_allclose(tab.q, softmax_policy(tab.G, 0.25))
    np.testing.assert_allclose(agent.menace.weights[agent.menace.box_of[0]], 40 * tab.q)


def test_menace_prior_shapes_a_flat_policy() -> None:
    # A huge temperature returns the prior: centre 8 > corners 4 > edges 2.
    tab = aif.OracleAIF(
        lam=0.0, prefs=GOLDEN_PREFS, lambda_policy=1e6, policy_prior="menace"
    ).efe_table(0)
    np.testing.assert_allclose(tab.q, np.array([4, 2, 4, 2, 8, 2, 4, 2, 4]) / 32, atol=1e-5)


def test_efe_table_accepts_boards_and_canonicalises(T) -> None:
    agent = aif.OracleAIF()
    a = agent.efe_table("X.O/.X./..O")
    b = agent.efe_table(T.id_of("X.O/.X./..O"))
    assert a.state == b.state == int(T.canon[T.id_of("X.O/.X./..O")])
    rows = a.rows()
    assert [r["move"] for r in rows] == list(a.moves)
    assert set(rows[0]) >= {"G", "risk", "kl_risk", "epistemic", "ambiguity", "q", "p_draw"}
    json.dumps(rows)
    with pytest.raises(ValueError, match="not X's move"):
        agent.efe_table("X........")
    with pytest.raises(ValueError, match="not X's move"):
        agent.efe_table("XXX/OO./...")


# ------------------------------------------------------------------------- Pure


@pytest.mark.parametrize(("lam", "column"), [(0.0, 2), (0.25, 3), (0.5, 4)])
def test_pure_aif_reproduces_the_derived_table(lam: float, column: int) -> None:
    agent = aif.PureAIF(lam=lam)
    for move, counts in enumerate(PURE_AIF_TABLE):
        agent.set_counts(0, move, counts)
    tab = agent.efe_table(0)
    for move, expected in enumerate(PURE_AIF_TABLE.values()):
        assert tab.kl_risk[move] == pytest.approx(expected[0], abs=1e-6)
        assert tab.epistemic[move] == pytest.approx(expected[1], abs=1e-6)
        assert tab.G[move] == pytest.approx(expected[column], abs=1e-6)
    # Untouched moves keep the prior (1, 1, 1).
    assert tab.G[8] == pytest.approx(PURE_AIF_TABLE[(1, 1, 1)][column], abs=1e-6)


def test_pure_aif_reproduces_thesis_table_7_1(T) -> None:
    agent = aif.PureAIF(lam=0.25, lambda_policy=0.25)
    state = T.id_of(THREE_MOVE_STATE)
    for move, counts in zip(T.legal(state), [(6, 2, 2), (3, 5, 4), (9, 1, 1)], strict=True):
        agent.set_counts(state, move, counts)
    tab = agent.efe_table(state)
    np.testing.assert_array_equal(np.round(tab.risk, 3), THESIS_TABLE_7_1["risk"])
    np.testing.assert_array_equal(np.round(tab.epistemic, 3), THESIS_TABLE_7_1["epistemic"])
    np.testing.assert_array_equal(np.round(tab.G, 3), THESIS_TABLE_7_1["G"])
    np.testing.assert_array_equal(np.round(tab.q, 3), THESIS_TABLE_7_1["policy"])


def test_pure_aif_counts_the_outcome_for_every_move_played(T) -> None:
    agent = aif.PureAIF()
    result, trajectory = play_game(agent, make_opponent("perfect"), np.random.default_rng(1))
    agent.end_game(trajectory, result)
    assert agent.alpha.sum() == pytest.approx(T.n_positions * 27 + len(trajectory))
    for pid, square, _ in trajectory:
        c = int(T.canon[pid])
        cm = T.canon_square_lists[pid][square]
        expected = np.ones(3)
        expected[result] += 1
        np.testing.assert_array_equal(agent.alpha[c, cm], expected)


def test_pure_aif_set_counts_rejects_bad_input() -> None:
    agent = aif.PureAIF()
    with pytest.raises(ValueError, match="counts"):
        agent.set_counts(0, 0, (1, 0, 1))
    with pytest.raises(ValueError, match="legal"):
        agent.set_counts(THREE_MOVE_STATE, 1, (1, 1, 1))


# -------------------------------------------------------------------- learning


def test_boxes_are_overwritten_only_where_visited(T) -> None:
    agent = aif.HybridAIF(bead_scale=40)
    initial = [list(w) for w in agent.menace.weights]
    result, trajectory = play_game(agent, make_opponent("perfect"), np.random.default_rng(2))
    agent.end_game(trajectory, result)
    visited = {r[2] for r in trajectory if r[2] >= 0}
    assert visited
    for b, w in enumerate(agent.menace.weights):
        if b in visited:
            assert sum(w) == pytest.approx(40.0)
            np.testing.assert_allclose(w, 40 * agent.efe_table(agent.menace.states[b]).q)
        else:
            assert w == initial[b]


def test_hybrid_counts_each_opponent_move_once(T) -> None:
    agent = aif.InstrumentalAIF(opponent_alpha=0.5)
    before = sum(sum(a) for a in agent.model.alpha)
    result, trajectory = play_game(agent, make_opponent("random"), np.random.default_rng(5))
    moves = agent.opponent_moves(trajectory, result)
    agent.end_game(trajectory, result)
    assert sum(sum(a) for a in agent.model.alpha) == pytest.approx(before + len(moves))
    # The opponent moved after every agent move that did not end the game.
    ended_by_agent = agent.result[T.succ[trajectory[-1][0], trajectory[-1][1]]] >= 0
    assert len(moves) == len(trajectory) - int(ended_by_agent)
    for before_pid, square in moves:
        c = int(T.canon[before_pid])
        k = agent.model.tree.moves[c].index(T.canon_square_lists[before_pid][square])
        assert agent.model.alpha[c][k] >= 1.5


def test_final_opponent_move_is_inferred_or_observed(T) -> None:
    agent = aif.HybridAIF()
    # X0 O4 X1 O2 X3 O6: O completes the diagonal 2-4-6 with the game's last move.
    pids = [0]
    for square in (0, 4, 1, 2, 3, 6):
        pids.append(int(T.succ[pids[-1], square]))
    trajectory = [(pids[0], 0, -1), (pids[2], 1, -1), (pids[4], 3, -1)]
    assert agent.result[pids[-1]] == LOSS
    inferred = agent.opponent_moves(trajectory, LOSS)
    assert inferred == [(pids[1], 4), (pids[3], 2), (pids[5], 6)]
    assert agent.opponent_moves(trajectory, LOSS, final=pids[-1]) == inferred
    with pytest.raises(ValueError, match="opponent's move"):
        agent.opponent_moves(trajectory, LOSS, final=0)


def test_oracle_is_lazy_by_default(T) -> None:
    lazy, eager = aif.OracleAIF(), aif.OracleAIF(lazy=False)
    root = lazy.menace.box_of[0]
    assert lazy.menace.weights[root] == lazy.menace.initial[root]
    assert eager.menace.weights[root] != eager.menace.initial[root]
    result, trajectory = play_game(lazy, make_opponent("perfect"), np.random.default_rng(0))
    lazy.end_game(trajectory, result)
    np.testing.assert_allclose(lazy.menace.weights[root], eager.menace.weights[root])


def test_frozen_copy_never_learns() -> None:
    agent = aif.PureAIF(lam=0.5)
    train(agent, "optimal", 5, np.random.default_rng(0))
    frozen = agent.frozen_copy()
    weights = [list(w) for w in frozen.menace.weights]
    alpha = frozen.alpha.copy()
    train(frozen, "random", 20, np.random.default_rng(1))
    assert frozen.menace.weights == weights
    np.testing.assert_array_equal(frozen.alpha, alpha)
    assert agent.games_trained == 5 and frozen.games_trained == 5


def test_trace_records_epistemic_contributions() -> None:
    agent = aif.PureAIF(lam=0.5, trace=True)
    train(agent, "optimal", 30, np.random.default_rng(0))
    assert len(agent.trace) == 30
    first = agent.trace[0]
    assert first["game"] == 1 and first["states"] >= 1
    for entry in agent.trace:
        assert entry["epistemic_contribution"] == pytest.approx(0.5 * entry["epistemic"])
        assert entry["G"] == pytest.approx(
            entry["risk"] + 0 * entry["ambiguity"] - entry["epistemic_contribution"]
        )
        assert entry["kl_risk"] == entry["risk"]  # Pure AIF's risk is the KL
    # Information gain shrinks as outcome counts accumulate.
    assert agent.trace[-1]["epistemic"] < agent.trace[0]["epistemic"]
    assert aif.PureAIF().trace is None


@pytest.mark.parametrize(
    "make",
    [
        lambda: aif.OracleAIF(),
        lambda: aif.InstrumentalAIF(),
        lambda: aif.HybridAIF(),
        lambda: aif.PureAIF(lam=0.25),
        lambda: aif.HybridAIF(player=O),
    ],
)
def test_agents_train_against_perfect_and_evaluate_exactly(make) -> None:
    agent = make()
    log = train(agent, "optimal", 40, np.random.default_rng(0))
    assert set(log.results) <= {WIN, DRAW_RESULT, LOSS}
    P, rows, resign = agent.policy_matrix()
    np.testing.assert_allclose(P[rows].sum(axis=1), 1.0)
    assert not resign.any()
    outcome = exact_outcome(agent)
    assert sum(outcome.values()) == pytest.approx(1.0)
    assert outcome["win"] == pytest.approx(0.0, abs=1e-12)  # nobody beats perfect play
    json.dumps(agent.to_dict())
    assert isinstance(agent.name, str) and agent.name


def test_names_and_configs() -> None:
    assert aif.InstrumentalAIF().name == "Instrumental AIF (λ=0)"
    assert aif.HybridAIF().name == "Hybrid AIF (λ=0.5)"
    assert aif.OracleAIF(opponent_model="minimax").config.opponent_model == "minimax"
    assert aif.OracleAIF().lam == aif.HybridAIF().lam == 0.5  # the thesis runs' defaults
    assert aif.PureAIF(lam=0.25).to_dict()["config"]["lam"] == 0.25
    config = aif.AIFConfig(lam=0.25, beta_amb=0.1)
    assert aif.HybridAIF(config).config is config
    with pytest.raises(ValueError, match="fixes lam"):
        aif.InstrumentalAIF(lam=0.5)
    with pytest.raises(ValueError, match="fixes lam"):
        aif.InstrumentalAIF(config)
    with pytest.raises(TypeError, match="AIFConfig"):
        aif.OracleAIF("minimax")
    with pytest.raises(TypeError, match="not both"):
        aif.PureAIF(config, lam=0.5)


@pytest.mark.parametrize(
    ("make", "message"),
    [
        (lambda: aif.OracleAIF(lam=-0.1), "lam"),
        (lambda: aif.OracleAIF(lambda_policy=0.0), "lambda_policy"),
        (lambda: aif.HybridAIF(lambda_policy=-1), "lambda_policy"),
        (lambda: aif.PureAIF(prefs=(0.5, 0.5)), "prefs"),
        (lambda: aif.PureAIF(prefs=(0.5, -0.1, 0.6)), "non-negative"),
        (lambda: aif.OracleAIF(prefs=(0, 0, 0)), "zero"),
        (lambda: aif.OracleAIF(opponent_model="optimal"), "opponent model"),
        (lambda: aif.OracleAIF(filter="some"), "filter"),
        (lambda: aif.HybridAIF(policy_prior="centre"), "policy prior"),
        (lambda: aif.HybridAIF(opponent_alpha=0.0), "opponent_alpha"),
        (lambda: aif.PureAIF(beta_amb=-1.0), "beta_amb"),
        (lambda: aif.PureAIF(lam=float("nan")), "lam"),
        (lambda: aif.OracleAIF(bead_scale=0), "bead_scale"),
        (lambda: aif.OracleAIF(risk_form="ce"), "risk form"),
        (lambda: aif.HybridAIF(epistemic="all"), "epistemic term"),
        (lambda: aif.HybridAIF(player=3), "player"),
        (lambda: aif.PureAIF(policy_prior="menace"), "policy_prior='menace' does not apply"),
        (lambda: aif.PureAIF(opponent_alpha=2.0), "opponent_alpha=2.0 does not apply"),
        (lambda: aif.HybridAIF(opponent_model="minimax"), "opponent_model='minimax' does not"),
        (lambda: aif.OracleAIF(opponent_alpha=0.5), "opponent_alpha=0.5 does not apply"),
        (lambda: aif.AIFConfig(lazy=1), "lazy"),
    ],
)
def test_bad_parameters_raise(make, message: str) -> None:
    with pytest.raises(ValueError, match=message):
        make()


def test_end_game_rejects_bad_result() -> None:
    with pytest.raises(ValueError, match="result"):
        aif.PureAIF().end_game([], 3)


# ------------------------------------------------------------ the agent interface

KINDS = {
    "oracle": lambda **kw: aif.OracleAIF(**kw),
    "instrumental": lambda **kw: aif.InstrumentalAIF(**kw),
    "hybrid": lambda **kw: aif.HybridAIF(**kw),
    "pure": lambda **kw: aif.PureAIF(**kw),
}
SETTINGS = [
    ("oracle", {}),
    ("oracle", {"opponent_model": "minimax", "lazy": False, "player": O}),
    ("instrumental", {"policy_prior": "menace", "opponent_alpha": 0.5}),
    ("hybrid", {}),
    ("hybrid", {"beta_amb": 0.2, "risk_form": "kl", "epistemic": "next"}),
    ("hybrid", {"lam": 1.0, "player": O, "filter": "decision", "policy_prior": "menace-initial"}),
    ("pure", {"lam": 0.25}),
    ("pure", {"lam": 0.5, "beta_amb": 0.3, "player": O, "filter": "all"}),
]
SETTING_IDS = [f"{kind}-{i}" for i, (kind, _) in enumerate(SETTINGS)]


def state_of(agent) -> tuple:
    """Everything a later game depends on."""
    beliefs = agent.model.alpha if hasattr(agent, "model") else agent.alpha.tolist()
    return agent.menace.weights, beliefs, agent.games_trained


@pytest.mark.parametrize(("kind", "settings"), SETTINGS, ids=SETTING_IDS)
def test_agents_satisfy_the_agent_protocol(kind: str, settings: dict) -> None:
    agent = KINDS[kind](**settings)
    assert isinstance(agent, Agent)
    assert isinstance(agent.policy_matrix(), PolicyMatrix)
    assert not agent.frozen and agent.games_trained == 0
    frozen = agent.frozen_copy()
    assert frozen.frozen and isinstance(frozen, type(agent))


@pytest.mark.parametrize(("kind", "settings"), SETTINGS, ids=SETTING_IDS)
@pytest.mark.parametrize("opponent", ["perfect", "random", "defensive"])
@pytest.mark.parametrize("trace", [False, True])
def test_fast_training_loop_equals_the_plain_play_loop(
    kind: str, settings: dict, opponent: str, trace: bool
) -> None:
    fast, plain = KINDS[kind](trace=trace, **settings), KINDS[kind](trace=trace, **settings)
    opp = make_opponent(opponent, "uniform" if opponent == "perfect" else "lowest")
    log = fast.train_against(opp, 60, np.random.default_rng(11))
    plain_log = play_games(plain, opp, 60, np.random.default_rng(11))  # the rule: one game loop
    for field in ("results", "paths", "moves", "opponents", "resigned", "stopped_early"):
        assert getattr(log, field) == getattr(plain_log, field), field
    assert state_of(fast) == state_of(plain)
    assert fast.trace == plain.trace
    np.testing.assert_array_equal(fast.policy_matrix().probabilities, plain.policy_matrix()[0])
    quiet = fast.train_against(opp, 5, np.random.default_rng(0), record=False)
    assert quiet.paths == quiet.moves == [] and len(quiet) == 5


def test_train_against_rejects_a_bad_game_count() -> None:
    with pytest.raises(ValueError, match="games"):
        aif.PureAIF().train_against(make_opponent("random"), -1, np.random.default_rng(0))


@pytest.mark.parametrize(("kind", "settings"), SETTINGS, ids=SETTING_IDS)
def test_save_and_load_give_the_same_agent(kind: str, settings: dict) -> None:
    agent = KINDS[kind](**settings)
    # Ten games already move beads, counts and beliefs; more would check the same round trip.
    agent.train_against(make_opponent("random"), 10, np.random.default_rng(3))
    data = json.loads(json.dumps(agent.to_dict()))
    assert data["format"] == type(agent).FORMAT and data["version"] == 1
    twin = type(agent).from_dict(data)
    assert type(twin) is type(agent) and twin.config == agent.config
    assert twin.to_dict() == data
    assert state_of(twin) == state_of(agent)
    for mine, theirs in zip(agent.policy_matrix(), twin.policy_matrix(), strict=True):
        np.testing.assert_array_equal(mine, theirs)
    # The loaded agent goes on learning exactly as the original does.
    opp = make_opponent("perfect")
    a = agent.train_against(opp, 10, np.random.default_rng(5))
    b = twin.train_against(opp, 10, np.random.default_rng(5))
    assert a.results == b.results and state_of(agent) == state_of(twin)
    frozen = type(agent).from_dict(agent.frozen_copy().to_dict())
    assert frozen.frozen


@pytest.mark.parametrize(
    ("change", "field"),
    [
        (lambda d: d.update(format="menace_lib.menace"), "format"),
        (lambda d: d.update(version=2), "version"),
        (lambda d: d.update(colour="red"), "unknown field"),
        (lambda d: d["config"].update(lam=-1), "config[.:] ?lam"),
        (lambda d: d["config"].update(bogus=1), r"config: unknown field\(s\) \['bogus'\]"),
        (lambda d: d["config"].update(player="Z"), "config[.:] ?player"),
        (lambda d: d["config"].update(prefs="high"), "config[.:] ?prefs"),
        (lambda d: d["config"].update(filter="decision"), "menace.config"),
        (lambda d: d.update(frozen="yes"), "frozen"),
        (lambda d: d.update(games_trained=-3), "games_trained"),
        (lambda d: d["menace"]["boxes"][0]["beads"].__setitem__(0, -1), r"menace\..*boxes.*0"),
        (lambda d: d["menace"].pop("boxes"), r"menace\..*boxes"),
        (lambda d: d.update(opponent_counts={}), "opponent_counts: must be a list"),
        (lambda d: d["opponent_counts"][0].update(board="XXX/OO./..."), r"opponent_counts\[0\]"),
        (lambda d: d["opponent_counts"][0].update(counts=[1, -2]), r"opponent_counts\[0\].counts"),
        (lambda d: d["opponent_counts"][0].update(counts="ab"), r"opponent_counts\[0\].counts"),
        (lambda d: d["opponent_counts"].append(d["opponent_counts"][0]), r"opponent_counts\[\d+\]"),
    ],
)
def test_loading_a_bad_hybrid_file_names_the_field(change, field: str) -> None:
    agent = aif.HybridAIF()
    agent.train_against(make_opponent("perfect"), 5, np.random.default_rng(0))
    data = json.loads(json.dumps(agent.to_dict()))
    change(data)
    with pytest.raises(AgentFileError, match=field):
        aif.HybridAIF.from_dict(data)


@pytest.mark.parametrize(
    ("change", "field"),
    [
        (lambda d: d["outcome_counts"][0].update(move=9), r"outcome_counts\[0\].move"),
        (lambda d: d["outcome_counts"][0].update(board="X........"), r"outcome_counts\[0\].board"),
        (lambda d: d["outcome_counts"][0].update(counts=[1, 1]), r"outcome_counts\[0\].counts"),
        (lambda d: d["outcome_counts"][0].update(counts=[1, True, 1]), r"outcome_counts\[0\]"),
        (lambda d: d["outcome_counts"][0].pop("move"), r"outcome_counts\[0\]"),
        (lambda d: d["config"].update(policy_prior="menace"), "config: policy_prior"),
    ],
)
def test_loading_a_bad_pure_file_names_the_field(change, field: str) -> None:
    agent = aif.PureAIF()
    agent.train_against(make_opponent("perfect"), 5, np.random.default_rng(0))
    data = json.loads(json.dumps(agent.to_dict()))
    change(data)
    with pytest.raises(AgentFileError, match=field):
        aif.PureAIF.from_dict(data)


def test_files_of_one_kind_do_not_load_as_another() -> None:
    data = aif.InstrumentalAIF().to_dict()
    with pytest.raises(AgentFileError, match="format"):
        aif.HybridAIF.from_dict(data)
    data["format"] = aif.InstrumentalAIF.FORMAT
    data["config"]["lam"] = 0.5
    with pytest.raises(AgentFileError, match="fixes lam"):
        aif.InstrumentalAIF.from_dict(data)
    with pytest.raises(AgentFileError, match="top level"):
        aif.PureAIF.from_dict([1, 2])


def test_config_round_trips_and_keeps_prefs_as_given() -> None:
    config = aif.AIFConfig(lam=0.25, prefs=(0.0, 1.0, 0.0), player=O, lazy=False)
    again = aif.AIFConfig.from_dict(json.loads(json.dumps(config.to_dict())))
    assert again == config and again.prefs == (0.0, 1.0, 0.0)
    np.testing.assert_allclose(config.preferences, [1e-12, 1.0, 1e-12], rtol=1e-9)


# --------------------------------------------------------- deliberate fast copies


def test_fast_softmax_equals_the_rule_bit_for_bit() -> None:
    rng = np.random.default_rng(0)
    for trial in range(3000):
        n = int(rng.integers(1, 10))
        g = rng.normal(0.0, 1.0, n) * rng.choice([1e-3, 1.0, 10.0])
        if trial % 5 == 0:
            g[rng.integers(n)] = g.min()  # ties
        temperature = float(rng.choice([1e-300, 1e-6, 0.01, 0.25, 1.0, 1e6]))
        prior = None if trial % 2 else rng.random(n) * rng.choice([0.0, 8.0])
        q = softmax_rows([g.tolist()], temperature, [log_prior(prior)])[0]
        assert q == softmax_policy(g, temperature, prior).tolist()
        scaled = softmax_rows([g.tolist()], temperature, [log_prior(prior)], 40.0)[0]
        assert scaled == (softmax_policy(g, temperature, prior) * 40.0).tolist()


@pytest.mark.parametrize("n", range(0, 20))
def test_numpy_sum_is_numpys_sum(n: int) -> None:
    rng = np.random.default_rng(n)
    for _ in range(300):
        values = rng.random(n) * rng.choice([1e-8, 1.0, 1e8])
        assert numpy_sum(values.tolist()) == float(np.sum(values))


def test_scalar_digamma_gap_is_the_array_functions() -> None:
    x = np.concatenate([np.random.default_rng(0).random(3000) * 30, np.arange(0.5, 3000, 0.5)])
    expected = digamma_plus_one_minus_log(x)
    assert [digamma_gap(v) for v in x.tolist()] == expected.tolist()


def test_policy_priors() -> None:
    assert prior_weights("uniform", [0, 4], 3.0) is None
    np.testing.assert_array_equal(prior_weights("menace", [0, 1, 4], 3.0), [4.0, 2.0, 8.0])
    np.testing.assert_array_equal(prior_weights("menace-initial", [0, 1], 3.0), [3.0, 3.0])


# ------------------------------------------------- the book's numbers stay the same


@pytest.mark.golden
@pytest.mark.parametrize(
    ("path", "key"),
    [
        ("thesis_results.json", "9.1/Instrumental AIF/λ=0"),
        ("thesis_results.json", "9.1/Hybrid AIF/λ=0.5"),
        ("thesis_results.json", "9.1/Pure AIF/λ=0.5"),
        ("thesis_results.json", "9.1/Oracle AIF/λ=0.5, uniform model"),
        ("thesis_results.json", "9.2/Oracle AIF/minimax"),
        ("lambda_results.json", "λ/Hybrid AIF/λ=2"),
        ("lambda_results.json", "λ/Pure AIF/λ=1"),
    ],
)
def test_stored_book_runs_reproduce_exactly(path: str, key: str) -> None:
    from pathlib import Path

    from menace_lib.experiments import Condition, Protocol, SuiteResult, run_seed

    stored = SuiteResult.load_json(Path(__file__).parents[1] / "book" / "data" / path)
    record = stored.records_for(key)[-1]
    config = record["config"]
    condition = {k: v for k, v in config["condition"].items() if k != "on_depletion"}
    again = run_seed(Condition.from_dict(condition), config["seed"], Protocol(**config["protocol"]))
    for field in (
        "train_results",
        "val_draw",
        "exact_draw",
        "exact_loss",
        "robust_draw",
        "curve",
        "policy_kl",
        "empirical_kl",
        "trace",
    ):
        assert_same_numbers(again[field], record[field], field)


def test_every_kind_loads_through_the_library_reader(tmp_path) -> None:
    from menace_lib.agents.registry import agent_formats, agent_from_dict, load_agent

    for make in (aif.OracleAIF, aif.InstrumentalAIF, aif.HybridAIF, aif.PureAIF):
        agent = make()
        assert agent_formats()[agent.FORMAT] is make
        agent.train_against(make_opponent("perfect"), 3, np.random.default_rng(0))
        twin = agent_from_dict(json.loads(json.dumps(agent.to_dict())))
        assert type(twin) is make and twin.to_dict() == agent.to_dict()
        path = tmp_path / f"{make.__name__}.json"
        path.write_text(json.dumps(agent.to_dict()))
        assert load_agent(path).to_dict() == agent.to_dict()


def test_models_and_boxes_are_not_shared_between_agents() -> None:
    opp = make_opponent("perfect")
    first = aif.HybridAIF()
    first.train_against(opp, 20, np.random.default_rng(0))
    frozen = first.frozen_copy()
    counts, beads = [list(a) for a in frozen.model.alpha], [list(w) for w in frozen.menace.weights]
    first.train_against(opp, 20, np.random.default_rng(1))
    assert frozen.model.alpha == counts and frozen.menace.weights == beads
    fresh, untouched = aif.HybridAIF(), aif.GenerativeModel(aif.HybridAIF().config)
    assert fresh.model.alpha == untouched.alpha and fresh.model.G == untouched.G
    assert fresh.menace.weights == fresh.menace.initial
