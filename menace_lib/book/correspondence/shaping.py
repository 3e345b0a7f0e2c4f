"""Policy shaping (thesis chapter 6): how updates move a box's proportions.

:func:`expected_drift` is the exact expected one-game change of a box's bead
proportions; for large boxes it approaches :func:`replicator_drift`, a step towards
moves of higher expected utility, and :func:`mean_field_path` follows it.
:func:`boltzmann_preferences` turns utilities into preferences whose cross-entropy risk
is an affine function of expected utility (:func:`utility_risk_identity`).
"""

from __future__ import annotations

import numpy as np
from numpy.typing import ArrayLike, NDArray

from ...maths.dirichlet import cross_entropy, entropy, kl_divergence
from .checks import bead_counts, check_count, outcome_table, positive_alpha, result_triple
from .learning import mda_update


def expected_drift(
    alpha: ArrayLike,
    outcome_probs: ArrayLike,
    reinforcement: ArrayLike = (3.0, 1.0, -1.0),
    *,
    restock: str = "box",
    initial: ArrayLike | None = None,
) -> NDArray[np.float64]:
    """Exact expected change of a box's bead proportions over one game.

    A colour ``a`` is drawn with probability ``alpha_a / alpha_0``, the game ends in
    ``o`` with probability ``outcome_probs[a, o]``, and ``alpha_a`` changes by
    ``reinforcement[o]`` (clamped at 0, then restocked as in MENACE). Every (colour,
    outcome) branch is enumerated, so the result is exact.

    Parameters
    ----------
    alpha : array_like, shape (k,)
        Bead counts (>= 0, at least one bead).
    outcome_probs : array_like, shape (k, 3)
        Win, draw, loss probabilities after each colour.
    reinforcement : array_like, shape (3,), default (3, 1, -1)
    restock : {"box", "move", "none"}, default "box"
        Applied when a count reaches 0; needs ``initial`` unless ``"none"``.
    initial : array_like, shape (k,), optional
        Counts a restock puts back (default: ``alpha``).

    Returns
    -------
    ndarray of shape (k,)
        ``E[alpha' / alpha'_0] - alpha / alpha_0``; sums to 0.
    """
    a = bead_counts(alpha)
    probs = outcome_table(outcome_probs, a.size)
    delta = result_triple(reinforcement, "reinforcement")
    if restock not in ("box", "move", "none"):
        raise ValueError(f"restock must be 'box', 'move' or 'none'; got {restock!r}")
    start = a if initial is None else bead_counts(initial, "initial")
    if start.shape != a.shape:
        raise ValueError(f"initial has shape {start.shape}, alpha {a.shape}")
    pi = a / a.sum()
    expected = np.zeros_like(pi)
    for j in np.flatnonzero(pi > 0):
        for o in range(3):
            weight = pi[j] * probs[j, o]
            if weight == 0:
                continue
            new = mda_update(
                {0: a}, [(0, int(j))], float(delta[o]), initial={0: start}, restock=restock
            )[0]
            total = new.sum()
            # With restock "none" an emptied box stays empty; its policy is undefined,
            # and MENACE would resign: count the old proportions (no policy change).
            expected += weight * (new / total if total > 0 else pi)
    return expected - pi


def replicator_drift(
    alpha: ArrayLike, outcome_probs: ArrayLike, reinforcement: ArrayLike = (3.0, 1.0, -1.0)
) -> NDArray[np.float64]:
    """Large-box approximation of :func:`expected_drift`: the replicator dynamics.

    ``pi_a (u_a - sum_b pi_b u_b) / alpha_0`` with ``u_a = E[U(o) | a]``: a colour gains
    share in proportion to how much better than the box's average it does. The error
    is of order ``1 / alpha_0^2``.

    Parameters
    ----------
    alpha, outcome_probs, reinforcement
        As in :func:`expected_drift`.

    Returns
    -------
    ndarray of shape (k,)
    """
    a = bead_counts(alpha)
    probs = outcome_table(outcome_probs, a.size)
    u = probs @ result_triple(reinforcement, "reinforcement")
    pi = a / a.sum()
    return pi * (u - pi @ u) / a.sum()


