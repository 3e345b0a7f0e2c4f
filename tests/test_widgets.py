"""The book's widgets, without a browser.

* The data each widget ships agrees with the library (lookup tables, beads, classes).
* The widgets' own JavaScript (inspector.js, lambda_explorer.js), run in node, computes
  the same values as Python. The play widget has its own file, ``test_play_widget.py``.
* The Python API (as used in a live kernel) drives the same synced traits the browser
  uses, and rejects bad input with ValueError.
"""

from __future__ import annotations

import json
import re
from pathlib import Path

import numpy as np
import pytest
from node_runner import needs_node, run_module

from menace_lib.games.board import (
    TRANSFORMS,
    X,
    board_to_text,
    parse_board,
    transform_board,
)
from menace_lib.games.registry import DEFAULT_GAME
from menace_lib.games.statespace import tables
from menace_lib.machine.engine import box_layout
from menace_lib.machine.menace import Menace, MenaceConfig
from menace_lib.machine.printed import printed_layout
from menace_lib.maths.dirichlet import dirichlet_mean, dirichlet_variance, mutual_information
from menace_lib.maths.efe import DEFAULT_PREFERENCES, worked_example
from menace_lib.play.checkpoints import load_checkpoints
from menace_lib.widgets import (
    Connect4Widget,
    HerWidget,
    LabWidget,
    LambdaExplorer,
    MatchboxInspector,
    PlayWidget,
    _bundle,
)
from menace_lib.widgets.inspector import bead_statistics, inspector_data
from menace_lib.widgets.lambda_explorer import (
    DEFAULT_CUSTOM_ALPHAS,
    LAMBDA_SLIDER_MAX,
    WORKED_ALPHAS,
    crossover_lambda,
    explorer_values,
    normalised_preferences,
)

T = tables()
WIDGETS = Path(_bundle.__file__).parent
CHECKPOINTS = load_checkpoints()


def run_node(script: str, payload: object) -> object:
    return run_module(script, payload)


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
@pytest.mark.parametrize(
    "cls", [PlayWidget, LambdaExplorer, MatchboxInspector, HerWidget, LabWidget, Connect4Widget]
)
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
    assert "const { a: b } = __mod_lib;" in _bundle._inline_imports("ok.js")
    with pytest.raises(ValueError, match="does not export 'nope'"):
        _bundle._inline_imports("missing.js")
    with pytest.raises(ValueError, match="only named imports"):
        _bundle._inline_imports("url.js")
    with pytest.raises(ValueError, match="not found"):
        _bundle._inline_imports("absent.js")


def test_bundle_ships_a_shared_module_once_before_its_importers(tmp_path, monkeypatch):
    monkeypatch.setattr(_bundle, "HERE", tmp_path)
    uses_two = 'import { two } from "./base.js";\n'
    (tmp_path / "base.js").write_text("const secret = 2;\nexport function two() {return secret;}\n")
    (tmp_path / "left.js").write_text(uses_two + "export const l = two();\n")
    (tmp_path / "right.js").write_text(uses_two + "export const r = two() + 1;\n")
    (tmp_path / "top.js").write_text(
        'import { l } from "./left.js";\nimport { r } from "./right.js";\n'
        'import { two as again } from "./base.js";\nexport default { sum: l + r + again() };\n'
    )
    (tmp_path / "a.js").write_text('import { b } from "./b.js";\nexport const a = 1;\n')
    (tmp_path / "b.js").write_text('import { a } from "./a.js";\nexport const b = a;\n')
    source = _bundle._inline_imports("top.js")
    assert source.count("inlined from base.js") == 1 and source.count("const secret") == 1
    assert source.index("inlined from base.js") < source.index("inlined from left.js")
    assert source.index("inlined from left.js") < source.index("inlined from right.js")
    with pytest.raises(ValueError, match="circular import of 'a.js'"):
        _bundle._inline_imports("a.js")


WIDGET_MODULES = [
    "play.js", "her_play.js", "lab.js", "connect4.js", "inspector.js", "lambda_explorer.js"
]  # fmt: skip


def imported_closure(name: str) -> set[str]:
    """The sibling modules ``name`` imports, directly or through another module."""
    found: set[str] = set()
    todo = [name]
    while todo:
        source = (WIDGETS / todo.pop()).read_text(encoding="utf-8")
        for module in re.findall(r'^import \{[^}]*\} from "\./([\w.-]+\.js)";', source, re.M):
            if module not in found:
                found.add(module)
                todo.append(module)
    return found


