"""The reproducibility contract: which numbers must agree, and how closely.

This module is the one owner of the answer to "is this rerun the same as the stored
result?". Every comparison of a rerun against a stored result -- the experiment suite's
:meth:`~menace_lib.experiments.SuiteResult.matches`, a sweep's
:meth:`~menace_lib.book.beyond.SweepResult.matches`, the claims caches, the book's check cells
and the tests -- goes through :func:`same_numbers` (or :func:`differences`, which says
where two results part).

The contract
------------
Integers are equal to the bit on every machine.
    Games, moves, bead counts, sampled outcomes, seeds and counts are integers (or strings
    and booleans). They come from the seeded generators and from integer table lookups, so
    they cannot depend on the processor. They are compared with ``==``.

A float is equal within :data:`REL_TOL` relative, with an :data:`ABS_TOL` floor.
    numpy sends ``exp``, ``log`` and friends to different SIMD kernels on different
    processors (baseline x86-64, AVX2, AVX-512). Those kernels are accurate to about one
    unit in the last place (ulp) but not identical, so a float that went through ``exp``
    or ``log`` -- an Active Inference agent's softmax, an expected free energy, an exact
    learning curve built on them -- may differ in its last bit or two between machines.
    Demanding bit-equality of such a float is a bet on the processor.

Why ``1e-12``
    A last-bit difference is a relative ``1.1e-16``; an exact evaluation sums a few
    thousand such terms over at most nine plies, which can grow it to about ``1e-14``.
    ``1e-12`` leaves a hundredfold margin above that. It is still far below anything a
    real change produces: one game played differently moves a draw rate or a learning
    curve by at least ``1e-6`` (a probability that went through a policy of counts of a
    few beads), and usually by ``1e-3``. The absolute floor ``1e-12`` keeps values at or
    near zero (a Kullback-Leibler divergence of two equal policies, say) from being
    compared only relatively.

What a float cannot do
    A float never decides an integer. Where a float probability meets a uniform draw (an
    Active Inference agent's softmax draw, a Boltzmann draw), a difference of one ulp
    changes the drawn move only if the uniform number falls within one ulp of a
    cumulative boundary: a chance of about ``2**-52`` per draw, or one in ten million over
    all the draws of every stored result of this book. That is why the integers agree to
    the bit: :func:`test_stored_records_rerun_on_baseline_kernels` reruns stored records
    of every agent kind under numpy's baseline kernels
    (``NPY_DISABLE_CPU_FEATURES="X86_V3 X86_V4"``), and CI runs it on every machine.

Timing fields (:data:`IGNORED_KEYS`) are never compared.
"""

from __future__ import annotations

import math
from collections.abc import Iterator, Mapping, Sequence
from typing import Any

import numpy as np

__all__ = [
    "ABS_TOL",
    "IGNORED_KEYS",
    "REL_TOL",
    "assert_same_numbers",
    "differences",
    "same_float",
    "same_numbers",
]

REL_TOL = 1e-12
"""Relative tolerance for floats (see the module docstring for why)."""

ABS_TOL = 1e-12
"""Absolute floor for floats at or near zero."""

IGNORED_KEYS = frozenset(
    {"seconds", "elapsed", "wall_seconds", "cpu_seconds", "process_cpu_s", "peak_mb"}
)
"""Mapping keys that hold timings or memory peaks (measures of the machine that ran the work,
not results): never compared."""

_MAX_REPORTED = 10


def same_float(a: float, b: float) -> bool:
    """Whether two floats are equal under the contract.

    Parameters
    ----------
    a, b
        Finite floats, or NaN/infinity (a NaN equals only a NaN, an infinity only itself).

    Returns
    -------
    bool
        ``True`` if ``|a - b| <= max(REL_TOL * max(|a|, |b|), ABS_TOL)``.

    Examples
    --------
    >>> same_float(0.29153240519709633, 0.2915324051970963)
    True
    >>> same_float(0.5, 0.5000001)
    False
    """
    a, b = float(a), float(b)
    if math.isnan(a) or math.isnan(b):
        return math.isnan(a) and math.isnan(b)
    return math.isclose(a, b, rel_tol=REL_TOL, abs_tol=ABS_TOL)


