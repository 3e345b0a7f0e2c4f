"""The thesis's experiment suite (Part III): conditions, protocol, runner and results.

================================  ============================================
:mod:`~.suite`                    every row of Tables 9.1-9.4 as a
                                  :class:`Condition`; :func:`make_agent`
:mod:`~.protocol`                 one seed of one condition: training,
                                  sampled and exact validation, diagnostics
:mod:`~.runner`                   seeds × conditions with joblib (or Dask)
:mod:`~.results`                  aggregation, agreement, JSON/CSV, re-runs
:mod:`~.sweep`                    conditions × seeds of Part V, with intervals
:mod:`~.bench`                    ``python -m menace_lib bench``
================================  ============================================

Quick start::

    from menace_lib.experiments import THESIS_SUITE, run_suite, select
    result = run_suite(select(THESIS_SUITE, "9.3"), seeds=10)
    result.rows[0]["draw_mean"], result.rows[0]["thesis_draw"]
"""

from .._moved import old_attribute
from ..base._lazy import submodule_getattr
from .protocol import Protocol, run_seed, seed_streams, validation_spread
from .results import (
    SuiteResult,
    aggregate,
    agreement,
    comparison_rows,
    difference,
    format_table,
    markdown_table,
    mean_sd,
    read_csv,
    rerun,
    same_numbers,
)
from .runner import clear_cache, run_suite
from .suite import LAMBDA_GRID, LAMBDA_SUITE, THESIS_SUITE, Condition, describe, make_agent, select

__all__ = [
    "AGENT_LABELS",
    "LAMBDA_GRID",
    "LAMBDA_SUITE",
    "Condition",
    "Protocol",
    "SuiteResult",
    "THESIS_SUITE",
    "aggregate",
    "agreement",
    "clear_cache",
    "comparison_rows",
    "describe",
    "difference",
    "format_table",
    "make_agent",
    "markdown_table",
    "mean_sd",
    "read_csv",
    "rerun",
    "run_seed",
    "run_suite",
    "same_numbers",
    "seed_streams",
    "validation_spread",
    "select",
]

# ml.experiments.<module> after `import menace_lib as ml` (menace_lib.base._lazy).
_submodule = submodule_getattr(__name__, __path__)


def __getattr__(name: str):
    """``AGENT_LABELS`` (kind -> reader's name, read from the registry of agent kinds),
    or a submodule."""
    if name == "AGENT_LABELS":
        from . import suite

        return suite.AGENT_LABELS
    try:
        return _submodule(name)
    except AttributeError:
        # ``figures`` moved to the book's code (menace_lib.book.suite_figures).
        return old_attribute(__name__, name)
