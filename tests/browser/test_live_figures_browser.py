"""The live figures of the four Bayesian-observer chapters, driven as a reader would.

Each figure is opened on its built page at 390 px, found within the page's first two
screens, operated by clicking and by the keyboard, and every number it shows is compared
with the Python reference in ``menace_lib.widgets.live_figures``; then the window is widened
to 1280 px, where the figure must again start within two screens and fit. The default run
operates each figure at 390 px only: the same clicks and keys at 1280 px run the same code
on the same numbers (only the layout differs, and that is checked at both widths), so the
run at 1280 px is left to the long run (``--thorough``). The
``browser_page`` fixture fails a test on console errors, page errors, widget error boxes
and any request to another host. Screenshots (light at both widths, dark at 390 px) go to
``tests/output/screenshots/``.
"""

from __future__ import annotations

import pytest
from conftest import settle
from test_widgets_browser import element_shot, open_page, set_theme

from menace_lib.widgets import live_figures as lf
from menace_lib.widgets.inspector import bead_statistics

pytestmark = pytest.mark.browser


@pytest.fixture
def browser_page(module_page):
    """One tab for this module's tests, each test on its own fresh page (conftest.module_page)."""
    return module_page


VIEWPORTS = {1280: {"width": 1280, "height": 900}, 390: {"width": 390, "height": 844}}


# The figures are operated at 390 px by default, at 1280 px too in the long run (see above).
WIDTHS = [pytest.param(1280, marks=pytest.mark.thorough), 390]


def open_figure(browser_page, built_site, path: str, testid: str, width: int):
    page = browser_page.page
    page.set_viewport_size(VIEWPORTS[width])
    open_page(browser_page, built_site, path)
    root = page.get_by_test_id(testid)
    assert root.count() == 1, f"{testid} is not on {path}"
    within_two_screens(page, root, width)
    return page, root


def within_two_screens(page, root, width: int) -> None:
    top = root.evaluate("el => el.getBoundingClientRect().top + window.scrollY")
    screens = top / VIEWPORTS[width]["height"]
    testid = root.get_attribute("data-testid")
    assert screens < 2, f"{testid} starts {screens:.2f} screens down {page.url} at {width} px"


def also_on_a_desktop(page, root, width: int) -> None:
    """After the figure was operated at 390 px: widened to 1280 px, it starts within two
    screens and fits (what the long run's test at 1280 px checks on opening)."""
    if width == 1280:
        return
    page.set_viewport_size(VIEWPORTS[1280])
    settle(page)
    within_two_screens(page, root, 1280)
    fits(page, root)


def fits(page, root) -> None:
    inner = page.evaluate("window.innerWidth")
    assert page.evaluate("document.documentElement.scrollWidth") <= inner, "page scrolls sideways"
    right = root.evaluate("el => el.getBoundingClientRect().right")
    assert right <= inner, f"the figure ends at {right} px, past the {inner} px window"


def press(page, testid: str, key: str = "Enter") -> None:
    """Operate a control with the keyboard: reach it with Tab (from the control before it),
    check that the focus shows, press a key."""
    control = page.get_by_test_id(testid)
    control.focus()
    page.keyboard.press("Shift+Tab")
    page.keyboard.press("Tab")
    outline = control.evaluate(
        "el => el === document.activeElement && el.matches(':focus-visible')"
        " && getComputedStyle(el).outlineStyle !== 'none'"
        " && parseFloat(getComputedStyle(el).outlineWidth) >= 2"
    )
    assert outline, f"{testid} shows no focus outline"
    page.keyboard.press(key)


def value(page, testid: str) -> float:
    return float(page.get_by_test_id(testid).get_attribute("data-value"))


def shots(page, root, name: str, width: int) -> None:
    element_shot(root, f"{name}-{width}")
    if width == 390:
        set_theme(page, "dark")
        element_shot(root, f"{name}-{width}-dark")
        set_theme(page, "light")


# ------------------------------------------------------------------ the Dirichlet box


