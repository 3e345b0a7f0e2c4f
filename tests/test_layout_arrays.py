"""Box layouts and scripted opponents are flat arrays; their tuple views are read from them."""

from __future__ import annotations

import numpy as np
import pytest

from menace_lib.base import compiling
from menace_lib.games.game import Rows
from menace_lib.games.registry import game_tables
from menace_lib.machine import _kernel as machine_kernel
from menace_lib.machine.engine import BoxIndex, box_layout
from menace_lib.play.opponents import make_opponent


def test_rows_from_a_mask_from_tuples_and_their_views():
    mask = np.array([[True, False, True], [False, False, False], [False, True, False]])
    rows = Rows.from_mask(mask)
    assert rows.tuples == ((0, 2), (), (1,)) and len(rows) == 3 and rows[2] == (1,)
    assert rows.flat.dtype == np.int8 and rows.lengths().tolist() == [2, 0, 1]
    assert rows.row_ids().tolist() == [0, 0, 2]
    values = np.arange(9).reshape(3, 3) * 1000
    assert Rows.from_mask(mask, values).tuples == ((0, 2000), (), (7000,))
    given = Rows.from_tuples([(3, 1), (), (2,)])  # kept as given: order and all
    assert given.tuples == ((3, 1), (), (2,)) and given == ((3, 1), (), (2,))
    assert Rows(given.start, given.flat) == given
    with pytest.raises(ValueError, match="start must run from 0 to 3"):
        Rows(np.array([0, 2]), np.arange(3))


@pytest.mark.parametrize(
    ("game", "filter", "layout", "player"),
    [
        ("noughts-and-crosses", "michie", "square", 1),
        ("noughts-and-crosses", "decision", "class", 2),
        ("hexapawn", "decision", "square", 2),
        ("connect4:4x3/3", "decision", "class", 1),
    ],
)
def test_layout_views_are_its_arrays(game, filter, layout, player):
    lay = box_layout(game, filter, layout, player)
    T = game_tables(game)
    assert lay.raw_box == tuple(lay.position_box.tolist())
    assert lay.result == tuple(lay.position_result.tolist())
    assert lay.opening == tuple(lay.position_opening.tolist())
    assert lay.states == tuple(lay.box_state.tolist())
    assert lay.box_ply == tuple(lay.box_plies.tolist())
    assert [len(m) for m in lay.members] == lay.colours.lengths().tolist()
    assert all(e == tuple(c[0] for c in m) for e, m in zip(lay.entries, lay.members, strict=True))
    for pid in range(T.n_positions):  # a box's colours lead where its raw moves go
        for m, child in zip(lay.raw_moves[pid], lay.raw_next[pid], strict=True):
            assert T.succ[pid, m] == child
    assert dict(lay.box_of) == {s: b for b, s in enumerate(lay.states)}
    assert lay.nbytes() < 40 * T.n_positions  # a few bytes a position, not a few hundred


def test_box_index_answers_like_a_dict():
    index = BoxIndex(np.array([7, -1, 3, 12]))  # -1: a box no position reaches
    assert dict(index) == {3: 2, 7: 0, 12: 3}
    assert index.get(5, -1) == -1 and 12 in index and -1 not in index
    assert index.get(np.int64(7)) == 0 and index.get("7") is None


def test_opponent_choices_and_successors_are_arrays():
    game = "connect4:4x3/3"
    T = game_tables(game)
    perfect = make_opponent("perfect", "uniform", game=game)
    assert perfect.choices.flat.dtype == np.int8
    nxt = perfect.next_ids
    for pid in range(0, T.n_positions, 7):
        assert nxt[pid] == tuple(T.succ[pid, m] for m in perfect.choices[pid])
    support = perfect.support()
    assert (support.sum(axis=1) == perfect.choices.lengths()).all()


def test_the_compiled_arrays_merge_the_machines_and_the_opponents_rows():
    game = "connect4:4x3/3"
    lay = box_layout(game, "decision", "square", 1)
    opp = make_opponent("random", game=game)
    a = machine_kernel.layout_arrays(lay, opp.next_ids)
    for pid in range(len(lay.position_box)):
        row = a["next_flat"][a["next_start"][pid] : a["next_start"][pid + 1]].tolist()
        assert tuple(row) == (lay.raw_next[pid] or opp.next_ids[pid])


def test_a_game_too_large_for_the_python_path_is_compiled(monkeypatch):
    monkeypatch.delenv(compiling.ENV, raising=False)
    monkeypatch.setattr(compiling, "available", lambda: True)
    big = compiling.PYTHON_MAX_POSITIONS + 1
    assert compiling.use_compiled("menace", 1, 25, big, machine_kernel._play_block)
    assert not compiling.use_compiled("menace", 1, 25, 161_029, machine_kernel._play_block)
    monkeypatch.setenv(compiling.ENV, "0")  # forcing the Python path still wins
    assert not compiling.use_compiled("menace", 1, 25, big, machine_kernel._play_block)
