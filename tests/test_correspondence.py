"""Tests for menace_lib.book.correspondence: MENACE read as a Dirichlet-categorical learner."""

from __future__ import annotations

import math

import numpy as np
import pytest

from menace_lib.book.correspondence import (
    RULES,
    boltzmann_preferences,
    box_order_dependence,
    crossover_lambda,
    expected_drift,
    expected_log_theta,
    expected_theta_log_theta,
    log_moments_mc,
    mda_update,
    mean_field_path,
    order_dependence,
    policy_over_lambda,
    replay_counts,
    replicator_drift,
    scaled_efe,
    schedule_comparison,
    simulate_box_bandit,
    thompson_choice_probabilities,
    update_audit,
    utility_risk_identity,
)
from menace_lib.machine.menace import LOSS, WIN, Menace, MenaceConfig
from menace_lib.maths.dirichlet import (
    cross_entropy,
    expected_entropy,
    probability_matching_sample,
    thompson_sample,
)
from menace_lib.maths.efe import expected_free_energy_actions, softmax_policy, worked_example
from menace_lib.play.loop import TrainingLog
from menace_lib.play.training import train

BOX = np.array([[0.5, 0.3, 0.2], [0.3, 0.4, 0.3], [0.2, 0.3, 0.5]])
PREFS = (0.60, 0.35, 0.05)


def rng(seed: int = 0) -> np.random.Generator:
    return np.random.default_rng(seed)


# ------------------------------------------------------------------------------ acting


def test_thompson_choice_probabilities_match_the_scalar_sampler() -> None:
    alpha = [6.0, 3.0, 1.0]
    estimate = thompson_choice_probabilities(alpha, 40_000, rng(1))
    g = rng(2)
    draws = np.bincount([thompson_sample(alpha, g) for _ in range(4_000)], minlength=3) / 4_000
    assert estimate.sum() == pytest.approx(1.0)
    np.testing.assert_allclose(draws, estimate, atol=0.03)


def test_thompson_sharpens_with_scale_while_matching_does_not() -> None:
    small = thompson_choice_probabilities([6.0, 3.0, 1.0], 20_000, rng(3))
    large = thompson_choice_probabilities([60.0, 30.0, 10.0], 20_000, rng(4))
    # Probability matching would play the leader 60% of the time at both scales.
    assert small[0] > 0.6 and large[0] > small[0] and large[0] > 0.99
    symmetric = thompson_choice_probabilities([2.0, 2.0, 2.0], 30_000, rng(5))
    np.testing.assert_allclose(symmetric, 1 / 3, atol=0.015)


def test_matching_rule_draws_beads_in_proportion() -> None:
    # Zero reinforcement freezes the box: every step is a draw from alpha / alpha_0.
    run = simulate_box_bandit(
        BOX, "matching", 50, 4_000, rng(6), initial=[6.0, 3.0, 1.0], reinforcement=(0, 0, 0)
    )
    freq = np.bincount(run.choices.ravel(), minlength=3) / run.choices.size
    np.testing.assert_allclose(freq, [0.6, 0.3, 0.1], atol=0.01)
    g = rng(7)
    scalar = np.bincount([probability_matching_sample([6, 3, 1], g) for _ in range(4_000)])
    np.testing.assert_allclose(scalar / 4_000, [0.6, 0.3, 0.1], atol=0.03)
    np.testing.assert_array_equal(run.final_alpha, np.tile([6.0, 3.0, 1.0], (4_000, 1)))


def test_matching_never_draws_an_empty_colour() -> None:
    run = simulate_box_bandit(
        BOX, "matching", 30, 500, rng(8), initial=[4.0, 0.0, 4.0], reinforcement=(0, 0, 0)
    )
    assert not np.any(run.choices == 1)


