"""Part V's speed-against-robustness curve of initial beads, the tuner's edge report,
and the fair λ comparison's tuner."""

from __future__ import annotations

from pathlib import Path

import pytest

import menace_lib as ml
from menace_lib.book.beyond import lambda_tuning, priors_curve
from menace_lib.book.beyond.priors_tuning import at_bounds, bound_verdict

DATA = Path(__file__).resolve().parents[1] / "book" / "data"


def test_a_run_measures_speed_and_robustness():
    record = priors_curve.run_one("perfect/2^-12", 3, {**priors_curve.SWEEP.options, "games": 30})
    for key in ("area", "final_draw_uniform", "final_noloss_random", "final_noloss_defensive"):
        assert 0.0 <= record[key] <= 1.0
    assert record["beads"] == 2.0**-12
    assert 1 <= record["boxes_visited"] <= 287
    with pytest.raises(ValueError, match="unknown priors-curve condition 'perfect/2\\^-99'"):
        priors_curve.run_one("perfect/2^-99", 0, priors_curve.SWEEP.options)


def _rows(means: list[float]) -> list[dict]:
    rows = [
        {"level": f"2^{e}", "area": {"mean": m}} for e, m in zip((-6, -3, 0), means, strict=True)
    ]
    return [*rows, {"level": priors_curve.BASELINE, "area": {"mean": 0.0}}]


def test_the_best_level_says_when_it_is_at_the_edge():
    assert priors_curve.best_level(_rows([0.9, 0.8, 0.7]), "area")["at_edge"] is True
    inner = priors_curve.best_level(_rows([0.7, 0.9, 0.8]), "area")
    assert (inner["level"], inner["at_edge"]) == ("2^-3", False)


def test_the_tuner_calls_a_schedule_at_its_bound_no_optimum():
    assert at_bounds([0.125, 0.5, 32.0, 1.0]) == [
        "move 1 at the lower bound 0.125",
        "move 3 at the upper bound 32",
    ]
    assert bound_verdict([]).startswith("an interior optimum")
    assert bound_verdict(at_bounds([0.125] * 4)).startswith("no optimum")


def test_the_lambda_tuner_flags_an_edge_and_keeps_seeds_apart():
    assert lambda_tuning._edges("fixed", {"lam": 0.0}) == ["lam=0 (lowest)"]
    assert lambda_tuning._edges("decay", {"lam": 1.0, "lambda_tau": 50.0}) == []
    with pytest.raises(ValueError, match="overlap"):
        lambda_tuning.tune_and_compare(tuning_seeds=(0, 1), held_out=(1, 2))
    assert lambda_tuning.config_of("decay", {"lam": 2.0, "lambda_tau": 10.0}).lambda_tau == 10.0


@pytest.mark.parametrize("name", ["beyond_priors_curve.json", "beyond_priors_brittleness.json"])
def test_the_cached_curve_reruns_record_for_record(name):
    stored = ml.SweepResult.load_json(DATA / name)
    opts = stored.config["options"]
    for record in stored.records[:: max(1, len(stored.records) // 2)][:2]:
        fresh = priors_curve.run_one(record["condition"], record["seed"], dict(opts))
        mine = {k: v for k, v in record.items() if k not in ("condition", "seed")}
        assert ml.same_numbers(fresh, mine), record["condition"]


def test_the_cached_lambda_comparison_reruns():
    import json

    doc = json.loads((DATA / "beyond_lambda_tuning.json").read_text(encoding="utf-8"))
    cell = doc["cells"]["hybrid/optimal"]["decay"]
    seed = doc["held_out"][0]
    fresh = lambda_tuning.run_setting(
        "hybrid", "decay", dict(cell["best"]), "optimal", seed, dict(doc["options"])
    )
    assert ml.same_numbers(fresh["auc"], cell["held_out"]["auc_per_seed"][0])
    assert not set(doc["tuning_seeds"]) & set(doc["held_out"])
