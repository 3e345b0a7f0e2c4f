"""The live figures of the Bayesian-observer chapters (menace_lib.widgets.live_figures).

The Python references are checked against their owners (the bead rule, the printed kit,
the palette, the expected-free-energy maths), and each page's JavaScript copy is run with
node over a grid of inputs and must give the Python reference's numbers: bead counts and
draws exactly, real numbers to 1e-9.
"""

from __future__ import annotations

import itertools
import json

import numpy as np
import pytest
from node_runner import needs_node, run_module

import menace_lib as ml
from menace_lib.base.palette import BEAD_COLOURS, RESULT_COLOURS, agent_colour
from menace_lib.machine import beads
from menace_lib.machine.printed import printed
from menace_lib.maths.dirichlet import mutual_information
from menace_lib.widgets import live_figures as lf
from menace_lib.widgets.lambda_explorer import explorer_values

WIDGETS = lf.__file__.rsplit("/", 1)[0]

READ_STDIN = """
let text = "";
for await (const chunk of process.stdin) text += chunk;
const input = JSON.parse(text);
"""


def node(module: str, names: str, body: str, payload: object) -> object:
    url = json.dumps(f"file://{WIDGETS}/{module}")
    return run_module(f"import {{ {names} }} from {url};{READ_STDIN}{body}", payload)


# --------------------------------------------------------------------- Python side


def test_box_data_is_the_printed_kits_box():
    agent = ml.Menace()
    layout = printed(agent)
    box = lf.box_data(3)
    library_box = next(b for b in layout.order if layout.moves[b] == 3)
    assert box["number"] == layout.numbers[library_box] == 14
    assert len(box["squares"]) == len(box["beads"]) == 5
    assert box["beads"] == [2.0] * 5  # Michie's 4-3-2-1: two beads for the third move
    # Each colour plays an empty square of the printed board, and has that square's colour.
    for square, colour in zip(box["squares"], box["colours"], strict=True):
        assert box["board"][square - 1] == "."
        assert colour == BEAD_COLOURS[square - 1]
    assert box["board"].count("X") == 2 and box["board"].count("O") == 2
    assert box["reinforcement"] == [3.0, 1.0, -1.0] and box["restock"] == "box"
    late = lf.box_data(4)
    assert late["beads"] == [1.0, 1.0, 1.0] and late["number"] == 122
    with pytest.raises(ValueError, match="index 999 is outside"):
        lf.box_data(3, 999)


def test_play_box_games_is_the_bead_rule_on_the_seeded_stream():
    start = [2.0, 2.0, 2.0]
    games = lf.play_box_games(start, start, ["win", "loss", "draw", 2, 2], seed=5)
    rng = ml.base.prng.CounterRng(5)
    box = [list(start)]
    for game, delta in zip(games, (3, -1, 1, -1, -1), strict=True):
        j = beads.draw_bead(box[0], rng.random())
        beads.reinforce(box, [start], [start], [(0, j)], delta, "box", 0.0)
        assert game["colour"] == j and game["beads"] == box[0]
    with pytest.raises(ValueError, match="a result must be"):
        lf.play_box_games(start, start, ["lost"], seed=1)
    # An empty box that nothing refills ends the games.
    assert lf.play_box_games([1.0, 0.0], [1.0, 0.0], [2, 2, 2], 0, restock="none") == [
        {"colour": 0, "result": 2, "beads": [0.0, 0.0]}
    ]


def test_replay_history_counting_only_grows_and_the_bead_rule_forgets():
    steps = lf.replay_history([1, 1, 1], lf.SAMPLE_HISTORY)
    counts = np.array([s["counting"] for s in steps])
    assert (np.diff(counts, axis=0) >= 0).all() and (counts >= 1).all()
    assert [s["restocked"] for s in steps].count(True) == 1
    restock = next(i for i, s in enumerate(steps) if s["restocked"])
    assert steps[restock]["menace"] == [1.0, 1.0, 1.0]  # the win of game 1 is forgotten
    assert steps[-1]["counting"] == [1.0, 4.0, 2.0] and steps[-1]["menace"] == [1.0, 1.0, 2.0]
    with pytest.raises(ValueError, match="colour 0 has no beads"):
        lf.replay_history([1, 1, 1], [(0, 2), (0, 2)])
    with pytest.raises(ValueError, match="counting must add >= 0"):
        lf.replay_history([1, 1, 1], [], counting=(3, 1, -1))


