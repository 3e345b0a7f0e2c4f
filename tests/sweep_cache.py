"""The book's stored sweeps, checked the same way in each chapter's tests.

A chapter that stores a sweep in ``book/data`` (its cache) tests two things of it: the file
is the sweep the library registers (its conditions and options, a record for every
condition and seed), and a small slice run again here gives the stored records back.
"""

from __future__ import annotations

from collections.abc import Sequence
from pathlib import Path

from menace_lib.book.beyond import run_sweep
from menace_lib.experiments.sweep import Sweep, SweepResult

DATA = Path(__file__).resolve().parents[1] / "book" / "data"


def load(name: str) -> SweepResult:
    """The stored sweep ``name`` (``"hybrid_search.json"``) of the book."""
    return SweepResult.load_json(DATA / name)


def assert_published(
    cache: SweepResult, sweep: Sweep, conditions: Sequence[str], *, every_record: bool = True
) -> None:
    """The cache is ``sweep`` run over ``conditions`` with the sweep's own options."""
    assert cache.config["conditions"] == list(conditions)
    assert cache.config["options"] == dict(sweep.options)
    if every_record:
        assert len(cache.records) == len(conditions) * len(cache.config["seeds"])


def assert_slice_reruns(cache: SweepResult, sweep: Sweep, conditions: Sequence[str]) -> None:
    """Seed 0 of ``conditions``, run again with the stored options, matches the cache."""
    again = run_sweep(
        sweep,
        [0],
        options=cache.config["options"],
        conditions=list(conditions),
        backend="sequential",
    )
    assert cache.matches(again)
