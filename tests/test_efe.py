"""Tests for menace_lib.maths.efe: preferences, risk, expected free energy, policy, beads."""

from __future__ import annotations

import math

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from menace_lib.maths.dirichlet import entropy, mutual_information
from menace_lib.maths.efe import (
    DEFAULT_PREFERENCES,
    THESIS_TABLE_7_1,
    EFETerms,
    expected_free_energy,
    expected_free_energy_actions,
    normalise_preferences,
    policy_to_beads,
    risk,
    round_beads,
    softmax_policy,
    worked_example,
)

# Derived Pure-AIF values from the reference notes: alpha -> (KL, MI, G at lam 0, .25, .5).
PURE_AIF_TABLE = {
    (1, 1, 1): (0.420181, 0.265279, 0.420181, 0.353861, 0.287542),
    (2, 1, 1): (0.227081, 0.206387, 0.227081, 0.175484, 0.123887),
    (1, 2, 1): (0.361830, 0.206387, 0.361830, 0.310233, 0.258636),
    (1, 1, 2): (0.848307, 0.206387, 0.848307, 0.796710, 0.745114),
}

finite_energies = st.lists(st.floats(-50, 50, allow_nan=False), min_size=1, max_size=8).map(
    np.array
)


# ------------------------------------------------------------------- thesis Table 7.1


def test_worked_example_reproduces_table_7_1() -> None:
    example = worked_example()
    np.testing.assert_array_equal(np.round(example.terms.risk, 3), THESIS_TABLE_7_1["risk"])
    np.testing.assert_array_equal(
        np.round(example.terms.epistemic, 3), THESIS_TABLE_7_1["epistemic"]
    )
    np.testing.assert_array_equal(np.round(example.terms.G, 3), THESIS_TABLE_7_1["G"])
    np.testing.assert_array_equal(np.round(example.policy, 3), THESIS_TABLE_7_1["policy"])
    np.testing.assert_array_equal(example.rounded_beads, THESIS_TABLE_7_1["beads"])
    np.testing.assert_array_equal(
        np.round(example.predictive, 2),
        [[0.60, 0.20, 0.20], [0.25, 0.42, 0.33], [0.82, 0.09, 0.09]],
    )
    assert (example.lam, example.lambda_policy, example.beta_amb) == (0.25, 0.25, 0.0)
    assert example.risk_form == "kl" and example.scale == 100.0
    np.testing.assert_allclose(example.beads, 100 * example.policy)


def test_table_7_1_needs_kl_risk_not_cross_entropy() -> None:
    example = worked_example()
    terms = expected_free_energy_actions(
        example.alphas, example.prefs, lam=0.25, risk_form="cross_entropy"
    )
    np.testing.assert_array_equal(np.round(terms.risk, 3), [1.116, 1.564, 0.786])
    assert not np.array_equal(np.round(terms.risk, 3), THESIS_TABLE_7_1["risk"])


# ------------------------------------------------------------- reference Pure-AIF table


@pytest.mark.parametrize("alpha, row", sorted(PURE_AIF_TABLE.items()))
def test_pure_aif_derived_values(alpha: tuple[int, ...], row: tuple[float, ...]) -> None:
    kl, mi, *g_by_lam = row
    for lam, expected_G in zip((0.0, 0.25, 0.5), g_by_lam, strict=True):
        terms = expected_free_energy(alpha, DEFAULT_PREFERENCES, lam)
        assert terms.risk == pytest.approx(kl, abs=1e-6)
        assert terms.epistemic == pytest.approx(mi, abs=1e-6)
        g = terms.G
        assert g == pytest.approx(expected_G, abs=1e-6)


def test_repeated_draws_eventually_lose_to_an_untried_action() -> None:
    # Under KL risk a pure draw costs -ln 0.35 = 1.0498, more than Dir(1,1,1) at any lam.
    many_draws = expected_free_energy([1, 1e6, 1], DEFAULT_PREFERENCES, lam=0.5)
    untried = expected_free_energy([1, 1, 1], DEFAULT_PREFERENCES, lam=0.0)
    g_draws, g_untried = many_draws.G, untried.G
    assert g_draws == pytest.approx(1.049822, abs=1e-4)
    assert g_draws > g_untried


# --------------------------------------------------------------------------- preferences


def test_strict_preferences_pass_through() -> None:
    np.testing.assert_array_equal(normalise_preferences([0.6, 0.35, 0.05]), [0.6, 0.35, 0.05])


