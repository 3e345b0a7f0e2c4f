"""Figures a phone can read (issue 34): every figure of the built site at 390 px.

Every page with a figure is opened on a phone-sized screen (390 x 844 CSS px), in the light
theme, and switched to the dark theme with the reader's theme button (the long run,
``--thorough``, also opens each of them in the dark theme).
For every figure image the reader sees:

* it spans at least 90 % of the column (a figure is never a thumbnail on a phone);
* its tick labels show at least 9 px high and its other text at least 8 px. The size on
  screen is computed from the image's stored measurements
  (:func:`menace_lib.book.themed_png.metrics`, written by
  :func:`menace_lib.book.plotting.themed_png`): text of ``s`` pt in a drawing of
  ``dpi`` pixels per inch, ``w`` pixels wide, shown ``d`` CSS px wide, is
  ``s * d / w * dpi / 72`` px high;
* it is the drawing of the theme the page is in, and on a phone the narrow drawing of a
  figure that has one;
* it sits in a figure with a numbered caption ("Book fig. N").

Screenshots of two pages with stacked figures go to ``tests/output/screenshots/``.
"""

from __future__ import annotations

import re
from pathlib import Path
from urllib.parse import unquote, urljoin, urlparse

import pytest
from conftest import VIEWS, tour_measure, view_params

from menace_lib.book.themed_png import metrics

pytestmark = pytest.mark.browser

MIN_TICK_PX = 9.0
MIN_TEXT_PX = 8.0
MIN_COLUMN_SHARE = 0.9
CAPTION = re.compile(r"^Book fig\. \d+")

_FIGURES = r"""() => {
  const article = document.querySelector("article.bd-article");
  const style = getComputedStyle(article);
  const column = article.clientWidth - parseFloat(style.paddingLeft)
    - parseFloat(style.paddingRight);
  return [...article.querySelectorAll(".cell_output img")].map((img) => ({
    src: img.currentSrc || img.src,
    cls: img.className,
    shown: img.offsetParent !== null && getComputedStyle(img).display !== "none",
    width: img.getBoundingClientRect().width,
    natural: img.naturalWidth,
    column,
    caption: img.closest("figure")?.querySelector("figcaption .caption-number")
      ?.textContent.trim() || "",
  }));
}"""


def _figure_pages(site: Path) -> list[str]:
    """Pages whose HTML holds a notebook figure (an image drawn for both themes)."""
    pages = []
    for path in sorted((site / "book").rglob("*.html")):
        if 'class="theme-light' in path.read_text(encoding="utf-8"):
            pages.append(path.relative_to(site).as_posix())
    return pages


def _file(site: Path, base: str, src: str) -> Path:
    return site / unquote(urlparse(urljoin(base, src)).path).lstrip("/")


@tour_measure("figures", ("phone-light", "phone-dark"), pages=_figure_pages)
def _figures(sp, path: str) -> list[dict]:
    if path in ("book/empirical_results_more.html", "book/her.html"):
        sp.screenshot(f"phone-{VIEWS[sp.view][1]}-{Path(path).stem}")
    return sp.evaluate(_FIGURES)


@pytest.fixture(params=view_params("phone-light", "phone-dark"))
def phone_figures(request, site_tour) -> dict[tuple[str, str], list]:
    """Every figure image of every page with figures, at 390 px, per (theme, visit).

    Read on the phone tour of conftest.py (which also checks each visit's browser problems).
    The default run reads the dark theme on the page opened light and switched to dark with
    the reader's theme button (the figures' choice of drawing is the page's CSS for the
    theme it is in, however it got there). The long run (``--thorough``) also opens every
    figure page in the dark theme (a second visit, ``(opened dark)``).
    """
    theme = VIEWS[request.param][1]
    tour = site_tour(request.param)
    return {(theme, visit): seen["figures"] for visit, seen in tour.items() if "figures" in seen}


def test_the_site_has_figures_to_check(phone_figures):
    pages = {path for _, path in phone_figures}
    assert len(pages) >= 20, f"only {len(pages)} pages with figures: {sorted(pages)}"


def test_every_figure_shows_one_drawing_for_the_theme_and_the_phone(phone_figures):
    problems = []
    for (theme, path), images in phone_figures.items():
        shown = [i for i in images if i["shown"]]
        figures = {re.sub(r"-(light|dark|narrow|narrow-dark)\.png$", "", i["src"]) for i in images}
        if len(shown) != len(figures):
            problems.append(f"[{theme}] {path}: {len(shown)} drawings shown for {len(figures)}")
        for img in shown:
            if f"theme-{theme}" not in img["cls"] or "fig-wide" in img["cls"]:
                problems.append(f"[{theme}] {path}: {img['src']} shown ({img['cls']})")
    assert not problems, "\n".join(problems[:40])


def test_every_figure_spans_the_column_on_a_phone(phone_figures):
    problems = [
        f"[{theme}] {path}: {img['src']} {img['width']:.0f} px in a {img['column']:.0f} px column"
        for (theme, path), images in phone_figures.items()
        for img in images
        if img["shown"] and img["width"] < MIN_COLUMN_SHARE * img["column"]
    ]
    assert not problems, "figures narrower than the column:\n" + "\n".join(problems[:40])


def test_every_figures_text_reads_on_a_phone(phone_figures, built_site, site_server):
    problems, checked = [], 0
    for (theme, path), images in phone_figures.items():
        for img in images:
            if not img["shown"]:
                continue
            values = metrics(_file(built_site, site_server + path, img["src"]).read_bytes())
            if values is None:
                problems.append(f"[{theme}] {path}: {img['src']} carries no measurements")
                continue
            scale = img["width"] / img["natural"] * values["dpi"] / 72
            tick, text = values["tick_pt"] * scale, values["text_pt"] * scale
            checked += 1
            if values["tick_pt"] and tick < MIN_TICK_PX:
                problems.append(f"[{theme}] {path}: {img['src']} tick labels {tick:.1f} px")
            if values["text_pt"] and text < MIN_TEXT_PX:
                problems.append(f"[{theme}] {path}: {img['src']} text {text:.1f} px")
    assert checked, "no figure was measured"
    assert not problems, "figure text too small on a 390 px screen:\n" + "\n".join(problems)


def test_every_figure_has_a_numbered_caption(phone_figures):
    problems = [
        f"[{theme}] {path}: {img['src']} caption {img['caption']!r}"
        for (theme, path), images in phone_figures.items()
        for img in images
        if img["shown"] and not CAPTION.match(img["caption"])
    ]
    assert not problems, "figures without a numbered caption:\n" + "\n".join(problems)