@pytest.mark.parametrize("rule", RULES)
def test_every_rule_learns_a_dominant_move(rule: str) -> None:
    # Colour 0 always wins, the others always lose: every learner should find it.
    probs = np.array([[1.0, 0.0, 0.0], [0.0, 0.0, 1.0], [0.0, 0.0, 1.0]])
    run = simulate_box_bandit(probs, rule, 60, 300, rng(9))
    late = run.choice_frequencies()[-10:, 0].mean()
    assert late > 0.9
    assert np.all(run.regret >= 0)
    assert run.regret[run.choices == 0].max() == 0.0
    assert run.regret[run.choices != 0].min() == 4.0  # U(win) - U(loss) = 3 - (-1)


def test_regret_is_zero_when_all_moves_are_alike() -> None:
    probs = np.tile([0.4, 0.4, 0.2], (3, 1))
    run = simulate_box_bandit(probs, "thompson", 40, 50, rng(10))
    assert np.all(run.regret == 0.0)
    assert np.all(run.mean_cumulative_regret() == 0.0)


def test_bandit_outcomes_follow_outcome_probs_and_alpha_follows_updates() -> None:
    run = simulate_box_bandit(BOX, "matching", 40, 200, rng(11), record_alpha=True)
    hist = run.alpha_history
    assert hist is not None and hist.shape == (200, 41, 3)
    r, t = 17, 5
    a, o = run.choices[r, t], run.outcomes[r, t]
    expected = hist[r, t].copy()
    expected[a] = max(expected[a] + (3.0, 1.0, -1.0)[o], 0.0)
    if expected.max() <= 0:
        expected[:] = 4.0
    np.testing.assert_array_equal(hist[r, t + 1], expected)
    np.testing.assert_array_equal(hist[:, -1], run.final_alpha)
    rates = run.outcome_rates()
    assert sum(rates.values()) == pytest.approx(1.0)


def test_value_thompson_keeps_conjugate_outcome_counts() -> None:
    run = simulate_box_bandit(BOX, "value-thompson", 30, 20, rng(12))
    counts = run.outcome_counts
    assert counts is not None
    for r in range(20):
        expected = np.ones((3, 3))
        np.add.at(expected, (run.choices[r], run.outcomes[r]), 1.0)
        np.testing.assert_array_equal(counts[r], expected)


def test_bandit_rejects_bad_input() -> None:
    with pytest.raises(ValueError, match="rule"):
        simulate_box_bandit(BOX, "softmax", 5, 5, rng())
    with pytest.raises(ValueError, match="sum to 1"):
        simulate_box_bandit([[0.5, 0.5, 0.5]], "matching", 5, 5, rng())
    with pytest.raises(ValueError, match="steps"):
        simulate_box_bandit(BOX, "matching", 0, 5, rng())
    with pytest.raises(ValueError, match="Generator"):
        simulate_box_bandit(BOX, "matching", 5, 5, 42)  # type: ignore[arg-type]
    with pytest.raises(ValueError, match="initial"):
        simulate_box_bandit(BOX, "matching", 5, 5, rng(), initial=[1.0, -1.0, 1.0])
    with pytest.raises(ValueError, match="initial"):
        simulate_box_bandit(BOX, "matching", 5, 5, rng(), initial=[0.0, 0.0, 0.0])


# -------------------------------------------------------------------------- learning


def test_mda_update_replays_menace_exactly() -> None:
    config = MenaceConfig(restock="box")
    agent = Menace(config)
    log = train(agent, "mixed", 300, rng(13))
    boxes = {b: np.array(w) for b, w in enumerate(Menace(config).initial)}
    initial = dict(boxes)
    for path, result in zip(log.paths, log.results, strict=True):
        boxes = mda_update(boxes, path, config.reinforcement[result], initial=initial)
    for b, w in enumerate(agent.weights):
        np.testing.assert_array_equal(boxes[b], w)


