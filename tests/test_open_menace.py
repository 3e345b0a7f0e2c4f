"""MENACE beyond enumeration (menace_lib.agents.open_menace): boxes on first visit, a box limit,
computable opponents and sampled evaluation that agrees with the exact one on 4×4."""

from __future__ import annotations

import numpy as np
import pytest

from menace_lib.agents import open_menace as om
from menace_lib.games.connect4 import ConnectFour
from menace_lib.machine.menace import MenaceConfig
from menace_lib.play.evaluation import exact_outcome
from menace_lib.play.opponents import make_opponent


def board_after(rules: om.Rules, columns: list[int]) -> om.Board:
    board: om.Board = (0, 0)
    for i, c in enumerate(columns):
        board = rules.play(board, c, i % 2 == 0)
    return board


def test_sampled_and_exact_evaluation_agree_on_4x4():
    game = ConnectFour(4, 4)
    agent = om.OpenMenace(game)
    om.train_open(agent, om.random_player, 1000, np.random.default_rng(1))
    sampled = om.sampled_outcome(agent, om.random_player, 3000, np.random.default_rng(2))
    exact = exact_outcome(
        om.to_menace(agent).frozen_copy(), make_opponent("random", game=game.name)
    )
    for name, p in exact.items():
        assert sampled[name]["low"] <= p <= sampled[name]["high"], name


def test_boxes_are_made_on_first_visit_and_shared_by_mirror_images():
    agent = om.OpenMenace(ConnectFour(7, 6))
    rules = agent.rules
    b1, cols1 = agent.box(board_after(rules, [0, 1]), 2)
    b2, cols2 = agent.box(board_after(rules, [6, 5]), 2)  # the mirror image
    assert b1 == b2 and len(agent.index) == 1
    assert cols2 == [6 - c for c in cols1]
    assert agent.weights[b1] == [3.0] * 7  # move 2 of Michie's 4-3-2-1


def test_the_box_limit_stops_a_run_with_one_line():
    agent = om.OpenMenace(ConnectFour(7, 6), max_boxes=50)
    with pytest.raises(om.BoxLimitError, match=r"^box limit 50 reached after \d+ games"):
        om.train_open(agent, om.random_player, 100, np.random.default_rng(0))
    assert len(agent.index) == 50


def test_win_or_block_wins_first_and_blocks_second():
    rules = om.Rules(ConnectFour(7, 6))
    rng = np.random.default_rng(0)
    # first player has three in column 1 and may win there
    board = board_after(rules, [0, 1, 0, 1, 0, 1])
    assert om.win_or_block(rules, board, True, rng) == 0
    # second player to move must block column 1 (first threatens it); it cannot win
    board = board_after(rules, [0, 1, 0, 1, 0])
    assert om.win_or_block(rules, board, False, rng) == 0


def test_a_searcher_wins_blocks_and_makes_a_double_threat():
    rules = om.Rules(ConnectFour(7, 6))
    rng = np.random.default_rng(0)
    win_now = board_after(rules, [3, 0, 4, 0, 5, 0])  # first to move: 2 or 6 wins
    assert om.searcher(1)(rules, win_now, True, rng) in (2, 6)
    threat = board_after(rules, [0, 1, 0, 1, 0])  # second to move: the first column must be blocked
    assert om.searcher(2)(rules, threat, False, rng) == 0
    # first to move with 3 and 4 on the bottom row, the second player on 6: only 2 makes
    # two threats at once (1 and 5), which wins two moves later
    setup = board_after(rules, [3, 6, 4, 6])
    assert om.searcher(3)(rules, setup, True, rng) == 2


def test_bad_settings_are_refused():
    game = ConnectFour(7, 6)
    with pytest.raises(ValueError, match="max_boxes 0: expected 1 to"):
        om.OpenMenace(game, max_boxes=0)
    config = MenaceConfig(filter="decision", restock="none", empty_box="stop")
    with pytest.raises(ValueError, match="empty_box 'stop'"):
        om.OpenMenace(game, config)


@pytest.mark.parametrize(
    ("size", "sample"), [((4, 3, 3), None), ((3, 4, 3), None), ((4, 4, 4), 12_000)]
)
def test_scalar_rules_agree_with_the_tables(size, sample):
    """``Rules`` (one position at a time) is a copy of the rules the tables are built with.

    Checked on every position of two small boards, and on a seeded sample of 4×4 (all
    161,029 take about 20 s): its code, legal moves, each child, who has a line, and the
    canonical mirror image, against the tables (themselves equal to the generic enumerator's).
    """
    from menace_lib.games.connect4 import Bitboards, cached_tables
    from menace_lib.games.game import FIRST, FIRST_WIN, ONGOING, SECOND_WIN

    game = ConnectFour(*size)
    tables, rules = cached_tables(game), om.Rules(game)
    firsts, masks = Bitboards(game).split(np.asarray(tables.codes))
    codes, succ, outcome = tables.codes.tolist(), tables.succ.tolist(), tables.outcome.tolist()
    canon, flip = tables.canon.tolist(), tables.canon_transform.tolist()
    ids = range(len(codes))
    if sample:
        ids = np.random.default_rng(2025).choice(len(codes), sample, replace=False).tolist()
    firsts, masks = firsts.tolist(), masks.tolist()
    for i in ids:
        first, mask = firsts[i], masks[i]
        board = (first, mask)
        assert rules.code(board) == codes[i]
        assert rules.has_line(first) == (outcome[i] == FIRST_WIN)
        assert rules.has_line(first ^ mask) == (outcome[i] == SECOND_WIN)
        assert rules.canonical(board) == (codes[canon[i]], bool(flip[i]))
        if outcome[i] != ONGOING:
            continue
        assert rules.legal(mask) == [c for c, kid in enumerate(succ[i]) if kid >= 0]
        mover_first = int(tables.player[i]) == FIRST
        for c in rules.legal(mask):
            assert rules.code(rules.play(board, c, mover_first)) == codes[succ[i][c]]
