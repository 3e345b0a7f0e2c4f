"""``train KIND`` for every agent kind, ``evaluate`` of every kind, and ``--curve``."""

import csv
import json

import pytest

from menace_lib.agents.registry import agent_kinds, load_agent
from menace_lib.cli import build_parser, main

ALL_KINDS = sorted(agent_kinds())


def run(capsys, *argv: str) -> tuple[int, str, str]:
    code = main([str(a) for a in argv])
    out, err = capsys.readouterr()
    return code, out, err


def train(capsys, tmp_path, kind: str, *extra: str, games: int = 12) -> tuple[int, str, str]:
    out = tmp_path / f"{kind}.json"
    return run(capsys, "train", kind, "--games", games, "--output", out, *extra)


@pytest.mark.parametrize("kind", ALL_KINDS)
def test_every_kind_trains_saves_loads_and_evaluates(kind, tmp_path, capsys):
    code, out, err = train(capsys, tmp_path, kind, "--json")
    assert code == 0, err
    summary = json.loads(out)
    assert summary["kind"] == kind and summary["games"] == 12
    path = tmp_path / f"{kind}.json"
    agent = load_agent(path)
    assert agent.games_trained == 12
    assert agent.to_dict() == json.loads(path.read_text())  # the file round-trips
    code, out, err = run(capsys, "evaluate", path, "--json")
    assert code == 0, err
    exact = json.loads(out)
    assert sum(exact.values()) == pytest.approx(1.0)
    code, out, err = run(capsys, "evaluate", path, "--games", 20, "--opponent", "random", "--json")
    assert code == 0, err
    assert sum(json.loads(out).values()) == pytest.approx(1.0)


@pytest.mark.parametrize(
    ("argv", "expected"),
    [
        (
            ["hybrid", "--lam", "0.7", "--beta-amb", "0.1", "--prefs", "0.5,0.4,0.1"],
            {"lam": 0.7, "beta_amb": 0.1, "prefs": [0.5, 0.4, 0.1]},
        ),
        (
            ["oracle", "--opponent-model", "minimax", "--no-lazy", "--lambda-policy", "0.5"],
            {"opponent_model": "minimax", "lazy": False, "lambda_policy": 0.5},
        ),
        (
            ["pure", "--lam", "0.25", "--bead-scale", "10", "--player", "O"],
            {"lam": 0.25, "bead_scale": 10.0, "player": "O"},
        ),
        (
            ["instrumental", "--opponent-alpha", "2", "--policy-prior", "menace"],
            {"opponent_alpha": 2.0, "policy_prior": "menace", "lam": 0.0},
        ),
        (
            ["hybrid", "--lambda-schedule", "decay", "--lambda-tau", "50"],
            {"lambda_schedule": "decay", "lambda_tau": 50.0},
        ),
        (
            ["pure", "--lambda-schedule", "concentration", "--lambda-kappa", "2"],
            {"lambda_schedule": "concentration", "lambda_kappa": 2.0},
        ),
        (
            ["qlearning", "--alpha", "0.3", "--gamma", "0.9", "--epsilon", "0.2"],
            {"learning_rate": 0.3, "discount": 0.9, "epsilon": 0.2},
        ),
        (
            ["sarsa", "--learning-rate", "0.1", "--min-epsilon", "0.05", "--greedy-validation"],
            {"learning_rate": 0.1, "min_epsilon": 0.05, "greedy_validation": True},
        ),
        (
            ["menace", "--restock", "none", "--empty-box", "stop", "--schedule", "2,2,2,2"],
            {"restock": "none", "empty_box": "stop", "schedule": [2.0, 2.0, 2.0, 2.0]},
        ),
        (
            ["menace", "--restock", "move", "--move-restock-beads", "1", "--layout", "class"],
            {"move_restock_beads": 1.0, "layout": "class"},
        ),
        (
            ["unsymmetrised", "--schedule", "5", "--reward", "2,1,-1", "--player", "O"],
            {"schedule": [5.0], "reinforcement": [2.0, 1.0, -1.0], "player": "O"},
        ),
        (
            ["selfplay", "--layout", "square", "--player", "O", "--pool-size", "2"],
            {"layout": "square", "player": "O"},
        ),
    ],
)
def test_options_reach_the_saved_config(argv, expected, tmp_path, capsys):
    kind, *extra = argv
    code, _, err = train(capsys, tmp_path, kind, *extra, games=6)
    assert code == 0, err
    config = json.loads((tmp_path / f"{kind}.json").read_text())["config"]
    for key, value in expected.items():
        assert config[key] == value, key


