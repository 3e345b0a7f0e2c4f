"""A teacher working from the site alone can download every handout of the seminar.

Reads the built site (``_build/html``): every download on *How to use this book* exists and
is the file it claims to be, each PDF read page by page.
"""

from __future__ import annotations

import io
import re
import zipfile

import pytest

pytestmark = pytest.mark.browser

PAGE = "book/how_to_use.html"


def downloads(built_site) -> dict[str, bytes]:
    html = (built_site / PAGE).read_text(encoding="utf-8")
    hrefs = sorted(set(re.findall(r'href="(\.\./_downloads/[^"]+)"', html)))
    return {href.rsplit("/", 1)[-1]: (built_site / "book" / href).read_bytes() for href in hrefs}


def test_every_handout_downloads(built_site):
    pypdf = pytest.importorskip("pypdf")
    files = downloads(built_site)
    expected = {
        "seminar-plan.pdf": (1, 2),
        "worksheets.pdf": (6, 6),
        "menace-in-one-page.pdf": (1, 1),
        "student-exercises.pdf": (5, 40),
        "menace-kit-a4.pdf": (23, 23),
        "menace-kit-letter.pdf": (24, 24),
        "menace-kit-moves-1-2-a4.pdf": (4, 4),
        "menace-kit-moves-1-2-letter.pdf": (4, 4),
    }
    for name, (low, high) in expected.items():
        assert name in files, (name, sorted(files))
        pages = pypdf.PdfReader(io.BytesIO(files[name])).pages
        assert low <= len(pages) <= high, (name, len(pages))
    with zipfile.ZipFile(io.BytesIO(files["student-notebooks.zip"])) as zf:
        notebooks = [n for n in zf.namelist() if n.endswith(".ipynb")]
        assert len(notebooks) >= 15
        assert all(b"solution-start" not in zf.read(n) for n in notebooks)


def test_the_pdf_book_link(built_site):
    """The page links the PDF book, and the site has it: `make book` builds the PDF after
    the HTML and copies it in (a site without it would offer a dead link)."""
    html = (built_site / PAGE).read_text(encoding="utf-8")
    assert 'href="../downloads/menace-book.pdf"' in html
    pdf = built_site / "downloads" / "menace-book.pdf"
    assert pdf.exists(), "the site has no PDF book: build it with `make book`"
    assert pdf.read_bytes().startswith(b"%PDF")
