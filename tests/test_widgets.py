"""The book's widgets, without a browser.

* The data each widget ships agrees with the library (lookup tables, beads, classes).
* The widgets' own JavaScript (play.js, inspector.js, lambda_explorer.js), run in node,
  computes the same policies, bead draws, reinforcement and statistics as Python.
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

from menace_lib.board import (
    INVERSE,
    TRANSFORMS,
    O,
    X,
    board_to_text,
    move_classes,
    parse_board,
    transform_board,
)
from menace_lib.checkpoints import load_checkpoints
from menace_lib.dirichlet import dirichlet_mean, dirichlet_variance, mutual_information
from menace_lib.efe import DEFAULT_PREFERENCES, worked_example
from menace_lib.menace import DRAW_RESULT, LOSS, WIN, Menace, MenaceConfig, _draw
from menace_lib.statespace import ONGOING, tables
from menace_lib.widgets import LambdaExplorer, MatchboxInspector, PlayWidget, _bundle
from menace_lib.widgets.inspector import bead_statistics, inspector_data
from menace_lib.widgets.lambda_explorer import (
    DEFAULT_CUSTOM_ALPHAS,
    LAMBDA_SLIDER_MAX,
    WORKED_ALPHAS,
    crossover_lambda,
    explorer_values,
    normalised_preferences,
)
from menace_lib.widgets.play import RESULT_TEXT, checkpoint_games, play_data

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


# ----------------------------------------------------------------------- play: the data


@pytest.mark.parametrize("side", ["X", "O"])
def test_play_lookup_matches_menace(side):
    data = play_data()["sides"][side]
    agent = CHECKPOINTS[side][1000]
    lookup = data["lookup"]
    pids = [int(T.code_to_id[c]) for c in lookup["codes"]]
    mark = X if side == "X" else O
    expected = [p for p in range(T.n_positions) if agent.raw_squares[p]]
    assert pids == expected
    assert all(T.outcome[p] == ONGOING and T.player[p] == mark for p in pids)
    for pid, box, squares, members in zip(
        pids, lookup["box"], lookup["squares"], lookup["members"], strict=True
    ):
        assert box == agent.raw_box[pid]
        assert [int(c) for c in squares] == list(agent.raw_squares[pid])
        classes = [[int(c) for c in cls] for cls in members.split("/")]
        assert [cls[0] for cls in classes] == list(agent.raw_squares[pid])
        if box >= 0:
            # Each colour's class is its box class seen on this raw board ...
            back = TRANSFORMS[INVERSE[int(T.canon_transform[pid])]]
            assert [sorted(c) for c in classes] == [
                sorted(back[m] for m in cls) for cls in agent.members[box]
            ]
            # ... and the classes are exactly the raw board's own move classes.
            assert sorted(map(sorted, classes)) == sorted(map(sorted, move_classes(T.board(pid))))


@pytest.mark.parametrize("side", ["X", "O"])
def test_play_boxes_and_beads_are_the_checkpoints(side):
    data = play_data()["sides"][side]
    assert data["restock"] == "box" and data["reinforcement"] == [3, 1, -1]
    for n, agent in CHECKPOINTS[side].items():
        assert data["beads"][str(n)] == agent.weights
        assert data["boxes"] == [board_to_text(T.boards[s]) for s in agent.states]
        assert data["entries"] == ["".join(map(str, e)) for e in agent.entries]
        assert data["initial"] == agent.initial


def test_play_terminal_table_is_every_finished_game():
    terminals = play_data()["terminals"]
    ids = T.code_to_id[np.array(terminals["codes"])]
    assert sorted(ids.tolist()) == T.terminal_ids.tolist()
    assert (T.outcome[ids] == np.array(terminals["outcome"])).all()
    assert play_data()["checkpoints"] == [25, 100, 1000, 5000] == checkpoint_games()


# --------------------------------------------------------------- play: the JavaScript


@needs_node
def test_js_policy_equals_move_distribution_everywhere():
    """play.js's policyOf, for every MENACE position of every checkpoint, both sides."""
    script = (
        f"import {{ policyOf }} from {json.dumps(module_url('play.js'))};"
        + READ_STDIN
        + """
const out = {};
for (const [side, d] of Object.entries(input.sides)) {
  const human = side === "X" ? "O" : "X";
  out[side] = {};
  for (const n of input.checkpoints) {
    out[side][n] = d.lookup.codes.map((code) => {
      const board = [];
      for (let i = 0, c = code; i < 9; i++, c = Math.floor(c / 3)) board.push(c % 3);
      const p = policyOf(input, { human, board, live_beads: d.beads[String(n)] });
      return [p.squares, p.p];
    });
  }
}
process.stdout.write(JSON.stringify(out));
"""
    )
    data = play_data()
    out = run_node(script, data)
    checked = 0
    for side, by_checkpoint in out.items():
        codes = data["sides"][side]["lookup"]["codes"]
        for n, rows in by_checkpoint.items():
            agent = CHECKPOINTS[side][int(n)]
            for code, (squares, p) in zip(codes, rows, strict=True):
                expected = agent.move_distribution(int(T.code_to_id[code]))
                assert dict(zip(squares, p, strict=True)) == pytest.approx(expected, abs=1e-12)
                checked += 1
    assert checked == 4 * (2423 + 2097)


