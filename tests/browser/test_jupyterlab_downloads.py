"""The book's notebooks as a teacher opens them: the site's download in JupyterLab.

The notebooks download (``downloads/menace-book-notebooks.zip``, book/_ext/run_yourself.py)
is unzipped into a temporary folder and served by a JupyterLab server on 127.0.0.1 (random
port, its own configuration, settings and runtime folders in the temporary folder). Headless
Chromium opens notebooks there, with jupyterlab-myst rendering their Markdown: no citation
or cross-reference may show as "ⓘ key" (jupyterlab-myst's inline error), the console stays
free of errors, and nothing is requested from another host; each display equation shows the
number the site gives it, and only that one; each theorem, definition, proof, exercise and
solution box shows the site's name and number ("Definition 2.1", "Proof", "Solution to
Exercise 2.1"). Skipped, with the reason, when JupyterLab or jupyterlab-myst is not installed
(both are in the ``[book]`` extra). Each notebook is opened once for every check made on it.

JupyterLab itself is loaded once, in one page, with the first notebook's address; each other
notebook is opened there with JupyterLab's own open command, the last one disposed of first,
so JupyterLab's JavaScript is fetched and compiled once, not once a notebook. The first
notebook starts a kernel, as when a teacher opens it (without one, the widgets' manager of
JupyterLab throws a page error); each other notebook is opened on that same running kernel
(as when a teacher picks it in the kernel menu), not on a fresh Python each: the checks
read the Markdown, which the kernel does not touch. The console errors and outside requests
are collected per notebook (JupyterLab's own start counts with the first notebook opened).
"""

from __future__ import annotations

import json
import os
import re
import secrets
import signal
import socket
import subprocess
import sys
import time
import urllib.request
import zipfile
from pathlib import Path
from urllib.parse import urlparse

import pytest

# One JupyterLab server for the module: its tests stay on one xdist worker.
pytestmark = [pytest.mark.browser, pytest.mark.xdist_group("jupyterlab")]

ZIP = Path("downloads") / "menace-book-notebooks.zip"
# The teacher's first page (RUN.txt opens it), the chapter of the "fig-priors-curves",
# and the page with the most citations, equations and theorem references.
OPENED = ("book/intro.ipynb", "book/beyond_priors.ipynb", "book/free_energy.ipynb")
# What JupyterLab cannot resolve in a notebook: these must be written out in the download.
UNRESOLVED = re.compile(r"\{(cite(?::\w+)?|numref|ref|term|eq|prf:ref)\}`")
LOCAL_HOSTS = ("127.0.0.1", "localhost")
LOCAL_SCHEMES = ("data:", "blob:", "about:")
START_TIMEOUT_S = 180
PAGE_TIMEOUT_MS = 120_000
# jupyterlab-myst's InlineError: the "ⓘ key" of an unresolved citation or reference, a
# span whose title says what is wrong ("Citation Not Found", "Cross Reference Not Found").
INLINE_ERRORS = """() => Array.from(document.querySelectorAll('.jp-Notebook span[title]'))
    .filter(e => /Not Found|No Label/.test(e.title)).map(e => e.title + ': ' + e.textContent)"""
# jupyterlab-myst resolves references in a pass over the whole notebook after the cells render.
SETTLE_MS = 2_000
# The notebook shows n Markdown cells, each rendered, the last one with its text.
ALL_RENDERED = """n => {
    const cells = document.querySelectorAll('.jp-Notebook .jp-MarkdownCell');
    return cells.length === n && Array.from(cells).every(
        c => c.classList.contains('jp-mod-rendered'))
        && cells[n - 1].innerText.trim().length > 0;
}"""
# Every cell rendered at once (no windowing), so that every cell is checked.
NOTEBOOK_SETTINGS = {"windowingMode": "none"}
# Pages with numbered equations (chapter 3's "(3.1)", the appendix's "(4)") and, in the
# appendix, an equation the site does not number.
EQUATIONS = ("book/free_energy.ipynb", "book/appendix_entropy.ipynb")
# Each display equation of the Markdown cells: its element's id (the label, when it has one)
# and every number shown beside it: jupyterlab-myst's own and any KaTeX \tag.
SHOWN_EQUATIONS = """() => Array.from(
    document.querySelectorAll('.jp-Notebook .jp-MarkdownCell .myst .katex-display')).map(d => {
        const block = d.parentElement.parentElement;
        const numbers = block.querySelectorAll(
            'a[title="Link to this Equation"], .katex-html .tag');
        return [block.id, Array.from(numbers).map(e => e.textContent.trim())];
    })"""
