"""Sweeps: conditions × seeds, summaries with confidence intervals, files and comparison."""

import pytest

from menace_lib.book.beyond import Sweep, SweepResult, run_sweep, sweeps


def _run_one(condition, seed, options):
    offset = {"a": 0.0, "b": 1.0}[condition]
    return {"score": seed + offset * options["scale"], "maybe": None if seed == 0 else 1.0}


SWEEP = Sweep(
    name="toy",
    conditions=("a", "b"),
    run_one=_run_one,
    metrics=("score", "maybe"),
    baseline="a",
    options={"scale": 2.0},
)


def test_every_condition_runs_on_the_same_seeds_and_is_summarised():
    result = run_sweep(SWEEP, seeds=4, backend="sequential")
    assert [(r["condition"], r["seed"]) for r in result.records][:5] == [
        ("a", 0),
        ("a", 1),
        ("a", 2),
        ("a", 3),
        ("b", 0),
    ]
    assert result.summary["a"]["score"]["mean"] == 1.5
    assert result.summary["a"]["maybe"]["missing"] == 1
    # b - a is exactly the offset on every seed: a zero-width paired interval.
    diff = result.paired["b"]["score"]
    assert diff["mean"] == diff["low"] == diff["high"] == 2.0
    assert result.config["seeds"] == [0, 1, 2, 3]


def test_options_and_conditions_are_checked_by_name():
    with pytest.raises(ValueError, match="unknown option.*'size'"):
        run_sweep(SWEEP, seeds=2, options={"size": 1}, backend="sequential")
    with pytest.raises(ValueError, match="unknown condition.*'c'"):
        run_sweep(SWEEP, seeds=2, conditions=["c"], backend="sequential")
    assert (
        run_sweep(SWEEP, seeds=2, options={"scale": 0.0}, backend="sequential").paired["b"][
            "score"
        ]["mean"]
        == 0.0
    )


def test_results_round_trip_through_json_and_compare_record_by_record(tmp_path):
    result = run_sweep(SWEEP, seeds=3, backend="sequential")
    result.save_json(tmp_path / "r.json")
    back = SweepResult.load_json(tmp_path / "r.json")
    assert back.matches(result) and back.summary == result.summary
    part = run_sweep(SWEEP, seeds=[1], conditions=["b"], backend="sequential")
    assert result.matches(part)
    changed = run_sweep(SWEEP, seeds=[1], options={"scale": 3.0}, backend="sequential")
    assert not result.matches(changed)
    result.save_csv(tmp_path / "r.csv")
    header = (tmp_path / "r.csv").read_text().splitlines()[0]
    assert header.startswith("condition,score,score_low,score_high,score_n")


def test_a_file_that_is_not_a_sweep_is_refused(tmp_path):
    (tmp_path / "x.json").write_text('{"format": "menace_lib.menace"}')
    with pytest.raises(ValueError, match="not a sweep result"):
        SweepResult.load_json(tmp_path / "x.json")


def test_the_package_lists_its_sweeps_by_name():
    assert all(isinstance(s, Sweep) and name == s.name for name, s in sweeps().items())
