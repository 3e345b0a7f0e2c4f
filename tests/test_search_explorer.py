"""The search chapter's live figure (menace_lib.widgets.search_explorer.SearchExplorer).

Its data are the cached sweep's numbers: at the headline checkpoint they must equal the
sweep summary stored in the cache, and elsewhere the 95 % interval over the seeds'
records. The page's JavaScript helpers run with node.
"""

from __future__ import annotations

import json

import pytest
from node_runner import needs_node, run_module

import menace_lib as ml
from menace_lib.base import palette
from menace_lib.base.confidence import mean_ci
from menace_lib.widgets import search_explorer as se

CACHE = ml.book.book_data("hybrid_search.json")


@pytest.fixture(scope="module")
def stored():
    return json.loads(CACHE.read_text(encoding="utf-8"))


@pytest.fixture(scope="module")
def widget():
    return ml.widgets.SearchExplorer(ml.book.beyond.hybrid_figures.explorer_data())


def cell(widget, arm: str, games: int, sims: int) -> dict | None:
    data = widget.data
    a = next(a for a in data["arms"] if a["arm"] == arm)
    return a["loss"][data["checkpoints"].index(games)][data["budgets"].index(sims)]


@pytest.mark.parametrize("sims", [0, 64])
def test_data_equal_the_sweep_summary_at_the_headline(widget, stored, sims):
    games = widget.data["headline"]
    assert games == 3000
    game = stored["config"]["conditions"][0].split("/")[0]
    checked = 0
    for a in widget.data["arms"]:
        row = stored["summary"][f"{game}/{a['arm']}"][f"loss_{games}g_{sims}sims"]
        got = cell(widget, a["arm"], games, sims)
        if row["n"] == 0:  # a searcher without search has only its 0 column
            assert not a["searches"]
            row = stored["summary"][f"{game}/{a['arm']}"][f"loss_{games}g_0sims"]
        assert got == {k: row[k] for k in ("mean", "low", "high")}, a["arm"]
        checked += 1
    assert checked == 6


def test_data_off_the_headline_are_the_seeds_interval(widget, stored):
    runs = [r for r in stored["records"] if r["condition"].endswith("/puct")]
    i, j = stored["config"]["options"]["checkpoints"].index(1000), runs[0]["budgets"].index(64)
    ci = mean_ci([r["loss"][i][j] for r in runs])
    assert cell(widget, "puct", 1000, 64) == {k: ci[k] for k in ("mean", "low", "high")}
    # Thompson sampling was sampled at the headline only; UCT once, for every checkpoint.
    assert cell(widget, "thompson", 1000, 64) is None
    assert cell(widget, "uct", 1000, 64) == cell(widget, "uct", 3000, 64)


def test_widget_shows_the_headline_and_carries_the_palette(widget):
    assert (widget.checkpoint, widget.budget) == (2, 2)
    arms = {a["arm"]: a for a in widget.data["arms"]}
    assert arms["puct"]["colour"] == palette.BLUE
    assert arms["thompson"]["scored"] == "sampled" and arms["puct"]["scored"] == "exact"
    assert "https://" not in widget._esm and not widget._esm.lstrip().startswith("import")


def test_bad_data_and_settings_are_refused_in_one_line(widget):
    data = json.loads(json.dumps(widget.data))
    with pytest.raises(ValueError, match="checkpoint must be one of"):
        ml.widgets.SearchExplorer(data, checkpoint=2000)
    with pytest.raises(ValueError, match="budget must be one of"):
        ml.widgets.SearchExplorer(data, budget=5)
    data["arms"][0]["loss"][0][0] = {"mean": 0.5, "low": 0.6, "high": 0.7}
    with pytest.raises(ValueError, match="low <= mean <= high"):
        se.check_data(data)
    data["arms"][0]["loss"].pop()
    with pytest.raises(ValueError, match="one row per checkpoint"):
        se.check_data(data)


@needs_node
def test_page_helpers(widget):
    url = json.dumps(f"file://{se.__file__.removesuffix('.py')}.js")
    out = run_module(
        f"import {{ axisPosition, percentText, dataProblem }} from {url};"
        "let text = ''; for await (const c of process.stdin) text += c;"
        "const data = JSON.parse(text);"
        "process.stdout.write(JSON.stringify({"
        "pos: [0, 0.5, 1, 10, 100, 150].map(axisPosition),"
        "text: [0, 0.06, 1.5345, 74.7].map(percentText),"
        "good: dataProblem(data), bad: dataProblem({...data, arms: []})}));",
        widget.data,
    )
    assert out["pos"] == pytest.approx([0, 0.125, 0.25, 0.625, 1, 1])
    assert out["text"] == ["0", "0.060", "1.53", "74.70"]
    assert out["good"] is None and out["bad"] == "no searchers"
