"""The MENACE lab on the static site (book/lab.html), driven like a reader (headless Chromium).

Each test also fails on console errors, page errors, widget error boxes and requests to
other hosts (conftest.py). Screenshots go to tests/output/screenshots/; the measured
games per second to tests/output/lab_speed.json (reported, not asserted: speed targets
belong in benchmarks).
"""

from __future__ import annotations

import json
import re
import time
from pathlib import Path

import pytest
from conftest import screenshots_wanted, settle, step_games

from menace_lib.machine.menace import Menace
from menace_lib.play.evaluation import exact_outcome
from menace_lib.play.opponents import make_opponent
from menace_lib.widgets.lab_games import LabSession, LabSettings

pytestmark = pytest.mark.browser


@pytest.fixture
def browser_page(module_page):
    """One tab for this module's tests, each test on its own fresh page (conftest.module_page)."""
    return module_page


PAGE = "book/lab.html"
OUTPUT = Path(__file__).resolve().parents[1] / "output"
SCREENSHOTS = OUTPUT / "screenshots"
FASTEST = "5"  # index of "as fast as possible" in the speed menu
GAMES_AT_LEAST = "n => Number(document.querySelector('[data-testid=lab-games]').textContent) >= n"


def open_lab(browser_page, built_site: Path):
    if not (built_site / PAGE).exists():
        pytest.skip(f"{PAGE} is not built")
    browser_page.goto(PAGE)
    browser_page.wait_for_mathjax()
    assert browser_page.wait_for_widgets() >= 1
    assert browser_page.widget_errors() == []
    browser_page.get_by_test_id("lab-box").first.wait_for()
    return browser_page


def games(page) -> int:
    return int(page.get_by_test_id("lab-games").inner_text())


def exact_draw(page) -> float:
    text = page.get_by_test_id("lab-exact-draw").inner_text()
    match = re.fullmatch(r"(\d+\.\d+)%", text.strip())
    assert match, f"lab-exact-draw should read like 23.59%, got {text!r}"
    return float(match.group(1))


def run_until(page, at_least: int) -> None:
    """Press Run, wait until the lab has played ``at_least`` games in all, press Pause."""
    page.get_by_test_id("lab-run").click()
    page.wait_for_function(GAMES_AT_LEAST, arg=at_least, timeout=120_000)
    page.get_by_test_id("lab-run").click()  # pause


def redraws(page) -> int:
    return int(page.get_by_test_id("lab-curve").get_attribute("data-redraws"))


def shot(locator, name: str) -> Path | None:
    """Screenshot the widget; a tall viewport keeps the site's sticky header out of it.

    Only with ``MENACE_SCREENSHOTS=1`` (pictures for a person; no test compares them).
    """
    if not screenshots_wanted():
        return None
    SCREENSHOTS.mkdir(parents=True, exist_ok=True)
    path = SCREENSHOTS / f"{name}.png"
    page = locator.page
    size = page.viewport_size
    page.set_viewport_size({"width": size["width"], "height": 4000})
    try:
        locator.scroll_into_view_if_needed()
        locator.screenshot(path=str(path))
    finally:
        page.set_viewport_size(size)
    return path


def test_runs_against_the_perfect_player(browser_page, built_site):
    page = open_lab(browser_page, built_site)
    assert page.get_by_test_id("lab-box").count() == 304  # move classes, decision filter
    page.get_by_test_id("lab-opponent").select_option("perfect")
    page.get_by_test_id("lab-speed").select_option(FASTEST)
    untrained = exact_draw(page)
    assert untrained == pytest.approx(100 * LabSession(LabSettings()).exact()["draw"], abs=0.005)
    before_redraws = redraws(page)
    start_games, start = games(page), time.perf_counter()
    # Run until the games have risen by hundreds (no wall-clock assertion: the speed is only
    # reported; the run must get there, however slow the machine).
    page.get_by_test_id("lab-run").click()
    page.wait_for_function(GAMES_AT_LEAST, arg=start_games + 300, timeout=120_000)
    end_games, end = games(page), time.perf_counter()
    in_page = int(page.get_by_test_id("lab").get_attribute("data-rate"))  # over the last second
    page.get_by_test_id("lab-run").click()  # pause
    assert page.get_by_test_id("lab").get_attribute("data-running") == "false"
    assert end_games - start_games >= 300, "games should rise by hundreds"
    assert exact_draw(page) != untrained
    assert redraws(page) > before_redraws
    assert int(page.get_by_test_id("lab-curve").get_attribute("data-last-x")) == games(page)
    rate = (end_games - start_games) / (end - start)
    OUTPUT.mkdir(parents=True, exist_ok=True)
    report = {
        "games_per_second": round(rate),  # wall clock around the run, clicks included
        "games_per_second_in_page": in_page,  # the page's own count over its last second
        "games": end_games,
        "seconds": round(end - start, 2),
    }
    (OUTPUT / "lab_speed.json").write_text(json.dumps(report))
    print(f"\nMENACE lab in headless Chromium: {rate:,.0f} games/s ({in_page:,} in the page)")
    shot(page.get_by_test_id("lab"), "lab-desktop")


