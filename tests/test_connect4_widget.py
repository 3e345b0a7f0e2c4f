"""The Connect-4 widget: its data, its JavaScript against the library, its Python side.

* The packaged MENACE is what ``scripts/make_connect4_widget.py`` trains, and fits the
  page-weight budget the MENACE lab keeps (``tests/test_lab_widget.py``).
* ``connect4.js`` (run in node) agrees with :mod:`menace_lib.games.connect4` and
  :func:`menace_lib.machine.engine.box_layout` on all 161,029 positions of the 4×4 board: the
  bitboard code, the cells, the result, every child, the canonical code and, where MENACE
  moves, its box, the column each bead colour drops into and the box's beads.
* Whole games: the browser's moves, draws and learning equal the library's (the widget's
  Python methods, which use :class:`~menace_lib.machine.menace.Menace` and its bead rules), for
  the same seeds, with learning on and off.
* Bad synced values are refused on both sides.
"""

from __future__ import annotations

import json
from pathlib import Path

import numpy as np
import pytest
from node_runner import NODE, node_json
from test_lab_widget import PAYLOAD_LIMIT

from menace_lib.base.prng import CounterRng
from menace_lib.base.reproducibility import assert_same_numbers
from menace_lib.games.registry import game_tables
from menace_lib.widgets import _bundle
from menace_lib.widgets.connect4 import Connect4StateError, Connect4Widget
from menace_lib.widgets.connect4_data import (
    DATA_FILE,
    GAME,
    build_data,
    load_data,
    menace_from_data,
    read_data,
)

DRIVER = Path(__file__).parent / "js" / "connect4_driver.mjs"
needs_node = pytest.mark.skipif(NODE is None, reason="node is not installed")


def run_node(job: dict) -> dict:
    return node_json([str(DRIVER)], {"data": load_data(), **job})


# ------------------------------------------------------------------------------- data


def test_payload_fits_the_page_weight_budget():
    size = len(json.dumps(Connect4Widget().data))
    assert size < PAYLOAD_LIMIT, f"data trait is {size} bytes"
    assert DATA_FILE.stat().st_size < PAYLOAD_LIMIT


@pytest.mark.golden
def test_packaged_menace_is_the_scripts():
    assert_same_numbers(build_data(), load_data(), "connect4_4x4.json")


def test_packaged_menace_is_trained():
    data = read_data(DATA_FILE)  # every code checked against the machine's boxes
    assert data == load_data()
    agent = menace_from_data(data)
    assert agent.n_boxes == data["boxes"] == 27_761
    assert agent.games_trained == data["training"]["games"] == 20_000
    changed = sum(w != w0 for w, w0 in zip(agent.weights, agent.initial, strict=True))
    assert changed == len(data["codes"]) > 1000
    # Against the perfect player it draws almost always (stored with the data).
    assert data["exact"]["draw"] > 0.99 and data["exact"]["win"] == 0


def test_bad_data_is_refused(tmp_path):
    good = load_data()
    for doc, message in [
        ({**good, "format": "other"}, "format"),
        ({**good, "codes": [*good["codes"], -1]}, "codes"),
        ({**good, "beads": good["beads"][:-1]}, "beads"),
        ({**good, "codes": [0, *good["codes"][1:]]}, "not a position"),
        ({**good, "codes": [good["codes"][0] + 1, *good["codes"][1:]]}, "code"),
    ]:
        path = tmp_path / "data.json"
        path.write_text(json.dumps(doc), encoding="utf-8")
        with pytest.raises(ValueError, match=message):
            read_data(path)


def test_bundle_is_self_contained():
    source = _bundle.bundle("connect4.js")
    assert "export default" in source and "import {" not in source
    for module in ("common.js", "beads.js", "prng.js"):
        assert f"inlined from {module}" in source


# ------------------------------------------------------------- rules, boxes and beads