@pytest.mark.parametrize("name", WIDGET_MODULES)
def test_each_module_is_shipped_once_and_only_where_imported(name):
    inlined = re.findall(r"inlined from (\S+)", _bundle.bundle(name))
    assert inlined and len(inlined) == len(set(inlined))
    assert set(inlined) == imported_closure(name)


@pytest.mark.parametrize("name", ["play.js", "her_play.js"])
def test_play_widgets_ship_the_engine_without_the_lab(name):
    # The play widgets need the engine (lab_engine.js) alone: the lab's sessions, exact
    # evaluation and game tables of noughts and crosses stay on the lab's page.
    source = _bundle.bundle(name)
    assert "inlined from lab_engine.js" in source
    assert "LabSession" not in source and "inlined from lab_session.js" not in source
    assert "inlined from lab_exact.js" not in source


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


def inspector_states() -> list[int]:
    """The inspector's positions: every X-to-move box, in the printed kit's order."""
    every = printed_layout(DEFAULT_GAME, "all", "square", X)
    layout = box_layout(DEFAULT_GAME, "all", "square", X)
    return [int(layout.states[b]) for b in every.order]


def test_inspector_positions_and_filters(inspector):
    """Each position is drawn, numbered and coloured as the printed kit does it."""
    data = inspector.data
    states = inspector_states()
    assert sorted(states) == sorted(int(s) for s in T.matchbox_states("all", X))
    assert (len(data["boards"]), sum(data["decision"]), sum(data["michie"])) == (338, 304, 287)
    assert data["ply"] == [int(T.ply[s]) for s in states]
    assert data["ply"] == sorted(data["ply"])
    for f in ("all", "decision", "michie"):
        P = printed_layout(DEFAULT_GAME, f, "class", X)
        box_of = box_layout(DEFAULT_GAME, f, "class", X).box_of
        numbers = data["numbers"][f]
        assert [n for n in numbers if n is not None] == list(range(1, len(P.numbers) + 1))
        for i, s in enumerate(states):
            if s not in box_of:
                assert numbers[i] is None
                continue
            b = box_of[s]
            assert numbers[i] == P.numbers[b]
            assert data["boards"][i] == board_to_text(P.boards[b])
            if f == "all":  # every class listed on the drawing, its first square its colour
                classes = [tuple(int(q) for q in c) for c in data["class"]["members"][i].split("/")]
                assert classes == list(P.squares[b])
                assert [c[0] for c in classes] == list(P.colours[b])
    for i, s in enumerate(states):
        board = T.position(s)
        assert any(board_to_text(transform_board(t, board)) == data["boards"][i] for t in range(8))


def test_inspector_beads_are_the_agents(inspector):
    data = inspector.data
    states = inspector_states()
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
    i = inspector.select("..X/.O./...")  # a raw board; its box is listed as printed
    assert inspector.data["boards"][i] == "X...O...."  # crosses on the lowest squares
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
    """box_stats.js's beadStatistics (the inspector's) on boxes from every source and filter."""
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
        f"import {{ beadStatistics }} from {json.dumps(module_url('box_stats.js'))};"
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


# ------------------------------------------------------ reset, text form, links, search


def test_explorer_reset_restores_the_settings_it_was_built_with():
    w = LambdaExplorer(lam=1.5, custom_alphas=[[2, 2, 2]])
    assert w.defaults["lam"] == 1.5 and w.defaults["custom_alphas"] == [[2, 2, 2]]
    w.lam, w.risk_form, w.pref_weights = 3.0, "cross_entropy", [1, 1, 1]
    w.custom_alphas = [[1, 1, 1], [5, 5, 5]]
    w.reset()
    assert (w.lam, w.risk_form, w.custom_alphas) == (1.5, "kl", [[2, 2, 2]])
    assert w.pref_weights == list(DEFAULT_PREFERENCES)


def test_explorer_text_form_reports_its_numbers():
    w = LambdaExplorer()
    text = repr(w)
    assert "object at 0x" not in text and "Table 7.1" in text
    worked = w.values("worked")
    for i in range(3):
        assert f"G {worked['G'][i]:.3f}, policy {worked['q'][i]:.3f}" in text
    assert w._repr_mimebundle_()[0]["text/plain"] == text


