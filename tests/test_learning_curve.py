"""Exact learning curves during training, and their summaries."""

import numpy as np
import pytest

from menace_lib.machine.menace import Menace, MenaceConfig
from menace_lib.play.evaluation import exact_outcome
from menace_lib.play.learning_curve import area_under, curve_marks, games_to_reach, train_with_curve
from menace_lib.play.opponents import regimen_blocks
from menace_lib.play.training import train


def test_marks_fall_every_n_games_and_end_at_the_total():
    assert curve_marks(25, 10) == [10, 20, 25]
    assert curve_marks(30, 10) == [10, 20, 30]
    assert curve_marks(0, 10) == []
    with pytest.raises(ValueError, match="every"):
        curve_marks(10, 0)


def test_curve_points_are_the_agents_exact_rates_at_each_mark():
    agent = Menace()
    curve = train_with_curve(
        agent,
        regimen_blocks("mixed", 60),
        np.random.default_rng(3),
        [20, 40, 60],
        opponents=("perfect", "random", "defensive"),
    )
    assert curve.games == [20, 40, 60] and len(curve.log) == 60
    for opp in ("perfect", "random", "defensive"):
        final = exact_outcome(agent, opp)
        assert curve.rates[opp]["draw"][-1] == pytest.approx(final["draw"])
        assert sum(curve.rates[opp][r][0] for r in ("win", "draw", "loss")) == pytest.approx(1)
    rows = curve.to_rows()
    assert rows[1]["games"] == 40 and rows[1]["random_win"] == curve.rates["random"]["win"][1]


def test_a_curve_does_not_change_what_the_agent_learns():
    # MENACE's fast loop draws uniforms per call, so compare against training in the
    # same segments without evaluation.
    a, b = Menace(), Menace()
    train_with_curve(a, [("perfect", 50)], np.random.default_rng(7), [25, 50])
    rng = np.random.default_rng(7)
    train(b, [("perfect", 25)], None, rng)
    train(b, [("perfect", 25)], None, rng)
    assert a.to_dict() == b.to_dict()


def test_a_run_that_stops_at_an_empty_box_ends_its_curve():
    agent = Menace(MenaceConfig(restock="none", empty_box="stop"))
    blocks = regimen_blocks("mixed", 500)
    curve = train_with_curve(agent, blocks, np.random.default_rng(0), curve_marks(500, 50))
    assert curve.stopped and curve.games[-1] < 500 and len(curve.log) < 500
    assert curve.to_dict()["stopped"] is True


def test_bad_opponents_and_marks_are_refused():
    with pytest.raises(ValueError, match="unknown opponent .x."):
        train_with_curve(
            Menace(), [("perfect", 5)], np.random.default_rng(0), [5], opponents=("x",)
        )
    with pytest.raises(ValueError, match="marks"):
        train_with_curve(Menace(), [("perfect", 5)], np.random.default_rng(0), [5, 3])


def test_summaries():
    assert games_to_reach([10, 20, 30], [0.5, 0.9, 0.95]) == 20
    assert games_to_reach([10, 20], [0.1, 0.2]) is None
    # A straight line from 0 to 1 over 100 games averages 0.5.
    assert area_under([50, 100], [0.5, 1.0], 100, start=0.0) == pytest.approx(0.5)
    # A curve that stopped at game 50 counts as 0 afterwards.
    assert area_under([50], [1.0], 100, start=1.0) == pytest.approx(0.5)
    # Only the first `horizon` games count.
    assert area_under([100, 200], [1.0, 0.0], 100, start=1.0) == pytest.approx(1.0)
    with pytest.raises(ValueError, match="horizon"):
        area_under([1], [1.0], 0)
