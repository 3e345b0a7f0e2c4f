"""The book's widgets, without a browser.

* The data each widget ships agrees with the library (lookup tables, beads, classes).
* The widgets' own JavaScript (inspector.js, lambda_explorer.js), run in node, computes
  the same values as Python. The play widget has its own file, ``test_play_widget.py``.
* The Python API (as used in a live kernel) drives the same synced traits the browser
  uses, and rejects bad input with ValueError.
"""

from __future__ import annotations

import json
import shutil
import subprocess
from pathlib import Path

import numpy as np
import pytest

from menace_lib.board import X, board_to_text, move_classes
from menace_lib.checkpoints import load_checkpoints
from menace_lib.dirichlet import dirichlet_mean, dirichlet_variance, mutual_information
from menace_lib.efe import worked_example
from menace_lib.menace import Menace, MenaceConfig
from menace_lib.statespace import tables
from menace_lib.widgets import LambdaExplorer, MatchboxInspector, PlayWidget, _bundle
from menace_lib.widgets.inspector import bead_statistics, inspector_data
from menace_lib.widgets.lambda_explorer import (
    DEFAULT_CUSTOM_ALPHAS,
    WORKED_ALPHAS,
    explorer_values,
    normalised_preferences,
)

T = tables()
WIDGETS = Path(_bundle.__file__).parent
NODE = shutil.which("node")
needs_node = pytest.mark.skipif(NODE is None, reason="node is not installed")
CHECKPOINTS = load_checkpoints()


def run_node(script: str, payload: object) -> object:
    """Run an ES module script in node with ``payload`` as JSON on stdin; parse stdout."""
    done = subprocess.run(
        [NODE, "--input-type=module", "-e", script],
        input=json.dumps(payload),
        capture_output=True,
        text=True,
        check=False,
        timeout=60,
    )
    assert done.returncode == 0, done.stderr
    return json.loads(done.stdout)


def module_url(name: str) -> str:
    return (WIDGETS / name).as_uri()


READ_STDIN = """
let text = "";
for await (const chunk of process.stdin) text += chunk;
const input = JSON.parse(text);
"""


@pytest.fixture(scope="module")
def play() -> PlayWidget:
    return PlayWidget()


# ------------------------------------------------------------------------------ bundling


@pytest.mark.parametrize("name", ["play.js", "lambda_explorer.js", "inspector.js"])
def test_bundles_have_no_imports_left(name):
    source = _bundle.bundle(name)
    assert "import {" not in source and "./efe_math.js" not in source.split("inlined from")[0]
    assert "export default" in source


@needs_node
@pytest.mark.parametrize("cls", [PlayWidget, LambdaExplorer, MatchboxInspector])
def test_bundled_esm_loads_as_one_module(cls, tmp_path):
    # What anywidget does on the page: import the _esm string on its own (no siblings).
    path = tmp_path / "widget.mjs"
    path.write_text(cls._esm)
    out = run_node(
        f"const m = await import({json.dumps(path.as_uri())});"
        "process.stdout.write(JSON.stringify(typeof m.default.render));",
        None,
    )
    assert out == "function"


def test_bundle_rejects_unknown_imports(tmp_path, monkeypatch):
    monkeypatch.setattr(_bundle, "HERE", tmp_path)
    (tmp_path / "lib.js").write_text("export function a() { return 1; }\n")
    (tmp_path / "ok.js").write_text('import { a as b } from "./lib.js";\nexport default b;\n')
    (tmp_path / "missing.js").write_text('import { nope } from "./lib.js";\n')
    (tmp_path / "url.js").write_text('import x from "https://esm.sh/x";\n')
    assert "const { a: b } = (() => {" in _bundle._inline_imports("ok.js", ())
    with pytest.raises(ValueError, match="does not export 'nope'"):
        _bundle._inline_imports("missing.js", ())
    with pytest.raises(ValueError, match="only named imports"):
        _bundle._inline_imports("url.js", ())
    with pytest.raises(ValueError, match="not found"):
        _bundle._inline_imports("absent.js", ())


# ---------------------------------------------------------------------- lambda explorer


def test_explorer_defaults_reproduce_table_7_1():
    ex = worked_example()
    got = LambdaExplorer().values("worked")
    assert got["risk"] == pytest.approx(ex.terms.risk, abs=1e-12)
    assert got["epistemic"] == pytest.approx(ex.terms.epistemic, abs=1e-12)
    assert got["G"] == pytest.approx(ex.terms.G, abs=1e-12)
    assert got["q"] == pytest.approx(ex.policy, abs=1e-12)
    assert got["beads"] == pytest.approx(ex.beads, abs=1e-10)
    assert ex.alphas.tolist() == WORKED_ALPHAS


def test_explorer_values_follow_the_traits():
    w = LambdaExplorer(lam=1.0, lambda_policy=0.5, pref_weights=[0.2, 0.2, 0.1])
    assert w.values("custom") == explorer_values(
        DEFAULT_CUSTOM_ALPHAS, [0.4, 0.4, 0.2], 1.0, 0.5, "kl", 100.0
    )
    w.custom_alphas = [[2, 2, 2]]
    w.risk_form = "cross_entropy"
    assert len(w.values("custom")["q"]) == 1 and w.values("custom")["q"] == [1.0]


@needs_node
def test_js_normalisation_matches_python():
    weights = [[0.6, 0.35, 0.05], [0.001, 1, 0.3], [0.2, 0.2, 0.2], [0.999, 0.001, 0.001]]
    script = (
        f"import {{ normalise }} from {json.dumps(module_url('lambda_explorer.js'))};"
        + READ_STDIN
        + "process.stdout.write(JSON.stringify(input.map(normalise)));"
    )
    for js, w in zip(run_node(script, weights), weights, strict=True):
        assert js == pytest.approx(normalised_preferences(w), abs=1e-15)


