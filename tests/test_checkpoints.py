"""The play widget's frozen checkpoints."""

import copy
import json

import pytest

from menace_lib.machine.menace import AgentFileError
from menace_lib.play.checkpoints import (
    DEFAULT_PATH,
    checkpoint_games,
    load_checkpoints,
    parse_checkpoints,
    write_checkpoints,
)

GAMES = (25, 100, 1000, 5000)


@pytest.fixture(scope="module")
def committed() -> dict:
    return json.loads(DEFAULT_PATH.read_text())


def test_regenerating_from_the_seed_reproduces_the_committed_file(tmp_path):
    path = write_checkpoints(0, tmp_path / "checkpoints.json")
    assert path.read_bytes() == DEFAULT_PATH.read_bytes()


def test_committed_file_has_the_agreed_layout(committed):
    assert committed["format"] == "menace_lib.checkpoints" and committed["version"] == 1
    assert committed["seed"] == 0 and "5,000 games" in committed["recipe"]
    for side in ("X", "O"):
        assert list(committed[side]) == [str(g) for g in GAMES]


def test_load_checkpoints_gives_frozen_class_layout_agents():
    agents = load_checkpoints()
    assert checkpoint_games() == GAMES
    for side, player in (("X", 1), ("O", 2)):
        assert sorted(agents[side]) == list(GAMES)
        for games, agent in agents[side].items():
            assert agent.frozen and agent.games_trained == games
            assert agent.config.layout == "class" and agent.config.player == player
    # Learning moved beads: the last checkpoint differs from the first.
    assert agents["X"][25].weights != agents["X"][5000].weights


@pytest.mark.parametrize(
    ("corrupt", "field"),
    [
        (lambda d: d.update(format="something.else"), "format"),
        (lambda d: d.update(version=2), "version"),
        (lambda d: d.update(seed=-3), "seed"),
        (lambda d: d.pop("recipe"), "recipe"),
        (lambda d: d.pop("O"), "O"),
        (lambda d: d["X"].update({"many": d["X"]["25"]}), "X['many']"),
        (lambda d: d["X"]["1000"].update(version=9), "X['1000'].version"),
        (
            lambda d: d["X"]["25"]["boxes"][3]["beads"].__setitem__(0, -1),
            "X['25'].boxes[3].beads[0]",
        ),
        (lambda d: d["X"]["100"]["boxes"].pop(), "X['100'].boxes"),
        (lambda d: d.update(O=d["X"]), "O['25'].config.player"),
        (lambda d: d.update(X={}), "X: {} should be non-empty"),
    ],
)
def test_corrupt_documents_are_rejected_naming_the_field(committed, corrupt, field):
    doc = copy.deepcopy(committed)
    corrupt(doc)
    with pytest.raises(AgentFileError) as err:
        parse_checkpoints(doc)
    assert field in str(err.value)


def test_unreadable_files_are_rejected(tmp_path):
    with pytest.raises(AgentFileError, match="cannot read"):
        load_checkpoints(tmp_path / "missing.json")
    bad = tmp_path / "bad.json"
    bad.write_text('{"format": NaN}')
    with pytest.raises(AgentFileError, match="not valid JSON"):
        load_checkpoints(bad)
    bad.write_text("[1, 2]")
    with pytest.raises(AgentFileError, match="top level"):
        load_checkpoints(bad)


def test_write_checkpoints_rejects_a_bad_seed(tmp_path):
    with pytest.raises(ValueError, match="seed"):
        write_checkpoints(-1, tmp_path / "x.json")
