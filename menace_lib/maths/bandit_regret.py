"""Exact Bayesian regret of a two-armed Bernoulli bandit, by dynamic programming.

The bandit of the thesis's Chapter 5 reduced to its smallest form: two arms with
unknown success probabilities ``theta_1, theta_2``, independent and uniform
(``Beta(1, 1)`` priors), a reward of 1 for a success and 0 for a failure, ``T``
pulls. The *Bayesian regret* of a policy at horizon ``T`` is

    R(T) = T * E[max(theta_1, theta_2)] - E[total reward] = 2T/3 - E[total reward],

the expectation taken over the prior and over the play. Nothing here samples.

Policies that read the four counts ``(s1, f1, s2, f2)`` (successes and failures per
arm) are carried on those counts, whose distribution is the Bayesian one: after a
history with these counts the posterior is ``Beta(s_i + 1, f_i + 1)`` per arm, the
next pull of arm ``i`` succeeds with probability ``(s_i + 1) / (s_i + f_i + 2)``, and
the counts after ``n`` pulls form the layer ``s1 + f1 + s2 + f2 = n``
(:func:`count_policy_regret`, forward over layers, every horizon at once):

``greedy``      the arm with the higher posterior mean; a tie is split evenly;
``thompson``    Thompson sampling, played with its exact probability
                ``P(theta_1 > theta_2)`` under the two Beta posteriors
                (:func:`thompson_layer`, closed form, no sampling);
``matching``    probability matching on posterior means: arm 1 with probability
                ``m_1 / (m_1 + m_2)``;
``win-bead``    "a win adds a bead": one bead per arm at the start, a success adds a
                bead to the arm pulled, a failure changes nothing; arm ``i`` is drawn
                with probability ``(s_i + 1) / (s_1 + s_2 + 2)``.

The Bayes-optimal policy (:func:`bayes_optimal_regret`) is the Bellman recursion over
the same counts, backwards from the horizon (it depends on the pulls left, so one
recursion per horizon).

MENACE's own rule (``menace``, :func:`bead_rule_regret`) is not a function of the
counts. Its state is the beads: ``b_i`` beads of arm ``i`` (``start`` each at
first), a success adds one bead to the arm pulled, a failure takes one away unless
the arm is down to ``floor`` beads (so an arm never leaves the box, as MENACE's
refilled boxes never lose a move), and arm ``i`` is drawn with probability
``b_i / (b_1 + b_2)``. Given ``theta`` the beads are a Markov chain; its expected
reward at step ``t`` is a polynomial of degree at most ``t`` in each ``theta_i``,
so the prior expectation is an exact Gauss-Legendre sum over ``theta`` with
``T // 2 + 1`` nodes per arm (exact for degree ``2 * nodes - 1``).
"""

from __future__ import annotations

from collections.abc import Iterator
from typing import Any

import numpy as np
from numpy.typing import NDArray

__all__ = [
    "COUNT_POLICIES",
    "EXPECTED_MAX",
    "POLICIES",
    "bayes_optimal_regret",
    "bead_rule_regret",
    "count_policy_regret",
    "OPTIMAL_HORIZONS",
    "TABLE_HORIZONS",
    "exact_regret_table",
    "instantaneous_limit_matching",
    "thompson_layer",
    "thompson_probability",
]

EXPECTED_MAX = 2.0 / 3.0
"""E[max(theta_1, theta_2)] for two independent uniform arms: the best arm's mean reward."""

COUNT_POLICIES = ("greedy", "thompson", "matching", "win-bead")
"""The policies that read the counts (:func:`count_policy_regret`)."""

POLICIES = ("bayes-optimal", *COUNT_POLICIES, "menace")
"""Every policy of the regret table, in display order."""

_MAX_HORIZON = 400
"""Largest horizon accepted: the count layers grow as ``T**3`` (memory and time)."""


def _check_horizon(horizon: int) -> int:
    if not isinstance(horizon, (int, np.integer)) or isinstance(horizon, bool):
        raise TypeError(f"horizon must be an int, got {type(horizon).__name__}")
    if not 1 <= horizon <= _MAX_HORIZON:
        raise ValueError(f"horizon must be between 1 and {_MAX_HORIZON}, got {horizon}")
    return int(horizon)


def _layer(n: int) -> tuple[NDArray[np.int64], ...]:
    """Counts of layer ``n`` on an ``(n+1)**3`` grid indexed by ``(s1, f1, s2)``.

    ``f2 = n - s1 - f1 - s2``; cells where it is negative are not states (``valid``).
    """
    s1, f1, s2 = np.indices((n + 1,) * 3)
    f2 = n - s1 - f1 - s2
    valid = f2 >= 0
    return s1, f1, s2, np.where(valid, f2, 0), valid


