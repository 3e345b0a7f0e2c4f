"""The book's widgets on the static site, driven like a reader would (headless Chromium).

Pages: ``book/play.html`` (PlayWidget) and ``book/widgets_explorer.html`` (LambdaExplorer,
MatchboxInspector). Every test also fails on console errors, page errors, widget error
boxes and requests to other hosts (conftest.py). Screenshots (light and dark theme) go
to ``tests/output/screenshots/``.

The games are played by clicking the board. The reader's moves are computed here from the
page state with ``menace_lib``'s minimax tables; MENACE's moves are whatever the page's
seeded bead draws produce, read back from the page as the game goes.
"""

from __future__ import annotations

import json
import re
from decimal import ROUND_HALF_UP, Decimal
from pathlib import Path

import pytest
from conftest import screenshots_wanted, settle

from menace_lib.games.board import (
    LINES,
    O,
    X,
    board_to_text,
    parse_board,
    play,
    transform_board,
    winner,
    winning_squares,
)
from menace_lib.games.statespace import tables
from menace_lib.machine.menace import Menace
from menace_lib.machine.printed import printed
from menace_lib.play.checkpoints import load_checkpoints
from menace_lib.widgets import PlayWidget
from menace_lib.widgets.inspector import bead_statistics, inspector_data
from menace_lib.widgets.lambda_explorer import (
    DEFAULT_CUSTOM_ALPHAS,
    LAMBDA_SLIDER_MAX,
    WORKED_ALPHAS,
    crossover_lambda,
    explorer_values,
)

pytestmark = pytest.mark.browser


@pytest.fixture
def browser_page(module_page):
    """One tab for this module's tests, each test on its own fresh page (conftest.module_page)."""
    return module_page


PLAY = "book/play.html"
EXPLORER = "book/widgets_explorer.html"
SCREENSHOTS = Path(__file__).resolve().parents[1] / "output" / "screenshots"
RESULTS = ("MENACE wins", "Draw", "You win")
T = tables()


@pytest.fixture(scope="module")
def checkpoints():
    return load_checkpoints()


def open_page(browser_page, built_site: Path, path: str):
    if not (built_site / path).exists():
        pytest.skip(f"{path} is not built (not in _toc.yml yet?)")
    browser_page.goto(path)
    browser_page.wait_for_mathjax()
    assert browser_page.wait_for_widgets() >= 1, f"no widget on {path}"
    assert browser_page.widget_errors() == []
    assert "Error displaying widget" not in browser_page.locator("article").inner_text()
    return browser_page


def element_shot(locator, name: str) -> Path | None:
    """Screenshot one widget; a tall viewport keeps the sticky site header out of it.

    Only with ``MENACE_SCREENSHOTS=1`` (pictures for a person; no test compares them).
    """
    if not screenshots_wanted():
        return None
    settle(locator.page)
    SCREENSHOTS.mkdir(parents=True, exist_ok=True)
    path = SCREENSHOTS / f"{name}.png"
    page = locator.page
    size = page.viewport_size
    page.set_viewport_size({"width": size["width"], "height": 2400})
    try:
        locator.scroll_into_view_if_needed()
        locator.screenshot(path=str(path))
    finally:
        page.set_viewport_size(size)
    return path


def page_shot(browser_page, name: str) -> Path | None:
    """Full-page screenshot in one piece (no sticky header stitched into the middle)."""
    if not screenshots_wanted():
        return None
    page = browser_page.page
    size = page.viewport_size
    height = min(page.evaluate("document.documentElement.scrollHeight"), 12000)
    page.set_viewport_size({"width": size["width"], "height": height})
    try:
        return browser_page.screenshot(name)
    finally:
        page.set_viewport_size(size)


def set_theme(page, theme: str) -> None:
    page.evaluate(f"document.documentElement.setAttribute('data-theme', '{theme}')")


_BY_TESTID = """prefixes => Object.fromEntries(prefixes.flatMap(prefix => [...document
    .querySelectorAll(`[data-testid^="${prefix}"]`)].map(e => [e.dataset.testid,
    {value: e.getAttribute('data-value'), text: e.innerText}])))"""


def shown_by_testid(page, *prefixes: str) -> dict[str, dict]:
    """``{testid: {"value": data-value, "text": innerText}}`` of every element whose test id
    starts with one of ``prefixes``: one read of the page instead of one per element."""
    return page.evaluate(_BY_TESTID, list(prefixes))


# --------------------------------------------------------------------------- the board


