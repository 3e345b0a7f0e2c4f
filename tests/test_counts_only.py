"""Training that keeps counts, not games: the same games, memory flat in their number."""

from __future__ import annotations

import numpy as np
import pytest

from menace_lib.experiments import make_agent
from menace_lib.play.learning_curve import train_with_curve
from menace_lib.play.loop import Tally, TrainingLog, counts_only
from menace_lib.play.training import train


@pytest.mark.parametrize(
    ("kind", "params"),
    [
        ("menace", {}),
        ("menace", {"restock": "none", "empty_box": "stop"}),
        ("hybrid", {"lam": 0.5}),
        ("qlearning", {}),
    ],
)
def test_counts_only_training_plays_the_same_games(kind: str, params: dict) -> None:
    full, counted = make_agent(kind, **params), make_agent(kind, **params)
    log = train(full, "mixed", 120, np.random.default_rng(5))
    tally = train(counted, "mixed", 120, np.random.default_rng(5), record=False)
    assert tally.counting and not log.counting
    assert len(tally) == len(log) and tally.rates() == log.rates()
    assert tally.counts() == tuple(log.results.count(r) for r in range(3))
    assert tally.stopped_early == log.stopped_early
    assert counted.to_dict() == full.to_dict()  # the agent learnt the same
    with pytest.raises(TypeError, match="record=True"):
        list(tally.results)
    with pytest.raises(TypeError, match="record=True"):
        tally.cumulative_rate()


def test_a_counts_only_curve_matches_the_recorded_one() -> None:
    marks = [20, 60]
    blocks = [("random", 30), ("perfect", 30)]
    a, b = make_agent("menace"), make_agent("menace")
    full = train_with_curve(a, blocks, np.random.default_rng(1), marks)
    counted = train_with_curve(b, blocks, np.random.default_rng(1), marks, record=False)
    assert counted.rates == full.rates and counted.log.rates() == full.log.rates()
    assert counted.log.counting


def test_tally_columns() -> None:
    t = Tally()
    t.extend([0, 1, 1])
    t += Tally()
    other = Tally()
    other.append(2)
    t.extend(other)
    assert len(t) == 4 and t.counts == {0: 1, 1: 2, 2: 1} and t.last == 2
    with counts_only():
        log = TrainingLog()
    log.opponents = ["random"] * 3  # a fast loop fills a column in one go: still a tally
    assert isinstance(log.opponents, Tally) and log.opponents.counts == {"random": 3}
    assert isinstance(TrainingLog().results, list)  # outside the block: lists
