"""Beyond the thesis: sweeps that answer the open questions of its §11.6.

Each module named in :data:`QUESTIONS` defines a module-level ``SWEEP`` (a
:class:`~menace_lib.experiments.sweep.Sweep`) and is one question; :func:`sweeps`
imports just those, so a new question joins the command line (``python -m
menace_lib experiment NAME``) and the book by adding its module and its name
here, and the figure and tuning modules (matplotlib, scipy.optimize) stay out of
the command line's start-up. :mod:`.sweep` runs a sweep and summarises it with
95% confidence intervals.
"""

from __future__ import annotations

import importlib

from ...experiments import sweep
from ...experiments.sweep import Sweep, SweepResult, run_sweep, seed_list

__all__ = [
    "QUESTIONS",
    "Sweep",
    "SweepResult",
    "get_sweep",
    "run_sweep",
    "seed_list",
    "sweep",
    "sweeps",
]

QUESTIONS = (
    "priors",
    "priors_curve",
    "lambda_schedule",
    "opponent_model",
    "opponent_curious",
    "scaling",
    "scaling_trainers",
    "scaling_5x5",
    "hybrid",
    "noisy",
)
"""The modules of this package that each define one question's ``SWEEP``."""


def sweeps() -> dict[str, Sweep]:
    """Every sweep of this package, by its command-line name."""
    found = [importlib.import_module(f"{__name__}.{name}").SWEEP for name in QUESTIONS]
    return {sweep.name: sweep for sweep in found}


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


_SUBMODULES = (
    "hybrid",
    "hybrid_figures",
    "lambda_schedule",
    "lambda_tuning",
    "noisy",
    "noisy_figures",
    "opponent_model",
    "opponent_curious",
    "opponent_model_figures",
    "priors",
    "priors_curve",
    "priors_figures",
    "priors_tuning",
    "scaling",
    "scaling_figures",
    "scaling_trainers",
    "scaling_5x5",
)


def __getattr__(name: str):
    """``ml.book.beyond.<submodule>``: a submodule loaded on first use."""
    if name in _SUBMODULES:
        return importlib.import_module(f".{name}", __name__)
    raise AttributeError(f"module {__name__!r} has no attribute {name!r}")
