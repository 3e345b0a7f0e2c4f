"""The noisy-eyes widget: its data, its Python reference against the library's belief,
and its JavaScript against the Python reference (in node)."""

from __future__ import annotations

import json

import numpy as np
import pytest
from node_runner import needs_node, run_module

import menace_lib as ml
from menace_lib.agents import noisy
from menace_lib.widgets import _bundle
from menace_lib.widgets.noisy_eyes import WIDGETS_DIR, NoisyEyesWidget, observer_view

READ_STDIN = """
let text = "";
for await (const chunk of process.stdin) text += chunk;
const input = JSON.parse(text);
"""


@pytest.fixture(scope="module")
def widget() -> NoisyEyesWidget:
    agent = ml.Menace()
    agent.train_against(ml.make_opponent("perfect"), 200, np.random.default_rng(0))
    return NoisyEyesWidget.from_policy(noisy.menace_policy(agent))


def test_the_widget_holds_every_position_where_the_machine_moves(widget):
    n = sum(len(ids) for _, ids in noisy.ply_support(1))
    assert len(widget.positions) == len(widget.policy) == len(widget.reach) == n
    assert all(abs(sum(row) - 1000) <= 9 for row in widget.policy)
    assert widget.examples and all(0 <= i < n for i in widget.examples)
    assert "Interactive in a browser" in repr(widget)


@pytest.mark.parametrize("bad", [-0.01, 0.31, float("nan")])
def test_the_slider_refuses_a_rate_outside_its_range(widget, bad):
    with pytest.raises(Exception, match="eps"):
        widget.eps = bad


def test_the_reference_belief_is_the_librarys(widget):
    T = ml.game_tables()
    reading = "XO.X....O"  # four stones where the machine moves at ply 2 or 4
    view = observer_view(reading, 0.1, 4, widget.positions, widget.reach)
    ids, post = noisy.belief([".XO".index(c) for c in reading], 0.1, 4)
    by_text = {T.text(i): p for i, p in zip(ids.tolist(), post.tolist(), strict=True)}
    for idx, p in view["uniform"]["belief"]:
        assert p == pytest.approx(by_text[widget.positions[idx]], abs=1e-12)


@needs_node
def test_the_page_computes_what_the_reference_does(widget):
    readings = [("XO.X....O", 0.1, 4), ("X........", 0.0, 0), ("XX.......", 0.05, 2),
                ("XOXO.X.O.", 0.2, 6), (".........", 0.3, 2)]  # fmt: skip
    script = (
        f"import {{ observe }} from {json.dumps((WIDGETS_DIR / 'noisy_eyes.js').as_uri())};"
        + READ_STDIN
        + "process.stdout.write(JSON.stringify(input.cases.map(([r, e, p]) =>"
        " observe(r, e, p, input.positions, input.reach))));"
    )
    payload = {"cases": readings, "positions": widget.positions, "reach": widget.reach}
    js = run_module(script, payload)
    for got, (r, e, p) in zip(js, readings, strict=True):
        want = observer_view(r, e, p, widget.positions, widget.reach)
        for name in noisy.OBSERVERS:
            assert got[name]["opens"] == want[name]["opens"], (r, name)
        for name in ("uniform", "reach"):
            assert [i for i, _ in got[name]["belief"]] == [i for i, _ in want[name]["belief"]]
            assert np.allclose(
                [q for _, q in got[name]["belief"]],
                [q for _, q in want[name]["belief"]],
                atol=1e-12,
            )


@needs_node
def test_the_bundle_loads_as_one_module(tmp_path):
    path = tmp_path / "widget.mjs"
    path.write_text(_bundle.bundle("noisy_eyes.js"))
    out = run_module(
        f"const m = await import({json.dumps(path.as_uri())});"
        "process.stdout.write(JSON.stringify(typeof m.default.render));",
        None,
    )
    assert out == "function"
