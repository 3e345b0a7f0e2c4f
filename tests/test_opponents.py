"""Scripted opponents and curricula."""

import numpy as np
import pytest

from menace_lib.games.board import CENTRE, X, parse_board, winning_squares
from menace_lib.games.game import FIRST_WIN, SECOND_WIN
from menace_lib.games.statespace import ONGOING, tables
from menace_lib.play.opponents import make_opponent, mixed_split, perfect_move, regimen_blocks

T = tables()
LIVE = [p for p in range(T.n_positions) if T.outcome[p] == ONGOING]


def test_mixed_split_matches_the_thesis():
    assert mixed_split(500) == (200, 100, 200)
    assert sum(mixed_split(7)) == 7
    assert regimen_blocks("mixed", 500) == [("random", 200), ("defensive", 100), ("perfect", 200)]
    assert regimen_blocks("optimal", 10) == [("perfect", 10)]


def test_distributions_are_probabilities_over_legal_moves():
    for name in ("random", "defensive", "defensive-text", "positional", "perfect"):
        dist = make_opponent(name).distribution()
        live = dist[LIVE]
        assert np.allclose(live.sum(axis=1), 1.0)
        assert np.all((live > 0) <= (T.succ[LIVE] >= 0))


@pytest.mark.parametrize("tie", ["lowest", "uniform", "priority"])
def test_perfect_player_only_plays_optimal_moves(tie):
    opp = make_opponent("perfect", tie)
    for p in LIVE:
        assert set(opp.choices[p]) <= set(T.optimal_moves(p))
    if tie == "uniform":
        assert all(list(opp.choices[p]) == T.optimal_moves(p) for p in LIVE)


def test_tie_breaks_differ_on_the_empty_board():
    assert perfect_move(0, "lowest") == 0
    assert perfect_move(0, "priority") == CENTRE
    rng = np.random.default_rng(0)
    assert {perfect_move(0, "uniform", rng) for _ in range(200)} == set(range(9))


def test_defensive_blocks_the_first_threat():
    pid = T.id_of("XX./O../...")
    assert make_opponent("defensive").choices[pid] == (2,)
    quiet = T.id_of("X........")
    assert make_opponent("defensive").choices[quiet] == tuple(T.legal(quiet))
    assert make_opponent("defensive-text").choices[quiet] == (CENTRE,)


def test_defensive_always_blocks_when_it_can():
    opp = make_opponent("defensive")
    for p in LIVE:
        other = X if T.player[p] != X else 2
        threats = winning_squares(T.position(p), other)
        if threats:
            assert opp.choices[p] == (threats[0],)


def test_positional_prefers_centre_then_corners():
    opp = make_opponent("positional")
    assert opp.choices[0] == (CENTRE,)
    assert opp.choices[T.id_of(parse_board("....X...."))] == (0, 2, 6, 8)


def test_unknown_names_are_rejected():
    with pytest.raises(ValueError, match="unknown opponent"):
        make_opponent("grandmaster")
    with pytest.raises(ValueError, match="unknown tie-break"):
        make_opponent("perfect", "coin")
    with pytest.raises(ValueError, match="unknown regimen"):
        regimen_blocks("marathon", 10)


def one_ply_rule(T, pid: int) -> list[int]:
    """The human-like rule position by position (the test's own statement of it): one ply of
    lookahead: a winning move, else the moves after which the other side
    cannot win at once, else every legal move."""
    me = int(T.player[pid])
    mine, theirs = (FIRST_WIN, SECOND_WIN) if me == 1 else (SECOND_WIN, FIRST_WIN)
    legal = T.legal(pid)
    wins = [m for m in legal if T.outcome[T.succ[pid, m]] == mine]
    if wins:
        return wins

    def gives_a_win(m: int) -> bool:
        child = int(T.succ[pid, m])
        if T.is_terminal(child):
            return False
        return any(T.outcome[T.succ[child, r]] == theirs for r in T.legal(child))

    safe = [m for m in legal if not gives_a_win(m)]
    return safe or legal


@pytest.mark.parametrize(
    ("game", "step"), [("hexapawn", 1), ("connect4:3x3/3", 1), ("connect4:4x4", 97)]
)
def test_human_like_player_is_the_one_ply_rule_at_every_position(game, step):
    """The human-like player is built for a whole game in array passes; position by position
    it is the rule itself (take a win, else avoid handing one over, else any move). Every
    position of the small games, every 97th of Connect-4 4x4's 161,029 (the loop costs
    seconds there; the passes treat every position alike)."""
    from menace_lib.games.registry import game_tables

    G = game_tables(game)
    player = make_opponent("human-like", "lowest", game=game)
    for p in range(0, G.n_positions, step):
        rule = () if G.is_terminal(p) else tuple(one_ply_rule(G, p))
        assert player.choices[p] == rule, (game, p)
