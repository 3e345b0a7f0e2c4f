"""Every page of the built book, for every reader: axe-core, phones, the dark theme.

* axe-core (npm ``axe-core``, pinned in package.json, injected from ``node_modules``; never
  committed or served) checks every page in the light and the dark theme against WCAG 2.1
  A and AA, plus 2.5.3 "label in name". Any serious or critical violation fails, unless it
  is listed in :data:`THIRD_PARTY` with the reason it is not the book's own content. The
  default run samples the colour rules by style and runs the dark theme's other rules on
  the three pages it opens dark; ``--thorough`` runs everything everywhere
  (:func:`test_axe_finds_no_serious_violation_on_any_page` says what and why).
* At 390 px (a phone) no page scrolls sideways, and nothing in an article or a widget
  spills past the screen edge outside a box that scrolls on its own.
* In the dark theme every figure shows its light-ink drawing; every figure has real alt text
  (with ``MENACE_SCREENSHOTS=1`` every dark page is screenshotted into
  ``tests/output/screenshots/dark-*.png``).
* A widget whose JavaScript never loads shows a fallback text instead of an empty space.

The axe counts are written to ``tests/output/axe-summary-{light,dark}.json``.

The pages are read on the site tours of conftest.py (one load per page and viewport, in the
light theme, then switched to dark in place; a few pages also opened dark: ``OPENED_DARK``,
every page with ``--thorough``), shared with tests/browser/test_site.py, test_reading.py and
test_figure_legibility.py.
"""

from __future__ import annotations

import json
import re
from collections import Counter
from pathlib import Path

import pytest
from conftest import (
    OPENED_DARK,
    TOOLS,
    VIEWS,
    open_drawn,
    opened_label,
    screenshots_wanted,
    site_pages,
    tool_url,
    tour_measure,
    view_params,
)

pytestmark = pytest.mark.browser

AXE = TOOLS["axe.min.js"]
OUTPUT = Path(__file__).resolve().parents[1] / "output"
SCREENSHOTS = OUTPUT / "screenshots"
WCAG_TAGS = ["wcag2a", "wcag2aa", "wcag21a", "wcag21aa"]
FAILING_IMPACTS = {"serious", "critical"}
# (rule id, CSS selector pattern) of violations caused by third-party markup that the book
# cannot change cleanly. Each entry says why. Empty: every known one is fixed.
THIRD_PARTY: list[tuple[str, str, str]] = []


def axe_url(sp) -> str:
    """Where the site server serves axe-core to the pages (conftest's ``TOOLS``)."""
    if not AXE.is_file():
        pytest.fail(f"{AXE} missing: run `npm ci` (axe-core is pinned in package.json)")
    return tool_url(sp.base_url, "axe.min.js")


_AXE_RUN = """([tags, sample]) => {
  // The sampled colour rules check only the elements marked by _SAMPLE (below).
  if (sample) axe.configure({rules: [
    {id: 'color-contrast', selector: '[data-axe-sample~="cc"]'},
    {id: 'link-in-text-block', selector: 'a[href][data-axe-sample~="link"],'
                                         + ' [role=link][data-axe-sample~="link"]'}]});
  return axe.run(document, {
    runOnly: tags[0] === 'color-contrast' ? {type: 'rule', values: tags}
                                          : {type: 'tag', values: tags},
    rules: tags[0] === 'color-contrast' ? {}
                                        : {'label-content-name-mismatch': {enabled: true}},
    preload: false,
    resultTypes: sample ? ['violations', 'incomplete'] : ['violations'],
    elementRef: Boolean(sample),
  }).then(r => {
    const undecided = new Set();
    for (const v of sample ? r.incomplete : []) {
      for (const n of v.nodes) {
        const sig = window.axeSampled && window.axeSampled.get(n.element);
        if (sig && sig[v.id]) undecided.add(sig[v.id]);
      }
    }
    const decided = sample ? [...new Set([...window.axeSampled.values()].flatMap(
      s => Object.values(s)))].filter(s => !undecided.has(s)) : [];
    return {decided, violations: r.violations.map(v => ({
      id: v.id, impact: v.impact, help: v.help,
      nodes: v.nodes.map(n => ({target: n.target.join(' '), summary: n.failureSummary})),
    }))};
  });
}"""