def test_mda_update_clamps_restocks_and_leaves_input_alone() -> None:
    boxes = {"s": np.array([1.0, 2.0])}
    initial = {"s": np.array([3.0, 3.0])}
    out = mda_update(boxes, [("s", 0)], -1.0, initial=initial)
    np.testing.assert_array_equal(out["s"], [0.0, 2.0])
    np.testing.assert_array_equal(boxes["s"], [1.0, 2.0])
    # Epsilon clamp (thesis text): the count never reaches 0.
    eps = mda_update(boxes, [("s", 0)], -5.0, initial=initial, floor=0.1)
    np.testing.assert_array_equal(eps["s"], [0.1, 2.0])
    move = mda_update(boxes, [("s", 0)], -1.0, initial=initial, restock="move")
    np.testing.assert_array_equal(move["s"], [3.0, 2.0])
    empty = mda_update({"s": np.array([1.0, 0.0])}, [("s", 0)], -1.0, initial=initial)
    np.testing.assert_array_equal(empty["s"], [3.0, 3.0])
    kept = mda_update(
        {"s": np.array([1.0, 0.0])}, [("s", 0)], -1.0, initial=initial, restock="none"
    )
    np.testing.assert_array_equal(kept["s"], [0.0, 0.0])
    # States without a box learn nothing.
    assert mda_update(boxes, [("other", 0)], 3.0, initial=initial)["s"].tolist() == [1.0, 2.0]
    with pytest.raises(ValueError, match="colour"):
        mda_update(boxes, [("s", 2)], 1.0, initial=initial)
    with pytest.raises(ValueError, match="floor"):
        mda_update(boxes, [("s", 0)], 1.0, initial=initial, floor=-1.0)


def test_increments_commute_but_clamped_decrements_do_not() -> None:
    assert order_dependence(2.0, [3.0, 1.0, 1.0, 3.0]) == {10.0: 6}
    finals = order_dependence(1.0, [-1.0, -1.0, 3.0])
    assert finals == {2.0: 2, 3.0: 1}  # loss, loss, win gains a bead from the clamp
    assert replay_counts(1.0, [-1.0, -1.0, 3.0]) == 3.0
    assert replay_counts(1.0, [3.0, -1.0, -1.0]) == 2.0
    assert replay_counts(1.0, [-1.0, -1.0, 3.0], floor=0.5) == 3.5
    with pytest.raises(ValueError, match="at most 10"):
        order_dependence(1.0, [1.0] * 11)


def test_restocking_makes_a_box_depend_on_the_order_of_games() -> None:
    games = [(0, -1.0), (1, -1.0), (2, -1.0), (0, 3.0)]
    finals = box_order_dependence([1.0, 1.0, 1.0], games)
    # Win first: no restock. Three losses first: the box is emptied, refilled, then won.
    assert finals == {(3.0, 0.0, 0.0): 12, (4.0, 1.0, 1.0): 6}
    everything = box_order_dependence([1.0, 1.0, 1.0], games, feasible_only=False)
    assert sum(everything.values()) == 24
    # Count-adding games commute.
    added = box_order_dependence([1.0, 1.0, 1.0], [(0, 1.0), (1, 3.0), (0, 3.0)])
    assert added == {(5.0, 4.0, 1.0): 6}
    with pytest.raises(ValueError, match="colour"):
        box_order_dependence([1.0, 1.0], [(2, 1.0)])


def test_update_audit_balances_the_bead_ledger() -> None:
    for restock in ("box", "move", "none"):
        config = MenaceConfig(restock=restock)
        agent = Menace(config)
        log = train(agent, "mixed", 400, rng(14))
        audit = update_audit(config, log)
        assert audit.final_beads == pytest.approx(agent.total_beads())
        ledger = (
            audit.initial_beads + audit.signed_beads + audit.beads_clamped + audit.beads_restocked
        )
        assert audit.final_beads == pytest.approx(ledger)
        assert audit.updates == audit.increments + audit.decrements
        assert audit.updates == sum(len(p) for p in log.paths)
        assert 0.0 < audit.below_initial < 1.0


