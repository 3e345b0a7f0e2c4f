"""Each repeated explanation of the book lives on one page; the others link there (issue 23).

* Thompson sampling versus probability matching: explained in ``dirichlet`` (label
  ``sec-thompson-vs-matching``); the regret comparison in ``dirichlet_categorical``
  (``dc-regret``).
* The 338 / 304 / 287 matchbox counts: explained in ``appendix_filters``
  (``sec-three-filters``).
* The 17 double threats: drawn in ``appendix_double_threats`` only.
"""

from __future__ import annotations

import json
import re
from pathlib import Path

import pytest

BOOK = Path(__file__).resolve().parents[1] / "book"
# Pages that list or define terms rather than explain them.
INDEXES = {"glossary", "exercises", "references", "api_reference"}


def _markdown(path: Path) -> str:
    if path.suffix == ".md":
        return path.read_text(encoding="utf-8")
    cells = json.loads(path.read_text(encoding="utf-8"))["cells"]
    return "\n".join("".join(c["source"]) for c in cells if c["cell_type"] == "markdown")


def _code(path: Path) -> str:
    cells = json.loads(path.read_text(encoding="utf-8"))["cells"]
    return "\n".join("".join(c["source"]) for c in cells if c["cell_type"] == "code")


def _pages() -> dict[str, str]:
    paths = sorted(BOOK.glob("*.ipynb")) + sorted(BOOK.glob("*.md"))
    return {p.stem: _markdown(p) for p in paths if p.stem not in INDEXES}


@pytest.fixture(scope="module")
def pages() -> dict[str, str]:
    return _pages()


def test_the_owners_carry_their_labels(pages):
    assert "(sec-thompson-vs-matching)=" in pages["dirichlet"]
    assert "(dc-regret)=" in pages["dirichlet_categorical"]
    assert "(sec-three-filters)=" in pages["appendix_filters"]


def test_thompson_sampling_is_explained_once_and_linked_elsewhere(pages):
    unlinked = [
        name
        for name, text in pages.items()
        if name != "dirichlet"
        and "Thompson sampling" in text
        and "sec-thompson-vs-matching" not in text
        and "dc-regret" not in text
    ]
    assert not unlinked, f"pages that discuss Thompson sampling without the link: {unlinked}"
    headings = [
        name
        for name, text in pages.items()
        if re.search(r"^#+ .*not Thompson sampling", text, re.M)
    ]
    assert headings == ["dirichlet"]


def test_the_three_box_counts_are_explained_once_and_linked_elsewhere(pages):
    unlinked = [
        name
        for name, text in pages.items()
        if name != "appendix_filters"
        and all(re.search(rf"\b{n}\b", text) for n in ("338", "304", "287"))
        and "sec-three-filters" not in text
    ]
    assert not unlinked, f"pages that give 338, 304 and 287 without the link: {unlinked}"


def test_only_the_appendix_draws_the_seventeen_double_threats():
    drawing = [
        p.stem for p in sorted(BOOK.glob("*.ipynb")) if "double_threat_catalogue" in _code(p)
    ]
    assert drawing == ["appendix_double_threats"]
