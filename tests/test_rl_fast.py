"""The Q-learning and SARSA fast loop against the generic one, over the option grid.

:func:`menace_lib.agents.rl.train_td_fast` is a deliberate copy of
:func:`menace_lib.play.loop.play_games` with the agents' ``act`` and ``end_game`` inlined.
Each case trains two identical agents from the same seed -- one through the fast loop,
one through the generic loop -- and demands the same games, the same Q table (to the
bit: both do the same float operations in the same order), the same ε and the same
generator state afterwards.
"""

from __future__ import annotations

import itertools

import numpy as np
import pytest

from menace_lib.agents.rl import QLearning, RLConfig, Sarsa, train_td_fast
from menace_lib.games.board import O, X
from menace_lib.play.loop import play_games
from menace_lib.play.opponents import make_opponent

OPPONENTS = [
    ("random", "lowest"),
    ("defensive", "lowest"),
    ("defensive-text", "lowest"),
    ("positional", "lowest"),
    ("perfect", "lowest"),
    ("perfect", "uniform"),
    ("perfect", "priority"),
]
CONFIGS = {
    "reference": {},
    "greedy ties": {"epsilon": 0.0, "q_init": 0.25},
    "always explore": {"epsilon": 1.0, "epsilon_decay": 1.0},
    "fast decay": {"epsilon_decay": 0.5, "min_epsilon": 0.2, "learning_rate": 1.0},
    "no discount": {"discount": 0.0, "rewards": (2.0, -0.5, -3.0), "q_init": -1.0},
    "greedy validation": {"greedy_validation": True, "discount": 0.5},
}


def _pair(cls, config: RLConfig):
    return cls(config), cls(config)


def _same(fast_log, slow_log, fast, slow, rng_fast, rng_slow) -> None:
    assert fast_log.results == slow_log.results
    assert fast_log.paths == slow_log.paths
    assert fast_log.moves == slow_log.moves
    assert fast_log.opponents == slow_log.opponents
    assert fast_log.resigned == slow_log.resigned
    assert fast_log.stopped_early == slow_log.stopped_early
    assert fast.q == slow.q  # floats to the bit: the same operations in the same order
    assert fast.epsilon == slow.epsilon
    assert fast.games_trained == slow.games_trained
    assert rng_fast.bit_generator.state == rng_slow.bit_generator.state


@pytest.mark.parametrize("cls", [QLearning, Sarsa])
@pytest.mark.parametrize("player", [X, O])
@pytest.mark.parametrize("config", CONFIGS.values(), ids=CONFIGS.keys())
def test_fast_loop_matches_generic_loop(cls, player, config) -> None:
    for (name, tie_break), seed in zip(OPPONENTS, itertools.count(), strict=False):
        opponent = make_opponent(name, tie_break)
        fast, slow = _pair(cls, RLConfig(player=player, **config))
        rng_fast, rng_slow = np.random.default_rng(seed), np.random.default_rng(seed)
        fast_log = train_td_fast(fast, opponent, 30, rng_fast)
        slow_log = play_games(slow, opponent, 30, rng_slow)
        _same(fast_log, slow_log, fast, slow, rng_fast, rng_slow)
        # ... and a frozen copy validates alike, without records
        frozen_fast, frozen_slow = fast.frozen_copy(), slow.frozen_copy()
        fast_log = train_td_fast(frozen_fast, opponent, 20, rng_fast, record=False)
        slow_log = play_games(frozen_slow, opponent, 20, rng_slow, record=False)
        _same(fast_log, slow_log, frozen_fast, frozen_slow, rng_fast, rng_slow)
        assert fast_log.paths == [] and frozen_fast.q == fast.q


@pytest.mark.parametrize("cls", [QLearning, Sarsa])
def test_train_against_uses_the_fast_loop_and_learns(cls) -> None:
    agent, twin = cls(), cls()
    opponent = make_opponent("random")
    log = agent.train_against(opponent, 300, np.random.default_rng(3))
    assert log.results == play_games(twin, opponent, 300, np.random.default_rng(3)).results
    assert agent.q == twin.q and any(v != 0.0 for row in agent.q for v in row)
    with pytest.raises(ValueError, match="games"):
        agent.train_against(opponent, -1, np.random.default_rng(0))