# The two colour rules (color-contrast, link-in-text-block) judge a piece of text by its
# own style (colour, size, weight, shadow, pseudo-elements, kind of element) and the layers
# that show through behind it up to the first opaque one (their colours, images, opacity,
# filters, positioning), not by its words or its place on the page. In the default run each
# tour marks, for every such style signature it has not yet seen decided on an earlier page,
# up to PER_PAGE laid-out, unclipped elements of this page; the rules check those.
# A signature whose marked elements axe could not decide (incomplete: e.g. text over an
# image) stays open and is marked again on the next page that has it.
PER_PAGE = 3
_SAMPLE = r"""([known, perPage]) => {
  // A page switched to the other theme after its first run: its earlier marks go.
  for (const el of document.querySelectorAll('[data-axe-sample]')) delete el.dataset.axeSample;
  const done = new Set(known);
  const count = new Map();
  const marked = new Map();
  const letters = /[\p{L}\p{N}]/u;
  const layerOf = new Map();
  const layers = (el) => {
    if (!el) return '';
    if (layerOf.has(el)) return layerOf.get(el);
    const t = getComputedStyle(el);
    const own = [t.backgroundColor, t.backgroundImage, t.opacity, t.filter, t.mixBlendMode,
                 t.position, t.transform, t.zIndex, t.backdropFilter].join(',');
    const opaque = t.backgroundImage === 'none' && t.backgroundColor.startsWith('rgb(')
      && t.opacity === '1' && t.filter === 'none' && t.mixBlendMode === 'normal';
    const value = opaque ? own : own + '/' + layers(el.parentElement);
    layerOf.set(el, value);
    return value;
  };
  const pseudo = (el) => ['::before', '::after'].map((p) => {
    const q = getComputedStyle(el, p);
    return q.content === 'none' || q.content === 'normal' ? '' : [q.content.length,
      q.color, q.backgroundColor, q.backgroundImage, q.position, q.width, q.height].join(',');
  }).join('|');
  const shown = (el) => {
    if (!el.checkVisibility({opacityProperty: true, visibilityProperty: true})) return false;
    const r = el.getBoundingClientRect();
    if (r.width < 1 || r.height < 1) return false;
    for (let a = el.parentElement; a; a = a.parentElement) {
      if (getComputedStyle(a).overflow === 'visible') continue;
      const b = a.getBoundingClientRect();
      if (r.right <= b.left || r.left >= b.right || r.bottom <= b.top || r.top >= b.bottom) {
        return false;
      }
    }
    return true;
  };
  for (const el of document.body.querySelectorAll('*')) {
    const text = [...el.childNodes].filter(n => n.nodeType === 3).map(n => n.data).join('').trim();
    const rules = [];
    if (text || el.matches('input, select, textarea, button')) rules.push('color-contrast');
    if (el.matches('a[href], [role=link]')) rules.push('link-in-text-block');
    if (!rules.length) continue;
    const s = getComputedStyle(el);
    const own = [el.namespaceURI, el.tagName, el.type || '', letters.test(text),
      el.matches(':disabled, [aria-disabled="true"]'), !!el.closest('[aria-hidden="true"]'),
      s.color, s.fontSize, s.fontWeight, s.fontStyle, s.textShadow, s.webkitTextStrokeWidth,
      s.webkitTextFillColor, s.textDecorationLine, s.textDecorationStyle,
      s.textDecorationColor, s.borderBottomStyle, s.borderBottomColor, s.outlineStyle,
      pseudo(el), layers(el)].join(';');
    for (const rule of rules) {
      let sig = rule + ':' + own;
      if (rule === 'link-in-text-block') {
        // A link is judged against the text of its block, and only inside running text.
        const block = el.parentElement && el.parentElement.closest(
          'p, li, td, th, dd, dt, div, section, article, figcaption, blockquote');
        const b = block ? getComputedStyle(block) : null;
        sig += ';' + (block ? [block.tagName, b.color, b.fontWeight,
          block.textContent.trim().length > el.textContent.trim().length].join(',') : '');
      }
      const n = count.get(sig) || 0;
      if (done.has(sig) || n >= perPage || !shown(el)) continue;
      count.set(sig, n + 1);
      el.dataset.axeSample = ((el.dataset.axeSample || '') + ' ' + (
        rule === 'color-contrast' ? 'cc' : 'link')).trim();
      marked.set(el, {...(marked.get(el) || {}), [rule]: sig});
    }
  }
  window.axeSampled = marked;
  return marked.size;
}"""

