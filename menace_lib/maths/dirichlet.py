"""The Dirichlet distribution over a categorical outcome, and its information measures.

A matchbox holding ``alpha_i`` beads of colour ``i`` is read as the belief
``theta ~ Dir(alpha)`` over the probabilities of its moves (or, for the pure Active
Inference agent, over win/draw/loss). This module collects what the book needs about
that belief:

- moments: :func:`dirichlet_mean`, :func:`dirichlet_variance`;
- uncertainty: :func:`predictive_entropy` (``H_pred``), :func:`expected_entropy`
  (``H_ale``) and their difference, the epistemic value :func:`mutual_information`
  ``I(o; theta) = H_pred - H_ale`` (thesis eq. 2.14 / D.3), with a Monte-Carlo check
  :func:`mutual_information_mc`;
- learning: :func:`conjugate_update`; density: :func:`dirichlet_logpdf`;
- acting: :func:`thompson_sample` and :func:`probability_matching_sample` (drawing a
  bead);
- the categorical measures used by the expected free energy: :func:`entropy`,
  :func:`kl_divergence` and :func:`cross_entropy`.

All logarithms are natural, so every quantity is in nats.

Functions taking ``alpha`` accept a 1-D array (one Dirichlet; a ``float`` is returned
for scalar quantities) or a 2-D array of shape ``(n, k)`` (``n`` Dirichlets, row-wise;
an array of shape ``(n,)`` is returned).

Numerics of the categorical measures follow the thesis implementation: components of
``q`` at or below ``1e-12`` are skipped, and ``p`` is clamped to at least ``1e-12``
inside logarithms.
"""

from __future__ import annotations

from typing import Any

import numpy as np
from numpy.typing import ArrayLike, NDArray

__all__ = [
    "PROBABILITY_FLOOR",
    "SUM_TOLERANCE",
    "conjugate_update",
    "cross_entropy",
    "dirichlet_logpdf",
    "dirichlet_mean",
    "dirichlet_variance",
    "digamma_gap",
    "digamma_plus_one_minus_log",
    "entropy",
    "expected_entropy",
    "kl_divergence",
    "mutual_information",
    "mutual_information_mc",
    "predictive_entropy",
    "probability_matching_sample",
    "thompson_sample",
]


# scipy.special takes about 0.4 s to import, which every command's --help would pay (the
# agent options read AIFConfig, whose module imports this one). The four functions load on
# first call: each stub imports scipy.special and replaces itself in this module's globals,
# so later calls reach scipy directly. The numbers are scipy's either way.
_SPECIAL = ("digamma", "gammaln", "rel_entr", "xlogy")


def _load_special() -> None:
    import scipy.special

    for name in _SPECIAL:
        globals()[name] = getattr(scipy.special, name)


def digamma(*args: Any, **kwargs: Any) -> Any:  # replaced by scipy.special.digamma
    _load_special()
    return digamma(*args, **kwargs)


def gammaln(*args: Any, **kwargs: Any) -> Any:  # replaced by scipy.special.gammaln
    _load_special()
    return gammaln(*args, **kwargs)


def rel_entr(*args: Any, **kwargs: Any) -> Any:  # replaced by scipy.special.rel_entr
    _load_special()
    return rel_entr(*args, **kwargs)


def xlogy(*args: Any, **kwargs: Any) -> Any:  # replaced by scipy.special.xlogy
    _load_special()
    return xlogy(*args, **kwargs)


PROBABILITY_FLOOR = 1e-12
"""Components of ``q`` at or below this are skipped; ``p`` is clamped to at least this."""

SUM_TOLERANCE = 1e-9
"""How far from 1 the sum of a probability vector may be."""

# Below this, psi(x + 1) - ln x is computed directly; from here on, by its asymptotic
# series, whose first omitted term is below 1e-16 at x = 10.
_SERIES_FROM = 10.0
# -B_2n / (2n) for n = 1..7: psi(x) ~ ln x - 1/(2x) + sum_n c_n / x^(2n).
_SERIES_COEFFICIENTS = (-1 / 12, 1 / 120, -1 / 252, 1 / 240, -1 / 132, 691 / 32760, -1 / 12)

ScalarOrArray = float | NDArray[np.float64]


# ----------------------------------------------------------------------------- validation


