"""The λ-schedule sweep (menace_lib.book.beyond.lambda_schedule) and its cached result."""

from __future__ import annotations

from pathlib import Path

import pytest

from menace_lib.base.reproducibility import assert_same_numbers
from menace_lib.book.beyond import get_sweep, run_sweep
from menace_lib.book.beyond.lambda_schedule import (
    SCHEDULES,
    SWEEP,
    condition_key,
    curve_bands,
    parse_condition,
    summary_table,
)
from menace_lib.experiments.sweep import SweepResult

CACHE = Path(__file__).parents[1] / "book" / "data" / "beyond_lambda_schedule.json"
SLICE = ("hybrid/concentration/optimal", "pure/decay/mixed", "hybrid/fixed-0.5/mixed")


@pytest.fixture(scope="module")
def cached() -> SweepResult:
    return SweepResult.load_json(CACHE)


def test_the_sweep_is_registered() -> None:
    assert get_sweep("lambda-schedule") is SWEEP
    assert len(SWEEP.conditions) == 2 * 2 * len(SCHEDULES)


def test_cache_is_the_published_size(cached: SweepResult) -> None:
    assert cached.config["conditions"] == list(SWEEP.conditions)
    assert len(cached.config["seeds"]) >= 30
    assert cached.config["options"] == dict(SWEEP.options)
    assert len(cached.records) == len(SWEEP.conditions) * len(cached.config["seeds"])


@pytest.mark.golden
def test_a_slice_rerun_matches_the_cache_record_for_record(cached: SweepResult) -> None:
    again = run_sweep(SWEEP, [0, 1], conditions=SLICE, backend="sequential", jobs=1)
    assert cached.matches(again)
    for record in again.records:
        stored = cached.record(record["condition"], record["seed"])
        assert_same_numbers(stored, record, f"{record['condition']}/{record['seed']}")


def test_summary_and_bands(cached: SweepResult) -> None:
    rows = summary_table(cached)
    assert len(rows) == len(SWEEP.conditions)
    for row in rows:
        assert row["runs"] == len(cached.config["seeds"])
        assert 0 <= row["reached_90"]["rate"] <= 1
        assert row["auc"]["low"] <= row["auc"]["mean"] <= row["auc"]["high"]
        assert row["emptied_box"] == 0  # a softmax never empties a box
        if row["schedule"] == row["best_fixed"]:
            assert row["auc_vs_best_fixed"]["mean"] == 0
    fixed0 = [r for r in rows if r["schedule"] == "fixed-0"]
    assert all(r["epistemic_total"]["mean"] == 0 for r in fixed0)
    band = curve_bands(cached, SLICE[0])
    assert band["games"][-1] == cached.config["options"]["games"]
    assert all(
        lo <= m <= hi for lo, m, hi in zip(band["low"], band["mean"], band["high"], strict=True)
    )


def test_condition_keys() -> None:
    assert parse_condition(condition_key("pure", "decay", "mixed")) == ("pure", "decay", "mixed")
    for bad in ("pure/decay", "rl/decay/mixed", "pure/fast/mixed", "pure/decay/perfect"):
        with pytest.raises(ValueError, match="bad"):
            parse_condition(bad)
