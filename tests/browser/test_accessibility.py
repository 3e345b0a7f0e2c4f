"""Every page of the built book, for every reader: axe-core, phones, the dark theme.

* axe-core (npm ``axe-core``, pinned in package.json, injected from ``node_modules``; never
  committed or served) checks every page in the light and the dark theme against WCAG 2.1
  A and AA, plus 2.5.3 "label in name". Any serious or critical violation fails, unless it
  is listed in :data:`THIRD_PARTY` with the reason it is not the book's own content.
* At 390 px (a phone) no page scrolls sideways, and nothing in an article or a widget
  spills past the screen edge outside a box that scrolls on its own.
* In the dark theme every figure shows its light-ink drawing, every page is screenshotted
  into ``tests/output/screenshots/dark-*.png``; every figure has real alt text.
* A widget whose JavaScript never loads shows a fallback text instead of an empty space.

The axe counts are written to ``tests/output/axe-summary-{light,dark}.json``.
"""

from __future__ import annotations

import json
import re
from collections import Counter
from pathlib import Path

import pytest

pytestmark = pytest.mark.browser

ROOT = Path(__file__).resolve().parents[2]
AXE = ROOT / "node_modules" / "axe-core" / "axe.min.js"
OUTPUT = Path(__file__).resolve().parents[1] / "output"
SCREENSHOTS = OUTPUT / "screenshots"
THEMES = ("light", "dark")
PHONE = {"width": 390, "height": 844}
WCAG_TAGS = ["wcag2a", "wcag2aa", "wcag21a", "wcag21aa"]
FAILING_IMPACTS = {"serious", "critical"}
# (rule id, CSS selector pattern) of violations caused by third-party markup that the book
# cannot change cleanly. Each entry says why. Empty: every known one is fixed.
THIRD_PARTY: list[tuple[str, str, str]] = []


def _pages(site: Path) -> list[str]:
    pages = sorted(p.relative_to(site).as_posix() for p in (site / "book").rglob("*.html"))
    return pages + [p for p in ("search.html", "genindex.html") if (site / p).exists()]


@pytest.fixture(scope="module")
def axe_source() -> str:
    if not AXE.is_file():
        pytest.fail(f"{AXE} missing: run `npm ci` (axe-core is pinned in package.json)")
    return AXE.read_text(encoding="utf-8")


def _open(browser_page, path: str, theme: str) -> None:
    """Open a page in a theme (as if the reader had chosen it) and wait until it is drawn."""
    browser_page.page.add_init_script(f"localStorage.setItem('mode', '{theme}');")
    browser_page.goto(path)
    browser_page.wait_for_mathjax()
    browser_page.wait_for_widgets()
    if browser_page.locator("article mjx-container").count():
        # book.js has checked which inline formulas need their own scroll box.
        browser_page.page.wait_for_function("document.documentElement.dataset.bookMath")
    actual = browser_page.evaluate("() => document.documentElement.dataset.theme")
    assert actual == theme, f"{path}: theme {actual!r}, wanted {theme!r}"


def _run_axe(page, source: str) -> list[dict]:
    if not page.evaluate("() => typeof window.axe === 'object'"):
        page.add_script_tag(content=source)
    # preload off: axe would fetch the stylesheets again, and resolve their @imports wrongly.
    # resultTypes: every rule still runs on every node, but passes are not collected.
    return page.evaluate(
        """tags => axe.run(document, {
             runOnly: {type: 'tag', values: tags},
             rules: {'label-content-name-mismatch': {enabled: true}},
             preload: false,
             resultTypes: ['violations'],
           }).then(r => r.violations.map(v => ({
             id: v.id, impact: v.impact, help: v.help,
             nodes: v.nodes.map(n => ({target: n.target.join(' '), summary: n.failureSummary})),
           })))""",
        WCAG_TAGS,
    )


def _third_party(rule: str, target: str) -> bool:
    return any(rule == r and re.search(p, target) for r, p, _why in THIRD_PARTY)


