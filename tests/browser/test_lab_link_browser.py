"""The MENACE lab's link (``#lab=...``) on the static site, driven like a reader.

* Settings chosen by hand are written to the page's address, in the link's own form.
* Opening that link shows the same settings in the controls, and stepping as many games
  gives the same beads, tally, exact rates and curves as the hand-made run (and as the
  library's :class:`menace_lib.widgets.lab_games.LabSession`).
* A bad link shows a polite message naming the bad fields, uses the rest, and logs no
  console error; a change of the fragment applies the new settings; "Reset to defaults"
  takes the key out of the address and keeps the page's other fragment parts.

The conftest fixtures fail each test on console errors or requests to other hosts.
Screenshots (desktop, 390 px, dark) go to tests/output/screenshots/.
"""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from conftest import screenshots_wanted, settle, step_games

from menace_lib.widgets.lab_games import LabSession, LabSettings

pytestmark = pytest.mark.browser


@pytest.fixture
def browser_page(module_page):
    """One tab for this module's tests, each test on its own fresh page (conftest.module_page)."""
    return module_page


PAGE = "book/lab.html"
SCREENSHOTS = Path(__file__).resolve().parents[1] / "output" / "screenshots"
GAMES = 30
# Every field away from its default (tie-breaks are only shown for the perfect player).
LINK = (
    "opp:defensive;tie:lowest;side:O;layout:square;filter:michie;beads:8-4-2-1;"
    "inc:3,1,-2;restock:move;empty:stop;floor:1;refill:3;seed:7;speed:2;log:1"
)
SETTINGS = LabSettings(
    opponent="defensive",
    tie_break="lowest",
    side="O",
    layout="square",
    filter="michie",
    schedule=(8, 4, 2, 1),
    reinforcement=(3, 1, -2),
    restock="move",
    empty_box="stop",
    floor=1,
    move_restock_beads=3,
    seed=7,
)


def open_lab(browser_page, built_site: Path, fragment: str = ""):
    if not (built_site / PAGE).exists():
        pytest.skip(f"{PAGE} is not built")
    browser_page.goto(PAGE + fragment)
    browser_page.wait_for_mathjax()
    assert browser_page.wait_for_widgets() >= 1
    assert browser_page.widget_errors() == []
    browser_page.get_by_test_id("lab-box").first.wait_for()
    return browser_page


def controls(page) -> dict:
    """What the lab's controls show."""
    value = lambda testid: page.get_by_test_id(testid).input_value()  # noqa: E731
    return {
        "opponent": value("lab-opponent"),
        "tie_break": value("lab-tie-break"),
        "side": value("lab-side"),
        "layout": value("lab-layout"),
        "filter": value("lab-filter"),
        "schedule": value("lab-schedule"),
        "incentives": [value(f"lab-incentive-{r}") for r in ("win", "draw", "loss")],
        "restock": value("lab-restock"),
        "empty_box": value("lab-empty-box"),
        "floor": value("lab-floor"),
        "refill": value("lab-move-restock"),
        "seed": value("lab-seed"),
        "speed": value("lab-speed"),
        "log": page.get_by_test_id("lab-log").is_checked(),
    }


def type_in(page, testid: str, text: str) -> None:
    field = page.get_by_test_id(testid)
    field.fill(text)
    field.press("Tab")  # the change event


def play_and_record(page, tmp_path: Path, name: str) -> dict:
    """Step GAMES games by clicking; the beads (exported file), read-outs and curves."""
    step_games(page, GAMES)
    assert page.get_by_test_id("lab-games").inner_text() == str(GAMES)
    with page.expect_download() as info:
        page.get_by_test_id("lab-export").click()
    path = tmp_path / f"{name}.json"
    info.value.save_as(path)
    curves = {}
    for plot in ("lab-curve", "lab-opening", "lab-tally-plot"):
        lines = page.get_by_test_id(plot).locator("polyline")
        curves[plot] = {
            lines.nth(i).get_attribute("data-label"): lines.nth(i).get_attribute("points")
            for i in range(lines.count())
        }
    return {
        "agent": json.loads(path.read_text()),
        "tally": page.get_by_test_id("lab-tally").inner_text(),
        "exact": [
            page.get_by_test_id(t).inner_text()
            for t in ("lab-exact-draw", "lab-exact-loss", "lab-exact-random")
        ],
        "curves": curves,
    }


def hash_of(page) -> str:
    return page.evaluate("window.location.hash")


def shot(page, name: str) -> Path | None:
    """The lab, in a tall viewport (the site's sticky header stays out of the picture).

    Only with ``MENACE_SCREENSHOTS=1`` (pictures for a person; no test compares them).
    """
    if not screenshots_wanted():
        return None
    SCREENSHOTS.mkdir(parents=True, exist_ok=True)
    path = SCREENSHOTS / f"{name}.png"
    lab = page.get_by_test_id("lab")
    size = page.viewport_size
    page.set_viewport_size({"width": size["width"], "height": 4000})
    try:
        lab.scroll_into_view_if_needed()
        lab.screenshot(path=str(path))
    finally:
        page.set_viewport_size(size)
    return path


