"""Exact two-armed bandit regret (menace_lib.maths.bandit_regret) against hand values,
a brute-force rational recursion over whole histories, Monte Carlo, and the cache."""

from __future__ import annotations

import json
import math
from fractions import Fraction
from functools import cache
from pathlib import Path

import numpy as np
import pytest
from scipy.integrate import quad
from scipy.stats import beta

from menace_lib.maths import bandit_regret as br

DATA = Path(__file__).resolve().parents[1] / "book" / "data" / "exact_regret.json"


# --- an independent rational recursion over histories (small horizons) ---------------


def _beta_fn(a: int, b: int) -> Fraction:
    return Fraction(math.factorial(a - 1) * math.factorial(b - 1), math.factorial(a + b - 1))


def _p_first_larger(a1: int, b1: int, a2: int, b2: int) -> Fraction:
    """P(X1 > X2) for Beta variables with integer parameters (Miller's finite sum)."""
    p2 = sum(
        (_beta_fn(a1 + i, b1 + b2) / ((b2 + i) * _beta_fn(1 + i, b2) * _beta_fn(a1, b1)))
        for i in range(a2)
    )
    return 1 - p2


def _arm_one(policy: str, s1: int, f1: int, s2: int, f2: int, b1: int, b2: int) -> Fraction:
    m1, m2 = Fraction(s1 + 1, s1 + f1 + 2), Fraction(s2 + 1, s2 + f2 + 2)
    if policy == "greedy":
        return Fraction(1) if m1 > m2 else Fraction(0) if m1 < m2 else Fraction(1, 2)
    if policy == "thompson":
        return _p_first_larger(s1 + 1, f1 + 1, s2 + 1, f2 + 1)
    if policy == "matching":
        return m1 / (m1 + m2)
    if policy == "win-bead":
        return Fraction(s1 + 1, s1 + s2 + 2)
    return Fraction(b1, b1 + b2)  # menace: the beads


@cache
def _value(
    policy: str, left: int, s1: int, f1: int, s2: int, f2: int, b1: int, b2: int
) -> Fraction:
    """Expected total reward still to come (posterior predictive; the beads ride along)."""
    if left == 0:
        return Fraction(0)
    p1, p2 = Fraction(s1 + 1, s1 + f1 + 2), Fraction(s2 + 1, s2 + f2 + 2)
    q1 = p1 * (1 + _value(policy, left - 1, s1 + 1, f1, s2, f2, b1 + 1, b2)) + (1 - p1) * _value(
        policy, left - 1, s1, f1 + 1, s2, f2, max(b1 - 1, 1), b2
    )
    q2 = p2 * (1 + _value(policy, left - 1, s1, f1, s2 + 1, f2, b1, b2 + 1)) + (1 - p2) * _value(
        policy, left - 1, s1, f1, s2, f2 + 1, b1, max(b2 - 1, 1)
    )
    if policy == "bayes-optimal":
        return max(q1, q2)
    pi = _arm_one(policy, s1, f1, s2, f2, b1, b2)
    return pi * q1 + (1 - pi) * q2


def _brute_regret(policy: str, horizon: int) -> Fraction:
    return Fraction(2, 3) * horizon - _value(policy, horizon, 0, 0, 0, 0, 1, 1)


def _dp(policy: str, horizon: int) -> float:
    if policy == "bayes-optimal":
        return br.bayes_optimal_regret(horizon)
    if policy == "menace":
        return float(br.bead_rule_regret(horizon)[-1])
    return float(br.count_policy_regret(policy, horizon)[-1])


HAND = {  # horizon 1 and 2, worked by hand (see the module's docstring for the policies)
    "bayes-optimal": (Fraction(1, 6), Fraction(1, 4)),
    "greedy": (Fraction(1, 6), Fraction(1, 4)),
    "thompson": (Fraction(1, 6), Fraction(11, 36)),
    "matching": (Fraction(1, 6), Fraction(4, 3) - Fraction(1, 2) - Fraction(18, 35)),
    "win-bead": (Fraction(1, 6), Fraction(4, 3) - Fraction(1, 2) - Fraction(37, 72)),
    "menace": (Fraction(1, 6), Fraction(4, 3) - Fraction(1, 2) - Fraction(37, 72)),
}


@pytest.mark.parametrize("policy", br.POLICIES)
def test_horizons_one_and_two_match_the_hand_values(policy):
    for horizon, want in zip((1, 2), HAND[policy], strict=True):
        assert _dp(policy, horizon) == pytest.approx(float(want), abs=1e-12)
        assert _brute_regret(policy, horizon) == want


@pytest.mark.parametrize("policy", br.POLICIES)
def test_dynamic_programme_equals_a_rational_recursion_over_histories(policy):
    for horizon in (3, 5, 7):
        assert _dp(policy, horizon) == pytest.approx(
            float(_brute_regret(policy, horizon)), abs=1e-12
        )