@pytest.mark.parametrize("width", WIDTHS)
def test_dirichlet_box(browser_page, built_site, width):
    page, root = open_figure(
        browser_page, built_site, "book/dirichlet_categorical.html", "dirichlet-box", width
    )
    box = lf.box_data(3)
    k = len(box["beads"])

    def shown_beads() -> list[float]:
        return [value(page, f"db-beads-{j}") for j in range(k)]

    def check_statistics() -> None:
        stats = bead_statistics(shown_beads())
        assert value(page, "db-total") == stats["total"]
        for j in range(k):
            assert value(page, f"db-p-{j}") == pytest.approx(stats["mean"][j], abs=1e-12)
            assert value(page, f"db-var-{j}") == pytest.approx(stats["variance"][j], abs=1e-12)

    assert shown_beads() == box["beads"]
    check_statistics()
    fits(page, root)
    # Beads added and removed by click and by keyboard.
    page.get_by_test_id("db-plus-0").click()
    press(page, "db-minus-1")
    press(page, "db-plus-0", " ")
    assert shown_beads() == [4.0, 1.0, 2.0, 2.0, 2.0]
    assert value(page, "db-p-0") == pytest.approx(4 / 11)
    check_statistics()
    # Games from the first beads: the page's draws are the Python reference's.
    page.get_by_test_id("db-reset").click()
    assert shown_beads() == box["beads"]
    results = ["loss", "win", "loss", "draw", "loss", "loss"]
    for i, result in enumerate(results):
        if i % 2:
            press(page, f"db-{result}")
        else:
            page.get_by_test_id(f"db-{result}").click()
    games = lf.play_box_games(box["beads"], box["beads"], results, lf.SEED)
    assert shown_beads() == games[-1]["beads"]
    assert page.get_by_test_id("db-status").get_attribute("data-colour") == str(games[-1]["colour"])
    check_statistics()
    # Removing is refused at 0 beads: the button is disabled.
    empty = next((j for j, b in enumerate(games[-1]["beads"]) if b == 0), None)
    if empty is not None:
        assert page.get_by_test_id(f"db-minus-{empty}").is_disabled()
    fits(page, root)
    shots(page, root, "live-dirichlet-box", width)
    also_on_a_desktop(page, root, width)


# ------------------------------------------------------------ counting versus beads


@pytest.mark.parametrize("width", WIDTHS)
def test_counting_versus_beads(browser_page, built_site, width):
    page, root = open_figure(
        browser_page, built_site, "book/quasi_bayesian.html", "count-vs-beads", width
    )
    box = lf.box_data(4)
    k = len(box["beads"])

    def boxes() -> tuple[list[float], list[float]]:
        return (
            [value(page, f"cb-count-{j}") for j in range(k)],
            [value(page, f"cb-menace-{j}") for j in range(k)],
        )

    assert boxes() == (box["beads"], box["beads"])
    fits(page, root)
    page.get_by_test_id("cb-sample").click()
    steps = lf.replay_history(box["beads"], lf.SAMPLE_HISTORY)
    assert boxes() == (steps[-1]["counting"], steps[-1]["menace"])
    assert page.get_by_test_id("cb-menace-summary").get_attribute("data-restocks") == "1"
    assert value(page, "cb-games") == len(lf.SAMPLE_HISTORY)
    if width == 390:
        fits(page, root)
        shots(page, root, "live-count-vs-beads-sample", width)
    press(page, "cb-undo")
    assert value(page, "cb-games") == len(lf.SAMPLE_HISTORY) - 1
    page.get_by_test_id("cb-clear").click()
    assert boxes() == (box["beads"], box["beads"])
    # A loss on the third colour by keyboard empties it in MENACE's box, not in the count.
    press(page, "cb-move-2")
    assert page.get_by_test_id("cb-move-2").get_attribute("aria-pressed") == "true"
    press(page, "cb-loss")
    history = [(2, 2)]
    assert page.get_by_test_id("cb-move-2").is_disabled()
    page.get_by_test_id("cb-move-0").click()
    page.get_by_test_id("cb-win").click()
    history.append((0, 0))
    press(page, "cb-move-1", " ")
    press(page, "cb-draw")
    history.append((1, 1))
    steps = lf.replay_history(box["beads"], history)
    assert boxes() == (steps[-1]["counting"], steps[-1]["menace"])
    assert page.get_by_test_id("cb-menace-flag-2").inner_text() == "empty"
    assert page.get_by_test_id("cb-count-flag-2").inner_text() == ""
    fits(page, root)
    shots(page, root, "live-count-vs-beads", width)
    also_on_a_desktop(page, root, width)


