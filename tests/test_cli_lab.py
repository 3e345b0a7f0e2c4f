"""``python -m menace_lib lab``: the lab's games from a seed, for any game the lab shows."""

from __future__ import annotations

import json

import pytest

from menace_lib.cli import main
from menace_lib.cli.output import output_schema
from menace_lib.widgets.lab_games import LabSession, lab_settings


def run_json(capsys, *argv: str) -> dict:
    assert main(["lab", *argv, "--json"]) == 0
    return json.loads(capsys.readouterr().out)


def test_hexapawn_plays_hers_games_as_the_python_lab(capsys):
    out = run_json(capsys, "--game", "hexapawn", "--games", "40", "--seed", "3")
    session = LabSession(lab_settings("hexapawn", seed=3))
    assert session.play(40) == out["games"] == 40
    assert out["tally"] == session.tally and out["tally"]["draw"] == 0
    exact = session.exact(record=False)
    assert out["exact"] == {k: exact[k] for k in ("win", "draw", "loss", "win_random")}
    assert session.settings.credit == "last" and session.settings.side == "O"
    jsonschema = pytest.importorskip("jsonschema")
    jsonschema.validate(out, output_schema("lab"))


def test_michies_rule_and_noughts_and_crosses(capsys):
    gardner = run_json(capsys, "--game", "hexapawn", "--games", "30")
    michie = run_json(capsys, "--game", "hexapawn", "--rule", "michie", "--games", "30")
    assert gardner["exact"] != michie["exact"]
    noughts = run_json(capsys, "--games", "5", "--opponent", "random")
    assert noughts["game"] == "noughts-and-crosses" and sum(noughts["tally"].values()) == 5


@pytest.mark.parametrize(
    ("argv", "message"),
    [
        (["--game", "connect4:4x4"], "invalid choice: 'connect4:4x4'"),
        (["--game", "hexapawn", "--opponent", "defensive"], "unknown opponent 'defensive'"),
        (["--rule", "michie"], "--rule applies to --game hexapawn"),
        (["--opponent", "human"], "the reader plays in the browser"),
    ],
)
def test_a_game_or_option_the_lab_cannot_show_is_one_line(capsys, argv, message):
    assert main(["lab", *argv]) == 2
    err = capsys.readouterr().err
    assert message in err and err.count("\n") == 1
