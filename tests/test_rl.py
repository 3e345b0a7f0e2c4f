"""Tests for menace_lib.agents.rl: tabular Q-learning and SARSA as in the thesis's code."""

from __future__ import annotations

import json

import numpy as np
import pytest

from menace_lib.agents import rl
from menace_lib.games.agent import Agent, PolicyMatrix
from menace_lib.games.board import O
from menace_lib.games.statespace import tables
from menace_lib.machine.menace import DRAW_RESULT, LOSS, WIN, AgentFileError
from menace_lib.play.evaluation import exact_outcome
from menace_lib.play.opponents import make_opponent
from menace_lib.play.training import train, validate


@pytest.fixture(scope="module")
def T():
    return tables()


def record(agent, T, board: str, square: int) -> tuple:
    """The record ``act`` would return for playing raw ``square`` in ``board``."""
    pid = T.id_of(board)
    canon_square = rl._lookups(agent.player)["canon_square"][pid][square]
    ends = agent.result[T.succ[pid, square]] >= 0
    return (pid, int(T.canon[pid]), int(canon_square), bool(ends))


# ------------------------------------------------------------------- exploration


def test_epsilon_reaches_its_floor_after_781_games() -> None:
    assert rl.epsilon_after(780) > 0.01
    assert rl.epsilon_after(781) == 0.01
    agent = rl.QLearning()
    for _ in range(781):
        agent.end_game([], DRAW_RESULT)
    assert agent.epsilon == 0.01
    assert agent.games_trained == 781


def test_greedy_ties_go_to_the_last_legal_square(T) -> None:
    agent = rl.Sarsa(epsilon=0.0)
    rng = np.random.default_rng(0)
    square, rec = agent.act(0, rng)  # all Q equal: the last raw square wins
    assert square == 8
    assert rec[1] == 0 and rec[2] == rl._lookups(agent.player)["canon_square"][0][8]
    pid = T.id_of("XO./.../...")
    # Make two squares tie for the best value: the later raw square is played.
    for m in (3, 5):
        agent.q[int(T.canon[pid])][rl._lookups(agent.player)["canon_square"][pid][m]] = 1.0
    assert agent.q_values(pid)[3] == agent.q_values(pid)[5] == 1.0
    assert agent.act(pid, rng)[0] == 5


def test_exploration_draws_uniformly() -> None:
    agent = rl.QLearning(epsilon=1.0)
    rng = np.random.default_rng(1)
    counts = np.bincount([agent.act(0, rng)[0] for _ in range(9000)], minlength=9)
    assert counts.min() > 850 and counts.max() < 1150


# ------------------------------------------------------------------------ updates


def test_q_learning_targets(T) -> None:
    agent = rl.QLearning(learning_rate=0.5, discount=0.9)
    # X4 O1 X0 O2 X8: X wins with its own move.
    game = [(".........", 4), (".O..X....", 0), ("XOO.X....", 8)]
    trajectory = [record(agent, T, board, sq) for board, sq in game]
    assert trajectory[-1][3]  # the agent's last move ends the game
    nxt = trajectory[1][1]
    legal = T.legal(nxt)
    agent.q[nxt][legal[0]] = 0.4  # a bootstrap value for the first update
    agent.end_game(trajectory, WIN)
    c0, a0 = trajectory[0][1], trajectory[0][2]
    c2, a2 = trajectory[2][1], trajectory[2][2]
    assert agent.q[c0][a0] == pytest.approx(0.5 * 0.9 * 0.4)
    assert agent.q[c2][a2] == pytest.approx(0.5 * 1.0)


def test_sarsa_final_pair_rule(T) -> None:
    # X4 O1 X0 O2 X8: the agent's own last move wins, so the last two pairs both
    # receive the reward with no bootstrap; the first bootstraps from Q(s1, a1).
    agent = rl.Sarsa(learning_rate=0.5, discount=0.9)
    game = [(".........", 4), (".O..X....", 0), ("XOO.X....", 8)]
    trajectory = [record(agent, T, board, sq) for board, sq in game]
    (_, c0, a0, _), (_, c1, a1, _), (_, c2, a2, _) = trajectory
    agent.q[c1][a1] = 0.2
    agent.end_game(trajectory, WIN)
    assert agent.q[c0][a0] == pytest.approx(0.5 * 0.9 * 0.2)
    assert agent.q[c1][a1] == pytest.approx(0.2 + 0.5 * (1.0 - 0.2))
    assert agent.q[c2][a2] == pytest.approx(0.5 * 1.0)