# In the default run's dark tour every rule runs on the pages opened dark (conftest's
# OPENED_DARK: the site's chrome, header, sidebars, theme switcher and footer, the same on
# every page; a page with figures, their dark drawings shown only in the dark theme; one with
# widgets); on every page switched to dark the colour rules only. Every other rule reads the
# page's markup, which the theme changes only there.

# Per tour (view, and for a dark view opened or switched) and worker: the colour rules'
# style signatures decided so far.
_DECIDED: dict[str, set[str]] = {}


def _run_axe(
    page, url: str, decided: set[str] | None = None, colour_only: bool = False
) -> list[dict]:
    """axe-core's WCAG rules on the page (``colour_only``: its two colour rules); violations.

    With ``decided`` (the default run's tours), the colour rules check only a sample of the
    page's elements (:data:`_SAMPLE`), and ``decided`` gains the signatures they decided.
    """
    if not page.evaluate("() => typeof window.axe === 'object'"):
        page.add_script_tag(url=url)
    sample = decided is not None
    if sample and not page.evaluate(_SAMPLE, [sorted(decided), PER_PAGE]) and colour_only:
        # Nothing marked: both colour rules would check no element (their selectors match
        # none), so there is nothing to run.
        return []
    # preload off: axe would fetch the stylesheets again, and resolve their @imports wrongly.
    # resultTypes: every rule still runs on every node, but passes are not collected.
    rules = ["color-contrast", "link-in-text-block"] if colour_only else WCAG_TAGS
    found = page.evaluate(_AXE_RUN, [rules, sample])
    if sample:
        decided.update(found["decided"])
    return found["violations"]


def _third_party(rule: str, target: str) -> bool:
    return any(rule == r and re.search(p, target) for r, p, _why in THIRD_PARTY)


_IMAGES = """() => Array.from(document.querySelectorAll('article img')).map(i => ({
     src: i.getAttribute('src'), alt: i.getAttribute('alt') || '',
     cls: i.className, visible: i.offsetParent !== null,
     loaded: i.complete && i.naturalWidth > 0}))"""


@tour_measure("images", ("desktop-light", "desktop-dark"))
def _images(sp, path: str) -> list[dict]:
    return sp.evaluate(_IMAGES)


@tour_measure("dark-screenshot", ("desktop-dark",))
def _dark_screenshot(sp, path: str) -> None:
    if screenshots_wanted():
        SCREENSHOTS.mkdir(parents=True, exist_ok=True)
        how = "opened" if sp.opened else "switched"
        sp.page.screenshot(path=str(SCREENSHOTS / f"dark-{how}-{Path(path).stem}.png"))


@tour_measure("axe", ("desktop-light", "desktop-dark"), order=20)
def _axe(sp, path: str) -> list[dict]:
    # Last on the visit: it adds axe-core's script to the page (once per load). The long
    # run (--thorough) checks every element with every rule; the default run samples the
    # colour rules, and runs the others on a dark page only where it was opened dark.
    if sp.thorough:
        return _run_axe(sp.page, axe_url(sp))
    dark = VIEWS[sp.view][1] == "dark"
    return _run_axe(
        sp.page,
        axe_url(sp),
        _DECIDED.setdefault(f"{sp.view} {'opened' if sp.opened else 'switched'}", set()),
        colour_only=dark and not sp.opened,
    )


@pytest.mark.parametrize("view", view_params(*VIEWS))
def test_every_page_opens_without_browser_problems(site_tour, view):
    """Each visit of each view: no console error, failed or outside request, widget error box
    (on the page's load, or on its switch to dark); the page is in the theme the reader chose.

    Light views: every page opened (the phone's light tour: every page; its dark view the
    figure pages). Dark views: every page the view measures, switched to dark in place with
    the reader's theme button, as a reader does; the default run also opens the pages of
    ``OPENED_DARK`` in the dark theme (the theme's load path: the chrome and formulas, a
    page of figures, the page of widgets), the long run (``--thorough``) every page.
    """
    theme = VIEWS[view][1]
    problems = [
        f"[{view}] {path}: {m}"
        for path, seen in site_tour(view).items()
        for m in seen["problems"]
        + [f"theme {seen['theme']!r}, wanted {theme!r}"] * (seen["theme"] != theme)
        + [f"widget error: {e}" for e in seen["widget_errors"]]
    ]
    assert not problems, "browser problems:\n  " + "\n  ".join(problems[:40])


