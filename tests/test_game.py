"""The game layer: one interface, one enumerator, two games checked against independent counts."""

from __future__ import annotations

import numpy as np
import pytest

from menace_lib.games import statespace
from menace_lib.games.game import DRAW, FIRST_WIN, ONGOING, SECOND_WIN, Game, enumerate_game
from menace_lib.games.hexapawn import HEXAPAWN, square_name
from menace_lib.games.noughts import NOUGHTS_AND_CROSSES
from menace_lib.games.registry import GAME_NAMES, game_tables, get_game
from menace_lib.games.statespace import tables

# --- an independent Hexapawn, written from Gardner's rules with its own representation --
# A position is (white pawns, black pawns, side to move) with pawns as frozensets of
# (file, rank), files 0..2 left to right, ranks 1..3 from White's side.


def _moves(white, black, side):
    mine, theirs, step = (white, black, 1) if side == "W" else (black, white, -1)
    out = []
    for f, r in mine:
        ahead = (f, r + step)
        if ahead not in mine and ahead not in theirs:
            out.append(((f, r), ahead))
        for df in (-1, 1):
            diag = (f + df, r + step)
            if diag in theirs:
                out.append(((f, r), diag))
    return out


def _after(white, black, side, move):
    src, dst = move
    if side == "W":
        return (white - {src}) | {dst}, black - {dst}, "B"
    return white - {dst}, (black - {src}) | {dst}, "W"


def _winner(white, black, side):
    """Who has won, or None: far row reached, all captured, or the mover is stuck."""
    if any(r == 3 for _, r in white) or not black:
        return "W"
    if any(r == 1 for _, r in black) or not white:
        return "B"
    if not _moves(white, black, side):
        return "B" if side == "W" else "W"
    return None


def _mirror(pawns):
    return frozenset((2 - f, r) for f, r in pawns)


def _independent_hexapawn():
    start = (frozenset((f, 1) for f in range(3)), frozenset((f, 3) for f in range(3)), "W")
    depth, frontier = {start: 0}, [start]
    while frontier:
        nxt = []
        for pos in frontier:
            if _winner(*pos) is None:
                for m in _moves(*pos):
                    child = _after(*pos, m)
                    if child not in depth:
                        depth[child] = depth[pos] + 1
                        nxt.append(child)
        frontier = nxt
    return depth


def _value(pos, memo={}):  # noqa: B006 (a deliberate memo)
    if pos not in memo:
        w = _winner(*pos)
        if w is not None:
            memo[pos] = w
        else:
            kids = {_value(_after(*pos, m)) for m in _moves(*pos)}
            memo[pos] = pos[2] if pos[2] in kids else ({"W", "B"} - {pos[2]}).pop()
    return memo[pos]


def _independent_counts(side):
    depth = _independent_hexapawn()
    live = [p for p in depth if p[2] == side and _winner(*p) is None]
    classes = {min((p[0], p[1]), (_mirror(p[0]), _mirror(p[1])), key=repr) for p in live}
    by_ply: dict[int, int] = {}
    for p in live:
        by_ply[depth[p]] = by_ply.get(depth[p], 0) + 1
    return len(live), by_ply, len(classes)


# --- the interface ----------------------------------------------------------------


@pytest.mark.parametrize("name", GAME_NAMES)
def test_every_game_satisfies_the_interface(name):
    assert isinstance(get_game(name), Game)


def test_unknown_game_is_one_clear_error():
    with pytest.raises(ValueError, match="game 'chess': unknown game.*hexapawn"):
        get_game("chess")


@pytest.mark.parametrize("name", GAME_NAMES)
def test_symmetry_commutes_with_play(name):
    game, T = get_game(name), game_tables(name)
    for pid in range(0, T.n_positions, 7):
        p = T.position(pid)
        for m in T.legal(pid):
            for g in range(game.n_symmetries):
                lhs = game.play(game.transform(g, p), game.transform_move(g, m))
                assert lhs == game.transform(g, game.play(p, m))


# --- noughts and crosses: one implementation among others ---------------------------


