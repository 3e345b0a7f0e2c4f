"""Fixtures for headless-Chromium tests of the built book (``_build/html``).

* ``built_site``   -- path to ``_build/html``; builds the book if it is missing
                      (set ``MENACE_SKIP_BROWSER=1`` to skip every browser test instead).
* ``site_server``  -- base URL of that folder served on 127.0.0.1 (random free port).
* ``browser``      -- one headless Chromium for the whole session (per xdist worker).
* ``browser_page`` -- a :class:`SitePage`: a fresh Playwright page that records console
                      errors, uncaught page errors, failed local requests and any request to
                      a host other than 127.0.0.1/localhost (aborted). The test fails at
                      teardown if any of these happened, unless allowed with
                      ``browser_page.allow_console(regex)``. ``browser_page.screenshot(name)``
                      saves into ``tests/output/screenshots/``.
* ``open_site_page`` -- for module- or session-scoped fixtures that visit many pages once
                      for several tests: ``with open_site_page(name) as sp:`` gives the same
                      recording :class:`SitePage` in a fresh context; the caller checks
                      ``sp.problems()`` (``sp.take_problems()`` per visit).
* ``site_tour``    -- ``site_tour(view)``: every page of the site seen once per view
                      (``desktop-light``, ``desktop-dark``, ``phone-light``, ``phone-dark``;
                      :data:`VIEWS`), with every measurement the test modules registered for
                      that view (:func:`tour_measure`) taken on that visit. One tour per
                      viewport, made once per worker: each page is opened once in the light
                      theme, measured, then switched to dark in place with the reader's theme
                      button and measured again; a few pages (:data:`OPENED_DARK`; every page
                      with ``--thorough``) are also opened in the dark theme. Tests that read
                      a view carry its viewport's xdist group (:func:`view_params`), so the
                      tour is made on one worker only.

Screenshots that no test compares (pictures for a person to look at) are taken only with
``MENACE_SCREENSHOTS=1`` (:func:`screenshots_wanted`); a failing test's screenshot always is.

``make test-browser`` runs the tests on two xdist workers (``--dist loadgroup``): each
worker has its own server and browser; tests that share a fixture-made tour of the site
carry ``@pytest.mark.xdist_group(...)`` so that the tour is made once.

The site is served over HTTP, offline: nothing may leave the machine. The browser is the
system Chromium (``/usr/bin/chromium``; override with ``MENACE_CHROMIUM``).
"""

from __future__ import annotations

import contextlib
import fcntl
import functools
import http.server
import os
import re
import socket
import subprocess
import sys
import threading
from collections.abc import Callable
from dataclasses import dataclass, field
from pathlib import Path
from urllib.parse import urlparse

import pytest

# MENACE_BOOK_ROOT: test another checkout/scratch copy of the book (default: this repo).
ROOT = Path(os.environ.get("MENACE_BOOK_ROOT") or Path(__file__).resolve().parents[2]).resolve()
HTML = ROOT / "_build" / "html"
VENDOR = ROOT / "book" / "_static" / "vendor"
OUTPUT = Path(__file__).resolve().parents[1] / "output"
SCREENSHOTS = OUTPUT / "screenshots"

# The reader's browser: Debian's Chromium in its (new) headless mode, the whole browser. The
# same release's headless shell (Debian chromium-headless-shell, MENACE_CHROMIUM=
# /usr/bin/chromium-headless-shell) passes every test for about 30 % less CPU (the whole
# stage 592 -> 423 CPU-s back to back under load: its browser and GPU processes do less),
# but it is not the browser a reader runs, so it is only a local option.
# No flag is added for speed: Playwright already passes the usual ones (--disable-extensions,
# --mute-audio, --disable-dev-shm-usage, --disable-background-timer-throttling,
# --disable-features=...); a second --disable-features would replace its list, not extend
# it; --in-process-gpu cost more, and --disable-site-isolation-trials was within the noise.
CHROMIUM = os.environ.get("MENACE_CHROMIUM", "/usr/bin/chromium")
CHROMIUM_ARGS = [
    "--no-sandbox",
    "--disable-gpu",
    "--disable-background-networking",
    "--disable-component-update",
    "--disable-sync",
    "--no-first-run",
]
LOCAL_HOSTS = {"127.0.0.1", "localhost"}
# Browser-internal URL schemes that never touch the network.
LOCAL_SCHEMES = ("data:", "blob:", "about:", "chrome-extension:", "devtools:")
PAGE_TIMEOUT_MS = 30_000
DESKTOP = {"width": 1280, "height": 900}
PHONE = {"width": 390, "height": 844}
# The site tours (site_tour): each view is a viewport and the theme the reader chose.
VIEWS = {
    "desktop-light": (DESKTOP, "light"),
    "desktop-dark": (DESKTOP, "dark"),
    "phone-light": (PHONE, "light"),
    "phone-dark": (PHONE, "dark"),
}
# The pages a dark view's default-run tour also opens in the dark theme (the reader's choice
# stored before the page loads), besides switching every page to dark in place: the theme's
# load path (its script applies the stored choice as the page starts) on the site's chrome
# and a prose page with formulas (the introduction, with the play widget), a page of figures
# (their dark drawings) and the page of widgets. The long run (--thorough) opens every page.
OPENED_DARK = {
    "desktop-dark": ("book/intro.html", "book/game.html", "book/widgets_explorer.html"),
    "phone-dark": (),
}