def test_sarsa_bootstraps_when_the_opponent_ends_the_game(T) -> None:
    # X0 O4 X8 O2 X5 O6: O completes the diagonal 2-4-6.
    agent = rl.Sarsa(learning_rate=1.0, discount=0.5)
    game = [(".........", 0), ("X...O....", 8), ("X.O.O...X", 5)]
    trajectory = [record(agent, T, board, sq) for board, sq in game]
    assert not trajectory[-1][3]
    (_, c1, a1, _), (_, c2, a2, _) = trajectory[1], trajectory[2]
    agent.q[c2][a2] = 0.8
    agent.end_game(trajectory, LOSS)
    assert agent.q[c1][a1] == pytest.approx(0.5 * 0.8)  # bootstrapped from the old Q
    assert agent.q[c2][a2] == pytest.approx(-1.0)


def test_frozen_copy_keeps_epsilon_and_never_learns() -> None:
    agent = rl.QLearning()
    train(agent, "random", 50, np.random.default_rng(0))
    frozen = agent.frozen_copy()
    assert frozen.epsilon == agent.epsilon < 0.5
    q = [list(row) for row in frozen.q]
    train(frozen, "random", 20, np.random.default_rng(1))
    assert frozen.q == q and frozen.epsilon == agent.epsilon
    assert rl.QLearning(greedy_validation=True).frozen_copy().epsilon == 0.0


# -------------------------------------------------------------------- evaluation


def test_policy_matrix_is_epsilon_greedy(T) -> None:
    agent = rl.Sarsa(epsilon=0.1)
    P, rows, resign = agent.policy_matrix()
    np.testing.assert_allclose(P[rows].sum(axis=1), 1.0)
    assert not resign.any()
    assert P[0, 8] == pytest.approx(0.1 / 9 + 0.9)  # ties: the last square
    assert P[0, 0] == pytest.approx(0.1 / 9)
    # A sampled check of the same distribution in a mid-game position.
    pid = T.id_of("XO./.../...")
    rng = np.random.default_rng(3)
    counts = np.bincount([agent.act(pid, rng)[0] for _ in range(4000)], minlength=9)
    np.testing.assert_allclose(counts / 4000, P[pid], atol=0.02)


@pytest.mark.parametrize("cls", [rl.QLearning, rl.Sarsa])
def test_learns_to_draw_against_perfect_after_training_on_random(cls) -> None:
    agent = cls()
    log = train(agent, "random", 5000, np.random.default_rng(0))
    assert agent.epsilon == 0.01
    assert log.rates()["win"] > 0.8
    outcome = exact_outcome(agent)
    assert outcome["draw"] > 0.9
    assert validate(agent, 100, np.random.default_rng(1))["draw"] > 0.85


def test_plays_as_o() -> None:
    agent = rl.QLearning(player=O)
    train(agent, "random", 200, np.random.default_rng(0))
    assert sum(exact_outcome(agent, "random").values()) == pytest.approx(1.0)


def test_names_and_configs() -> None:
    assert rl.QLearning().name == "Q-learning"
    assert rl.Sarsa().name == "SARSA"
    data = rl.Sarsa(learning_rate=0.3).to_dict()
    assert data["format"] == "menace_lib.rl.sarsa" and data["config"]["learning_rate"] == 0.3
    json.dumps(data)
    config = rl.RLConfig(epsilon=0.1)
    assert rl.QLearning(config).config is config and rl.QLearning(config).epsilon == 0.1
    with pytest.raises(TypeError, match="RLConfig"):
        rl.QLearning(0.5)
    with pytest.raises(TypeError, match="not both"):
        rl.QLearning(config, epsilon=0.2)


