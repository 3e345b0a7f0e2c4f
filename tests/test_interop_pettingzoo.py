"""Into the field: every agent kind plays PettingZoo, and the mapping holds on every position."""

from __future__ import annotations

import numpy as np
import pytest

pytest.importorskip("pettingzoo")
pytest.importorskip("shimmy")
pytest.importorskip("pyspiel")

from pettingzoo.classic import connect_four_v3, rps_v2, tictactoe_v3  # noqa: E402
from pettingzoo.test import api_test  # noqa: E402

import menace_lib as ml  # noqa: E402
from menace_lib.agents.registry import agent_kinds, make_agent  # noqa: E402
from menace_lib.games.connect4 import ConnectFour  # noqa: E402
from menace_lib.interop.bridges import PETTINGZOO_BRIDGES, pz_square  # noqa: E402
from menace_lib.interop.pettingzoo import (  # noqa: E402
    PettingZooPolicy,
    hexapawn_env,
    openspiel_env,
    play_pettingzoo,
)


def _paths(T) -> list[list[int]]:
    """Moves from the start to every position (through its first parent, ply by ply)."""
    paths: list[list[int] | None] = [None] * T.n_positions
    paths[0] = []
    for i in np.argsort(T.ply, kind="stable").tolist():
        for m in T.legal(i):
            child = int(T.succ[i, m])
            if paths[child] is None:
                paths[child] = [*paths[i], m]
    return paths


def test_tictactoe_v3_maps_every_position_and_move():
    T = ml.game_tables("noughts-and-crosses")
    bridge = PETTINGZOO_BRIDGES["tictactoe_v3"]
    env = tictactoe_v3.raw_env()
    for pid, path in enumerate(_paths(T)):
        env.reset()
        for m in path:
            env.step(bridge.action(m))
        side = int(T.player[pid])
        name = env.possible_agents[side - 1]
        obs = env.observe(name)
        assert bridge.position(obs, side) == T.position(pid), T.text(pid)
        if not T.is_terminal(pid):
            assert env.agent_selection == name
            legal = sorted(bridge.move(a) for a in np.flatnonzero(obs["action_mask"]))
            assert legal == T.legal(pid)


def test_pettingzoo_numbers_cells_column_by_column():
    assert [pz_square(a) for a in range(9)] == [0, 3, 6, 1, 4, 7, 2, 5, 8]
    assert all(pz_square(pz_square(a)) == a for a in range(9))
    with pytest.raises(ValueError, match="cell 9: tic-tac-toe cells run from 0 to 8"):
        pz_square(9)


def test_connect_four_v3_maps_positions_on_the_7x6_board():
    game = ConnectFour(7, 6)
    bridge = PETTINGZOO_BRIDGES["connect_four_v3"]
    rng = np.random.default_rng(0)
    env = connect_four_v3.raw_env()
    for _ in range(20):
        env.reset()
        position = game.start()
        while True:
            side = game.to_move(position)
            name = env.possible_agents[side - 1]
            assert bridge.position(env.observe(name), side) == position
            if env.terminations[name]:
                break
            legal = [bridge.move(a) for a in np.flatnonzero(env.observe(name)["action_mask"])]
            assert legal == game.legal_moves(position)
            m = int(rng.choice(legal))
            env.step(bridge.action(m))
            position = game.play(position, m)
            if game.result(position):
                assert all(env.terminations.values())
                break


def test_a_saved_agent_plays_a_full_game_in_three_lines(tmp_path):
    menace = ml.Menace()
    ml.train(menace, "mixed", 200, np.random.default_rng(0))
    path = ml.save_agent(menace, tmp_path / "menace.json")
    # The three lines of the README:
    from pettingzoo.classic import tictactoe_v3 as ttt

    import menace_lib as ml2

    game = ml2.interop.play_pettingzoo(ml2.load_agent(path), ttt.env(), seed=0)
    assert game["result"] in ("win", "draw", "loss")
    assert len(game["actions"]) >= 5 and not game["resigned"]


@pytest.mark.parametrize("kind", sorted(agent_kinds()))
def test_every_agent_kind_plays_tictactoe_v3(kind):
    try:
        agent = make_agent(kind)
    except (TypeError, ValueError):  # a kind that trains itself (self-play) saves as MENACE
        agent = ml.Menace()
    for seed in range(3):
        game = play_pettingzoo(agent, tictactoe_v3.env(), seed=seed)
        assert game["result"] in ("win", "draw", "loss")
        rewards = game["rewards"]
        if not game["resigned"]:
            assert sorted(rewards) == ["player_1", "player_2"]
            assert rewards["player_1"] == -rewards["player_2"]


def _library_game(first, second, game: str, rng) -> list[int]:
    T = ml.game_tables(game)
    players = {1: first, 2: second}
    pid, moves = 0, []
    while not T.is_terminal(pid):
        m, _ = players[int(T.player[pid])].act(pid, rng)
        moves.append(m)
        pid = int(T.succ[pid, m])
    return moves