@needs_node
def test_js_bead_draw_and_reinforcement_equal_menace():
    rng = np.random.default_rng(7)
    draws = []
    for _ in range(300):
        w = rng.integers(0, 6, size=int(rng.integers(1, 8))).astype(float)
        w[int(rng.integers(len(w)))] += 1  # at least one live colour
        draws.append([w.tolist(), float(rng.random())])
    draws += [[[0.0, 2.0, 0.0], 0.999999999], [[1.0, 0.0], 0.5], [[0.0, 0.0, 3.0], 0.0]]
    agent = Menace(MenaceConfig(layout="class"))
    games = []
    for restock in ("box", "move", "none"):
        for delta in (3.0, 1.0, -1.0, -3.0):
            weights = [
                rng.integers(0, 4, size=len(w)).astype(float).tolist() for w in agent.weights
            ]
            boxes = rng.choice(agent.n_boxes, size=4, replace=False)
            path = [[int(b), int(rng.integers(len(agent.weights[b])))] for b in boxes]
            games.append([weights, path, delta, restock])
    script = (
        f"import {{ drawIndex, reinforce }} from {json.dumps(module_url('play.js'))};"
        + READ_STDIN
        + """
const draws = input.draws.map(([w, u]) => drawIndex(w, u));
const games = input.games.map(([w, path, delta, restock]) =>
  reinforce(w, input.initial, path, delta, restock));
process.stdout.write(JSON.stringify({ draws, games }));
"""
    )
    out = run_node(script, {"draws": draws, "games": games, "initial": agent.initial})
    assert out["draws"] == [_draw(w, u) for w, u in draws]
    for (weights, path, delta, restock), js in zip(games, out["games"], strict=True):
        twin = Menace(
            MenaceConfig(layout="class", restock=restock, reinforcement=(delta, delta, delta))
        )
        twin.weights = [list(w) for w in weights]
        twin.reinforce([tuple(p) for p in path], WIN)
        assert js == twin.weights


