"""The Connect-4 widget on the static site (``book/scaling.html``), played by clicking.

The reader's columns come from the library's minimax tables (the perfect player's
lowest best column, or a seeded random one), read off the page's board; MENACE's moves
are whatever the page's seeded bead draws give. Every test also fails on console errors,
page errors, widget error boxes and requests to other hosts (conftest.py).
"""

from __future__ import annotations

import json
import re

import numpy as np
import pytest
from test_lab_widget import PAYLOAD_LIMIT

from menace_lib.games.registry import game_tables, get_game
from menace_lib.widgets.connect4_data import GAME, load_data, trained_menace

pytestmark = pytest.mark.browser


@pytest.fixture
def browser_page(module_page):
    """One tab for this module's tests, each test on its own fresh page (conftest.module_page)."""
    return module_page


PAGE = "book/scaling.html"
RESULTS = {"MENACE wins.": "menace", "A draw: the board is full.": "draw", "You win!": "human"}


class Board:
    """The widget as a reader sees it."""

    def __init__(self, page):
        self.page = page
        self.root = page.get_by_test_id("c4")
        self.game = get_game(GAME)
        self.T = game_tables(GAME)

    def text(self, testid: str) -> str:
        return self.page.get_by_test_id(testid).inner_text().strip()

    def cells(self) -> tuple[int, ...]:
        """Each cell's mark, row by row, in one read of the page."""
        height, width = self.game.shape
        marks = self.page.evaluate(
            "([h, w]) => [...Array(h * w).keys()].map(i => document.querySelector("
            '`[data-testid="c4-cell-${Math.floor(i / w) + 1}-${i % w + 1}"]`).innerText.trim())',
            [height, width],
        )
        return tuple({"": 0, "X": 1, "O": 2}[mark] for mark in marks)

    def disabled(self) -> list[bool]:
        """Whether each column's drop button is disabled, in one read of the page."""
        return self.page.evaluate(
            "w => [...Array(w).keys()].map(c => document.querySelector("
            '`[data-testid="c4-drop-${c + 1}"]`).disabled)',
            self.game.width,
        )

    def position(self) -> int:
        return self.T.code_to_id[self.game.encode(self.cells())]

    def result(self) -> str:
        return RESULTS.get(self.text("c4-result"), "")

    def drop(self, column: int) -> None:
        self.page.get_by_test_id(f"c4-drop-{column + 1}").click()


def open_board(browser_page, built_site) -> Board:
    if not (built_site / PAGE).exists():
        pytest.skip(f"{PAGE} is not built")
    browser_page.goto(PAGE)
    browser_page.wait_for_mathjax()
    assert browser_page.wait_for_widgets() >= 1, f"no widget on {PAGE}"
    assert browser_page.widget_errors() == []
    board = Board(browser_page.page)
    board.root.scroll_into_view_if_needed()
    return board


def play_out(board: Board, choose) -> str:
    """Click columns until the game ends; returns the result's key."""
    for _ in range(board.game.n_cells):
        if board.result():
            break
        pid = board.position()
        assert board.T.player[pid] == 2, "the page waits for MENACE"
        legal = board.T.legal(pid)
        # Only free columns can be clicked.
        assert board.disabled() == [c not in legal for c in range(board.game.width)]
        board.drop(choose(pid))
    assert board.result(), "the game did not end"
    return board.result()


def test_a_perfect_reader_never_loses_to_menace(browser_page, built_site):
    board = open_board(browser_page, built_site)
    # MENACE has opened: its box for the empty board, as the library holds it, 1-based.
    agent = trained_menace()
    box = agent.weights[agent.raw_box[0]]
    opening = [i for i, x in enumerate(box) if x > 0]
    assert board.cells().count(1) == 1 and board.cells().count(2) == 0
    for column, beads in enumerate(box):
        line = board.text(f"c4-bead-{column + 1}")
        assert line.startswith(f"Column {column + 1} (")
        assert f"): {beads:.0f} beads, " in line
    assert set(opening) >= {board.cells()[-4:].index(1)}
    assert board.text("c4-status").startswith("MENACE dropped in column ")
    result = play_out(board, lambda pid: board.T.optimal_moves(pid)[0])
    assert result in ("draw", "human")  # 4x4 is a draw: perfect play never loses
    expected = {"menace": 0, "draw": 0, "human": 0, result: 1}
    assert board.text("c4-tally") == (
        f"MENACE {expected['menace']} · Draws {expected['draw']} · You {expected['human']}"
    )
    assert all(not board.page.get_by_test_id(f"c4-drop-{c}").is_enabled() for c in range(1, 5))


def test_menace_learns_from_the_readers_games(browser_page, built_site):
    board = open_board(browser_page, built_site)
    page = board.page
    page.get_by_test_id("c4-learn").check()
    rng = np.random.default_rng(4)
    results = []
    for _ in range(3):
        results.append(play_out(board, lambda pid: int(rng.choice(board.T.legal(pid)))))
        # A won game marks its line: a ring and the cells' names, not colour alone.
        marked = board.root.locator(".mw-c4-win")
        if results[-1] == "draw":
            assert marked.count() == 0
        else:
            assert marked.count() >= 4
            assert all(
                label.endswith(", winning line")
                for label in marked.evaluate_all("els => els.map(e => e.ariaLabel)")
            )
        page.get_by_test_id("c4-new").click()
    learned = board.text("c4-learned")
    assert learned.startswith("Games MENACE has learnt from here: 3 (")
    tally = board.text("c4-tally")
    counts = [results.count(k) for k in ("menace", "draw", "human")]
    assert tally == f"MENACE {counts[0]} · Draws {counts[1]} · You {counts[2]}"
    # Reset: the trained beads, the tally and the learning log from the start.
    page.get_by_test_id("c4-reset").click()
    assert board.text("c4-tally") == "MENACE 0 · Draws 0 · You 0"
    assert board.text("c4-learned") == "Games MENACE has learnt from here: 0 (0 boxes changed)."
    assert board.cells().count(1) == 1  # MENACE opened the new game


def test_the_page_carries_the_data_within_the_budget(built_site):
    """The built page embeds the widget's data trait whole, within the lab's budget."""
    if not (built_site / PAGE).exists():
        pytest.skip(f"{PAGE} is not built")
    html = (built_site / PAGE).read_text(encoding="utf-8")
    script = re.search(
        r'<script type="application/vnd.jupyter.widget-state\+json">(.*?)</script>', html, re.S
    )
    assert script, f"{PAGE} has no widget state"
    models = json.loads(script.group(1))["state"].values()
    (state,) = [m["state"] for m in models if "moves" in m["state"] and "data" in m["state"]]
    assert state["data"] == load_data()
    assert len(json.dumps(state["data"])) < PAYLOAD_LIMIT