def as_alpha(
    alpha: ArrayLike, name: str = "alpha", ndims: tuple[int, ...] = (1, 2)
) -> NDArray[np.float64]:
    """Return ``alpha`` as a float array of shape ``(k,)`` or ``(n, k)``, or raise."""
    a = np.asarray(alpha, dtype=float)
    if a.ndim not in ndims:
        shapes = " or ".join({1: "1-D (k,)", 2: "2-D (n, k)"}[d] for d in ndims)
        raise ValueError(f"{name} must be {shapes}; got shape {a.shape}")
    if a.shape[-1] < 1:
        raise ValueError(f"{name} must have at least one component; got shape {a.shape}")
    if not np.all(np.isfinite(a)):
        raise ValueError(f"{name} must be finite; got {a.tolist()}")
    if np.any(a <= 0):
        raise ValueError(f"{name} must be strictly positive (pseudo-counts > 0); got {a.tolist()}")
    return a


def _as_probabilities(p: ArrayLike, name: str) -> NDArray[np.float64]:
    """Return ``p`` as a float array whose last axis is a probability vector, or raise."""
    v = np.asarray(p, dtype=float)
    if v.ndim not in (1, 2) or v.shape[-1] < 1:
        raise ValueError(f"{name} must be a 1-D (k,) or 2-D (n, k) array; got shape {v.shape}")
    if not np.all(np.isfinite(v)):
        raise ValueError(f"{name} must be finite; got {v.tolist()}")
    if np.any(v < 0):
        raise ValueError(f"{name} must be non-negative; got {v.tolist()}")
    sums = v.sum(axis=-1)
    if np.any(np.abs(sums - 1.0) > SUM_TOLERANCE):
        raise ValueError(
            f"{name} must sum to 1 (tolerance {SUM_TOLERANCE:g}); got sum(s) {np.round(sums, 12)}"
        )
    return v


def _as_pair(q: ArrayLike, p: ArrayLike) -> tuple[NDArray[np.float64], NDArray[np.float64]]:
    q_arr = _as_probabilities(q, "q")
    p_arr = _as_probabilities(p, "p")
    if q_arr.shape[-1] != p_arr.shape[-1]:
        raise ValueError(
            f"q and p must have the same number of outcomes; got {q_arr.shape[-1]} "
            f"and {p_arr.shape[-1]}"
        )
    return q_arr, p_arr


def check_rng(rng: object) -> np.random.Generator:
    if not isinstance(rng, np.random.Generator):
        raise ValueError(
            f"rng must be a numpy.random.Generator (np.random.default_rng(seed)); "
            f"got {type(rng).__name__}"
        )
    return rng


def _scalar_if_1d(values: NDArray[np.float64], like: NDArray[np.float64]) -> ScalarOrArray:
    return float(values) if like.ndim == 1 else values


# ----------------------------------------------------------------- categorical measures


def _entropy(p: NDArray[np.float64]) -> NDArray[np.float64]:
    kept = np.where(p > PROBABILITY_FLOOR, p, 0.0)
    return 0.0 - xlogy(kept, kept).sum(axis=-1)  # 0.0 - x, not -x: no -0.0


def _cross_entropy(q: NDArray[np.float64], p: NDArray[np.float64]) -> NDArray[np.float64]:
    kept = np.where(q > PROBABILITY_FLOOR, q, 0.0)
    return -(kept * np.log(np.maximum(p, PROBABILITY_FLOOR))).sum(axis=-1)


def _kl(q: NDArray[np.float64], p: NDArray[np.float64]) -> NDArray[np.float64]:
    kept = np.where(q > PROBABILITY_FLOOR, q, 0.0)
    return rel_entr(kept, np.maximum(p, PROBABILITY_FLOOR)).sum(axis=-1)


def entropy(p: ArrayLike) -> ScalarOrArray:
    """Shannon entropy ``H(p) = -sum_i p_i ln p_i`` in nats.

    Parameters
    ----------
    p : array_like, shape (k,) or (n, k)
        Probability vector(s): finite, non-negative, summing to 1 within ``1e-9``.

    Returns
    -------
    float or ndarray of shape (n,)
        Components ``p_i <= 1e-12`` contribute nothing.
    """
    arr = _as_probabilities(p, "p")
    return _scalar_if_1d(_entropy(arr), arr)


