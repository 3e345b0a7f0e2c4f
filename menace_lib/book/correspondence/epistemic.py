"""Epistemic against instrumental value (thesis chapter 7): where λ tips the policy.

:func:`scaled_efe` (the expected free energy as counts grow at fixed proportions),
:func:`policy_over_lambda` and :func:`crossover_lambda`.
"""

from __future__ import annotations

import numpy as np
from numpy.typing import ArrayLike, NDArray

from ...maths.efe import EFETerms, RiskForm, expected_free_energy_actions, softmax_policy
from .checks import positive_alpha


def scaled_efe(
    alpha: ArrayLike,
    prefs: ArrayLike,
    lam: float,
    scales: ArrayLike,
    *,
    beta_amb: float = 0.0,
    risk_form: RiskForm = "kl",
) -> EFETerms:
    """Expected free energy of ``Dir(c * alpha)`` for each scale ``c``.

    Scaling keeps the predicted outcomes ``q = alpha / alpha_0`` and so the risk; only
    the epistemic value ``I(o; theta)`` falls as the counts grow. At ``lam = 0`` the
    expected free energy is therefore the same at every scale.

    Parameters
    ----------
    alpha : array_like, shape (3,)
        Outcome pseudo-counts, > 0.
    prefs : array_like, shape (3,)
        Preferred outcomes.
    lam : float
        Epistemic weight, >= 0.
    scales : array_like, shape (n,)
        Positive multipliers.
    beta_amb, risk_form
        As in :func:`menace_lib.maths.efe.expected_free_energy_actions`.

    Returns
    -------
    EFETerms
        Arrays of shape (n,), one entry per scale.
    """
    a = positive_alpha(alpha)
    c = np.asarray(scales, dtype=float)
    if c.ndim != 1 or c.size < 1 or not np.all(np.isfinite(c)) or np.any(c <= 0):
        raise ValueError(f"scales must be a non-empty 1-D array of numbers > 0; got {scales}")
    return expected_free_energy_actions(np.outer(c, a), prefs, lam, beta_amb, risk_form)


def policy_over_lambda(
    alphas: ArrayLike,
    prefs: ArrayLike,
    lams: ArrayLike,
    lambda_policy: float = 0.25,
    *,
    beta_amb: float = 0.0,
    risk_form: RiskForm = "kl",
) -> NDArray[np.float64]:
    """The softmax policy ``q(a) ∝ exp(-G_lambda(a) / lambda_policy)`` for each epistemic weight.

    Parameters
    ----------
    alphas : array_like, shape (n_actions, 3)
        Outcome pseudo-counts per action.
    prefs : array_like, shape (3,)
    lams : array_like, shape (m,)
        Epistemic weights, each >= 0.
    lambda_policy : float, default 0.25
        Softmax temperature (the thesis's default).
    beta_amb, risk_form
        As in :func:`menace_lib.maths.efe.expected_free_energy_actions`.

    Returns
    -------
    ndarray of shape (m, n_actions)
        Row ``i`` is the policy at ``lams[i]``.
    """
    grid = np.asarray(lams, dtype=float)
    if grid.ndim != 1 or grid.size < 1:
        raise ValueError(f"lams must be a non-empty 1-D array; got shape {grid.shape}")
    base = expected_free_energy_actions(alphas, prefs, 0.0, beta_amb, risk_form)
    rows = []
    for lam in grid:
        if not np.isfinite(lam) or lam < 0:
            raise ValueError(f"every epistemic weight must be finite and >= 0; got {lam!r}")
        rows.append(softmax_policy(base.G - lam * base.epistemic, lambda_policy))
    return np.array(rows)


def crossover_lambda(
    alpha_a: ArrayLike, alpha_b: ArrayLike, prefs: ArrayLike, *, risk_form: RiskForm = "kl"
) -> float:
    """Smallest epistemic weight at which action ``b`` is at least as good as ``a``.

    ``G_lambda(b) <= G_lambda(a)`` once ``lambda >= (risk_b - risk_a) / (I_b - I_a)``.

    Parameters
    ----------
    alpha_a, alpha_b : array_like, shape (3,)
        Outcome pseudo-counts of the two actions.
    prefs : array_like, shape (3,)
    risk_form : {"kl", "cross_entropy"}, default "kl"

    Returns
    -------
    float
        ``0.0`` if ``b`` is already no worse at ``lambda = 0``; ``inf`` if no weight
        ``lambda >= 0`` makes it so.
    """
    a = positive_alpha(alpha_a)
    b = positive_alpha(alpha_b)
    if a.shape != b.shape:
        raise ValueError(f"alpha_a and alpha_b differ in shape: {a.shape} vs {b.shape}")
    terms = expected_free_energy_actions(np.stack([a, b]), prefs, 0.0, risk_form=risk_form)
    gap = float(terms.risk[1] - terms.risk[0])
    gain = float(terms.epistemic[1] - terms.epistemic[0])
    if gap <= 0:
        return 0.0
    if gain <= 0:
        return float("inf")
    return gap / gain
