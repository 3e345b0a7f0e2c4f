"""Tests for menace_lib.maths.dirichlet: moments, entropies, mutual information, samplers."""

from __future__ import annotations

import math

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from scipy import stats

from menace_lib.maths.dirichlet import (
    conjugate_update,
    cross_entropy,
    dirichlet_logpdf,
    dirichlet_mean,
    dirichlet_variance,
    entropy,
    expected_entropy,
    kl_divergence,
    mutual_information,
    mutual_information_mc,
    predictive_entropy,
    probability_matching_sample,
    thompson_sample,
)

# Dir(1^k) mutual information for k = 2..9, from the reference implementation notes.
UNIFORM_PRIOR_MI = {
    2: 0.193147,
    3: 0.265279,
    4: 0.302961,
    5: 0.326105,
    6: 0.341759,
    7: 0.353053,
    8: 0.361584,
    9: 0.368256,
}


def alphas(min_k: int = 2, max_k: int = 6, low: float = 1e-3, high: float = 1e3):
    """Concentration vectors with k in [min_k, max_k] and entries in [low, high]."""
    return st.integers(min_k, max_k).flatmap(
        lambda k: st.lists(
            st.floats(low, high, allow_nan=False, allow_infinity=False), min_size=k, max_size=k
        ).map(np.array)
    )


def mi_high_precision(alpha: np.ndarray) -> float:
    mpmath = pytest.importorskip("mpmath")
    with mpmath.workdps(60):
        a = [mpmath.mpf(float(x)) for x in alpha]
        a0 = sum(a)
        value = sum(
            (x / a0) * (mpmath.digamma(x + 1) - mpmath.digamma(a0 + 1) - mpmath.log(x / a0))
            for x in a
        )
        return float(value)


# ---------------------------------------------------------------------- known values


def test_mi_of_uniform_prior_dir_111() -> None:
    assert mutual_information([1.0, 1.0, 1.0]) == pytest.approx(0.265279, abs=1e-6)
    assert round(mutual_information([1, 1, 1]), 4) == 0.2653


@pytest.mark.parametrize("k, expected", sorted(UNIFORM_PRIOR_MI.items()))
def test_mi_of_uniform_prior_matches_reference_table(k: int, expected: float) -> None:
    harmonic = sum(1.0 / j for j in range(1, k + 1))
    assert mutual_information(np.ones(k)) == pytest.approx(expected, abs=1e-6)
    assert mutual_information(np.ones(k)) == pytest.approx(math.log(k) - harmonic + 1, abs=1e-13)


def test_single_component_has_no_information() -> None:
    assert mutual_information([3.0]) == 0.0
    assert predictive_entropy([3.0]) == 0.0


@pytest.mark.parametrize(
    "alpha",
    [
        [1e-6, 1e-6, 1e-6],
        [0.05, 0.05, 0.05],
        [0.05, 1.0, 0.2],
        [6, 2, 2],
        [9.99, 10.01, 3],
        [500, 500, 500],
        [500, 1, 20],
        [1e6, 2e6, 3e6],
        [1e9, 1, 1e3],
    ],
)
def test_mi_matches_60_digit_reference(alpha: list[float]) -> None:
    exact = mi_high_precision(np.array(alpha, dtype=float))
    assert mutual_information(alpha) == pytest.approx(exact, rel=1e-11, abs=1e-300)


def test_mean_and_variance_of_beta() -> None:
    # Beta(2, 3): mean 2/5, variance ab / ((a+b)^2 (a+b+1)) = 6 / 150.
    np.testing.assert_allclose(dirichlet_mean([2, 3]), [0.4, 0.6])
    np.testing.assert_allclose(dirichlet_variance([2, 3]), [0.04, 0.04])
    np.testing.assert_allclose(dirichlet_variance([2, 3]), stats.beta(2, 3).var())


def test_variance_matches_scipy() -> None:
    alpha = np.array([0.5, 2.0, 7.0])
    np.testing.assert_allclose(dirichlet_variance(alpha), stats.dirichlet(alpha).var())


def test_expected_entropy_matches_scipy_beta_moment() -> None:
    # For k = 2, E[H(theta)] = -E[t ln t + (1-t) ln(1-t)], t ~ Beta(a, b); integrate it.
    a, b = 2.5, 0.7
    from scipy.integrate import quad

    def integrand(t: float) -> float:
        h = -(t * math.log(t) + (1 - t) * math.log1p(-t)) if 0 < t < 1 else 0.0
        return h * stats.beta(a, b).pdf(t)

    numeric, _ = quad(integrand, 0, 1, limit=200)
    assert expected_entropy([a, b]) == pytest.approx(numeric, abs=1e-8)


def test_conjugate_update_adds_counts() -> None:
    np.testing.assert_array_equal(conjugate_update([1, 1, 1], [2, 0, 1]), [3, 1, 2])
    np.testing.assert_array_equal(conjugate_update([[1, 1], [2, 2]], [1, 0]), [[2, 1], [3, 2]])


