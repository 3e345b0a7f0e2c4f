"""The search chapter's live figure, driven as a reader would.

The figure is opened on its built page at 390 px, found within the page's first two
screens, its two sliders moved with the keyboard, and the losses it shows are compared with
the cached sweep (its stored summary at the headline checkpoint, the seeds' 95 % interval
elsewhere); widened to 1280 px it must again start within two screens and fit. As for the
live figures (test_live_figures_browser.py), the same keys at 1280 px run the same code on
the same numbers, so that run is left to the long run (``--thorough``). The
``browser_page`` fixture fails the test on console errors, page errors, widget error boxes
and any request to another host. Screenshots (light at both widths, dark at 390 px) go to
``tests/output/screenshots/``.
"""

from __future__ import annotations

import json

import pytest
from test_live_figures_browser import WIDTHS, also_on_a_desktop, fits, open_figure, shots

import menace_lib as ml

pytestmark = pytest.mark.browser


@pytest.fixture
def browser_page(module_page):
    """One tab for this module's tests, each test on its own fresh page (conftest.module_page)."""
    return module_page


PAGE = "book/beyond_search.html"


def focus(page, testid: str) -> None:
    """Reach a slider with Tab (from the control before it) and check its focus shows."""
    control = page.get_by_test_id(testid)
    control.focus()
    page.keyboard.press("Shift+Tab")
    page.keyboard.press("Tab")
    shown = control.evaluate(
        "el => el === document.activeElement && el.matches(':focus-visible')"
        " && getComputedStyle(el).outlineStyle !== 'none'"
    )
    assert shown, f"{testid} shows no focus outline"


def shown(page, testid: str) -> str:
    return page.get_by_test_id(testid).inner_text().strip()


@pytest.mark.parametrize("width", WIDTHS)
def test_search_explorer(browser_page, built_site, width):
    page, root = open_figure(browser_page, built_site, PAGE, "search-explorer", width)
    stored = json.loads(ml.book.book_data("hybrid_search.json").read_text(encoding="utf-8"))
    summary = stored["summary"]["connect4:4x4/puct"]
    fits(page, root)

    # First view: the headline, 3,000 games, 16 simulations a move.
    assert shown(page, "se-games-value") == "3,000"
    assert shown(page, "se-sims-value") == "16"
    loss = float(page.get_by_test_id("se-loss-puct").get_attribute("data-value"))
    assert loss == pytest.approx(100 * summary["loss_3000g_16sims"]["mean"], rel=1e-12)

    # 64 simulations by the keyboard: one step right on the budget slider.
    focus(page, "se-sims")
    page.keyboard.press("ArrowRight")
    assert shown(page, "se-sims-value") == "64"
    row = summary["loss_3000g_64sims"]
    assert shown(page, "se-loss-puct") == f"{100 * row['mean']:.2f} %"
    assert shown(page, "se-high-puct") == f"{100 * row['high']:.2f}"
    assert page.get_by_test_id("se-loss-thompson").get_attribute("data-value") != ""

    # 1,000 games by the keyboard: the bead-prior search from the seeds' records; Thompson
    # sampling was not scored there, and says so.
    focus(page, "se-games")
    page.keyboard.press("ArrowLeft")
    assert shown(page, "se-games-value") == "1,000"
    runs = [r for r in stored["records"] if r["condition"] == "connect4:4x4/puct"]
    mean = ml.mean_ci([r["loss"][1][3] for r in runs])["mean"]
    assert float(page.get_by_test_id("se-loss-puct").get_attribute("data-value")) == (
        pytest.approx(100 * mean, rel=1e-12)
    )
    assert "not scored" in shown(page, "se-row-thompson")
    # Greedy beads do not search: the same loss at every budget.
    greedy = shown(page, "se-loss-greedy")
    page.keyboard.press("Home")
    focus(page, "se-sims")
    page.keyboard.press("Home")
    assert shown(page, "se-sims-value") == "0"
    page.get_by_test_id("se-games").focus()
    page.keyboard.press("End")
    assert shown(page, "se-games-value") == "30,000"
    page.keyboard.press("Home")
    page.keyboard.press("ArrowRight")
    assert shown(page, "se-loss-greedy") == greedy
    assert "1,000 games" in shown(page, "se-note")
    fits(page, root)
    shots(page, root, "search-explorer", width)
    also_on_a_desktop(page, root, width)
