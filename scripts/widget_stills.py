"""Still pictures of the book's widgets, taken from the built site for the printed book.

Opens every page of ``_build/html`` that has a widget in headless Chromium (the system
build, as the browser tests use it; offline, served on 127.0.0.1), waits until each widget
is drawn, and saves a picture of it as ``_build/stills/<page>-<cell index>.png``
(``book/_ext/print_edition.py`` puts them into the LaTeX build in place of the widget).

Usage: ``python scripts/widget_stills.py [--html _build/html] [--out _build/stills]``.
"""

from __future__ import annotations

import argparse
import functools
import http.server
import os
import socket
import sys
import threading
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT / "book" / "_ext"))
from print_edition import still_name, widget_cells  # noqa: E402

CHROMIUM = os.environ.get("MENACE_CHROMIUM", "/usr/bin/chromium")
VIEW = 'script[type="application/vnd.jupyter.widget-view+json"]'
DRAWN = f"""() => Array.from(document.querySelectorAll('{VIEW}')).every(s => {{
    const d = s.previousElementSibling;
    return d && d.classList.contains('widget-subarea') && d.childElementCount > 0; }})"""
# Fonts loaded and the math typeset (the widgets' labels use both).
SETTLED = """() => Promise.all([document.fonts.ready,
    window.MathJax?.startup?.promise ?? true]).then(() => true)"""


def pages_with_widgets(root: Path = ROOT) -> dict[str, list[int]]:
    """``{docname: [cell index, ...]}`` for every notebook of the toc with a widget."""
    sys.path.insert(0, str(root / "scripts"))
    from book_exercises import toc_pages

    found = {}
    for docname, _ in toc_pages(root):
        cells = widget_cells(root / f"{docname}.ipynb")
        if cells:
            found[docname] = cells
    return found


class _QuietHandler(http.server.SimpleHTTPRequestHandler):
    def log_message(self, *args) -> None:  # noqa: D102 (no request log)
        pass


def _serve(folder: Path) -> tuple[http.server.ThreadingHTTPServer, str]:
    handler = functools.partial(_QuietHandler, directory=str(folder))
    server = http.server.ThreadingHTTPServer(("127.0.0.1", 0), handler)
    threading.Thread(target=server.serve_forever, daemon=True).start()
    return server, f"http://127.0.0.1:{server.server_address[1]}"


def take(html: Path, out: Path, root: Path = ROOT) -> list[Path]:
    """Save a picture of every widget of the site; return the files written."""
    from playwright.sync_api import sync_playwright

    out.mkdir(parents=True, exist_ok=True)
    server, base = _serve(html)
    written = []
    try:
        with socket.socket() as refused, sync_playwright() as p:
            # Offline: every other host goes to a proxy that refuses it (a port bound here and
            # never listened on); the site is on 127.0.0.1, which bypasses it. (Routing every
            # request through Playwright instead turns off the browser's cache.)
            refused.bind(("127.0.0.1", 0))
            proxy = f"http://127.0.0.1:{refused.getsockname()[1]}"
            browser = p.chromium.launch(
                executable_path=CHROMIUM,
                args=["--no-sandbox"],
                proxy={"server": proxy, "bypass": "127.0.0.1,localhost"},
            )
            page = browser.new_page(viewport={"width": 900, "height": 1000})
            for docname, cells in pages_with_widgets(root).items():
                page.goto(f"{base}/{docname}.html", wait_until="load")
                page.wait_for_function(DRAWN, timeout=60_000)
                page.evaluate(SETTLED)  # fonts loaded, MathJax done
                views = page.locator(VIEW)
                if views.count() != len(cells):
                    raise RuntimeError(
                        f"{docname}: {views.count()} widget views on the page, "
                        f"{len(cells)} widget cells in the notebook"
                    )
                for k, cell in enumerate(cells):
                    drawn = views.nth(k).locator("xpath=preceding-sibling::*[1]")
                    target = out / still_name(docname, cell)
                    drawn.screenshot(path=str(target), animations="disabled")
                    written.append(target)
            browser.close()
    finally:
        server.shutdown()
    return written


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--html", type=Path, default=ROOT / "_build" / "html")
    parser.add_argument("--out", type=Path, default=ROOT / "_build" / "stills")
    args = parser.parse_args(argv)
    if not (args.html / "index.html").exists():
        print(f"widget_stills: no built site in {args.html}: run `make book` first")
        return 1
    for path in take(args.html, args.out):
        print(f"widget_stills: {path}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
