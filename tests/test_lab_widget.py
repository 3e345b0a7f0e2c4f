"""The MENACE lab widget's Python side: payload, validation and the live-kernel API.

The browser's behaviour is tested in node (tests/test_lab_js.py) and headless Chromium
(tests/browser/test_lab_browser.py); here the traits a kernel sees and sets.
"""

from __future__ import annotations

import json

import pytest

from menace_lib.machine.menace import Menace
from menace_lib.widgets import LabWidget, _bundle
from menace_lib.widgets.lab_data import lab_data
from menace_lib.widgets.lab_games import LabSession, LabSettings

PAYLOAD_LIMIT = 120_000  # bytes of JSON in the `data` trait: the page must load fast


def test_bundle_is_self_contained():
    source = _bundle.bundle("lab.js")
    assert "export default" in source
    assert "import {" not in source
    modules = (
        "lab_engine.js",
        "lab_session.js",
        "lab_tables.js",
        "lab_exact.js",
        "lab_plot.js",
        "lab_boxes.js",
    )
    for module in (*modules, "prng.js", "beads.js"):
        assert f"inlined from {module}" in source


def test_payload_is_small():
    size = len(json.dumps(lab_data()))
    assert size < PAYLOAD_LIMIT, f"data trait is {size} bytes"


def test_defaults_are_the_pages_first_experiment():
    lab = LabWidget()
    assert lab.settings == LabSettings()
    assert (lab.opponent, lab.tie_break, lab.side) == ("perfect", "uniform", "X")
    assert (lab.bead_layout, lab.filter) == ("class", "decision")
    assert lab.layout.__class__.__name__ == "Layout"  # ipywidgets' own trait, untouched
    assert lab.schedule == [4, 3, 2, 1] and lab.reinforcement == [3, 1, -1]
    assert lab.games == 0 and lab.beads == [] and lab.revision == 0


@pytest.mark.parametrize(
    "kwargs, message",
    [
        ({"opponent": "alien"}, "opponent"),
        ({"side": "Z"}, "side"),
        ({"tie_break": "coin"}, "tie_break"),
        ({"layout": "hex"}, "layout"),
        ({"filter": "none"}, "filter"),
        ({"restock": "later"}, "restock"),
        ({"empty_box": "cry"}, "empty_box"),
        ({"schedule": (4, -1)}, "schedule"),
        ({"reinforcement": (3, 1)}, "reinforcement"),
        ({"floor": 1.0, "move_restock_beads": 0.5}, "move_restock_beads"),
        ({"seed": -1}, "seed"),
        ({"seed": 2**32}, "seed"),
        ({"colour": "red"}, "unknown setting"),
    ],
)
def test_bad_settings_are_refused(kwargs, message):
    with pytest.raises(ValueError, match=message):
        LabWidget(**kwargs)


def test_bad_trait_values_are_refused():
    lab = LabWidget()
    with pytest.raises(Exception, match="opponent"):
        lab.opponent = "alien"
    with pytest.raises(Exception, match="speed"):
        lab.speed = 9
    assert lab.opponent == "perfect" and lab.speed == 3


def test_play_is_the_library_session():
    lab = LabWidget(seed=4, opponent="menace")
    assert lab.play(120) == 120
    reference = LabSession(LabSettings(seed=4, opponent="menace"))
    reference.play(120)
    state = reference.state()
    assert lab.beads == state["beads"] and lab.beads2 == state["beads2"]
    assert lab.position == state["position"] and lab.tally == state["tally"]
    assert lab.exact["draw"] == pytest.approx(reference.exact()["draw"], abs=1e-12)
    assert lab.revision == 1
    # Continuing from the stored state plays the games a straight run would.
    lab.play(30)
    reference.play(30)
    assert lab.beads == reference.state()["beads"]


def test_python_setting_changes():
    lab = LabWidget(seed=2)
    lab.play(40)
    lab.opponent = "random"  # a rule: MENACE keeps its beads
    assert lab.games == 40 and lab.revision == 2
    lab.bead_layout = "square"  # the boxes change: MENACE starts afresh
    assert lab.games == 0 and lab.revision == 3
    assert len(lab.beads) == 304 and len(lab.beads[0]) == 9
    assert lab.state_settings == lab.settings.to_dict()


def test_browser_changes_are_not_applied_twice():
    """A change from the front end arrives with its state; Python leaves it alone."""
    lab = LabWidget(seed=2)
    session = LabSession(LabSettings(seed=2, opponent="random"))
    session.play(10)
    settings = session.settings.to_dict()
    traits = {("bead_layout" if k == "layout" else k): v for k, v in settings.items()}
    lab.set_state({**traits, **session.state(), "state_settings": settings})
    assert lab.revision == 0 and lab.games == 10 and lab.opponent == "random"
    assert lab.beads == session.state()["beads"]


def test_human_opponent_is_browser_only():
    lab = LabWidget(opponent="human")
    with pytest.raises(ValueError, match="browser"):
        lab.play(1)


def test_export_and_load_agent(tmp_path):
    lab = LabWidget(side="O", layout="square", opponent="random", seed=9)
    lab.play(75)
    path = tmp_path / "menace.json"
    lab.export_agent(path)
    agent = Menace.load(path)
    assert agent.weights == [[float(x) for x in w] for w in lab.beads]
    assert agent.config == lab.settings.config("O") and agent.games_trained == 75

    other = LabWidget()
    other.load_agent(path)
    assert (other.side, other.bead_layout) == ("O", "square")
    assert (other.games, other.games_before) == (0, 75)
    assert other.beads == lab.beads
    assert other.agent().games_trained == 75
    with pytest.raises(ValueError, match="which"):
        other.agent(3)


def test_reset_starts_the_stream_again():
    lab = LabWidget(seed=6)
    lab.play(20)
    first = lab.beads
    lab.reset()
    assert lab.games == 0 and lab.position == 0
    lab.play(20)
    assert lab.beads == first


def test_text_form_reports_settings_and_results():
    """Before a notebook runs (or without JavaScript) the lab reads as text, not an address."""
    w = LabWidget(opponent="random", seed=3)
    text = w._repr_mimebundle_()[0]["text/plain"]
    assert text == repr(w) and "object at 0x" not in text
    assert "against the random player" in text and "seed 3" in text and "No games" in text
    w.play(12)
    text = repr(w)
    tally = w.tally
    assert f"After 12 games: MENACE won {tally['win']}, drew {tally['draw']}" in text
    assert f"draw {w.exact['draw']:.3f}" in text
