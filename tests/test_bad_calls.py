"""Bad library calls: every bad board, square, id, count or value is a ValueError naming it.

A catalogue of the issue's cases and more, plus hypothesis throwing garbage at every
public function that takes a board, a square, a transform or a position id: each
returns a result or raises ``ValueError`` -- never ``KeyError``, ``IndexError``,
``TypeError`` or a silent wrong answer.
"""

import contextlib
import math

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from menace_lib.agents.aif.config import AIFConfig
from menace_lib.agents.rl import RLConfig
from menace_lib.agents.stochastic import StochasticPlayer, tournament
from menace_lib.base.limits import MAX_BEADS, MAX_GAMES, check_count, check_number
from menace_lib.games import board as bd
from menace_lib.games.statespace import tables
from menace_lib.machine.menace import Menace, MenaceConfig
from menace_lib.maths.efe import round_beads
from menace_lib.play.training import train, validate

T = tables()
GOOD = bd.parse_board("X...O....")


def _call(fn, *args, **kwargs):
    return lambda: fn(*args, **kwargs)


CASES = [
    # The cases.
    ("canonical 3", _call(bd.canonical, (3,) + (0,) * 8), "square 0 holds 3"),
    ("legal_moves short", _call(bd.legal_moves, (0, 0, 0)), "expected 9 squares, got 3"),
    ("canonical 8 squares", _call(bd.canonical, (0,) * 8), "expected 9 squares, got 8"),
    ("canonical move -1", _call(bd.to_canonical_move, GOOD, -1), "square -1"),
    ("position id -1", _call(T.position, -1), "position id -1"),
    ("parse 1.5", _call(bd.parse_board, [1.5] + [0] * 8), "square 0 holds 1.5"),
    # Boards.
    ("board None", _call(bd.winner, None), "board None"),
    ("board text", _call(bd.legal_moves, "X........"), "parse_board"),
    ("board 10 squares", _call(bd.to_move, (0,) * 10), "got 10"),
    ("board bools", _call(bd.has_line, (True,) * 9, bd.X), "holds True"),
    ("board -1", _call(bd.is_terminal, (-1,) + (0,) * 8), "holds -1"),
    ("board nested", _call(bd.stabiliser, [[0] * 9]), "got 1"),
    ("board floats", _call(bd.move_classes, np.zeros(9)), "holds"),
    ("board float 1.0", _call(bd.play, (1.0,) + (0,) * 8, 4), "holds 1.0"),
    ("board in validate", _call(bd.validate_board, (0,) * 8), "got 8"),
    ("board to text", _call(bd.board_to_text, (5,) * 9), "holds 5"),
    ("board to grid", _call(bd.board_to_grid, ()), "got 0"),
    ("board id_of short", _call(T.id_of, (0,) * 8), "got 8"),
    ("board id_of text", _call(T.id_of, "XXXX....."), "impossible piece counts"),
    # Squares, transforms, players.
    ("play 9", _call(bd.play, GOOD, 9), "move 9"),
    ("play 2.0", _call(bd.play, GOOD, 2.0), "move 2.0"),
    ("play True", _call(bd.play, GOOD, True), "move True"),
    ("canonical move 9", _call(bd.to_canonical_move, GOOD, 9), "square 9"),
    ("from canonical -3", _call(bd.from_canonical_move, GOOD, -3), "square -3"),
    ("square kind 11", _call(bd.square_kind, 11), "square 11"),
    ("square kind '4'", _call(bd.square_kind, "4"), "square '4'"),
    ("transform 8", _call(bd.transform_board, 8, GOOD), "transform 8"),
    ("transform -1", _call(bd.transform_board, -1, GOOD), "transform -1"),
    ("has_line player 3", _call(bd.has_line, GOOD, 3), "player 3"),
    ("winning squares player 0", _call(bd.winning_squares, GOOD, 0), "player 0"),
    ("player states 1.5", _call(T.player_states, 1.5), "player 1.5"),
    # Position ids.
    ("legal 5478", _call(T.legal, 5478), "position id 5478"),
    ("text -5478", _call(T.text, -5478), "position id -5478"),
    ("optimal 1.0", _call(T.optimal_moves, 1.0), "position id 1.0"),
    ("terminal True", _call(T.is_terminal, True), "position id True"),
    ("move classes None", _call(T.move_classes, None), "position id None"),
    ("menace choose -1", lambda: Menace().choose(-1, np.random.default_rng(0)), "id -1"),
    ("menace box_for 10**9", lambda: Menace().box_for(10**9), "id 1000000000"),
    ("menace distribution -2", lambda: Menace().move_distribution(-2), "id -2"),
    # Values.
    ("round_beads 1e300", _call(round_beads, [1e300, 1]), "MAX_BEADS"),
    ("reward 1e308", _call(MenaceConfig, reinforcement=(1e308, 1, -1)), "reinforcement"),
    ("reward nan", _call(MenaceConfig, reinforcement=(math.nan, 1, -1)), "reinforcement"),
    ("reward 10**400", _call(MenaceConfig, reinforcement=(10**400, 1, -1)), "reinforcement"),
    ("reward string", _call(MenaceConfig, reinforcement="3,1,-1"), "reinforcement"),
    ("schedule 1e13", _call(MenaceConfig, schedule=(1e13,)), "schedule"),
    ("schedule empty", _call(MenaceConfig, schedule=()), "schedule"),
    ("schedule 10 long", _call(MenaceConfig, schedule=(1,) * 10), "schedule"),
    ("schedule below floor", _call(MenaceConfig, schedule=(4, 0.1), floor=0.5), "floor"),
    ("floor inf", _call(MenaceConfig, floor=math.inf), "floor"),
    ("refill below floor", _call(MenaceConfig, floor=1, move_restock_beads=1), "floor"),
    ("player True", _call(MenaceConfig, player=True), "player"),
    ("schedule 0, box restock", _call(Menace, MenaceConfig(schedule=(0,))), "schedule"),
    (
        "schedule 0 at move 3, move restock",
        _call(Menace, MenaceConfig(schedule=(4, 3, 0), restock="move")),
        "boxes with 4 pieces",
    ),
    ("stochastic beads inf", _call(StochasticPlayer, beads=math.inf), "beads"),
    ("stochastic beads 1e13", _call(StochasticPlayer, beads=1e13), "beads"),
    ("stochastic reward 1e9", _call(StochasticPlayer, reinforcement=(1e9, 1, -1)), "reinforcement"),
    ("AIF lam 10**400", lambda: AIFConfig(lam=10**400), "lam"),
    ("AIF bead_scale 1e308", lambda: AIFConfig(bead_scale=1e308), "bead_scale"),
    ("AIF opponent_alpha 1e13", lambda: AIFConfig(opponent_alpha=1e13), "opponent_alpha"),
    ("RL q_init 10**400", lambda: RLConfig(q_init=10**400), "q_init"),
    ("RL rewards 1e308", lambda: RLConfig(rewards=(1e308, 1, -1)), "rewards"),
    # Counts.
    ("train 10**22 games", lambda: train(Menace(), "mixed", 10**22, RNG()), "games"),
    ("train -1 games", lambda: train(Menace(), "mixed", -1, RNG()), "games"),
    ("train 2.5 games", lambda: train(Menace(), "mixed", 2.5, RNG()), "games"),
    ("validate 0 games", lambda: validate(Menace(), 0, RNG()), "games"),
    ("validate 10**20 games", lambda: validate(Menace(), 10**20, RNG()), "games"),
    ("fast loop 10**20", lambda: Menace().train_against(None, 10**20, RNG()), "games"),
    (
        "tournament 10**20 rounds",
        lambda: tournament(StochasticPlayer(), 10**20, 1, RNG()),
        "rounds",
    ),
    ("tournament product", lambda: tournament(PLAYER(), 10**5, 10**5, RNG()), "games"),
]


