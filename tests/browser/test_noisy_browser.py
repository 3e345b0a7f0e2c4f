"""The noisy-eyes widget in headless Chromium.

Two settings. A harness page, served from a temporary folder, mounts the widget's bundled
module on a model of its synced traits (as the static site does, with no kernel): it must
render, work from the keyboard, fit a 390-pixel phone, follow the dark scheme and make no
outside request and no console error. Then the built chapter (``book/beyond_noisy.html``),
where the widget must start with the same guarantees.
"""

from __future__ import annotations

import functools
import http.server
import json
import threading

import numpy as np
import pytest
from conftest import _QuietHandler, _recording_page

import menace_lib as ml
from menace_lib.agents import noisy
from menace_lib.widgets import _bundle
from menace_lib.widgets.noisy_eyes import widget_data

pytestmark = pytest.mark.browser

HARNESS = """<!doctype html>
<html><head><meta charset="utf-8"><meta name="viewport" content="width=device-width">
<link rel="stylesheet" href="widgets.css">
<link rel="icon" href="data:,"></head>
<body><div id="root"></div>
<script type="module">
import widget from "./widget.mjs";
const state = await (await fetch("state.json")).json();
const handlers = [];
const model = {
  get: (k) => state[k],
  set: (k, v) => { state[k] = v; handlers.forEach((f) => f()); },
  on: (_ev, f) => handlers.push(f),
  off: () => {},
  save_changes: () => { throw new Error("no kernel"); },
};
widget.render({ model, el: document.getElementById("root") });
document.body.dataset.ready = "yes";
</script></body></html>
"""


@pytest.fixture(scope="module")
def harness(tmp_path_factory):
    folder = tmp_path_factory.mktemp("noisy_harness")
    agent = ml.Menace()
    agent.train_against(ml.make_opponent("perfect"), 300, np.random.default_rng(0))
    state = {
        **widget_data(noisy.menace_policy(agent)),
        "eps": 0.1,
        "example": 1,
        "draw": 0,
        "losses": {"eps": [0.0, 0.1], "naive": [0.0, 0.58], "uniform": [0.0, 0.28],
                   "reach": [0.0, 0.03]},
    }  # fmt: skip
    (folder / "state.json").write_text(json.dumps(state))
    (folder / "widget.mjs").write_text(_bundle.bundle("noisy_eyes.js"))
    (folder / "widgets.css").write_text(_bundle.stylesheet())
    (folder / "index.html").write_text(HARNESS)
    handler = functools.partial(_QuietHandler, directory=str(folder))
    server = http.server.ThreadingHTTPServer(("127.0.0.1", 0), handler)
    server.daemon_threads = True
    thread = threading.Thread(target=server.serve_forever, daemon=True)
    thread.start()
    yield f"http://127.0.0.1:{server.server_address[1]}/"
    server.shutdown()
    server.server_close()


def _open(sp, url: str) -> None:
    sp.page.goto(url + "index.html", wait_until="networkidle")
    sp.page.wait_for_selector("[data-testid=noisy-eyes]")


def test_the_widget_renders_and_answers_the_keyboard(browser, harness):
    with _recording_page(browser, harness, "noisy-keyboard") as sp:
        _open(sp, harness)
        page = sp.page
        for key in ("naive", "uniform", "reach"):
            assert page.locator(f"[data-testid=ne-{key}-opens]").count() == 1
        assert page.locator("[data-testid=ne-uniform-belief] li").count() >= 1
        assert page.locator("[data-testid=ne-eps-value]").inner_text() == "0.10"
        page.locator("[data-testid=ne-eps]").focus()
        page.keyboard.press("ArrowRight")
        assert page.locator("[data-testid=ne-eps-value]").inner_text() == "0.11"
        cell = page.locator("[data-testid=ne-cell-8]")
        before = cell.inner_text()
        cell.focus()
        page.keyboard.press("Enter")
        after = page.locator("[data-testid=ne-cell-8]").inner_text()
        assert after != before
        assert page.evaluate("document.activeElement.dataset.testid") == "ne-cell-8"
        status = page.locator("[data-testid=ne-status]").inner_text()
        assert "misread" in status or "Read correctly" in status
        page.locator("[data-testid=ne-redraw]").focus()
        page.keyboard.press("Enter")
        page.locator("[data-testid=ne-example]").select_option("0")
        assert "Exact chance of losing" in page.locator("[data-testid=ne-loss]").inner_text()
        assert sp.problems() == []


def test_the_widget_fits_a_phone_and_follows_the_dark_scheme(browser, harness):
    with _recording_page(browser, harness, "noisy-phone") as sp:
        page = sp.page
        page.set_viewport_size({"width": 390, "height": 844})
        _open(sp, harness)
        wide = page.evaluate(
            "() => { const w = document.querySelector('[data-testid=noisy-eyes]');"
            " return [w.scrollWidth, w.clientWidth, document.documentElement.scrollWidth]; }"
        )
        culprits = page.evaluate(
            "() => [...document.querySelectorAll('[data-testid=noisy-eyes] *')]"
            ".filter((e) => e.getBoundingClientRect().right > 391)"
            ".slice(0, 5).map((e) => e.tagName + '.' + e.className)"
        )
        assert wide[0] <= wide[1] + 1 and wide[2] <= 390, (wide, culprits)
        light = page.evaluate("getComputedStyle(document.querySelector('.mw')).backgroundColor")
        page.emulate_media(color_scheme="dark")
        dark = page.evaluate("getComputedStyle(document.querySelector('.mw')).backgroundColor")
        assert light != dark
        assert sp.problems() == []


def test_the_chapter_starts_the_widget(browser_page):
    browser_page.goto("book/beyond_noisy.html")
    assert browser_page.wait_for_widgets() >= 1
    page = browser_page.page
    page.wait_for_selector("[data-testid=noisy-eyes]")
    assert page.locator("[data-testid=ne-reach-opens]").count() == 1
