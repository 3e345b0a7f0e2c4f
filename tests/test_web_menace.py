"""The web MENACE set-up and the book's cached curves."""

from pathlib import Path

import numpy as np
import pytest

from menace_lib.agents import web
from menace_lib.base.reproducibility import assert_same_numbers
from menace_lib.machine.menace import Menace
from menace_lib.play.loop import DRAW_RESULT
from menace_lib.play.opponents import make_opponent

CACHE = Path(__file__).resolve().parent.parent / "book" / "data" / "web_menace.json"


def test_web_config_is_the_web_page_machine():
    agent = Menace(web.WEB_CONFIG)
    assert agent.n_boxes == 304
    assert agent.weights[0] == [8.0, 8.0, 8.0]  # corner, edge, centre
    assert web.WEB_CONFIG.reinforcement == (3.0, 1.0, -1.0)


def test_web_rule_stops_only_at_an_empty_opening_box():
    agent = Menace(web.WEB_CONFIG)
    agent.weights[0] = [0.0, 0.0, 0.0]
    log = agent.train_against(make_opponent("perfect"), 5, np.random.default_rng(0))
    assert log.stopped_early and len(log) == 0
    resigner = Menace(web.with_rule("resign"))
    resigner.weights[0] = [0.0, 0.0, 0.0]
    log = resigner.train_against(make_opponent("perfect"), 5, np.random.default_rng(0))
    assert not log.stopped_early and log.results == [2] * 5 and all(log.resigned)


def test_curve_counts_games_and_runs():
    curve = web.web_curve(runs=4, games=50, seed=3, windows=((0, 25), (25, 50)))
    assert curve["playing"].max() <= 4 and len(curve["draw"]) == 50
    assert set(curve["exact"]) == {25, 50} and 0 <= curve["stopped"] <= 4
    assert np.all((curve["draw"] >= 0) & (curve["draw"] <= 1))


@pytest.mark.golden
def test_book_cache_is_current():
    """The cached comparison is what the library computes now (a stale cache fails)."""
    cached = web.read_comparison(CACHE)
    settings = {"runs": 100, "games": 200, "seed": 0}
    fresh = web.comparison(**settings)
    for label, curve in fresh.items():
        assert_same_numbers(cached[label]["draw"], curve["draw"], label)
        assert cached[label]["stopped"] == curve["stopped"]
        assert_same_numbers(cached[label]["exact"], curve["exact"], label)
    web_rule, resign = (cached[k] for k in list(web.RULES)[:2])
    assert web_rule["stopped"] > 0 and resign["stopped"] == 0
    # Stopping keeps the still-playing machines near the web page's plateau; resigning
    # at an empty opening box keeps losing and caps the draw rate lower.
    assert web_rule["draw"][150:].mean() > resign["draw"][150:].mean() + 0.05


def test_draw_result_code_is_the_one_counted():
    assert DRAW_RESULT == 1