class Board:
    """The play widget on the page: read its state, click its controls."""

    def __init__(self, page):
        self.page = page
        self.root = page.get_by_test_id("play")

    def cells(self) -> tuple[int, ...]:
        return tuple(".XO".index(c) for c in self.root.get_attribute("data-board"))

    def turn(self) -> str:
        return self.root.get_attribute("data-turn")

    def text(self, testid: str) -> str:
        return self.page.get_by_test_id(testid).inner_text().strip()

    def result(self) -> str:
        return self.text("play-result")

    def labels(self) -> list[str]:
        return self.page.evaluate(
            "() => [...Array(9).keys()].map(i => document.querySelector("
            "`[data-testid=\"play-cell-${i}\"]`).getAttribute('aria-label'))"
        )

    def cell(self, square: int):
        return self.page.get_by_test_id(f"play-cell-{square}")

    def winning(self) -> list[int]:
        return [i for i in range(9) if "mw-win" in (self.cell(i).get_attribute("class") or "")]

    def click(self, square: int, force: bool = False) -> None:
        self.cell(square).click(force=force)

    def sample(self) -> None:
        self.page.get_by_test_id("play-sample").click()

    def new_game(self) -> None:
        self.page.get_by_test_id("play-new").click()

    def choose(self, checkpoint: int | None = None, human: str | None = None) -> None:
        if checkpoint is not None:
            self.page.get_by_test_id("play-checkpoint").select_option(str(checkpoint))
        if human is not None:
            self.page.get_by_test_id("play-human").select_option(human)

    def settings(self) -> dict:
        get = self.page.get_by_test_id
        return {
            "checkpoint": int(get("play-checkpoint").input_value()),
            "human": get("play-human").input_value(),
            "auto": get("play-auto").is_checked(),
            "learn": get("play-learn").is_checked(),
        }

    def policy(self) -> dict[int, float]:
        """The legend under the board: 0-based square -> p (its exact value, ``data-p``)."""
        rows = self.page.evaluate(_POLICY)
        out = {}
        for row in rows:
            out[row["square"]] = float(row["p"])
            # What the reader sees: the same two decimals as on the board.
            shown = row["shown"]
            assert shown == p_text(out[row["square"]]), (shown, out[row["square"]])
            assert f"p {shown}" in row["label"]
            assert row["bead"] == f"p {shown}"
        return out


# Each row of the legend in one read: its square, the p cell's data-p and text, and the
# board cell's name and printed p.
_POLICY = """() => [...document.querySelectorAll('[data-testid^="play-policy-row-"]')]
    .map((row, j) => {
        const square = Number(row.querySelectorAll('td')[1].innerText) - 1;
        const p = document.querySelector(`[data-testid="play-policy-p-${j}"]`);
        const cell = document.querySelector(`[data-testid="play-cell-${square}"]`);
        return {square, p: p.getAttribute('data-p'), shown: p.innerText,
                label: cell.getAttribute('aria-label'),
                bead: cell.querySelector('.mw-bead-p').innerText};
    })"""


def p_text(p: float) -> str:
    """How the widget prints a probability: two decimals, never a false 0 or 1."""
    if 0 < p < 0.005:
        return "<0.01"
    if 0.995 <= p < 1:
        return ">0.99"
    return f"{p:.2f}"


def good_move(board: tuple[int, ...], me: int) -> int:
    """Win at once, else block, else a minimax-optimal move (a fork if there is one)."""
    pid = T.id_of(board)
    legal = T.legal(pid)
    other = O if me == X else X
    for m in legal:
        if winner(play(board, m)) == me:
            return m
    threats = [m for m in winning_squares(board, other) if m in legal]
    if threats:
        return threats[0]
    optimal = T.optimal_moves(pid)
    forks = [m for m in optimal if len(winning_squares(play(board, m), me)) >= 2]
    return (forks or optimal)[0]


def play_one_game(board: Board, checkpoint_agent, human: int) -> str:
    """Play to the end with good_move, sampling MENACE by its button; check its policy."""
    for _ in range(9):
        turn = board.turn()
        if turn == "over":
            break
        position = board.cells()
        if turn == "menace":
            shown = board.policy()
            expected = checkpoint_agent.move_distribution(T.id_of(position))
            assert shown.keys() == expected.keys()
            for square, p in expected.items():
                assert shown[square] == pytest.approx(p, abs=1e-12)
            board.sample()
            after = board.cells()
            played = [i for i in range(9) if after[i] != position[i]]
            assert len(played) == 1 and played[0] in expected, "MENACE played off its policy"
            # MENACE's move is announced in a polite live region, squares numbered 1-9.
            announced = board.text("play-last")
            assert announced.startswith(f"MENACE played square {played[0] + 1}")
        else:
            board.click(good_move(position, human))
    assert board.turn() == "over"
    result = board.result()
    assert result in RESULTS
    return result


def import_file(board: Board, path: Path) -> str:
    """Choose ``path`` in the import dialog; wait for the (asynchronous) read's message."""
    before = board.text("play-notice")
    board.page.get_by_test_id("play-import-file").set_input_files(str(path))
    board.page.wait_for_function(
        "before => document.querySelector('[data-testid=play-notice]').textContent.trim()"
        " !== before",
        arg=before,
    )
    return board.text("play-notice")


def winning_line(cells: tuple[int, ...]) -> list[int]:
    mark = winner(cells)
    return sorted({i for line in LINES if all(cells[j] == mark for j in line) for i in line})


def open_play(browser_page, built_site: Path, fragment: str = ""):
    if not (built_site / PLAY).exists():
        pytest.skip(f"{PLAY} is not built")
    browser_page.goto(PLAY + fragment)
    browser_page.wait_for_mathjax()
    assert browser_page.wait_for_widgets() >= 1, f"no widget on {PLAY}"
    assert browser_page.widget_errors() == []
    return Board(browser_page)


def no_sideways_scroll(page) -> None:
    width = page.evaluate("document.documentElement.scrollWidth")
    inner = page.evaluate("window.innerWidth")
    assert width <= inner, f"the page scrolls sideways: {width} px wide in a {inner} px window"
    right = page.get_by_test_id("play").evaluate("el => el.getBoundingClientRect().right")
    assert right <= inner, f"the play widget ends at {right} px, past the {inner} px window"


# ------------------------------------------------------------------------- play tests