# A display equation of the site: its label and number, or neither.
SITE_EQUATION = re.compile(
    r'<div class="math notranslate nohighlight"(?: id="equation-([^"]+)">\s*'
    r'<span class="eqno">(\([^<]*\)))?'
)

# Pages with numbered boxes: definitions, a theorem, its proof, exercises and their solutions
# (chapter 2); a lemma and a theorem of an appendix ("Lemma 1"); a remark and a proposition.
BOXES = ("book/dirichlet.ipynb", "book/appendix_entropy.ipynb", "book/free_energy_menace.ipynb")
# A box of the site (sphinx-proof, sphinx-exercise): its title, or a proof's first paragraph.
SITE_BOX = re.compile(
    r'<div class="(?:proof|exercise|solution)\b[^"]*admonition"[^>]*>\s*<p[^>]*>(.*?)</p>', re.S
)
# Each box's title as JupyterLab shows it (a proof's and a solution's too).
SHOWN_BOXES = """() => Array.from(document.querySelectorAll(
    '.jp-MarkdownCell .myst-proof-title, .jp-MarkdownCell .myst-exercise-title'))
    .filter(e => e.closest('.jp-Notebook')).map(e => e.innerText)"""
# The input of a Markdown cell collapsed in JupyterLab (the solutions'): a click shows it.
COLLAPSED = ".jp-Notebook .jp-MarkdownCell .jp-InputPlaceholder"
# A box's name and number, the part of its title before the title argument.
NAME_AND_NUMBER = re.compile(r"^(?:Solution to )?[A-Z][a-z]+(?: [\d.]*\d)?")


def name_and_number(title: str) -> str:
    """``"Definition 2.1 (Probability simplex)"`` -> ``"Definition 2.1"``; ``"Proof. By"`` ->
    ``"Proof"``."""
    text = " ".join(re.sub(r"<[^>]+>", "", title).replace("\xa0", " ").split())
    found = NAME_AND_NUMBER.match(text)
    return found[0] if found else text


@pytest.fixture(scope="module")
def lab_root(built_site: Path, tmp_path_factory) -> Path:
    """The notebooks download, unzipped."""
    root = tmp_path_factory.mktemp("lab") / "root"
    with zipfile.ZipFile(built_site / ZIP) as zf:
        zf.extractall(root)
    return root


def _free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


def _wait_until_up(url: str, server: subprocess.Popen, log: Path) -> None:
    deadline = time.monotonic() + START_TIMEOUT_S
    while time.monotonic() < deadline:
        if server.poll() is not None:
            pytest.fail(f"JupyterLab exited ({server.returncode}):\n{log.read_text()[-3000:]}")
        try:
            with urllib.request.urlopen(url, timeout=5):
                return
        except OSError:
            time.sleep(0.5)
    pytest.fail(f"JupyterLab did not answer in {START_TIMEOUT_S} s:\n{log.read_text()[-3000:]}")


