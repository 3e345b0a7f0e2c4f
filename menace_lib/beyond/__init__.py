"""Beyond the thesis: sweeps that answer the open questions of its §11.6.

Each module of this package that defines a module-level ``SWEEP`` (a
:class:`~menace_lib.beyond.sweep.Sweep`) is one question; :func:`sweeps` finds
them all, so a new question joins the command line (``python -m menace_lib
experiment NAME``) and the book by adding its module. :mod:`.sweep` runs a sweep
and summarises it with 95% confidence intervals.
"""

from __future__ import annotations

import importlib
import pkgutil

from .sweep import Sweep, SweepResult, run_sweep, seed_list

__all__ = ["Sweep", "SweepResult", "get_sweep", "run_sweep", "seed_list", "sweeps"]


def sweeps() -> dict[str, Sweep]:
    """Every sweep of this package, by its command-line name."""
    found: dict[str, Sweep] = {}
    for info in sorted(pkgutil.iter_modules(__path__), key=lambda m: m.name):
        module = importlib.import_module(f"{__name__}.{info.name}")
        sweep = getattr(module, "SWEEP", None)
        if isinstance(sweep, Sweep):
            found[sweep.name] = sweep
    return found


def get_sweep(name: str) -> Sweep:
    """The sweep called ``name``.

    Raises
    ------
    ValueError
        Naming the unknown sweep and listing the known ones.
    """
    known = sweeps()
    if name not in known:
        raise ValueError(f"unknown sweep {name!r}; choose one of {sorted(known)}")
    return known[name]