def test_update_audit_counts_a_hand_made_log() -> None:
    config = MenaceConfig(restock="box")
    agent = Menace(config)
    box = next(b for b, w in enumerate(agent.initial) if w == [1.0, 1.0, 1.0])
    # Each colour loses once (1 -> 0): the emptied box is restocked, then colour 0 wins.
    paths = [[(box, 0)], [(box, 1)], [(box, 2)], [(box, 0)]]
    log = TrainingLog(results=[LOSS, LOSS, LOSS, WIN], paths=paths)
    audit = update_audit(config, log)
    assert (audit.decrements, audit.increments, audit.clamped) == (3, 1, 0)
    assert (audit.emptied, audit.box_restocks, audit.beads_restocked) == (3, 1, 3.0)
    assert audit.final_beads - audit.initial_beads == 3.0
    with pytest.raises(ValueError, match="paths"):
        update_audit(config, TrainingLog(results=[WIN]))


def test_a_count_adding_schedule_never_falls_below_the_prior() -> None:
    config = MenaceConfig(reinforcement=(3, 1, 0))
    log = train(Menace(config), "mixed", 300, rng(15))
    audit = update_audit(config, log)
    assert audit.decrements == audit.clamped == audit.box_restocks == 0
    assert audit.below_initial == 0.0


def test_schedule_comparison_is_paired_and_exact() -> None:
    out = schedule_comparison({"a": (3, 1, -1), "b": (3, 1, -1)}, [0, 1], games=50)
    np.testing.assert_array_equal(out["a"], out["b"])
    assert out["a"].shape == (2, 3)
    np.testing.assert_allclose(out["a"].sum(axis=1), 1.0)
    assert np.all(out["a"][:, 0] == 0.0)  # nobody beats the perfect player


# ------------------------------------------------------------------- policy shaping


def test_expected_drift_matches_simulation() -> None:
    alpha = np.array([4.0, 2.0, 1.0])
    drift = expected_drift(alpha, BOX)
    assert drift.sum() == pytest.approx(0.0, abs=1e-12)
    run = simulate_box_bandit(BOX, "matching", 1, 200_000, rng(16), initial=alpha)
    after = run.final_alpha / run.final_alpha.sum(axis=1, keepdims=True)
    sampled = after.mean(axis=0) - alpha / alpha.sum()
    np.testing.assert_allclose(sampled, drift, atol=1.5e-3)


def test_expected_drift_approaches_the_replicator_dynamics() -> None:
    base = np.array([4.0, 4.0, 4.0])
    errors = []
    for c in (1, 10, 100):
        exact = expected_drift(c * base, BOX)
        approx = replicator_drift(c * base, BOX)
        errors.append(np.abs(exact - approx).max() / np.abs(approx).max())
    assert errors[0] > errors[1] > errors[2] and errors[2] < 0.01
    # The replicator step raises the box's expected utility (Fisher: by a variance).
    pi = base / base.sum()
    u = BOX @ np.array([3.0, 1.0, -1.0])
    step = replicator_drift(base, BOX)
    assert step @ u == pytest.approx(np.var(u) / base.sum())  # uniform pi: Var over moves
    assert (pi + step) @ u > pi @ u


def test_expected_drift_handles_an_emptying_box() -> None:
    # One bead left, and the move always loses: the box empties and is restocked.
    drift = expected_drift([1.0, 0.0], [[0, 0, 1], [0, 0, 1]], initial=[2.0, 2.0])
    np.testing.assert_allclose(drift, [-0.5, 0.5])
    none = expected_drift([1.0, 0.0], [[0, 0, 1], [0, 0, 1]], restock="none")
    np.testing.assert_allclose(none, [0.0, 0.0])


def test_boltzmann_preferences_make_cross_entropy_affine_in_utility() -> None:
    u = np.array([3.0, 1.0, -1.0])
    p = boltzmann_preferences(u, 2.0)
    assert p.sum() == pytest.approx(1.0) and p[0] > p[1] > p[2]
    g = rng(17)
    q = g.dirichlet([1, 1, 1], size=50)
    risks = cross_entropy(q, p)
    slope, intercept = np.polyfit(q @ u, risks, 1)
    assert slope == pytest.approx(-0.5)
    np.testing.assert_allclose(risks, slope * (q @ u) + intercept, atol=1e-12)
    with pytest.raises(ValueError, match="temperature"):
        boltzmann_preferences(u, 0.0)