def test_crossover_lambda_is_where_g_meets():
    lam = crossover_lambda(DEFAULT_CUSTOM_ALPHAS, 0, 1)
    assert lam is not None and 0 < lam <= LAMBDA_SLIDER_MAX
    g = explorer_values(DEFAULT_CUSTOM_ALPHAS, lam=lam)["G"]
    assert g[0] == pytest.approx(g[1], abs=1e-12)
    # Past the last crossover the untried action (1, 1, 1) has the lowest G.
    last = max(crossover_lambda(DEFAULT_CUSTOM_ALPHAS, 0, k) for k in (1, 2))
    g = explorer_values(DEFAULT_CUSTOM_ALPHAS, lam=last + 0.01)["G"]
    assert g[0] == min(g) and last < LAMBDA_SLIDER_MAX
    assert crossover_lambda([[1, 1, 1], [1, 1, 1]], 0, 1) is None
    with pytest.raises(ValueError, match="second must index one of the 3 actions"):
        crossover_lambda(DEFAULT_CUSTOM_ALPHAS, 0, 3)


def test_inspector_reset_and_text_form(inspector):
    w = MatchboxInspector(filter="all", selected=5)
    w.source, w.filter, w.selected = "square", "decision", 9
    w.reset()
    assert (w.source, w.filter, w.selected) == ("class", "all", 5)
    text = repr(w)
    assert "object at 0x" not in text and "338 matchboxes (filter all)" in text
    for n in w.data["class"]["checkpoints"]:
        assert f"after {n:,} games" in text
    assert w.data["transforms"] == [list(t) for t in TRANSFORMS]


@needs_node
def test_js_fragment_keeps_other_widgets_keys_and_anchors():
    script = (
        f"import * as f from {json.dumps(module_url('fragment.js'))};"
        + READ_STDIN
        + """
        process.stdout.write(JSON.stringify({
          add: f.withFragmentValue("#play=x1&top", "lambda", "lam:2;a:1,1,1/2,2,2"),
          replace: f.withFragmentValue("#lambda=old&play=x1", "lambda", "new"),
          remove: f.withFragmentValue("#lambda=old&play=x1", "lambda", null),
          only: f.withFragmentValue("#lambda=old", "lambda", null),
          read: f.fragmentValue("#top&lambda=lam:2;w:1,1,1&play=x1", "lambda"),
          missing: f.fragmentValue("#section-2", "lambda"),
        }));"""
    )
    assert run_node(script, None) == {
        "add": "#play=x1&top&lambda=lam:2;a:1,1,1/2,2,2",
        "replace": "#play=x1&lambda=new",
        "remove": "#play=x1",
        "only": "",
        "read": "lam:2;w:1,1,1",
        "missing": None,
    }


@needs_node
def test_js_explorer_link_round_trips_and_names_bad_values():
    script = (
        f"import * as lx from {json.dumps(module_url('lambda_explorer.js'))};"
        + READ_STDIN
        + """
        const encoded = lx.encodeSettings(input.settings);
        const back = lx.decodeSettings(encoded, input.base);
        const errors = input.bad.map((t) => {
          try { lx.decodeSettings(t, input.base); return null; } catch (e) { return e.message; }
        });
        const shown = [[45.818118, 0], [0.4583, 3], [-0.0001, 3]].map(([v, p]) => lx.shown(v, p));
        const max = lx.RANGES.lam[1];
        process.stdout.write(JSON.stringify({ text: encoded, back, errors, shown, max }));"""
    )
    settings = {
        "lam": 2.6,
        "lambda_policy": 0.07,
        "pref_weights": [0.6, 0.35, 0.5],
        "risk_form": "cross_entropy",
        "custom_alphas": [[1, 1, 1], [4, 2, 1.5]],
    }
    base = LambdaExplorer().defaults
    bad = ["lam:9", "lam:x", "w:1,1", "w:1,0,1", "risk:l2", "a:1,1", "a:1,1,1/" * 7, "zoom:2"]
    out = run_node(script, {"settings": settings, "base": base, "bad": bad})
    assert out["back"] == settings
    assert out["text"] == "lam:2.6;pol:0.07;w:0.6,0.35,0.5;risk:cross_entropy;a:1,1,1/4,2,1.5"
    assert out["errors"][0] == "λ = 9 is outside 0–4" and out["max"] == LAMBDA_SLIDER_MAX
    assert '"x" is not a number' in out["errors"][1]
    assert "must be 3 numbers" in out["errors"][2] and "> 0" in out["errors"][3]
    assert '"l2"' in out["errors"][4] and "counts of action 1" in out["errors"][5]
    assert "1 to 6 actions" in out["errors"][6] and '"zoom"' in out["errors"][7]
    assert out["shown"] == ["46", "0.458", "0.000"]
    # A partial link keeps the other settings.
    partial = run_node(
        f"import * as lx from {json.dumps(module_url('lambda_explorer.js'))};"
        + READ_STDIN
        + "process.stdout.write(JSON.stringify(lx.decodeSettings('lam:3', input)));",
        base,
    )
    assert partial == {**base, "lam": 3}