@pytest.mark.parametrize(
    ("env_of", "game"),
    [
        (tictactoe_v3.env, "noughts-and-crosses"),
        (lambda: openspiel_env("tic_tac_toe"), "noughts-and-crosses"),
        (lambda: openspiel_env("connect_four", {"rows": 4, "columns": 4}), "connect4:4x4"),
        (hexapawn_env, "hexapawn"),
    ],
)
def test_perfect_play_in_pettingzoo_is_the_librarys_game(env_of, game):
    perfect = ml.make_opponent("perfect", "lowest", game=game)
    env = env_of()
    result = play_pettingzoo(perfect, env, perfect, seed=0)
    bridge = ml.interop.bridges.pettingzoo_bridge(env, game)
    moves = [bridge.move(a) for a in result["actions"]]
    assert moves == _library_game(perfect, perfect, game, np.random.default_rng(0))
    value = int(ml.game_tables(game).value[0])  # the first player's minimax value
    assert result["result"] == {1: "win", 0: "draw", -1: "loss"}[value]


def test_a_trained_menace_in_pettingzoo_scores_as_the_librarys_exact_evaluation():
    agent = ml.Menace()
    ml.train(agent, "mixed", 500, np.random.default_rng(0))
    frozen = agent.frozen_copy()
    random = ml.make_opponent("random")
    exact = ml.exact_outcome(frozen, random)
    games = [play_pettingzoo(frozen, tictactoe_v3.env(), random, seed=s) for s in range(300)]
    for result in ("win", "draw", "loss"):
        share = sum(g["result"] == result for g in games) / len(games)
        # Seeded, so the same every run; the bound is four standard errors.
        bound = 4 * np.sqrt(exact[result] * (1 - exact[result]) / len(games)) + 1e-9
        assert abs(share - exact[result]) <= bound, (result, share, exact)


def test_hexapawn_and_openspiel_environments_pass_pettingzoos_api_test():
    api_test(hexapawn_env(), num_cycles=50)
    api_test(openspiel_env("connect_four", {"rows": 4, "columns": 4}), num_cycles=50)


def test_an_openspiel_loaded_game_plays_through_shimmy():
    name = ml.interop.spiel_game("tic_tac_toe").name
    agent = ml.Menace(ml.MenaceConfig(game=name, filter="decision"))
    game = play_pettingzoo(agent, openspiel_env("tic_tac_toe"), seed=1)
    assert game["result"] in ("win", "draw", "loss")


def test_a_game_the_agent_does_not_play_is_refused_in_one_line():
    c4 = ml.Menace(ml.MenaceConfig(game="connect4:4x4", filter="decision"))
    with pytest.raises(
        ValueError, match="connect_four_v3 plays connect4:7x6; this agent plays connect4:4x4"
    ):
        PettingZooPolicy(c4, connect_four_v3.env())
    with pytest.raises(
        ValueError, match="tictactoe_v3 plays noughts-and-crosses; this agent plays hexapawn"
    ):
        PettingZooPolicy(ml.make_opponent("random", game="hexapawn"), tictactoe_v3.env())
    with pytest.raises(ValueError, match="rps_v2: not a game the library knows"):
        PettingZooPolicy(ml.Menace(), rps_v2.env())
    with pytest.raises(
        ValueError, match="connect_four.*plays connect4:5x4; this agent plays connect4:4x4"
    ):
        PettingZooPolicy(c4, openspiel_env("connect_four", {"rows": 4, "columns": 5}))
    with pytest.raises(ValueError, match="side 3: expected 1"):
        PettingZooPolicy(ml.Menace(), tictactoe_v3.env(), side=3)


def test_an_agent_of_the_second_side_plays_o_and_black():
    o = ml.Menace(ml.MenaceConfig(player=2))
    ml.train(o, "mixed", 300, np.random.default_rng(2))
    perfect_x = ml.make_opponent("perfect", "uniform")
    exact = ml.exact_outcome(o.frozen_copy(), perfect_x)
    for seed in range(3):
        game = play_pettingzoo(o.frozen_copy(), tictactoe_v3.env(), perfect_x, seed=seed)
        assert game["result"] != "win" and exact["win"] == 0.0
        assert sorted(game["rewards"]) == ["player_1", "player_2"]
    her = ml.Menace(ml.MenaceConfig(game="hexapawn", player=2, filter="decision"))
    her.train_against(ml.make_opponent("perfect", game="hexapawn"), 1000, np.random.default_rng(0))
    frozen = her.frozen_copy()
    assert ml.exact_outcome(frozen, "perfect")["win"] > 0.99  # HER has learnt to win
    game = play_pettingzoo(frozen, hexapawn_env(), ml.make_opponent("perfect", game="hexapawn"))
    assert game["result"] == "win"