def test_mean_field_path_follows_the_expected_update() -> None:
    path = mean_field_path([4.0, 4.0, 4.0], BOX, 200)
    assert path.shape == (201, 3)
    np.testing.assert_allclose(path.sum(axis=1), 1.0)
    np.testing.assert_allclose(path[0], 1 / 3)
    # One step: alpha + pi * u, from (4, 4, 4) with u = BOX @ (3, 1, -1).
    u = BOX @ np.array([3.0, 1.0, -1.0])
    first = np.array([4.0, 4.0, 4.0]) + u / 3
    np.testing.assert_allclose(path[1], first / first.sum())
    assert path[-1, 0] > path[0, 0] and path[-1, 2] < path[0, 2]


def test_utility_risk_identity() -> None:
    q = rng(19).dirichlet([2, 1, 1], size=20)
    out = utility_risk_identity(q, [3.0, 1.0, -1.0], 1.5)
    np.testing.assert_allclose(out["cross_entropy"], out["affine"], atol=1e-12)
    np.testing.assert_allclose(out["cross_entropy"], out["kl"] + out["entropy"], atol=1e-12)
    with pytest.raises(ValueError, match="outcomes"):
        utility_risk_identity(q, [1.0, 0.0], 1.0)


# ---------------------------------------------------------- epistemic vs instrumental


def test_lambda_zero_ignores_concentration() -> None:
    scales = np.array([0.5, 1.0, 10.0, 100.0])
    flat = scaled_efe([6.0, 2.0, 2.0], PREFS, 0.0, scales)
    np.testing.assert_allclose(flat.G, flat.G[0])
    curious = scaled_efe([6.0, 2.0, 2.0], PREFS, 0.5, scales)
    assert np.all(np.diff(curious.G) > 0)  # fewer counts, more epistemic value, lower G
    assert np.all(np.diff(curious.epistemic) < 0)


def test_policy_over_lambda_reproduces_table_7_1_and_risk_only_policy() -> None:
    ex = worked_example()
    rows = policy_over_lambda(ex.alphas, ex.prefs, [0.0, 0.25])
    np.testing.assert_allclose(rows[1], ex.policy)
    np.testing.assert_allclose(rows[0], softmax_policy(ex.terms.risk, 0.25))
    # At lambda = 0 scaling every action's counts changes nothing.
    np.testing.assert_allclose(policy_over_lambda(10 * ex.alphas, ex.prefs, [0.0])[0], rows[0])
    with pytest.raises(ValueError, match="epistemic weight"):
        policy_over_lambda(ex.alphas, ex.prefs, [-1.0])


def test_crossover_lambda_equalises_the_two_actions() -> None:
    known, untried = [30.0, 15.0, 5.0], [1.0, 1.0, 1.0]
    lam = crossover_lambda(known, untried, PREFS)
    assert 0 < lam < math.inf
    g = expected_free_energy_actions(np.array([known, untried]), PREFS, lam).G
    assert g[0] == pytest.approx(g[1])
    assert crossover_lambda(untried, known, PREFS) == 0.0
    # Better risk but *less* epistemic value than the alternative: never overtaken.
    assert crossover_lambda([6.0, 2.0, 2.0], [30.0, 30.0, 30.0], PREFS) == math.inf


# ------------------------------------------------------------------- entropy identity


def test_log_moments_match_monte_carlo() -> None:
    alpha = np.array([0.7, 2.0, 5.0])
    mean_log, se_log, mean_tlt, se_tlt = log_moments_mc(alpha, 200_000, rng(18))
    assert np.all(np.abs(mean_log - expected_log_theta(alpha)) < 5 * se_log)
    assert np.all(np.abs(mean_tlt - expected_theta_log_theta(alpha)) < 5 * se_tlt)
    assert -expected_theta_log_theta(alpha).sum() == pytest.approx(expected_entropy(alpha))


def test_entropy_identities_reject_bad_alpha() -> None:
    with pytest.raises(ValueError, match="alpha"):
        expected_theta_log_theta([1.0, 0.0])
    with pytest.raises(ValueError, match="n must"):
        log_moments_mc([1.0, 1.0], 1, rng())
