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

pytestmark = pytest.mark.browser

INTRO = "book/intro.html"
GAME = "book/game.html"


def _in_toc(site: Path, docname: str) -> bool:
    toc = (site.parents[1] / "_toc.yml").read_text(encoding="utf-8")  # site = <root>/_build/html
    return re.search(rf"^\s*-?\s*(file|root):\s*{re.escape(docname)}\s*$", toc, re.M) is not None


def _pages(site: Path) -> list[str]:
    pages = sorted(p.relative_to(site).as_posix() for p in (site / "book").rglob("*.html"))
    return pages + [p for p in ("search.html", "genindex.html") if (site / p).exists()]


def test_index_redirects_to_intro(browser_page):
    browser_page.goto("index.html")
    browser_page.wait_for_url(re.compile(r"book/intro\.html$"))


def test_intro_page(browser_page):
    browser_page.goto(INTRO)
    browser_page.wait_for_mathjax()
    browser_page.wait_for_widgets()
    assert browser_page.locator("article h1").count() >= 1, "landing page has no title"
    assert browser_page.widget_errors() == []
    browser_page.screenshot("intro")


@pytest.fixture(scope="module")
def page_tour(open_site_page, built_site: Path) -> dict[str, dict]:
    """Every built page opened once (light theme), for the two tests below.

    Per path: widget error boxes, MathJax's version, typeset and untypeset math, the
    MathJax script addresses, and the browser problems seen on that visit.
    """
    seen = {}
    with open_site_page("page-tour") as page:
        for path in _pages(built_site):
            page.goto(path)
            page.wait_for_mathjax()
            page.wait_for_widgets()
            seen[path] = {
                "widget_errors": page.widget_errors(),
                "mathjax": page.evaluate("() => window.MathJax && MathJax.version"),
                "typeset": page.locator("mjx-container").count(),
                "untypeset": page.locator("article .math:not(:has(mjx-container))").count(),
                "scripts": page.evaluate(
                    "() => Array.from(document.scripts).map(s => s.src)"
                    ".filter(s => /mathjax/i.test(s))"
                ),
                "problems": page.take_problems(),
            }
    return seen


@pytest.mark.xdist_group("page-tour")
def test_mathjax_is_local_and_renders(page_tour, built_site):
    """Every page with math gets it typeset by the vendored MathJax, none left as TeX."""
    pages = [p for p in _pages(built_site) if 'class="math' in (built_site / p).read_text()]
    if not pages:
        pytest.skip("no page contains math yet")
    for path in pages:
        seen = page_tour[path]
        src = seen["mathjax"]
        assert src and src.startswith("3."), f"MathJax 3 not loaded on {path}"
        assert seen["typeset"] > 0, f"no typeset math on {path}"
        leftover = seen["untypeset"]
        assert leftover == 0, f"{leftover} math element(s) left untypeset on {path}"
        scripts = seen["scripts"]
        assert scripts and all("/_static/vendor/mathjax/" in s for s in scripts), scripts


def test_game_page(browser_page, built_site):
    if not _in_toc(built_site, "book/game") or not (built_site / GAME).exists():
        pytest.skip("book/game.ipynb is not in _toc.yml / not built yet")
    browser_page.goto(GAME)
    browser_page.wait_for_mathjax()
    browser_page.wait_for_widgets()
    assert browser_page.widget_errors() == []
    # Visible figures only: each has a twin for the other theme, hidden (theme_figures.py).
    imgs = browser_page.locator("article img:visible")
    assert imgs.count() > 0, "no figures on the game page"
    imgs.last.scroll_into_view_if_needed()
    sizes = browser_page.evaluate(
        """() => Array.from(document.querySelectorAll('article img')).map(
               i => [i.getAttribute('src'), i.complete, i.naturalWidth])"""
    )
    broken = [src for src, complete, width in sizes if not (complete and width > 0)]
    assert not broken, f"figures that did not load: {broken}"
    browser_page.screenshot("game")


@pytest.mark.xdist_group("page-tour")
def test_every_page_loads_cleanly(page_tour, built_site):
    """Each built page: no errors, no outside requests, widgets render, no widget error box."""
    pages = _pages(built_site)
    assert INTRO in pages
    assert sorted(page_tour) == sorted(pages)
    for path in pages:
        assert page_tour[path]["problems"] == [], f"browser problems on {path}"
        assert page_tour[path]["widget_errors"] == [], f"widget error on {path}"


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