def test_reader_beats_the_25_game_menace(browser_page, built_site, checkpoints):
    board = open_play(browser_page, built_site)
    page = browser_page.page
    board.choose(checkpoint=25)
    assert board.turn() == "menace" and board.cells() == (0,) * 9
    # The cells name what they show: beads and p on each colour's cell, or its class.
    x25 = checkpoints["X"][25]
    box = x25.weights[x25.raw_box[0]]
    for square, label in enumerate(board.labels()):
        if square in x25.raw_squares[0]:
            count = box[x25.raw_squares[0].index(square)]
            p = count / sum(box)
            assert label == f"Square {square + 1}, empty, {count:g} beads, p {p_text(p)}"
        else:
            assert re.fullmatch(rf"Square {square + 1}, empty, same move as square \d", label)
    results = []
    for _ in range(12):  # the page's seed is fixed, so this is the same sequence every run
        results.append(play_one_game(board, x25, O))
        if results[-1] == "You win":
            break
        board.new_game()
    assert results[-1] == "You win", f"no win against the 25-game MENACE in {results}"
    assert "MENACE wins" not in results  # good_move never loses
    live = page.get_by_test_id("play-result")
    assert live.get_attribute("aria-live") == "polite" and live.inner_text() == "You win"
    assert page.get_by_test_id("play-last").get_attribute("aria-live") == "polite"
    tally = board.text("play-tally")
    assert tally == f"MENACE 0 · Draws {len(results) - 1} · You 1"
    # The winning line is marked, in the picture, in the cells' names and in words.
    line = winning_line(board.cells())
    assert board.winning() == line and len(line) >= 3
    for i in line:
        assert board.cell(i).get_attribute("aria-label") == f"Square {i + 1}, O, winning line"
    names = [str(i + 1) for i in line]
    assert f"You win with squares {', '.join(names[:-1])} and {names[-1]}." in board.text(
        "play-status"
    )
    element_shot(board.root, "play-won-light")
    set_theme(page, "dark")
    element_shot(board.root, "play-won-dark")


def test_perfect_play_never_loses_to_the_5000_game_menace(browser_page, built_site, checkpoints):
    board = open_play(browser_page, built_site)
    page = browser_page.page
    board.choose(checkpoint=5000)
    results = []
    for _ in range(3):
        results.append(play_one_game(board, checkpoints["X"][5000], O))
        board.new_game()
    assert "MENACE wins" not in results and set(results) <= {"Draw", "You win"}
    # As X, against the second-player MENACE, with its moves played at once.
    board.choose(human="X")
    page.get_by_test_id("play-auto").check()
    assert board.turn() == "human"
    for _ in range(5):
        if board.turn() == "over":
            break
        board.click(good_move(board.cells(), X))
    assert board.turn() == "over" and board.result() in {"Draw", "You win"}


def test_clicks_that_cannot_be_played_say_why(browser_page, built_site):
    board = open_play(browser_page, built_site)
    page = browser_page.page
    board.choose(checkpoint=25)
    notice = page.get_by_test_id("play-notice")
    assert notice.get_attribute("aria-live") == "polite" and notice.inner_text() == ""
    # 1. Before MENACE has moved (auto off).
    before = board.labels()
    board.click(4, force=True)
    assert board.labels() == before and board.turn() == "menace"
    assert notice.inner_text() == (
        "It is MENACE's turn: press Sample MENACE move, or tick MENACE moves at once."
    )
    board.sample()
    assert notice.inner_text() == ""  # a move clears the message
    taken = next(i for i, v in enumerate(board.cells()) if v)
    # 2. An occupied square.
    before = board.labels()
    board.click(taken, force=True)
    assert board.labels() == before and board.turn() == "human"
    assert notice.inner_text() == f"Square {taken + 1} is taken (X). Choose an empty square."
    element_shot(board.root, "play-occupied-notice-light")
    # 3. After the game: O plays badly (lowest empty square) until the game ends.
    while board.turn() != "over":
        if board.turn() == "human":
            board.click(board.cells().index(0))
        else:
            board.sample()
    before, result = board.labels(), board.result()
    for i in range(9):
        board.click(i, force=True)
        assert notice.inner_text().startswith(f"The game is over ({result}).")
    assert board.labels() == before and board.result() == result
    assert page.get_by_test_id("play-sample").is_disabled()
    if result == "MENACE wins":
        assert board.winning() == winning_line(board.cells())


def test_keyboard_play_and_labels(browser_page, built_site):
    board = open_play(browser_page, built_site)
    page = browser_page.page
    board.choose(checkpoint=100, human="X")
    assert board.turn() == "human"
    board.cell(0).focus()
    page.keyboard.press("ArrowRight")
    page.keyboard.press("ArrowDown")
    focused = page.evaluate("document.activeElement.dataset.testid")
    assert focused == "play-cell-4"
    # Focus is visible: the focused cell draws an outline.
    outline = page.evaluate("getComputedStyle(document.activeElement).outlineStyle")
    assert outline != "none"
    page.keyboard.press("Enter")
    assert board.cell(4).get_attribute("aria-label").startswith("Square 5, X")
    assert board.turn() == "menace"
    assert board.cell(0).get_attribute("aria-label").startswith("Square 1, empty")
    # Enter on a taken square explains itself instead of doing nothing.
    page.keyboard.press("Enter")
    assert "It is MENACE's turn" in board.text("play-notice")