def RNG():
    return np.random.default_rng(0)


PLAYER = StochasticPlayer


@pytest.mark.parametrize(("name", "call", "names"), CASES, ids=[c[0] for c in CASES])
def test_bad_calls_raise_a_value_error_naming_the_value(name, call, names):
    with pytest.raises(ValueError, match=names.replace("(", r"\(").replace("+", r"\+")):
        call()


def test_good_calls_still_work_with_numpy_values():
    row = T.cells[T.id_of(GOOD)]  # an int8 NumPy row
    assert bd.canonical(row) == bd.canonical(GOOD)
    assert bd.legal_moves(list(row)) == bd.legal_moves(GOOD)
    assert T.position(np.int64(5)) == T.position(5)
    assert bd.play(GOOD, np.int8(2)) == bd.play(GOOD, 2)
    assert Menace().choose(np.int32(0), RNG())[0] in range(9)


def test_the_bead_ceiling_keeps_totals_finite():
    agent = Menace(MenaceConfig(schedule=(MAX_BEADS,), reinforcement=(1e6, 1e6, 1e6)))
    box = agent.box_of[0]
    for _ in range(3):
        agent.reinforce([(box, 0)], 0)
    assert agent.weights[box][0] == MAX_BEADS
    assert math.isfinite(agent.total_beads())