# --------------------------------------------------------------- free energy of a box


@pytest.mark.parametrize("width", WIDTHS)
def test_free_energy_of_a_box(browser_page, built_site, width):
    page, root = open_figure(
        browser_page, built_site, "book/free_energy_menace.html", "efe-box", width
    )
    n = len(lf.EFE_BOX_ALPHAS)

    def check(lam: float) -> None:
        assert float(page.get_by_test_id("eb-lam").input_value()) == pytest.approx(lam)
        want = lf.efe_box_values(lf.EFE_BOX_ALPHAS, lam)
        for a in range(n):
            assert value(page, f"eb-risk-{a}") == pytest.approx(want["risk"][a], abs=1e-9)
            assert value(page, f"eb-epi-{a}") == pytest.approx(lam * want["epistemic"][a], abs=1e-9)
            assert value(page, f"eb-G-{a}") == pytest.approx(want["G"][a], abs=1e-9)
            assert value(page, f"eb-q-{a}") == pytest.approx(want["q"][a], abs=1e-9)

    check(0.0)
    # lambda = 0 is MENACE: three moves with the same predictions get the same share.
    q = [value(page, f"eb-q-{a}") for a in range(3)]
    assert q[0] == pytest.approx(q[1]) == pytest.approx(q[2])
    fits(page, root)
    press(page, "eb-lam", "ArrowRight")
    for _ in range(9):
        page.keyboard.press("ArrowRight")
    check(0.1)
    page.keyboard.press("End")
    check(4.0)
    assert value(page, "eb-q-0") > value(page, "eb-q-1") > value(page, "eb-q-2")
    if width == 390:
        shots(page, root, "live-efe-box-lam4", width)
    press(page, "eb-zero")
    check(0.0)
    page.get_by_test_id("eb-lam").fill("2")
    check(2.0)
    fits(page, root)
    shots(page, root, "live-efe-box", width)
    also_on_a_desktop(page, root, width)


# -------------------------------------------------------- information against reward


@pytest.mark.parametrize("width", WIDTHS)
def test_information_against_reward(browser_page, built_site, width):
    page, root = open_figure(
        browser_page, built_site, "book/epistemic_vs_instrumental.html", "info-reward", width
    )
    widget = lf.InfoVsReward()

    def check(games: int, lam: float) -> None:
        assert value(page, "ir-games") == games
        for run, at in (("zero", 0.0), ("lam", lam)):
            want = lf.info_reward_run(widget.truth, at, games, widget.seed)
            assert value(page, f"ir-info-{run}") == pytest.approx(sum(want["info"]), abs=1e-9)
            assert value(page, f"ir-reward-{run}") == pytest.approx(sum(want["reward"]), abs=1e-9)
            plays = [want["move"].count(a) for a in range(len(widget.truth))]
            assert page.get_by_test_id(f"ir-moves-{run}").inner_text() == " · ".join(
                map(str, plays)
            )
        for plot in ("ir-plot-info", "ir-plot-reward"):
            assert page.get_by_test_id(plot).get_attribute("data-last-x") == str(games)

    check(0, widget.lam)
    assert page.get_by_test_id("ir-restart").is_disabled()
    page.get_by_test_id("ir-step").click()
    check(1, widget.lam)
    press(page, "ir-ten")
    check(11, widget.lam)
    press(page, "ir-lam", "ArrowLeft")
    check(11, widget.lam - 0.05)
    page.get_by_test_id("ir-ten").click()
    page.get_by_test_id("ir-ten").click()
    check(31, widget.lam - 0.05)
    fits(page, root)
    shots(page, root, "live-info-reward", width)
    press(page, "ir-all", " ")
    check(widget.max_games, widget.lam - 0.05)
    assert page.get_by_test_id("ir-step").is_disabled()
    page.get_by_test_id("ir-restart").click()
    check(0, widget.lam - 0.05)
    also_on_a_desktop(page, root, width)