def test_efe_box_at_lambda_zero_ignores_evidence():
    v = lf.efe_box_values(lf.EFE_BOX_ALPHAS, 0.0)
    assert v["q"][0] == pytest.approx(v["q"][1]) == pytest.approx(v["q"][2])
    assert v["q"][3] < v["q"][0]
    curious = lf.efe_box_values(lf.EFE_BOX_ALPHAS, 2.0)
    assert curious["q"][0] > curious["q"][1] > curious["q"][2]
    same = explorer_values(lf.EFE_BOX_ALPHAS, lam=2.0, lambda_policy=0.25)
    for key in ("risk", "epistemic", "G", "q"):
        assert curious[key] == pytest.approx(same[key], abs=1e-12)


def test_info_reward_run_starts_from_flat_beliefs():
    run = lf.info_reward_run(lf.INFO_TRUTH, 0.0, 50, seed=3)
    # Game 1: every move is Dir(1, 1, 1), so the policy is uniform.
    assert run["q"][0] == pytest.approx([1 / 3] * 3)
    assert run["info"][0] == pytest.approx(mutual_information([1.0, 1.0, 1.0]))
    expected = np.mean(np.array(lf.INFO_TRUTH) @ np.array([3.0, 1.0, -1.0]))
    assert run["reward"][0] == pytest.approx(expected)
    assert np.array(run["alphas"]).sum() == 9 + 50
    assert run["info"][-1] < run["info"][0] / 3  # what a game can teach falls as counts grow
    with pytest.raises(ValueError, match="games must be 0..200"):
        lf.info_reward_run(lf.INFO_TRUTH, 0.0, 201, seed=3)
    with pytest.raises(ValueError, match="summing to 1"):
        lf.info_reward_run([[0.5, 0.5, 0.5]], 0.0, 1, seed=3)


def test_widgets_carry_the_palettes_colours_and_build_without_a_kernel():
    box = ml.widgets.DirichletBox()
    assert box.results["colours"] == list(RESULT_COLOURS)
    assert box.statistics()["mean"] == pytest.approx([0.2] * 5)
    assert "Matchbox 14" in repr(box)
    cb = ml.widgets.CountVsBeads()
    assert cb.replay(cb.sample)[-1]["menace"] == [1.0, 1.0, 2.0]
    assert "Matchbox 122" in repr(cb)
    with pytest.raises(ValueError, match="no beads"):
        ml.widgets.CountVsBeads(sample=[[0, 2], [0, 2]])
    eb = ml.widgets.EfeBox(lam=1.0)
    assert eb.values()["q"] == lf.efe_box_values(lf.EFE_BOX_ALPHAS, 1.0)["q"]
    ir = ml.widgets.InfoVsReward()
    assert ir.agent["colour"] == agent_colour("pure")
    assert ir.utility == [3.0, 1.0, -1.0]
    assert ir.run(0.0, 5)["move"] == lf.info_reward_run(lf.INFO_TRUTH, 0.0, 5, lf.SEED)["move"]
    for widget in (box, cb, eb, ir):
        assert "https://" not in widget._esm and "import " not in widget._esm.split("\n", 1)[0]


# ------------------------------------------------------------------ JavaScript parity

RULES = [
    {"reinforcement": list(r), "restock": restock, "floor": floor}
    for r, restock, floor in itertools.product(
        [(3, 1, -1), (1, 0, -2), (3, 1, -3), (0.5, 0.25, -0.75)], beads.RESTOCKS, (0.0, 0.5)
    )
]
"""The bead rule's options, as tests/test_rule_parity.py's grid: every restock mode, clamp
level 0 and > 0, several reinforcement triples."""


@needs_node
def test_play_games_js_equals_python_over_the_grid():
    rng = np.random.default_rng(11)
    cases = []
    for rules in RULES:
        for start in ([2.0] * 5, [1.0, 1.0, 1.0], [4.0, 0.0, 1.0, 2.0]):
            results = rng.integers(0, 3, size=25).tolist()
            cases.append(
                {"start": start, "results": results, "seed": int(rng.integers(1e6)), "rules": rules}
            )
    out = node(
        "dirichlet_box.js",
        "playGames",
        "process.stdout.write(JSON.stringify(input.map((c) =>"
        " playGames(c.start, c.start, c.results, c.seed, c.rules, 3))));",
        cases,
    )
    played = 0
    for case, js in zip(cases, out, strict=True):
        r = case["rules"]
        py = lf.play_box_games(
            case["start"], case["start"], case["results"], case["seed"],
            r["reinforcement"], r["restock"], r["floor"], position=3,
        )  # fmt: skip
        assert js == py, case
        played += len(py)
    assert played > 1000