@pytest.mark.parametrize(
    ("kwargs", "message"),
    [
        ({"lam": -0.1}, "lam must be >= 0"),
        ({"lambda_policy": 0}, "lambda_policy must be > 0"),
        ({"pref_weights": [0.5, 0.5, 0]}, "must all be > 0"),
        ({"pref_weights": [0.5, 0.5]}, "three numbers"),
        ({"custom_alphas": [[1, 1, 0]]}, r"alphas\[0\] must be > 0"),
        ({"custom_alphas": [[1, 1]]}, "three counts"),
        ({"custom_alphas": []}, "1 to 6 actions"),
        ({"risk_form": "l2"}, "risk_form must be one of"),
    ],
)
def test_explorer_rejects_bad_input(kwargs, message):
    with pytest.raises(ValueError, match=message):
        LambdaExplorer(**kwargs)


# ------------------------------------------------------------------- matchbox inspector


@pytest.fixture(scope="module")
def inspector() -> MatchboxInspector:
    return MatchboxInspector()


def test_inspector_positions_and_filters(inspector):
    data = inspector.data
    states = T.matchbox_states("all", X)
    assert data["boards"] == [board_to_text(T.boards[s]) for s in states]
    assert (len(data["boards"]), sum(data["decision"]), sum(data["michie"])) == (338, 304, 287)
    assert data["ply"] == [int(T.ply[s]) for s in states]
    for s, members in zip(states, data["class"]["members"], strict=True):
        assert members == "/".join("".join(map(str, c)) for c in move_classes(T.board(s)))


def test_inspector_beads_are_the_agents(inspector):
    data = inspector.data
    states = [int(s) for s in T.matchbox_states("all", X)]
    for n, agent in CHECKPOINTS["X"].items():
        beads = data["class"]["beads"][str(n)]
        for s, b in zip(states, beads, strict=True):
            assert b == (agent.weights[agent.box_of[s]] if s in agent.box_of else None)
    for f in ("all", "decision", "michie"):
        fresh = Menace(MenaceConfig(filter=f))
        zero = data["square"]["beads"][f]["0"]
        assert [b for b in zero if b is not None] == fresh.weights
        trained = data["square"]["beads"][f]["500"]
        assert sum(b is not None for b in trained) == fresh.n_boxes
        assert trained != zero


def test_inspector_select_canonicalises(inspector):
    assert inspector.select(".........") == 0
    i = inspector.select("..X/.O./...")  # a raw board; its canonical image is listed
    canon = int(T.canon[T.id_of("..X/.O./...")])
    assert inspector.data["boards"][i] == board_to_text(T.boards[canon])
    with pytest.raises(ValueError, match="not a position with X to move"):
        inspector.select("X../.../...")
    with pytest.raises(ValueError, match="impossible piece counts"):
        inspector.select("XXX/XXX/XXX")
    with pytest.raises(ValueError, match="selected must be"):
        inspector.selected = 338


def test_bead_statistics_are_the_dirichlet_library():
    stats = bead_statistics([6, 0, 3, 1])
    live = np.array([6.0, 3.0, 1.0])
    assert stats["total"] == 10
    assert stats["mean"] == pytest.approx([*dirichlet_mean(live)[:1], 0, *dirichlet_mean(live)[1:]])
    var = dirichlet_variance(live)
    assert stats["variance"] == pytest.approx([var[0], 0, var[1], var[2]])
    assert stats["mi"] == pytest.approx(mutual_information(live))
    assert bead_statistics([0, 0]) == {"total": 0.0, "mean": None, "variance": None, "mi": None}
    with pytest.raises(ValueError, match="counts >= 0"):
        bead_statistics([1, -1])


@needs_node
def test_js_inspector_statistics_equal_python(inspector):
    """inspector.js's beadStatistics on a sample of boxes from every source and filter."""
    data = inspector.data
    rng = np.random.default_rng(3)
    sample = []
    for n in data["class"]["checkpoints"]:
        sample += [b for b in data["class"]["beads"][str(n)] if b is not None][::29]
    for by_n in data["square"]["beads"].values():
        for n, beads in by_n.items():
            sample += [b for b in beads if b is not None][int(n) % 7 :: 41]
    sample += [[0, 5, 0, 1], [1e4, 1, 2]]
    rng.shuffle(sample)
    script = (
        f"import {{ beadStatistics }} from {json.dumps(module_url('inspector.js'))};"
        + READ_STDIN
        + "process.stdout.write(JSON.stringify(input.map(beadStatistics)));"
    )
    out = run_node(script, sample)
    assert len(out) == len(sample) > 80
    for beads, js in zip(sample, out, strict=True):
        py = bead_statistics(beads)
        assert js["total"] == py["total"]
        assert js["mean"] == pytest.approx(py["mean"], abs=1e-12)
        assert js["variance"] == pytest.approx(py["variance"], abs=1e-12)
        assert js["mi"] == pytest.approx(py["mi"], abs=1e-9)


@pytest.mark.parametrize(
    ("kwargs", "message"),
    [
        ({"source": "beads"}, "source must be one of"),
        ({"filter": "some"}, "filter must be one of"),
        ({"selected": -1}, "selected must be"),
        ({"seed": -2}, "seed must be an integer"),
    ],
)
def test_inspector_rejects_bad_input(kwargs, message):
    with pytest.raises(ValueError, match=message):
        MatchboxInspector(**kwargs)


def test_inspector_data_is_cached_per_seed():
    assert inspector_data(0) is inspector_data(0)