def test_browser_games_are_the_librarys(browser_page, built_site, tmp_path):
    """Step 25 games, export: the file loads in Python and equals the library's replay."""
    page = open_lab(browser_page, built_site)
    page.get_by_test_id("lab-reset").click()
    step_games(page, 25)
    assert games(page) == 25
    with page.expect_download() as info:
        page.get_by_test_id("lab-export").click()
    path = tmp_path / "menace.json"
    info.value.save_as(path)
    agent = Menace.load(path)
    reference = LabSession(LabSettings())
    reference.play(25)
    assert agent.weights == reference.menace.weights
    assert agent.config == reference.menace.config and agent.games_trained == 25
    expected = 100 * exact_outcome(agent, make_opponent("perfect", "uniform"))["draw"]
    assert exact_draw(page) == pytest.approx(expected, abs=0.005)


def test_box_counts_follow_the_layout(browser_page, built_site):
    page = open_lab(browser_page, built_site)
    boxes = page.get_by_test_id("lab-box")
    page.get_by_test_id("lab-filter").select_option("michie")
    assert boxes.count() == 287
    # The boxes stand in the printed kit's order and carry its numbers.
    numbers = boxes.evaluate_all("bs => bs.map((b) => Number(b.dataset.number))")
    assert numbers == list(range(1, 288))
    page.get_by_test_id("lab-layout").select_option("square")
    page.get_by_test_id("lab-filter").select_option("all")
    assert boxes.count() == 338
    page.get_by_test_id("lab-side").select_option("O")
    assert boxes.count() == 289  # every canonical O-to-move position
    page.get_by_test_id("lab-step").click()
    assert page.locator(".mw-lab-box.mw-lab-used").count() >= 1  # the boxes just opened


def test_import_an_agent(browser_page, built_site, tmp_path):
    agent = LabSession(LabSettings(opponent="random", seed=5))
    agent.play(200)
    path = tmp_path / "trained.json"
    agent.menace.save(path)
    page = open_lab(browser_page, built_site)
    page.get_by_test_id("lab-import").set_input_files(str(path))
    page.get_by_text("Imported trained.json").wait_for()
    expected = 100 * exact_outcome(agent.menace, make_opponent("perfect", "uniform"))["draw"]
    assert exact_draw(page) == pytest.approx(expected, abs=0.005)
    assert games(page) == 0
    bad = tmp_path / "bad.json"
    bad.write_text('{"format": "something else"}')
    page.get_by_test_id("lab-import").set_input_files(str(bad))
    page.get_by_text("Could not import bad.json").wait_for()


def test_play_against_menace(browser_page, built_site):
    page = open_lab(browser_page, built_site)
    page.get_by_test_id("lab-opponent").select_option("human")
    marks = page.locator('[data-testid^="lab-cell-"] .mw-mark')

    def placed() -> int:
        return sum(1 for t in marks.all_inner_texts() if t.strip())

    assert placed() == 1  # MENACE (X) has opened
    empty = next(i for i in range(9) if not marks.nth(i).inner_text().strip())
    page.get_by_test_id(f"lab-cell-{empty}").click()
    assert placed() == 3  # the reader's O, then MENACE's reply
    assert page.get_by_test_id("lab-run").is_disabled()


def test_phone_and_dark_theme(browser_page, built_site):
    page = open_lab(browser_page, built_site)
    page.get_by_test_id("lab-speed").select_option("4")
    run_until(page, 100)  # curves, tally and used boxes to draw
    lab = page.get_by_test_id("lab")
    page.evaluate("document.documentElement.setAttribute('data-theme', 'dark')")
    shot(lab, "lab-dark")
    page.evaluate("document.documentElement.setAttribute('data-theme', 'light')")
    page.set_viewport_size({"width": 390, "height": 844})
    settle(page)
    width = page.evaluate("document.documentElement.scrollWidth")
    assert width <= 390 + 1, f"the page scrolls sideways at 390 px ({width} px wide)"
    shot(lab, "lab-phone")