def viewport_of(view: str) -> str:
    """The viewport of a view (``desktop``, ``phone``): one tour, one xdist group each."""
    return view.split("-")[0]


def opened_label(path: str, theme: str) -> str:
    """How a tour names the visit of ``path`` opened in ``theme`` (not switched to it)."""
    return f"{path} (opened {theme})"


def screenshots_wanted() -> bool:
    """Pictures for a person to look at are taken only with ``MENACE_SCREENSHOTS=1``."""
    return os.environ.get("MENACE_SCREENSHOTS", "").strip().lower() in {"1", "true", "yes"}


# The page's running animations that end (a transition, a finite CSS animation).
_RUNNING = """() => document.getAnimations().filter(a => a.playState === 'running'
     && a.effect && a.effect.getComputedTiming().endTime !== Infinity)"""


def settle(page) -> None:
    """Wait until every finite animation and transition of the page has finished.

    (After a change of viewport or theme, instead of a fixed wait: the drawers and the
    theme's colours move by CSS transitions.) The wait is bounded like every other one
    (:data:`PAGE_TIMEOUT_MS`): an animation that never ends fails the test, naming it,
    instead of stopping the whole run (a bare ``evaluate`` of the promise has no time limit).
    """
    # A plain condition, polled every 50 ms: waiting on the animations' `finished` promises
    # (as before) hung now and then until the timeout with nothing left running (seen after
    # the theme button on a phone page), and a predicate polled on animation frames waits
    # for frames a still page may not draw.
    try:
        page.wait_for_function(
            f"() => ({_RUNNING})().length === 0", timeout=PAGE_TIMEOUT_MS, polling=50
        )
    except Exception as exc:  # playwright TimeoutError
        running = page.evaluate(
            f"() => ({_RUNNING})().map(a => [a.animationName || a.transitionProperty,"
            " String(a.effect.target && a.effect.target.outerHTML).slice(0, 80)])"
        )
        raise AssertionError(f"animations still running on {page.url}: {running}: {exc}") from None


def _skip_requested() -> bool:
    return os.environ.get("MENACE_SKIP_BROWSER", "").strip().lower() in {"1", "true", "yes"}


def _build_book() -> None:
    """Vendor the browser assets if needed, then build the book (strict, as `make book`)."""
    if not (VENDOR / "VERSIONS.json").exists():
        if not (ROOT / "node_modules").exists():
            subprocess.run(["npm", "ci", "--no-audit", "--no-fund"], cwd=ROOT, check=True)
        subprocess.run([sys.executable, "scripts/vendor_assets.py"], cwd=ROOT, check=True)
    pytest.importorskip("jupyter_book", reason="jupyter-book is not installed; run `make book`")
    jb = ROOT / "scripts" / "jupyter_book_cli.py"  # as `make book` runs it
    cmd = [sys.executable, str(jb), "build", ".", "--warningiserror", "--keep-going"]
    subprocess.run(cmd, cwd=ROOT, check=True)


