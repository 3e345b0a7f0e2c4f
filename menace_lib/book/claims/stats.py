"""The statistics behind the claims ledger, each on plain arrays of per-seed values.

Every test and interval comes from :mod:`scipy.stats`; this module only says which
one answers which question:

* :func:`variance_split` -- the law of total variance for a row of seeds validated by
  ``n`` sampled games: how much of the spread is training, how much evaluation;
* :func:`thesis_variance_split` -- the same split recovered from a printed mean ± SD;
* :func:`mean_interval` / :func:`printed_interval` -- 95 % intervals of a mean;
* :func:`welch` -- a two-sample comparison that also handles identical samples;
* :func:`successes` / :func:`tail_probability` -- bimodal rows as counts of seeds;
* :func:`chance_of_mean` -- how likely a printed 10-seed mean is under our seeds;
* :func:`curve_shape` -- numbers that put words like "smooth exponential decay",
  "step-like" and "erratic" to the test;
* :func:`pointwise_difference` -- where two families of learning curves separate.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

import numpy as np


class _ScipyStats:
    """:mod:`scipy.stats`, imported on first use (it takes seconds; the book's pages that
    only read the committed ledger never need it)."""

    def __getattr__(self, name: str):
        from scipy import stats as module

        return getattr(module, name)


stats = _ScipyStats()

__all__ = [
    "CurveShape",
    "VarianceSplit",
    "chance_of_mean",
    "curve_shape",
    "mean_interval",
    "mean_intervals",
    "median_interval",
    "pointwise_difference",
    "printed_interval",
    "successes",
    "tail_probability",
    "thesis_variance_split",
    "variance_split",
    "welch",
]

SUCCESS_LEVEL = 0.5
"""A seed of a bimodal row "succeeds" when it draws at least half its validation games."""


@dataclass(frozen=True)
class VarianceSplit:
    """Seed variance of sampled draw rates split into training and evaluation parts.

    All in squared percentage points; ``training + evaluation`` estimates ``total``.
    """

    total: float
    training: float
    evaluation: float

    @property
    def training_share(self) -> float:
        """Share of the variance that comes from what the seeds learnt."""
        parts = self.training + self.evaluation
        return self.training / parts if parts > 0 else float("nan")


def variance_split(exact: Sequence[float], sampled: Sequence[float], games: int) -> VarianceSplit:
    """Split the seed variance of ``games``-game validation rates (law of total variance).

    A seed that learnt draw probability ``p_s`` and is validated by ``games``
    sampled games reports ``p_s`` plus binomial noise of variance
    ``p_s (1 − p_s) / games``. Across seeds::

        Var(sampled) = Var_s(p_s)  +  E_s[p_s (1 − p_s)] / games
                       (training)     (evaluation)

    Both parts are known exactly here, because every seed's ``p_s`` was computed
    exactly. Rates are probabilities; the result is in squared percentage points.
    """
    p = np.asarray(exact, dtype=float)
    x = np.asarray(sampled, dtype=float)
    if p.size < 2 or p.size != x.size:
        raise ValueError(f"need ≥ 2 seeds with both rates, got {p.size} and {x.size}")
    if games < 1:
        raise ValueError(f"games must be ≥ 1, got {games}")
    return VarianceSplit(
        total=1e4 * float(x.var(ddof=1)),
        training=1e4 * float(p.var(ddof=1)),
        evaluation=1e4 * float(np.mean(p * (1 - p)) / games),
    )


def thesis_variance_split(mean: float, sd: float, seeds: int, games: int) -> VarianceSplit:
    """The same split from a printed ``mean ± sd`` (percent) of ``seeds`` seeds.

    With ``m`` the mean rate, ``E[p(1 − p)] = m(1 − m) − Var_s(p)``, so the total
    variance ``V = Var_s(p) + (m(1 − m) − Var_s(p)) / games`` can be solved for the
    training part ``Var_s(p)``, clipped to ``[0, m(1 − m)]`` (a spread below the
    binomial noise of one seed shows no training spread at all; a bimodal row's
    sample SD can exceed what rates in [0, 1] allow). The small bias of the sample
    SD across seeds is ignored.
    """
    if seeds < 2 or games < 1:
        raise ValueError(f"need seeds ≥ 2 and games ≥ 1, got {seeds} and {games}")
    m, v = mean / 100.0, (sd / 100.0) ** 2
    # A seed's p lies in [0, 1], so Var_s(p) ≤ m(1 − m); the sample SD can overshoot it.
    training = min(max((v - m * (1 - m) / games) / (1 - 1 / games), 0.0), m * (1 - m))
    return VarianceSplit(
        total=1e4 * v,
        training=1e4 * training,
        evaluation=1e4 * (m * (1 - m) - training) / games,
    )


def mean_interval(values: Sequence[float], level: float = 0.95) -> tuple[float, float]:
    """Student-t confidence interval of the mean of ``values``."""
    lo, hi = mean_intervals(np.asarray(values, dtype=float)[:, None], level)
    return float(lo[0]), float(hi[0])


def median_interval(values: Sequence[float], level: float = 0.95) -> tuple[float, float]:
    """Distribution-free confidence interval of the median: two order statistics of
    ``values`` chosen by the binomial distribution (:func:`scipy.stats.quantile_test`), so
    no shape is assumed (the games a seed needs are counted at checkpoints, not normal)."""
    x = np.asarray(values, dtype=float)
    ci = stats.quantile_test(x, q=float(np.median(x)), p=0.5).confidence_interval(level)
    return float(ci.low), float(ci.high)


def mean_intervals(values: np.ndarray, level: float = 0.95) -> tuple[np.ndarray, np.ndarray]:
    """Student-t intervals of the column means of ``values`` (rows are seeds)."""
    x = np.asarray(values, dtype=float)
    if x.ndim != 2 or x.shape[0] < 2:
        raise ValueError(f"need a (seeds ≥ 2) × columns array, got shape {x.shape}")
    half = stats.t.ppf(0.5 + level / 2, x.shape[0] - 1) * stats.sem(x, axis=0)
    mean = x.mean(axis=0)
    return mean - half, mean + half


def printed_interval(
    mean: float, sd: float, n: int, level: float = 0.95, *, normal: bool = True
) -> tuple[float, float]:
    """Interval of a mean from its printed mean ± SD of ``n`` values.

    ``normal=True`` uses the normal quantile (1.96 for 95 %), which is what the
    thesis's intervals in §9.6 turn out to use; ``False`` uses Student's t.
    """
    scale = sd / np.sqrt(n)
    dist = stats.norm() if normal else stats.t(n - 1)
    q = float(dist.ppf(0.5 + level / 2))
    return mean - q * scale, mean + q * scale


def welch(a: Sequence[float], b: Sequence[float]) -> tuple[float, float]:
    """Welch's two-sample t-test: ``(difference of means, two-sided p)``.

    Two constant samples have no variance to test with: equal ones give p = 1,
    different ones p = 0.
    """
    x, y = np.asarray(a, dtype=float), np.asarray(b, dtype=float)
    diff = float(x.mean() - y.mean())
    if x.var() == 0 and y.var() == 0:
        return diff, 1.0 if diff == 0 else 0.0
    return diff, float(stats.ttest_ind(x, y, equal_var=False).pvalue)


def successes(rates: Sequence[float], level: float = SUCCESS_LEVEL) -> int:
    """Number of seeds whose draw rate reaches ``level``."""
    return int(np.sum(np.asarray(rates, dtype=float) >= level))


def tail_probability(k: int, n: int, p: float) -> float:
    """Probability of a count at least as far from ``n·p`` as ``k``, on ``k``'s side.

    ``P(X ≥ k)`` when ``k`` lies above the expected count, ``P(X ≤ k)`` otherwise,
    for ``X ~ Binomial(n, p)``: "how likely is an outcome like the thesis's, had
    its seeds behaved as ours".
    """
    if not 0 <= k <= n:
        raise ValueError(f"k must lie in 0..{n}, got {k}")
    dist = stats.binom(n, p)
    return float(dist.sf(k - 1) if k >= n * p else dist.cdf(k))


def chance_of_mean(printed: float, values: Sequence[float], n: int = 10) -> float:
    """Two-sided probability that ``n`` of our seeds average as far from our mean as ``printed``.

    Our seeds' mean and SD stand in for the distribution; the ``n``-seed mean is
    taken as normal (central limit). Returns 1 when our seeds have no spread and
    ``printed`` equals their value, 0 when it differs.
    """
    x = np.asarray(values, dtype=float)
    sd = float(x.std(ddof=1))
    gap = abs(printed - float(x.mean()))
    if sd == 0:
        return 1.0 if gap == 0 else 0.0
    return float(2 * stats.norm.sf(gap / (sd / np.sqrt(n))))


# --- the shape of a learning curve ---------------------------------------------------------


@dataclass(frozen=True)
class CurveShape:
    """Shape numbers of per-seed learning curves (exact loss probability vs games).

    Attributes
    ----------
    exponential_r2
        Median over seeds of R² of the best fit ``a + b·exp(−t/τ)`` (τ from 1/1000 to
        100 times the span of the curve): near 1 for an exponential decay.
    step_r2
        Median over seeds of R² of the best single step (a constant, then another
        constant from one checkpoint on): near 1 for a curve that drops at once.
    relapses
        Share of seeds whose loss probability *rises* by more than ``rise`` between two
        checkpoints at least once: learning that is undone again.
    decline
        Median over seeds of first minus last loss probability (> 0: it fell).
    """

    exponential_r2: float
    step_r2: float
    relapses: float
    decline: float


def _exponential_r2(t: np.ndarray, y: np.ndarray) -> float:
    """R² of the best ``a + b·exp(−t/τ)``: for each τ on a fine log grid the best ``a, b``
    are a linear least-squares fit, whose R² is the squared correlation of ``y`` with
    ``exp(−t/τ)``; the best τ wins (a grid, so the answer never depends on a start guess)."""
    if np.ptp(y) == 0:
        return 1.0
    span = float(t[-1] - t[0])
    taus = np.geomspace(span / 1000, span * 100, 400)
    X = np.exp(-(t[None, :] - t[0]) / taus[:, None])
    Xc = X - X.mean(axis=1, keepdims=True)
    yc = y - y.mean()
    r = (Xc @ yc) / (np.sqrt((Xc**2).sum(axis=1)) * np.sqrt((yc**2).sum()) + 1e-300)
    return float(np.max(r**2))


def _step_r2(y: np.ndarray) -> float:
    spread = float(((y - y.mean()) ** 2).sum())
    if spread == 0:
        return 1.0
    best = min(
        float(((y[:k] - y[:k].mean()) ** 2).sum() + ((y[k:] - y[k:].mean()) ** 2).sum())
        for k in range(1, y.size)
    )
    return 1.0 - best / spread


def curve_shape(games: Sequence[float], losses: np.ndarray, rise: float = 0.10) -> CurveShape:
    """:class:`CurveShape` of per-seed curves ``losses`` (seeds × checkpoints) at ``games``."""
    t = np.asarray(games, dtype=float)
    L = np.atleast_2d(np.asarray(losses, dtype=float))
    if L.shape[1] != t.size or t.size < 4:
        raise ValueError(f"need ≥ 4 checkpoints matching games, got {L.shape} for {t.size}")
    return CurveShape(
        exponential_r2=float(np.median([_exponential_r2(t, y) for y in L])),
        step_r2=float(np.median([_step_r2(y) for y in L])),
        relapses=float(np.mean((np.diff(L, axis=1) > rise).any(axis=1))),
        decline=float(np.median(L[:, 0] - L[:, -1])),
    )


def pointwise_difference(
    a: np.ndarray, b: np.ndarray, alpha: float = 0.05
) -> tuple[np.ndarray, np.ndarray]:
    """Welch p-values of curves ``a`` vs ``b`` (seeds × checkpoints) at every checkpoint.

    Returns ``(p, significant)`` where ``significant`` applies the Holm correction
    for the number of checkpoints (:func:`scipy.stats.false_discovery_control` would
    control the false discovery rate instead; Holm controls the chance of even one
    false "separation").
    """
    A, B = np.asarray(a, dtype=float), np.asarray(b, dtype=float)
    if A.shape[1] != B.shape[1]:
        raise ValueError(f"curves need the same checkpoints, got {A.shape} and {B.shape}")
    p = np.array([welch(A[:, j], B[:, j])[1] for j in range(A.shape[1])])
    order = np.argsort(p)
    m = p.size
    significant = np.zeros(m, dtype=bool)
    for rank, j in enumerate(order):  # Holm's step-down procedure
        if p[j] > alpha / (m - rank):
            break
        significant[j] = True
    return p, significant
