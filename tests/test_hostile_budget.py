"""Issue 28, the work budget: a command whose every option is within its limit, but
whose product is absurd, is refused before it starts, saying the estimate."""

import pytest

from menace_lib.base.limits import (
    EXACT_EVALUATION_WORK,
    HUGE_OPTION,
    MAX_WORK,
    WorkBudgetError,
    check_work,
)
from menace_lib.book.beyond import get_sweep
from menace_lib.cli import main

ABSURD = [
    ["experiment", "thesis", "--seeds", "10000", "--games", "1", "--validation-games", "10000000"],
    ["tune-priors", "--seeds", "10000", "--evaluations", "10000", "--games", "10000000"],
    ["train", "menace", "--games", "10000000", "--curve", "1", "--output", "{out}"],
    ["train", "hybrid", "--games", "10000000", "--curve", "3", "--output", "{out}"],
    ["experiment", "priors", "--seeds", "10000", "--games", "100000"],
    ["experiment", "opponent-model", "--set", "every=1", "--set", "games=10000000"],
]


@pytest.mark.parametrize("argv", ABSURD)
def test_absurd_products_are_refused_with_the_estimate(tmp_path, capsys, argv):
    out = tmp_path / "out.json"
    assert main([a.replace("{out}", str(out)) for a in argv]) == 2
    err = capsys.readouterr().err
    assert err.count("\n") == 1
    assert "estimated work" in err and f"{MAX_WORK:,}" in err and HUGE_OPTION in err
    assert not out.exists()


def test_the_override_lets_a_huge_run_start(tmp_path, monkeypatch, capsys):
    import menace_lib.base.limits as limits

    monkeypatch.setattr(limits, "MAX_WORK", 100)  # a tiny budget stands in for a huge run
    out = tmp_path / "a.json"
    argv = ["train", "menace", "--games", "20", "--curve", "10", "--output", str(out)]
    assert main(argv) == 2
    assert "estimated work 920 game-equivalents" in capsys.readouterr().err
    assert main([*argv, HUGE_OPTION]) == 0 and out.exists()


def test_published_runs_are_well_within_the_budget():
    priors = get_sweep("priors")
    resolved, chosen = priors.resolve(None)
    games, evaluations = priors.work(resolved, len(chosen) * 30)
    assert check_work("priors", games, evaluations) < MAX_WORK / 20
    tuning_games, tuning_evaluations = priors.work(resolved, 2 * 40 * 30)  # tune-priors default
    assert check_work("tune-priors", tuning_games, tuning_evaluations) < MAX_WORK / 20


def test_check_work_counts_an_exact_evaluation_as_many_games():
    assert check_work("x", 5, 2) == 5 + 2 * EXACT_EVALUATION_WORK
    with pytest.raises(WorkBudgetError, match=r"x: estimated work 1,000,000,100"):
        check_work("x", MAX_WORK, 1)
    assert check_work("x", MAX_WORK, 1, allow_huge=True) == MAX_WORK + EXACT_EVALUATION_WORK