def test_learning_log_shows_the_board_as_played(browser_page, built_site, checkpoints):
    board = open_play(browser_page, built_site)
    page = browser_page.page
    board.choose(checkpoint=25)
    page.get_by_test_id("play-learn").check()
    assert board.text("play-learnt") == "Learning on: 0 games learnt since loading this checkpoint."
    page.get_by_test_id("play-auto").check()
    assert board.turn() == "human"  # MENACE opened at once
    faced = [((0,) * 9, next(i for i, v in enumerate(board.cells()) if v))]
    while board.turn() == "human":
        before = board.cells()
        square = before.index(0)
        board.click(square)
        after = board.cells()
        mine = list(before)
        mine[square] = O
        replies = [i for i in range(9) if after[i] != mine[i]]
        if replies:
            faced.append((tuple(mine), replies[0]))
    result = board.result()
    assert board.text("play-learnt") == "Learning on: 1 game learnt since loading this checkpoint."
    delta = {"MENACE wins": "+3 beads", "Draw": "+1 bead", "You win": "−1 bead"}[result]
    summary = board.text("play-changes-summary")
    match = re.match(rf"{re.escape(delta)} in (\d+) box(es)? \(net [+−]\d+\)\.$", summary)
    assert match, summary
    lines = page.locator('[data-testid="play-changes"] li').all_inner_texts()
    assert len(lines) == int(match.group(1)) >= 1
    step = {"MENACE wins": 3, "Draw": 1, "You win": -1}[result]
    x25 = checkpoints["X"][25]
    x25_printed = printed(x25)
    pattern = (
        r"Matchbox (\d+), (an?) ([a-z ]+) bead: ([\d. ]+) → ([\d. ]+)\.\s*"
        r"Played square (\d) on ([.XO/]{11})(?: \(stored as ([.XO/]{11})\))?\."
    )
    shown_positions = []
    for line in lines:
        m = re.fullmatch(pattern, line.strip())
        assert m, line
        # The printed kit's number (menace_lib.machine.printed), not the library's index.
        box = x25_printed.order[int(m.group(1)) - 1]
        assert m.group(2) == ("an" if m.group(3)[0] in "aeiou" else "a")
        assert m.group(3) in x25_printed.colour_names(box)
        before, after = ([float(v) for v in g.split()] for g in m.group(4, 5))
        assert before == x25.weights[box]  # the first game starts from the checkpoint
        outcomes = []
        for j in range(len(before)):
            w = list(before)
            w[j] = max(w[j] + step, 0.0)
            outcomes.append(w if max(w) > 0 else list(x25.initial[box]))
        assert after in outcomes and after != before
        played = m.group(7).replace("/", "")
        pid = T.id_of(played)
        assert x25.raw_box[pid] == box  # the box MENACE opened on the board as played
        stored = board_to_text(x25_printed.boards[box])  # the box as its label draws it
        assert (m.group(8) or m.group(7)).replace("/", "") == stored
        assert (m.group(8) is None) == (stored == played)
        shown_positions.append((played, int(m.group(6)) - 1))
    boxed = [(board_to_text(b), sq) for b, sq in faced if x25.raw_box[T.id_of(b)] >= 0]
    assert shown_positions == boxed
    element_shot(board.root, "play-learned-light")
    board.new_game()
    while board.turn() == "human":
        board.click(board.cells().index(0))
    assert board.text("play-learnt") == "Learning on: 2 games learnt since loading this checkpoint."


def test_import_and_export_agent_files(browser_page, built_site, tmp_path):
    board = open_play(browser_page, built_site)
    page = browser_page.page
    # A MENACE trained in Python: the O of the 100-game checkpoint after 7 more games.
    w = PlayWidget(checkpoint=100, human="X", auto=True, learn=True, seed=4)
    for _ in range(7):
        while w.turn == "human":
            w.play(w.board.index(0))
        w.new_game()
    doc = w.export_agent()
    assert doc["games_trained"] == 107
    good = tmp_path / "class-menace.json"
    good.write_text(json.dumps(doc))
    notice = import_file(board, good)
    assert notice == (
        "Imported class-menace.json: MENACE plays O from the 100-game checkpoint + 7 games learnt; "
        "learning is on."
    )
    assert board.settings() == {"checkpoint": 100, "human": "X", "auto": False, "learn": True}
    assert board.text("play-learnt") == "Learning on: 7 games learnt since loading this checkpoint."
    assert board.turn() == "human"
    # The imported beads are the ones in play: MENACE's policy after the reader's first move.
    board.click(4)
    agent = Menace.load(good)
    assert board.policy() == pytest.approx(agent.move_distribution(T.id_of(board.cells())))
    # Hostile files are refused with a message, and nothing changes.
    before = board.labels()
    for name, text in [
        ("bad-bead.json", json.dumps(doc).replace('"beads": [', '"beads": [-1, ', 1)),
        ("other-rules.json", json.dumps({**doc, "config": {**doc["config"], "restock": "move"}})),
        ("not-json.json", "{beads"),
        ("square.json", json.dumps(Menace().to_dict())),
    ]:
        path = tmp_path / name
        path.write_text(text)
        assert import_file(board, path).startswith("Not imported: "), name
        assert board.labels() == before and board.settings()["checkpoint"] == 100
    assert page.get_by_test_id("play-notice").evaluate("el => el.matches('.mw-error')")
    element_shot(board.root, "play-import-refused-light")
    # Export: the file Menace.load reads holds the beads in play.
    with page.expect_download() as download:
        page.get_by_test_id("play-export").click()
    saved = tmp_path / download.value.suggested_filename
    download.value.save_as(saved)
    assert saved.name == "menace-O-107-games.json"
    again = Menace.load(saved)
    assert again.weights == agent.weights and again.games_trained == 107
    assert again.config == agent.config and again.frozen is False


