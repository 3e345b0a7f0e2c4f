"""Argument checks shared by the correspondence modules: counts, beads, outcome tables."""

from __future__ import annotations

import numpy as np
from numpy.typing import ArrayLike, NDArray

from ...maths.dirichlet import SUM_TOLERANCE, as_alpha


def check_count(value: object, name: str, minimum: int = 1) -> int:
    if isinstance(value, bool) or not isinstance(value, (int, np.integer)) or value < minimum:
        raise ValueError(f"{name} must be an integer >= {minimum}; got {value!r}")
    return int(value)


def positive_alpha(alpha: ArrayLike) -> NDArray[np.float64]:
    return as_alpha(alpha, ndims=(1,))


def bead_counts(alpha: ArrayLike, name: str = "alpha") -> NDArray[np.float64]:
    """Bead counts: finite, >= 0, at least one > 0 (a clamped colour may hold 0)."""
    a = np.asarray(alpha, dtype=float)
    if a.ndim != 1 or a.size < 1:
        raise ValueError(f"{name} must be a non-empty 1-D array; got shape {a.shape}")
    if not np.all(np.isfinite(a)) or np.any(a < 0):
        raise ValueError(f"{name} must be finite and >= 0; got {a.tolist()}")
    if a.sum() <= 0:
        raise ValueError(f"{name} must hold at least one bead; got {a.tolist()}")
    return a


def outcome_table(outcome_probs: ArrayLike, k: int | None = None) -> NDArray[np.float64]:
    p = np.asarray(outcome_probs, dtype=float)
    if p.ndim != 2 or p.shape[1] != 3 or p.shape[0] < 1:
        raise ValueError(
            f"outcome_probs must have shape (moves, 3) over (win, draw, loss); got {p.shape}"
        )
    if k is not None and p.shape[0] != k:
        raise ValueError(f"outcome_probs has {p.shape[0]} rows for {k} bead colours")
    if not np.all(np.isfinite(p)) or np.any(p < 0):
        raise ValueError(f"outcome_probs must be finite and >= 0; got {p.tolist()}")
    if np.any(np.abs(p.sum(axis=1) - 1.0) > SUM_TOLERANCE):
        raise ValueError(f"each row of outcome_probs must sum to 1; got {p.sum(axis=1)}")
    return p


def result_triple(values: ArrayLike, name: str) -> NDArray[np.float64]:
    v = np.asarray(values, dtype=float)
    if v.shape != (3,) or not np.all(np.isfinite(v)):
        raise ValueError(f"{name} must be 3 finite numbers (win, draw, loss); got {values!r}")
    return v