@pytest.mark.parametrize(
    ("argv", "named"),
    [
        (["hybrid", "--lam", "-1"], "-1"),
        (["hybrid", "--lam", "0"], "lam"),
        (["pure", "--lambda-policy", "0"], "lambda_policy"),
        (["oracle", "--prefs", "nan,1,1"], "nan"),
        (["oracle", "--prefs", "1,1"], "prefs"),
        (["instrumental", "--opponent-alpha", "-2"], "-2"),
        (["qlearning", "--alpha", "2"], "2"),
        (["sarsa", "--epsilon", "1.5"], "1.5"),
        (["menace", "--schedule", "1e13"], "schedule"),
        (["menace", "--reward", "3,1"], "(3.0, 1.0)"),
        (["menace", "--schedule", "4,a"], "4,a"),
        (["menace", "--floor", "nan"], "floor"),
        (["unsymmetrised", "--reward", "3,1"], "(3.0, 1.0)"),
        (["selfplay", "--pool-size", "0"], "0"),
        (["selfplay", "--pool-size", "1001"], "1001"),
        (["selfplay", "--epsilon", "1.5"], "1.5"),
        (["menace", "--empty-box", "stop"], "--restock none"),
        (["selfplay", "--move-restock-beads", "2"], "--restock move"),
        (["menace", "--regimen", "random", "--tie-break", "uniform"], "--tie-break uniform"),
        (["selfplay", "--tie-break", "uniform"], "--tie-break uniform"),
        (["menace", "--csv", "curve.csv"], "--curve"),
        (["hybrid", "--lambda-tau", "100"], "--lambda-schedule decay"),
        (["pure", "--lambda-schedule", "decay", "--lambda-kappa", "2"], "concentration"),
        (["hybrid", "--lambda-schedule", "decay", "--lambda-tau", "0"], "0"),
    ],
)
def test_bad_values_are_refused_in_one_line_and_nothing_is_written(argv, named, tmp_path, capsys):
    kind, *extra = argv
    extra = [str(tmp_path / e) if e.endswith(".csv") else e for e in extra]
    code, out, err = train(capsys, tmp_path, kind, *extra, games=6)
    assert code == 2
    lines = err.strip().splitlines()
    assert len(lines) == 1 and lines[0].startswith("error:"), err
    assert named in lines[0]
    assert not list(tmp_path.iterdir())


@pytest.mark.parametrize(
    "argv",
    [
        ["instrumental", "--lam", "0.5"],  # λ = 0 by definition
        ["pure", "--opponent-alpha", "2"],  # no opponent model
        ["pure", "--opponent-model", "minimax"],
        ["hybrid", "--lazy"],  # Oracle only
        ["qlearning", "--filter", "all"],
        ["selfplay", "--regimen", "mixed"],  # self-play has no scripted opponents
        ["selfplay", "--empty-box", "stop"],  # self-play needs an empty box to resign
        ["unsymmetrised", "--layout", "class"],
        ["menace", "--lam", "0.5"],
        ["hybrid", "--lambda", "0.3"],  # no abbreviations: not read as --lambda-policy
        ["oracle", "--lambda-schedule", "decay"],  # the Oracle learns nothing to schedule
    ],
)
def test_options_that_do_not_apply_are_not_offered(argv, tmp_path, capsys):
    kind, *extra = argv
    code, _, err = train(capsys, tmp_path, kind, *extra, games=6)
    assert code == 2 and "unrecognized arguments" in err
    assert not list(tmp_path.iterdir())