_IMAGES = """() => Array.from(document.querySelectorAll('article img')).map(i => ({
     src: i.getAttribute('src'), alt: i.getAttribute('alt') || '',
     cls: i.className, visible: i.offsetParent !== null,
     loaded: i.complete && i.naturalWidth > 0}))"""


@pytest.fixture(
    scope="module",
    # One xdist group per theme: the two tours run on two workers at once.
    params=[pytest.param(t, marks=pytest.mark.xdist_group(f"theme-tour-{t}")) for t in THEMES],
)
def theme_tour(request, open_site_page, built_site, axe_source) -> dict[tuple[str, str], dict]:
    """Every page opened once in one theme, for the three tests below (one run per theme).

    Per (theme, path): the article's images, axe's violations and the browser problems
    (console errors, failed or outside requests) seen on that visit. The dark visits are
    screenshotted into ``tests/output/screenshots/dark-*.png``.
    """
    SCREENSHOTS.mkdir(parents=True, exist_ok=True)
    seen = {}
    with open_site_page(f"theme-tour-{request.param}") as page:
        for theme in [request.param]:
            for path in _pages(built_site):
                _open(page, path, theme)
                images = page.evaluate(_IMAGES)
                if theme == "dark":
                    page.page.screenshot(
                        path=str(SCREENSHOTS / f"dark-{Path(path).stem}.png"), full_page=False
                    )
                axe = _run_axe(page.page, axe_source)
                seen[theme, path] = {"images": images, "axe": axe, "problems": page.take_problems()}
    return seen


def test_every_page_opens_without_browser_problems(theme_tour):
    problems = [f"[{t}] {m}" for (t, _), seen in theme_tour.items() for m in seen["problems"]]
    assert not problems, "browser problems:\n  " + "\n  ".join(problems[:40])


def test_axe_finds_no_serious_violation_on_any_page(theme_tour):
    counts: Counter = Counter()
    failures = []
    for (theme, path), seen in theme_tour.items():
        for v in seen["axe"]:
            counts[f"{v['impact']}:{v['id']}"] += len(v["nodes"])
            if v["impact"] not in FAILING_IMPACTS:
                continue
            for node in v["nodes"]:
                if not _third_party(v["id"], node["target"]):
                    failures.append(
                        f"[{theme}] {path}: {v['id']} ({v['impact']}) at "
                        f"{node['target']}: {node['summary']}"
                    )
    OUTPUT.mkdir(parents=True, exist_ok=True)
    theme = next(iter(theme_tour))[0]
    summary = OUTPUT / f"axe-summary-{theme}.json"
    summary.write_text(json.dumps(dict(sorted(counts.items())), indent=1))
    assert not failures, f"{len(failures)} serious/critical axe violations:\n" + "\n".join(
        failures[:40]
    )


# Elements that end past the right edge of the screen, unless a box between them and the
# page scrolls sideways on its own (a wide table or equation) -- what a reader would lose.
_SPILLS = """() => {
  const W = document.documentElement.clientWidth;
  const scrolls = (el) => /(auto|scroll)/.test(getComputedStyle(el).overflowX);
  const out = [];
  for (const el of document.querySelectorAll('article *')) {
    if (el.closest('mjx-assistive-mml')) continue;  // MathJax's text for screen readers
    const r = el.getBoundingClientRect();
    if (r.width < 2 || r.height < 2 || r.right <= W + 1) continue;
    let p = el.parentElement, inScroller = false;
    while (p && p.tagName !== 'ARTICLE') {
      if (scrolls(p)) { inScroller = true; break; }
      p = p.parentElement;
    }
    if (!inScroller) out.push(`${el.tagName.toLowerCase()}.${String(el.className).slice(0, 40)}`
                              + ` ends at ${Math.round(r.right)} px`);
  }
  return out.slice(0, 8);
}"""