def kl_divergence(q: ArrayLike, p: ArrayLike) -> ScalarOrArray:
    """Kullback-Leibler divergence ``KL(q || p) = sum_i q_i ln(q_i / p_i)`` in nats.

    Parameters
    ----------
    q : array_like, shape (k,) or (n, k)
        Predicted distribution(s).
    p : array_like, shape (k,) or (n, k)
        Reference distribution(s), e.g. preferences; broadcast against ``q``.

    Returns
    -------
    float or ndarray of shape (n,)
        Components ``q_i <= 1e-12`` are skipped and ``p`` is clamped to ``>= 1e-12``,
        so a zero in ``p`` gives a large but finite divergence.
    """
    q_arr, p_arr = _as_pair(q, p)
    return _scalar_if_1d(_kl(q_arr, p_arr), np.broadcast(q_arr, p_arr))


def cross_entropy(q: ArrayLike, p: ArrayLike) -> ScalarOrArray:
    """Cross-entropy ``-sum_i q_i ln p_i = KL(q || p) + H(q)`` in nats.

    Parameters
    ----------
    q, p : array_like, shape (k,) or (n, k)
        As in :func:`kl_divergence`, with the same numerics.

    Returns
    -------
    float or ndarray of shape (n,)
    """
    q_arr, p_arr = _as_pair(q, p)
    return _scalar_if_1d(_cross_entropy(q_arr, p_arr), np.broadcast(q_arr, p_arr))


# ------------------------------------------------------------------------------ moments


def dirichlet_mean(alpha: ArrayLike) -> NDArray[np.float64]:
    """Mean ``E[theta] = alpha / alpha_0`` (thesis eq. 2.10): the posterior predictive.

    Parameters
    ----------
    alpha : array_like, shape (k,) or (n, k)
        Concentration parameters (pseudo-counts), finite and > 0.

    Returns
    -------
    ndarray, same shape as ``alpha``
    """
    a = as_alpha(alpha)
    return a / a.sum(axis=-1, keepdims=True)


def dirichlet_variance(alpha: ArrayLike) -> NDArray[np.float64]:
    """Per-component variance ``alpha_i (alpha_0 - alpha_i) / (alpha_0^2 (alpha_0 + 1))``.

    Parameters
    ----------
    alpha : array_like, shape (k,) or (n, k)
        Concentration parameters, finite and > 0.

    Returns
    -------
    ndarray, same shape as ``alpha``
        Thesis eq. 2.11; shrinks like ``1 / alpha_0``.
    """
    a = as_alpha(alpha)
    a0 = a.sum(axis=-1, keepdims=True)
    return a * (a0 - a) / (a0**2 * (a0 + 1.0))


# -------------------------------------------------------------------- information terms


def digamma_plus_one_minus_log(x: NDArray[np.float64]) -> NDArray[np.float64]:
    """``psi(x + 1) - ln x`` for ``x > 0``, accurate also when ``x`` is large.

    For large ``x`` both ``psi(x + 1)`` and ``ln x`` grow while their difference
    shrinks like ``1 / (2x)``; subtracting them would lose all precision, so the
    difference is taken from the asymptotic series
    ``1/(2x) - 1/(12x^2) + 1/(120x^4) - 1/(252x^6) + 1/(240x^8) - 1/(132x^10)
    + 691/(32760x^12) - 1/(12x^14)``.
    """
    x = np.asarray(x, dtype=float)
    large = x >= _SERIES_FROM
    safe_small = np.where(large, 1.0, x)
    direct = digamma(safe_small + 1.0) - np.log(safe_small)
    safe_large = np.where(large, x, _SERIES_FROM)
    u = 1.0 / (safe_large * safe_large)
    tail = np.zeros_like(u)
    for coefficient in reversed(_SERIES_COEFFICIENTS):
        tail = (tail + coefficient) * u
    series = 0.5 / safe_large + tail
    return np.where(large, series, direct)


def digamma_gap(x: float) -> float:
    """:func:`digamma_plus_one_minus_log` of one number ``x > 0``, the same bits without
    the array overhead (per-move agent code calls it once per new count)."""
    if x >= _SERIES_FROM:
        u = 1.0 / (x * x)
        tail = 0.0
        for coefficient in reversed(_SERIES_COEFFICIENTS):
            tail = (tail + coefficient) * u
        return 0.5 / x + tail
    return float(digamma(x + 1.0) - np.log(x))