@pytest.fixture(scope="module")
def lab_server(lab_root: Path) -> str:
    """A JupyterLab server on the unzipped download; yields its base URL with the token."""
    pytest.importorskip("jupyterlab", reason="JupyterLab is not installed (the [book] extra)")
    pytest.importorskip("jupyterlab_myst", reason="jupyterlab-myst is not installed ([book])")
    home = lab_root.parent
    settings = home / "settings" / "@jupyterlab" / "notebook-extension"
    settings.mkdir(parents=True)
    (settings / "tracker.jupyterlab-settings").write_text(json.dumps(NOTEBOOK_SETTINGS))
    env = {
        **os.environ,
        "HOME": str(home),
        "JUPYTER_CONFIG_DIR": str(home / "config"),
        "JUPYTER_DATA_DIR": str(home / "data"),
        "JUPYTER_RUNTIME_DIR": str(home / "runtime"),
        "IPYTHONDIR": str(home / "ipython"),
    }
    port, token = _free_port(), secrets.token_hex(16)
    argv = [
        sys.executable, "-m", "jupyter", "lab", "--no-browser", "--allow-root",
        "--ServerApp.ip=127.0.0.1", f"--ServerApp.port={port}", "--ServerApp.port_retries=0",
        f"--IdentityProvider.token={token}", f"--ServerApp.root_dir={lab_root}",
        f"--LabApp.user_settings_dir={home / 'settings'}",
        f"--LabApp.workspaces_dir={home / 'workspaces'}",
        "--LabApp.news_url=", "--LabApp.check_for_updates_class=jupyterlab.NeverCheckForUpdate",
        "--LabApp.expose_app_in_browser=True",  # window.jupyterapp: open each notebook in place
    ]  # fmt: skip
    log = home / "jupyterlab.log"
    with open(log, "w") as out:
        server = subprocess.Popen(
            argv, env=env, cwd=home, stdout=out, stderr=subprocess.STDOUT, start_new_session=True
        )
    try:
        base = f"http://127.0.0.1:{port}"
        _wait_until_up(f"{base}/api/status?token={token}", server, log)
        yield f"{base}/lab/tree/{{path}}?token={token}&reset"
    finally:
        os.killpg(server.pid, signal.SIGTERM)  # the server and the kernels it started
        try:
            server.wait(timeout=30)
        except subprocess.TimeoutExpired:
            os.killpg(server.pid, signal.SIGKILL)
            server.wait(timeout=10)


def markdown_cells(path: Path) -> list[str]:
    cells = json.loads(path.read_text(encoding="utf-8"))["cells"]
    return [
        c["source"] if isinstance(c["source"], str) else "".join(c["source"])
        for c in cells
        if c["cell_type"] == "markdown"
    ]


def test_the_download_writes_out_what_jupyterlab_cannot_resolve(lab_root):
    notebooks = sorted((lab_root / "book").glob("*.ipynb"))
    assert len(notebooks) >= 30
    left = [
        f"{path.name}: {match[0]}"
        for path in notebooks
        for text in markdown_cells(path)
        for match in UNRESOLVED.finditer(text)
    ]
    assert not left, "roles JupyterLab shows as 'ⓘ key':\n  " + "\n  ".join(left)
    cited = [p for p in notebooks if any("\\[Wos26\\]" in t for t in markdown_cells(p))]
    assert cited and all(markdown_cells(p)[-1].startswith("## References") for p in cited)


# A box's head in the download: its kind, its argument and its options.
BOX_HEAD = re.compile(
    r"^[ \t]*(?:`{3,}|:{3,})\{(prf:\w+|exercise|solution)\}[ \t]*([^\n]*)\n"
    r"((?:[ \t]*:[\w-]+:[^\n]*\n)*)",
    re.M,
)


def shown_by_jupyterlab(text: str) -> list[str]:
    """The name and number jupyterlab-myst gives each box of a notebook's Markdown (what the
    toy notebooks showed: ``:enumerator:`` exactly, no number with ``:enumerated: false``)."""
    boxes, numbers = [], {}
    for kind, argument, options in BOX_HEAD.findall(text):
        option = dict(re.findall(r":([\w-]+):[ \t]*(.*)", options))
        if kind == "solution":
            boxes.append(f"Solution to Exercise {numbers.get(argument.strip(), '?')}")
            continue
        name = kind.removeprefix("prf:").title()
        if "label" in option:
            numbers[option["label"]] = option.get("enumerator", "?")
        assert ("enumerator" in option) != (option.get("enumerated") == "false"), option
        boxes.append(f"{name} {option['enumerator']}" if "enumerator" in option else name)
    return boxes


