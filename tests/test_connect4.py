"""Connect-4 (menace_lib.games.connect4): the rules, the fast builder, and golden counts.

The golden counts are independent counts of every position reachable in play, terminal
ones included (issue 25's table), and OEIS A212693 for the standard board's first plies.
"""

from __future__ import annotations

import numpy as np
import pytest

from menace_lib.games.connect4 import TABLE_FIELDS as FIELDS
from menace_lib.games.connect4 import (
    ConnectFour,
    build_tables,
    connect4_tables,
    positions_by_pieces,
)
from menace_lib.games.game import DRAW, FIRST, FIRST_WIN, ONGOING, SECOND_WIN, enumerate_game


@pytest.mark.parametrize(("width", "height", "line"), [(3, 3, 3), (4, 3, 3), (3, 4, 3), (4, 3, 4)])
def test_fast_builder_equals_the_one_enumerator(width, height, line):
    game = ConnectFour(width, height, line)
    slow, fast = enumerate_game(game), build_tables(game)
    for field in FIELDS:
        assert np.array_equal(getattr(slow, field), getattr(fast, field)), field
    assert dict(slow.code_to_id) == dict(fast.code_to_id)


def test_4x4_golden_counts_and_value():
    T = connect4_tables(4, 4)
    assert T.n_positions == 161_029
    assert int(np.isin(T.outcome, (FIRST_WIN, SECOND_WIN)).sum()) == 21_404
    assert T.value[0] == 0  # a draw under perfect play
    assert len(T.matchbox_states("all", FIRST)) == 33_167
    assert len(T.matchbox_states("decision", FIRST)) == 27_761
    # The first player's positions up to mirror image, by how they end (the counts the 5x4
    # test below checks on the bigger board).
    first_to_move = (T.ply % 2 == 0) & (T.canon == np.arange(T.n_positions))
    assert int(first_to_move.sum()) == 40_042
    assert int((first_to_move & (T.outcome != SECOND_WIN)).sum()) == 35_841
    assert int((first_to_move & (T.outcome == DRAW)).sum()) == 2_674


@pytest.mark.slow
@pytest.mark.thorough
def test_5x4_golden_counts_and_value():
    """The golden counts of the 5x4 board (3.9 M positions, about 7 CPU-s): the long run's.
    The default run checks the same builder and the same counts on 4x4 (the test above,
    and the builder against the one enumerator on the small boards)."""
    T = build_tables(ConnectFour(5, 4))
    assert T.n_positions == 3_945_711
    assert T.value[0] == 0
    assert len(T.matchbox_states("all", FIRST)) == 785_365
    assert len(T.matchbox_states("decision", FIRST)) == 721_499
    # The first player's positions up to mirror image, by how they end. The issue's
    # "807,998 first-player positions" is none of these (the book's scaling chapter says so).
    first_to_move = (T.ply % 2 == 0) & (T.canon == np.arange(T.n_positions))
    assert int(first_to_move.sum()) == 973_545
    assert int((first_to_move & (T.outcome != SECOND_WIN)).sum()) == 804_104
    assert int((first_to_move & (T.outcome == DRAW)).sum()) == 18_739


def test_standard_board_by_number_of_pieces_is_oeis_a212693():
    counts = positions_by_pieces(ConnectFour(7, 6), 8)
    assert counts == [1, 7, 49, 238, 1120, 4263, 16422, 54859, 184275]


def test_rules_drop_stones_and_find_lines():
    g = ConnectFour(4, 4)
    p = g.start()
    for column in (0, 1, 0, 1, 0, 1):
        p = g.play(p, column)
    assert g.result(p) == ONGOING and g.to_move(p) == FIRST
    p = g.play(p, 0)  # four in column 1
    assert g.result(p) == FIRST_WIN
    assert p[0] == FIRST and g.legal_moves(p) == [1, 2, 3]
    with pytest.raises(ValueError, match="column 1 is full"):
        g.play(p, 0)


def test_a_full_board_without_a_line_is_a_draw():
    g = ConnectFour(3, 2, 3)
    T = build_tables(g)
    full = T.ply == g.n_cells
    assert (T.outcome[full] != ONGOING).all()
    assert (T.outcome[full] == DRAW).sum() > 0
    lines = np.isin(T.outcome, (FIRST_WIN, SECOND_WIN))
    assert (T.outcome[full & ~lines] == DRAW).all()


def test_encoding_round_trips_and_the_mirror_commutes_with_play():
    g = ConnectFour(5, 4)
    rng = np.random.default_rng(0)
    for _ in range(200):
        p = g.start()
        while g.result(p) == ONGOING:
            assert g.decode(g.encode(p)) == p
            m = int(rng.choice(g.legal_moves(p)))
            assert g.play(g.transform(1, p), g.transform_move(1, m)) == g.transform(1, g.play(p, m))
            p = g.play(p, m)


def test_code_index_answers_like_a_dict():
    T = connect4_tables(4, 4)
    code = int(T.codes[12345])
    assert T.code_to_id[code] == 12345 and code in T.code_to_id
    assert -1 not in T.code_to_id and "x" not in T.code_to_id
    assert T.id_of(T.position(777)) == 777
    with pytest.raises(KeyError):
        T.code_to_id[0]


@pytest.mark.parametrize(
    ("args", "message"),
    [
        ((0, 4), "width 0: expected an integer from 1 to 15"),
        ((4, 16), "height 16"),
        ((9, 6), "needs 63 bits, at most 62"),
        ((4, 4, 5), "line 5: expected 2 to 4"),
        ((4, True), "height True"),
    ],
)
def test_bad_boards_are_refused_with_one_line(args, message):
    with pytest.raises(ValueError, match=message):
        ConnectFour(*args)


def test_tables_are_cached_on_disk_by_version_and_a_bad_file_is_rebuilt(tmp_path, monkeypatch):
    from menace_lib.games.connect4 import cache_file, cached_tables

    monkeypatch.setenv("MENACE_LIB_CACHE", str(tmp_path))
    game = ConnectFour(4, 3)
    path = cache_file(game)
    assert path.parent == tmp_path and "-v" in path.name
    first = cached_tables(game)
    assert path.is_file()
    again = cached_tables(game)  # read back from the file
    for field in FIELDS:
        assert np.array_equal(getattr(first, field), getattr(again, field)), field
    assert again.id_of(again.position(100)) == 100
    path.write_bytes(b"not an npz file")
    rebuilt = cached_tables(game)
    assert np.array_equal(rebuilt.succ, first.succ) and path.stat().st_size > 100
    monkeypatch.setenv("MENACE_LIB_CACHE", "off")
    assert cache_file(game) is None
