"""The MENACE lab in a real Jupyter kernel: Python drives it, the front end receives it.

The cells run in a fresh IPython kernel (nbclient). The widget talks to the front end
over comms; nbclient records the last state of every widget model, which is what a
browser in JupyterLab would have received through the synced traits.
"""

import pytest

from menace_lib.widgets.lab_games import LabSession, LabSettings

CELLS = [
    "from menace_lib.widgets import LabWidget",
    "lab = LabWidget(seed=3, opponent='menace', speed=4)\nlab.play(150)\nlab",
    "lab.opponent = 'defensive'\nlab.play(50)",
    "print(lab.games, lab.revision, lab.agent().games_trained)",
]


@pytest.fixture(scope="module")
def executed():
    import nbformat
    from nbclient import NotebookClient

    nb = nbformat.v4.new_notebook()
    nb.cells = [nbformat.v4.new_code_cell(src) for src in CELLS]
    client = NotebookClient(nb, timeout=180, kernel_name="python3", store_widget_state=True)
    try:
        client.execute()
    except Exception as err:  # pragma: no cover - no kernel on this machine
        if "No such kernel" in str(err):
            pytest.skip(f"no python3 Jupyter kernel: {err}")
        raise
    return nb


def _lab_state(nb) -> dict:
    state = nb.metadata["widgets"]["application/vnd.jupyter.widget-state+json"]["state"]
    (lab,) = [m["state"] for m in state.values() if "state_settings" in m.get("state", {})]
    return lab


def test_the_lab_is_displayed(executed):
    views = [
        o
        for o in executed.cells[1].get("outputs", [])
        if "application/vnd.jupyter.widget-view+json" in o.get("data", {})
    ]
    assert len(views) == 1


def test_front_end_receives_the_games_python_played(executed):
    lab = _lab_state(executed)
    reference = LabSession(LabSettings(seed=3, opponent="menace"))
    reference.play(150)
    reference.settings = reference.settings.replace(opponent="defensive")
    reference.play(50)
    state = reference.state()
    assert lab["games"] == 200 and lab["opponent"] == "defensive" and lab["speed"] == 4
    assert lab["beads"] == state["beads"] and lab["position"] == state["position"]
    assert lab["tally"] == state["tally"]
    assert lab["state_settings"]["opponent"] == "defensive"
    assert lab["revision"] == 3  # play, the opponent change, play: the page reloads each time
    assert lab["exact"]["games"] == 200 and 0 <= lab["exact"]["draw"] <= 1
    assert lab["data"]["n"] == 5478, "the browser needs the game tables"
    assert "export default" in lab["_esm"]
    assert executed.cells[-1].outputs[0]["text"].split() == ["200", "3", "200"]