def test_no_page_scrolls_sideways_on_a_phone(browser_page, built_site):
    browser_page.page.set_viewport_size(PHONE)
    problems = []
    for path in _pages(built_site):
        _open(browser_page, path, "light")
        wide = browser_page.evaluate(
            "() => [document.documentElement.scrollWidth, document.body.scrollWidth,"
            " document.documentElement.clientWidth]"
        )
        browser_page.evaluate("() => window.scrollTo(1000, 0)")
        if max(wide[:2]) > wide[2] or browser_page.evaluate("() => window.scrollX") != 0:
            problems.append(f"{path}: page is {max(wide[:2])} px wide at {wide[2]} px")
        spills = browser_page.evaluate(_SPILLS)
        if spills:
            problems.append(f"{path}: content past the screen edge: {spills}")
        if path in ("book/widgets_explorer.html", "book/game.html", "book/play.html"):
            browser_page.screenshot(f"phone-{Path(path).stem}")
    assert not problems, "\n".join(problems)


def test_dark_theme_shows_light_ink_figures_on_every_page(theme_tour):
    problems = []
    for (theme, path), seen in theme_tour.items():
        shown = seen["images"]
        # At the tour's desktop width a figure's narrow drawings (for a phone) are hidden;
        # tests/browser/test_figure_legibility.py checks them at 390 px.
        figures = [i for i in shown if "theme-" in i["cls"] and "fig-narrow" not in i["cls"]]
        for img in figures:
            want = ("theme-dark" in img["cls"]) == (theme == "dark")
            if img["visible"] != want:
                problems.append(f"[{theme}] {path}: {img['src']} visible={img['visible']}")
        visible = [i for i in shown if i["visible"]]
        if len(figures) != 2 * len([i for i in figures if "theme-light" in i["cls"]]):
            problems.append(f"[{theme}] {path}: a figure has no dark drawing")
        for img in visible:
            if len(img["alt"]) < 20 or re.search(r"\.(png|svg|jpe?g)$", img["alt"]):
                problems.append(f"{path}: {img['src']} has no real alt text")
    assert not problems, "\n".join(problems[:40])


def test_dark_theme_figure_page_screenshots(browser_page, built_site):
    """Whole pages with figures in the dark theme, to look at (tests/output/screenshots)."""
    for path in ("book/game.html", "book/other_machines.html", "book/michies_question.html"):
        _open(browser_page, path, "dark")
        height = min(browser_page.evaluate("document.documentElement.scrollHeight"), 9000)
        browser_page.page.set_viewport_size({"width": 1280, "height": height})
        browser_page.page.wait_for_timeout(300)
        browser_page.screenshot(f"dark-full-{Path(path).stem}")
        browser_page.page.set_viewport_size({"width": 1280, "height": 900})


def test_widget_without_javascript_says_so(browser_page, built_site):
    """With the widget loader replaced by an empty script, the fallback text appears."""
    page = browser_page.page
    page.route(
        "**/embed-amd.js*",
        lambda route: route.fulfill(status=200, body="", content_type="text/javascript"),
    )
    browser_page.goto("book/widgets_explorer.html")
    outputs = page.locator(
        '.cell_output:has(> script[type="application/vnd.jupyter.widget-view+json"])'
    )
    assert outputs.count() == 2
    page.wait_for_timeout(4500)  # the text waits 4 s, so a normal load never shows it
    for k in range(outputs.count()):
        style = outputs.nth(k).evaluate(
            "el => { const s = getComputedStyle(el, '::before');"
            " return [s.content, s.visibility, s.display]; }"
        )
        assert "did not start" in style[0] and style[1:] == ["visible", "block"], style
    browser_page.screenshot("widget-fallback")


def test_fallback_text_stays_hidden_when_widgets_load(browser_page, built_site):
    browser_page.goto("book/widgets_explorer.html")
    browser_page.wait_for_widgets()
    browser_page.page.wait_for_timeout(4500)
    contents = browser_page.page.locator(".cell_output").evaluate_all(
        "els => els.map(el => getComputedStyle(el, '::before').content)"
    )
    assert not any("did not start" in c for c in contents)
