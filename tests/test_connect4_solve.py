"""The lean Connect-4 solver agrees with the whole-game tables, array for array."""

from __future__ import annotations

import numpy as np
import pytest

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
