"""Headless-Chromium checks of the built book: it renders, offline, without errors.

Run with ``make test-browser`` (builds the book first) or ``pytest -m browser tests/browser``
(builds ``_build/html`` only if it is missing). ``MENACE_SKIP_BROWSER=1`` skips them.
Every test also fails on console errors, uncaught page errors, failed local requests and
requests to any host other than 127.0.0.1 (see conftest.py).
"""

from __future__ import annotations

import re
from pathlib import Path

import pytest
from conftest import site_pages, tour_measure, view_params

pytestmark = pytest.mark.browser

INTRO = "book/intro.html"
GAME = "book/game.html"


def _in_toc(site: Path, docname: str) -> bool:
    toc = (site.parents[1] / "_toc.yml").read_text(encoding="utf-8")  # site = <root>/_build/html
    return re.search(rf"^\s*-?\s*(file|root):\s*{re.escape(docname)}\s*$", toc, re.M) is not None


_pages = site_pages


def test_index_redirects_to_intro(browser_page):
    browser_page.goto("index.html")
    browser_page.wait_for_url(re.compile(r"book/intro\.html$"))


@tour_measure("intro", ("desktop-light",), pages=lambda site: [INTRO])
def _intro(sp, path: str) -> int:
    sp.screenshot("intro")
    return sp.locator("article h1").count()


@pytest.mark.parametrize("view", view_params("desktop-light"))
def test_intro_page(site_tour, view):
    tour = site_tour(view)
    assert tour[INTRO]["intro"] >= 1, "landing page has no title"
    assert tour[INTRO]["widget_errors"] == [] and tour[INTRO]["problems"] == []


@tour_measure("mathjax", ("desktop-light",))
def _mathjax(sp, path: str) -> dict:
    """MathJax's version, typeset and untypeset math, the MathJax script addresses."""
    return {
        "version": sp.evaluate("() => window.MathJax && MathJax.version"),
        "typeset": sp.locator("mjx-container").count(),
        "untypeset": sp.locator("article .math:not(:has(mjx-container))").count(),
        "scripts": sp.evaluate(
            "() => Array.from(document.scripts).map(s => s.src).filter(s => /mathjax/i.test(s))"
        ),
    }


@pytest.mark.parametrize("view", view_params("desktop-light"))
def test_mathjax_is_local_and_renders(site_tour, built_site, view):
    """Every page with math gets it typeset by the vendored MathJax, none left as TeX."""
    pages = [p for p in _pages(built_site) if 'class="math' in (built_site / p).read_text()]
    if not pages:
        pytest.skip("no page contains math yet")
    tour = site_tour(view)
    for path in pages:
        seen = tour[path]["mathjax"]
        src = seen["version"]
        assert src and src.startswith("3."), f"MathJax 3 not loaded on {path}"
        assert seen["typeset"] > 0, f"no typeset math on {path}"
        leftover = seen["untypeset"]
        assert leftover == 0, f"{leftover} math element(s) left untypeset on {path}"
        scripts = seen["scripts"]
        assert scripts and all("/_static/vendor/mathjax/" in s for s in scripts), scripts


@tour_measure("game", ("desktop-light",), pages=lambda site: [GAME])
def _game(sp, path: str) -> dict:
    # Visible figures only: each has a twin for the other theme, hidden (theme_figures.py).
    imgs = sp.locator("article img:visible")
    count = imgs.count()
    if count:
        imgs.last.scroll_into_view_if_needed()
    sizes = sp.evaluate(
        """() => Array.from(document.querySelectorAll('article img')).map(
               i => [i.getAttribute('src'), i.complete, i.naturalWidth])"""
    )
    sp.evaluate("() => window.scrollTo(0, 0)")
    sp.screenshot("game")
    return {"visible": count, "sizes": sizes}


@pytest.mark.parametrize("view", view_params("desktop-light"))
def test_game_page(site_tour, built_site, view):
    if not _in_toc(built_site, "book/game") or not (built_site / GAME).exists():
        pytest.skip("book/game.ipynb is not in _toc.yml / not built yet")
    seen = site_tour(view)[GAME]
    assert seen["widget_errors"] == [] and seen["problems"] == []
    assert seen["game"]["visible"] > 0, "no figures on the game page"
    broken = [src for src, complete, width in seen["game"]["sizes"] if not (complete and width > 0)]
    assert not broken, f"figures that did not load: {broken}"


@pytest.mark.parametrize("view", view_params("desktop-light"))
def test_every_page_loads_cleanly(site_tour, built_site, view):
    """Each built page: no errors, no outside requests, widgets render, no widget error box.

    (test_accessibility.py checks the same on the other three views.)
    """
    pages = _pages(built_site)
    assert INTRO in pages
    tour = site_tour(view)
    assert sorted(tour) == sorted(pages)
    for path in pages:
        assert tour[path]["problems"] == [], f"browser problems on {path}"
        assert tour[path]["widget_errors"] == [], f"widget error on {path}"


_CANONICAL = re.compile(r"""<link\b[^>]*\brel=["']canonical["'][^>]*>""", re.I)
_EXTERNAL_RESOURCE = re.compile(
    r"""<(?:script|link|img|iframe|source|video|audio|embed)\b[^>]*?"""
    r"""\b(?:src|href)\s*=\s*["']((?:https?:)?//[^"']+)["']""",
    re.I,
)


def test_html_references_no_third_party_resources(built_site):
    """Static check: no page loads a script, stylesheet, font or image from another host.

    (Ordinary <a href> links to other sites are fine; only loaded resources count.)
    """
    offenders = {}
    for html in sorted(built_site.rglob("*.html")):
        text = html.read_text(encoding="utf-8", errors="replace")
        # The canonical link names the site's public address: metadata, never fetched.
        text = _CANONICAL.sub("", text)
        hits = _EXTERNAL_RESOURCE.findall(text)
        if hits:
            offenders[html.relative_to(built_site).as_posix()] = sorted(set(hits))
    assert not offenders, f"third-party resources referenced: {offenders}"


_RAW_TABLE = re.compile(r"<p>\s*\|[^<]*\|\s*(?:\n|<br\s*/?>)\s*\|\s*(?:---|—|:?-)")


def test_tables_a_cell_returns_are_rendered_not_shown_as_pipes(built_site):
    """Static check: no page shows a Markdown table as a paragraph of ``|`` characters.

    (Output Markdown is read as GitHub-flavoured Markdown: CommonMark has no tables.)
    """
    raw = [
        html.relative_to(built_site).as_posix()
        for html in sorted((built_site / "book").rglob("*.html"))
        if _RAW_TABLE.search(html.read_text(encoding="utf-8", errors="replace"))
    ]
    assert not raw, f"Markdown tables left as text on: {raw}"


def test_no_page_prints_the_build_machines_folders(built_site):
    """Static check: no page shows the folder the book was built in.

    An evaluated default such as ``PosixPath('/home/.../book/data/her.json')`` in an API
    signature leaks the build machine's layout and is too long to wrap on a phone.
    """
    root = str(Path(__file__).resolve().parents[2])
    leaks = [
        html.relative_to(built_site).as_posix()
        for html in sorted((built_site / "book").rglob("*.html"))
        if root in html.read_text(encoding="utf-8", errors="replace")
    ]
    assert not leaks, f"pages print the build folder {root}: {leaks}"