# Every element shown, in document order, with its colours (scripts and styles aside:
# axe-core's script stays on a page it ran on); an element a reader cannot see (hidden, or
# transparent like the copy buttons until hovered) only as hidden: the colour transitions of
# hidden elements end at different times one way and the other.
_STYLES = """() => [...document.querySelectorAll('body *:not(script, style, link, meta)')]
  .map((el) => { const s = getComputedStyle(el);
    if (!el.checkVisibility({opacityProperty: true, visibilityProperty: true})) {
      return el.tagName + '|hidden';
    }
    return [el.tagName, s.color, s.backgroundColor, s.backgroundImage, s.borderTopColor,
            s.outlineColor, s.textDecorationColor, s.fill, s.stroke, s.display,
            s.visibility, s.opacity, s.filter].join('|'); })"""


@tour_measure("dark-styles", ("desktop-dark", "phone-dark"), order=5)
def _dark_styles(sp, path: str) -> list[str] | None:
    """Every element's colours, on the pages a dark view both switches and opens dark."""
    if sp.thorough or path in OPENED_DARK[sp.view]:
        return sp.evaluate(_STYLES)
    return None


@pytest.mark.parametrize(
    "view", view_params("desktop-dark", "phone-dark", thorough=("phone-dark",))
)
def test_a_page_switched_to_dark_looks_as_one_opened_dark(site_tour, view):
    """The theme button gives a page the colours it has when opened with the choice stored.

    The reason the dark view may read most pages switched in place: every element's
    colours, backgrounds, borders, visibility and filters are the same both ways. Compared
    on every page the view opens dark: in the default run the three of ``OPENED_DARK`` on
    the desktop (chrome and formulas, figures, widgets), in the long run (``--thorough``)
    every page on the desktop and every figure page on the phone.
    """
    tour = site_tour(view)
    pairs = [
        (path, tour[path]["dark-styles"], tour[opened_label(path, "dark")]["dark-styles"])
        for path in tour
        if opened_label(path, "dark") in tour
    ]
    assert pairs, f"no page of the {view} view was opened dark"
    problems = []
    for path, switched, opened in pairs:
        if len(switched) != len(opened):
            problems.append(f"{path}: {len(switched)} elements switched, {len(opened)} opened")
            continue
        differ = [(a, b) for a, b in zip(switched, opened, strict=True) if a != b]
        if differ:
            problems.append(f"{path}: {len(differ)} elements differ, e.g. {differ[:3]}")
    assert not problems, "switched to dark vs opened dark:\n" + "\n".join(problems)


@pytest.mark.parametrize("view", view_params("desktop-light", "desktop-dark"))
def test_axe_finds_no_serious_violation_on_any_page(site_tour, view):
    """axe-core on every page of the desktop tours; no serious or critical violation.

    Light theme: every rule on every element of every page, except that the two colour
    rules (color-contrast, link-in-text-block, three quarters of axe-core's time) check a
    sample: per tour, up to three shown elements of each style signature (the element's
    own style and every layer behind it to the first opaque one, :data:`_SAMPLE`), on the
    first page that has it; a signature axe could not decide there is sampled again on the
    next page. Every kind of text on the site is checked in its colours; the many copies of
    the same kind on other pages are not. Dark theme: the same sampled colour rules on
    every page, and every other rule on the pages opened dark (the theme changes the
    chrome, the figures and the widgets' colours, not the rest of the markup, which the
    light tour checks on every page). The long run (``--thorough``) checks every element of
    every page with every rule in both themes, as before this sampling.

    Dark theme, how the pages get there: every page is opened light and switched to dark in
    place with the reader's theme button (the same theme script applies the choice as when
    a page opens with the choice stored); the colour rules run there. Every rule runs on
    the pages of ``OPENED_DARK`` (the introduction: the site's chrome; the game page:
    figures; the widgets explorer: widgets), opened in the dark theme, with the colour rules
    sampled apart from the switched pages'. The long run opens every page dark as well
    and runs every rule on both visits.
    """
    counts: Counter = Counter()
    failures = []
    theme = VIEWS[view][1]
    for path, seen in site_tour(view).items():
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


