"""The command-line contract (``python -m menace_lib``)."""

import json
import subprocess
import sys

import pytest

from menace_lib.cli import main


def run(*args: str) -> subprocess.CompletedProcess:
    return subprocess.run(
        [sys.executable, "-m", "menace_lib", *args], capture_output=True, text=True, check=False
    )


def test_states_json_contract():
    out = run("states", "--json")
    assert out.returncode == 0, out.stderr
    data = json.loads(out.stdout)
    assert set(data) == {
        "positions",
        "canonical_positions",
        "games",
        "x_wins",
        "o_wins",
        "draws",
        "game_lengths",
        "canonical_trajectories",
        "matchboxes",
        "double_threats",
    }
    assert data["games"] == 255168 and data["canonical_trajectories"] == 26830
    assert data["game_lengths"] == {"5": 1440, "6": 5328, "7": 47952, "8": 72576, "9": 127872}
    assert data["matchboxes"] == {"all": 338, "decision": 304, "michie": 287}
    assert len(data["double_threats"]) == 17
    assert all(len(b) == 9 and set(b) <= set(".XO") for b in data["double_threats"])


def test_states_table(capsys):
    assert main(["states"]) == 0
    assert "255168" in capsys.readouterr().out


def test_train_then_evaluate_exact_and_sampled(tmp_path, capsys):
    agent = tmp_path / "agent.json"
    assert (
        main(
            [
                "train",
                "menace",
                "--games",
                "500",
                "--regimen",
                "mixed",
                "--filter",
                "michie",
                "--restock",
                "box",
                "--seed",
                "0",
                "--output",
                str(agent),
            ]
        )
        == 0
    )
    capsys.readouterr()
    assert main(["evaluate", str(agent), "--opponent", "perfect", "--exact", "--json"]) == 0
    exact = json.loads(capsys.readouterr().out)
    assert set(exact) == {"win", "draw", "loss"} and sum(exact.values()) == pytest.approx(1)
    assert (
        main(
            [
                "evaluate",
                str(agent),
                "--opponent",
                "perfect",
                "--games",
                "100",
                "--seed",
                "1",
                "--json",
            ]
        )
        == 0
    )
    sampled = json.loads(capsys.readouterr().out)
    assert all(round(v * 100) == pytest.approx(v * 100) for v in sampled.values())


@pytest.mark.parametrize(
    "args",
    [
        ["train", "menace", "--filter", "nope", "--output", "x.json"],
        ["train", "menace", "--restock", "sometimes", "--output", "x.json"],
        ["train", "menace", "--schedule", "4,a", "--output", "x.json"],
        ["evaluate", "missing.json"],
    ],
)
def test_bad_input_gives_a_one_line_error(args, tmp_path, monkeypatch, capsys):
    monkeypatch.chdir(tmp_path)
    assert main(args) == 2
    err = capsys.readouterr().err.strip()
    assert err.startswith("error:") and "\n" not in err
    assert not (tmp_path / "x.json").exists()


def test_unknown_opponent(tmp_path, capsys):
    agent = tmp_path / "a.json"
    main(["train", "menace", "--games", "5", "--output", str(agent)])
    assert main(["evaluate", str(agent), "--opponent", "grandmaster"]) == 2
