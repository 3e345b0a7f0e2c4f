"""A seminar in a box: the exercise index, the student edition, the handouts and the PDF book.

The handouts are typeset here with XeLaTeX (skipped without it; ``make tex`` installs it);
the PDF book is too slow to build in a test, so its tests read ``_build/pdf`` and
``_build/latex`` when ``make pdf`` has made them (CI runs them after ``make pdf``).
"""

from __future__ import annotations

import hashlib
import json
import re
import shutil
import sys
import zipfile
from pathlib import Path
from types import SimpleNamespace

import pytest
from docutils import nodes
from docutils.utils import new_document

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT / "scripts"))
sys.path.insert(0, str(ROOT / "book" / "_ext"))

import book_exercises as bx  # noqa: E402
import handouts  # noqa: E402
import print_edition  # noqa: E402
import theme_figures  # noqa: E402

pypdf = pytest.importorskip("pypdf")

BOOK_PDF = ROOT / "_build" / "pdf" / "menace-book.pdf"
BOOK_TEX = ROOT / "_build" / "latex" / "menace-book.tex"


def pdf_pages(path: Path) -> list[str]:
    return [page.extract_text() for page in pypdf.PdfReader(str(path)).pages]


# --- exercises ---------------------------------------------------------------------------


def test_exercise_index_is_current():
    assert bx.index_is_current(), "run: python scripts/book_exercises.py --index"


def test_every_exercise_is_read_once_with_its_label():
    items = bx.exercises()
    directives = 0
    for docname, _ in bx.toc_pages():
        if docname == "book/exercises":
            continue
        for cell in bx.page_cells(ROOT, docname):
            if cell["cell_type"] == "markdown":
                directives += len(re.findall(r"^(`{3,}|:{3,})\{exercise\}", bx.source(cell), re.M))
    assert len(items) == directives >= 44
    assert len({item.label for item in items}) == len(items)
    index = (ROOT / "book" / "exercises.md").read_text(encoding="utf-8")
    assert all(f"{{numref}}`{item.label}`" in index for item in items)
    assert all(item.needs in bx.NEEDS for item in items)


def test_exercises_are_numbered_per_chapter():
    """Chapters count through the numbered parts; exercises within their chapter."""
    numbers = bx.exercise_numbers(bx.exercises())
    chapters = bx.chapter_numbers()
    assert chapters["book/game"] == 1 and chapters["book/dirichlet"] == 2
    assert "book/how_to_use" not in chapters and "book/glossary" not in chapters
    assert numbers["ex-game-symmetry"] == "1.1" and numbers["ex-game-o-boxes"] == "1.3"
    assert numbers["ex-dirichlet-update"] == "2.1"
    toc = (ROOT / "_toc.yml").read_text(encoding="utf-8")
    assert toc.count("numbered: true") == 5  # Parts I-V


def test_exercise_needs_are_read_from_the_words():
    assert bx.needs("Compute by hand the posterior.") == "paper"
    assert bx.needs("In the **Dials** widget, move λ.") == "site"
    assert bx.needs("**Predict** it, then check with `f(x)`.") == "check"
    assert bx.needs("Train ten MENACEs for 200 games.") == "python"


def test_student_notebooks_have_no_solutions(tmp_path):
    written = bx.write_student_notebooks(tmp_path)
    items = bx.exercises()
    assert {p.stem for p in written} == {i.chapter.split("/")[-1] for i in items}
    labels_seen = set()
    for path in written:
        if path.suffix == ".md":
            text = path.read_text(encoding="utf-8")
            assert len(text) < len((ROOT / "book" / path.name).read_text(encoding="utf-8"))
        else:
            nb = json.loads(path.read_text(encoding="utf-8"))
            text = "\n".join(bx.source(c) for c in nb["cells"])
            original = json.loads((ROOT / "book" / path.name).read_text(encoding="utf-8"))
            assert len(nb["cells"]) < len(original["cells"])
        assert "{solution" not in text, path.name
        labels_seen |= set(re.findall(r":label: (ex-[\w-]+)", text))
    assert labels_seen == {item.label for item in items}


def test_without_solutions_refuses_an_unclosed_solution():
    cells = [{"cell_type": "markdown", "source": "````{solution-start} ex-x\n````\n"}]
    with pytest.raises(ValueError, match="without its"):
        bx.without_solutions(cells)


# --- handouts ----------------------------------------------------------------------------


def test_plan_comes_from_how_to_use():
    sessions = handouts.plan_sessions()
    assert len(sessions) >= 5
    assert sessions[0].time.startswith("0–") and sessions[-1].time.endswith("90 min")
    labels = {item.label for item in bx.exercises()}
    for s in sessions:
        assert s.pages, s
        assert set(s.exercises) <= labels, s
        for page in s.pages:
            assert (ROOT / "book" / f"{page}.ipynb").exists() or (
                ROOT / "book" / f"{page}.md"
            ).exists()
    # The plan needs only the static site: no exercise of it needs Python.
    needs = {item.label: item.needs for item in bx.exercises()}
    assert all(needs[label] != "python" for s in sessions for label in s.exercises)


