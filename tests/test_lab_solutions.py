"""Exercise solutions are collapsed for students in JupyterLab, not only on the site.

The site hides each solution in a dropdown (sphinx-exercise). JupyterLab ignores that, so
every solution cell of ``book/*.ipynb`` carries JupyterLab's own metadata,
``"jupyter": {"source_hidden": true}`` (code cells also ``"outputs_hidden": true``): the
student sees a collapsed bar and clicks it to read the answer.
``python scripts/book_exercises.py --collapse-solutions`` sets it.
"""

from __future__ import annotations

import json
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT / "scripts"))

import book_exercises as bx  # noqa: E402

NOTEBOOKS = sorted((ROOT / "book").glob("*.ipynb"))


def cells_of(path: Path) -> list[dict]:
    return json.loads(path.read_text(encoding="utf-8"))["cells"]


def md(text: str) -> dict:
    return {"cell_type": "markdown", "metadata": {}, "source": text}


def code(text: str) -> dict:
    return {"cell_type": "code", "metadata": {}, "source": text, "outputs": []}


@pytest.mark.parametrize("path", NOTEBOOKS, ids=lambda p: p.stem)
def test_every_solution_cell_is_collapsed_in_jupyterlab(path):
    cells = cells_of(path)
    open_ = [
        f"cell {i} ({cell['cell_type']}): {bx.source(cell)[:60]!r}"
        for i, (cell, solution) in enumerate(zip(cells, bx.solution_mask(cells), strict=True))
        if solution and not bx.is_collapsed(cell)
    ]
    assert not open_, (
        f"{path.name}: solution cells a student sees in JupyterLab (run "
        "`python scripts/book_exercises.py --collapse-solutions`):\n  " + "\n  ".join(open_)
    )


def test_the_book_has_its_solutions_and_they_are_all_found():
    masks = [bx.solution_mask(cells_of(path)) for path in NOTEBOOKS]
    starts = sum(
        bx.source(cell).lstrip().startswith("````{solution-start}")
        for path in NOTEBOOKS
        for cell in cells_of(path)
    )
    assert starts >= 40  # 47 exercises with solutions when this test was written
    assert sum(map(sum, masks)) > 2 * starts  # each solution: start, its body, end


def test_solution_mask_spans_start_to_end_and_single_solution_cells():
    cells = [
        md("```{exercise} x\n:label: ex-x\nDo it.\n```"),
        md("````{solution-start} ex-x\n````\nThe answer."),
        code("print(1)"),
        md("````{solution-end}\n````"),
        md("Text after."),
        md(":::{solution} ex-y\nShort.\n:::"),
    ]
    assert bx.solution_mask(cells) == [False, True, True, True, False, True]
    assert [bx.source(c) for c in bx.without_solutions(cells)] == [
        bx.source(cells[0]),
        "Text after.",
    ]


def test_an_unclosed_solution_is_an_error():
    with pytest.raises(ValueError, match="without its"):
        bx.solution_mask([md("````{solution-start} ex-x\n````"), code("1")])


def test_collapse_solutions_changes_only_solution_metadata(tmp_path):
    (tmp_path / "book").mkdir()
    nb = {
        "cells": [md("Question."), md("````{solution-start} ex\n````"), code("2"),
                  md("````{solution-end}\n````")],
        "metadata": {}, "nbformat": 4, "nbformat_minor": 5,
    }  # fmt: skip
    for i, cell in enumerate(nb["cells"]):
        cell["id"] = f"c{i}"
    if nb["cells"][2]["cell_type"] == "code":
        nb["cells"][2]["execution_count"] = None
    path = tmp_path / "book" / "page.ipynb"
    path.write_text(json.dumps(nb), encoding="utf-8")
    assert bx.collapse_solutions(tmp_path) == [path]
    cells = cells_of(path)
    assert [bx.is_collapsed(c) for c in cells] == [False, True, True, True]
    assert cells[2]["metadata"]["jupyter"] == {"source_hidden": True, "outputs_hidden": True}
    assert [bx.source(c) for c in cells] == [bx.source(c) for c in nb["cells"]]
    assert bx.collapse_solutions(tmp_path) == []  # nothing left to do