def test_a_link_restores_the_settings_and_reset_restores_the_defaults(browser_page, built_site):
    fragment = "#other=keep&play=checkpoint:25,human:X,auto:1,learn:1,seed:7"
    board = open_play(browser_page, built_site, fragment)
    page = browser_page.page
    assert board.settings() == {"checkpoint": 25, "human": "X", "auto": True, "learn": True}
    assert board.text("play-notice").startswith("Settings from the link: the 25-game MENACE")
    assert board.turn() == "human"
    board.click(4)  # MENACE (O) replies at once, with the link's seed
    first = board.cells()
    # The same link in a fresh page gives the same bead draws.
    page.reload(wait_until="networkidle")
    browser_page.wait_for_widgets()
    board = Board(page)
    board.click(4)
    assert board.cells() == first
    # "Link to these settings" writes the fragment and keeps the other widget's key.
    board.choose(checkpoint=1000)
    page.get_by_test_id("play-share").click()
    link = page.get_by_test_id("play-link").input_value()
    assert link.endswith("#other=keep&play=checkpoint:1000,human:X,auto:1,learn:1,seed:7")
    assert page.evaluate("location.hash") == link[link.index("#") :]
    # Reset: the defaults, and the play key leaves the address (the other key stays).
    page.get_by_test_id("play-reset").click()
    defaults = {"checkpoint": 1000, "human": "O", "auto": False, "learn": False}
    assert board.settings() == defaults and board.cells() == (0,) * 9
    assert page.evaluate("location.hash") == "#other=keep"
    assert board.text("play-notice").startswith("Back to the defaults")
    # A bad link is refused with a message, and the defaults stay.
    page.goto(browser_page.url(PLAY + "#play=checkpoint:7,human:Z"), wait_until="networkidle")
    browser_page.wait_for_widgets()
    board = Board(page)
    assert board.text("play-notice") == (
        "The link's settings were not used: checkpoint must be one of 25, 100, 1000, 5000, "
        'got "7".'
    )
    assert board.settings() == defaults


def test_damaged_widget_state_shows_a_message(browser_page, built_site):
    """A saved notebook's widget state is input too: bad values get a message, not a hang."""
    page = browser_page.page
    html = (built_site / PLAY).read_text(encoding="utf-8")
    bad = html.replace('"human": "O", "last_draw"', '"human": "x", "last_draw"', 1)
    assert bad != html, "the page's widget state changed shape"
    page.route("**/" + PLAY, lambda route: route.fulfill(body=bad, content_type="text/html"))
    board = open_play(browser_page, built_site)
    error = page.get_by_test_id("play-error")
    assert error.get_attribute("role") == "alert"
    assert error.inner_text() == (
        "This widget's state cannot be played: human must be 'X' or 'O', got \"x\". "
        "Press Reset to defaults to start again."
    )
    board.click(4, force=True)
    assert "damaged" in board.text("play-notice")
    element_shot(board.root, "play-damaged-light")
    page.get_by_test_id("play-reset").click()
    assert error.is_hidden() and board.turn() == "menace"
    board.sample()
    assert sum(v != 0 for v in board.cells()) == 1
    # Broken data: the widget says it could not start.
    page.unroute("**/" + PLAY)
    broken = html.replace('"checkpoints": [25, 100, 1000, 5000]', '"checkpoints": []', 1)
    assert broken != html
    page.route("**/" + PLAY, lambda route: route.fulfill(body=broken, content_type="text/html"))
    page.goto(browser_page.url(PLAY), wait_until="networkidle")
    browser_page.wait_for_widgets()
    assert (
        page.get_by_test_id("play-broken")
        .inner_text()
        .startswith("The play widget could not start: data.checkpoints must list the checkpoints")
    )


@pytest.mark.parametrize("theme", ["light", pytest.param("dark", marks=pytest.mark.thorough)])
def test_play_on_a_phone(browser_page, built_site, theme):
    """390 px: nothing scrolls sideways, the legend's p column is on screen.

    The default run checks the light theme; the dark one (the same layout in the dark
    theme's colours, which the site tours check on every page) only in the long run
    (``--thorough``).
    """
    page = browser_page.page
    page.set_viewport_size({"width": 390, "height": 844})
    board = open_play(browser_page, built_site)
    set_theme(page, theme)
    settle(page)
    no_sideways_scroll(page)
    element_shot(board.root, f"play-phone-menace-turn-{theme}")
    p_cells = page.locator('[data-testid^="play-policy-p-"]')
    assert p_cells.count() >= 3
    for j in range(p_cells.count()):
        right = p_cells.nth(j).evaluate("el => el.getBoundingClientRect().right")
        assert right <= 390
    board.sample()
    page.get_by_test_id("play-learn").check()
    page.get_by_test_id("play-share").click()
    no_sideways_scroll(page)
    element_shot(board.root, f"play-phone-{theme}")
    page_shot(browser_page, f"play-page-phone-{theme}")


def test_play_page_screenshots(browser_page, built_site):
    board = open_play(browser_page, built_site)
    page = browser_page.page
    no_sideways_scroll(page)
    element_shot(board.root, "play-menace-turn-light")
    page_shot(browser_page, "play-page-light")
    set_theme(page, "dark")
    element_shot(board.root, "play-menace-turn-dark")
    page_shot(browser_page, "play-page-dark")


# --------------------------------------------------------------------- lambda explorer


TABLE_FIELDS = ("risk", "epistemic", "G", "q", "beads")