def test_logpdf_matches_scipy_and_handles_boundary() -> None:
    alpha = np.array([2.0, 3.0, 0.5])
    x = np.array([0.2, 0.3, 0.5])
    assert dirichlet_logpdf(x, alpha) == pytest.approx(stats.dirichlet(alpha).logpdf(x))
    points = np.array([[0.2, 0.3, 0.5], [0.1, 0.6, 0.3]])
    np.testing.assert_allclose(
        dirichlet_logpdf(points, alpha), [stats.dirichlet(alpha).logpdf(p) for p in points]
    )
    assert dirichlet_logpdf([1 / 3] * 3, [1, 1, 1]) == pytest.approx(math.log(2))
    assert dirichlet_logpdf([0.0, 0.4, 0.6], [2, 1, 1]) == -np.inf
    assert dirichlet_logpdf([0.0, 0.4, 0.6], [0.5, 1, 1]) == np.inf


# ------------------------------------------------------------- categorical measures


def test_entropy_kl_cross_entropy_basics() -> None:
    assert entropy([0.5, 0.5]) == pytest.approx(math.log(2))
    assert entropy([1.0, 0.0, 0.0]) == 0.0
    assert kl_divergence([0.5, 0.5], [0.5, 0.5]) == 0.0
    q, p = np.array([0.6, 0.2, 0.2]), np.array([0.6, 0.35, 0.05])
    assert cross_entropy(q, p) == pytest.approx(kl_divergence(q, p) + entropy(q), abs=1e-15)
    # One-hot outcomes: both risk forms reduce to the surprisal -ln p(o).
    for i, surprisal in enumerate([0.510826, 1.049822, 2.995732]):
        onehot = np.eye(3)[i]
        assert kl_divergence(onehot, p) == pytest.approx(surprisal, abs=1e-6)
        assert cross_entropy(onehot, p) == pytest.approx(surprisal, abs=1e-6)


def test_reference_numerics_skip_tiny_q_and_clamp_p() -> None:
    # q components <= 1e-12 are skipped; p is clamped to 1e-12 inside the log.
    assert entropy([1 - 1e-13, 1e-13]) == pytest.approx(0.0, abs=1e-12)
    assert kl_divergence([0.5, 0.5], [1.0, 0.0]) == pytest.approx(
        0.5 * math.log(0.5) + 0.5 * math.log(0.5 / 1e-12)
    )
    assert cross_entropy([0.0, 1.0], [1.0, 0.0]) == pytest.approx(-math.log(1e-12))


def test_categorical_measures_are_row_wise() -> None:
    q = np.array([[0.6, 0.2, 0.2], [0.25, 0.5, 0.25]])
    p = np.array([0.6, 0.35, 0.05])
    np.testing.assert_allclose(kl_divergence(q, p), [kl_divergence(r, p) for r in q])
    np.testing.assert_allclose(cross_entropy(q, p), [cross_entropy(r, p) for r in q])
    np.testing.assert_allclose(entropy(q), [entropy(r) for r in q])


def test_batched_dirichlet_functions_are_row_wise() -> None:
    batch = np.array([[6.0, 2.0, 2.0], [3.0, 5.0, 4.0], [0.05, 500.0, 1.0]])
    for function in (mutual_information, predictive_entropy, expected_entropy):
        result = function(batch)
        assert result.shape == (3,)
        np.testing.assert_allclose(result, [function(row) for row in batch], rtol=0, atol=0)
    np.testing.assert_allclose(dirichlet_mean(batch), batch / batch.sum(axis=1, keepdims=True))
    assert isinstance(mutual_information(batch[0]), float)


# --------------------------------------------------------------------------- properties


@settings(max_examples=300, deadline=None)
@given(alphas(low=1e-4, high=1e6))
def test_mi_is_non_negative(alpha: np.ndarray) -> None:
    assert mutual_information(alpha) >= 0.0


@settings(max_examples=300, deadline=None)
@given(alphas(low=1e-3, high=1e4))
def test_predictive_entropy_splits_into_aleatoric_plus_epistemic(alpha: np.ndarray) -> None:
    total = predictive_entropy(alpha)
    assert total == pytest.approx(expected_entropy(alpha) + mutual_information(alpha), abs=1e-10)
    assert expected_entropy(alpha) <= total + 1e-12


@settings(max_examples=200, deadline=None)
@given(alphas(low=1e-2, high=1e2))
def test_concentrating_alpha_shrinks_mi_but_not_predictive_entropy(alpha: np.ndarray) -> None:
    scales = [1.0, 3.0, 10.0, 100.0, 1e4, 1e6]
    mi = [mutual_information(c * alpha) for c in scales]
    h_pred = [predictive_entropy(c * alpha) for c in scales]
    assert all(later <= earlier * (1 + 1e-12) for earlier, later in zip(mi, mi[1:], strict=False))
    np.testing.assert_allclose(h_pred, h_pred[0], rtol=1e-12, atol=1e-15)
    # Asymptotically I ~ (k - 1) / (2 alpha_0): a check on precision, not only the limit.
    alpha0 = 1e6 * alpha.sum()
    assert mi[-1] * 2 * alpha0 == pytest.approx(len(alpha) - 1, rel=1e-3)


