"""What every book notebook shows a reader, checked on the committed notebooks.

* nbval's instructions travel as cell tags (``nbval-ignore-output``), never as comments in
  the code a reader sees;
* every figure a notebook draws has alt text of its own (myst-nb's ``mystnb: image: alt``),
  so a screen reader does not read out the image's file name, and a numbered caption
  (``mystnb: figure: caption`` and ``name``: "Book fig. N");
* the text numbers squares 1-9, as every widget and figure does.
"""

from __future__ import annotations

import re
from pathlib import Path

import pytest

BOOK = Path(__file__).resolve().parents[1] / "book"
NOTEBOOKS = sorted(BOOK.glob("*.ipynb"))
NBVAL_COMMENT = re.compile(r"^\s*#\s*NBVAL_", re.M)


def _code_cells(path: Path):
    import nbformat

    nb = nbformat.read(path, as_version=4)
    return [(i, c) for i, c in enumerate(nb.cells) if c.cell_type == "code"]


@pytest.mark.parametrize("path", NOTEBOOKS, ids=lambda p: p.name)
def test_nbval_markers_are_tags_not_visible_comments(path):
    shown = [i for i, c in _code_cells(path) if NBVAL_COMMENT.search(c.source)]
    assert not shown, f"{path.name}: cells {shown} show an NBVAL comment; use a cell tag"


@pytest.mark.parametrize("path", NOTEBOOKS, ids=lambda p: p.name)
def test_every_figure_has_alt_text(path):
    missing = []
    for i, cell in _code_cells(path):
        if any("image/png" in o.get("data", {}) for o in cell.outputs):
            alt = cell.metadata.get("mystnb", {}).get("image", {}).get("alt", "")
            if len(alt.split()) < 5:
                missing.append(i)
    assert not missing, f"{path.name}: figure cells {missing} have no alt text"


@pytest.mark.parametrize("path", NOTEBOOKS, ids=lambda p: p.name)
def test_every_figure_has_a_numbered_caption(path):
    missing = []
    for i, cell in _code_cells(path):
        if any("image/png" in o.get("data", {}) for o in cell.outputs):
            figure = cell.metadata.get("mystnb", {}).get("figure", {})
            if len(figure.get("caption", "").split()) < 5 or not figure.get("name"):
                missing.append(i)
    assert not missing, f"{path.name}: figure cells {missing} have no numbered caption"


ZERO_BASED_SQUARE = re.compile(r"\bsquares? 0\b|\b0[–-]4[–-]8\b|\b2[–-]4[–-]6\b")


@pytest.mark.parametrize("path", NOTEBOOKS, ids=lambda p: p.name)
def test_text_numbers_squares_1_to_9(path):
    """Readers see squares 1-9 everywhere (the library's 0-8 stay inside the code)."""
    import nbformat

    nb = nbformat.read(path, as_version=4)
    found = [
        (i, m.group(0))
        for i, cell in enumerate(nb.cells)
        if cell.cell_type == "markdown"
        for m in ZERO_BASED_SQUARE.finditer(cell.source)
    ]
    assert not found, f"{path.name}: 0-based squares in the text: {found}"
