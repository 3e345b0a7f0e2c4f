"""The *Claim by claim* page in headless Chromium: counts, filters, links, phone and dark theme."""

from __future__ import annotations

import json
import re
from pathlib import Path

import pytest
from conftest import screenshots_wanted

pytestmark = pytest.mark.browser


@pytest.fixture
def browser_page(module_page):
    """One tab for this module's tests, each test on its own fresh page (conftest.module_page)."""
    return module_page


PAGE = "book/claims.html"
SNAPSHOT = Path(__file__).resolve().parents[2] / "book" / "data" / "claims.json"


@pytest.fixture(scope="module")
def stored() -> dict:
    return json.loads(SNAPSHOT.read_text(encoding="utf-8"))


def _visible_rows(page) -> int:
    return page.evaluate(
        "() => Array.from(document.querySelectorAll('.claims-ledger tbody tr'))"
        ".filter(r => !r.hidden).length"
    )


def test_counts_and_rows_come_from_the_ledger(browser_page, built_site, stored):
    if not (built_site / PAGE).exists():
        pytest.skip("claims page not built")
    browser_page.goto(PAGE)
    rows = browser_page.locator(".claims-ledger tbody tr")
    assert rows.count() == len(stored["claims"])
    summary = browser_page.locator(".claims-ledger .cl-summary").inner_text()
    for verdict, n in stored["counts"].items():
        if n and verdict not in ("thesis", "historical"):  # the summary line's, not the table's
            assert re.search(rf"\b{n}\b", summary), (verdict, n, summary)
    browser_page.screenshot("claims-desktop")


def test_filters_work_without_a_kernel(browser_page, built_site, stored):
    if not (built_site / PAGE).exists():
        pytest.skip("claims page not built")
    browser_page.goto(PAGE)
    chapter = browser_page.locator(".claims-ledger select[name=chapter]")
    verdict = browser_page.locator(".claims-ledger select[name=verdict]")
    chapter.select_option("8")
    shown = _visible_rows(browser_page)
    in_8 = browser_page.evaluate(
        "() => Array.from(document.querySelectorAll('.claims-ledger tbody tr'))"
        ".filter(r => !r.hidden).every(r => r.dataset.chapters.split(' ').includes('8'))"
    )
    assert 0 < shown < len(stored["claims"]) and in_8
    assert f"{shown} of {len(stored['claims'])}" in browser_page.locator(".cl-status").inner_text()
    chapter.select_option("all")
    verdict.select_option("not reproducible")
    assert _visible_rows(browser_page) == stored["counts"]["not reproducible"]


def test_every_link_of_the_ledger_resolves(built_site):
    page = built_site / PAGE
    if not page.exists():
        pytest.skip("claims page not built")
    html = page.read_text(encoding="utf-8")
    table = html[html.index('class="claims-ledger"') :]
    hrefs = set(re.findall(r'<a href="([^"]+)"', table))
    assert hrefs
    for href in hrefs:
        target, _, anchor = href.partition("#")
        path = page.parent / target
        assert path.exists(), href
        if anchor:
            assert f'id="{anchor}"' in path.read_text(encoding="utf-8"), href


def test_phone_and_dark_theme(browser_page, built_site):
    if not (built_site / PAGE).exists():
        pytest.skip("claims page not built")
    out = Path(__file__).resolve().parents[1] / "output" / "screenshots"
    out.mkdir(parents=True, exist_ok=True)
    page = browser_page.page
    page.set_viewport_size({"width": 390, "height": 844})
    browser_page.goto(PAGE)
    width = page.evaluate("() => document.documentElement.scrollWidth")
    assert width <= 391, f"page scrolls sideways at 390 px: {width}"
    if screenshots_wanted():
        page.screenshot(path=str(out / "claims-phone.png"), full_page=False)
    page.evaluate(
        "() => { document.documentElement.dataset.theme = 'dark';"
        " document.documentElement.dataset.mode = 'dark'; }"
    )
    page.set_viewport_size({"width": 1280, "height": 900})
    if screenshots_wanted():
        page.screenshot(path=str(out / "claims-dark.png"), full_page=False)
