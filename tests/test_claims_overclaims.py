"""The ledger's last overclaims, checked: kinds that are not empirical reproductions, one run
counted once, Connect-4 4×4 over fresh seeds (a slice re-run), the 7×6 extrapolation as a
range, the λ schedules narrowed to what was tuned, and curiosity against a switching opponent."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from menace_lib.base.reproducibility import assert_same_numbers
from menace_lib.book.beyond import opponent_curious, scaling
from menace_lib.book.claims import CLAIMS, Evidence, build_ledger
from menace_lib.book.claims import cache as claims_cache
from menace_lib.book.claims.ledger import (
    AtMost,
    Claim,
    Holds,
    Link,
    Measured,
    WithinFactor,
    counts,
    evaluate,
)
from menace_lib.book.claims.measures import SWEEP_MARK, stress_summary
from menace_lib.book.claims.stress import BOARD, SCHEDULE, STRESS_SEEDS, first_reach
from menace_lib.experiments.sweep import SweepResult
from menace_lib.experiments.verdicts import AGREEING, HOLDING, committed

ROOT = Path(__file__).resolve().parents[1]
DATA = ROOT / "book" / "data"
LEDGER = committed(DATA)
BY_ID = {c.id: c for c in CLAIMS}


def _claim(kind: str, criterion, cid: str = "9.9-x", **kw) -> Claim:
    def nothing(ev):
        return None

    return Claim(cid, "9.9", "a claim", "~30", nothing, criterion, Link("claims"), kind=kind, **kw)


def _with(claim: Claim, value):
    """``claim`` measured as ``value``, evaluated."""

    def measure(ev) -> Measured:
        return Measured(value, str(value))

    return evaluate(Claim(**{**claim.__dict__, "measure": measure}), None)


def _judge(claim: Claim, value) -> str:
    return _with(claim, value).verdict


# --- kinds and verdicts -------------------------------------------------------------------


def test_a_timing_is_consistent_within_a_factor_and_faster_below_it():
    claim = _claim("timing", WithinFactor(1800.0, 3.0))
    assert _judge(claim, 1800 / 2.9) == "consistent"
    assert _judge(claim, 1800 * 2.9) == "consistent"
    assert _judge(claim, 138.0) == "faster"  # the λ sweep against "about 30 min"
    # Slower than the factor is a difference the book must explain.
    assert _judge(claim, 1800 * 3.1) == "unexplained"
    assert _judge(_claim("timing", AtMost(100.0)), 17.5) == "consistent"
    with pytest.raises(ValueError, match="factor ≥ 1"):
        WithinFactor(1.0, 0.5)


def test_an_answer_to_an_open_question_is_new_and_agrees_with_nothing():
    assert _judge(_claim("answer", Holds("it holds")), True) == "new"
    assert "new" in HOLDING and "new" not in AGREEING


def test_the_relabelled_claims_say_what_they_are():
    verdicts = {cid: LEDGER[cid]["verdict"] for cid in LEDGER}
    assert verdicts["9.6-p-value"] == "by construction"  # two identical models: p = 1
    assert verdicts["11.6.2-stress-test"] == "new"
    assert verdicts["11.6.2-extrapolation"] == "new"
    assert verdicts["11.6.4-adaptive-lambda"] == "new"
    assert verdicts["8.8-suite"] == verdicts["8.8-memory"] == "consistent"
    assert verdicts["8.8-sweep"] == verdicts["8.8-train-500"] == "faster"
    assert not any(BY_ID[c].kind == "empirical" for c in ("8.8-sweep", "8.8-suite", "9.6-p-value"))
    # Outside counts are a reference, not the thesis's value.
    small = BY_ID["11.6.2-small-boards"]
    assert "161,029" not in small.thesis and "161,029" in small.reference
    assert LEDGER["11.6.2-small-boards"]["reference"] == small.reference


def test_one_run_printed_in_three_tables_counts_once():
    repeats = {c.id: c.repeats for c in CLAIMS if c.repeats}
    assert repeats == {
        "9.3-menace-michie-filter": "9.1-menace-restock-box",
        "9.4-menace-box-restock": "9.1-menace-restock-box",
    }
    # They are one run: the same numbers.
    assert len({LEDGER[c]["ours"] for c in (*repeats, "9.1-menace-restock-box")}) == 1
    doc = json.loads((DATA / "claims.json").read_text(encoding="utf-8"))
    c = doc["counts"]
    assert c["distinct reproductions"] == c["reproduced"] - 2


def test_distinct_reproductions_need_the_repeated_claim_reproduced():
    base = _claim("empirical", Holds("x"), "9.9-a")
    twin = _claim("empirical", Holds("x"), "9.9-b", repeats="9.9-a")
    e = [_with(base, True), _with(twin, True)]
    assert counts(e)["reproduced"] == 2 and counts(e)["distinct reproductions"] == 1
    e[0] = _with(base, False)
    assert counts(e)["distinct reproductions"] == 1  # the twin is then the only one


# --- Connect-4 4×4 over fresh seeds --------------------------------------------------------


@pytest.fixture(scope="module")
def stress() -> dict:
    return claims_cache.load("stress", DATA)


def test_the_stress_seeds_are_fresh_and_many(stress):
    sweep = SweepResult.load_json(DATA / "beyond_scaling.json")
    assert len(stress["runs"]) >= 32
    assert not {r["seed"] for r in stress["runs"]} & set(sweep.config["seeds"])
    assert [r["seed"] for r in stress["runs"]] == list(STRESS_SEEDS)
    assert SWEEP_MARK in stress["games"]  # "by 18,196" is read at the sweep's own checkpoint


def test_a_slice_of_the_stress_cache_reruns_identically(stress):
    marks = [g for g in stress["games"] if g <= 1_500]
    run = stress["runs"][0]
    fresh = scaling.exact_curve(BOARD, SCHEDULE, run["seed"], marks)
    assert_same_numbers(fresh, run["not_losing"][: len(marks)])


def test_the_stress_summary_reads_the_distribution():
    games = [0, 100, 200, 300, 400]
    doc = {
        "games": games,
        "runs": [
            {"seed": 1, "games_to_99": 100, "not_losing": [0, 1, 1, 1, 1]},
            {"seed": 2, "games_to_99": 200, "not_losing": [0, 0, 1, 1, 1]},
            {"seed": 3, "games_to_99": 300, "not_losing": [0, 0, 0, 1, 1]},
            {"seed": 4, "games_to_99": None, "not_losing": [0, 0, 0, 0, 0]},
        ],
    }
    s = stress_summary(doc)
    assert (s["seeds"], s["reached"], s["median"]) == (4, 3, 200.0)
    assert s["by_mark"] == 3  # every reached seed crossed by 18,196
    assert first_reach(games, [0, 0.5, 0.99, 0.98, 1.0]) == 200
    assert first_reach(games, [0, 0, 0, 0, 0]) is None


def test_the_ledger_states_the_distribution(stress):
    s = stress_summary(stress)
    ours = LEDGER["11.6.2-stress-test"]["ours"]
    assert f"median {s['median']:,.0f} games" in ours
    assert f"{s['by_mark']} of {s['seeds']} seeds by 18,196 games" in ours
    hits = sorted(r["games_to_99"] for r in stress["runs"])
    assert s["median"] == hits[(len(hits) - 1) // 2]


# --- the 7×6 extrapolation ------------------------------------------------------------------


def test_the_extrapolation_is_a_range_from_the_two_5x4_checkpoints():
    sweep = SweepResult.load_json(DATA / "beyond_scaling.json")
    sizes = json.loads((DATA / "beyond_scaling_open.json").read_text(encoding="utf-8"))["sizes"]
    x = scaling.extrapolate(sweep.records, sizes)
    # The re-derivation: 46,312 gives 1.2e8 games and 236 years, 73,884 3.9e8 and 738.
    assert (x["low"]["largest_games"], x["high"]["largest_games"]) == (46_312, 73_884)
    assert round(x["low"]["games"], -7) == 1.2e8 and round(x["low"]["years"]) == 236
    assert round(x["high"]["games"], -7) == 3.9e8 and round(x["high"]["years"]) == 738
    assert "236 to 738 years" in LEDGER["11.6.2-extrapolation"]["ours"]


# --- λ schedules and curiosity ------------------------------------------------------------


def test_the_lambda_schedule_claim_names_what_was_tuned_and_its_edges():
    entry = LEDGER["11.6.4-adaptive-lambda"]
    assert "Hybrid agent against the perfect player only" in entry["note"]
    assert "grids of 5, 9, 9 settings" in entry["note"] and "4 seeds" in entry["note"]
    assert "edge of its grid" in entry["ours"] and "not an optimum" in entry["ours"]


def test_a_slice_of_the_curious_sweep_reruns_identically():
    cached = SweepResult.load_json(DATA / "beyond_opponent_curious.json")
    record = next(
        r for r in cached.records if r["condition"] == "curious-0.5/switching" and r["seed"] == 0
    )
    fresh = opponent_curious.run_one("curious-0.5/switching", 0, cached.config["options"])
    assert_same_numbers(fresh, {k: record[k] for k in fresh})


def test_the_curious_sweep_refuses_an_unknown_condition():
    with pytest.raises(ValueError, match="unknown condition 'curious-0.5/perfect'"):
        opponent_curious.run_one("curious-0.5/perfect", 0, opponent_curious.SWEEP.options)


def test_the_fresh_ledger_gives_the_same_entries_for_these_claims():
    ids = [
        "9.6-p-value", "8.8-sweep", "11.6.2-small-boards", "11.6.2-stress-test",
        "11.6.2-extrapolation", "11.6.4-adaptive-lambda",
    ]  # fmt: skip
    for e in build_ledger(Evidence(DATA), [BY_ID[i] for i in ids]):
        assert e.summary() == {k: v for k, v in LEDGER[e.claim.id].items()}, e.claim.id


def test_the_command_line_regenerates_every_cache():
    from menace_lib.cli.claims import CACHE_NAMES

    assert sorted(CACHE_NAMES) == sorted(claims_cache.CACHES)
    assert "stress" in CACHE_NAMES


def test_the_schemas_know_every_kind_and_verdict():
    from menace_lib.experiments.verdicts import KINDS, VERDICTS

    schemas = ROOT / "menace_lib" / "schemas"
    cli = json.loads((schemas / "cli" / "claims.schema.json").read_text(encoding="utf-8"))
    item = cli["properties"]["claims"]["items"]["properties"]
    assert item["verdict"]["enum"] == list(VERDICTS)
    assert item["kind"]["enum"] == list(KINDS)
    catalogue = json.loads(
        (schemas / "menace_lib.claims.v1.schema.json").read_text(encoding="utf-8")
    )
    assert catalogue["$defs"]["record"]["properties"]["kind"]["enum"] == list(KINDS)
