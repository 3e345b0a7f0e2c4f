"""Q-learning and SARSA on every game of the game layer: Hexapawn and Connect-4 4x4.

The TD agents read only the game's tables, so the same classes learn any game:
the fast loop plays the generic loop's games, exact evaluation reads their policy,
they learn (Black wins Hexapawn against the perfect White once it has learnt), and
their files round-trip with the game named. On noughts and crosses the file carries
no ``game`` field, exactly as before other games existed.
"""

from __future__ import annotations

import json

import numpy as np
import pytest

from menace_lib.agents.registry import agent_from_dict
from menace_lib.agents.rl import QLearning, RLConfig, Sarsa, train_td_fast
from menace_lib.base.files import AgentFileError
from menace_lib.base.reproducibility import assert_same_numbers
from menace_lib.games.registry import game_tables
from menace_lib.play.evaluation import exact_outcome
from menace_lib.play.loop import play_games
from menace_lib.play.opponents import make_opponent

GAMES = ("hexapawn", "connect4:4x4")


@pytest.mark.parametrize("game", GAMES)
@pytest.mark.parametrize("cls", [QLearning, Sarsa])
@pytest.mark.parametrize("player", [1, 2])
def test_fast_loop_plays_the_generic_loops_games(game: str, cls, player: int) -> None:
    config = RLConfig(game=game, player=player, epsilon=0.3, epsilon_decay=0.99)
    fast, slow = cls(config), cls(config)
    opponent = make_opponent("random", game=game)
    rng_fast, rng_slow = np.random.default_rng(3), np.random.default_rng(3)
    games = 60 if game == "hexapawn" else 15
    fast_log = train_td_fast(fast, opponent, games, rng_fast)
    slow_log = play_games(slow, opponent, games, rng_slow)
    assert fast_log.results == slow_log.results
    assert fast_log.moves == slow_log.moves
    assert fast.q == slow.q
    assert fast.epsilon == slow.epsilon
    assert rng_fast.random() == rng_slow.random()


@pytest.mark.parametrize("game", GAMES)
def test_moves_are_legal_and_the_policy_is_a_distribution(game: str) -> None:
    T = game_tables(game)
    agent = Sarsa(game=game, player=2)
    log = agent.train_against(make_opponent("random", game=game), 30, np.random.default_rng(0))
    for moves in log.moves:
        for pid, move in moves:
            assert T.succ[pid, move] >= 0 and T.player[pid] == 2
    P, rows, resign = agent.policy_matrix()
    assert P.shape == (T.n_positions, T.succ.shape[1])
    assert np.all(P[~(T.succ >= 0)] == 0)
    assert_same_numbers(P[rows].sum(axis=1), np.ones(int(rows.sum())))
    assert not resign.any()


@pytest.mark.parametrize("cls", [QLearning, Sarsa])
def test_black_learns_to_win_hexapawn_against_the_perfect_white(cls) -> None:
    """Hexapawn is a second-player win; a greedy TD learner finds the winning line."""
    agent = cls(game="hexapawn", player=2, greedy_validation=True)
    before = exact_outcome(agent.frozen_copy(), "perfect")["win"]
    agent.train_against(make_opponent("perfect", game="hexapawn"), 300, np.random.default_rng(0))
    after = exact_outcome(agent.frozen_copy(), "perfect")
    assert before < 1.0
    assert after["win"] == 1.0


def test_q_learning_improves_on_connect4_4x4_against_random() -> None:
    agent = QLearning(game="connect4:4x4", greedy_validation=True)
    opponent = make_opponent("random", game="connect4:4x4")
    before = exact_outcome(agent.frozen_copy(), opponent)["win"]
    agent.train_against(opponent, 400, np.random.default_rng(1), record=False)
    assert exact_outcome(agent.frozen_copy(), opponent)["win"] > before


@pytest.mark.parametrize("game", GAMES)
def test_files_round_trip_and_name_the_game(game: str) -> None:
    agent = QLearning(game=game, player=2)
    agent.train_against(make_opponent("random", game=game), 20, np.random.default_rng(2))
    data = json.loads(json.dumps(agent.to_dict()))
    assert data["config"]["game"] == game
    again = agent_from_dict(data)
    assert again.game == game and again.q == agent.q and again.to_dict() == data


def test_noughts_and_crosses_files_carry_no_game_field() -> None:
    data = QLearning().to_dict()
    assert "game" not in data["config"]
    assert agent_from_dict(data).game == "noughts-and-crosses"


def test_a_row_of_another_game_is_refused() -> None:
    data = QLearning(game="hexapawn", player=2).to_dict()
    data["q"] = [{"board": "X........", "values": [0.0] * 27}]
    with pytest.raises(AgentFileError, match=r"q\[0\]\.board.*hexapawn"):
        agent_from_dict(data)
    agent = QLearning(game="hexapawn", player=2)
    agent.train_against(make_opponent("random", game="hexapawn"), 5, np.random.default_rng(0))
    data = agent.to_dict()
    data["q"] = [{"board": data["q"][0]["board"], "values": [0.0] * 9}]
    with pytest.raises(AgentFileError, match=r"q\[0\]\.values: must list 27"):
        agent_from_dict(data)


def test_an_opponent_of_another_game_is_refused() -> None:
    agent = QLearning(game="hexapawn")
    with pytest.raises(ValueError, match="noughts-and-crosses, not hexapawn"):
        train_td_fast(agent, make_opponent("random"), 1, np.random.default_rng(0))


def test_an_unknown_game_is_refused() -> None:
    with pytest.raises(ValueError, match="unknown game"):
        RLConfig(game="chess")


def test_train_and_evaluate_q_learning_on_hexapawn_at_the_command_line(tmp_path, capsys) -> None:
    from menace_lib.cli import main

    out = tmp_path / "q.json"
    argv = ["train", "qlearning", "--game", "hexapawn", "--games", "50", "--output", str(out)]
    assert main([*argv, "--json"]) == 0
    summary = json.loads(capsys.readouterr().out)
    assert summary["games"] == 50
    saved = json.loads(out.read_text())
    assert saved["config"]["game"] == "hexapawn" and saved["config"]["player"] == "O"
    assert main(["evaluate", str(out), "--game", "hexapawn", "--json"]) == 0
    rates = json.loads(capsys.readouterr().out)
    agent = agent_from_dict(saved)
    assert rates == exact_outcome(agent, make_opponent("perfect", "uniform", game="hexapawn"))
    assert main(["train", "pure", "--game", "hexapawn", "--output", str(out)]) == 2
    assert "menace, instrumental, hybrid, forgetful, qlearning, sarsa do" in capsys.readouterr().err