@pytest.fixture(scope="session")
def built_site() -> Path:
    """The built HTML site; built on demand if ``_build/html`` does not exist.

    The fixture does not rebuild a stale site: ``make test`` rebuilds it when sources change.
    """
    if _skip_requested():
        pytest.skip("MENACE_SKIP_BROWSER=1: browser tests skipped")
    if not (HTML / "index.html").exists():
        # xdist workers start together: one builds, the others wait for it.
        HTML.parent.mkdir(parents=True, exist_ok=True)
        with open(HTML.parent / ".browser-build.lock", "w") as lock:
            fcntl.flock(lock, fcntl.LOCK_EX)
            if not (HTML / "index.html").exists():
                _build_book()
    if not (HTML / "_static" / "vendor" / "VERSIONS.json").exists():
        pytest.fail(
            "_build/html has no _static/vendor/: the site was built before `make assets`; "
            "run `make book`"
        )
    return HTML


# Test tools the pages load by URL from the site server (not files of the site): a script
# injected by URL is kept in the browser's cache with its compiled code, where the same
# script injected as text is parsed and compiled again on every page (axe-core: about
# 0.08 CPU-s a page).
TOOLS_PREFIX = "/__tools__/"
TOOLS = {"axe.min.js": Path(__file__).resolve().parents[2] / "node_modules/axe-core/axe.min.js"}


def tool_url(site_server: str, name: str) -> str:
    """The URL at which the site server serves the test tool ``name`` (:data:`TOOLS`)."""
    if name not in TOOLS:
        raise ValueError(f"unknown test tool {name!r}: one of {sorted(TOOLS)}")
    return site_server.rstrip("/") + TOOLS_PREFIX + name


class _QuietHandler(http.server.SimpleHTTPRequestHandler):
    extensions_map = {
        **http.server.SimpleHTTPRequestHandler.extensions_map,
        ".js": "text/javascript",
        ".mjs": "text/javascript",
        ".svg": "image/svg+xml",
        ".woff": "font/woff",
        ".woff2": "font/woff2",
    }

    def log_message(self, format, *args):  # noqa: A002 - signature fixed by the base class
        pass

    def translate_path(self, path: str) -> str:
        if path.startswith(TOOLS_PREFIX):
            name = urlparse(path).path.removeprefix(TOOLS_PREFIX)
            if name in TOOLS:
                return str(TOOLS[name])
        return super().translate_path(path)


@pytest.fixture(scope="session")
def site_server(built_site: Path):
    """Serve ``built_site`` on 127.0.0.1 at a random free port; yields the base URL."""
    handler = functools.partial(_QuietHandler, directory=str(built_site))
    server = http.server.ThreadingHTTPServer(("127.0.0.1", 0), handler)
    server.daemon_threads = True
    thread = threading.Thread(target=server.serve_forever, name="site-server", daemon=True)
    thread.start()
    try:
        yield f"http://127.0.0.1:{server.server_address[1]}/"
    finally:
        server.shutdown()
        server.server_close()
        thread.join(timeout=5)


@contextlib.contextmanager
def refusing_proxy():
    """The address of a proxy that refuses every connection: a port bound here, never listened on.

    Chromium sends every request for another host through it, so each one fails at once
    (``net::ERR_PROXY_CONNECTION_FAILED``), IP addresses included; 127.0.0.1 and localhost
    never go through a proxy. Unlike routing every request through Playwright, it keeps
    the browser's cache and costs nothing per request (routing cost a third more CPU).
    """
    with socket.socket() as closed:
        closed.bind(("127.0.0.1", 0))
        yield f"http://127.0.0.1:{closed.getsockname()[1]}"


def launch_chromium(pw, proxy: str):
    """The system Chromium, headless, offline: other hosts only through ``proxy``."""
    return pw.chromium.launch(
        executable_path=CHROMIUM,
        args=CHROMIUM_ARGS,
        headless=True,
        # The site server and the JupyterLab server are on 127.0.0.1; naming a loopback
        # host here also stops Playwright from sending loopback through the proxy.
        proxy={"server": proxy, "bypass": ",".join(sorted(LOCAL_HOSTS))},
    )


@pytest.fixture(scope="session")
def browser():
    """One headless Chromium for the session (Playwright sync API)."""
    if _skip_requested():
        pytest.skip("MENACE_SKIP_BROWSER=1: browser tests skipped")
    sync_api = pytest.importorskip("playwright.sync_api")
    if not Path(CHROMIUM).exists():
        pytest.fail(f"{CHROMIUM} not found: install chromium (make install) or set MENACE_CHROMIUM")
    with refusing_proxy() as proxy, sync_api.sync_playwright() as pw:
        browser = launch_chromium(pw, proxy)
        try:
            yield browser
        finally:
            browser.close()