def read_table(page, prefix: str, n: int, shown: dict | None = None) -> dict[str, list[float]]:
    """Each cell's full value (data-value); the text shown is rounded. ``shown``: the page's
    cells as :func:`shown_by_testid` read them (read here if not given)."""
    shown = shown or shown_by_testid(page, f"lx-{prefix}-")
    return {
        f: [float(shown[f"lx-{prefix}-{f}-{i}"]["value"]) for i in range(n)] for f in TABLE_FIELDS
    }


def slider_value(page, testid: str) -> float:
    return float(page.get_by_test_id(testid).input_value())


def set_slider(page, testid: str, value: float) -> None:
    page.get_by_test_id(testid).evaluate(
        "(el, v) => { el.value = String(v);"
        " el.dispatchEvent(new Event('input', {bubbles: true})); }",
        value,
    )


def assert_tables_match_python(page, custom_alphas) -> None:
    lam = slider_value(page, "lx-lam")
    lambda_policy = slider_value(page, "lx-lambda-policy")
    weights = [slider_value(page, f"lx-w-{o}") for o in ("win", "draw", "loss")]
    form = page.get_by_test_id("lx-risk-form").input_value()
    cells = shown_by_testid(page, "lx-worked-", "lx-custom-", "lx-p-")
    for prefix, alphas in (("worked", WORKED_ALPHAS), ("custom", custom_alphas)):
        python = explorer_values(alphas, weights, lam, lambda_policy, form)
        shown = read_table(page, prefix, len(alphas), cells)
        for field, values in shown.items():
            assert values == pytest.approx(python[field], abs=1e-9), (prefix, field)
            # What the reader sees: 3 decimals, whole beads.
            places = 0 if field == "beads" else 3
            texts = [cells[f"lx-{prefix}-{field}-{i}"]["text"].strip() for i in range(len(alphas))]
            assert texts == [f"{v:.{places}f}".replace("-0.000", "0.000") for v in values]
        shown_prefs = [float(cells[f"lx-p-{o}"]["value"]) for o in ("win", "draw", "loss")]
        assert shown_prefs == pytest.approx(python["prefs"], abs=1e-12)


def test_lambda_explorer_matches_python(browser_page, built_site):
    page = open_page(browser_page, built_site, EXPLORER)
    explorer = page.get_by_test_id("lambda-explorer")
    # Starting values: thesis Table 7.1.
    assert slider_value(page, "lx-lam") == 0.25
    assert_tables_match_python(page, DEFAULT_CUSTOM_ALPHAS)
    worked = read_table(page, "worked", 3)
    assert [round(v, 3) for v in worked["G"]] == [0.143, 0.467, 0.166]
    assert [page.get_by_test_id(f"lx-worked-beads-{i}").inner_text() for i in range(3)] == [
        "46",
        "13",
        "42",
    ]
    # Move the lambda slider with the keyboard, then by value; and the other dials.
    page.get_by_test_id("lx-lam").focus()
    for _ in range(10):
        page.keyboard.press("ArrowRight")
    assert slider_value(page, "lx-lam") == pytest.approx(0.35)
    assert page.get_by_test_id("lx-lam-value").inner_text() == "0.35"
    assert_tables_match_python(page, DEFAULT_CUSTOM_ALPHAS)
    set_slider(page, "lx-lam", 1.5)
    set_slider(page, "lx-lambda-policy", 0.07)
    set_slider(page, "lx-w-loss", 0.5)
    page.get_by_test_id("lx-risk-form").select_option("cross_entropy")
    assert_tables_match_python(page, DEFAULT_CUSTOM_ALPHAS)
    # The reader's own counts, one action added; a bad count is refused with a message.
    page.get_by_test_id("lx-add").click()
    page.get_by_test_id("lx-alpha-3-0").fill("0.5")
    page.get_by_test_id("lx-alpha-1-2").fill("12")
    custom = [*map(list, DEFAULT_CUSTOM_ALPHAS), [0.5, 1, 1]]
    custom[1][2] = 12
    assert_tables_match_python(page, custom)
    page.get_by_test_id("lx-alpha-0-1").fill("0")
    assert "must be numbers > 0" in page.get_by_test_id("lx-custom-error").inner_text()
    assert page.get_by_test_id("lx-custom-table").count() == 0
    page.get_by_test_id("lx-alpha-0-1").fill("1")
    assert page.get_by_test_id("lx-custom-error").inner_text() == ""
    assert_tables_match_python(page, custom)
    element_shot(explorer, "lambda-explorer-light")
    set_theme(page, "dark")
    element_shot(explorer, "lambda-explorer-dark")


def test_lambda_explorer_reaches_the_crossover(browser_page, built_site):
    """The text's claim: with a large lambda the untried action (1, 1, 1) wins."""
    page = open_page(browser_page, built_site, EXPLORER)
    assert float(page.get_by_test_id("lx-lam").get_attribute("max")) == LAMBDA_SLIDER_MAX
    crossover = max(crossover_lambda(DEFAULT_CUSTOM_ALPHAS, 0, k) for k in (1, 2))
    for lam, untried_wins in ((round(crossover - 0.05, 2), False), (3.0, True)):
        set_slider(page, "lx-lam", lam)
        g = read_table(page, "custom", 3)["G"]
        assert (g[0] == min(g)) is untried_wins, (lam, g)
    assert_tables_match_python(page, DEFAULT_CUSTOM_ALPHAS)


