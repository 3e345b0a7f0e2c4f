"""The board, its text form, the D4 group, canonical forms and move classes."""

import numpy as np
import pytest
from hypothesis import given
from hypothesis import strategies as st

from menace_lib.games.board import (
    COMPOSE,
    EMPTY_BOARD,
    IDENTITY,
    INVERSE,
    TRANSFORMS,
    BoardError,
    O,
    X,
    board_to_grid,
    board_to_text,
    canonical,
    canonical_transform,
    from_canonical_move,
    legal_moves,
    move_class_representatives,
    move_classes,
    parse_board,
    play,
    square_number,
    square_numbers,
    stabiliser,
    to_canonical_move,
    to_move,
    transform_board,
    winner,
)
from menace_lib.games.statespace import tables

# The reference implementation's tables (shared/reference §1).
REFERENCE_TRANSFORMS = [
    "012345678",
    "210543876",
    "258147036",
    "852741630",
    "876543210",
    "678345012",
    "630741852",
    "036147258",
]


def test_transforms_match_the_reference_order():
    assert [tuple(int(c) for c in row) for row in REFERENCE_TRANSFORMS] == list(TRANSFORMS)


def test_group_table_is_closed_with_identity_and_inverses():
    for a in range(8):
        assert COMPOSE[a][IDENTITY] == a == COMPOSE[IDENTITY][a]
        assert COMPOSE[a][INVERSE[a]] == IDENTITY == COMPOSE[INVERSE[a]][a]
        for b in range(8):
            for i in range(9):
                assert TRANSFORMS[COMPOSE[a][b]][i] == TRANSFORMS[a][TRANSFORMS[b][i]]
    reflections = [1, 3, 5, 7]
    assert all(INVERSE[r] == r for r in reflections)
    assert INVERSE[2] == 6 and INVERSE[6] == 2 and INVERSE[4] == 4


def test_text_forms_round_trip():
    board = parse_board("X.O/.X./..O")
    assert board == parse_board("X.O.X...O") == parse_board("x-o-x---o")
    assert board_to_text(board) == "X.O.X...O"
    assert board_to_grid(board) == "X.O/.X./..O"


@pytest.mark.parametrize(
    ("text", "message"),
    [
        ("X.O.X...", "expected 9 squares"),
        ("X.O.X...OO", "expected 9 squares"),
        ("X.O/.X/...O", "three rows"),
        ("X.Q.X...O", "unknown symbol"),
        ("XX.......", "impossible piece counts"),
        ("O........", "impossible piece counts"),
        ("XXX/OO./O..", "O played after X had already won"),
        ("XXX/OOO/...", "both players have a line"),
        ("OOO/XX./X.X", "X played after O had already won"),
    ],
)
def test_parse_rejects_malformed_boards(text, message):
    with pytest.raises(BoardError, match=message):
        parse_board(text)


def test_play_rejects_illegal_moves():
    board = parse_board("X........")
    with pytest.raises(BoardError, match="occupied"):
        play(board, 0)
    with pytest.raises(BoardError, match="0..8"):
        play(board, 9)
    with pytest.raises(BoardError, match="already over"):
        play(parse_board("XXX/OO./..."), 8)
    assert play(board, 4)[4] == O


def test_turn_and_winner():
    assert to_move(EMPTY_BOARD) == X
    assert to_move(parse_board("X........")) == O
    assert winner(parse_board("XXX/OO./...")) == X
    assert legal_moves(parse_board("XXX/OO./...")) == []


def test_canonical_examples_from_the_reference():
    assert board_to_text(canonical(parse_board("X........"))) == "........X"
    assert canonical_transform(parse_board("X........")) == 3  # r90+refl
    assert board_to_text(canonical(parse_board(".X......."))) == ".......X."
    assert canonical_transform(parse_board(".X.......")) == 4  # r180 wins the tie
    assert board_to_text(canonical(parse_board("X...O...."))) == "....O...X"


def test_empty_board_has_three_move_classes():
    assert move_classes(EMPTY_BOARD) == [(0, 2, 6, 8), (1, 3, 5, 7), (4,)]
    assert move_class_representatives(EMPTY_BOARD) == [0, 1, 4]
    assert len(stabiliser(EMPTY_BOARD)) == 8


positions = st.integers(min_value=0, max_value=5477).map(lambda pid: tables().position(pid))


@given(positions, st.integers(0, 7))
def test_canonical_is_idempotent_and_invariant(board, t):
    c = canonical(board)
    assert canonical(c) == c
    assert canonical(transform_board(t, board)) == c


@given(positions)
def test_move_mapping_round_trips(board):
    c = canonical(board)
    for m in legal_moves(board):
        cm = to_canonical_move(board, m)
        assert c[cm] == 0
        assert from_canonical_move(board, cm) == m
        assert canonical(play(board, m)) == canonical(play(c, cm))


@given(positions)
def test_move_classes_partition_the_empty_squares(board):
    classes = move_classes(board)
    flat = [m for cls in classes for m in cls]
    assert sorted(flat) == legal_moves(board)
    assert len(flat) == len(set(flat))
    group = stabiliser(board)
    for cls in classes:  # each class is one orbit: all its squares lead to equivalent boards
        children = {canonical(play(board, m)) for m in cls}
        assert len(children) == 1
        assert {TRANSFORMS[t][cls[0]] for t in group} == set(cls)


def test_squares_are_shown_numbered_1_to_9():
    assert [square_number(i) for i in range(9)] == list(range(1, 10))
    assert square_numbers((0, 4, 8)) == [1, 5, 9]
    assert square_number(np.int64(3)) == 4
    for bad in (-1, 9, 2.0, "4", True, None):
        with pytest.raises(BoardError, match="squares are integers 0..8"):
            square_number(bad)