def winning_cells(cells: np.ndarray, size: int = 4, line: int = 4) -> list[list[int]]:
    """For each board (a row of ``cells``, row-major from the top), the cells of every
    complete line, ascending. Whole columns of boards at a time: the line-by-line loop
    over 161,029 boards in Python cost more than the JavaScript it checks."""
    cells = np.asarray(cells)
    found = np.zeros(cells.shape, dtype=bool)
    for r in range(size):
        for c in range(size):
            for dr, dc in ((0, 1), (1, 0), (1, 1), (1, -1)):
                run = [(r + dr * k, c + dc * k) for k in range(line)]
                if all(0 <= y < size and 0 <= x < size for y, x in run):
                    idx = [y * size + x for y, x in run]
                    stones = cells[:, idx]
                    full = (stones[:, 0] != 0) & (stones == stones[:, :1]).all(axis=1)
                    found[:, idx] |= full[:, None]
    lines: list[list[int]] = [[] for _ in range(len(cells))]
    for i in np.flatnonzero(found.any(axis=1)).tolist():
        lines[i] = np.flatnonzero(found[i]).tolist()
    return lines


@needs_node
@pytest.mark.slow
def test_javascript_agrees_with_the_library_on_every_position():
    T = game_tables(GAME)
    data = load_data()
    agent = menace_from_data(data)
    js = run_node({"codes": T.codes.tolist()})["positions"]
    assert len(js["code"]) == T.n_positions == 161_029
    assert js["code"] == T.codes.tolist()
    cells = T.cells.tolist()
    assert js["cells"] == ["".join(map(str, row)) for row in cells]
    assert js["result"] == T.outcome.tolist()
    children = np.where(T.succ >= 0, T.codes[np.maximum(T.succ, 0)], -1)
    assert js["children"] == children.tolist()
    assert js["canonical"] == T.codes[T.canon].tolist()
    assert js["win"] == winning_cells(T.cells)  # only a won position has a complete line
    boxes = 0
    for pid, box in enumerate(js["box"]):
        b = agent.raw_box[pid]
        if b < 0:
            assert box is None, pid
            continue
        boxes += 1
        code, columns, beads = box
        assert code == int(T.codes[agent.states[b]]), pid
        assert columns == list(agent.raw_squares[pid]), pid
        assert beads == agent.weights[b], pid
    assert boxes == sum(1 for b in agent.raw_box if b >= 0) > 27_761  # raw positions


# ------------------------------------------------------------------------ whole games


def play_in_python(seed: int, learn: bool, games: int, reader: int) -> tuple[list, dict]:
    """The same games through the widget's Python side (the library's Menace)."""
    T = game_tables(GAME)
    w = Connect4Widget(learn=learn, seed=seed)
    pick = CounterRng(reader)
    played = []
    for _ in range(games):
        w.new_game()
        while not w.result:
            free = T.legal(w.position())
            w.play(free[pick.integers(len(free))])
        played.append({"moves": w.moves, "result": w.result, "path": w.path, "last": w.last})
    state = {
        name: getattr(w, name)
        for name in ("seed", "learn", "moves", "result", "tally", "draws", "learned")
    }
    return played, {**state, "games_learned": w.games_learned, "path": w.path, "last": w.last}


@needs_node
@pytest.mark.parametrize(
    ("seed", "learn", "reader"), [(0, True, 1), (7, True, 2), (3, False, 5), (2**32 - 1, True, 9)]
)
def test_browser_games_are_the_librarys(seed, learn, reader):
    games = 40
    (js,) = run_node({"games": [{"seed": seed, "learn": learn, "games": games, "reader": reader}]})[
        "games"
    ]
    played, state = play_in_python(seed, learn, games, reader)
    assert js["played"] == played
    assert js["state"] == state
    results = {g["result"] for g in played}
    assert "human" in results or "draw" in results  # the reader's random columns do score
    if learn:
        assert state["games_learned"] == games and len(state["learned"]) > 10
        agent = Connect4Widget(learn=True, seed=seed)
        agent.learned, agent.games_learned = state["learned"], state["games_learned"]
        assert agent.menace().games_trained == 20_000 + games
    else:
        assert state["learned"] == {} and state["games_learned"] == 0


# ------------------------------------------------------------------------ bad values


