"""Sphinx extension: the downloads of the "Run this book yourself" page.

Every HTML build writes two files into ``<site>/downloads/`` (never into the sources, never
committed; the wheel is built while the pages are read, in a thread waiting on ``pip``):

* the wheel of ``menace_lib`` (``menace_lib-<version>-py3-none-any.whl``), built with
  ``pip wheel --no-deps`` from a temporary copy of the package (no ``build/`` folder is left
  in the repository): offline with the installed setuptools when it meets the project's
  build requirement, else in pip's isolated build environment;
* ``menace-book-notebooks.zip``: every notebook and page of ``book/``, the bibliography and
  a ``RUN.txt`` with the two commands. The stored results the notebooks read
  (``book/data/``) are not in it: the wheel carries them, and the notebooks read them
  through the library (``menace_lib.base.files.book_data``), wherever they are opened. Their
  citations and cross-references are written out as the site shows them, so that they
  read well in JupyterLab (``lab_edition.py``).

This module is also the one owner of the install commands a reader is shown
(:data:`INSTALL`): the pages name them by placeholder (``@WHEEL@``, ``@INSTALL_WHEEL@``,
``@INSTALL_CHECKOUT@``, ``@OPEN_LAB@``), which this extension fills when a page is read and
when it is zipped; ``RUN.txt`` prints them; ``README.md`` repeats them and
``tests/test_run_yourself.py`` checks it word for word; ``tests/test_journey_notebooks.py``
runs them as a reader would, in a fresh virtual environment, and executes every notebook.
"""

from __future__ import annotations

import re
import shutil
import subprocess
import sys
import tempfile
import zipfile
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path

from lab_edition import BookLabels, from_sphinx, lab_file, rewrite_zip
from sphinx.application import Sphinx
from sphinx.errors import ExtensionError

DOWNLOADS = "downloads"
ZIP_NAME = "menace-book-notebooks.zip"
PLACEHOLDER = "@WHEEL@"
# The extra of pyproject.toml with everything the notebooks need in JupyterLab.
EXTRA = "notebooks"
INSTALL = {
    # The site's wheel, in the unzipped notebooks folder (pip fetches the dependencies).
    "@INSTALL_WHEEL@": f'python -m pip install "./{{wheel}}[{EXTRA}]"',
    # A checkout of the book's repository, in its root (editable: changes take effect).
    "@INSTALL_CHECKOUT@": f'python -m pip install -e ".[{EXTRA}]"',
    # Then open the introduction (from the notebooks folder, or the checkout's root). The
    # JupyterLab of the Python that pip installed into, not the first `jupyter-lab` on PATH
    # (which `python -m jupyter lab` would start).
    "@OPEN_LAB@": "python -m jupyterlab book/intro.ipynb",
}
"""Placeholder → the command it stands for (``{wheel}`` is the wheel's file name)."""
# The two commands of RUN.txt, in order.
COMMANDS = (INSTALL["@INSTALL_WHEEL@"], INSTALL["@OPEN_LAB@"])
_PACKAGE_FILES = ("pyproject.toml", "README.md", "LICENSE", "LICENSE-BOOK")
# Folders outside menace_lib/ the wheel carries (pyproject.toml's package-dir).
_PACKAGE_FOLDERS = ("menace_lib", "book/data")


def _root(app: Sphinx) -> Path:
    return Path(app.confdir)


def wheel_name(root: Path) -> str:
    """The wheel's file name for the version in ``pyproject.toml``."""
    text = (root / "pyproject.toml").read_text(encoding="utf-8")
    project = text.split("[project]", 1)[1].split("\n[", 1)[0]
    name = re.search(r'^name\s*=\s*"([^"]+)"', project, re.M)
    version = re.search(r'^version\s*=\s*"([^"]+)"', project, re.M)
    if not (name and version):
        raise ExtensionError(f"no [project] name and version in {root / 'pyproject.toml'}")
    return f"{name.group(1).replace('-', '_')}-{version.group(1)}-py3-none-any.whl"


def _package_files(root: Path) -> list[str]:
    """The files the wheel is built from, relative to ``root``.

    In a git checkout only the tracked ones, as the release build (an sdist, then its wheel)
    takes them: a stray untracked file in ``book/data`` must not reach the readers' wheel.
    Outside git (an unpacked sdist), every file but bytecode.
    """
    names = list(_PACKAGE_FILES) + list(_PACKAGE_FOLDERS)
    listed = subprocess.run(
        ["git", "ls-files", "-z", "--", *names],
        cwd=root,
        capture_output=True,
        text=True,
        check=False,
    )
    if listed.returncode == 0 and listed.stdout:
        tracked = [n for n in listed.stdout.split("\0") if n]
        return [n for n in tracked if (root / n).is_file()]
    found = [n for n in _PACKAGE_FILES if (root / n).is_file()]
    for folder in _PACKAGE_FOLDERS:
        for path in sorted((root / folder).rglob("*")):
            if path.is_file() and "__pycache__" not in path.parts and path.suffix != ".pyc":
                found.append(path.relative_to(root).as_posix())
    return found


