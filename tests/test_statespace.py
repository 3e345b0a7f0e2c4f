"""Golden facts of the enumerated game (thesis ch. 4/8 and the reference's golden tests)."""

import numpy as np
from hypothesis import given
from hypothesis import strategies as st

from menace_lib.games import statespace
from menace_lib.games.board import O, X, transform_board, winning_squares
from menace_lib.games.statespace import DRAW, O_WIN, ONGOING, X_WIN, build_tables, tables

T = tables()


def test_positions_and_canonical_positions():
    assert T.n_positions == 5478
    assert len(T.canonical_ids) == 765
    per_ply = np.bincount(T.ply[T.canonical_ids], minlength=10)
    assert per_ply.tolist() == [1, 3, 12, 38, 108, 174, 204, 153, 57, 15]


def test_complete_games_by_outcome_and_length():
    assert statespace.game_counts(T) == {
        "games": 255168,
        "x_wins": 131184,
        "o_wins": 77904,
        "draws": 46080,
    }
    assert statespace.game_lengths(T) == {"5": 1440, "6": 5328, "7": 47952, "8": 72576, "9": 127872}


def test_canonical_trajectories():
    assert T.canonical_trajectories() == 26830


def test_matchbox_filters():
    x_states = T.matchbox_states("all")
    assert len(x_states) == 338
    assert np.bincount(T.ply[x_states], minlength=9)[::2].tolist() == [1, 12, 108, 183, 34]
    assert len(T.matchbox_states("decision")) == 304
    assert len(T.matchbox_states("michie")) == 287
    forced = set(x_states) - set(T.matchbox_states("decision"))
    assert len(forced) == 34 and all(T.ply[s] == 8 for s in forced)


def test_double_threats():
    threats = statespace.double_threats(T)
    assert len(threats) == 17
    for s in threats:
        board = T.position(s)
        assert not winning_squares(board, X)
        assert len(winning_squares(board, O)) >= 2
    texts = {T.text(s) for s in threats}
    assert {"...XOXOXO", "O.O..XXXO"} <= texts  # two of the reference's golden labels


def test_canonical_terminals():
    terminal = T.canonical_ids[T.outcome[T.canonical_ids] != ONGOING]
    assert len(terminal) == 138
    counts = [int((T.outcome[terminal] == o).sum()) for o in (X_WIN, O_WIN, DRAW)]
    assert counts == [91, 44, 3]


def test_empty_board_is_a_draw_and_every_opening_draws():
    assert T.value[0] == 0
    assert T.optimal_moves(0) == list(range(9))
    assert all(T.value[T.succ[0, m]] == 0 for m in range(9))


def test_minimax_values_are_consistent_with_children():
    for pid in range(T.n_positions):
        if T.outcome[pid] != ONGOING:
            continue
        kids = T.value[T.succ[pid][T.succ[pid] >= 0]]
        best = kids.max() if T.player[pid] == X else kids.min()
        assert T.value[pid] == best
        assert T.optimal_moves(pid) == [m for m in T.legal(pid) if T.value[T.succ[pid, m]] == best]


@given(st.integers(0, 5477), st.integers(0, 7))
def test_minimax_values_are_invariant_under_symmetry(pid, t):
    image = T.id_of(transform_board(t, T.position(pid)))
    assert T.value[image] == T.value[pid]
    assert T.canon[image] == T.canon[pid]


def test_rebuild_is_identical():
    fresh = build_tables()
    for name in ("codes", "succ", "canon", "canon_transform", "value", "optimal", "paths"):
        assert np.array_equal(getattr(fresh, name), getattr(T, name))


def test_tables_are_read_only():
    import pytest

    with pytest.raises(ValueError):
        T.value[0] = 1


def test_unknown_filter_and_impossible_board():
    import pytest

    with pytest.raises(ValueError, match="unknown filter"):
        T.matchbox_states("nope")
    with pytest.raises(ValueError, match="impossible piece counts"):
        T.id_of("XXXX.....")


def test_list_views_match_the_arrays():
    T = tables()
    assert T.succ_lists == tuple(map(tuple, T.succ.tolist()))
    assert T.canon_list == tuple(T.canon.tolist())
    assert T.outcome_list == tuple(T.outcome.tolist())
    assert T.player_list == tuple(T.player.tolist())
    assert T.ply_list == tuple(T.ply.tolist()) and T.value_list == tuple(T.value.tolist())
    for pid in (0, 1, 100, 4000, T.n_positions - 1):
        assert list(T.legal_lists[pid]) == T.legal(pid)
        for m in range(9):  # the canonical image of a move is the move in the canonical board
            child = T.succ[pid, m]
            if child >= 0:
                c, cm = T.canon[pid], T.canon_square_lists[pid][m]
                assert T.canon[T.succ[c, cm]] == T.canon[child]
    assert T.succ_lists is T.succ_lists  # cached