def _mutual_information(a: NDArray[np.float64]) -> NDArray[np.float64]:
    # I = sum_i abar_i [psi(a_i+1) - ln a_i] - [psi(a0+1) - ln a0], which is eq. 2.14
    # with ln(abar_i) split as ln a_i - ln a0; each bracket is small and accurate, so
    # concentrated beliefs (large alpha, I ~ (k-1)/(2 a0)) keep their relative precision.
    a0 = a.sum(axis=-1)
    abar = a / a0[..., None]
    per_component = (abar * digamma_plus_one_minus_log(a)).sum(axis=-1)
    return np.maximum(per_component - digamma_plus_one_minus_log(a0), 0.0)


def predictive_entropy(alpha: ArrayLike) -> ScalarOrArray:
    """Entropy of the posterior predictive, ``H_pred = H(alpha / alpha_0)`` (eq. 2.12).

    Parameters
    ----------
    alpha : array_like, shape (k,) or (n, k)
        Concentration parameters, finite and > 0.

    Returns
    -------
    float or ndarray of shape (n,)
        Depends only on the proportions: ``H_pred(c * alpha) = H_pred(alpha)``.
    """
    a = as_alpha(alpha)
    return _scalar_if_1d(_entropy(a / a.sum(axis=-1, keepdims=True)), a)


def expected_entropy(alpha: ArrayLike) -> ScalarOrArray:
    """Expected categorical entropy ``H_ale = E_theta[H(theta)]`` (eq. 2.13 / D.2).

    ``H_ale = psi(alpha_0 + 1) - sum_i (alpha_i / alpha_0) psi(alpha_i + 1)``: the
    aleatoric part of the predictive uncertainty.

    Parameters
    ----------
    alpha : array_like, shape (k,) or (n, k)
        Concentration parameters, finite and > 0.

    Returns
    -------
    float or ndarray of shape (n,)
    """
    a = as_alpha(alpha)
    a0 = a.sum(axis=-1)
    abar = a / a0[..., None]
    return _scalar_if_1d(digamma(a0 + 1.0) - (abar * digamma(a + 1.0)).sum(axis=-1), a)


def mutual_information(alpha: ArrayLike) -> ScalarOrArray:
    """Epistemic value ``I(o; theta) = H_pred - H_ale`` of one observation (eq. 2.14 / D.3).

    The information a single categorical outcome ``o`` carries about
    ``theta ~ Dir(alpha)``: large while counts are few, falling like
    ``(k - 1) / (2 alpha_0)`` as they grow.

    Parameters
    ----------
    alpha : array_like, shape (k,) or (n, k)
        Concentration parameters, finite and > 0. With ``k = 1`` the result is 0.

    Returns
    -------
    float or ndarray of shape (n,)
        In nats, clamped to ``>= 0`` against rounding. ``Dir(1, 1, 1)`` gives
        ``0.265279`` (in general ``Dir(1^k)`` gives ``ln k - H_k + 1``, ``H_k`` the
        ``k``-th harmonic number).

    Notes
    -----
    Computed as ``sum_i abar_i f(alpha_i) - f(alpha_0)`` with
    ``f(x) = psi(x + 1) - ln x`` evaluated by its asymptotic series for ``x >= 10``;
    subtracting ``H_ale`` from ``H_pred`` directly would cancel catastrophically for
    concentrated beliefs.
    """
    a = as_alpha(alpha)
    return _scalar_if_1d(_mutual_information(a), a)


def mutual_information_mc(alpha: ArrayLike, n: int, rng: np.random.Generator) -> float:
    """Monte-Carlo estimate of :func:`mutual_information` for one Dirichlet.

    Uses ``I(o; theta) = E_theta[KL(theta || E[theta])]``: draws ``theta_1..theta_n``
    from ``Dir(alpha)`` and averages ``KL(theta_j || alpha / alpha_0)``. The outcome
    is integrated out exactly, which lowers the variance. Every term lies in
    ``[0, -ln min_i(alpha_i / alpha_0)]``, so Hoeffding's inequality bounds the error.

    Parameters
    ----------
    alpha : array_like, shape (k,)
        Concentration parameters, finite and > 0.
    n : int
        Number of draws, >= 1.
    rng : numpy.random.Generator
        Source of randomness, passed explicitly for reproducibility.

    Returns
    -------
    float
        Unbiased estimate in nats.
    """
    a = as_alpha(alpha)
    if a.ndim != 1:
        raise ValueError(f"alpha must be 1-D for the Monte-Carlo estimate; got shape {a.shape}")
    if not isinstance(n, (int, np.integer)) or isinstance(n, bool) or n < 1:
        raise ValueError(f"n must be a positive integer; got {n!r}")
    check_rng(rng)
    theta = rng.dirichlet(a, size=int(n))
    mean = a / a.sum()
    return float(rel_entr(theta, mean).sum(axis=-1).mean())