@tour_measure("sideways", ("phone-light",), order=10)
def _sideways(sp, path: str) -> list[str]:
    """What scrolls sideways or spills past the screen's edge (scrolls the page)."""
    problems = []
    wide = sp.evaluate(
        "() => [document.documentElement.scrollWidth, document.body.scrollWidth,"
        " document.documentElement.clientWidth]"
    )
    sp.evaluate("() => window.scrollTo(1000, 0)")
    if max(wide[:2]) > wide[2] or sp.evaluate("() => window.scrollX") != 0:
        problems.append(f"{path}: page is {max(wide[:2])} px wide at {wide[2]} px")
    sp.evaluate("() => window.scrollTo(0, 0)")
    spills = sp.evaluate(_SPILLS)
    if spills:
        problems.append(f"{path}: content past the screen edge: {spills}")
    if path in ("book/widgets_explorer.html", "book/game.html", "book/play.html"):
        sp.screenshot(f"phone-{Path(path).stem}")
    return problems


@pytest.mark.parametrize("view", view_params("phone-light"))
def test_no_page_scrolls_sideways_on_a_phone(site_tour, built_site, view):
    tour = site_tour(view)
    assert sorted(tour) == sorted(site_pages(built_site))
    problems = [m for seen in tour.values() for m in seen["sideways"]]
    assert not problems, "\n".join(problems)


@pytest.mark.parametrize("view", view_params("desktop-light", "desktop-dark"))
def test_dark_theme_shows_light_ink_figures_on_every_page(site_tour, view):
    problems = []
    theme = VIEWS[view][1]
    for path, seen in site_tour(view).items():
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
    if not screenshots_wanted():
        pytest.skip("pictures only (MENACE_SCREENSHOTS=1); the dark tour checks these pages")
    browser_page.page.add_init_script("localStorage.setItem('mode', 'dark');")
    for path in ("book/game.html", "book/other_machines.html", "book/michies_question.html"):
        open_drawn(browser_page, path)
        height = min(browser_page.evaluate("document.documentElement.scrollHeight"), 9000)
        browser_page.page.set_viewport_size({"width": 1280, "height": height})
        browser_page.page.wait_for_timeout(300)
        browser_page.screenshot(f"dark-full-{Path(path).stem}")
        browser_page.page.set_viewport_size({"width": 1280, "height": 900})


def test_widget_fallback_text_shows_only_when_javascript_is_missing(
    browser_page, open_site_page, built_site
):
    """With the widget loader replaced by an empty script, the fallback text appears (after
    its 4 s); on a page whose widgets load, it never does. The two pages are open at once,
    so the one wait covers both."""
    browser_page.goto("book/widgets_explorer.html")
    browser_page.wait_for_widgets()
    with open_site_page("widget-fallback") as broken:
        page = broken.page
        page.route(
            "**/embed-amd.js*",
            lambda route: route.fulfill(status=200, body="", content_type="text/javascript"),
        )
        broken.goto("book/widgets_explorer.html")
        outputs = page.locator(
            '.cell_output:has(> script[type="application/vnd.jupyter.widget-view+json"])'
        )
        assert outputs.count() == 2
        # The text waits 4 s, so a normal load never shows it: wait until it shows here.
        page.wait_for_function(
            """() => [...document.querySelectorAll('.cell_output')].filter(el =>
                 getComputedStyle(el, '::before').content.includes('did not start')).every(
                 el => getComputedStyle(el, '::before').visibility === 'visible')""",
            timeout=15_000,
        )
        for k in range(outputs.count()):
            style = outputs.nth(k).evaluate(
                "el => { const s = getComputedStyle(el, '::before');"
                " return [s.content, s.visibility, s.display]; }"
            )
            assert "did not start" in style[0] and style[1:] == ["visible", "block"], style
        broken.screenshot("widget-fallback")
        assert broken.problems() == []
    # The page with working widgets was opened first: its 4 s have passed too.
    contents = browser_page.page.locator(".cell_output").evaluate_all(
        "els => els.map(el => getComputedStyle(el, '::before').content)"
    )
    assert not any("did not start" in c for c in contents)