def test_each_kind_has_its_own_help_and_every_option_has_help_text():
    kinds = _kind_parsers()
    assert set(kinds) == set(ALL_KINDS)
    for name, parser in kinds.items():
        for action in parser._actions:
            assert action.help, (name, action.option_strings)
    flags = {name: _flags(p) for name, p in kinds.items()}
    assert "--lam" in flags["hybrid"] and "--opponent-model" not in flags["hybrid"]
    assert "--opponent-model" in flags["oracle"] and "--lam" not in flags["instrumental"]
    assert "--empty-box" in flags["menace"] and "--regimen" not in flags["selfplay"]
    assert "--tie-break" in flags["selfplay"] and "--pool-size" in flags["selfplay"]


def _kind_parsers():
    train_parser = build_parser()._subparsers._group_actions[0].choices["train"]
    return train_parser._subparsers._group_actions[0].choices


def _flags(parser) -> set[str]:
    return {flag for action in parser._actions for flag in action.option_strings}


def test_same_seed_same_agent(tmp_path, capsys):
    a, b = tmp_path / "a.json", tmp_path / "b.json"
    for path in (a, b):
        assert run(capsys, "train", "menace", "--games", 40, "--seed", 3, "--output", path)[0] == 0
    assert a.read_bytes() == b.read_bytes()


@pytest.mark.parametrize("kind", ["menace", "hybrid", "selfplay"])
def test_curve_marks_opponents_csv_and_json(kind, tmp_path, capsys):
    files = {"csv": tmp_path / "c.csv", "json": tmp_path / "c.json"}
    code, out, err = train(
        capsys, tmp_path, kind, "--curve", 10, "--csv", files["csv"],
        "--curve-json", files["json"], "--json", games=25,
    )  # fmt: skip
    assert code == 0, err
    curve = json.loads(out)["curve"]
    assert curve == json.loads(files["json"].read_text())
    assert curve["games"] == [10, 20, 25]
    assert set(curve["rates"]) == {"perfect", "random", "defensive"}
    for by_result in curve["rates"].values():
        for i in range(3):
            assert sum(by_result[r][i] for r in ("win", "draw", "loss")) == pytest.approx(1.0)
    with files["csv"].open() as f:
        rows = list(csv.DictReader(f))
    assert [int(r["games"]) for r in rows] == [10, 20, 25]
    assert float(rows[-1]["random_win"]) == curve["rates"]["random"]["win"][-1]
    # The last mark is the saved agent, evaluated exactly.
    code, out, _ = run(capsys, "evaluate", tmp_path / f"{kind}.json", "--json")
    assert json.loads(out)["draw"] == pytest.approx(curve["rates"]["perfect"]["draw"][-1])


def test_curve_tables_and_output_clashes(tmp_path, capsys):
    code, out, _ = train(capsys, tmp_path, "menace", "--curve", 5, games=10)
    assert code == 0 and "| games | perfect_win" in out
    same = tmp_path / "menace.json"
    code, _, err = train(capsys, tmp_path, "menace", "--curve", 5, "--csv", same, games=10)
    assert code == 2 and "same file" in err


def test_evaluate_refuses_a_tie_break_without_the_perfect_player(tmp_path, capsys):
    assert train(capsys, tmp_path, "sarsa", games=3)[0] == 0
    code, _, err = run(
        capsys,
        "evaluate",
        tmp_path / "sarsa.json",
        "--opponent",
        "random",
        "--tie-break",
        "uniform",
    )
    assert code == 2 and "--tie-break uniform" in err
    code, out, _ = run(
        capsys, "evaluate", tmp_path / "sarsa.json", "--tie-break", "uniform", "--json"
    )
    assert code == 0 and sum(json.loads(out).values()) == pytest.approx(1.0)


def test_kit_from_names_a_kind_it_cannot_print(tmp_path, capsys):
    assert train(capsys, tmp_path, "qlearning", games=3)[0] == 0
    pdf = tmp_path / "kit.pdf"
    code, _, err = run(capsys, "kit", "--from", tmp_path / "qlearning.json", "--output", pdf)
    assert code == 2 and "'menace_lib.rl.qlearning'" in err
    assert not pdf.exists()
