"""The scaling chapter's caches (thesis §11.6.2): the exact sweep and the open-box runs."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
import sweep_cache

from menace_lib.book.beyond import scaling
from menace_lib.experiments.sweep import SweepResult
from menace_lib.games.registry import game_tables

DATA = Path(__file__).resolve().parents[1] / "book" / "data"


@pytest.fixture(scope="module")
def cache() -> SweepResult:
    return sweep_cache.load("beyond_scaling.json")


def test_cache_is_the_published_sweep(cache):
    sweep_cache.assert_published(cache, scaling.SWEEP, scaling.CONDITIONS)


@pytest.mark.golden
def test_a_slice_reruns_record_for_record(cache):
    slice_ = ["noughts-and-crosses/4-3-2-1", "hexapawn/flat-1", "connect4:4x4/flat-8"]
    sweep_cache.assert_slice_reruns(cache, scaling.SWEEP, slice_)


def test_every_run_learns_to_stop_losing(cache):
    """Within its budget every run passes 99 % not-losing against the perfect player."""
    for record in cache.records:
        assert record["games_to_99"] is not None, (record["condition"], record["seed"])
        assert record["not_losing"][-1] >= 0.99


def test_checkpoints_are_log_spaced_and_start_untrained():
    points = scaling.checkpoints(10_000)
    assert points[:3] == [0, 1, 2] and points[-1] == 10_000
    ratios = [b / a for a, b in zip(points[5:], points[6:], strict=False)]
    assert all(1.2 < r < 2.0 for r in ratios)


def test_open_growth_cache_names_each_machines_size():
    extras = json.loads((DATA / "beyond_scaling_open.json").read_text())
    assert [r["board"] for r in extras["runs"]] == list(scaling.OPEN_BOARDS)
    for run in extras["runs"]:
        assert run["boxes"] == sorted(run["boxes"]) and run["boxes"][0] == 0
        assert all(0 <= lo <= p <= hi <= 1 for p, lo, hi in run["not_losing"])
    sizes = {s["game"]: s for s in extras["sizes"]}
    assert sizes["connect4:4x4"]["positions"] == game_tables("connect4:4x4").n_positions
    assert sizes["connect4:5x4"]["boxes"] == 721_499
    assert sizes["noughts-and-crosses"]["boxes"] == 287