@pytest.mark.parametrize(
    ("kwargs", "message"),
    [
        ({"learning_rate": 0.0}, "learning_rate"),
        ({"learning_rate": 1.5}, "learning_rate"),
        ({"discount": -0.1}, "discount"),
        ({"discount": 1.01}, "discount"),
        ({"epsilon": 1.2}, "epsilon"),
        ({"epsilon": float("nan")}, "epsilon"),
        ({"min_epsilon": -0.5}, "min_epsilon"),
        ({"epsilon_decay": 2.0}, "epsilon_decay"),
        ({"q_init": float("inf")}, "q_init"),
        ({"rewards": (1.0, 0.5)}, "rewards"),
        ({"player": 3}, "player"),
        ({"rewards": "abc"}, "rewards"),
        ({"greedy_validation": "yes"}, "greedy_validation"),
    ],
)
def test_bad_parameters_raise(kwargs: dict, message: str) -> None:
    with pytest.raises(ValueError, match=message):
        rl.QLearning(**kwargs)


def test_end_game_rejects_bad_result() -> None:
    with pytest.raises(ValueError, match="result"):
        rl.Sarsa().end_game([], 5)


# ---------------------------------------------------------------- agent interface


@pytest.mark.parametrize("cls", [rl.QLearning, rl.Sarsa])
def test_satisfies_the_agent_protocol_and_trains_against_an_opponent(cls) -> None:
    agent = cls(player=O)
    assert isinstance(agent, Agent) and isinstance(agent.policy_matrix(), PolicyMatrix)
    log = agent.train_against(make_opponent("random"), 30, np.random.default_rng(0))
    assert len(log) == 30 and len(log.paths) == 30 and agent.games_trained == 30
    twin = cls(player=O)
    again = train(twin, "random", 30, np.random.default_rng(0))
    assert again.results == log.results and twin.q == agent.q
    quiet = agent.train_against(make_opponent("random"), 5, np.random.default_rng(1), record=False)
    assert quiet.paths == [] and len(quiet) == 5
    with pytest.raises(ValueError, match="games"):
        agent.train_against(make_opponent("random"), -2, np.random.default_rng(0))


@pytest.mark.parametrize("cls", [rl.QLearning, rl.Sarsa])
def test_save_and_load_give_the_same_agent(cls) -> None:
    agent = cls(learning_rate=0.3, rewards=(2.0, 0.0, -2.0), greedy_validation=True)
    train(agent, "mixed", 300, np.random.default_rng(2))
    data = json.loads(json.dumps(agent.to_dict()))
    twin = cls.from_dict(data)
    assert twin.to_dict() == data and twin.q == agent.q and twin.epsilon == agent.epsilon
    for mine, theirs in zip(agent.policy_matrix(), twin.policy_matrix(), strict=True):
        np.testing.assert_array_equal(mine, theirs)
    a = train(agent, "random", 50, np.random.default_rng(4))
    b = train(twin, "random", 50, np.random.default_rng(4))
    assert a.results == b.results and agent.q == twin.q
    assert cls.from_dict(agent.frozen_copy().to_dict()).epsilon == 0.0


@pytest.mark.parametrize(
    ("change", "field"),
    [
        (lambda d: d.update(format="menace_lib.rl.other"), "format"),
        (lambda d: d.update(version=9), "version"),
        (lambda d: d.update(extra=1), "unknown field"),
        (lambda d: d["config"].update(discount=2), "config[.:] ?discount"),
        (lambda d: d["config"].update(rewards=[1, 2]), "config[.:] ?rewards"),
        (lambda d: d.update(epsilon=1.5), "epsilon"),
        (lambda d: d.update(games_trained=1.5), "games_trained"),
        (lambda d: d.update(frozen=0), "frozen"),
        (lambda d: d.update(q={}), "q: must be a list"),
        (lambda d: d["q"][0].update(board="XO./.X./..O"), r"q\[0\].board"),
        (lambda d: d["q"][0].update(values=[0.0] * 8), r"q\[0\].values"),
        (lambda d: d["q"][0].update(values=["a"] * 9), r"q\[0\].values"),
        (lambda d: d["q"].append(d["q"][0]), r"q\[\d+\].board"),
    ],
)
def test_loading_a_bad_file_names_the_field(change, field: str) -> None:
    agent = rl.QLearning()
    train(agent, "random", 20, np.random.default_rng(0))
    data = json.loads(json.dumps(agent.to_dict()))
    change(data)
    with pytest.raises(AgentFileError, match=field):
        rl.QLearning.from_dict(data)