def test_every_box_of_the_download_carries_the_sites_number(built_site, lab_root):
    pages = 0
    for path in sorted((lab_root / "book").glob("*.*")):
        if path.suffix == ".ipynb":
            text = "\n".join(markdown_cells(path))
        elif path.suffix == ".md":
            text = path.read_text(encoding="utf-8")
        else:
            continue
        html = (built_site / "book" / path.name).with_suffix(".html").read_text(encoding="utf-8")
        site = [name_and_number(title) for title in SITE_BOX.findall(html)]
        assert shown_by_jupyterlab(text) == site, path.name
        pages += bool(site)
    assert pages >= 15  # every chapter with theorems, definitions or exercises


# Open a notebook in the running JupyterLab, after disposing of what is
# open (disposed, not closed: a notebook whose solutions were shown would ask to be saved),
# on the kernel the last notebook ran (no new kernel process per notebook).
OPEN_NOTEBOOK = """async path => {
    const app = window.jupyterapp;
    await app.restored;
    const running = app.shell.currentWidget?.sessionContext?.session?.kernel;
    const kernel = running ? {id: running.id} : undefined;
    for (const widget of Array.from(app.shell.widgets('main'))) widget.dispose();
    if (document.querySelector('.jp-Notebook')) throw new Error('a notebook is still open');
    await app.commands.execute('docmanager:open', {path, kernel});
}"""
# Show every collapsed input at once (each placeholder shows its cell on a click); the number
# of placeholders clicked.
EXPAND = """selector => {
    const shown = Array.from(document.querySelectorAll(selector));
    shown.forEach(e => e.click());
    return shown.length;
}"""
KERNEL_IDLE = """() => {
    const kernel = window.jupyterapp.shell.currentWidget?.sessionContext?.session?.kernel;
    return kernel?.status === 'idle' && kernel.connectionStatus === 'connected';
}"""


@pytest.fixture(scope="module")
def lab_page(browser, lab_server: str):
    """One page with JupyterLab loaded, for every notebook; yields the page and the console
    errors and requests to other hosts, lists each notebook's look empties first."""
    context = browser.new_context(viewport={"width": 1280, "height": 900}, service_workers="block")
    page = context.new_page()
    page.set_default_timeout(PAGE_TIMEOUT_MS)
    console, outside = [], []

    def refused(req):
        # The browser's proxy refuses every other host (conftest.refusing_proxy).
        if not req.url.startswith(LOCAL_SCHEMES) and urlparse(req.url).hostname not in LOCAL_HOSTS:
            outside.append(req.url)

    page.on("requestfailed", refused)
    page.on("console", lambda m: console.append(m.text) if m.type == "error" else None)
    page.on("pageerror", lambda e: console.append(f"page error: {e}"))
    try:
        yield page, console, outside
    finally:
        context.close()


def open_notebook(page, lab_server: str, lab_root: Path, name: str) -> None:
    """``name`` open in the page's JupyterLab, alone, every Markdown cell rendered: the first
    notebook by its JupyterLab address (JupyterLab starts with it), the others in place."""
    expected = len(markdown_cells(lab_root / name))
    if page.url == "about:blank":
        page.goto(lab_server.format(path=name), wait_until="load")
        page.wait_for_function("() => window.jupyterapp !== undefined")
    else:
        page.evaluate(OPEN_NOTEBOOK, name)
    # Every Markdown cell rendered (MyST output), then jupyterlab-myst's notebook pass.
    page.wait_for_function(ALL_RENDERED, arg=expected)
    # The kernel up and idle, so that disposing of the notebook for the next one cancels no
    # request in flight (the debugger asks for its state when the kernel connects).
    page.wait_for_function(KERNEL_IDLE)
    page.wait_for_load_state("networkidle")
    page.wait_for_timeout(SETTLE_MS)


