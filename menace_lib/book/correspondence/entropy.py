"""The entropy identity (thesis Appendix D): E[log θ] and E[θ log θ] under a Dirichlet.

:func:`expected_log_theta`, :func:`expected_theta_log_theta` and their Monte-Carlo check
:func:`log_moments_mc`.
"""

from __future__ import annotations

import numpy as np
from numpy.typing import ArrayLike, NDArray

from ...maths.dirichlet import check_rng, dirichlet_mean
from .checks import check_count, positive_alpha


def expected_log_theta(alpha: ArrayLike) -> NDArray[np.float64]:
    """``E[ln theta_i] = psi(alpha_i) - psi(alpha_0)`` under ``Dir(alpha)``.

    Parameters
    ----------
    alpha : array_like, shape (k,)
        Concentration parameters, > 0.

    Returns
    -------
    ndarray of shape (k,)
    """
    a = positive_alpha(alpha)
    from scipy.special import digamma  # here: importing scipy.special costs about 0.5 CPU-s

    return digamma(a) - digamma(a.sum())


def expected_theta_log_theta(alpha: ArrayLike) -> NDArray[np.float64]:
    """``E[theta_i ln theta_i] = (alpha_i / alpha_0)(psi(alpha_i + 1) - psi(alpha_0 + 1))``.

    Thesis eq. D.1. Minus the sum over ``i`` is the expected entropy ``H_ale`` (eq. D.2).

    Parameters
    ----------
    alpha : array_like, shape (k,)
        Concentration parameters, > 0.

    Returns
    -------
    ndarray of shape (k,)
    """
    a = positive_alpha(alpha)
    from scipy.special import digamma

    return dirichlet_mean(a) * (digamma(a + 1.0) - digamma(a.sum() + 1.0))


def log_moments_mc(
    alpha: ArrayLike, n: int, rng: np.random.Generator
) -> tuple[NDArray[np.float64], NDArray[np.float64], NDArray[np.float64], NDArray[np.float64]]:
    """Monte-Carlo estimates of ``E[ln theta_i]`` and ``E[theta_i ln theta_i]``.

    Parameters
    ----------
    alpha : array_like, shape (k,)
        Concentration parameters, > 0.
    n : int
        Number of draws ``theta ~ Dir(alpha)``, >= 2.
    rng : numpy.random.Generator

    Returns
    -------
    (mean_log, se_log, mean_tlogt, se_tlogt)
        Sample means and their standard errors, each of shape (k,).
    """
    a = positive_alpha(alpha)
    n = check_count(n, "n", minimum=2)
    theta = check_rng(rng).dirichlet(a, size=n)
    # Tiny alpha can give theta_i = 0 in floating point; ln 0 would poison the mean.
    log_theta = np.log(np.maximum(theta, np.finfo(float).tiny))
    from scipy.special import xlogy

    tlogt = xlogy(theta, theta)
    root_n = np.sqrt(n)
    return (
        log_theta.mean(axis=0),
        log_theta.std(axis=0, ddof=1) / root_n,
        tlogt.mean(axis=0),
        tlogt.std(axis=0, ddof=1) / root_n,
    )