def test_thompson_probabilities_are_exact():
    layers = list(br.thompson_layer(12))
    rng = np.random.default_rng(0)
    for _ in range(25):
        n = int(rng.integers(0, 12))
        s1, f1, s2 = (int(x) for x in rng.integers(0, n + 1, size=3))
        f2 = n - s1 - f1 - s2
        if f2 < 0:
            continue
        a1, b1, a2, b2 = s1 + 1, f1 + 1, s2 + 1, f2 + 1

        def integrand(x, a1=a1, b1=b1, a2=a2, b2=b2):
            return beta.pdf(x, a2, b2) * beta.sf(x, a1, b1)

        by_quad = quad(integrand, 0, 1, epsabs=1e-13)[0]
        assert layers[n][s1, f1, s2] == pytest.approx(by_quad, abs=1e-10)
        assert layers[n][s1, f1, s2] == pytest.approx(
            float(_p_first_larger(a1, b1, a2, b2)), abs=1e-12
        )
        assert br.thompson_probability(a1, b1, a2, b2) == pytest.approx(by_quad, abs=1e-10)


def test_the_bead_chain_reproduces_the_count_programme_for_a_win_adds_a_bead():
    on_beads = br.bead_rule_regret(20, loss=0)
    on_counts = br.count_policy_regret("win-bead", 20)
    np.testing.assert_allclose(on_beads, on_counts, atol=1e-12)


def _simulate(policy: str, horizon: int, runs: int, rng: np.random.Generator) -> np.ndarray:
    """Per-run regret sum_t (max theta - theta_arm): a Monte Carlo check, sampled for real."""
    theta = rng.random((runs, 2))
    s = np.zeros((runs, 2))
    f = np.zeros((runs, 2))
    beads = np.ones((runs, 2))
    regret = np.zeros(runs)
    best = theta.max(axis=1)
    idx = np.arange(runs)
    for _ in range(horizon):
        m = (s + 1) / (s + f + 2)
        if policy == "greedy":
            tie = rng.random(runs) < 0.5
            arm = np.where(
                m[:, 0] > m[:, 1], 0, np.where(m[:, 0] < m[:, 1], 1, np.where(tie, 0, 1))
            )
        elif policy == "thompson":
            draws = rng.beta(s + 1, f + 1)
            arm = (draws[:, 1] > draws[:, 0]).astype(int)
        elif policy == "matching":
            arm = (rng.random(runs) >= m[:, 0] / m.sum(axis=1)).astype(int)
        else:  # menace
            arm = (rng.random(runs) >= beads[:, 0] / beads.sum(axis=1)).astype(int)
        win = rng.random(runs) < theta[idx, arm]
        regret += best - theta[idx, arm]
        s[idx, arm] += win
        f[idx, arm] += ~win
        beads[idx, arm] = np.where(win, beads[idx, arm] + 1, np.maximum(beads[idx, arm] - 1, 1))
    return regret


@pytest.mark.parametrize("policy", ["greedy", "thompson", "matching", "menace"])
def test_exact_regret_lies_in_a_monte_carlo_interval(policy):
    horizon, runs = 30, 40_000
    sample = _simulate(policy, horizon, runs, np.random.default_rng([38, len(policy)]))
    mean, se = sample.mean(), sample.std(ddof=1) / math.sqrt(runs)
    assert abs(_dp(policy, horizon) - mean) <= 4.5 * se  # a 1-in-150,000 miss by chance


def test_bayes_optimal_is_the_least_regret():
    for horizon in (4, 12, 25):
        best = br.bayes_optimal_regret(horizon)
        for policy in br.POLICIES[1:]:
            assert best <= _dp(policy, horizon) + 1e-12


@pytest.mark.parametrize(
    "call",
    [
        lambda: br.count_policy_regret("greedy", 0),
        lambda: br.count_policy_regret("nope", 5),
        lambda: br.bayes_optimal_regret(10_000),
        lambda: br.bead_rule_regret(5, loss=1),
        lambda: br.bead_rule_regret(5, start=1, floor=2),
        lambda: br.thompson_probability(0, 1, 1, 1),
    ],
)
def test_bad_input_is_refused_in_one_line(call):
    with pytest.raises((ValueError, TypeError)) as err:
        call()
    assert "\n" not in str(err.value)


def test_cached_table_reruns_a_slice():
    doc = json.loads(DATA.read_text(encoding="utf-8"))
    assert doc["format"] == "menace_lib.bandit_regret"
    i = doc["horizons"].index(20)
    assert doc["table"]["bayes-optimal"][i] == pytest.approx(br.bayes_optimal_regret(20), abs=1e-12)
    for policy in ("greedy", "matching", "win-bead"):
        assert doc["table"][policy][i] == pytest.approx(_dp(policy, 20), abs=1e-12)
    assert doc["curves"]["menace"][:20] == pytest.approx(list(br.bead_rule_regret(20)), abs=1e-12)
    voi = [
        g - b for g, b in zip(doc["table"]["greedy"], doc["table"]["bayes-optimal"], strict=True)
    ]
    assert doc["value_of_information"] == pytest.approx(voi, abs=1e-15)