def thompson_probability(a1: int, b1: int, a2: int, b2: int) -> float:
    """``P(X_1 > X_2)`` for independent ``X_i ~ Beta(a_i, b_i)`` with integer ``a_2``.

    The closed form (a finite sum over ``i < a_2``; Cook 2005, Miller 2015), used to
    check :func:`thompson_layer`.
    """
    if min(a1, b1, a2, b2) < 1:
        raise ValueError(f"Beta parameters must be at least 1, got {(a1, b1, a2, b2)}")
    from scipy.special import betaln  # here: importing scipy.special costs about 0.5 CPU-s

    i = np.arange(int(a2))
    terms = np.exp(betaln(a1 + i, b1 + b2) - np.log(b2 + i) - betaln(1 + i, b2) - betaln(a1, b1))
    return float(1.0 - terms.sum())


def thompson_layer(horizon: int) -> Iterator[NDArray[np.float64]]:
    """``P(theta_1 > theta_2)`` on every count layer ``0 .. horizon - 1``, exactly.

    With ``a_i = s_i + 1``, ``b_i = f_i + 1``: where ``s_2 = 0``,
    ``P = 1 - B(a_1, b_1 + b_2) / B(a_1, b_1)``; one more success of arm 2 lowers it
    by ``h / a_2`` with ``h = B(a_1 + a_2, b_1 + b_2) / (B(a_1, b_1) B(a_2, b_2))``
    (Cook's recurrence), and that state lies one layer up, so each layer follows
    from the one before. Cells that are not states hold 0.
    """
    from scipy.special import gammaln

    horizon = _check_horizon(horizon)
    # Beta functions of integer arguments from one table of log-factorials (fast, exact
    # to rounding): log B(a, b) = lg[a] + lg[b] - lg[a + b], lg[x] = log Gamma(x).
    lg = gammaln(np.arange(4 * horizon + 8, dtype=float))  # invalid cells reach 3n + 4

    def logbeta(a: NDArray[np.int64], b: NDArray[np.int64]) -> NDArray[np.float64]:
        return lg[a] + lg[b] - lg[a + b]

    prev: NDArray[np.float64] | None = None
    for n in range(horizon):
        s1, f1, s2, f2, valid = _layer(n)
        a1, b1, a2, b2 = s1 + 1, f1 + 1, s2 + 1, f2 + 1
        g = 1.0 - np.exp(logbeta(a1, b1 + b2) - logbeta(a1, b1))
        if prev is not None:
            # State (s1, f1, s2, f2) with s2 >= 1 comes from (s1, f1, s2 - 1, f2) one layer down.
            up = (slice(0, n), slice(0, n), slice(1, n + 1))
            A1, B1, A2, B2 = a1[up], b1[up], a2[up] - 1, b2[up]
            h = np.exp(logbeta(A1 + A2, B1 + B2) - logbeta(A1, B1) - logbeta(A2, B2))
            g[up] = prev[:n, :n, :n] - h / A2
        g = np.where(valid, g, 0.0)
        yield g
        prev = g


def _arm_one(policy: str, s1, f1, s2, f2) -> NDArray[np.float64]:
    """P(pull arm 1) of a count policy on a layer grid."""
    m1 = (s1 + 1.0) / (s1 + f1 + 2.0)
    m2 = (s2 + 1.0) / (s2 + f2 + 2.0)
    if policy == "greedy":
        return np.where(m1 > m2, 1.0, np.where(m1 < m2, 0.0, 0.5))
    if policy == "matching":
        return m1 / (m1 + m2)
    if policy == "win-bead":
        return (s1 + 1.0) / (s1 + s2 + 2.0)
    raise ValueError(f"unknown count policy {policy!r}; choose from {COUNT_POLICIES}")


def count_policy_regret(policy: str, horizon: int) -> NDArray[np.float64]:
    """Bayesian regret ``R(1), ..., R(horizon)`` of a count policy (:data:`COUNT_POLICIES`).

    The distribution of the counts is carried forward layer by layer; the expected
    reward of pull ``n + 1`` is read off layer ``n``.
    """
    if policy not in COUNT_POLICIES:
        raise ValueError(f"unknown count policy {policy!r}; choose from {COUNT_POLICIES}")
    horizon = _check_horizon(horizon)
    thompson = thompson_layer(horizon) if policy == "thompson" else None
    prob = np.ones((1, 1, 1))
    reward = np.empty(horizon)
    for n in range(horizon):
        s1, f1, s2, f2, valid = _layer(n)
        pi = next(thompson) if thompson is not None else _arm_one(policy, s1, f1, s2, f2)
        p1 = (s1 + 1.0) / (s1 + f1 + 2.0)
        p2 = (s2 + 1.0) / (s2 + f2 + 2.0)
        w1, w2 = np.where(valid, prob * pi, 0.0), np.where(valid, prob * (1.0 - pi), 0.0)
        reward[n] = float((w1 * p1).sum() + (w2 * p2).sum())
        nxt = np.zeros((n + 2,) * 3)
        nxt[1:, :-1, :-1] += w1 * p1  # arm 1 succeeds
        nxt[:-1, 1:, :-1] += w1 * (1.0 - p1)  # arm 1 fails
        nxt[:-1, :-1, 1:] += w2 * p2  # arm 2 succeeds
        nxt[:-1, :-1, :-1] += w2 * (1.0 - p2)  # arm 2 fails: f2 + 1, same (s1, f1, s2)
        prob = nxt
    return EXPECTED_MAX * np.arange(1, horizon + 1) - np.cumsum(reward)


