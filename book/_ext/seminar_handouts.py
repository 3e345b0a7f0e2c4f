"""Sphinx glue: the seminar handouts and the PDF book on the site.

At the start of an HTML build, ``scripts/handouts.py`` writes the handouts into
``_build/handouts/`` (git-ignored) unless they are newer than every source they are made
from (the chapters, ``_toc.yml``, the two scripts). The page *How to use this book* links
them with the ``{download}`` role, so the site always offers the handouts of its own
sources. At the end of the build, the PDF book that ``make pdf`` wrote
(``_build/pdf/menace-book.pdf``), if there is one, is copied to ``downloads/`` of the site.
"""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

OUTPUTS = (
    "seminar-plan.pdf",
    "worksheets.pdf",
    "menace-in-one-page.pdf",
    "student-exercises.pdf",
    "student-notebooks.zip",
)


def _sources(root: Path) -> list[Path]:
    book = root / "book"
    return [
        *book.glob("*.ipynb"),
        *book.glob("*.md"),
        *(book / "handouts").glob("*.md"),
        root / "_toc.yml",
        root / "_config.yml",
        root / "scripts" / "handouts.py",
        root / "scripts" / "book_exercises.py",
    ]


def current(root: Path) -> bool:
    """Whether ``root/_build/handouts`` holds every handout, each newer than every source
    it is made from (then the build leaves them, and the tests read them there)."""
    out = root / "_build" / "handouts"
    files = [out / name for name in OUTPUTS]
    newest = max(p.stat().st_mtime for p in _sources(root) if p.exists())
    return all(f.exists() and f.stat().st_mtime >= newest for f in files)


def write_handouts_into(root: Path) -> None:
    """Write the handouts of the book at ``root`` unless they are :func:`current`.

    ``scripts/prefill_notebook_cache.py`` calls it beside the notebooks it runs, so that the
    build that follows finds them current and leaves them.
    """
    if current(root):
        return
    subprocess.run([sys.executable, str(root / "scripts" / "handouts.py")], cwd=root, check=True)


def write_handouts(app) -> None:
    if app.builder.format != "html":
        return
    write_handouts_into(Path(app.srcdir))


def setup(app) -> dict:
    app.connect("builder-inited", write_handouts)
    return {"version": "1", "parallel_read_safe": True, "parallel_write_safe": True}
