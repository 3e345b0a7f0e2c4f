"""The priors sweep (thesis §11.6.1): schedules, runs, the tuner and the book's cache."""

from __future__ import annotations

import json
import math
from pathlib import Path

import numpy as np
import pytest

from menace_lib.book.beyond import priors, sweeps
from menace_lib.book.beyond.priors_tuning import (
    BOUNDS,
    TUNING_SEEDS,
    objective,
    protocol_options,
    tune_schedule,
)
from menace_lib.cli import main
from menace_lib.experiments.sweep import SweepResult, run_sweep
from menace_lib.machine.menace import Menace, MenaceConfig
from menace_lib.play.opponents import make_opponent
from menace_lib.play.training import train

CACHE = Path(__file__).resolve().parents[1] / "book" / "data" / "beyond_priors.json"
TINY = {"games": 30, "every": 10}


@pytest.fixture(scope="module")
def cache() -> SweepResult:
    return SweepResult.load_json(CACHE)


# --- the book's cache ------------------------------------------------------------------


@pytest.mark.golden
def test_cache_matches_a_rerun_record_for_record(cache):
    """Two conditions × two seeds rerun with the cache's options: a stale cache fails."""
    options = cache.config["options"]
    rerun = run_sweep(
        priors.PRIORS,
        seeds=[0, 1],
        options=options,
        conditions=["mixed/4-3-2-1", "perfect/tuned"],
        backend="sequential",
    )
    assert len(rerun.records) == 4
    assert cache.matches(rerun)


def test_cache_is_the_published_sweep(cache):
    assert sweeps()["priors"] is priors.PRIORS
    assert cache.config["conditions"] == list(priors.CONDITIONS)
    assert len(cache.config["seeds"]) >= 30
    assert len(cache.records) == len(priors.CONDITIONS) * len(cache.config["seeds"])
    # The cache ran the library's current defaults, tuned schedules included.
    assert cache.config["options"] == json.loads(json.dumps(priors.OPTIONS))


def test_tuned_schedules_are_held_out_from_the_reported_seeds(cache):
    record = priors.tuned_record()
    assert record is not None
    assert not set(record["tuning_seeds"]) & set(cache.config["seeds"])
    for regimen, tuned in record["regimens"].items():
        best = max(tuned["evaluations"], key=lambda e: e["value"])
        assert tuned["schedule"] == best["schedule"] and tuned["value"] == best["value"]
        assert cache.record(f"{regimen}/tuned", 0)["schedule"] == tuned["schedule"]


# --- schedules from the game tables ----------------------------------------------------


def test_branching_schedule_follows_the_legal_moves_with_michies_total():
    schedule = priors.branching_schedule()
    # X's k-th move (k = 0..3) is made with 2k pieces down: 9 - 2k legal squares.
    ratios = [b / schedule[0] for b in schedule]
    assert ratios == pytest.approx([9 / 9, 7 / 9, 5 / 9, 3 / 9])
    michie = Menace(MenaceConfig()).total_beads()
    assert Menace(MenaceConfig(schedule=schedule)).total_beads() == pytest.approx(michie)


def test_subtree_schedule_reads_the_game_tree():
    profile = priors.move_profile()
    assert [row["boxes"] for row in profile] == [1, 12, 108, 166]  # Michie's 287 boxes
    assert profile[0]["log_games"] == pytest.approx(math.log(255_168))  # every game
    schedule = priors.subtree_schedule()
    assert all(a > b for a, b in zip(schedule, schedule[1:], strict=False))
    michie = Menace(MenaceConfig()).total_beads()
    assert Menace(MenaceConfig(schedule=schedule)).total_beads() == pytest.approx(michie)


def test_proportional_schedule_refuses_bad_weights():
    with pytest.raises(ValueError, match="4 positive numbers"):
        priors.proportional_schedule([1, 2, 3])
    with pytest.raises(ValueError, match="4 positive numbers"):
        priors.proportional_schedule([1, 0, 1, 1])


def test_unknown_names_are_refused():
    with pytest.raises(ValueError, match="unknown priors condition 'mixed/5-4-3-2'"):
        priors.run_one("mixed/5-4-3-2", 0, priors.OPTIONS)
    with pytest.raises(ValueError, match="no tuned schedule"):
        priors.schedule_for("tuned", "mixed", {**priors.OPTIONS, "tuned": None})


# --- one run ----------------------------------------------------------------------------


@pytest.mark.parametrize(("restock", "empty_box"), [("box", "resign"), ("none", "resign")])
def test_replay_reproduces_the_fast_loop_beads(restock, empty_box):
    config = MenaceConfig(schedule=(1,), restock=restock, empty_box=empty_box)
    agent = Menace(config)
    replay = agent.copy()
    log = train(agent, "optimal", 300, np.random.default_rng(3))
    empties = priors.replay_beads(replay, log)
    assert replay.weights == agent.weights
    if restock == "none":  # an emptied box stays empty
        assert empties == sum(sum(w) <= 0 for w in agent.weights)