@pytest.fixture(scope="module")
def lab_seen(lab_page, lab_server: str, lab_root: Path):
    """``lab_seen(name)``: what JupyterLab shows of a notebook, each notebook opened once for
    every test that reads it (a notebook is in several of OPENED, EQUATIONS and BOXES)."""
    page, console, outside = lab_page
    seen: dict[str, dict] = {}

    def look(name: str) -> dict:
        if name in seen:
            return seen[name]
        if seen:  # JupyterLab's start counts with the first notebook
            console.clear()
            outside.clear()
        open_notebook(page, lab_server, lab_root, name)
        found = {
            "errors": page.evaluate(INLINE_ERRORS),
            "text": page.locator(".jp-Notebook").inner_text(),
            "headings": page.locator(".jp-Notebook h2").all_inner_texts(),
            "equations": page.evaluate(SHOWN_EQUATIONS),
        }
        if name in BOXES:
            # The solutions, as a teacher opens them (by clicking), all in one go.
            while page.evaluate(EXPAND, COLLAPSED):
                page.wait_for_function("s => !document.querySelector(s)", arg=COLLAPSED)
            page.wait_for_timeout(SETTLE_MS)
            found["boxes"] = [name_and_number(t) for t in page.evaluate(SHOWN_BOXES)]
            found["errors"] += page.evaluate(INLINE_ERRORS)
        seen[name] = found | {"console": list(console), "outside": list(outside)}
        return seen[name]

    return look


@pytest.mark.parametrize("name", OPENED)
def test_notebook_reads_in_jupyterlab_without_errors(lab_seen, lab_root, name):
    seen = lab_seen(name)
    errors, text, headings = seen["errors"], seen["text"], seen["headings"]
    console, outside = seen["console"], seen["outside"]
    assert not errors, f"{name}: shown as 'ⓘ key' in JupyterLab:\n  " + "\n  ".join(errors)
    assert "[Wos26]" in text  # a citation, as the site labels it
    assert any(h.strip().startswith("References") for h in headings), headings
    numbers = re.findall(r"Book fig\. [\d.]*\d", "\n".join(markdown_cells(lab_root / name)))
    assert numbers and all(n in text for n in numbers)  # figure references, as numbered
    assert not console, f"{name}: console errors:\n  " + "\n  ".join(console)
    assert not outside, f"{name}: requests to other hosts: {outside}"


@pytest.mark.parametrize("name", EQUATIONS)
def test_equations_show_the_sites_numbers(built_site, lab_seen, name):
    html = (built_site / name).with_suffix(".html").read_text(encoding="utf-8")
    site = SITE_EQUATION.findall(html)
    numbered = {label: number for label, number in site if label}
    assert numbered, f"{name}: the site numbers no equation"
    seen = lab_seen(name)
    shown, errors = seen["equations"], seen["errors"]
    console, outside = seen["console"], seen["outside"]
    assert len(shown) == len(site), f"{name}: {len(shown)} equations shown, {len(site)} on the site"
    labelled = {block_id: numbers for block_id, numbers in shown if block_id in numbered}
    assert labelled == {label: [number] for label, number in numbered.items()}
    unnumbered = [numbers for block_id, numbers in shown if block_id not in numbered]
    assert unnumbered == [[]] * (len(site) - len(numbered))  # as on the site: no number
    assert not errors and not console and not outside, (errors, console, outside)


@pytest.mark.parametrize("name", BOXES)
def test_boxes_show_the_sites_names_and_numbers(built_site, lab_seen, name):
    html = (built_site / name).with_suffix(".html").read_text(encoding="utf-8")
    site = [name_and_number(title) for title in SITE_BOX.findall(html)]
    assert any(re.search(r"\d", box) for box in site), f"{name}: the site numbers no box"
    seen = lab_seen(name)
    shown, errors = seen["boxes"], seen["errors"]
    console, outside = seen["console"], seen["outside"]
    assert shown == site  # e.g. "Definition 2.1", "Proof", "Solution to Exercise 2.1"
    assert not errors and not console and not outside, (errors, console, outside)
