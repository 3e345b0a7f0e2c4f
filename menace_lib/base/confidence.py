"""Confidence intervals for the sweeps: means over seeds, paired differences, proportions.

Every interval is two-sided at ``level`` (default 95%):

* :func:`mean_ci` -- Student's *t* interval for a mean over independent seeds;
* :func:`paired_ci` -- the same for the mean *difference* of two conditions run on
  the same seeds (common random numbers make it much narrower than two separate
  intervals);
* :func:`proportion_ci` -- Wilson's score interval for a count of successes, which
  stays inside [0, 1] and behaves at 0 and n successes.

Missing values (``None`` or NaN: a run that never reached a threshold, say) are
dropped and counted in ``missing``, never silently averaged.
"""

from __future__ import annotations

import math
from collections.abc import Sequence

import numpy as np

__all__ = ["mean_ci", "paired_ci", "proportion_ci"]


def _check_level(level: float) -> float:
    if not 0 < level < 1:
        raise ValueError(f"level must be between 0 and 1, got {level!r}")
    return float(level)


def _finite(values: Sequence[float | None]) -> tuple[np.ndarray, int]:
    arr = np.array([np.nan if v is None else float(v) for v in values], dtype=float)
    keep = np.isfinite(arr)
    return arr[keep], int((~keep).sum())


def _t_interval(x: np.ndarray, level: float) -> dict[str, float | int | None]:
    n = int(x.size)
    if n == 0:
        return {"mean": None, "low": None, "high": None, "sd": None, "n": 0}
    # Sums of values near the float's limit overflow: work in units of the largest
    # there (only there, so every ordinary result keeps its bits).
    big = float(np.max(np.abs(x)))
    scale = big if big > 1e150 else 1.0
    y = x / scale
    mean = float(y.mean()) * scale
    if n == 1:
        return {"mean": mean, "low": None, "high": None, "sd": None, "n": 1}
    # Student's t quantile: scipy.special's stdtrit, the function scipy.stats.t.ppf calls
    # (the same bits), imported here because scipy.special takes a fraction of the second
    # scipy.stats takes to import, which a page that asks only for intervals would pay.
    from scipy.special import stdtrit

    spread = float(y.std(ddof=1))
    sd = spread * scale
    half = float(stdtrit(n - 1, 0.5 + level / 2)) * spread / math.sqrt(n)
    low, high = mean - half * scale, mean + half * scale
    if not all(math.isfinite(v) for v in (mean, sd, low, high)):
        raise ValueError(
            f"values: up to {scale:.3g} in size, too large for a finite interval; "
            "rescale them first"
        )
    return {"mean": mean, "low": low, "high": high, "sd": sd, "n": n}


def mean_ci(values: Sequence[float | None], level: float = 0.95) -> dict:
    """Mean of ``values`` with a Student-*t* confidence interval.

    Returns ``{"mean", "low", "high", "sd", "n", "missing"}``; ``low``/``high``
    are ``None`` with fewer than two finite values.

    Parameters
    ----------
    values
        One number per seed; ``None`` and non-finite values are counted as missing.
    level
        The confidence level.

    Returns
    -------
    dict
        ``{"mean", "low", "high", "sd", "n", "missing"}``.

    Examples
    --------
    >>> import menace_lib as ml
    >>> ci = ml.mean_ci([0.5, 0.6, 0.7])
    >>> round(ci["mean"], 12), ci["n"], ci["low"] < ci["mean"] < ci["high"]
    (0.6, 3, True)
    """
    x, missing = _finite(values)
    return {**_t_interval(x, _check_level(level)), "missing": missing}


def paired_ci(a: Sequence[float | None], b: Sequence[float | None], level: float = 0.95) -> dict:
    """Mean of ``a[i] - b[i]`` over seeds where both are finite, with a *t* interval.

    ``a`` and ``b`` are the same seeds in the same order (common random numbers).

    Parameters
    ----------
    a, b
        One number per seed each, the same seeds in the same order.
    level
        The confidence level.

    Returns
    -------
    dict
        ``{"mean", "low", "high", "sd", "n", "missing"}`` of the differences ``a - b``.

    Raises
    ------
    ValueError
        If the two lists differ in length.

    Examples
    --------
    >>> import menace_lib as ml
    >>> ci = ml.paired_ci([0.7, 0.8, 0.9], [0.5, 0.7, 0.8])
    >>> round(ci["mean"], 12), ci["n"]
    (0.133333333333, 3)
    """
    if len(a) != len(b):
        raise ValueError(f"paired values need equal lengths, got {len(a)} and {len(b)}")
    pairs = [
        (float(u), float(v))
        for u, v in zip(a, b, strict=True)
        if u is not None and v is not None and math.isfinite(u) and math.isfinite(v)
    ]
    diffs = np.array([u - v for u, v in pairs], dtype=float)
    return {**_t_interval(diffs, _check_level(level)), "missing": len(a) - len(pairs)}


def proportion_ci(successes: int, n: int, level: float = 0.95) -> dict:
    """``successes / n`` with Wilson's score interval.

    Raises
    ------
    ValueError
        Unless ``0 ≤ successes ≤ n`` are whole numbers.
    """
    for name, v in (("successes", successes), ("n", n)):
        if isinstance(v, bool) or not isinstance(v, (int, np.integer)) or v < 0:
            raise ValueError(f"{name} must be a whole number ≥ 0, got {v!r}")
    if successes > n:
        raise ValueError(f"successes ({successes}) cannot exceed n ({n})")
    level = _check_level(level)
    if n == 0:
        return {"rate": None, "low": None, "high": None, "n": 0}
    # Wilson's interval as scipy.stats.binomtest(...).proportion_ci(method="wilson")
    # computes it (Newcombe 1998, the same operations in the same order: the same bits),
    # without importing scipy.stats (a second) or computing the test's p-value.
    from scipy.special import ndtri

    k, total = int(successes), int(n)
    p = k / total
    z = ndtri(0.5 + 0.5 * level)
    denom = 2 * (total + z**2)
    center = (2 * total * p + z**2) / denom
    delta = z / denom * math.sqrt(4 * total * p * (1 - p) + z**2)
    return {
        "rate": successes / n,
        "low": 0.0 if k == 0 else float(center - delta),
        "high": 1.0 if k == total else float(center + delta),
        "n": total,
    }