def test_few_beads_empty_boxes_and_many_do_not():
    few = priors.run_schedule((1,), "perfect", 3, {**priors.OPTIONS, "games": 300})
    many = priors.run_schedule((50,), "perfect", 3, {**priors.OPTIONS, "games": 300})
    assert few["box_empties"] > 0 and few["emptied"] == 1
    assert many["box_empties"] == 0 and many["emptied"] == 0


def test_run_measures_the_curve_it_stores():
    record = priors.run_schedule((4, 3, 2, 1), "perfect", 0, {**priors.OPTIONS, **TINY})
    assert len(record["curve"]) == 3  # marks 10, 20, 30
    assert record["final_draw"] == pytest.approx(record["curve"][-1], abs=1e-6)
    untrained = Menace(MenaceConfig())
    from menace_lib.play.evaluation import exact_outcome

    assert record["draw_start"] == exact_outcome(untrained, make_opponent("perfect"))["draw"]
    first = next((g for g, v in zip((10, 20, 30), record["curve"], strict=True) if v >= 0.9), None)
    assert record["games_to_threshold"] == first
    assert record["reached"] == int(first is not None)
    assert 0 <= record["area"] <= 1


# --- the optimiser's objective on a tiny budget ---------------------------------------


def test_objective_is_the_mean_area_of_the_sweeps_runs():
    options = protocol_options(TINY)
    seeds = [1000, 1001]
    value = objective((2, 2, 1, 1), "perfect", seeds, options)
    runs = [priors.run_schedule((2, 2, 1, 1), "perfect", s, options) for s in seeds]
    assert value == pytest.approx(np.mean([r["area"] for r in runs]), rel=1e-12)


def test_tuner_keeps_the_best_schedule_it_evaluated():
    result = tune_schedule("perfect", seeds=[1000, 1001], options=TINY, max_evaluations=5)
    values = [e["value"] for e in result["evaluations"]]
    starts = len(priors.SCHEDULES) + 1  # named schedules but the tuned one, 2 at the bounds
    assert starts + 2 <= len(values) <= starts + 6  # Nelder-Mead may overrun by a step
    assert result["value"] == max(values)
    # The search starts from the best candidate; Michie's is among them.
    assert result["start_value"] == max(values[:starts])
    first = result["evaluations"][values.index(result["start_value"])]
    assert result["start"] == first["schedule"]
    assert result["baseline_value"] == pytest.approx(
        objective((4, 3, 2, 1), "perfect", [1000, 1001], protocol_options(TINY))
    )
    for e in result["evaluations"]:
        assert all(BOUNDS[0] <= b <= BOUNDS[1] for b in e["schedule"])
    # The stored schedule reproduces its stored value.
    again = objective(result["schedule"], "perfect", [1000, 1001], protocol_options(TINY))
    assert again == result["value"]


def test_tuner_refuses_bad_input():
    with pytest.raises(ValueError, match="unknown regimen 'random'"):
        tune_schedule("random")
    with pytest.raises(ValueError, match="max_evaluations"):
        tune_schedule("mixed", max_evaluations=1)
    with pytest.raises(ValueError, match=r"unknown tuning option\(s\) \['tuned'\]"):
        protocol_options({"tuned": {}})


def test_tune_priors_command_writes_its_result(tmp_path, capsys):
    out = tmp_path / "tuned.json"
    argv = ["tune-priors", "--regimen", "perfect", "--seeds", "2", "--evaluations", "2"]
    argv += ["--games", "10", "--backend", "sequential", "--json", str(out)]
    assert main(argv) == 0
    doc = json.loads(out.read_text())
    assert doc["tuning_seeds"] == [TUNING_SEEDS[0], TUNING_SEEDS[0] + 1]
    assert doc["games"] == 10 and list(doc["regimens"]) == ["perfect"]
    assert "perfect" in capsys.readouterr().out


def test_paired_differences_are_taken_within_each_regimen(cache):
    paired = priors.paired_by_regimen(cache)
    assert "mixed/4-3-2-1" not in paired and "perfect/4-3-2-1" not in paired
    for regimen in priors.REGIMENS:
        cond = f"{regimen}/flat-1"
        diffs = [
            cache.record(cond, s)["area"] - cache.record(f"{regimen}/4-3-2-1", s)["area"]
            for s in cache.config["seeds"]
        ]
        assert paired[cond]["area"]["mean"] == pytest.approx(np.mean(diffs))
        assert paired[cond]["area"]["n"] == len(cache.config["seeds"])
    counts = priors.reach_counts(cache)
    hits = sum(cache.record("perfect/flat-4", s)["reached"] for s in cache.config["seeds"])
    assert counts["perfect/flat-4"]["rate"] * counts["perfect/flat-4"]["n"] == pytest.approx(hits)