# -------------------------------------------------------------------- learning, density


def conjugate_update(alpha: ArrayLike, counts: ArrayLike) -> NDArray[np.float64]:
    """Posterior ``Dir(alpha + counts)`` after observing ``counts`` (thesis section 2.3).

    Parameters
    ----------
    alpha : array_like, shape (k,) or (n, k)
        Prior concentration parameters, finite and > 0.
    counts : array_like, broadcastable to ``alpha``
        Observed counts (beads added), finite and >= 0; need not be integers.

    Returns
    -------
    ndarray
        ``alpha + counts``.
    """
    a = as_alpha(alpha)
    c = np.asarray(counts, dtype=float)
    if not np.all(np.isfinite(c)) or np.any(c < 0):
        raise ValueError(f"counts must be finite and >= 0; got {c.tolist()}")
    try:
        return a + np.broadcast_to(c, a.shape)
    except ValueError:
        raise ValueError(
            f"counts of shape {c.shape} do not match alpha of shape {a.shape}"
        ) from None


def dirichlet_logpdf(x: ArrayLike, alpha: ArrayLike) -> ScalarOrArray:
    """Log density of ``Dir(alpha)`` at point(s) ``x`` of the simplex (for plots).

    ``ln p(x) = ln Gamma(alpha_0) - sum_i ln Gamma(alpha_i) + sum_i (alpha_i - 1) ln x_i``.

    Parameters
    ----------
    x : array_like, shape (k,) or (m, k)
        Point(s) on the simplex: finite, >= 0, summing to 1 within ``1e-9``.
    alpha : array_like, shape (k,)
        Concentration parameters, finite and > 0.

    Returns
    -------
    float or ndarray of shape (m,)
        On the boundary the result is ``-inf`` where ``alpha_i > 1`` and ``+inf`` where
        ``alpha_i < 1``.
    """
    a = as_alpha(alpha)
    if a.ndim != 1:
        raise ValueError(f"alpha must be 1-D; got shape {a.shape}")
    points = _as_probabilities(x, "x")
    if points.shape[-1] != a.shape[0]:
        raise ValueError(f"x has {points.shape[-1]} components but alpha has {a.shape[0]}")
    log_norm = gammaln(a.sum()) - gammaln(a).sum()
    with np.errstate(divide="ignore"):
        values = log_norm + xlogy(a - 1.0, points).sum(axis=-1)
    return _scalar_if_1d(values, points)


# ------------------------------------------------------------------------------ samplers


def thompson_sample(alpha: ArrayLike, rng: np.random.Generator) -> int:
    """Thompson sampling: draw ``theta ~ Dir(alpha)`` and return ``argmax_i theta_i``.

    Parameters
    ----------
    alpha : array_like, shape (k,)
        Concentration parameters, finite and > 0.
    rng : numpy.random.Generator

    Returns
    -------
    int
        Index of the chosen component.
    """
    a = as_alpha(alpha)
    if a.ndim != 1:
        raise ValueError(f"alpha must be 1-D; got shape {a.shape}")
    check_rng(rng)
    return int(np.argmax(rng.dirichlet(a)))


def probability_matching_sample(alpha: ArrayLike, rng: np.random.Generator) -> int:
    """Posterior-predictive sampling: return ``i`` with probability ``alpha_i / alpha_0``.

    This is what drawing one bead from a matchbox does: no parameter is sampled,
    only the next outcome from the predictive distribution.

    Parameters
    ----------
    alpha : array_like, shape (k,)
        Concentration parameters (bead counts), finite and > 0.
    rng : numpy.random.Generator

    Returns
    -------
    int
        Index of the chosen component.
    """
    a = as_alpha(alpha)
    if a.ndim != 1:
        raise ValueError(f"alpha must be 1-D; got shape {a.shape}")
    check_rng(rng)
    return int(rng.choice(a.shape[0], p=a / a.sum()))