@needs_node
def test_javascript_refuses_damaged_states():
    ok = {
        "seed": 0,
        "learn": False,
        "moves": [0, 1],
        "result": "",
        "tally": {"menace": 0, "draw": 0, "human": 0},
        "draws": 1,
        "learned": {},
        "games_learned": 0,
        "path": [],
        "last": {},
    }
    bad = [
        {**ok, "seed": -1},
        {**ok, "moves": [0, 0, 0, 0, 0]},
        {**ok, "moves": [9]},
        {**ok, "tally": {"menace": 0}},
        {**ok, "result": "nobody"},
        {**ok, "learned": {"33825": [1, 2]}},
        {**ok, "draws": 1.5},
        {**ok, "path": [[33825, 4]]},
        {**ok, "path": [[33825]]},
        {**ok, "last": []},
    ]
    problems = run_node({"states": [ok, *bad]})["states"]
    assert problems[0] == ""
    assert all(problems[1:]), problems


@pytest.mark.parametrize(
    ("name", "value", "message"),
    [
        ("seed", 2**32, "seed"),
        ("seed", True, "seed"),
        ("moves", [0, 0, 0, 0, 0], "moves\\[4\\]"),
        ("moves", "0", "moves"),
        ("result", "nobody", "result"),
        ("tally", {"menace": -1, "draw": 0, "human": 0}, "tally"),
        ("draws", -3, "draws"),
        ("learned", {"12": [1]}, "not a box"),
        ("learned", {"33825": [1, 2]}, "33825"),
        ("path", [[33825, 4]], "path\\[0\\]"),
        ("path", [[12, 0]], "path\\[0\\]"),
        ("path", [["33825", 0]], "path\\[0\\]"),
    ],
)
def test_python_refuses_bad_trait_values(name, value, message):
    w = Connect4Widget()
    with pytest.raises(Connect4StateError, match=message):
        setattr(w, name, value)


def test_python_play_refuses_bad_moves():
    w = Connect4Widget()
    assert w.moves == []  # MENACE opens when the widget is shown, or before the first play
    with pytest.raises(ValueError, match="not free"):
        w.play(4)
    assert len(w.moves) == 1
    w.moves = [0, 0, 0, 0, 1]  # column 1 full, the reader to move
    with pytest.raises(ValueError, match="not free"):
        w.play(0)
    w.moves = [0, 1, 0, 1, 0, 1, 0]  # MENACE has four in column 1
    w.result = "menace"
    with pytest.raises(ValueError, match="over"):
        w.play(2)
    with pytest.raises(Connect4StateError):
        Connect4Widget(seed=-1)


def test_describe_shows_the_board_with_columns_one_to_four():
    w = Connect4Widget(seed=0)
    w.new_game()
    text = w.describe()
    assert "1 2 3 4" in text and "You play O." in text
    assert text.count("X") >= 2  # MENACE's name and its first stone


# --------------------------------------------------------------------- a live kernel


def test_widget_in_a_live_kernel():
    """Played from Python in a real kernel: the synced state a front end receives."""
    nbformat = pytest.importorskip("nbformat")
    nbclient = pytest.importorskip("nbclient")
    cells = [
        "import menace_lib as ml\nc4 = ml.widgets.connect4.Connect4Widget(learn=True, seed=5)\nc4",
        "c4.play(0)\nprint(c4.moves, c4.draws)",
    ]
    nb = nbformat.v4.new_notebook()
    nb.cells = [nbformat.v4.new_code_cell(src) for src in cells]
    client = nbclient.NotebookClient(nb, timeout=120, kernel_name="python3")
    try:
        client.execute()
    except Exception as err:  # pragma: no cover - no kernel on this machine
        if "No such kernel" in str(err):
            pytest.skip(f"no python3 Jupyter kernel: {err}")
        raise
    state = nb.metadata["widgets"]["application/vnd.jupyter.widget-state+json"]["state"]
    (model,) = [m["state"] for m in state.values() if "moves" in m["state"]]
    w = Connect4Widget(learn=True, seed=5)
    w.play(0)
    assert model["moves"] == w.moves and len(w.moves) == 3  # MENACE, the reader, MENACE
    assert model["draws"] == w.draws and model["learn"] is True
    assert model["data"] == load_data()
    printed = nb.cells[1].outputs[0]["text"]
    assert printed.strip() == f"{w.moves} {w.draws}"