def bayes_optimal_regret(horizon: int) -> float:
    """Bayesian regret at ``horizon`` of the Bayes-optimal policy (Bellman over the counts).

    ``V_n = max_i [p_i (1 + V_{n+1}(success of i)) + (1 - p_i) V_{n+1}(failure of i)]``,
    ``V_horizon = 0``; the regret is ``2 * horizon / 3 - V_0``.
    """
    horizon = _check_horizon(horizon)
    value = np.zeros((horizon + 1,) * 3)
    for n in range(horizon - 1, -1, -1):
        s1, f1, s2, f2, valid = _layer(n)
        p1 = (s1 + 1.0) / (s1 + f1 + 2.0)
        p2 = (s2 + 1.0) / (s2 + f2 + 2.0)
        q1 = p1 * (1.0 + value[1:, :-1, :-1]) + (1.0 - p1) * value[:-1, 1:, :-1]
        q2 = p2 * (1.0 + value[:-1, :-1, 1:]) + (1.0 - p2) * value[:-1, :-1, :-1]
        value = np.where(valid, np.maximum(q1, q2), 0.0)
    return EXPECTED_MAX * horizon - float(value[0, 0, 0])


def bead_rule_regret(
    horizon: int, *, win: int = 1, loss: int = -1, start: int = 1, floor: int = 1
) -> NDArray[np.float64]:
    """Bayesian regret ``R(1), ..., R(horizon)`` of a bead rule, over bead states.

    Arm ``i`` holds ``b_i`` beads (``start`` at first) and is drawn with probability
    ``b_i / (b_1 + b_2)``; a success adds ``win`` beads to the arm drawn, a failure adds
    ``loss`` (negative: takes away) but never below ``floor``. ``win=1, loss=-1`` is
    MENACE's rule; ``loss=0`` is "a win adds a bead". Exact: for each pair of
    Gauss-Legendre nodes ``theta`` the bead chain is carried forward, and the nodes'
    weights integrate the (polynomial) expected reward over the uniform prior.
    """
    horizon = _check_horizon(horizon)
    for name, v in (("win", win), ("start", start), ("floor", floor)):
        if not isinstance(v, int) or v < (0 if name == "win" else 1):
            raise ValueError(f"{name} must be an int ≥ {0 if name == 'win' else 1}, got {v!r}")
    if not isinstance(loss, int) or loss > 0:
        raise ValueError(f"loss must be an int ≤ 0, got {loss!r}")
    if start < floor:
        raise ValueError(f"start ({start}) must be at least floor ({floor})")
    nodes, weights = np.polynomial.legendre.leggauss(horizon // 2 + 1)
    theta, w = (nodes + 1.0) / 2.0, weights / 2.0  # on [0, 1], weights sum to 1
    size = start + win * horizon + 1  # beads never exceed start + win * horizon
    beads = np.arange(size, dtype=float)
    b1, b2 = beads[:, None], beads[None, :]
    with np.errstate(invalid="ignore", divide="ignore"):
        pi1 = np.where(b1 + b2 > 0, b1 / (b1 + b2), 0.0)
    reward = np.zeros(horizon)
    t2 = theta[:, None, None]
    for th1, w1 in zip(theta, w, strict=True):
        prob = np.zeros((theta.size, size, size))
        prob[:, start, start] = 1.0
        for t in range(horizon):
            live = start + win * t + 1  # beads reachable after t pulls are below this
            p = prob[:, :live, :live]
            d1 = p * pi1[:live, :live]  # drew arm 1
            d2 = p - d1
            reward[t] += w1 * float(
                (w * (th1 * d1.sum(axis=(1, 2)) + theta * d2.sum(axis=(1, 2)))).sum()
            )
            nxt = np.zeros_like(prob)
            nxt[:, win : live + win, :live] += th1 * d1
            nxt[:, :live, win : live + win] += t2 * d2
            _lose(nxt, (1.0 - th1) * d1, -loss, floor, axis=1)
            _lose(nxt, (1.0 - t2) * d2, -loss, floor, axis=2)
            prob = nxt
    return EXPECTED_MAX * np.arange(1, horizon + 1) - np.cumsum(reward)


def _lose(
    out: NDArray[np.float64], drawn: NDArray[np.float64], k: int, floor: int, axis: int
) -> None:
    """Add ``drawn`` to ``out`` with ``k`` beads taken from ``axis``'s arm, not below ``floor``."""
    live = drawn.shape[axis]

    def at(a: int | slice) -> tuple:
        return (slice(None), a, slice(None)) if axis == 1 else (slice(None), slice(None), a)

    def part(a: slice) -> tuple:
        # the other arm's beads span the same live range in ``drawn``
        other = slice(0, live)
        return (slice(None), a, other) if axis == 1 else (slice(None), other, a)

    if k == 0:
        out[part(slice(0, live))] += drawn
        return
    out[part(slice(floor, live - k))] += drawn[at(slice(floor + k, live))]
    low = drawn[at(slice(floor, min(floor + k, live)))].sum(axis=axis)
    if axis == 1:
        out[:, floor, :live] += low
    else:
        out[:, :live, floor] += low


def instantaneous_limit_matching() -> float:
    """Per-pull regret that probability matching on posterior means tends to.

    Its means converge to ``theta``, so in the end it pulls arm ``i`` with probability
    ``theta_i / (theta_1 + theta_2)``; the limit is
    ``E[max(theta) - (theta_1**2 + theta_2**2) / (theta_1 + theta_2)]`` over the prior,
    integrated numerically (a smooth integrand on the unit square).
    """
    from scipy.integrate import dblquad

    mean_reward, _ = dblquad(
        lambda y, x: (x * x + y * y) / (x + y) if x + y > 0 else 0.0, 0.0, 1.0, 0.0, 1.0
    )
    return EXPECTED_MAX - mean_reward


TABLE_HORIZONS = (10, 20, 30, 40, 50, 60, 70, 80, 90, 100)
"""The horizons of the regret table."""

OPTIMAL_HORIZONS = (*range(1, 10), *range(10, 101, 5))
"""Where the Bayes-optimal curve is computed (one Bellman recursion each)."""


def exact_regret_table(
    horizons: tuple[int, ...] = TABLE_HORIZONS,
    optimal_horizons: tuple[int, ...] = OPTIMAL_HORIZONS,
    progress: bool | None = None,
) -> dict[str, Any]:
    """The regret of every policy of :data:`POLICIES`, JSON-ready.

    ``curves`` holds every policy's regret at steps ``1 .. max(horizons)`` except the
    Bayes-optimal one, which is at ``optimal_horizons`` (``optimal_curve``: it is one
    Bellman recursion per horizon); ``table`` the values at ``horizons`` (each of them
    must be among ``optimal_horizons``), ``value_of_information`` greedy minus
    Bayes-optimal regret there, and ``per_pull`` each policy's regret on the last pull
    (the final slope of its curve).
    """
    from ..base.progress import bar

    top = max(horizons)
    missing = sorted(set(horizons) - set(optimal_horizons))
    if missing:
        raise ValueError(f"horizons {missing} are not among the Bayes-optimal horizons")
    steps = [*optimal_horizons, *COUNT_POLICIES, "menace"]
    curves: dict[str, list[float]] = {}
    optimal: dict[int, float] = {}
    with bar(len(steps), "exact regret", unit="step", progress=progress) as b:
        for h in optimal_horizons:
            optimal[h] = bayes_optimal_regret(h)
            b.update(1)
        for policy in COUNT_POLICIES:
            curves[policy] = count_policy_regret(policy, top).tolist()
            b.update(1)
        curves["menace"] = bead_rule_regret(top).tolist()
        b.update(1)
    table = {"bayes-optimal": [optimal[h] for h in horizons]}
    table.update({p: [curves[p][h - 1] for h in horizons] for p in POLICIES[1:]})
    return {
        "format": "menace_lib.bandit_regret",
        "version": 1,
        "prior": "Beta(1, 1) per arm",
        "menace_rule": {"win": 1, "loss": -1, "start": 1, "floor": 1},
        "horizons": list(horizons),
        "optimal_curve": {"horizons": list(optimal_horizons), "regret": list(optimal.values())},
        "curves": curves,
        "table": table,
        "value_of_information": [
            g - b for g, b in zip(table["greedy"], table["bayes-optimal"], strict=True)
        ],
        "per_pull": {p: curves[p][-1] - curves[p][-2] for p in POLICIES[1:]},
        "per_pull_limit_matching": instantaneous_limit_matching(),
    }