@dataclass
class SitePage:
    """A Playwright page on the served site plus what went wrong while it was open."""

    page: object
    base_url: str
    name: str
    console_errors: list[str] = field(default_factory=list)
    page_errors: list[str] = field(default_factory=list)
    outside_requests: list[str] = field(default_factory=list)
    failed_requests: list[str] = field(default_factory=list)
    # A site tour's page in the long run (``--thorough``): its measurements repeat every
    # check on every element (see test_accessibility.py's axe-core run).
    thorough: bool = False
    # On a site tour: the view being measured, and whether the page was opened in that
    # view's theme (False: opened light and switched to dark with the theme button).
    view: str = ""
    opened: bool = True
    _allowed: list[re.Pattern] = field(default_factory=list)

    def __getattr__(self, item):
        # Anything else (locator, evaluate, wait_for_selector, ...) is the Playwright page's.
        return getattr(self.page, item)

    def url(self, path: str = "") -> str:
        return self.base_url + path.lstrip("/")

    def goto(self, path: str = "", wait_until: str = "networkidle"):
        """Open ``path`` (relative to the site root), waiting until the network is idle."""
        return self.page.goto(self.url(path), wait_until=wait_until, timeout=PAGE_TIMEOUT_MS)

    def screenshot(
        self, name: str | None = None, full_page: bool = True, always: bool = False
    ) -> Path | None:
        """Save a PNG into tests/output/screenshots/ and return its path.

        Only with ``MENACE_SCREENSHOTS=1`` (or ``always``, for a failing test's picture):
        no test compares these pictures, and a full-page one costs a second of CPU.
        """
        if not (always or screenshots_wanted()):
            return None
        SCREENSHOTS.mkdir(parents=True, exist_ok=True)
        stem = re.sub(r"[^A-Za-z0-9_.-]+", "_", name or self.name)
        path = SCREENSHOTS / f"{stem}.png"
        self.page.screenshot(path=str(path), full_page=full_page)
        return path

    def wait_for_mathjax(self) -> None:
        """Wait until MathJax (if the page loads it) has typeset the page."""
        self.page.wait_for_load_state("load")
        # Bounded (a bare evaluate of the promise would wait for ever).
        self.page.wait_for_function(
            "() => (window.MathJax && MathJax.startup && MathJax.startup.promise)"
            " ? MathJax.startup.promise.then(() => true) : true",
            timeout=PAGE_TIMEOUT_MS,
        )

    def wait_for_widgets(self, timeout_ms: int = PAGE_TIMEOUT_MS) -> int:
        """Wait until every embedded widget view is rendered (or shows an error box).

        Returns the number of widget views on the page. html-manager's embed-amd.js
        replaces each widget-view script's placeholder by a ``div.widget-subarea``.
        """
        js = """() => Array.from(document.querySelectorAll(
                    'script[type="application/vnd.jupyter.widget-view+json"]'))
                 .every(s => { const d = s.previousElementSibling;
                     return d && d.classList.contains('widget-subarea')
                            && d.childElementCount > 0; })"""
        n = self.page.locator('script[type="application/vnd.jupyter.widget-view+json"]').count()
        if n:
            try:
                self.page.wait_for_function(js, timeout=timeout_ms)
            except Exception as exc:  # playwright TimeoutError
                raise AssertionError(
                    f"{n} widget view(s) on {self.page.url}: not all rendered "
                    f"(is the widget state saved in the notebook?): {exc}"
                ) from None
        return n

    def allow_console(self, pattern: str) -> None:
        """Tolerate console errors matching ``pattern`` (a regex) in this test."""
        self._allowed.append(re.compile(pattern))

    def widget_errors(self) -> list[str]:
        """Text of ipywidgets error boxes ("Error displaying widget" etc.) on the page."""
        return self.page.locator(
            ".jupyter-widgets-error-widget, .widget-error, .jp-ErrorWidget"
        ).all_inner_texts()

    def take_problems(self) -> list[str]:
        """The problems so far (see :meth:`problems`), then start a fresh record."""
        found = self.problems()
        for seen in (
            self.console_errors,
            self.page_errors,
            self.outside_requests,
            self.failed_requests,
        ):
            seen.clear()
        return found

    def problems(self) -> list[str]:
        console = [m for m in self.console_errors if not any(p.search(m) for p in self._allowed)]
        return (
            [f"console error: {m}" for m in console]
            + [f"page error: {m}" for m in self.page_errors]
            + [f"request to another host (refused): {u}" for u in self.outside_requests]
            + [f"failed local request: {u}" for u in self.failed_requests]
        )


