"""MENACE on Connect-4 5×5 against the perfect player: a small slice of the run.

The run (``python -m menace_lib experiment scaling-5x5``) takes CPU-minutes and GB; the same
code path runs here on 4×4, where the game against the perfect player plays the very games of
the whole board, so its exact curve must equal the whole 4×4 board's to the bit.
"""

from __future__ import annotations

import json

import numpy as np
import pytest
from budget import thorough_param

from menace_lib.base.files import book_data
from menace_lib.book.beyond import scaling, scaling_5x5
from menace_lib.games.connect4_solve import against_perfect
from menace_lib.games.registry import game_tables


def test_a_short_4x4_run_is_the_whole_boards_run():
    options = {"tie_break": "uniform", "budget_scale": 0.01, "per_decade": 2, "board": "4x4"}
    record = scaling_5x5.run_one("connect4:5x5/4-3-2-1", 3, options)
    assert record["games"] == [0, 100, 316, 1000, 3162, 10000]
    whole = scaling.exact_curve("connect4:4x4", "4-3-2-1", 3, record["games"])
    assert record["not_losing"] == whole  # the same floats: same games, same evaluation
    assert record["positions"] == scaling_5x5.POSITIONS["4x4"]
    assert record["games_to_90"] == 3162


@pytest.mark.parametrize("board", ["4x4", thorough_param("5x4", id="5x4")])
def test_positions_of_the_pruned_boards(board):
    """The pruned tables' sizes are the stored ones. The default run builds 4x4's (the same
    solver and pruning); the long run builds 5x4's too (about 4 CPU-s); 5x5's count is the
    stored run's (its tables take minutes)."""
    assert game_tables(against_perfect(board)).n_positions == scaling_5x5.POSITIONS[board]


def test_unknown_board_is_refused_in_one_line():
    with pytest.raises(ValueError, match=r"board '7x6': choose one of \['4x4', '5x4', '5x5'\]"):
        scaling_5x5.SWEEP.resolve({"board": "7x6"})


def test_stored_5x5_run():
    with open(book_data("connect4_5x5_menace.json"), encoding="utf-8") as f:
        stored = json.load(f)
    records = stored["records"]
    assert len({r["seed"] for r in records}) >= 3
    for r in records:
        assert r["positions"] == scaling_5x5.POSITIONS["5x5"] == 21_718_650
        assert r["peak_mb"] < 8 * 1024  # one process, tables, machine and evaluations
        assert r["games"][0] == 0 and r["games"][-1] == scaling_5x5.BUDGET
        curve = np.array(r["not_losing"])
        assert ((curve >= 0) & (curve <= 1)).all()
    # Before training every seed's machine is the same: the first values agree to the bit.
    assert len({r["not_losing"][0] for r in records}) == 1
    assert "experiment scaling-5x5" in stored["config"]["command"]