def differences(a: Any, b: Any, *, ignore: frozenset[str] = IGNORED_KEYS) -> list[str]:
    """Where two results differ under the contract, as readable paths.

    Parameters
    ----------
    a, b
        Results to compare: nested mappings, sequences (lists, tuples, numpy arrays) and
        scalars, as read from JSON or produced by a rerun.
    ignore
        Mapping keys never compared (timings).

    Returns
    -------
    list of str
        One line per difference, such as ``"curve.draw[3]: 0.52 != 0.53"``; at most ten.
        Empty if the two agree.

    Examples
    --------
    >>> differences({"games": 5, "draw": 0.25}, {"games": 6, "draw": 0.25})
    ['games: 5 != 6']
    """
    out: list[str] = []
    for line in _walk(a, b, "", ignore):
        out.append(line)
        if len(out) >= _MAX_REPORTED:
            break
    return out


def same_numbers(a: Any, b: Any, *, ignore: frozenset[str] = IGNORED_KEYS) -> bool:
    """Whether two results agree under the reproducibility contract.

    Integers, strings, booleans and ``None`` must be equal; floats must agree within
    :data:`REL_TOL` (floor :data:`ABS_TOL`); mappings must have the same keys (timing keys
    aside) and sequences the same length.

    Parameters
    ----------
    a, b
        Results to compare (see :func:`differences`).
    ignore
        Mapping keys never compared.

    Returns
    -------
    bool

    Examples
    --------
    >>> same_numbers({"curve": [0.8301270513159303]}, {"curve": [0.8301270513159302]})
    True
    >>> same_numbers({"beads": [4, 3]}, {"beads": [4, 2]})
    False
    """
    return next(_walk(a, b, "", ignore), None) is None


def assert_same_numbers(a: Any, b: Any, label: str = "", **kwargs: Any) -> None:
    """Raise ``AssertionError`` naming where ``a`` and ``b`` differ, if they do.

    Parameters
    ----------
    a, b
        Results to compare (see :func:`same_numbers`).
    label
        What is compared, put in front of the message (a condition key, a file name).
    **kwargs
        Passed to :func:`differences`.

    Raises
    ------
    AssertionError
        If the results differ; the message lists up to ten differing paths.

    Examples
    --------
    >>> assert_same_numbers([1, 2.0], [1, 2.0 + 1e-16])
    """
    found = differences(a, b, **kwargs)
    if found:
        prefix = f"{label}: " if label else ""
        raise AssertionError(prefix + "; ".join(found))


def _walk(a: Any, b: Any, path: str, ignore: frozenset[str]) -> Iterator[str]:
    """Yield a line for every place where ``a`` and ``b`` differ."""
    a, b = _plain(a), _plain(b)
    if isinstance(a, Mapping) and isinstance(b, Mapping):
        yield from _walk_mappings(a, b, path, ignore)
    elif _is_sequence(a) and _is_sequence(b):
        if len(a) != len(b):
            yield f"{path or 'value'}: length {len(a)} != {len(b)}"
            return
        for i, (x, y) in enumerate(zip(a, b, strict=True)):
            yield from _walk(x, y, f"{path}[{i}]", ignore)
    elif not _same_scalar(a, b):
        yield f"{path or 'value'}: {_short(a)} != {_short(b)}"


def _walk_mappings(
    a: Mapping[str, Any], b: Mapping[str, Any], path: str, ignore: frozenset[str]
) -> Iterator[str]:
    for key in sorted(set(a) | set(b), key=str):
        if key in ignore:
            continue
        where = f"{path}.{key}" if path else str(key)
        if key not in a or key not in b:
            yield f"{where}: only in {'the first' if key in a else 'the second'}"
        else:
            yield from _walk(a[key], b[key], where, ignore)


def _same_scalar(a: Any, b: Any) -> bool:
    # bool is an int subclass: True must not equal 1.0 by the float rule.
    if isinstance(a, bool) or isinstance(b, bool):
        return type(a) is type(b) and a == b
    if isinstance(a, float) or isinstance(b, float):
        if not isinstance(a, (int, float)) or not isinstance(b, (int, float)):
            return False
        return same_float(a, b)
    return type(a) is type(b) and a == b


def _plain(x: Any) -> Any:
    """numpy scalars and arrays as the Python values JSON would give back."""
    if isinstance(x, np.ndarray):
        return x.tolist()
    if isinstance(x, np.generic):
        return x.item()
    return x


def _is_sequence(x: Any) -> bool:
    return isinstance(x, Sequence) and not isinstance(x, (str, bytes))


def _short(x: Any) -> str:
    text = repr(x)
    return text if len(text) <= 60 else text[:57] + "..."