def test_lambda_explorer_link_and_reset(browser_page, built_site):
    page = open_page(browser_page, built_site, EXPLORER)
    # Another widget's key and a section anchor in the fragment must survive.
    page.evaluate("() => history.replaceState(null, '', '#menace=keep&top')")
    set_slider(page, "lx-lam", 2.6)
    page.get_by_test_id("lx-risk-form").select_option("cross_entropy")
    page.get_by_test_id("lx-alpha-2-0").fill("7")
    fragment = page.evaluate("() => location.hash")
    assert fragment.startswith("#menace=keep&top&lambda=lam:2.6;"), fragment
    assert "risk:cross_entropy" in fragment and "a:1,1,1/4,2,1/7,10,5" in fragment
    # A fresh page opened from that link restores every setting.
    link = page.page.url
    # Chromium fetches the favicon again after history.replaceState; let it finish, or
    # leaving the page would abort it (a failed request for conftest).
    page.wait_for_timeout(800)
    page.page.goto("about:blank")
    page.page.goto(link, wait_until="networkidle")
    browser_page.wait_for_widgets()
    assert slider_value(page, "lx-lam") == 2.6
    assert page.get_by_test_id("lx-risk-form").input_value() == "cross_entropy"
    assert page.get_by_test_id("lx-alpha-2-0").input_value() == "7"
    assert "restored" in page.get_by_test_id("lx-link-status").inner_text()
    custom = [[1, 1, 1], [4, 2, 1], [7, 10, 5]]
    assert_tables_match_python(page, custom)
    # Reset: back to the built-in settings, and the key leaves the link (the others stay).
    page.get_by_test_id("lx-reset").click()
    assert slider_value(page, "lx-lam") == 0.25
    assert page.get_by_test_id("lx-risk-form").input_value() == "kl"
    assert page.get_by_test_id("lx-alpha-2-0").input_value() == "20"
    assert page.evaluate("() => location.hash") == "#menace=keep&top"
    assert_tables_match_python(page, DEFAULT_CUSTOM_ALPHAS)
    # A bad link is refused with a message naming the bad value; the defaults stay.
    page.page.goto(link.split("#")[0] + "#lambda=lam:9")  # same page: applied on hashchange
    page.wait_for_timeout(200)
    assert "λ = 9 is outside 0–4" in page.get_by_test_id("lx-link-status").inner_text()
    assert slider_value(page, "lx-lam") == 0.25


# ------------------------------------------------------------------ matchbox inspector


def assert_statistics_match(page, beads_by_checkpoint: list) -> None:
    shown = shown_by_testid(page, "ins-total-", "ins-mi-", "ins-mean-", "ins-var-")
    for k, beads in enumerate(beads_by_checkpoint):
        total = shown[f"ins-total-{k}"]["text"]
        if beads is None:
            assert total == "no box"
            continue
        py = bead_statistics(beads)
        assert float(total) == py["total"]
        assert float(shown[f"ins-mi-{k}"]["value"]) == pytest.approx(py["mi"], abs=1e-12)
        for j in range(len(beads)):
            mean = float(shown[f"ins-mean-{k}-{j}"]["value"])
            var = float(shown[f"ins-var-{k}-{j}"]["value"])
            assert mean == pytest.approx(py["mean"][j], abs=1e-12)
            assert var == pytest.approx(py["variance"][j], abs=1e-12)
            # toFixed(3) rounds an exact half up (0.0625 -> 0.063); Python's format would
            # round it to even, so compare with the exact value rounded half up.
            exact = Decimal(py["mean"][j]).quantize(Decimal("0.001"), rounding=ROUND_HALF_UP)
            assert shown[f"ins-mean-{k}-{j}"]["text"] == str(exact)


def test_matchbox_inspector_matches_python(browser_page, built_site):
    page = open_page(browser_page, built_site, EXPLORER)
    inspector = page.get_by_test_id("inspector")
    data = inspector_data(0)
    count = page.get_by_test_id("ins-count")
    assert count.inner_text().startswith("287 of 287")
    class_n = data["class"]["checkpoints"]
    michie = [i for i, m in enumerate(data["michie"]) if m]
    for i in [0, *michie[1::60]]:
        page.get_by_test_id(f"ins-thumb-{i}").click()
        assert page.get_by_test_id(f"ins-thumb-{i}").get_attribute("aria-pressed") == "true"
        assert_statistics_match(page, [data["class"]["beads"][str(n)][i] for n in class_n])
    # A double threat has no box in the move-class MENACE.
    page.get_by_test_id("ins-filter").select_option("all")
    assert count.inner_text().startswith("338 of 338")
    threat = next(
        i
        for i, (d, m) in enumerate(zip(data["decision"], data["michie"], strict=True))
        if d and not m
    )
    page.get_by_test_id(f"ins-thumb-{threat}").click()
    assert page.get_by_test_id("ins-nobox").count() == 1
    # The thesis's square layout, per filter.
    page.get_by_test_id("ins-source").select_option("square")
    for f in ("all", "decision"):
        page.get_by_test_id("ins-filter").select_option(f)
        shown = [i for i in range(338) if f == "all" or data[f][i]]
        for i in shown[3::97]:
            page.get_by_test_id(f"ins-thumb-{i}").click()
            beads = [data["square"]["beads"][f][str(n)][i] for n in data["square"]["checkpoints"]]
            assert_statistics_match(page, beads)
    assert count.inner_text().startswith("304 of 304")
    # Search by pattern, in any orientation: X in the centre, two neighbouring edges empty.
    page.get_by_test_id("ins-search").fill("?.?/.X")
    expected = sum(
        1
        for i, b in enumerate(data["boards"])
        if data["decision"][i]
        and b[4] == "X"
        and any(b[e1] == b[e2] == "." for e1, e2 in ((1, 3), (1, 5), (3, 7), (5, 7)))
    )
    assert count.inner_text().startswith(f"{expected} of 304")
    hint = page.get_by_test_id("ins-search-hint").inner_text()
    assert "X on 5; 2, 4 empty; other squares anything, in any of the 8 orientations" in hint
    page.get_by_test_id("ins-search").fill("")
    page.get_by_test_id("ins-source").select_option("class")
    page.get_by_test_id("ins-filter").select_option("michie")
    page.get_by_test_id("ins-thumb-0").click()
    element_shot(inspector, "inspector-light")
    set_theme(page, "dark")
    element_shot(inspector, "inspector-dark")
    page_shot(browser_page, "explorer-page-dark")


