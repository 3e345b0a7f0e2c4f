"""Recorded episodes and bead histories."""

import numpy as np
import pytest

from menace_lib.games.statespace import tables
from menace_lib.machine.menace import LOSS, Menace, MenaceConfig
from menace_lib.play.episodes import bead_history, play_episode
from menace_lib.play.training import train


def _check_update(episode, agent):
    delta = agent.config.reinforcement[episode.result]
    assert episode.reinforcement == delta
    for step in episode.boxed_steps:
        for j, (b, a) in enumerate(zip(step.before, step.after, strict=True)):
            if j == step.colour:
                assert a == max(b + delta, 0.0)
            else:
                assert a == b


@pytest.mark.parametrize("seed", range(8))
def test_after_is_before_plus_delta_on_drawn_colours(seed):
    agent = Menace(MenaceConfig(restock="none"))
    episode = play_episode(agent, "random", np.random.default_rng(seed))
    _check_update(episode, agent)
    for step in episode.boxed_steps:
        assert list(step.after) == agent.weights[step.box]


def test_clamped_at_zero_after_losses():
    # One bead per colour: a loss takes the drawn colour to 0, never below.
    config = MenaceConfig(schedule=(1,), reinforcement=(3, 1, -2), restock="none")
    agent = Menace(config)
    rng = np.random.default_rng(5)
    clamped = 0
    for _ in range(40):
        episode = play_episode(agent, "perfect", rng)
        _check_update(episode, agent)
        if episode.result == LOSS:
            clamped += sum(s.after[s.colour] == 0.0 for s in episode.boxed_steps)
    assert clamped > 0


def test_episode_is_a_legal_game_and_consistent():
    T = tables()
    agent = Menace()
    episode = play_episode(agent, "defensive", np.random.default_rng(11))
    s = 0
    menace_steps = iter(episode.steps)
    for square in episode.moves:
        if T.player[s] == agent.config.player:
            step = next(menace_steps)
            assert step.pid == s and step.square == square
            assert tuple(T.cells[s]) == step.board
            if step.box >= 0:
                assert step.colour_squares[step.colour] == square
        s = int(T.succ[s, square])
    assert s == episode.final_pid
    assert agent.result[s] == episode.result


def test_no_learning_keeps_the_agent():
    agent = Menace()
    before = [list(w) for w in agent.weights]
    episode = play_episode(agent, "random", np.random.default_rng(2), learn=False)
    assert agent.weights == before
    assert all(s.after == s.before for s in episode.steps)


def test_rejects_learners_without_matchboxes():
    with pytest.raises(ValueError, match="MENACE"):
        play_episode(object(), "random", np.random.default_rng(0))


def test_bead_history_replays_training():
    config = MenaceConfig()
    agent = Menace(config)
    log = train(agent, "mixed", 300, np.random.default_rng(4))
    history = bead_history(config, log, box=0)
    assert history.shape == (301, len(agent.weights[0]))
    assert list(history[0]) == agent.initial[0]
    assert list(history[-1]) == agent.weights[0]
    # The opening box changes by the reinforcement of each game's result, on one colour.
    steps = np.diff(history, axis=0)
    assert np.all((steps != 0).sum(axis=1) <= 1)
    with pytest.raises(ValueError, match="box"):
        bead_history(config, log, box=10_000)