@needs_node
def test_js_search_finds_a_box_from_any_orientation(inspector):
    """Every image of every box (Python's transform_board) finds that box; nothing else."""
    data = inspector.data
    script = (
        f"import * as ins from {json.dumps(module_url('inspector.js'))};"
        + READ_STDIN
        + """
        const images = input.boards.map((b) => ins.imagesOf(b, input.transforms));
        const found = (text) => {
          const { pattern } = ins.parsePattern(text);
          return images.flatMap((imgs, i) => (ins.matchesAnyImage(imgs, pattern) ? [i] : []));
        };
        process.stdout.write(JSON.stringify({
          images,
          queries: input.queries.map((q) => [
            found(q), ins.describePattern(ins.parsePattern(q).pattern),
          ]),
          errors: ["XOZ", "XXXXOOOO.."].map((q) => ins.parsePattern(q).error),
          names: input.boards.slice(0, 3).map((b, i) => ins.boxName(b, input.numbers[i])),
        }));"""
    )
    queries = ["O../.X./...", "o../.x./...", "x", "X?O/.X", ""]
    out = run_node(
        script,
        {
            "boards": data["boards"],
            "transforms": data["transforms"],
            "queries": queries,
            "numbers": data["numbers"]["michie"],
        },
    )
    for board, images in zip(data["boards"], out["images"], strict=True):
        expected = {board_to_text(transform_board(t, parse_board(board))) for t in range(8)}
        assert set(images) == expected
    seen = board_to_text(parse_board("O../.X./..."))
    box = next(i for i, imgs in enumerate(out["images"]) if seen in imgs)
    (found, said), (found_lower, _) = out["queries"][:2]
    assert found == found_lower == [box]
    assert said == "X on 5; O on 1; 2, 3, 4, 6, 7, 8, 9 empty, in any of the 8 orientations"
    found_x, said_x = out["queries"][2]
    assert said_x == "X on 1; other squares anything, in any of the 8 orientations"
    corner_x = [i for i, b in enumerate(data["boards"]) if any(b[c] == "X" for c in (0, 2, 6, 8))]
    assert found_x == corner_x
    assert out["queries"][4][0] == list(range(len(data["boards"])))
    assert '"Z" is not a square' in out["errors"][0]
    assert "10 squares given; a board has 9" in out["errors"][1]
    assert out["names"][0] == "Matchbox 1: empty board"
    assert all(n.startswith(f"Matchbox {i + 1}: ") for i, n in enumerate(out["names"]))


@needs_node
def test_js_arrow_keys_move_by_row_and_column():
    # Six thumbnails in two rows of three (left, top), as the browser lays them out.
    rects = [
        {"left": 30 * (i % 3), "top": 40 * (i // 3), "width": 25, "height": 25} for i in range(6)
    ]
    script = (
        f"import {{ nextThumb }} from {json.dumps(module_url('inspector.js'))};"
        + READ_STDIN
        + """
        const ids = [0, 1, 2, 3, 4, 5];
        const rect = (i) => input[i];
        const go = (from, key) => nextThumb(ids, from, key, rect);
        process.stdout.write(JSON.stringify([
          go(0, "ArrowRight"), go(2, "ArrowRight"), go(5, "ArrowRight"), go(0, "ArrowLeft"),
          go(1, "ArrowDown"), go(4, "ArrowUp"), go(4, "ArrowDown"), go(1, "ArrowUp"),
          go(3, "Home"), go(0, "End"), go(0, "a"),
        ]));"""
    )
    assert run_node(script, rects) == [1, 3, 5, 0, 4, 1, 4, 1, 0, 5, None]