def test_a_link_replays_the_run_typed_by_hand(browser_page, built_site, tmp_path):
    page = open_lab(browser_page, built_site)
    assert "lab=" not in hash_of(page)  # nothing is written until the reader changes a setting
    page.get_by_test_id("lab-opponent").select_option("perfect")
    page.get_by_test_id("lab-tie-break").select_option("lowest")
    page.get_by_test_id("lab-opponent").select_option("defensive")
    page.get_by_test_id("lab-side").select_option("O")
    page.get_by_test_id("lab-layout").select_option("square")
    page.get_by_test_id("lab-filter").select_option("michie")
    type_in(page, "lab-schedule", "8-4-2-1")
    type_in(page, "lab-incentive-loss", "-2")
    page.get_by_test_id("lab-restock").select_option("move")
    page.get_by_test_id("lab-empty-box").select_option("stop")
    type_in(page, "lab-floor", "1")
    type_in(page, "lab-move-restock", "3")
    type_in(page, "lab-seed", "7")
    page.get_by_test_id("lab-speed").select_option("2")
    page.get_by_test_id("lab-log").check()
    assert hash_of(page) == f"#lab={LINK}"  # the hand-made settings, in the link's form
    by_hand = controls(page)
    typed = play_and_record(page, tmp_path, "typed")

    page.page.goto("about:blank")  # a fresh load of the page, not just a new fragment
    page = open_lab(browser_page, built_site, f"#notes&lab={LINK}")
    assert controls(page) == by_hand
    message = page.get_by_test_id("lab-message")
    assert "Settings from the link (seed 7)" in message.inner_text()
    assert page.get_by_test_id("lab-games").inner_text() == "0"
    linked = play_and_record(page, tmp_path, "linked")
    assert linked == typed

    # ... and both are the library's games.
    reference = LabSession(SETTINGS)
    assert reference.play(GAMES) == GAMES
    assert linked["agent"]["boxes"] == [
        {**box, "beads": beads}
        for box, beads in zip(typed["agent"]["boxes"], reference.menace.weights, strict=True)
    ]
    t = reference.tally
    assert linked["tally"] == f"{t['win']} won · {t['draw']} drawn · {t['loss']} lost"

    # Playing writes nothing; the other fragment part survives every write.
    assert hash_of(page) == f"#notes&lab={LINK}"
    page.get_by_test_id("lab-share").click()
    link = page.get_by_test_id("lab-link")
    assert link.is_visible() and link.input_value().endswith(f"#notes&lab={LINK}")
    shot(page, "lab-link-desktop")


def test_a_bad_link_is_named_and_the_rest_is_used(browser_page, built_site):
    page = open_lab(browser_page, built_site, "#lab=opp:wizard;seed:x;floor:0.5;zoom:3;beads:2-2")
    message = page.get_by_test_id("lab-message")
    text = message.inner_text()
    assert text.startswith("Could not use all of this link:")
    for named in ('opp "wizard"', 'seed "x"', '"zoom" is not a setting'):
        assert named in text
    assert 'floor "' not in text and 'beads "' not in text  # the good fields are not blamed
    assert message.is_visible()
    c = controls(page)
    assert (c["opponent"], c["seed"]) == ("perfect", "1")  # bad fields keep their defaults
    assert (c["floor"], c["schedule"]) == ("0.5", "2-2")  # good ones are used
    shot(page, "lab-link-bad")

    page.set_viewport_size({"width": 390, "height": 844})
    settle(page)
    width = page.evaluate("document.documentElement.scrollWidth")
    assert width <= 390 + 1, f"the page scrolls sideways at 390 px ({width} px wide)"
    page.get_by_test_id("lab-share").click()
    shot(page, "lab-link-phone")
    page.set_viewport_size({"width": 1280, "height": 900})

    # A new fragment is applied at once (a link clicked on the same page).
    page.evaluate("window.location.hash = '#top&lab=opp:random;seed:5'")
    page.get_by_text("Settings from the link (seed 5)").wait_for()
    c = controls(page)
    assert (c["opponent"], c["seed"], c["floor"], c["schedule"]) == ("random", "5", "0", "4-3-2-1")
    assert page.get_by_test_id("lab-link").is_hidden()  # it showed the previous address
    page.get_by_test_id("lab-step").click()
    page.evaluate("document.documentElement.setAttribute('data-theme', 'dark')")
    shot(page, "lab-link-dark")
    page.evaluate("document.documentElement.setAttribute('data-theme', 'light')")

    # Reset to defaults: the lab as built, and the key gone from the address.
    page.get_by_test_id("lab-defaults").click()
    assert hash_of(page) == "#top"
    c = controls(page)
    assert (c["opponent"], c["seed"], c["speed"]) == ("perfect", "1", "3")
    assert page.get_by_test_id("lab-games").inner_text() == "0"


def test_the_pages_example_link(browser_page, built_site):
    page = open_lab(browser_page, built_site)
    page.locator('a[href="#lab=opp:random;seed:1"]').click()
    page.get_by_text("Settings from the link (seed 1)").wait_for()
    assert controls(page)["opponent"] == "random"
