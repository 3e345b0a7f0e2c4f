"""The opponent-model sweep: a slice rerun against the book's cache, and its records."""

from __future__ import annotations

from pathlib import Path

import pytest

from menace_lib.book.beyond import get_sweep, run_sweep
from menace_lib.book.beyond.opponent_model import (
    AGENTS,
    OPPONENTS,
    SWEEP,
    condition,
    curve_marks_of,
    key_numbers,
    paired_differences,
    run_one,
    split_condition,
    summary_rows,
)
from menace_lib.experiments.sweep import SweepResult

CACHE = Path(__file__).resolve().parent.parent / "book" / "data" / "beyond_opponent_model.json"
SLICE = ("learned/switching", "forgetful/switching")  # both learners, across the switch


@pytest.fixture(scope="module")
def cached() -> SweepResult:
    return SweepResult.load_json(CACHE)


def test_the_cache_is_the_published_sweep(cached):
    assert cached.name == "opponent-model" and get_sweep("opponent-model") is SWEEP
    assert cached.config["conditions"] == list(SWEEP.conditions)
    assert cached.config["options"] == dict(SWEEP.options)
    assert len(cached.config["seeds"]) >= 30
    assert len(cached.records) == len(SWEEP.conditions) * len(cached.config["seeds"])


@pytest.mark.golden
def test_a_slice_rerun_matches_the_cache_record_for_record(cached):
    seeds = cached.config["seeds"][:2]
    fresh = run_sweep(
        SWEEP, seeds, cached.config["options"], conditions=SLICE, backend="sequential"
    )
    assert len(fresh.records) == 4
    assert cached.matches(fresh)


def test_every_condition_pairs_an_agent_with_an_opponent():
    assert len(SWEEP.conditions) == len(AGENTS) * len(OPPONENTS)
    for key in SWEEP.conditions:
        agent, opponent = split_condition(key)
        assert condition(agent, opponent) == key
    for bad in ("learned", "learned/nobody", "nobody/perfect", "learned/perfect/x"):
        with pytest.raises(ValueError, match="unknown condition"):
            split_condition(bad)


def test_records_are_consistent(cached):
    marks = curve_marks_of(cached)
    threshold = cached.config["options"]["threshold"]
    switch = cached.config["options"]["games"] // 2
    for r in cached.records:
        _, opponent = split_condition(r["condition"])
        assert r["final_win"] + r["final_draw"] + r["final_loss"] == pytest.approx(1.0)
        assert r["final_score"] == pytest.approx(r["final_win"] + r["final_draw"] / 2)
        assert len(r["curve_draw_perfect"]) == len(r["curve_score"]) == len(marks)
        reached = [g for g, v in zip(marks, r["curve_draw_perfect"], strict=True) if v >= threshold]
        # Curves are stored to 6 decimals; allow a value that rounded onto the threshold.
        if r["games_to_90"] is not None:
            assert r["games_to_90"] in marks
        else:
            assert all(v < threshold + 1e-6 for v in r["curve_draw_perfect"])
        if opponent == "switching":
            assert r["switch_draw_perfect"] is not None
            if r["recovery_games"] is not None:
                assert r["recovery_games"] + switch in marks
                assert r["recovery_games"] + switch >= min((g for g in reached), default=0)
        else:
            assert r["recovery_games"] is None and r["switch_draw_perfect"] is None


def test_a_run_depends_on_its_seed_alone():
    options = {**SWEEP.options, "games": 200, "every": 50}
    a = run_one("forgetful/switching", 3, options)
    assert a == run_one("forgetful/switching", 3, options)
    assert a != run_one("forgetful/switching", 4, options)


def test_the_switch_must_fall_on_a_mark():
    with pytest.raises(ValueError, match="switch"):
        run_one("learned/switching", 0, {**SWEEP.options, "games": 300, "every": 100})


def test_read_outs(cached):
    numbers = key_numbers(cached)
    for learner in ("learned", "forgetful"):
        gap = numbers[f"{learner}/perfect/gap"]
        assert gap["n"] == len(cached.config["seeds"])
    diffs = paired_differences(cached, "final_draw_perfect")
    assert set(diffs) == set(OPPONENTS)
    rows = summary_rows(cached, ["final_score", "recovery_games"], ["switching"])
    assert len(rows) == len(AGENTS) and all(r["opponent"] == "switching" for r in rows)
