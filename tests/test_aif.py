"""Tests for menace_lib.aif: the generative model, the EFE tables and the three agents."""

from __future__ import annotations

import json
import math

import numpy as np
import pytest

from menace_lib import aif
from menace_lib.board import O, X
from menace_lib.dirichlet import mutual_information
from menace_lib.efe import THESIS_TABLE_7_1, softmax_policy
from menace_lib.evaluation import exact_outcome
from menace_lib.games import play_game as play_between
from menace_lib.menace import DRAW_RESULT, LOSS, WIN
from menace_lib.opponents import make_opponent
from menace_lib.statespace import ONGOING, tables
from menace_lib.training import train

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
    agent.observe_end(game.final)
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
    agent = aif.OracleAIF("minimax", lam=lam, prefs=GOLDEN_PREFS, beta_amb=0.3)
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
    agent = aif.OracleAIF("uniform", lam=0.5, prefs=GOLDEN_PREFS)
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


def test_incremental_refresh_matches_full_recomputation() -> None:
    agent = aif.HybridAIF(lam=0.5, beta_amb=0.1)
    train(agent, "random", 60, np.random.default_rng(4))
    fresh = aif.GenerativeModel(X, agent.prefs, 0.5, 0.1, "uniform", 1.0)
    fresh.alpha = [list(a) for a in agent.model.alpha]
    fresh.mi = list(agent.model.mi)
    for c in reversed(fresh.tree.ids):
        fresh._update(c)
    np.testing.assert_allclose(agent.model.G, fresh.G, rtol=0, atol=1e-12)
    np.testing.assert_allclose(agent.model.E, fresh.E, rtol=0, atol=1e-12)
    # ... and the incrementally kept information gains are the library's.
    for c in fresh.tree.ids[::11]:
        if len(agent.model.alpha[c]) > 1:
            assert agent.model.mi[c] == pytest.approx(
                mutual_information(agent.model.alpha[c]), abs=1e-12
            )


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
    tab = aif.OracleAIF("uniform", lam=0.5).efe_table(0)
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
    summed = aif.OracleAIF("uniform", lam=0.0)
    nxt = aif.OracleAIF("uniform", lam=0.0, epistemic="next")
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
    tab = aif.OracleAIF("uniform", lam=0.5, lambda_policy=1e-6).efe_table(0)
    best = np.isclose(tab.G, tab.G.min(), rtol=0, atol=1e-12)
    assert tab.q[best].sum() == pytest.approx(1.0)
    assert tab.q[4] == pytest.approx(1.0)


def test_policy_is_the_softmax_of_G_and_beads_follow_it(T) -> None:
    agent = aif.OracleAIF("uniform", lam=0.5, lazy=False, bead_scale=40)
    tab = agent.efe_table(0)
    np.testing.assert_allclose(tab.q, softmax_policy(tab.G, 0.25))
    np.testing.assert_allclose(agent.menace.weights[agent.menace.box_of[0]], 40 * tab.q)


def test_menace_prior_shapes_a_flat_policy() -> None:
    # A huge temperature returns the prior: centre 8 > corners 4 > edges 2.
    tab = aif.OracleAIF(
        "uniform", lam=0.0, prefs=GOLDEN_PREFS, lambda_policy=1e6, policy_prior="menace"
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
        cm = aif._canonical_moves()[pid][square]
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
        k = agent.model.tree.moves[c].index(aif._canonical_moves()[before_pid][square])
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
    json.dumps(agent.config())
    assert isinstance(agent.name, str) and agent.name


def test_names_and_configs() -> None:
    assert aif.InstrumentalAIF().name == "Instrumental AIF (λ=0)"
    assert aif.HybridAIF().name == "Hybrid AIF (λ=0.5)"
    assert aif.OracleAIF("minimax").config()["opponent_model"] == "minimax"
    assert aif.PureAIF(lam=0.25).config()["lam"] == 0.25
    with pytest.raises(ValueError, match="fixes lam"):
        aif.InstrumentalAIF(lam=0.5)


@pytest.mark.parametrize(
    ("make", "message"),
    [
        (lambda: aif.OracleAIF(lam=-0.1), "lam"),
        (lambda: aif.OracleAIF(lambda_policy=0.0), "lambda_policy"),
        (lambda: aif.HybridAIF(lambda_policy=-1), "lambda_policy"),
        (lambda: aif.PureAIF(prefs=(0.5, 0.5)), "prefs"),
        (lambda: aif.PureAIF(prefs=(0.5, -0.1, 0.6)), "non-negative"),
        (lambda: aif.OracleAIF(prefs=(0, 0, 0)), "zero"),
        (lambda: aif.OracleAIF("optimal"), "opponent model"),
        (lambda: aif.OracleAIF(filter="some"), "filter"),
        (lambda: aif.HybridAIF(policy_prior="centre"), "policy prior"),
        (lambda: aif.HybridAIF(opponent_alpha=0.0), "opponent_alpha"),
        (lambda: aif.PureAIF(beta_amb=-1.0), "beta_amb"),
        (lambda: aif.PureAIF(lam=float("nan")), "lam"),
        (lambda: aif.OracleAIF(bead_scale=0), "bead_scale"),
        (lambda: aif.OracleAIF(risk_form="ce"), "risk form"),
        (lambda: aif.HybridAIF(epistemic="all"), "epistemic term"),
    ],
)
def test_bad_parameters_raise(make, message: str) -> None:
    with pytest.raises(ValueError, match=message):
        make()


def test_end_game_rejects_bad_result() -> None:
    with pytest.raises(ValueError, match="result"):
        aif.PureAIF().end_game([], 3)
