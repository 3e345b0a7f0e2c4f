"""The one skeleton of an agent file (menace_lib.games.agent_file): every kind reads and
writes through it, in one order, and the files stay as they were."""

from __future__ import annotations

import pytest

from menace_lib.agents.aif.config import AIFConfig
from menace_lib.agents.registry import agent_of, load_agent, read_agent, save_agent
from menace_lib.agents.rl import RLConfig
from menace_lib.agents.unsymmetrised import UnsymmetrisedConfig
from menace_lib.base.files import AgentFileError
from menace_lib.base.limits import MAX_FILE_BYTES
from menace_lib.games.agent_file import (
    open_agent_document,
    settings_from_dict,
    settings_to_dict,
)
from menace_lib.machine.menace import Menace, MenaceConfig


def test_settings_are_written_as_the_files_always_had_them():
    assert settings_to_dict(
        MenaceConfig(), omit={"credit": "every", "game": "noughts-and-crosses"}
    ) == {
        "filter": "michie",
        "schedule": [4, 3, 2, 1],
        "reinforcement": [3, 1, -1],
        "restock": "box",
        "empty_box": "resign",
        "layout": "square",
        "player": "X",
        "floor": 0.0,
        "move_restock_beads": None,
    }
    assert list(RLConfig(player=2).to_dict())[-2:] == ["player", "greedy_validation"]
    assert RLConfig(player=2).to_dict()["player"] == "O"
    assert "game" in RLConfig(game="hexapawn").to_dict()
    assert settings_to_dict(UnsymmetrisedConfig()) == {
        "player": "X",
        "schedule": [20],
        "reinforcement": [3, 1, -3],
        "restock": "box",
    }


@pytest.mark.parametrize(
    "config",
    [MenaceConfig(player=2, credit="last"), RLConfig(rewards=(1.0, 0.0, -2.0)), AIFConfig(lam=0.5)],
    ids=lambda c: type(c).__name__,
)
def test_settings_read_back(config):
    tuples = ("schedule", "reinforcement") if isinstance(config, MenaceConfig) else ()
    data = settings_to_dict(config)
    assert settings_from_dict(type(config), data, tuples=tuples) == config


@pytest.mark.parametrize(
    ("data", "message"),
    [
        ([], "must be an object"),
        ({"player": "Z"}, "player must be 'X' or 'O', got 'Z'"),
        ({"colour": 1}, r"unknown field\(s\) \['colour'\]"),
        ({"rewards": "1,0,-1"}, "rewards must be a list of three numbers"),
    ],
)
def test_bad_settings_are_named(data, message):
    with pytest.raises(ValueError, match=message):
        settings_from_dict(RLConfig, data, lists={"rewards": "a list of three numbers"})


def test_the_checks_come_in_one_order():
    """Header, then the game's admission, then the schema, then unknown fields."""
    good = Menace().to_dict()
    seen = []

    def admit(data):
        seen.append("admit")
        raise ValueError("config.game: no such game")

    with pytest.raises(AgentFileError, match="format: expected"):
        open_agent_document({**good, "format": "x"}, "menace_lib.menace", 1, admit=admit)
    assert seen == []
    with pytest.raises(AgentFileError, match="config.game: no such game"):
        open_agent_document({**good, "extra": 1}, "menace_lib.menace", 1, admit=admit)
    with pytest.raises(AgentFileError, match="extra"):  # the schema refuses it first
        open_agent_document({**good, "extra": 1}, "menace_lib.menace", 1)
    with pytest.raises(AgentFileError, match=r"unknown field\(s\) \['extra'\]"):
        open_agent_document({**good, "extra": 1}, "menace_lib.menace", 1, schema=False, keys=good)


def test_one_read_serves_every_caller(tmp_path):
    path = save_agent(Menace(MenaceConfig(game="hexapawn", filter="decision")), tmp_path / "m.json")
    data, game = read_agent(path)
    assert game == "hexapawn" and data["format"] == "menace_lib.menace"
    assert (
        agent_of((data, game)).to_dict()
        == load_agent(path).to_dict()
        == Menace.load(path).to_dict()
    )
    big = tmp_path / "big.json"
    with big.open("wb") as f:  # one byte over the limit, sparse: nothing is written
        f.truncate(MAX_FILE_BYTES + 1)
    with pytest.raises(AgentFileError, match="agent file"):
        read_agent(big)
