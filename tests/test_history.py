"""The historical record (menace_lib.book.history) and Michie's computer MENACE
(menace_lib.agents.pegasus): exact values, the rule, files, and slices of the cached study."""

from __future__ import annotations

import json
from fractions import Fraction
from pathlib import Path

import numpy as np
import pytest

import menace_lib as ml
from menace_lib.agents.pegasus import MIN_WEIGHT, PegasusConfig, PegasusMenace
from menace_lib.agents.registry import get_kind
from menace_lib.base.files import AgentFileError
from menace_lib.base.reproducibility import assert_same_numbers
from menace_lib.book import history
from menace_lib.games.results import DRAW_RESULT, LOSS, WIN

DATA = Path(__file__).resolve().parents[1] / "book" / "data" / "history.json"


@pytest.fixture(scope="module")
def stored():
    return json.loads(DATA.read_text(encoding="utf-8"))


def test_random_play_bias_is_exact(stored):
    r = history.random_play_outcome()
    assert r == {
        "first": Fraction(737, 1260),
        "draw": Fraction(8, 63),
        "second": Fraction(121, 420),
    }
    assert sum(r.values()) == 1
    assert stored["bias"]["first"] == "737/1260" and stored["bias"]["second"] == "121/420"
    assert stored["bias"]["ratio"] == pytest.approx(2.0303030303, abs=1e-9)


def test_best_score_against_random_is_the_stored_one(stored):
    best = history.best_score_vs_random()
    assert 0.99 < best < 1.0
    assert_same_numbers(best, stored["pegasus_sweep"]["best_score"])


# --- the rule -----------------------------------------------------------------------------


def test_a_win_multiplies_the_odds_by_stage_from_the_end():
    agent = PegasusMenace(PegasusConfig(A=6.0, B=1.5, decay=0.5))
    boxes = [b for b, w in enumerate(agent.weights) if len(w) >= 2][:3]
    path = [(b, 0) for b in boxes]  # three moves: stages 6, 7 and 8
    agent.reinforce(path, WIN)
    for k, b in enumerate(boxes):
        w = agent.weights[b]
        multiplier = 6.0 * 1.5 ** (k - 2)  # M_n = A B^(n - 8), n = 6, 7, 8
        assert w[0] == 1.0 and w[1] == pytest.approx(1.0 / multiplier, rel=1e-12)
    assert agent.mu == 0.5  # 0.5 * 0 + 0.5 * 1


def test_the_origin_slides_and_sets_the_sign():
    agent = PegasusMenace(PegasusConfig(A=2.0, B=1.0, decay=0.0))
    b = next(b for b, w in enumerate(agent.weights) if len(w) >= 2)
    agent.reinforce([(b, 0)], WIN)  # mu was 0: odds doubled; now mu = 1
    assert agent.weights[b][1] == 0.5 and agent.mu == 1.0
    agent.reinforce([(b, 0)], DRAW_RESULT)  # a draw is below the origin: the move weakens
    assert agent.weights[b][0] == 1.0 and agent.weights[b][1] == pytest.approx(1.0)
    assert agent.mu == 0.0
    for _ in range(200):
        agent.reinforce([(b, 0)], LOSS)
    assert min(agent.weights[b]) >= MIN_WEIGHT and max(agent.weights[b]) == 1.0


@pytest.mark.parametrize(
    "settings",
    [{"A": 1.0}, {"A": 2.0, "B": 1.2}, {"B": 0.5}, {"decay": 1.0}, {"player": 3}, {"A": "2"}],
)
def test_bad_settings_are_refused_in_one_line(settings):
    with pytest.raises(ValueError) as err:
        PegasusConfig(**settings)
    assert "\n" not in str(err.value)


def test_the_kind_is_registered_and_its_files_round_trip(tmp_path):
    kind = get_kind("pegasus")
    agent = kind.make(kind.build_config(A=4.0, B=1.1))
    assert isinstance(agent, PegasusMenace) and agent.n_boxes == 287
    agent.train_against(ml.make_opponent("random"), 50, np.random.default_rng(0))
    path = agent.save(tmp_path / "pegasus.json")
    back = ml.agents.registry.load_agent(path)
    assert isinstance(back, PegasusMenace)
    assert back.weights == agent.weights and back.mu == agent.mu and back.games_trained == 50
    assert ml.exact_outcome(back, "random") == ml.exact_outcome(agent, "random")
    doc = agent.to_dict()
    doc["weights"] = doc["weights"][:-1]
    with pytest.raises(AgentFileError, match="287"):
        PegasusMenace.from_dict(doc)


# --- slices of the cached study -------------------------------------------------------------


def test_sweep_slice_reruns(stored):
    doc = stored["pegasus_sweep"]
    row = doc["rows"][0]
    fresh = history.pegasus_sweep(A=(row["A"],), B=(row["B"],), seeds=1, games=doc["games"])
    assert_same_numbers(fresh["rows"][0]["scores"][0], row["scores"][0])


def test_selfplay_slice_reruns(stored):
    doc = stored["pegasus_selfplay"][0]
    cfg = PegasusConfig(**doc["config"])
    fresh = history.pegasus_selfplay(cfg, seeds=1, games=doc["marks"][-1], every=doc["marks"][1])
    assert_same_numbers(fresh["x_loss"][0], doc["x_loss"][0])
    assert_same_numbers(fresh["o_loss"][0], doc["o_loss"][0])


def test_milestone_slice_reruns(stored):
    doc = stored["milestones"]
    fresh = history.milestones(opponents=("perfect",), seeds=3, games=doc["games"])
    per_seed = doc["opponents"]["perfect"]["per_seed"]
    got = fresh["opponents"]["perfect"]["per_seed"]
    assert got["corner_only"] == per_seed["corner_only"][:3]
    assert got["draw_game_20"] == per_seed["draw_game_20"][:3]
    assert_same_numbers(got["loss_after"], per_seed["loss_after"][:3])


@pytest.mark.parametrize("option", [["--seeds", "2"], ["--games", "10"], ["--set", "a=1"]])
def test_the_studies_refuse_options_they_do_not_take(option, capsys):
    from menace_lib.cli import main

    status = main(["experiment", "exact-regret", *option])
    err = capsys.readouterr().err
    assert status != 0 and "does not apply to 'exact-regret'" in err
