"""Expected free energy of actions whose outcomes follow a Dirichlet-categorical model.

Each action ``a`` has a belief ``Dir(alpha_a)`` over terminal outcomes (win, draw,
loss). Its expected free energy is (thesis eq. 7.1-7.3)

    G(a) = risk(q_a, p) + beta_amb * H(q_a) - lam * I(o; theta_a),

with ``q_a = alpha_a / sum(alpha_a)`` the predicted outcome distribution, ``p`` the
preferred outcomes, ``H`` the outcome ambiguity and ``I`` the epistemic value
(:func:`menace_lib.maths.dirichlet.mutual_information`). ``lam`` (the thesis's lambda) is the
epistemic weight; ``lambda_policy`` is the softmax temperature that turns ``G`` into a
policy, and the policy times a scale is what is written into a matchbox as beads.

The thesis's implementation scores risk as ``KL(q || p)`` (Remark 7.1); the
cross-entropy ``-E_q[ln p] = KL(q || p) + H(q)`` is offered as ``risk_form=
"cross_entropy"``. Only the KL form reproduces Table 7.1 (see :func:`worked_example`).
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Literal

import numpy as np
from numpy.typing import ArrayLike, NDArray

from ..base.limits import MAX_BEADS
from .dirichlet import (
    PROBABILITY_FLOOR,
    SUM_TOLERANCE,
    cross_entropy,
    dirichlet_mean,
    entropy,
    kl_divergence,
    mutual_information,
)

__all__ = [
    "DEFAULT_PREFERENCES",
    "THESIS_TABLE_7_1",
    "EFETerms",
    "RiskForm",
    "WorkedExample",
    "expected_free_energy",
    "expected_free_energy_actions",
    "normalise_preferences",
    "policy_to_beads",
    "risk",
    "round_beads",
    "softmax_policy",
    "worked_example",
]

RiskForm = Literal["kl", "cross_entropy"]

DEFAULT_PREFERENCES: tuple[float, float, float] = (0.60, 0.35, 0.05)
"""Preferred outcome distribution p(o | C) over (win, draw, loss) for the agent."""

THESIS_TABLE_7_1: dict[str, tuple[float, ...]] = {
    "risk": (0.165, 0.486, 0.186),
    "epistemic": (0.091, 0.079, 0.077),
    "G": (0.143, 0.467, 0.166),
    "policy": (0.458, 0.125, 0.416),
    "beads": (46, 13, 42),
}
"""The values printed in thesis Table 7.1 and the text after it (rounded to 3 d.p.)."""


@dataclass(frozen=True)
class EFETerms:
    """The terms of ``G = risk + beta_amb * ambiguity - lam * epistemic``.

    Fields are floats for one action and arrays of shape ``(n_actions,)`` from
    :func:`expected_free_energy_actions` (compare those field by field: ``==`` on
    two instances holding arrays is ambiguous).

    Attributes
    ----------
    risk : float or ndarray
        ``KL(q || p)`` or ``-E_q[ln p]``, per ``risk_form``.
    ambiguity : float or ndarray
        Outcome entropy ``H(q)``, before weighting by ``beta_amb``.
    epistemic : float or ndarray
        Mutual information ``I(o; theta)``, before weighting by ``lam``.
    G : float or ndarray
        The expected free energy; lower is better.
    """

    risk: float | NDArray[np.float64]
    ambiguity: float | NDArray[np.float64]
    epistemic: float | NDArray[np.float64]
    G: float | NDArray[np.float64]


# ------------------------------------------------------------------------------ checks


def _check_weight(value: float, name: str) -> float:
    if not np.isfinite(value) or value < 0:
        raise ValueError(f"{name} must be finite and >= 0; got {value!r}")
    return float(value)


def _check_positive(value: float, name: str) -> float:
    if not np.isfinite(value) or value <= 0:
        raise ValueError(f"{name} must be finite and > 0; got {value!r}")
    return float(value)


def _check_risk_form(form: str) -> None:
    if form not in ("kl", "cross_entropy"):
        raise ValueError(f"risk form must be 'kl' or 'cross_entropy'; got {form!r}")


# ------------------------------------------------------------------------- preferences


def normalise_preferences(p: ArrayLike, strict: bool = True) -> NDArray[np.float64]:
    """Check (``strict=True``) or repair (``strict=False``) a preference distribution.

    Parameters
    ----------
    p : array_like, shape (k,)
        Preferred outcome probabilities ``p(o | C)``. Always rejected: non-finite or
        negative entries, or all entries zero.
    strict : bool, default True
        If True, ``p`` must already sum to 1 (within ``1e-9``) and have no zero entry,
        since ``ln p`` enters the risk; it is returned unchanged.
        If False, follow the thesis implementation: keep ``p`` if it sums to 1 within
        machine epsilon, otherwise divide by its sum; then raise entries below
        ``1e-12`` (zeros) to ``1e-12``, so the log stays finite.

    Returns
    -------
    ndarray of shape (k,)

    Raises
    ------
    ValueError
        With a message naming the problem.
    """
    prefs = np.asarray(p, dtype=float)
    if prefs.ndim != 1 or prefs.shape[0] < 1:
        raise ValueError(f"preferences must be a non-empty 1-D array; got shape {prefs.shape}")
    if not np.all(np.isfinite(prefs)):
        raise ValueError(f"preferences must be finite; got {prefs.tolist()}")
    if np.any(prefs < 0):
        raise ValueError(f"preferences must be non-negative; got {prefs.tolist()}")
    with np.errstate(over="ignore"):
        total = prefs.sum()
    if not np.isfinite(total):  # 1e308 + 1e308: dividing would floor every entry to 1e-12
        raise ValueError(f"preferences must have a finite sum; got {prefs.tolist()}")
    if total <= 0:
        raise ValueError(f"preferences must not all be zero; got {prefs.tolist()}")
    if strict:
        if abs(total - 1.0) > SUM_TOLERANCE:
            raise ValueError(
                f"preferences must sum to 1 (tolerance {SUM_TOLERANCE:g}); got sum {total!r}. "
                "Pass strict=False to divide by the sum."
            )
        if np.any(prefs == 0):
            raise ValueError(
                f"preferences must be > 0 where ln p is taken; got {prefs.tolist()}. "
                "Pass strict=False to replace zeros by 1e-12."
            )
        return prefs
    if abs(total - 1.0) > np.finfo(float).eps:
        prefs = prefs / total
    return np.maximum(prefs, PROBABILITY_FLOOR)


# --------------------------------------------------------------------------------- risk


def risk(q: ArrayLike, prefs: ArrayLike, form: RiskForm = "kl") -> float | NDArray[np.float64]:
    """Instrumental cost of predicted outcomes ``q`` under preferences ``prefs``.

    Parameters
    ----------
    q : array_like, shape (k,) or (n, k)
        Predicted outcome distribution(s).
    prefs : array_like, shape (k,)
        Preferred outcome distribution (zeros are clamped to ``1e-12`` in the log).
    form : {"kl", "cross_entropy"}, default "kl"
        ``"kl"``: ``KL(q || p)``, the thesis implementation (Remark 7.1).
        ``"cross_entropy"``: ``-E_q[ln p] = KL(q || p) + H(q)``, eq. 7.1.

    Returns
    -------
    float or ndarray of shape (n,)
    """
    _check_risk_form(form)
    return kl_divergence(q, prefs) if form == "kl" else cross_entropy(q, prefs)


# ------------------------------------------------------------------ expected free energy


def expected_free_energy_actions(
    alphas: ArrayLike,
    prefs: ArrayLike,
    lam: float,
    beta_amb: float = 0.0,
    risk_form: RiskForm = "kl",
    strict: bool = True,
) -> EFETerms:
    """Expected free energy of every action, one outcome Dirichlet per row.

    Parameters
    ----------
    alphas : array_like, shape (n_actions, k)
        Outcome pseudo-counts per action, finite and > 0.
    prefs : array_like, shape (k,)
        Preferred outcome distribution; checked by :func:`normalise_preferences`.
    lam : float
        Epistemic weight (the thesis's lambda), finite and >= 0.
    beta_amb : float, default 0.0
        Weight of the outcome ambiguity ``H(q)``, finite and >= 0.
    risk_form : {"kl", "cross_entropy"}, default "kl"
        See :func:`risk`.
    strict : bool, default True
        Passed to :func:`normalise_preferences`.

    Returns
    -------
    EFETerms
        Fields are arrays of shape ``(n_actions,)``.
    """
    a = np.asarray(alphas, dtype=float)
    if a.ndim != 2:
        raise ValueError(f"alphas must be 2-D (n_actions, k); got shape {a.shape}")
    p = normalise_preferences(prefs, strict=strict)
    if a.shape[1] != p.shape[0]:
        raise ValueError(
            f"alphas have {a.shape[1]} outcomes per action but prefs have {p.shape[0]}"
        )
    lam = _check_weight(lam, "lam (epistemic weight)")
    beta_amb = _check_weight(beta_amb, "beta_amb (ambiguity weight)")
    _check_risk_form(risk_form)
    q = dirichlet_mean(a)
    risk_values = np.asarray(risk(q, p, risk_form), dtype=float)
    ambiguity = np.asarray(entropy(q), dtype=float)
    epistemic = np.asarray(mutual_information(a), dtype=float)
    G = risk_values + beta_amb * ambiguity - lam * epistemic
    return EFETerms(risk=risk_values, ambiguity=ambiguity, epistemic=epistemic, G=G)


def expected_free_energy(
    alpha: ArrayLike,
    prefs: ArrayLike,
    lam: float,
    beta_amb: float = 0.0,
    risk_form: RiskForm = "kl",
    strict: bool = True,
) -> EFETerms:
    """Expected free energy of one action with outcome belief ``Dir(alpha)``.

    ``G = risk(alpha / alpha_0, prefs) + beta_amb * H(alpha / alpha_0) - lam * I(alpha)``.

    Parameters
    ----------
    alpha : array_like, shape (k,)
        Outcome pseudo-counts (win, draw, loss), finite and > 0.
    prefs, lam, beta_amb, risk_form, strict
        As in :func:`expected_free_energy_actions`.

    Returns
    -------
    EFETerms
        Fields are floats.
    """
    a = np.asarray(alpha, dtype=float)
    if a.ndim != 1:
        raise ValueError(
            f"alpha must be 1-D (k,); got shape {a.shape} "
            "(use expected_free_energy_actions for several actions)"
        )
    terms = expected_free_energy_actions(a[None, :], prefs, lam, beta_amb, risk_form, strict)
    return EFETerms(
        risk=float(terms.risk[0]),
        ambiguity=float(terms.ambiguity[0]),
        epistemic=float(terms.epistemic[0]),
        G=float(terms.G[0]),
    )


# ------------------------------------------------------------------------------ policy


def softmax_policy(
    G: ArrayLike, lambda_policy: float, prior: ArrayLike | None = None
) -> NDArray[np.float64]:
    """Policy ``q(a) ∝ prior(a) * exp(-G(a) / lambda_policy)``.

    Parameters
    ----------
    G : array_like, shape (n_actions,)
        Expected free energies, finite.
    lambda_policy : float
        Temperature, finite and > 0. As it shrinks the mass goes to ``argmin G``
        (shared by prior among ties); as it grows the policy tends to the prior.
    prior : array_like, shape (n_actions,), optional
        Non-negative finite weights (need not sum to 1), clamped to ``>= 1e-12``;
        uniform if omitted.

    Returns
    -------
    ndarray of shape (n_actions,)
        Probabilities summing to 1, computed with log-sum-exp.
    """
    g = np.asarray(G, dtype=float)
    if g.ndim != 1 or g.shape[0] < 1:
        raise ValueError(f"G must be a non-empty 1-D array; got shape {g.shape}")
    if not np.all(np.isfinite(g)):
        raise ValueError(f"G must be finite; got {g.tolist()}")
    lambda_policy = _check_positive(lambda_policy, "lambda_policy (softmax temperature)")
    if prior is None:
        log_prior = np.zeros_like(g)
    else:
        weights = np.asarray(prior, dtype=float)
        if weights.shape != g.shape:
            raise ValueError(f"prior must have shape {g.shape}; got {weights.shape}")
        if not np.all(np.isfinite(weights)) or np.any(weights < 0):
            raise ValueError(f"prior must be finite and >= 0; got {weights.tolist()}")
        log_prior = np.log(np.maximum(weights, PROBABILITY_FLOOR))
    # Shift by min G before dividing: the best action keeps a finite logit even when
    # lambda_policy is so small that (G - min G) / lambda_policy overflows to inf.
    with np.errstate(over="ignore"):
        logits = log_prior - (g - g.min()) / lambda_policy
    logits -= logits.max()
    weights = np.exp(logits)
    return weights / weights.sum()


def policy_to_beads(q: ArrayLike, scale: float = 100.0) -> NDArray[np.float64]:
    """Matchbox weights ``w = q * scale``, as the thesis implementation writes them.

    No rounding and no minimum bead: sampling is proportional to ``w``, so the scale
    has no behavioural effect. Use :func:`round_beads` for a whole-bead picture.

    Parameters
    ----------
    q : array_like, shape (n_actions,)
        Policy probabilities, summing to 1 within ``1e-9``.
    scale : float, default 100.0
        Finite and > 0 (the thesis workspace uses 100; its CLI default is 40).

    Returns
    -------
    ndarray of shape (n_actions,)
    """
    policy = np.asarray(q, dtype=float)
    if policy.ndim != 1:
        raise ValueError(f"q must be 1-D; got shape {policy.shape}")
    if not np.all(np.isfinite(policy)) or np.any(policy < 0):
        raise ValueError(f"q must be finite and >= 0; got {policy.tolist()}")
    if abs(policy.sum() - 1.0) > SUM_TOLERANCE:
        raise ValueError(f"q must sum to 1 (tolerance {SUM_TOLERANCE:g}); got {policy.sum()!r}")
    return policy * _check_positive(scale, "scale")


def round_beads(weights: ArrayLike) -> NDArray[np.int64]:
    """Round bead weights to whole beads (halves round up), for display only.

    Parameters
    ----------
    weights : array_like
        Finite weights in ``[0, MAX_BEADS]`` (:mod:`menace_lib.base.limits`), e.g. from
        :func:`policy_to_beads`; larger ones have no whole-bead picture (and would
        overflow int64).

    Returns
    -------
    ndarray of int64
    """
    w = np.asarray(weights, dtype=float)
    if not np.all(np.isfinite(w)) or np.any(w < 0):
        raise ValueError(f"weights must be finite and >= 0; got {w.tolist()}")
    if np.any(w > MAX_BEADS):
        raise ValueError(f"weights must be at most MAX_BEADS = {MAX_BEADS:g}; got {w.tolist()}")
    return np.floor(w + 0.5).astype(np.int64)


# ----------------------------------------------------------------------- worked example


@dataclass(frozen=True)
class WorkedExample:
    """Inputs and results of the thesis's worked example (section 7.3, Table 7.1)."""

    alphas: NDArray[np.float64]
    prefs: NDArray[np.float64]
    lam: float
    lambda_policy: float
    beta_amb: float
    risk_form: RiskForm
    scale: float
    predictive: NDArray[np.float64]
    terms: EFETerms
    policy: NDArray[np.float64]
    beads: NDArray[np.float64]
    rounded_beads: NDArray[np.int64]


def worked_example() -> WorkedExample:
    """Recompute thesis Table 7.1: one state, three actions, ``lam = lambda_policy = 0.25``.

    Outcome counts ``(6,2,2)``, ``(3,5,4)``, ``(9,1,1)``; preferences
    ``(0.60, 0.35, 0.05)``; ``beta_amb = 0``; KL risk; uniform prior; scale 100.
    Rounded to 3 d.p. the results equal :data:`THESIS_TABLE_7_1`: risk
    ``(0.165, 0.486, 0.186)``, I ``(0.091, 0.079, 0.077)``, G ``(0.143, 0.467, 0.166)``,
    policy ``(0.458, 0.125, 0.416)``, about ``(46, 13, 42)`` beads. The cross-entropy
    risk would give ``(1.116, 1.564, 0.786)`` instead.

    Returns
    -------
    WorkedExample
    """
    alphas = np.array([[6.0, 2.0, 2.0], [3.0, 5.0, 4.0], [9.0, 1.0, 1.0]])
    prefs = np.array(DEFAULT_PREFERENCES)
    lam, lambda_policy, beta_amb, scale = 0.25, 0.25, 0.0, 100.0
    terms = expected_free_energy_actions(alphas, prefs, lam, beta_amb, "kl")
    policy = softmax_policy(terms.G, lambda_policy)
    beads = policy_to_beads(policy, scale)
    return WorkedExample(
        alphas=alphas,
        prefs=prefs,
        lam=lam,
        lambda_policy=lambda_policy,
        beta_amb=beta_amb,
        risk_form="kl",
        scale=scale,
        predictive=dirichlet_mean(alphas),
        terms=terms,
        policy=policy,
        beads=beads,
        rounded_beads=round_beads(beads),
    )