def build_wheel(root: Path, target: Path) -> Path:
    """Build the wheel from a temporary copy of the package's files into ``target``."""
    target.mkdir(parents=True, exist_ok=True)
    with tempfile.TemporaryDirectory(prefix="menace-wheel-") as tmp:
        src = Path(tmp) / "src"
        for name in _package_files(root):
            (src / name).parent.mkdir(parents=True, exist_ok=True)
            shutil.copy2(root / name, src / name)
        cmd = [sys.executable, "-m", "pip", "wheel", "--no-deps", "--disable-pip-version-check"]
        cmd += ["-q", "-w", str(target), str(src)]
        # First with the installed setuptools (offline); if it is older than the project's
        # build requirement, in pip's isolated build environment (which pip fills from its
        # cache or the package index).
        for extra in (["--no-build-isolation"], []):
            done = subprocess.run(cmd + extra, capture_output=True, text=True, check=False)
            if done.returncode == 0:
                break
        else:
            raise ExtensionError(f"building the menace_lib wheel failed: {done.stderr[-2000:]}")
    wheel = target / wheel_name(root)
    if not wheel.is_file():
        raise ExtensionError(f"pip wrote no {wheel.name} into {target}")
    return wheel


def build_zip(root: Path, target: Path, wheel: str, labels: BookLabels | None = None) -> Path:
    """Zip the book's notebooks and pages (paths inside start with ``book/``).

    With ``labels`` (a build's, :func:`lab_edition.from_sphinx`), the pages' references are
    written out for JupyterLab.
    """
    target.mkdir(parents=True, exist_ok=True)
    book = root / "book"
    files = sorted(p for p in book.glob("*") if p.suffix in {".ipynb", ".md", ".bib"})
    out = target / ZIP_NAME
    with zipfile.ZipFile(out, "w", compression=zipfile.ZIP_DEFLATED) as zf:
        for path in files:
            name = path.relative_to(root).as_posix()
            text = fill(path.read_bytes(), wheel)
            if labels is not None:
                docname = path.relative_to(root).with_suffix("").as_posix()
                text = lab_file(name, text, docname, labels)
            zf.writestr(name, text)
        run = "\n".join(c.format(wheel=wheel) for c in COMMANDS)
        zf.writestr(
            "RUN.txt",
            "Run the book: put the wheel next to this folder's book/ and, in this folder, run\n\n"
            f"{run}\n\n"
            "The first command installs the library with what the notebooks need (JupyterLab,\n"
            "matplotlib, the widgets); pip fetches them once, over the network. From then on\n"
            "the notebooks run offline: the stored results they read come with the library.\n",
        )
    return out


def commands(wheel: str) -> dict[str, str]:
    """Every placeholder a page may hold → its text, for the wheel ``wheel``."""
    return {PLACEHOLDER: wheel} | {k: v.format(wheel=wheel) for k, v in INSTALL.items()}


def fill(text: bytes, wheel: str) -> bytes:
    """``text`` with every placeholder written out (a page of the notebooks download)."""
    for key, value in commands(wheel).items():
        text = text.replace(key.encode(), value.encode())
    return text


def fill_placeholder(app: Sphinx, docname: str, source: list[str]) -> None:
    """``source-read``: write the wheel's file name and the install commands into the page."""
    if "@" not in source[0]:
        return
    for key, value in commands(wheel_name(_root(app))).items():
        source[0] = source[0].replace(key, value)


_WHEEL = "run_yourself_wheel"
"""Attribute of the app: the wheel's build, started with the build (:func:`start_wheel`)."""


def start_wheel(app: Sphinx) -> None:
    """``builder-inited``: start building the wheel into the site, in a thread.

    ``pip wheel`` runs in its own process for several seconds, and needs nothing the build
    makes: started now, it runs on the core Sphinx leaves free while it reads the pages,
    instead of after them. :func:`write_downloads` waits for it (and reports its error).
    """
    if app.builder.format != "html":
        return
    pool = ThreadPoolExecutor(max_workers=1, thread_name_prefix="menace-wheel")
    setattr(app, _WHEEL, pool.submit(build_wheel, _root(app), Path(app.outdir) / DOWNLOADS))
    pool.shutdown(wait=False)


def write_downloads(app: Sphinx, exception: Exception | None) -> None:
    """``build-finished``: the wheel (see :func:`start_wheel`) and the zip into the site."""
    started = getattr(app, _WHEEL, None)
    if exception is not None or app.builder.format != "html":
        if started is not None:
            started.cancel()
        return
    target = Path(app.outdir) / DOWNLOADS
    wheel = build_wheel(_root(app), target) if started is None else started.result()
    labels = from_sphinx(app.env)
    build_zip(_root(app), target, wheel.name, labels)
    # The student edition the site offers ({download} copied it already): the same text.
    for student in Path(app.outdir).glob("_downloads/*/student-notebooks.zip"):
        rewrite_zip(student, labels)


def setup(app: Sphinx) -> dict:
    app.connect("builder-inited", start_wheel)
    app.connect("source-read", fill_placeholder)
    app.connect("build-finished", write_downloads)
    return {"parallel_read_safe": True, "parallel_write_safe": True}
