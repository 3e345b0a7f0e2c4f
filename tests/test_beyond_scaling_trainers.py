"""Whom a Connect-4 MENACE trains against (beyond/scaling_trainers.py) and its cache."""

from __future__ import annotations

from pathlib import Path

import pytest

from menace_lib.book.beyond import run_sweep, scaling_trainers
from menace_lib.experiments.sweep import SweepResult

DATA = Path(__file__).resolve().parents[1] / "book" / "data"


@pytest.fixture(scope="module")
def cache() -> SweepResult:
    return SweepResult.load_json(DATA / "beyond_scaling_trainers.json")


def test_the_curriculum_is_the_theses_split_with_the_human_like_player():
    assert scaling_trainers.blocks("mixed", 500) == [
        ("random", 200),
        ("human-like", 100),
        ("perfect", 200),
    ]
    assert scaling_trainers.blocks("random", 7) == [("random", 7)]
    with pytest.raises(ValueError, match="unknown trainer 'defensive'"):
        scaling_trainers.blocks("defensive", 10)


def test_cache_is_the_published_sweep(cache):
    assert cache.config["conditions"] == list(scaling_trainers.CONDITIONS)
    assert cache.config["options"] == dict(scaling_trainers.SWEEP.options)
    assert len(cache.records) == len(scaling_trainers.CONDITIONS) * len(cache.config["seeds"])
    for record in cache.records:
        assert record["games"][0] == 0 and record["games"][-1] == 100_000
        rates = record["not_losing_vs_perfect"] + record["winning_vs_random"]
        assert all(0 <= r <= 1 for r in rates)


@pytest.mark.golden
def test_a_4x4_slice_reruns_record_for_record(cache):
    again = run_sweep(
        scaling_trainers.SWEEP,
        [cache.config["seeds"][0]],
        options=cache.config["options"],
        conditions=["connect4:4x4/mixed"],
        backend="sequential",
    )
    assert cache.matches(again)


def test_each_trainer_teaches_what_it_plays(cache):
    """The chapter's finding: only the perfect trainer teaches the machine not to lose to
    the perfect player, and it teaches it least about beating a random one."""
    summary = cache.summary
    for board in scaling_trainers.BOARDS:
        safe = {t: summary[f"{board}/{t}"]["final_not_losing"] for t in scaling_trainers.TRAINERS}
        wins = {
            t: summary[f"{board}/{t}"]["final_winning_vs_random"] for t in scaling_trainers.TRAINERS
        }
        assert safe["perfect"]["low"] > safe["mixed"]["high"] > safe["random"]["low"]
        assert wins["random"]["low"] > wins["perfect"]["high"]