def _valid_histories(rules: dict, counting: list[float], rng: np.random.Generator) -> list:
    """Random histories that only play colours MENACE's box holds beads of."""
    histories = []
    for initial in ([1.0, 1.0, 1.0], [2.0, 2.0, 2.0, 2.0, 2.0], [1.0, 3.0]):
        box = [list(initial)]
        history = []
        for _ in range(30):
            live = [j for j, b in enumerate(box[0]) if b > 0]
            if not live:
                break
            j, res = int(rng.choice(live)), int(rng.choice(3, p=[0.2, 0.2, 0.6]))
            history.append([j, res])
            delta = rules["reinforcement"][res]
            beads.reinforce(
                box, [initial], [initial], [(0, j)], delta, rules["restock"], rules["floor"]
            )
        histories.append(
            {"initial": initial, "history": history, "rules": rules, "counting": counting}
        )
    return histories


@needs_node
def test_replay_history_js_equals_python_over_the_grid():
    rng = np.random.default_rng(7)
    cases = [
        case
        for rules in RULES
        for counting in ([3.0, 1.0, 0.0], [1.0, 1.0, 1.0], [1.0, 0.0, 0.0])
        for case in _valid_histories(rules, counting, rng)
    ]
    body = (
        "process.stdout.write(JSON.stringify(input.map((c) =>"
        " replayHistory(c.initial, c.history, c.rules, c.counting))));"
    )
    out = node("count_vs_beads.js", "replayHistory", body, cases)
    restocks = 0
    for case, js in zip(cases, out, strict=True):
        r = case["rules"]
        py = lf.replay_history(
            case["initial"], case["history"], r["reinforcement"], r["restock"], r["floor"],
            case["counting"],
        )  # fmt: skip
        assert js == py, case
        restocks += sum(s["restocked"] for s in py)
    assert restocks > 10  # the grid reaches the box restock


@needs_node
def test_efe_box_js_equals_python_over_lambda():
    lams = np.round(np.arange(0, 4.001, 0.25), 2).tolist()
    boxes = [lf.EFE_BOX_ALPHAS, [[1.0, 1.0, 1.0], [30.0, 15.0, 5.0]], [[0.5, 2.0, 9.0]]]
    prefs = [list(ml.maths.efe.DEFAULT_PREFERENCES), [0.2, 0.75, 0.05]]
    cases = [
        {"alphas": a, "lam": lam, "pol": pol, "prefs": p}
        for a, lam, pol, p in itertools.product(boxes, lams, (0.25, 1.0), prefs)
    ]
    out = node(
        "efe_box.js",
        "efeBox",
        "process.stdout.write(JSON.stringify(input.map((c) =>"
        " efeBox(c.alphas, c.lam, c.pol, c.prefs))));",
        cases,
    )
    for case, js in zip(cases, out, strict=True):
        py = lf.efe_box_values(case["alphas"], case["lam"], case["pol"], case["prefs"])
        for key in ("risk", "epistemic", "G", "q"):
            np.testing.assert_allclose(js[key], py[key], rtol=1e-9, atol=1e-9, err_msg=str(case))
        np.testing.assert_allclose(js["bonus"], np.array(py["epistemic"]) * case["lam"], atol=1e-12)


@needs_node
def test_simulate_box_js_equals_python_over_the_grid():
    truths = [lf.INFO_TRUTH, [[0.2, 0.3, 0.5], [0.6, 0.3, 0.1]], [[1.0, 0.0, 0.0], [0.0, 0.5, 0.5]]]
    cases = [
        {"truth": truth, "lam": lam, "seed": seed, "prior": prior, "games": 120}
        for truth, lam, seed, prior in itertools.product(
            truths, (0.0, 0.5, 2.0, 4.0), (1, 2026), (1.0, 0.5)
        )
    ]
    prefs = list(ml.maths.efe.DEFAULT_PREFERENCES)
    body = (
        "process.stdout.write(JSON.stringify(input.map((c) =>"
        " simulateBox({...c, lambdaPolicy: 0.25,"
        f" prefs: {json.dumps(prefs)}, utility: [3, 1, -1]}}))));"
    )
    out = node("info_reward.js", "simulateBox", body, cases)
    for case, js in zip(cases, out, strict=True):
        py = lf.info_reward_run(
            case["truth"], case["lam"], case["games"], case["seed"], case["prior"]
        )
        assert js["move"] == py["move"] and js["outcome"] == py["outcome"], case
        assert js["alphas"] == py["alphas"]
        for key in ("info", "reward", "q"):
            np.testing.assert_allclose(js[key], py[key], rtol=1e-9, atol=1e-9, err_msg=str(case))