def test_plain_text_resolves_the_book_roles():
    titles = {"game": "The game and its symmetries"}
    text = handouts.plain(
        "See {doc}`game`, {numref}`ex-a` and {cite}`thesis` with {math}`\\lambda`.",
        titles,
        {"ex-a": "1.2"},
    )
    assert text == "See *The game and its symmetries*, Exercise 1.2 and with $\\lambda$."


@pytest.fixture(scope="module")
def built_handouts(tmp_path_factory) -> Path:
    if shutil.which("xelatex") is None or shutil.which("latexmk") is None:
        pytest.skip("XeLaTeX is not installed (make tex)")
    out = tmp_path_factory.mktemp("handouts")
    handouts.build(out)
    return out


def test_worksheets_one_page_per_session(built_handouts):
    sessions = handouts.plan_sessions()
    pages = pdf_pages(built_handouts / "worksheets.pdf")
    assert len(pages) == len(sessions)
    numbers = bx.exercise_numbers(bx.exercises())
    for k, (page, session) in enumerate(zip(pages, sessions, strict=True), start=1):
        assert f"Worksheet {k}" in page
        for label in session.exercises:
            assert f"Exercise {numbers[label]}" in page, (k, label)
        assert "Solution" not in page


def test_one_page_summary_and_plan(built_handouts):
    summary = pdf_pages(built_handouts / "menace-in-one-page.pdf")
    assert len(summary) == 1
    for heading in ("The machine", "Dirichlet belief", "Michie", "The key result"):
        assert heading in summary[0]
    plan = " ".join(pdf_pages(built_handouts / "seminar-plan.pdf"))
    assert len(pdf_pages(built_handouts / "seminar-plan.pdf")) <= 2
    for s in handouts.plan_sessions():
        assert s.title in plan.replace("\n", " ")


def test_student_edition_pdf_lists_every_exercise(built_handouts):
    text = " ".join(pdf_pages(built_handouts / "student-exercises.pdf")).replace("\n", " ")
    numbers = bx.exercise_numbers(bx.exercises())
    for item in bx.exercises():
        assert f"Exercise {numbers[item.label]}" in text, item.label
    assert "solution-start" not in text and "Solution" not in text
    with zipfile.ZipFile(built_handouts / "student-notebooks.zip") as zf:
        names = set(zf.namelist())
    assert "menace-student-edition/game.ipynb" in names


# --- the print edition ---------------------------------------------------------------------


def test_widget_cells_are_found_in_the_notebooks():
    play = print_edition.widget_cells(ROOT / "book" / "play.ipynb")
    assert len(play) == 1  # the play widget's cell
    assert print_edition.widget_cells(ROOT / "book" / "glossary.md") == []
    assert print_edition.still_name("book/play", 1) == "book--play-1.png"


def test_title_page_names_version_and_licence():
    version, licence = print_edition.project_facts(ROOT)
    page = print_edition.title_page("A & B", "us", version, licence)
    assert f"menace\\_lib {version}" in page and "Licence: MIT" in page and "A \\& B" in page
    assert "\\mathbbm" in print_edition.BBM_STAND_IN and "amssymb" in print_edition.BBM_STAND_IN


def _figure_doctree() -> nodes.document:
    doc = new_document("test")
    fig = nodes.figure()
    fig += nodes.image(uri="a.png", classes=[theme_figures.LIGHT_CLASS])
    fig += nodes.image(uri="a-dark.png", classes=[theme_figures.DARK_CLASS, "dark-light"])
    doc += fig
    return doc


@pytest.mark.parametrize("fmt, kept", [("html", 2), ("latex", 1)])
def test_figures_print_once_in_their_light_drawing(fmt, kept):
    doc = _figure_doctree()
    app = SimpleNamespace(builder=SimpleNamespace(format=fmt))
    theme_figures.drop_dark_twins(app, doc, "x")
    uris = [image["uri"] for image in doc.findall(nodes.image)]
    assert len(uris) == kept and uris[0] == "a.png"


@pytest.mark.skipif(not BOOK_TEX.exists(), reason="no LaTeX build (make pdf)")
def test_book_pdf_tex_has_each_figure_once():
    tex = BOOK_TEX.read_text(encoding="utf-8")
    figures = re.findall(r"\\sphinxincludegraphics(?:\[[^\]]*\])?\{\{?([^}]+)\}", tex)
    assert figures and not [f for f in figures if "-dark" in f]
    assert len(figures) == len(set(figures))
    assert tex.count("Interactive on the book") == sum(
        len(print_edition.widget_cells(ROOT / f"{d}.ipynb")) for d, _ in bx.toc_pages()
    )
    assert "\\begin{titlepage}" in tex and "Licence:" in tex


@pytest.mark.skipif(not BOOK_PDF.exists(), reason="no PDF book (make pdf)")
def test_book_pdf_pages():
    reader = pypdf.PdfReader(str(BOOK_PDF))
    assert len(reader.pages) > 200
    title = re.sub(r"\s+", "", reader.pages[0].extract_text())
    version, _ = print_edition.project_facts(ROOT)
    assert f"menace_lib{version}" in title and "Licence:MIT" in title
    seen: dict[str, int] = {}
    for number, page in enumerate(reader.pages):
        for image in page.images:
            digest = hashlib.sha256(image.data).hexdigest()
            assert digest not in seen, (
                f"figure on page {number + 1} repeats page {seen[digest] + 1}"
            )
            seen[digest] = number
    assert len(seen) > 40