@contextlib.contextmanager
def _recording_page(browser, site_server: str, name: str):
    """A fresh browser context + page on the site, recording what goes wrong (SitePage)."""
    context = browser.new_context(viewport={"width": 1280, "height": 900}, service_workers="block")
    page = context.new_page()
    page.set_default_timeout(PAGE_TIMEOUT_MS)
    sp = SitePage(page=page, base_url=site_server, name=name)

    def where() -> str:
        return f"[{page.url.removeprefix(site_server)}] "

    def on_console(msg):
        if msg.type == "error":
            sp.console_errors.append(where() + _console_text(msg))

    def on_response(resp):
        if resp.status >= 400:
            sp.failed_requests.append(f"{where()}{resp.status} {resp.url}")

    def on_request_failed(req):
        if req.url.startswith(LOCAL_SCHEMES):
            return
        if urlparse(req.url).hostname not in LOCAL_HOSTS:
            # Refused by the browser's proxy (refusing_proxy): nothing left the machine.
            sp.outside_requests.append(req.url)
        elif "ERR_ABORTED" not in (req.failure or ""):
            # A request the page itself abandoned (a test moving on to the next page while
            # the favicon still loads) is not a missing file: a missing one answers 404 above.
            sp.failed_requests.append(f"{where()}{req.failure} {req.url}")

    page.on("console", on_console)
    page.on("pageerror", lambda e: sp.page_errors.append(f"{where()}{e}\n{e.stack or ''}"))
    page.on("response", on_response)
    page.on("requestfailed", on_request_failed)
    try:
        yield sp
    finally:
        context.close()


@pytest.fixture(scope="session")
def open_site_page(browser, site_server: str):
    """``open_site_page(name)``: a context manager giving a recording :class:`SitePage`.

    For fixtures wider than one test; unlike ``browser_page`` it does not fail anything by
    itself: the tests that use what it saw assert ``problems()``.
    """
    return functools.partial(_recording_page, browser, site_server)


# ----------------------------------------------------------------------------- site tours


def site_pages(site: Path) -> list[str]:
    """Every page of the built site: the book's pages, then search and the general index."""
    pages = sorted(p.relative_to(site).as_posix() for p in (site / "book").rglob("*.html"))
    return pages + [p for p in ("search.html", "genindex.html") if (site / p).exists()]


@dataclass(frozen=True)
class TourMeasure:
    """One measurement taken on every visit of a tour (see :func:`tour_measure`)."""

    name: str
    views: tuple[str, ...]
    take: Callable[[SitePage, str], object]
    pages: Callable[[Path], list[str]] | None
    order: int


_MEASURES: dict[str, TourMeasure] = {}


def tour_measure(
    name: str,
    views: tuple[str, ...],
    pages: Callable[[Path], list[str]] | None = None,
    order: int = 0,
):
    """Register ``take(sp, path) -> value`` as a measurement of the tours of ``views``.

    Test modules register their measurements at import, so a tour takes every measurement
    of the modules collected, each on the same visit: ``site_tour(view)[path][name]``.
    ``pages(site)`` limits it to some pages (default: :func:`site_pages`); the tour of a
    view opens the pages some measurement of that view wants. Measurements run in
    ``order`` (lower first): those that move or change the page (scrolling, injecting
    axe-core) come after those that read its layout.
    """
    unknown = set(views) - set(VIEWS)
    if unknown:
        raise ValueError(f"tour_measure {name!r}: unknown views {sorted(unknown)}")

    def register(take):
        _MEASURES[name] = TourMeasure(name, tuple(views), take, pages, order)
        return take

    return register


def view_params(*views: str, thorough: tuple[str, ...] = ()) -> list:
    """``pytest.param(view)`` per view, each in its viewport's xdist group (one tour each).

    The views named in ``thorough`` are marked ``thorough``: only the long run
    (``--thorough``) reads them for that test.
    """
    return [
        pytest.param(
            v,
            id=v,
            marks=[pytest.mark.xdist_group(f"tour-{viewport_of(v)}")]
            + [pytest.mark.thorough] * (v in thorough),
        )
        for v in views
    ]