def test_lenient_preferences_follow_reference() -> None:
    np.testing.assert_allclose(
        normalise_preferences([6, 3.5, 0.5], strict=False), [0.6, 0.35, 0.05]
    )
    np.testing.assert_array_equal(normalise_preferences([1.0, 0.0], strict=False), [1.0, 1e-12])
    # Already normalised input is kept exactly as given.
    p = np.array([0.6, 0.35, 0.05])
    assert normalise_preferences(p, strict=False).tolist() == p.tolist()


@pytest.mark.parametrize("strict", [True, False])
@pytest.mark.parametrize(
    "prefs, message",
    [
        ([0.5, np.nan, 0.5], "finite"),
        ([0.5, np.inf, 0.5], "finite"),
        ([1.2, -0.2], "non-negative"),
        ([0.0, 0.0], "not all be zero"),
        ([[0.5, 0.5]], "1-D"),
    ],
)
def test_bad_preferences_are_always_rejected(prefs, message: str, strict: bool) -> None:
    with pytest.raises(ValueError, match=message):
        normalise_preferences(prefs, strict=strict)


def test_strict_preferences_reject_bad_sums_and_zeros() -> None:
    with pytest.raises(ValueError, match="sum to 1"):
        normalise_preferences([0.6, 0.35, 0.1])
    with pytest.raises(ValueError, match=r"> 0 where ln p"):
        normalise_preferences([0.65, 0.35, 0.0])
    with pytest.raises(ValueError, match="sum to 1"):
        expected_free_energy([1, 1, 1], [6, 3.5, 0.5], lam=0.25)
    lenient = expected_free_energy([1, 1, 1], [6, 3.5, 0.5], lam=0.25, strict=False)
    g_lenient = lenient.G
    assert g_lenient == pytest.approx(0.353861, abs=1e-6)


# ----------------------------------------------------------------------------- risk, EFE


@settings(max_examples=200, deadline=None)
@given(st.lists(st.floats(0.01, 100), min_size=3, max_size=3), st.sampled_from([0.0, 0.5, 2.0]))
def test_cross_entropy_risk_is_kl_plus_entropy(alpha: list[float], beta_amb: float) -> None:
    kl_terms = expected_free_energy(alpha, DEFAULT_PREFERENCES, 0.25, beta_amb, "kl")
    ce_terms = expected_free_energy(alpha, DEFAULT_PREFERENCES, 0.25, beta_amb, "cross_entropy")
    assert ce_terms.risk == pytest.approx(kl_terms.risk + kl_terms.ambiguity, abs=1e-12)
    g_gap = ce_terms.G - kl_terms.G
    assert g_gap == pytest.approx(kl_terms.ambiguity, abs=1e-12)


@settings(max_examples=200, deadline=None)
@given(
    st.lists(st.floats(0.01, 1e4), min_size=3, max_size=3),
    st.floats(0, 10),
    st.floats(0, 10),
    st.sampled_from(["kl", "cross_entropy"]),
)
def test_G_combines_its_terms(alpha: list[float], lam: float, beta_amb: float, form: str) -> None:
    terms = expected_free_energy(alpha, DEFAULT_PREFERENCES, lam, beta_amb, form)
    q = np.asarray(alpha) / np.sum(alpha)
    assert terms.risk == pytest.approx(risk(q, DEFAULT_PREFERENCES, form), abs=1e-14)
    assert terms.ambiguity == pytest.approx(entropy(q), abs=1e-14)
    assert terms.epistemic == mutual_information(alpha)
    g = terms.G
    assert g == pytest.approx(
        terms.risk + beta_amb * terms.ambiguity - lam * terms.epistemic, abs=1e-12
    )


def test_vectorised_efe_matches_one_action_at_a_time() -> None:
    alphas = np.array([[6, 2, 2], [3, 5, 4], [0.05, 500, 1]], dtype=float)
    batch = expected_free_energy_actions(alphas, DEFAULT_PREFERENCES, 0.5, 0.5, "cross_entropy")
    for i, alpha in enumerate(alphas):
        single = expected_free_energy(alpha, DEFAULT_PREFERENCES, 0.5, 0.5, "cross_entropy")
        assert isinstance(single, EFETerms) and isinstance(single.G, float)
        for field in ("risk", "ambiguity", "epistemic", "G"):
            assert getattr(batch, field)[i] == pytest.approx(getattr(single, field), abs=1e-15)


@pytest.mark.parametrize(
    "kwargs, message",
    [
        ({"lam": -0.1}, "lam"),
        ({"lam": np.nan}, "lam"),
        ({"lam": 0.25, "beta_amb": -1.0}, "beta_amb"),
        ({"lam": 0.25, "beta_amb": np.inf}, "beta_amb"),
        ({"lam": 0.25, "risk_form": "hinge"}, "risk form"),
    ],
)
def test_bad_weights_are_rejected(kwargs: dict, message: str) -> None:
    with pytest.raises(ValueError, match=message):
        expected_free_energy([1, 1, 1], DEFAULT_PREFERENCES, **kwargs)