def test_noughts_and_crosses_through_the_one_enumerator_equals_statespace():
    N, S = enumerate_game(NOUGHTS_AND_CROSSES), tables()
    assert np.array_equal(N.cells, S.cells)
    for name in ("codes", "ply", "player", "outcome", "succ", "canon", "canon_transform"):
        assert np.array_equal(getattr(N, name), getattr(S, name)), name
    for name in ("value", "optimal", "paths"):
        assert np.array_equal(getattr(N, name), getattr(S, name)), name
    assert N.n_positions == 5478 and len(N.canonical_ids) == 765
    assert len(N.matchbox_states("all")) == 338 and len(N.matchbox_states("decision")) == 304


def test_noughts_and_crosses_golden_facts_through_the_registry():
    T = game_tables("noughts-and-crosses")
    assert T.n_positions == 5478 and len(T.canonical_ids) == 765
    assert [len(tables().matchbox_states(f)) for f in ("all", "decision", "michie")] == [
        338,
        304,
        287,
    ]
    assert len(statespace.double_threats(tables())) == 17
    assert int(T.value[0]) == 0  # a draw under perfect play


# --- Hexapawn against the independent enumeration -----------------------------------


def test_hexapawn_black_to_move_counts():
    T = game_tables("hexapawn")
    raw = np.flatnonzero((T.outcome == ONGOING) & (T.player == 2))
    assert len(raw) == 37 and T.counts_by_ply(raw) == {1: 3, 3: 20, 5: 14}
    boxes = T.matchbox_states("all", 2)
    assert len(boxes) == 19 and T.counts_by_ply(boxes) == {1: 2, 3: 10, 5: 7}
    assert len(T.matchbox_states("decision", 2)) == 17
    assert sum(len(T.move_classes(int(s))) > 1 for s in boxes) == 17
    n, by_ply, classes = _independent_counts("B")
    assert (n, by_ply, classes) == (37, {1: 3, 3: 20, 5: 14}, 19)


def test_hexapawn_white_to_move_counts():
    T = game_tables("hexapawn")
    raw = np.flatnonzero((T.outcome == ONGOING) & (T.player == 1))
    assert len(raw) == 33 and len(T.matchbox_states("all", 1)) == 18
    n, _, classes = _independent_counts("W")
    assert (n, classes) == (33, 18)


def test_hexapawn_positions_and_values_match_the_independent_enumeration():
    T = game_tables("hexapawn")
    depth = _independent_hexapawn()
    assert T.n_positions == len(depth)
    for pos, d in depth.items():
        white, black, side = pos
        cells = [0] * 9
        for f, r in white:
            cells[3 * (3 - r) + f] = 1
        for f, r in black:
            cells[3 * (3 - r) + f] = 2
        pid = T.id_of((*cells, 1 if side == "W" else 2))
        assert int(T.ply[pid]) == d
        won = {"W": 1, "B": -1}[_value(pos)]
        assert int(T.value[pid]) == won
        w = _winner(*pos)
        assert int(T.outcome[pid]) == {None: ONGOING, "W": FIRST_WIN, "B": SECOND_WIN}[w]
        assert len(T.legal(pid)) == (0 if w else len(_moves(*pos)))


def test_hexapawn_second_player_wins_and_has_no_draws():
    T = game_tables("hexapawn")
    assert int(T.value[0]) == -1
    assert not (T.outcome == DRAW).any()


def test_hexapawn_gardner_count_is_move_slots_of_the_figure():
    """Gardner's 24 = 2 + 11 + 11: see menace_lib.games.hexapawn.gardner_boxes."""
    from menace_lib.games.hexapawn import gardner_boxes

    assert gardner_boxes() == {2: 2, 4: 11, 6: 11}


def test_hexapawn_names_and_moves():
    assert square_name(6) == "a1" and square_name(2) == "c3"
    p = HEXAPAWN.start()
    assert [HEXAPAWN.move_name(p, m) for m in HEXAPAWN.legal_moves(p)] == [
        "a1-a2",
        "b1-b2",
        "c1-c2",
    ]
    with pytest.raises(ValueError, match="move 0"):
        HEXAPAWN.play(p, 0)


def test_tie_break_sets_contain_every_value_achieving_move():
    T = game_tables("hexapawn")
    for pid in range(T.n_positions):
        legal = T.legal(pid)
        if not legal:
            continue
        vals = [int(T.value[T.succ[pid, m]]) for m in legal]
        best = max(vals) if T.player[pid] == 1 else min(vals)
        assert T.optimal_moves(pid) == [m for m, v in zip(legal, vals, strict=True) if v == best]
