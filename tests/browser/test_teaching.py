"""Headless-Chromium checks of the teaching pieces on the built site.

Exercises open their hidden solutions; the matchbox kit downloads as a real PDF; the
key-results table links every claim to its chapter; the introduction has the cite box.
Phone (390 px) and dark-theme screenshots go to tests/output/screenshots/ for a person to look
at. Every test also fails on console errors and outside requests (conftest.py).
"""

from __future__ import annotations

import io
import math
import re
from pathlib import Path

import pytest
from conftest import settle

pytestmark = pytest.mark.browser


@pytest.fixture
def browser_page(module_page):
    """One tab for this module's tests, each test on its own fresh page (conftest.module_page)."""
    return module_page


GAME = "book/game.html"
KIT = "book/build_your_own.html"
KEY_RESULTS = "book/key_results.html"
INTRO = "book/intro.html"
PHONE = {"width": 390, "height": 844}


def open_page(browser_page, built_site: Path, path: str):
    if not (built_site / path).exists():
        pytest.skip(f"{path} is not built")
    browser_page.goto(path)
    browser_page.wait_for_mathjax()
    return browser_page


def set_theme(page, theme: str) -> None:
    page.evaluate(f"document.documentElement.setAttribute('data-theme', '{theme}')")


def on_phone(page) -> None:
    """A 390 px viewport; the page must not scroll sideways."""
    page.set_viewport_size(PHONE)
    settle(page)  # the theme's drawers move in
    width = page.evaluate("document.documentElement.scrollWidth")
    assert width <= PHONE["width"], f"page is {width}px wide on a phone"


def test_exercise_solution_opens(browser_page, built_site):
    page = open_page(browser_page, built_site, GAME)
    exercise = page.locator("div.exercise#ex-game-symmetry")
    assert "Exercise" in exercise.locator(".admonition-title").inner_text()
    solution = page.locator("div.solution.dropdown").filter(
        has=page.locator('a[href="#ex-game-symmetry"]')
    )
    assert solution.count() == 1
    body = solution.locator("section#solution-content")
    answer = "positions in the class: 2"  # the executed solution cell's output
    assert not body.is_visible(), "the solution should be hidden until opened"
    solution.locator("button.toggle-button").click()
    body.wait_for(state="visible")
    assert answer in body.inner_text()
    # The solution's title links back to its exercise, by number.
    link = solution.locator(".admonition-title a")
    assert re.search(r"Exercise \d+\.\d+", link.inner_text())  # numbered per chapter
    solution.scroll_into_view_if_needed()
    page.screenshot("exercise-solution-open", full_page=False)
    on_phone(page)
    set_theme(page, "dark")
    solution.scroll_into_view_if_needed()
    page.screenshot("exercise-solution-phone-dark", full_page=False)


def test_every_chapter_of_parts_1_to_3_has_exercises(built_site):
    toc = (built_site.parents[1] / "_toc.yml").read_text(encoding="utf-8")
    parts = re.split(r"- caption:", toc)
    chapters = [
        name
        for part in parts
        if re.match(r'\s*"Part (I|II|III) ', part)
        for name in re.findall(r"file:\s*(\S+)", part)
    ]
    assert len(chapters) >= 14
    # A page split off a long chapter (``X_more``) counts with the chapter it continues.
    for chapter in [c for c in chapters if not c.endswith("_more")]:
        pages = [c for c in chapters if c in (chapter, f"{chapter}_more")]
        html = "".join((built_site / f"{c}.html").read_text(encoding="utf-8") for c in pages)
        # An exercise may open as a dropdown (a long page folds them); it is still one.
        exercises = len(re.findall(r'class="exercise (?:dropdown )?admonition"', html))
        solutions = html.count('class="solution dropdown admonition"')
        assert 2 <= exercises == solutions, f"{chapter}: {exercises} exercises, {solutions} answers"


def test_kit_downloads_as_a_pdf(browser_page, built_site):
    pypdf = pytest.importorskip("pypdf")
    page = open_page(browser_page, built_site, KIT)
    links = page.locator("a.download-link, a.reference.download")
    hrefs = sorted({links.nth(i).get_attribute("href") for i in range(links.count())})
    assert len(hrefs) == 2 and all(h.endswith(".pdf") for h in hrefs), hrefs
    assert all("menace-kit-" in h for h in hrefs), hrefs
    base = page.page.url
    for href in hrefs:
        response = page.request.get(re.sub(r"[^/]*$", "", base) + href)
        assert response.status == 200, href
        data = response.body()
        assert data.startswith(b"%PDF"), href
        reader = pypdf.PdfReader(io.BytesIO(data))
        # Michie's 287 boxes: instructions, colour key, the box index, 20 sheets of labels.
        front = 4 if "letter" in href else 3  # the box index takes two Letter pages
        assert len(reader.pages) == front + math.ceil(287 / 15), href
        assert reader.pages[2].extract_text().startswith("Box index")
        assert "Box 1" in reader.pages[front].extract_text()
    # One drawing shows at a time (wide or narrow, light or dark: the theme's figures).
    figure = page.locator("figure#fig-kit-labels img:visible")
    assert figure.count() == 1 and figure.evaluate("i => i.naturalWidth") > 0
    page.screenshot("build-your-own")
    on_phone(page)
    set_theme(page, "dark")
    page.screenshot("build-your-own-phone-dark", full_page=False)


def test_key_results_link_their_chapters(browser_page, built_site):
    page = open_page(browser_page, built_site, KEY_RESULTS)
    rows = page.locator("article table tbody tr")
    assert rows.count() >= 8
    for i in range(rows.count()):
        cells = rows.nth(i).locator("td")
        href = cells.nth(0).locator("a").get_attribute("href")
        assert href and href.split("#")[0].endswith(".html"), href
        assert (built_site / "book" / href.split("#")[0]).exists(), href
        # "verdict: the ledger's figure (measure, seeds)", several joined by "; " where a row
        # summarises several claims
        text = cells.nth(4).inner_text().strip()
        verdicts = re.findall(r"(?:^|; )([a-z][a-z ]*?):", text)
        assert verdicts, text
        assert set(verdicts) <= {
            "reproduced",
            "differs",
            "not reproducible",
            "recomputed",
            "new",
        }
    page.screenshot("key-results")
    on_phone(page)
    set_theme(page, "dark")
    page.locator("article table").scroll_into_view_if_needed()
    page.screenshot("key-results-phone-dark", full_page=False)


def test_intro_has_the_cite_box(browser_page, built_site):
    page = open_page(browser_page, built_site, INTRO)
    box = page.locator("div.admonition").filter(has_text="Cite this book")
    assert box.count() == 1
    assert "@misc{menace_bayesian_observer" in box.inner_text()
    thesis = page.locator("div.admonition").filter(has_text="Cite the thesis")
    assert "@mastersthesis{thesis" in thesis.inner_text()
    box.scroll_into_view_if_needed()
    page.screenshot("intro-cite-box", full_page=False)