@needs_node
def test_js_game_flow():
    """Transitions of play.js: illegal moves change nothing, results and tallies, learning."""
    script = (
        f"import * as P from {json.dumps(module_url('play.js'))};"
        + READ_STDIN
        + """
const rngOf = (values) => { let i = 0; return () => values[i++ % values.length]; };
const fresh = (human, n, extra = {}) => ({
  checkpoint: n, human, auto: false, learn: false, game_key: "", board: Array(9).fill(0),
  moves: [], path: [], result: "", tally: { menace: 0, draw: 0, human: 0 },
  live_beads: input.sides[human === "O" ? "X" : "O"].beads[String(n)],
  bead_changes: [], games_learned: 0, last_draw: {}, ...extra });
const out = {};
let s = fresh("O", 25);
out.turn0 = P.turnOf(s);
out.clickDuringMenace = P.humanMove(input, structuredClone(s), 0, rngOf([0.5]));
s = P.menaceMove(input, s, rngOf([0.99]));
out.afterMenace = { board: s.board, path: s.path, last: s.last_draw, turn: P.turnOf(s) };
const taken = s.board.findIndex((v) => v !== 0);
out.clickOccupied = P.humanMove(input, structuredClone(s), taken, rngOf([0.5]));
// Let O lose on purpose: O fills the lowest empty squares, MENACE samples.
let g = fresh("O", 5000, { auto: true, learn: true });
g = P.newGame(input, g, rngOf([0.3, 0.7, 0.1]));
const rng = rngOf([0.3, 0.7, 0.1]);
while (P.turnOf(g) === "human") g = P.humanMove(input, g, g.board.indexOf(0), rng);
out.finished = { result: g.result, tally: g.tally, path: g.path, changes: g.bead_changes,
  learned: g.games_learned, board: g.board, turn: P.turnOf(g) };
out.clickAfterEnd = P.humanMove(input, structuredClone(g), g.board.indexOf(0), rngOf([0.5]));
process.stdout.write(JSON.stringify(out));
"""
    )
    data = play_data()
    out = run_node(script, data)
    assert out["turn0"] == "menace"
    assert out["clickDuringMenace"] is None
    assert out["clickOccupied"] is None
    x25 = CHECKPOINTS["X"][25]
    # u = 0.99 draws the last colour of the opening box (the reference sampler).
    opening = x25.box_of[0]
    assert out["afterMenace"]["path"] == [[opening, _draw(x25.weights[opening], 0.99)]]
    assert out["afterMenace"]["turn"] == "human"
    fin = out["finished"]
    assert fin["turn"] == "over" and fin["result"] in RESULT_TEXT.values()
    key = {v: k for k, v in RESULT_TEXT.items()}[fin["result"]]
    assert fin["tally"][key] == 1 and sum(fin["tally"].values()) == 1
    pid = T.id_of(tuple(fin["board"]))
    assert T.outcome[pid] != ONGOING
    assert out["clickAfterEnd"] is None or 0 not in fin["board"]
    # Learning applied the reference update to exactly the boxes drawn from.
    result = {"menace": WIN, "draw": DRAW_RESULT, "human": LOSS}[key]
    agent = CHECKPOINTS["X"][5000].copy()
    agent.frozen = False
    agent.reinforce([tuple(p) for p in fin["path"]], result)
    assert fin["learned"] == 1
    assert [c["after"] for c in fin["changes"]] == [agent.weights[b] for b, _ in fin["path"]]
    assert [c["square"] for c in fin["changes"]] == [agent.entries[b][j] for b, j in fin["path"]]


# ---------------------------------------------------------------- play: the Python API


def test_play_widget_defaults(play):
    assert (play.checkpoint, play.human, play.auto, play.learn) == (1000, "O", False, False)
    assert play.menace_side == "X" and play.turn == "menace" and play.game_key == "X1000"
    assert (
        play.board == [0] * 9
        and play.result == ""
        and play.tally
        == {
            "menace": 0,
            "draw": 0,
            "human": 0,
        }
    )
    assert play.live_beads == play_data()["sides"]["X"]["beads"]["1000"]


def test_python_moves_update_the_synced_traits():
    w = PlayWidget(checkpoint=25, seed=1)
    square = w.menace_move()
    assert w.board[square] == X and w.moves == [square] and w.turn == "human"
    assert w.last_draw["square"] == square and w.path == [
        [w.last_draw["box"], w.last_draw["colour"]]
    ]
    dist = CHECKPOINTS["X"][25].move_distribution(0)
    assert w.last_draw["p"] == pytest.approx(dist[square])
    reply = next(i for i in range(9) if w.board[i] == 0)
    w.play(reply)
    assert w.board[reply] == O and w.turn == "menace"
    w.new_game()
    assert w.board == [0] * 9 and w.moves == [] and w.path == [] and w.last_draw == {}