def open_drawn(sp: SitePage, path: str) -> None:
    """Open ``path`` and wait until it is drawn: MathJax, widgets, book.js, every image."""
    sp.goto(path)
    sp.wait_for_mathjax()
    sp.wait_for_widgets()
    if sp.locator("article mjx-container").count():
        # book.js has checked which inline formulas need their own scroll box.
        sp.page.wait_for_function("document.documentElement.dataset.bookMath")
    sp.page.wait_for_function(
        "[...document.querySelectorAll('article img')].every(i => i.complete)"
    )


_SWITCH = """(theme) => {
  // The reader's theme button (it cycles light, dark, auto), until the page is in `theme`.
  const button = document.querySelector('.theme-switch-button');
  for (let k = 0; k < 3 && button && document.documentElement.dataset.theme !== theme; k++) {
    button.click();
  }
  return document.documentElement.dataset.theme;
}"""


def switch_theme(sp: SitePage, theme: str) -> str:
    """Switch the open page to ``theme`` with the reader's theme button; the page's theme.

    Waits until the theme's colour transitions have ended (:func:`settle`).
    """
    now = sp.evaluate(_SWITCH, theme)
    settle(sp.page)
    return now


# Each tour page's stored theme choice, set before the page's own scripts run: the tour's
# choice for the next load, kept in the tab's sessionStorage (light unless the tour says).
_CHOOSE_THEME = "localStorage.setItem('mode', sessionStorage.getItem('tour-mode') || 'light');"


def _open_in(sp: SitePage, path: str, theme: str) -> None:
    """Open ``path`` as a reader who chose ``theme`` with the switcher on an earlier page."""
    if sp.page.url.startswith(sp.base_url):
        sp.evaluate("(t) => sessionStorage.setItem('tour-mode', t)", theme)
    elif theme != "light":  # a fresh tab (about:blank) has no storage of the site's
        raise ValueError(f"a tour's first page opens light, not {theme!r}")
    open_drawn(sp, path)


def _measures(view: str) -> list[TourMeasure]:
    return sorted(
        (m for m in _MEASURES.values() if view in m.views), key=lambda m: (m.order, m.name)
    )


def _visit(sp: SitePage, view: str, path: str, opened: bool, measures, wanted) -> dict:
    """The measurements of ``view`` on the open page, and the browser problems since the last."""
    sp.view, sp.opened = view, opened
    found = {
        "theme": sp.evaluate("() => document.documentElement.dataset.theme"),
        "widget_errors": sp.widget_errors(),
    }
    for m in measures:
        if path in wanted[m.name]:
            found[m.name] = m.take(sp, path)
    found["problems"] = sp.take_problems()
    return found


def _tour(open_site_page, site: Path, viewport: str, views, thorough: bool) -> dict:
    """The tour of one viewport: ``{view: {visit: seen}}`` for its views in ``views``.

    Each page some measurement wants is opened once, light: the light view's measurements,
    then (if a dark one wants the page) the theme button switches it to dark, the dark
    view's measurements; pages of :data:`OPENED_DARK` (every page with ``thorough``) are
    then opened dark as well, and measured again (visit :func:`opened_label`).
    """
    light, dark = f"{viewport}-light", f"{viewport}-dark"
    everywhere = site_pages(site)
    plan = {}
    for view in (light, dark):
        if view not in views:
            continue
        measures = _measures(view)
        wanted = {m.name: set(m.pages(site) if m.pages else everywhere) for m in measures}
        plan[view] = (measures, wanted, {p for w in wanted.values() for p in w})
    seen: dict[str, dict[str, dict]] = {view: {} for view in plan}
    with open_site_page(f"tour-{viewport}") as sp:
        sp.thorough = thorough
        sp.page.set_viewport_size(VIEWS[light][0])
        sp.page.add_init_script(_CHOOSE_THEME)
        for path in everywhere:
            if not any(path in p for _, _, p in plan.values()):
                continue
            _open_in(sp, path, "light")
            if light in plan and path in plan[light][2]:
                seen[light][path] = _visit(sp, light, path, True, *plan[light][:2])
            if dark in plan and path in plan[dark][2]:
                # As a reader does: the button on the page (the dark view's `theme` says
                # whether it got there).
                switch_theme(sp, "dark")
                seen[dark][path] = _visit(sp, dark, path, False, *plan[dark][:2])
                if thorough or path in OPENED_DARK[dark]:
                    _open_in(sp, path, "dark")
                    seen[dark][opened_label(path, "dark")] = _visit(
                        sp, dark, path, True, *plan[dark][:2]
                    )
    return seen


