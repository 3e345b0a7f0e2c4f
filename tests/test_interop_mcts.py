"""OpenSpiel's MCTSBot scored exactly by the library, and the book's table of it."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

import numpy as np
import pytest

pytest.importorskip("pyspiel")

import menace_lib as ml  # noqa: E402
from menace_lib.interop.mcts import mcts_outcome, mcts_policy, menace_curve  # noqa: E402

ROOT = Path(__file__).resolve().parents[1]


def test_a_seeded_bot_is_one_policy_scored_exactly():
    a = mcts_policy("noughts-and-crosses", 50, seed=3)
    b = mcts_policy("noughts-and-crosses", 50, seed=3)
    assert np.array_equal(a.probabilities, b.probabilities) and a.queried == b.queried > 0
    P, rows, _ = a.policy_matrix()
    T = ml.game_tables("noughts-and-crosses")
    assert np.allclose(P[rows].sum(axis=1), 1.0)
    assert not (P[rows] * (T.succ[rows] < 0)).any()  # only legal moves
    rates = ml.exact_outcome(a, ml.make_opponent("perfect", "uniform"))
    assert abs(sum(rates.values()) - 1) < 1e-12 and rates["win"] == 0.0


def test_more_simulations_never_lose_noughts_and_crosses():
    r = mcts_outcome("noughts-and-crosses", 100)  # the book's row: five seeds
    assert (r["win"], r["loss"]) == (0.0, 0.0) and r["draw"] == 1.0
    assert mcts_outcome("noughts-and-crosses", 2, seeds=(0,))["loss"] > 0


def test_the_bots_rows_of_noughts_and_crosses_are_the_books():
    stored = json.loads((ROOT / "book" / "data" / "interop_mcts.json").read_text())
    for row in stored["rows"]["noughts-and-crosses"]:
        if row["player"] == "MCTSBot" and row["budget"] <= 100:
            r = mcts_outcome("noughts-and-crosses", row["budget"], seeds=tuple(stored["seeds"]))
            keys = ("win", "draw", "loss")
            assert ml.same_numbers({k: r[k] for k in keys}, {k: row[k] for k in keys})


def test_the_bot_plays_the_second_side_and_hexapawn():
    r = mcts_outcome("hexapawn", 200, player=2, seeds=(0,))
    assert r["win"] == 1.0  # Black wins Hexapawn under perfect play, and the bot finds it


def test_the_bot_is_scored_on_a_game_loaded_from_openspiel():
    name = ml.spiel_game("connect_four", {"rows": 3, "columns": 4, "x_in_row": 3}).name
    r = mcts_outcome(name, 30, seeds=(0, 1))
    assert abs(r["win"] + r["draw"] + r["loss"] - 1) < 1e-12 and r["queried"] > 0


def test_menace_curve_learns_against_the_perfect_player_as_the_book_says():
    rows = menace_curve("noughts-and-crosses", [0, 100, 1000])
    assert rows[0]["loss"] > 0.5 and rows[2]["draw"] == 1.0
    stored = json.loads((ROOT / "book" / "data" / "interop_mcts.json").read_text())
    book = [r for r in stored["rows"]["noughts-and-crosses"] if r["player"] == "MENACE"]
    for mine, theirs in zip(rows, book[:3], strict=True):
        assert mine["games"] == theirs["budget"]
        assert ml.same_numbers(
            {k: mine[k] for k in ("win", "draw", "loss")},
            {k: theirs[k] for k in ("win", "draw", "loss")},
        )


def test_bad_budgets_and_games_are_refused():
    with pytest.raises(ValueError, match="simulations 0: expected an integer from 1"):
        mcts_policy("noughts-and-crosses", 0)
    with pytest.raises(ValueError, match="game 'connect4:5x4' has no OpenSpiel twin"):
        mcts_policy("connect4:5x4", 10)


def test_the_books_table_is_the_stored_one():
    data = json.loads((ROOT / "book" / "data" / "interop_mcts.json").read_text())
    assert data["format"] == "menace_lib.interop_mcts"
    done = subprocess.run(
        [sys.executable, str(ROOT / "scripts" / "interop_mcts_table.py"), "--check"],
        capture_output=True,
        text=True,
    )
    assert done.returncode == 0, "run python scripts/interop_mcts_table.py"
    first = data["rows"]["noughts-and-crosses"][0]
    assert (first["player"], first["budget"]) == ("MCTSBot", 10)
