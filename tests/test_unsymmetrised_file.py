"""The unsymmetrised MENACE's file format: round trip, and bad fields named."""

import copy

import numpy as np
import pytest

from menace_lib.agents.registry import agent_from_dict, load_agent, save_agent
from menace_lib.agents.unsymmetrised import UnsymmetrisedConfig, UnsymmetrisedMenace
from menace_lib.base.files import AgentFileError
from menace_lib.play.training import train


@pytest.fixture(scope="module")
def trained() -> UnsymmetrisedMenace:
    agent = UnsymmetrisedMenace(UnsymmetrisedConfig(restock="none", schedule=(3, 2)))
    train(agent, "mixed", 60, np.random.default_rng(2))
    return agent


def test_round_trip_through_a_file(trained, tmp_path):
    back = load_agent(save_agent(trained, tmp_path / "u.json"))
    assert back.weights == trained.weights and back.config == trained.config
    assert back.games_trained == 60 and back.to_dict() == trained.to_dict()


def test_only_changed_boxes_are_listed(trained):
    boxes = trained.to_dict()["boxes"]
    assert 0 < len(boxes) < trained.n_boxes
    assert UnsymmetrisedMenace().to_dict()["boxes"] == []


@pytest.mark.parametrize(
    ("edit", "named"),
    [
        (lambda d: d["boxes"][0].update(board="XXXXXXXXX"), "boxes[0].board"),
        (lambda d: d["boxes"].append(copy.deepcopy(d["boxes"][0])), "listed twice"),
        (lambda d: d["boxes"][0].update(beads=[1] * 8), "boxes[0].beads"),
        (lambda d: d["boxes"][0]["beads"].__setitem__(0, -1), "boxes[0].beads[0]"),
        (lambda d: d["config"].update(player="Z"), "config.player"),
        (lambda d: d["config"].update(restock="sometimes"), "config"),
        (lambda d: d.update(extra=1), "unknown field"),
    ],
)
def test_bad_fields_are_named(trained, edit, named):
    data = copy.deepcopy(trained.to_dict())
    edit(data)
    with pytest.raises(AgentFileError, match=named.replace("[", r"\[").replace("]", r"\]")):
        agent_from_dict(data)


def test_a_bead_on_a_taken_square_is_refused(trained):
    data = copy.deepcopy(trained.to_dict())
    box = next(b for b in data["boxes"] if b["board"] != ".........")
    taken = next(i for i, c in enumerate(box["board"]) if c != ".")
    box["beads"][taken] = 1.0
    with pytest.raises(AgentFileError, match="is taken"):
        agent_from_dict(data)