def test_python_game_to_the_end_scores_and_learns():
    w = PlayWidget(checkpoint=100, human="X", auto=True, learn=True, seed=5)
    assert w.turn == "human" and w.game_key == "O100"
    before = [list(b) for b in w.live_beads]
    while w.turn == "human":
        w.play(w.board.index(0))  # X fills the lowest empty square; MENACE replies at once
    assert w.result in RESULT_TEXT.values()
    assert sum(w.tally.values()) == 1 and w.games_learned == 1
    key = {v: k for k, v in RESULT_TEXT.items()}[w.result]
    result = {"menace": WIN, "draw": DRAW_RESULT, "human": LOSS}[key]
    agent = CHECKPOINTS["O"][100].copy()
    agent.frozen = False
    agent.reinforce([tuple(p) for p in w.path], result)
    assert w.live_beads == agent.weights
    assert [c["before"] for c in w.bead_changes] == [before[b] for b, _ in w.path]
    # Frozen again: the next game teaches nothing.
    w.learn = False
    w.new_game()
    while w.turn == "human":
        w.play(w.board.index(0))
    assert w.live_beads == agent.weights and w.games_learned == 1


def test_illegal_python_moves_raise_and_change_nothing():
    w = PlayWidget(checkpoint=25)
    with pytest.raises(ValueError, match="MENACE's turn"):
        w.play(0)
    square = w.menace_move()
    with pytest.raises(ValueError, match="occupied"):
        w.play(square)
    with pytest.raises(ValueError, match="0-8"):
        w.play(9)
    with pytest.raises(ValueError, match="integer"):
        w.play("4")
    with pytest.raises(ValueError, match="not MENACE's turn"):
        w.menace_move()
    assert w.moves == [square]


def test_changing_opponent_from_python_resets_but_a_browser_change_does_not():
    w = PlayWidget(checkpoint=25, learn=True)
    w.menace_move()
    w.checkpoint = 5000  # from Python: the game restarts against the new checkpoint
    assert w.board == [0] * 9 and w.game_key == "X5000"
    assert w.live_beads == play_data()["sides"]["X"]["beads"]["5000"]
    # The browser sends its reset state together with the matching key (one message).
    with w.hold_trait_notifications():
        w.game_key = "O100"
        w.human, w.checkpoint = "X", 100
        w.board = [1, 0, 0, 0, 0, 0, 0, 0, 0]
        w.moves = [0]
    assert w.board == [1, 0, 0, 0, 0, 0, 0, 0, 0] and w.menace_side == "O"


@pytest.mark.parametrize(
    ("kwargs", "message"),
    [
        ({"checkpoint": 7}, "unknown checkpoint 7"),
        ({"checkpoint": "1000"}, "unknown checkpoint"),
        ({"checkpoint": True}, "unknown checkpoint"),
        ({"human": "x"}, "human must be 'X' or 'O'"),
        ({"human": None}, "human must be 'X' or 'O'"),
        ({"seed": -1}, "seed must be in"),
        ({"seed": 1.5}, "seed must be an integer"),
    ],
)
def test_play_widget_rejects_bad_input(kwargs, message):
    with pytest.raises(ValueError, match=message):
        PlayWidget(**kwargs)


def test_play_widget_rejects_bad_trait_changes(play):
    with pytest.raises(ValueError, match="unknown checkpoint"):
        play.checkpoint = 99
    with pytest.raises(ValueError, match="human must be"):
        play.human = "both"


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
          add: f.withFragmentParam("#menace=x1&top", "lambda", "lam:2;a:1,1,1/2,2,2"),
          replace: f.withFragmentParam("#lambda=old&menace=x1", "lambda", "new"),
          remove: f.withFragmentParam("#lambda=old&menace=x1", "lambda", null),
          only: f.withFragmentParam("#lambda=old", "lambda", null),
          escape: f.withFragmentParam("", "lambda", "a b&c=d"),
          read: f.fragmentParam("#top&lambda=a%20b%26c%3Dd&menace=x1", "lambda"),
          missing: f.fragmentParam("#section-2", "lambda"),
        }));"""
    )
    out = run_node(script, None)
    assert out == {
        "add": "#menace=x1&top&lambda=lam:2;a:1,1,1/2,2,2",
        "replace": "#lambda=new&menace=x1",
        "remove": "#menace=x1",
        "only": "",
        "escape": "#lambda=a%20b%26c%3Dd",
        "read": "a b&c=d",
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
          names: input.boards.slice(0, 3).map((b, i) => ins.boxName(b, i)),
        }));"""
    )
    queries = ["O../.X./...", "o../.x./...", "x", "X?O/.X", ""]
    out = run_node(
        script, {"boards": data["boards"], "transforms": data["transforms"], "queries": queries}
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
