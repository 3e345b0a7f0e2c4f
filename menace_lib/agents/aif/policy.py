"""From expected free energies to a box's policy: the prior and a fast softmax.

The rule is :func:`menace_lib.maths.efe.softmax_policy`. An agent writes several small
policies after every game, where NumPy's per-call cost dominates, so
:func:`softmax_rows` is a deliberate pure-Python copy of it for many short rows
at once. It performs the same floating-point operations in the same order and
takes ``exp`` from NumPy in one call, so its policies equal the rule's bit for
bit (``tests/test_aif.py`` checks this over many states and settings).
"""

from __future__ import annotations

from collections.abc import Sequence

import numpy as np

from ...games.board import CENTRE, CORNERS
from ...maths.dirichlet import PROBABILITY_FLOOR

__all__ = ["log_prior", "numpy_sum", "prior_weights", "softmax_rows"]


def prior_weights(kind: str, moves: Sequence[int], beads: float) -> np.ndarray | None:
    """Policy prior over canonical ``moves`` (``None`` is uniform).

    ``"menace"``: centre 8, corners 4, edges 2; ``"menace-initial"``: the
    state's initial bead count ``beads`` for every move.
    """
    if kind == "uniform":
        return None
    if kind == "menace":
        return np.array([8.0 if m == CENTRE else 4.0 if m in CORNERS else 2.0 for m in moves])
    return np.full(len(moves), float(beads))


def log_prior(weights: np.ndarray | None) -> list[float] | None:
    """The log-prior :func:`~menace_lib.maths.efe.softmax_policy` adds to the logits."""
    if weights is None:
        return None
    return np.log(np.maximum(weights, PROBABILITY_FLOOR)).tolist()


def numpy_sum(values: Sequence[float]) -> float:
    """``np.sum`` of a short float64 vector, in pure Python: NumPy's pairwise sum,
    which for up to 128 numbers runs eight partial sums when there are 8 or more."""
    n = len(values)
    if n < 8:
        total = 0.0
        for v in values:
            total += v
        return total
    if n > 128:
        return float(np.sum(np.asarray(values, dtype=float)))
    r = list(values[:8])
    i = 8
    while i < n - n % 8:
        for j in range(8):
            r[j] += values[i + j]
        i += 8
    total = ((r[0] + r[1]) + (r[2] + r[3])) + ((r[4] + r[5]) + (r[6] + r[7]))
    for v in values[i:]:
        total += v
    return total


def softmax_rows(
    rows: Sequence[Sequence[float]],
    lambda_policy: float,
    log_priors: Sequence[list[float] | None],
    scale: float = 1.0,
    into: Sequence[list[float]] | None = None,
) -> list[list[float]]:
    """:func:`~menace_lib.maths.efe.softmax_policy` of each row of ``G``, bit for bit.

    Parameters
    ----------
    rows
        Finite ``G`` values, one short row per state.
    lambda_policy
        Temperature, > 0.
    log_priors
        Per row, :func:`log_prior` of its prior, or ``None`` for uniform.
    scale
        Multiplies each probability after it is computed (``q * scale``, the
        beads a box receives); 1 returns the policy itself.
    into
        Optional lists, one per row, overwritten in place with the results
        (a box's beads) and returned; by default new lists are returned.
    """
    logits: list[float] = []
    for g, lp in zip(rows, log_priors, strict=True):
        low = min(g)
        if lp is None:
            # The rule computes 0.0 - (x - low) / t and then subtracts the largest
            # logit, which is 0.0. (low - x) / t is the same number but for the
            # sign of a zero, which exp ignores. A quotient that overflows is -inf
            # in both, and its weight exp(-inf) is 0.
            logits += [(low - x) / lambda_policy for x in g]
        else:
            row = [a - (x - low) / lambda_policy for a, x in zip(lp, g, strict=True)]
            top = max(row)
            logits += [v - top for v in row]
    weights = np.exp(logits).tolist()  # NumPy's exp, as the rule uses
    out = [[] for _ in rows] if into is None else into
    i = 0
    for g, target in zip(rows, out):  # noqa: B905 (one target per row, made above)
        j = i + len(g)
        w = weights[i:j]
        i = j
        if len(w) < 8:  # numpy_sum, inlined for short rows
            total = 0.0
            for v in w:
                total += v
        else:
            total = numpy_sum(w)
        target[:] = [v / total * scale for v in w]
    return out