def test_inspector_search_finds_the_board_as_seen(browser_page, built_site):
    page = open_page(browser_page, built_site, EXPLORER)
    data = inspector_data(0)
    search, hint = page.get_by_test_id("ins-search"), page.get_by_test_id("ins-search-hint")
    # The board as a reader sees it (O in a corner, X in the centre), in either case.
    seen = board_to_text(parse_board("O../.X./..."))
    box = next(
        i
        for i, b in enumerate(data["boards"])
        if any(board_to_text(transform_board(t, parse_board(b))) == seen for t in range(8))
    )
    for typed in ("O../.X./...", "o../.x./..."):
        search.fill(typed)
        shown = page.locator('[data-testid^="ins-thumb-"]:visible')
        assert shown.count() == 1
        assert shown.first.get_attribute("data-testid") == f"ins-thumb-{box}"
        assert hint.inner_text().startswith("Searching for X on 5; O on 1;")
        assert hint.inner_text().endswith("1 found.")
    search.fill("x")
    assert "X on 1; other squares anything, in any of the 8 orientations" in hint.inner_text()
    assert page.locator('[data-testid^="ins-thumb-"]:visible').count() > 100
    search.fill("XZ")
    assert '"Z" is not a square' in hint.inner_text()
    search.fill("")
    assert hint.inner_text().startswith("Board search:")


def test_inspector_grid_is_one_tab_stop_with_arrow_keys(browser_page, built_site):
    page = open_page(browser_page, built_site, EXPLORER)
    thumbs = page.locator('[data-testid^="ins-thumb-"]')
    assert thumbs.evaluate_all("bs => bs.filter(b => b.tabIndex === 0).length") == 1
    first = page.get_by_test_id("ins-thumb-0")
    assert first.get_attribute("aria-label") == "Matchbox 1: empty board"
    assert page.locator(".mw-inspector .mw-board").get_attribute("role") == "group"
    # Tab from the reset button lands on the open box, the arrows move, Enter opens.
    page.get_by_test_id("ins-reset").focus()
    page.keyboard.press("Tab")
    assert page.evaluate("() => document.activeElement.dataset.testid") == "ins-thumb-0"
    page.keyboard.press("ArrowRight")
    focused = page.evaluate("() => document.activeElement.dataset.testid")
    assert focused != "ins-thumb-0" and focused.startswith("ins-thumb-")
    page.keyboard.press("ArrowDown")
    below = page.evaluate("() => document.activeElement.dataset.testid")
    assert below.startswith("ins-thumb-") and below != focused
    page.keyboard.press("Enter")
    assert page.get_by_test_id(below).get_attribute("aria-pressed") == "true"
    name = page.get_by_test_id(below).get_attribute("aria-label")
    assert re.fullmatch(r"Matchbox \d+: X on [\d, ]+; O on [\d, ]+", name), name
    assert page.get_by_test_id("ins-title").inner_text().startswith(name)
    # One more Tab leaves the grid: no other thumbnail is a tab stop.
    page.keyboard.press("Tab")
    after = page.evaluate("() => document.activeElement.dataset.testid || ''")
    assert not after.startswith("ins-thumb-")
    assert thumbs.evaluate_all("bs => bs.filter(b => b.tabIndex === 0).length") == 1


def test_inspector_bar_labels_do_not_overlap_and_reset(browser_page, built_site):
    page = open_page(browser_page, built_site, EXPLORER)
    page.get_by_test_id("ins-source").select_option("square")
    page.get_by_test_id("ins-filter").select_option("all")
    page.get_by_test_id("ins-thumb-0").click()  # the empty board: nine colours
    for k in range(4):
        boxes = (
            page.get_by_test_id(f"ins-chart-{k}")
            .locator(".mw-bar-labels span")
            .evaluate_all(
                "ss => ss.map(s => { const r = s.getBoundingClientRect();"
                " return [r.left, r.right, s.scrollWidth <= s.clientWidth + 1]; })"
            )
        )
        assert len(boxes) == 9
        assert all(fits for _, _, fits in boxes), f"chart {k}: a count is cut off"
        for (_, right, _), (left, _, _) in zip(boxes, boxes[1:], strict=False):
            assert right <= left + 0.5, f"chart {k}: labels overlap"
    element_shot(page.get_by_test_id("inspector"), "inspector-nine-colours")
    page.get_by_test_id("ins-search").fill("X")
    page.get_by_test_id("ins-reset").click()
    assert page.get_by_test_id("ins-source").input_value() == "class"
    assert page.get_by_test_id("ins-filter").input_value() == "michie"
    assert page.get_by_test_id("ins-search").input_value() == ""
    assert page.get_by_test_id("ins-thumb-0").get_attribute("aria-pressed") == "true"
    assert page.get_by_test_id("ins-count").inner_text().startswith("287 of 287")
