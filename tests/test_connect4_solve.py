"""The lean Connect-4 solver agrees with the whole-game tables, array for array."""

from __future__ import annotations

import numpy as np
import pytest

from menace_lib.base.reproducibility import assert_same_numbers
from menace_lib.games.connect4 import ConnectFour, connect4_tables
from menace_lib.games.connect4_solve import estimated_bytes, solve


@pytest.mark.parametrize(("width", "height"), [(3, 4), (4, 3), (4, 4)])
def test_solution_equals_tables(width, height):
    s = solve(ConnectFour(width, height))
    T = connect4_tables(width, height)
    codes, packed = np.concatenate(s.codes), np.concatenate(s.packed)
    np.testing.assert_array_equal(codes, T.codes)
    np.testing.assert_array_equal((packed & 3).astype(np.int8) - 1, T.value)
    np.testing.assert_array_equal(packed >> 2, T.outcome)
    assert s.positions_by_ply() == np.bincount(T.ply).tolist()
    for i in range(0, len(codes), max(1, len(codes) // 500)):
        assert s.optimal_moves(int(codes[i])) == np.flatnonzero(T.optimal[i]).tolist()
        assert s.value(int(codes[i])) == T.value[i]


def test_4x4_golden():
    # 161,029 positions (John Tromp's count) and a draw with perfect play.
    s = solve(ConnectFour(4, 4))
    assert (s.n_positions, s.start_value()) == (161_029, 0)
    assert s.bytes_per_position() == 9.0


def test_unknown_code_is_a_key_error():
    s = solve(ConnectFour(4, 3))
    with pytest.raises(KeyError, match="no reachable position"):
        s.value(0b1111)  # a full first column of first-player stones: never reached


def test_admission_before_building():
    big = ConnectFour(7, 6)
    with pytest.raises(ValueError, match=r"7x6: solving needs about .* GiB, the limit is 8.0 GiB"):
        solve(big)
    assert estimated_bytes(ConnectFour(5, 5)) < 8 << 30
    assert estimated_bytes(ConnectFour(6, 4)) < 8 << 30
    with pytest.raises(ValueError, match="the limit is 0.0 GiB"):
        solve(ConnectFour(4, 4), max_bytes=1000)


def test_pruned_tables_equal_the_generic_enumerator():
    # The vectorised pruned builder and the one enumerator reading the pruned rules agree.
    from menace_lib.games.connect4_solve import AgainstPerfect
    from menace_lib.games.game import enumerate_game

    game = AgainstPerfect(solve(ConnectFour(4, 3)))
    fast, slow = game.build_tables(), enumerate_game(game)
    for field in (
        "codes",
        "ply",
        "player",
        "outcome",
        "succ",
        "canon",
        "value",
        "optimal",
        "paths",
    ):
        np.testing.assert_array_equal(getattr(fast, field), getattr(slow, field), err_msg=field)


@pytest.mark.parametrize("tie_break", ["lowest", "uniform"])
def test_menace_against_perfect_is_the_full_board_game(tie_break):
    # Training against the perfect player and scoring exactly against it give the same
    # games and the same figures on the pruned tables as on the whole board's.
    from menace_lib.games.connect4_solve import against_perfect
    from menace_lib.machine.menace import Menace, MenaceConfig
    from menace_lib.play.evaluation import exact_outcome
    from menace_lib.play.training import train

    runs = []
    for name in ("connect4:4x4", against_perfect("4x4")):
        m = Menace(MenaceConfig(game=name, filter="decision"))
        log = train(m, "perfect", 400, np.random.default_rng(11), record=True)
        runs.append((list(log.results), [[mv for _, mv in p] for p in log.paths],
                     exact_outcome(m, "perfect", tie_break)))  # fmt: skip
    (res_a, moves_a, ex_a), (res_b, moves_b, ex_b) = runs
    assert res_a == res_b and moves_a == moves_b
    assert_same_numbers(ex_a, ex_b, "exact outcome")


def test_solution_cache_round_trip(tmp_path, monkeypatch):
    from menace_lib.games import connect4_solve as cs

    monkeypatch.setenv("MENACE_LIB_CACHE", str(tmp_path))
    cs._solution.cache_clear()
    first = cs._solution(4, 3)
    path = cs.solution_file(ConnectFour(4, 3))
    assert path.is_file() and path.parent == tmp_path
    cs._solution.cache_clear()
    again = cs._solution(4, 3)
    for a, b in zip(first.codes + first.packed, again.codes + again.packed, strict=True):
        np.testing.assert_array_equal(a, b)
    path.write_bytes(b"not an npz")  # a damaged cache is solved again and rewritten
    cs._solution.cache_clear()
    assert cs._solution(4, 3).n_positions == first.n_positions
    cs._solution.cache_clear()


def test_stored_solutions_of_5x5_and_6x4():
    # The ledger reads the stored bench run (solving both takes minutes and GB); its counts
    # equal Tromp's, and its first plies are recounted here from scratch.
    import json

    from menace_lib.base.files import book_data
    from menace_lib.games.connect4 import positions_by_pieces
    from menace_lib.games.connect4_solve import KNOWN_POSITIONS

    with open(book_data("connect4_solved.json"), encoding="utf-8") as f:
        boards = json.load(f)["boards"]
    # Start values as in Steininger's table of solved boards (github.com/ChristopheSteininger/c4).
    for board, start in (("5x5", 0), ("6x4", -1)):
        b = boards[board]
        w, h = map(int, board.split("x"))
        by_ply = [int(x) for x in b["positions_by_ply"].split()]
        assert sum(by_ply) == b["positions"] == KNOWN_POSITIONS[(w, h)]
        assert b["start_value"] == start and b["bytes_per_position"] == 9.0
        assert b["peak_mb"] < 8 * 1024
        assert by_ply[:9] == positions_by_pieces(ConnectFour(w, h), 8)
