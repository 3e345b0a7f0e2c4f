"""``play``: a game against MENACE in the terminal, driven through piped stdin."""

import io
import os
import re
import subprocess
import sys
from pathlib import Path

import pytest

from menace_lib.cli import main
from menace_lib.play.checkpoints import load_checkpoints

ROOT = Path(__file__).resolve().parents[1]
EVERY_SQUARE = "".join(f"{n}\n" for n in range(1, 10))
RESULTS = ("You win!", "A draw.", "MENACE wins.")
# Every move White can make in Hexapawn: an illegal one is asked again, so the game ends.
EVERY_PAWN_MOVE = "".join(
    f"{a}{r}{'-' if a == b else 'x'}{b}{r + 1}\n" * 3
    for r in (1, 2)
    for a, b in ("aa", "bb", "cc", "ab", "ba", "bc", "cb")
)


def play(*argv: str, stdin: str) -> subprocess.CompletedProcess:
    """``python -m menace_lib play`` in a subprocess, its moves piped in."""
    env = {**os.environ, "PYTHONPATH": str(ROOT)}
    return subprocess.run(
        [sys.executable, "-m", "menace_lib", "play", *argv],
        input=stdin,
        capture_output=True,
        text=True,
        env=env,
        timeout=120,
        check=False,
    )


def play_here(monkeypatch, capsys, *argv: str, stdin: str) -> tuple[int, str, str]:
    """The same in-process (faster), with ``stdin`` as the input."""
    monkeypatch.setattr(sys, "stdin", io.StringIO(stdin))
    code = main(["play", *argv])
    out, err = capsys.readouterr()
    return code, out, err


def test_a_piped_game_with_bad_input_is_played_to_the_end():
    # Junk, out-of-range numbers and taken squares are asked again; then every
    # square in turn, so the game must finish whatever MENACE plays.
    moves = "abc\n0\n10\n\n 5 \n5\n" + EVERY_SQUARE
    done = play("--side", "X", "--seed", "3", stdin=moves)
    assert done.returncode == 0, done.stderr
    assert "Traceback" not in done.stderr and done.stderr == ""
    out = done.stdout
    assert "'abc' is not a square" in out and "'0' is not a square" in out
    assert "'10' is not a square" in out and "'' is not a square" in out
    assert "Square 5 is taken" in out
    assert sum(out.count(r) for r in RESULTS) == 1


def test_end_of_input_ends_cleanly():
    done = play(stdin="")
    assert done.returncode == 0 and done.stderr == ""
    assert "Input ended" in done.stdout


def test_menace_shows_its_probabilities_before_it_opens(monkeypatch, capsys):
    code, out, _ = play_here(monkeypatch, capsys, "5000", "--seed", "1", stdin="")
    assert code == 0
    shown = out.split("chances for each square:\n", 1)[1].splitlines()[:3]
    cells = [float(c) / 100 for line in shown for c in re.findall(r"(\d+)%", line)]
    expected = load_checkpoints()["X"][5000].policy_matrix().probabilities[0]
    assert cells == pytest.approx(list(expected), abs=0.006)  # shown to whole percents
    assert "MENACE plays" in out


def test_same_seed_same_game_and_several_games(monkeypatch, capsys):
    runs = [
        play_here(monkeypatch, capsys, "100", "--seed", "7", "--games", "2", stdin=EVERY_SQUARE * 2)
        for _ in range(2)
    ]
    assert runs[0] == runs[1]
    code, out, _ = runs[0]
    assert code == 0 and "Game 2 of 2" in out
    assert sum(out.count(r) for r in RESULTS) == 2
    assert re.search(r"You won \d, drew \d, lost \d\.", out)


def test_an_agent_file_plays_its_own_side(tmp_path, monkeypatch, capsys):
    agent = tmp_path / "o.json"
    assert main(["train", "hybrid", "--games", "5", "--player", "O", "--output", str(agent)]) == 0
    capsys.readouterr()
    code, out, _ = play_here(monkeypatch, capsys, str(agent), stdin=EVERY_SQUARE)
    assert code == 0 and "You play X; MENACE plays O" in out
    assert sum(out.count(r) for r in RESULTS) == 1
    code, _, err = play_here(monkeypatch, capsys, str(agent), "--side", "O", stdin="")
    assert code == 2 and err.count("\n") == 1 and "plays O" in err


@pytest.mark.parametrize(
    ("argv", "named"),
    [(["30"], "30"), (["missing.json"], "missing.json"), (["--games", "0"], "'0'")],
)
def test_bad_arguments_give_one_line(argv, named, tmp_path, monkeypatch, capsys):
    monkeypatch.chdir(tmp_path)
    code, _, err = play_here(monkeypatch, capsys, *argv, stdin=EVERY_SQUARE)
    assert code == 2 and err.startswith("error:") and err.count("\n") == 1
    assert named in err


def test_connect4_is_played_by_column_against_a_trained_menace(monkeypatch, capsys):
    moves = "9\nxyz\n" + "1\n2\n3\n4\n" * 8
    code, out, _ = play_here(
        monkeypatch, capsys, "--game", "connect4:4x4", "--seed", "1", "--games", "2", stdin=moves
    )
    assert code == 0
    assert "MENACE's chances by column:" in out
    assert "'9' is not a free column" in out and "'xyz' is not a free column" in out
    assert out.count("1 2 3 4") >= 4  # the board with its column numbers
    assert "MENACE won" in out  # both games were played to the end


@pytest.mark.parametrize(
    ("game", "message"),
    [
        ("connect4:7x6", "at most 20 cells"),
        ("connect4:3x3", "4x4 to 5x4"),
        ("chess", "unknown game"),
    ],
)
def test_connect4_boards_the_command_cannot_tabulate_are_refused(game, message, capsys):
    from menace_lib.cli import main

    assert main(["play", "--game", game]) == 2
    assert message in capsys.readouterr().err


@pytest.mark.parametrize(
    ("kind", "game", "moves", "you", "plays"),
    [
        ("instrumental", "hexapawn", EVERY_PAWN_MOVE, "White", "Instrumental AIF"),
        ("qlearning", "hexapawn", EVERY_PAWN_MOVE, "White", "Q-learning"),
    ],
)
def test_a_saved_agent_of_another_game_is_played_from_its_file(
    tmp_path, monkeypatch, capsys, kind, game, moves, you, plays
):
    agent = tmp_path / "a.json"
    assert main(["train", kind, "--game", game, "--games", "20", "--output", str(agent)]) == 0
    before = agent.read_bytes()
    capsys.readouterr()
    code, out, _ = play_here(
        monkeypatch, capsys, str(agent), "--game", game, "--seed", "3", stdin=moves
    )
    assert code == 0 and f"You play {you}; {plays} plays the other side" in out
    assert f"{plays}'s chances" in out and "Input ended" not in out  # played to the end
    assert agent.read_bytes() == before  # a file's agent plays, it does not learn
    code, out, _ = play_here(monkeypatch, capsys, str(agent), stdin="")  # the file's game
    assert code == 0 and f"You play {you}; {plays} plays the other side" in out
    code, _, err = play_here(monkeypatch, capsys, str(agent), "--game", "connect4:4x4", stdin="")
    assert code == 2 and f"holds a {game} agent, not --game connect4:4x4" in err