def test_check_count_and_check_number():
    assert check_count("games", np.int64(5), MAX_GAMES) == 5
    for bad in (-1, MAX_GAMES + 1, 2.0, True, "3", None):
        with pytest.raises(ValueError, match="games"):
            check_count("games", bad, MAX_GAMES)
    assert check_number("x", np.float32(0.5), minimum=0) == 0.5
    for bad in (math.nan, math.inf, 10**400, "1", True, None, 1 + 2j):
        with pytest.raises(ValueError, match="x must"):
            check_number("x", bad)


# --- garbage thrown at every board function ------------------------------------------

garbage = st.one_of(
    st.none(),
    st.booleans(),
    st.integers(-(10**20), 10**20),
    st.floats(allow_nan=True, allow_infinity=True),
    st.text(max_size=12),
    st.lists(st.integers(-3, 5) | st.floats() | st.booleans() | st.none(), max_size=11),
    st.tuples(*[st.integers(-1, 3)] * 9),
    st.builds(np.array, st.lists(st.integers(-2, 4), min_size=9, max_size=9)),
)

BOARD_FUNCTIONS = [
    bd.canonical,
    bd.canonical_transform,
    bd.legal_moves,
    bd.is_terminal,
    bd.to_move,
    bd.winner,
    bd.stabiliser,
    bd.move_classes,
    bd.move_class_representatives,
    bd.board_to_text,
    bd.board_to_grid,
    bd.validate_board,
    bd.parse_board,
    T.id_of,
]
TWO_ARGUMENT = [
    bd.play,
    bd.to_canonical_move,
    bd.from_canonical_move,
    bd.has_line,
    bd.winning_squares,
    lambda s, b: bd.transform_board(s, b),
]
ID_FUNCTIONS = [T.position, T.text, T.legal, T.optimal_moves, T.is_terminal, T.move_classes]


def returns_or_value_error(fn, *args):
    with contextlib.suppress(ValueError):
        fn(*args)


@settings(max_examples=200, deadline=None)
@given(value=garbage)
def test_board_functions_return_or_raise_value_error(value):
    for fn in BOARD_FUNCTIONS:
        returns_or_value_error(fn, value)
    for fn in ID_FUNCTIONS:
        returns_or_value_error(fn, value)


@settings(max_examples=200, deadline=None)
@given(board=garbage | st.sampled_from([GOOD, bd.EMPTY_BOARD]), other=garbage)
def test_two_argument_functions_return_or_raise_value_error(board, other):
    for fn in TWO_ARGUMENT:
        returns_or_value_error(fn, board, other)