def test_bad_alphas_and_shapes_are_rejected() -> None:
    with pytest.raises(ValueError, match="strictly positive"):
        expected_free_energy([1, -1, 1], DEFAULT_PREFERENCES, 0.25)
    with pytest.raises(ValueError, match="finite"):
        expected_free_energy([1, np.inf, 1], DEFAULT_PREFERENCES, 0.25)
    with pytest.raises(ValueError, match="outcomes"):
        expected_free_energy([1, 1], DEFAULT_PREFERENCES, 0.25)
    with pytest.raises(ValueError, match="2-D"):
        expected_free_energy_actions([1, 1, 1], DEFAULT_PREFERENCES, 0.25)
    with pytest.raises(ValueError, match="1-D"):
        expected_free_energy([[1, 1, 1]], DEFAULT_PREFERENCES, 0.25)


# -------------------------------------------------------------------------------- policy


@settings(max_examples=300, deadline=None)
@given(finite_energies, st.floats(1e-3, 1e3))
def test_softmax_is_a_distribution_ordered_by_G(G: np.ndarray, lambda_policy: float) -> None:
    q = softmax_policy(G, lambda_policy)
    assert q.sum() == pytest.approx(1.0, abs=1e-12)
    assert np.all(q >= 0)
    order = np.argsort(G, kind="stable")
    assert np.all(np.diff(q[order]) <= 1e-15)  # lower G, at least as much mass
    np.testing.assert_allclose(softmax_policy(G + 123.0, lambda_policy), q, atol=1e-12)


@settings(max_examples=300, deadline=None)
@given(st.lists(st.integers(-400, 400), min_size=1, max_size=8).map(lambda g: np.array(g) / 8))
def test_softmax_limits(g: np.ndarray) -> None:
    # G on a grid of step 1/8, so every gap dwarfs lambda_policy = 1e-6: exp(-1.25e5) = 0.
    cold = softmax_policy(g, 1e-6)
    assert np.array_equal(cold, softmax_policy(g, 1e-300))
    best = g == g.min()
    np.testing.assert_allclose(cold[best], 1.0 / best.sum())
    assert np.all(cold[~best] == 0.0)
    prior = np.arange(1, len(g) + 1, dtype=float)
    hot = softmax_policy(g, 1e300, prior)
    np.testing.assert_allclose(hot, prior / prior.sum(), rtol=1e-12)


def test_softmax_prior_is_clamped_and_weights_policy() -> None:
    q = softmax_policy([0.0, 0.0, 0.0], 0.25, prior=[8, 4, 0])
    np.testing.assert_allclose(q, np.array([8, 4, 1e-12]) / (12 + 1e-12))
    np.testing.assert_allclose(softmax_policy([0.0, math.log(2)], 1.0), [2 / 3, 1 / 3])


@pytest.mark.parametrize("lambda_policy", [0.0, -1.0, np.nan, np.inf])
def test_bad_lambda_policy_is_rejected(lambda_policy: float) -> None:
    with pytest.raises(ValueError, match="lambda_policy"):
        softmax_policy([0.1, 0.2], lambda_policy)


def test_bad_G_and_prior_are_rejected() -> None:
    with pytest.raises(ValueError, match="finite"):
        softmax_policy([0.1, np.nan], 0.25)
    with pytest.raises(ValueError, match="prior must have shape"):
        softmax_policy([0.1, 0.2], 0.25, prior=[1, 1, 1])
    with pytest.raises(ValueError, match="prior must be finite and >= 0"):
        softmax_policy([0.1, 0.2], 0.25, prior=[1, -1])


# --------------------------------------------------------------------------------- beads


def test_beads_are_scaled_policy_without_rounding() -> None:
    q = np.array([0.5, 0.3, 0.2])
    np.testing.assert_allclose(policy_to_beads(q), [50.0, 30.0, 20.0])
    np.testing.assert_allclose(policy_to_beads(q, scale=40), [20.0, 12.0, 8.0])
    np.testing.assert_array_equal(round_beads([45.8, 12.5, 41.6, 0.49]), [46, 13, 42, 0])


def test_bad_bead_inputs_are_rejected() -> None:
    with pytest.raises(ValueError, match="scale"):
        policy_to_beads([0.5, 0.5], scale=0)
    with pytest.raises(ValueError, match="sum to 1"):
        policy_to_beads([0.5, 0.6])
    with pytest.raises(ValueError, match="weights"):
        round_beads([1.0, -2.0])
