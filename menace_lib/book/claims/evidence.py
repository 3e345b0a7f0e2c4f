"""Everything the ledger's measures read, loaded once and lazily.

:class:`Evidence` gives the stored suite results (``thesis_results.json``,
``lambda_results.json``), the ledger's own caches (:mod:`.cache`) and a few
derived views that several claims share. Nothing here runs an experiment: a
measure that needs a training run reads it from a cache.
"""

from __future__ import annotations

from collections.abc import Callable
from functools import cached_property
from pathlib import Path
from typing import Any, TypeVar

import numpy as np

from ...experiments import SuiteResult
from . import cache
from .seeds import row_values

__all__ = ["Evidence"]

T = TypeVar("T")


class Evidence:
    """Lazy access to the results in ``data_dir``.

    The default is the book's stored results (:func:`menace_lib.base.files.book_data`).
    """

    def __init__(self, data_dir: str | Path = cache.DATA_DIR) -> None:
        self.data_dir = Path(data_dir)
        if not self.data_dir.is_dir():
            raise ValueError(f"no results folder {str(self.data_dir)!r}")
        self._memo: dict[str, Any] = {}

    def memo(self, name: str, compute: Callable[[], T]) -> T:
        """``compute()`` once per evidence: analyses that several claims share run once."""
        if name not in self._memo:
            self._memo[name] = compute()
        return self._memo[name]

    @cached_property
    def thesis(self) -> SuiteResult:
        """The stored suite: Tables 9.1-9.4, seeds 0-9."""
        return SuiteResult.load_json(self.data_dir / "thesis_results.json")

    @cached_property
    def sweep(self) -> SuiteResult:
        """The stored λ sweep."""
        return SuiteResult.load_json(self.data_dir / "lambda_results.json")

    @cached_property
    def seeds(self) -> dict[str, Any]:
        """Forty seeds of every row (:mod:`.seeds`)."""
        return cache.load("seeds", self.data_dir)

    @cached_property
    def dynamics(self) -> dict[str, Any]:
        """Per-checkpoint learning dynamics (:mod:`.dynamics`)."""
        return cache.load("dynamics", self.data_dir)

    @cached_property
    def regret(self) -> dict[str, Any]:
        """Bandit regret curves (:mod:`.regret`)."""
        return cache.load("regret", self.data_dir)

    @cached_property
    def computational(self) -> dict[str, Any]:
        """This machine's §8.8 figures (:func:`menace_lib.experiments.bench.thesis_figures`)."""
        return cache.load("computational", self.data_dir)

    @cached_property
    def stress(self) -> dict[str, Any]:
        """Connect-4 4×4 over many fresh seeds (:mod:`.stress`)."""
        return cache.load("stress", self.data_dir)

    # --- shared views ------------------------------------------------------------------

    def per_seed(self, key: str, field: str) -> np.ndarray:
        """One field of a stored suite row across its seeds (stopped seeds left out)."""
        row = self.thesis.row(key)
        records = self.thesis.records_for(key)
        stop = row["seeds"] < row["seeds_run"]
        return np.array([r[field] for r in records if not (stop and r["stopped"])], dtype=float)

    def many(self, key: str, field: str, *, drop_stopped: bool = False) -> np.ndarray:
        """One field of a row across the forty seeds."""
        values = row_values(self.seeds, key, field, drop_stopped=drop_stopped)
        return np.asarray(values, dtype=float)

    def runs(self, key: str) -> list[dict[str, Any]]:
        """The dynamics runs of one condition, in seed order."""
        out = [r for r in self.dynamics["runs"] if r["key"] == key]
        if not out:
            raise KeyError(f"no dynamics runs for {key!r}")
        return sorted(out, key=lambda r: r["seed"])

    def observed(self, key: str, field: str, sub: str | None = None) -> np.ndarray:
        """A dynamics observation across seeds × checkpoints (NaN where missing)."""

        def get(obs: dict[str, Any]) -> float:
            value = obs.get(field)
            if sub is not None:
                value = None if value is None else value.get(sub)
            return np.nan if value is None else float(value)

        return np.array([[get(o) for o in r["observations"]] for r in self.runs(key)])
