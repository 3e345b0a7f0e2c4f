"""The short path on the built site (issue 34), walked as a reader on a phone walks it.

From the introduction, the walk reads each stop's header ("stop k of n"), counts the words
of what the stop reads (the page's opening and its sections marked on the route, as
rendered), and clicks the link at the end of the stop, until the end of the route. The
route must keep its stops in order, end where it says, and stay under forty minutes at 200
words a minute. Every other page carries the side-road mark, and the ten-minute route holds
the stops' own "In short" paragraphs.
"""

from __future__ import annotations

import re
from pathlib import Path

import pytest

pytestmark = [pytest.mark.browser, pytest.mark.xdist_group("short_path")]

PHONE = {"width": 390, "height": 844}
WORDS_PER_MINUTE = 200
MAX_WORDS = 40 * WORDS_PER_MINUTE
TEN_MINUTES = 10 * WORDS_PER_MINUTE
INTRO = "book/intro.html"
DIGEST = "book/in_short.html"

# The words of the stop as the reader sees them: the title, the opening up to the first
# section, and the sections on the route (closed dropdowns and hidden code are not rendered,
# so innerText leaves them out). A formula counts as one word, a widget's controls as none.
_STOP = r"""() => {
  const top = document.querySelector("article.bd-article section");
  const parts = [];
  for (const child of top.children) {
    if (child.tagName === "SECTION") break;
    parts.push(child);
  }
  parts.push(...top.querySelectorAll(":scope > section.short-path-on"));
  const count = (text) => text.split(/\s+/).filter(Boolean).length;
  let words = 0;
  for (const part of parts) {
    words += count(part.innerText || part.textContent || "");
    if (!part.querySelectorAll) continue;
    // A formula reads as one word (MathJax's text splits it into one per symbol); a
    // widget is played, not read.
    for (const math of part.querySelectorAll("mjx-container")) {
      words -= count(math.innerText) - 1;
    }
    for (const widget of part.querySelectorAll(".widget-subarea")) {
      words -= count(widget.innerText);
    }
  }
  const header = top.querySelector(":scope > p.short-path-stop");
  const inShort = [...top.querySelectorAll(":scope > p")]
    .find((p) => p.innerText.startsWith("In short."));
  const ends = [...top.querySelectorAll("p.short-path-next")];
  return {
    words,
    header: header ? header.innerText : null,
    inShort: inShort ? inShort.innerText.replace(/^In short\.\s*/, "") : null,
    ends: ends.length,
    last: ends.length === 1 && ends[0].classList.contains("short-path-end"),
  };
}"""


_TYPESET = (
    "() => (window.MathJax && MathJax.startup && MathJax.startup.promise)"
    " ? MathJax.startup.promise.then(() => true) : true"
)


def _load(page, url: str) -> None:
    page.goto(url, wait_until="networkidle", timeout=30_000)
    page.evaluate(_TYPESET)


def _words(text: str) -> int:
    return len(text.split())


@pytest.fixture(scope="module")
def walk(browser, site_server) -> list[dict]:
    """The stops in the order the "next" links lead, each with what it reads."""
    context = browser.new_context(viewport=PHONE, service_workers="block")
    page = context.new_page()
    stops: list[dict] = []
    try:
        _load(page, site_server + INTRO)
        while True:
            stop = page.evaluate(_STOP)
            stop["url"] = page.url.removeprefix(site_server).partition("#")[0]
            stops.append(stop)
            assert stop["ends"] == 1, f"{stop['url']}: {stop['ends']} ends of a stop"
            if stop["last"] or len(stops) > 20:
                break
            link = page.locator("p.short-path-next a").first
            link.scroll_into_view_if_needed()
            # The page the link opened is read as it is (loading it a second time by its
            # address, as before, cost each stop twice).
            with page.expect_navigation(wait_until="networkidle"):
                link.click()
            page.evaluate(_TYPESET)
    finally:
        context.close()
    return stops


def test_the_next_links_walk_every_stop_in_order(walk):
    n = len(walk)
    assert 8 <= n <= 12, [s["url"] for s in walk]
    for k, stop in enumerate(walk, start=1):
        assert stop["header"] and f"Short path, stop {k} of {n}" in stop["header"], stop
    assert walk[0]["url"] == INTRO and walk[-1]["last"]
    assert len({s["url"] for s in walk}) == n, "a stop is visited twice"


def test_the_short_path_takes_at_most_forty_minutes(walk):
    total = sum(s["words"] for s in walk)
    table = ", ".join(f"{Path(s['url']).stem} {s['words']}" for s in walk)
    assert total <= MAX_WORDS, f"{total} words ({table})"


def test_every_other_page_is_marked_side_road(built_site, walk):
    stops = {s["url"] for s in walk}
    for path in sorted((built_site / "book").glob("*.html")):
        name = path.relative_to(built_site).as_posix()
        html = path.read_text(encoding="utf-8")
        stop = len(re.findall(r'class="short-path-mark short-path-stop"', html))
        side = len(re.findall(r'class="short-path-mark short-path-side-road"', html))
        if name in stops:
            assert (stop, side) == (1, 0), name
        elif name == DIGEST:
            assert (stop, side) == (0, 0), name
        else:
            assert (stop, side) == (0, 1), name


def test_the_ten_minute_route_is_the_stops_in_short_paragraphs(browser, site_server, walk):
    context = browser.new_context(viewport=PHONE, service_workers="block")
    page = context.new_page()
    try:
        _load(page, site_server + DIGEST)
        paragraphs = page.locator("p.short-path-in-short").all_inner_texts()
        links = page.locator("p.short-path-digest-stop a").evaluate_all(
            "(links) => links.map((a) => a.getAttribute('href'))"
        )
    finally:
        context.close()
    assert [" ".join(p.split()) for p in paragraphs] == [
        " ".join(s["inShort"].split()) for s in walk
    ]
    assert [Path(h).name for h in links] == [Path(s["url"]).name for s in walk]
    assert sum(_words(p) for p in paragraphs) <= TEN_MINUTES
