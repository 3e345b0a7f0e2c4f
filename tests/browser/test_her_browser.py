"""Play HER in the browser: a whole Hexapawn game against HER on the static site, by clicking.

The page is ``book/her.html`` (the HER chapter's widget, no kernel). The reader's moves
are clicks on the board (a pawn, then its square), chosen here from the page's state
with the library's tables; HER's replies are whatever the page's seeded bead draws give.
The test replays the clicked game in Python (:class:`~menace_lib.widgets.HerWidget`,
the same seed): same moves, same beads. It fails on any console error, page error,
widget error box or request to another host (conftest.py), and checks the link.
"""

from __future__ import annotations

import json
import random
from pathlib import Path

import pytest
from conftest import screenshots_wanted

import menace_lib as ml
from menace_lib.games.hexapawn import BLACK, WHITE
from menace_lib.machine.printed import printed_layout
from menace_lib.widgets import HerWidget

pytestmark = pytest.mark.browser
PAGE = "book/her.html"
SCREENSHOTS = Path(__file__).resolve().parents[1] / "output" / "screenshots"
T = ml.game_tables("hexapawn")


def destination(move: int) -> int:
    """The cell White's pawn lands on (White moves up the board: rows run from the top)."""
    cell, d = divmod(move, 3)
    return 3 * (cell // 3 - 1) + cell % 3 + d - 1


def page_moves(widget) -> list[int]:
    return json.loads(widget.get_attribute("data-moves"))


def test_a_full_game_against_her_by_clicking(browser_page, built_site: Path):
    if not (built_site / PAGE).exists():
        pytest.skip(f"{PAGE} is not built")
    browser_page.goto(PAGE)
    assert browser_page.wait_for_widgets() >= 1
    assert browser_page.widget_errors() == []
    her = browser_page.get_by_test_id("her")
    her.scroll_into_view_if_needed()
    assert her.get_attribute("data-turn") == "human"
    figures = browser_page.get_by_test_id("her-boxes").locator("figure")
    assert figures.count() == 19
    # The HER kit's numbers and bead colours (menace_lib.machine.printed), in its order.
    printed = printed_layout("hexapawn", "all", "square", BLACK)
    shown = figures.evaluate_all("fs => fs.map((f) => Number(f.dataset.number))")
    assert shown == list(range(1, 20))
    for b in (0, 1, 7):
        names = [
            browser_page.get_by_test_id(f"her-bead-{b}-{j}").get_attribute("data-colour")
            for j in range(len(printed.colours[b]))
        ]
        assert names == printed.colour_names(b)
    pick = random.Random(2)
    played = 0
    while her.get_attribute("data-turn") == "human":
        pid = 0
        for m in page_moves(her):
            pid = int(T.succ[pid, m])
        assert int(T.player[pid]) == WHITE
        move = pick.choice(T.legal(pid))
        browser_page.get_by_test_id(f"her-cell-{move // 3}").click()
        target = browser_page.get_by_test_id(f"her-cell-{destination(move)}")
        assert "mw-her-target" in target.get_attribute("class")
        target.click()
        played += 1
        assert played < 10
    assert her.get_attribute("data-turn") == "over"
    result = browser_page.get_by_test_id("her-result").inner_text()
    assert result in ("HER wins", "You win")
    assert her.get_attribute("data-games") == "1"
    # The same game, replayed in Python from the seed: same moves, same beads.
    moves = page_moves(her)
    python = HerWidget(seed=0)
    for m in moves[0::2]:
        python.play(m)
    assert python.moves == moves and python.result == result
    # Every box's beads in one read of the page.
    shown_beads = browser_page.evaluate(
        """() => Object.fromEntries([...document.querySelectorAll('[data-testid^="her-bead-"]')]
            .map(e => [e.dataset.testid, e.getAttribute('data-beads')]))"""
    )
    beads = [
        [float(shown_beads[f"her-bead-{b}-{j}"]) for j in range(len(w))]
        for b, w in enumerate(python.beads)
    ]
    assert beads == python.beads
    # The link replays the session on a fresh page.
    browser_page.get_by_test_id("her-share").click()
    link = browser_page.get_by_test_id("her-link").input_value()
    assert "#her=rule:gardner,seed:0,games:" in link
    if screenshots_wanted():
        SCREENSHOTS.mkdir(parents=True, exist_ok=True)
        her.screenshot(path=str(SCREENSHOTS / "her-widget.png"))
    browser_page.goto(link.removeprefix(browser_page.url("")))
    assert browser_page.wait_for_widgets() >= 1
    again = browser_page.get_by_test_id("her")
    assert again.get_attribute("data-games") == "1"
    assert page_moves(again) == moves