@settings(max_examples=25, deadline=None)
@given(alphas(max_k=4, low=0.3, high=30.0), st.integers(0, 2**32 - 1))
def test_monte_carlo_mi_agrees_with_closed_form(alpha: np.ndarray, seed: int) -> None:
    # Each draw KL(theta || abar) lies in [0, R], R = -ln min(abar), so by Hoeffding
    # P(|estimate - I| >= t) <= 2 exp(-2 n t^2 / R^2). t = R sqrt(ln(2 / 1e-9) / (2n))
    # makes a spurious failure a one-in-a-billion event for any seed.
    n = 100_000
    bound = -math.log(np.min(alpha / alpha.sum()))
    tolerance = bound * math.sqrt(math.log(2 / 1e-9) / (2 * n))
    estimate = mutual_information_mc(alpha, n, np.random.default_rng(seed))
    assert abs(estimate - mutual_information(alpha)) <= tolerance


def test_monte_carlo_mi_is_close_for_dir_111() -> None:
    # A single draw KL(theta || abar) has standard deviation about 0.197 under
    # Dir(1, 1, 1), so at n = 400k the standard error is 3.1e-4; allow 4 of them.
    estimate = mutual_information_mc([1, 1, 1], 400_000, np.random.default_rng(20240601))
    assert estimate == pytest.approx(0.265279, abs=4 * 0.197 / math.sqrt(400_000))


# ----------------------------------------------------------------------------- samplers


def test_probability_matching_frequencies_are_alpha_over_alpha0() -> None:
    rng = np.random.default_rng(7)
    alpha = np.array([4.0, 3.0, 2.0, 1.0])
    n = 40_000
    counts = np.bincount([probability_matching_sample(alpha, rng) for _ in range(n)], minlength=4)
    expected = alpha / alpha.sum()
    # Binomial standard error is at most 0.5 / sqrt(n) = 0.0025; allow 5 of them.
    np.testing.assert_allclose(counts / n, expected, atol=5 * 0.5 / math.sqrt(n))


def test_thompson_sampling_picks_the_larger_draw() -> None:
    rng = np.random.default_rng(11)
    a, b = 3.0, 2.0
    n = 40_000
    wins = sum(thompson_sample([a, b], rng) == 0 for _ in range(n))
    # For k = 2, P(choose 0) = P(Beta(a, b) > 1/2).
    assert wins / n == pytest.approx(stats.beta(a, b).sf(0.5), abs=5 * 0.5 / math.sqrt(n))


def test_samplers_return_python_ints() -> None:
    rng = np.random.default_rng(0)
    assert isinstance(thompson_sample([1, 1], rng), int)
    assert isinstance(probability_matching_sample([1, 1], rng), int)


# ---------------------------------------------------------------------------- rejections


@pytest.mark.parametrize(
    "alpha, message",
    [
        ([1.0, -1.0], "strictly positive"),
        ([1.0, 0.0], "strictly positive"),
        ([1.0, np.nan], "finite"),
        ([1.0, np.inf], "finite"),
        ([], "at least one"),
        (np.ones((2, 2, 2)), "1-D"),
    ],
)
@pytest.mark.parametrize(
    "function",
    [mutual_information, predictive_entropy, expected_entropy, dirichlet_mean, dirichlet_variance],
)
def test_bad_alpha_is_rejected(function, alpha, message: str) -> None:
    with pytest.raises(ValueError, match=message):
        function(alpha)


@pytest.mark.parametrize(
    "q, message",
    [
        ([0.5, 0.6], "sum to 1"),
        ([1.5, -0.5], "non-negative"),
        ([np.nan, 1.0], "finite"),
    ],
)
def test_bad_probability_vectors_are_rejected(q, message: str) -> None:
    with pytest.raises(ValueError, match=message):
        entropy(q)
    with pytest.raises(ValueError, match=message):
        kl_divergence(q, [0.5, 0.5])
    with pytest.raises(ValueError, match=message):
        cross_entropy([0.5, 0.5], q)


def test_mismatched_lengths_are_rejected() -> None:
    with pytest.raises(ValueError, match="same number of outcomes"):
        kl_divergence([0.5, 0.5], [1 / 3, 1 / 3, 1 / 3])
    with pytest.raises(ValueError, match="do not match"):
        conjugate_update([1, 1, 1], [1, 1])
    with pytest.raises(ValueError, match="components"):
        dirichlet_logpdf([0.5, 0.5], [1, 1, 1])


def test_bad_counts_sample_sizes_and_generators_are_rejected() -> None:
    with pytest.raises(ValueError, match="counts must be finite and >= 0"):
        conjugate_update([1, 1], [-1, 0])
    with pytest.raises(ValueError, match="positive integer"):
        mutual_information_mc([1, 1], 0, np.random.default_rng(0))
    with pytest.raises(ValueError, match="Generator"):
        mutual_information_mc([1, 1], 10, np.random.RandomState(0))
    with pytest.raises(ValueError, match="Generator"):
        thompson_sample([1, 1], 0)