def mean_field_path(
    alpha: ArrayLike,
    outcome_probs: ArrayLike,
    steps: int,
    reinforcement: ArrayLike = (3.0, 1.0, -1.0),
) -> NDArray[np.float64]:
    """Bead proportions of a box that receives its *expected* update every game.

    ``alpha_a <- alpha_a + pi_a u_a`` with ``pi = alpha / alpha_0`` and
    ``u_a = E[U(o) | a]``: the deterministic path that sampled MENACE boxes scatter
    around while no count is near 0 (counts are kept at >= 1e-12).

    Parameters
    ----------
    alpha : array_like, shape (k,)
        Starting bead counts (> 0).
    outcome_probs : array_like, shape (k, 3)
    steps : int
        Number of games, >= 1.
    reinforcement : array_like, shape (3,), default (3, 1, -1)

    Returns
    -------
    ndarray of shape (steps + 1, k)
        The proportions before the first game and after each game.
    """
    a = positive_alpha(alpha).copy()
    probs = outcome_table(outcome_probs, a.size)
    u = probs @ result_triple(reinforcement, "reinforcement")
    steps = check_count(steps, "steps")
    path = np.empty((steps + 1, a.size))
    path[0] = a / a.sum()
    for t in range(1, steps + 1):
        a = np.maximum(a + (a / a.sum()) * u, 1e-12)
        path[t] = a / a.sum()
    return path


def utility_risk_identity(
    q: ArrayLike, utility: ArrayLike, temperature: float
) -> dict[str, NDArray[np.float64]]:
    """Risk of outcome distributions ``q`` under Boltzmann preferences, two ways.

    With ``p = boltzmann_preferences(utility, temperature)``, the cross-entropy risk
    ``-E_q[ln p]`` equals ``-E_q[U] / temperature + logsumexp(U / temperature)``; the KL
    risk differs from it by the entropy ``H(q)``.

    Parameters
    ----------
    q : array_like, shape (n, k)
        Outcome distributions (rows sum to 1).
    utility : array_like, shape (k,)
    temperature : float

    Returns
    -------
    dict of ndarrays of shape (n,)
        ``expected_utility``, ``cross_entropy``, ``affine`` (the right-hand side above),
        ``kl`` and ``entropy``.
    """
    from scipy.special import logsumexp  # here: importing scipy.special costs about 0.5 CPU-s

    p = boltzmann_preferences(utility, temperature)
    rows = np.atleast_2d(np.asarray(q, dtype=float))
    u = np.asarray(utility, dtype=float)
    if rows.shape[1] != u.size:
        raise ValueError(f"q has {rows.shape[1]} outcomes but utility has {u.size}")
    ce = np.asarray(cross_entropy(rows, p), dtype=float)
    return {
        "expected_utility": rows @ u,
        "cross_entropy": ce,
        "affine": -(rows @ u) / temperature + logsumexp(u / temperature),
        "kl": np.asarray(kl_divergence(rows, p), dtype=float),
        "entropy": np.asarray(entropy(rows), dtype=float),
    }


def boltzmann_preferences(utility: ArrayLike, temperature: float) -> NDArray[np.float64]:
    """Preferences ``p(o | C) ∝ exp(U(o) / temperature)``: log-preferences are utilities.

    With these preferences the cross-entropy risk is affine in expected utility,
    ``-E_q[ln p] = -E_q[U] / temperature + logsumexp(U / temperature)``, so minimising
    it is maximising expected utility.

    Parameters
    ----------
    utility : array_like, shape (k,)
        Finite utilities, e.g. MENACE's ``(3, 1, -1)``.
    temperature : float
        Finite and > 0.

    Returns
    -------
    ndarray of shape (k,)
        A probability vector with no zero entry.
    """
    u = np.asarray(utility, dtype=float)
    if u.ndim != 1 or u.size < 1 or not np.all(np.isfinite(u)):
        raise ValueError(f"utility must be a non-empty 1-D array of finite numbers; got {utility}")
    if not np.isfinite(temperature) or temperature <= 0:
        raise ValueError(f"temperature must be finite and > 0; got {temperature!r}")
    from scipy.special import logsumexp

    z = u / temperature
    return np.exp(z - logsumexp(z))