def _views_asked(session) -> set[str]:
    """The views that the session's selected tests read (their ``view`` parameters)."""
    asked = set()
    for item in session.items:
        callspec = getattr(item, "callspec", None)
        if callspec is not None:
            asked |= {v for v in callspec.params.values() if isinstance(v, str) and v in VIEWS}
    return asked


@pytest.fixture(scope="session")
def site_tour(open_site_page, built_site: Path, request):
    """``site_tour(view)``: ``{visit: {"theme", "widget_errors", "problems", <measure>: ...}}``.

    A visit is a page's path; a page a dark view also opened in its theme has a second
    visit, :func:`opened_label`. Each viewport's tour is made once per worker, on first use,
    for the views the session's tests read; ``problems`` are the browser problems of that
    visit (console errors, failed or outside requests), of its load or of its switch. With
    ``--thorough`` the tour's pages say so (``SitePage.thorough``) to the measurements, and
    every page is opened in the dark theme too.
    """
    made: dict[str, dict[str, dict]] = {}
    thorough = bool(request.config.getoption("--thorough"))
    asked = _views_asked(request.session)

    def tour(view: str) -> dict[str, dict]:
        if view not in made:
            viewport = viewport_of(view)
            views = {v for v in VIEWS if viewport_of(v) == viewport and v in asked | {view}}
            made.update(_tour(open_site_page, built_site, viewport, views, thorough))
        return made[view]

    return tour


# ----------------------------------------------------------------------- one page per test


@pytest.fixture
def browser_page(browser, site_server: str, request):
    """A fresh browser context + page; fails the test if anything went wrong on it."""
    with _recording_page(browser, site_server, request.node.name) as sp:
        yield sp
        problems = sp.problems()
        if problems:
            sp.screenshot(f"{sp.name}-FAILED", always=True)
        assert not problems, "browser problems:\n  " + "\n  ".join(problems)


def _console_text(msg) -> str:
    loc = msg.location or {}
    where = f" ({loc.get('url', '')}:{loc.get('lineNumber', '')})" if loc.get("url") else ""
    return f"{msg.text}{where}"


# ------------------------------------------------------------- one page per test module


@pytest.fixture(scope="module")
def _module_page(browser, site_server: str, request):
    with _recording_page(browser, site_server, request.module.__name__) as sp:
        yield sp


@pytest.fixture
def module_page(_module_page: SitePage, request):
    """As ``browser_page``, but one browser context and tab for the whole test module.

    Each test still opens its page afresh (its own document: ``goto``), but in the same tab:
    Chromium keeps the renderer process and the context's cache, so a page load costs
    about half the CPU of one in a fresh context. Between tests the tab leaves for
    ``about:blank`` with the site's storage cleared, the routes removed and the desktop
    viewport back; each test fails on its own browser problems, as with ``browser_page``.
    A test module opts in with its own ``browser_page`` fixture that returns this one. Only
    what is listed above is undone between tests: a module whose tests add init scripts,
    emulate media or grant permissions keeps ``browser_page`` (a fresh context per test).
    """
    sp = _module_page
    sp.name = request.node.name
    sp._allowed.clear()
    sp.take_problems()
    yield sp
    if sp.problems():
        sp.screenshot(f"{sp.name}-FAILED", always=True)
    page = sp.page
    page.unroute_all(behavior="ignoreErrors")
    if page.url.startswith(sp.base_url):
        page.evaluate("() => { localStorage.clear(); sessionStorage.clear(); }")
    page.goto("about:blank")
    page.set_viewport_size(DESKTOP)
    problems = sp.take_problems()
    assert not problems, "browser problems:\n  " + "\n  ".join(problems)


def step_games(page, n: int) -> None:
    """Press "Step one game" ``n`` times: the first as a reader's click, the rest as click
    events on the button from the page (one round trip instead of ``n`` mouse clicks; the
    button's handler, the games and the redraws are the same)."""
    step = page.get_by_test_id("lab-step")
    step.click()
    step.evaluate("(b, n) => { for (let i = 0; i < n; i++) b.click(); }", n - 1)
