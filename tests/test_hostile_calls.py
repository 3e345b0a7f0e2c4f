"""Issue 28, library calls: invalid policies, positions, seeds and fractions are refused
at the public entry points; a count at its limit stays there, so an agent always saves."""

import json
import shutil
from pathlib import Path

import numpy as np
import pytest

from menace_lib.agents.registry import load_agent, save_agent
from menace_lib.base.limits import MAX_BEADS
from menace_lib.cli import main
from menace_lib.games.agent import PolicyMatrix
from menace_lib.games.statespace import tables
from menace_lib.machine.menace import Menace
from menace_lib.play.evaluation import exact_outcome
from menace_lib.play.loop import play_game
from menace_lib.play.opponents import make_opponent, mixed_split
from menace_lib.play.training import as_rng, train

DATA = Path(__file__).resolve().parents[1] / "book" / "data"


class Twisted:
    """A frozen agent whose policy matrix has been tampered with."""

    def __init__(self, change):
        self.inner = Menace().frozen_copy()
        self.player = self.inner.player
        self.change = change

    def policy_matrix(self) -> PolicyMatrix:
        P, rows, resign = self.inner.policy_matrix()
        P = P.copy()
        self.change(P, rows)
        return PolicyMatrix(P, rows, resign)


def _first_row(rows):
    return int(np.flatnonzero(rows)[0])


@pytest.mark.parametrize(
    "change",
    [
        lambda P, rows: P.__setitem__(_first_row(rows), np.nan),
        lambda P, rows: P.__setitem__((_first_row(rows), 0), 2.0),
        lambda P, rows: P.__setitem__((_first_row(rows), 0), -0.5),
        lambda P, rows: P.__setitem__(rows, P[rows] * 3),
        lambda P, rows: P.__setitem__(rows, 0.0),
        lambda P, rows: P.__setitem__((rows, slice(None)), 1 / 9 + 0 * P[rows]),  # taken squares
    ],
)
def test_exact_outcome_refuses_a_policy_that_is_not_a_distribution(change):
    with pytest.raises(ValueError, match="not a distribution"):
        exact_outcome(Twisted(change))


def test_exact_outcome_refuses_a_malformed_policy_matrix():
    agent = Twisted(lambda P, rows: None)
    P, rows, resign = agent.inner.policy_matrix()
    agent.policy_matrix = lambda: PolicyMatrix(P[:10], rows, resign)
    with pytest.raises(ValueError, match="matrix"):
        exact_outcome(agent)
    agent.policy_matrix = lambda: PolicyMatrix(P, rows.astype(int), resign)
    with pytest.raises(ValueError, match="agent_rows"):
        exact_outcome(agent)


def test_exact_outcome_refuses_an_opponent_that_is_not_a_distribution():
    class Doubled:
        game = "noughts-and-crosses"

        def distribution(self):
            return make_opponent("random").distribution() * 2

    with pytest.raises(ValueError, match="not a distribution"):
        exact_outcome(Menace().frozen_copy(), Doubled())


@pytest.mark.parametrize("start", [-1, tables().n_positions, 1.0, True, "0"])
def test_play_game_refuses_a_bad_start(start):
    rng = np.random.default_rng(0)
    with pytest.raises(ValueError, match="position id"):
        play_game(make_opponent("random"), make_opponent("random"), rng, start=start)


def test_train_accepts_numpy_seeds_and_refuses_others():
    for seed in (None, 0, 7, np.int64(3), np.random.SeedSequence(5)):
        assert len(train(Menace(), "random", 3, seed)) == 3
    assert len(train(Menace(), "random", 3, np.random.default_rng(1))) == 3
    assert train(Menace(), "mixed", 20, 4).results == train(Menace(), "mixed", 20, 4).results
    for bad in (True, -1, 1.5, "0", [1, "a"], object()):
        with pytest.raises(ValueError, match="rng"):
            as_rng(bad)


@pytest.mark.parametrize(
    "fractions", [(1.5, 0.2), (0.2, 1.1), (0.7, 0.7), (-0.1, 0.2), (np.nan, 0.1), (0.4,)]
)
def test_mixed_split_refuses_fractions_outside_zero_to_one(fractions):
    with pytest.raises(ValueError, match="fractions"):
        mixed_split(100, fractions)


def test_mixed_split_keeps_the_thesis_split():
    assert mixed_split(500) == (200, 100, 200)
    assert mixed_split(10, (0.5, 0.5)) == (5, 5, 0)
    assert mixed_split(10, (0.0, 1.0)) == (1, 9, 0)


@pytest.mark.parametrize("kind", ["hybrid", "instrumental", "forgetful"])
def test_an_agent_at_the_count_limit_still_saves_after_training(tmp_path, kind):
    from menace_lib.experiments.suite import make_agent

    agent = make_agent(kind, opponent_alpha=MAX_BEADS)
    train(agent, "mixed", 30, 0)
    save_agent(agent, tmp_path / "a.json")
    again = load_agent(tmp_path / "a.json")
    train(again, "mixed", 10, 1)
    save_agent(again, tmp_path / "b.json")


def test_a_menace_at_the_bead_limit_still_saves_after_training(tmp_path):
    from menace_lib.machine.menace import MenaceConfig

    agent = Menace(MenaceConfig(schedule=(MAX_BEADS,) * 4))
    train(agent, "mixed", 50, 0)
    agent.save(tmp_path / "m.json")
    doc = json.loads((tmp_path / "m.json").read_text())
    assert max(max(box["beads"]) for box in doc["boxes"]) == MAX_BEADS


def _as_text(value):
    if isinstance(value, bool):
        return value
    if isinstance(value, (int, float)):
        return str(value)
    if isinstance(value, list):
        return [_as_text(v) for v in value]
    if isinstance(value, dict):
        return {k: v if k == "version" else _as_text(v) for k, v in value.items()}
    return value


@pytest.mark.parametrize("name", ["thesis_results.json", "claims_seeds.json"])
def test_claims_data_with_numbers_as_text_gives_one_line(tmp_path, capsys, name):
    data = tmp_path / "data"
    shutil.copytree(DATA, data)
    path = data / name
    path.write_text(json.dumps(_as_text(json.loads(path.read_text()))))
    assert main(["claims", "--data", str(data)]) == 2
    err = capsys.readouterr().err
    assert err.count("\n") == 1 and "not in their stored form" in err
