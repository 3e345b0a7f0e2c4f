"""A seminar in a box: the exercise index, the student edition, the handouts and the PDF book.

The handouts are typeset here with XeLaTeX (skipped without it; ``make tex`` installs it);
the PDF book is too slow to build in a test, so its tests read ``_build/pdf``,
``_build/latex`` and the site in ``_build/html`` when ``make book`` has made them (it builds
the PDF too; ``make test`` runs these tests after it).

The journey tests walk from one surface to the next as a reader would: from the site to the
PDF (every number the site shows is the PDF's number for the same thing; the claims
ledger's rows are printed; no table runs off the page), and from the handouts to the site
(each section says something in whole sentences, names no ledger id and no navigation, and
gives the site's address).
"""

from __future__ import annotations

import hashlib
import html as html_lib
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
SITE = ROOT / "_build" / "html"


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
    """The handouts the book build wrote (``_build/handouts``) when they are newer than
    every source they are made from (the build's own rule, ``seminar_handouts.current``),
    else typeset here into a temporary folder. Nothing may write into it."""
    import seminar_handouts

    if seminar_handouts.current(ROOT):
        return ROOT / "_build" / "handouts"
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
    for heading, _ in handouts.ONE_PAGE:
        assert heading in summary[0].replace("\u2019", "'")
    plan = " ".join(pdf_pages(built_handouts / "seminar-plan.pdf"))
    assert len(pdf_pages(built_handouts / "seminar-plan.pdf")) <= 2
    for s in handouts.plan_sessions():
        assert s.title in plan.replace("\n", " ")


# --- handouts -> site: whole sentences, no ledger ids, no navigation, the site's address ------


def _ledger_ids() -> set[str]:
    import menace_lib as ml

    stored = ml.book.claims.read_snapshot(ROOT / "book" / "data")
    return {e.claim.id for e in ml.book.claims.entries_from_snapshot(stored)}


_NAVIGATION = re.compile(r"Short path|stop \d+ of \d+|next:|Your notes", re.I)
_SENTENCE = re.compile(r"[A-Z][^.?!]*?(?:\s\S+){5,}[^.?!]*[.?!](?=\s|$)")


def _assert_reads_standalone(text: str, where: str, ledger_ids: set[str]) -> None:
    assert _SENTENCE.search(text), f"{where}: no complete sentence in {text[:200]!r}"
    assert not _NAVIGATION.search(text), f"{where}: navigation text in {text[:200]!r}"
    ids = [i for i in ledger_ids if re.search(rf"(?<![\w.-]){re.escape(i)}(?![\w-])", text)]
    assert not ids, f"{where}: ledger ids {ids}"
    # Roles and targets of the book's MyST source are words on paper.
    assert not re.search(r"\{[\w:-]+\}`|<[A-Z][\w ]+>", text), f"{where}: MyST markup left"


def test_one_page_sections_read_standalone():
    """Each section of "MENACE in one page" says something in whole sentences of its own."""
    text = handouts.one_page_markdown(handouts.page_titles(), bx.exercise_numbers(bx.exercises()))
    sections = re.split(r"^## ", text, flags=re.M)[1:]
    assert [s.split("\n", 1)[0] for s in sections] == [h for h, _ in handouts.ONE_PAGE]
    ids = _ledger_ids()
    for section in sections:
        heading, _, body = section.partition("\n")
        prose = "\n".join(line for line in body.splitlines() if not line.startswith("*More:"))
        _assert_reads_standalone(prose, f"MENACE in one page, {heading}", ids)
        assert not re.search(r"\b(?:above|below)\b", prose), heading
    assert handouts.site_url() in text


def test_worksheets_have_real_tasks():
    """Every worksheet gives the class work: its own tasks or the book's exercises, no page
    points to "the table above" of a page the worksheet does not print."""
    sessions = handouts.plan_sessions()
    items = bx.exercises()
    numbers = bx.exercise_numbers(items)
    text = handouts.worksheets_markdown(sessions, items, handouts.page_titles(), numbers)
    sheets = re.split(r"^## Worksheet \d+: ", text, flags=re.M)[1:]
    assert len(sheets) == len(sessions)
    ids = _ledger_ids()
    for k, sheet in enumerate(sheets, start=1):
        tasks = re.findall(r"^\d+\. \S.*", sheet, flags=re.M)
        assert len(tasks) >= 2, f"worksheet {k}: {len(tasks)} numbered tasks"
        _assert_reads_standalone(sheet, f"worksheet {k}", ids)
        assert not re.search(r"\babove\b", sheet), f"worksheet {k}: 'above'"
        for page in sessions[k - 1].pages:
            assert handouts.page_url(page) in sheet, (k, page)


def test_worksheet_tasks_name_sessions_of_the_plan(tmp_path):
    sessions = handouts.plan_sessions()
    assert set(handouts.worksheet_tasks(sessions)) <= {s.title for s in sessions}
    stray = tmp_path / "tasks.md"
    stray.write_text("## Not a session\n\n1. Do this.\n", encoding="utf-8")
    with pytest.raises(ValueError, match="Not a session"):
        handouts.worksheet_tasks(sessions, stray)


def test_the_site_address_has_one_owner(tmp_path):
    """``html: baseurl:`` in _config.yml: the handouts and the printed book read it there."""
    import yaml

    config = yaml.safe_load((ROOT / "_config.yml").read_text(encoding="utf-8"))
    base = config["html"]["baseurl"]
    assert handouts.site_url() == base.rstrip("/") + "/" and base.startswith("https://")
    assert handouts.page_url("game") == f"{handouts.site_url()}book/game.html"
    app = SimpleNamespace(config=SimpleNamespace(html_baseurl=base))
    assert print_edition.page_url(app, "book/game") == handouts.page_url("game")
    app.config.html_baseurl = ""
    with pytest.raises(Exception, match="html_baseurl"):
        print_edition.page_url(app, "book/game")
    (tmp_path / "_config.yml").write_text("html:\n  baseurl: ''\n", encoding="utf-8")
    with pytest.raises(ValueError, match="baseurl"):
        handouts.site_url(tmp_path)


def test_handouts_print_the_site_address(built_handouts):
    flat = {
        name: re.sub(r"\s+", "", " ".join(pdf_pages(built_handouts / f"{name}.pdf")))
        for name in handouts.DOCUMENTS
    }
    for name, text in flat.items():
        assert handouts.site_url() in text, name
    ids = _ledger_ids()
    summary = " ".join(pdf_pages(built_handouts / "menace-in-one-page.pdf"))
    assert not _NAVIGATION.search(summary)
    assert not [i for i in ids if i in summary]


def test_student_edition_pdf_lists_every_exercise(built_handouts):
    text = " ".join(pdf_pages(built_handouts / "student-exercises.pdf")).replace("\n", " ")
    numbers = bx.exercise_numbers(bx.exercises())
    for item in bx.exercises():
        assert f"Exercise {numbers[item.label]}" in text, item.label
    assert "solution-start" not in text and "Solution" not in text
    with zipfile.ZipFile(built_handouts / "student-notebooks.zip") as zf:
        names = set(zf.namelist())
        readme = zf.read("menace-student-edition/README.txt").decode()
    assert "menace-student-edition/game.ipynb" in names
    # The install commands are the "Run this book yourself" page's (their one owner).
    sys.path.insert(0, str(ROOT / "book" / "_ext"))
    import run_yourself

    assert run_yourself.INSTALL["@INSTALL_CHECKOUT@"] in readme
    assert run_yourself.INSTALL["@INSTALL_WHEEL@"].split("{wheel}")[0] in readme


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


def test_ledger_shows_as_html_on_the_site_and_as_a_table_in_print():
    """The claims page's one output has both forms: HTML (filters) and a Markdown table
    for the LaTeX build, one row per claim, the cells' own characters escaped."""
    from markdown_it import MarkdownIt

    import menace_lib as ml

    stored = ml.book.claims.read_snapshot(ROOT / "book" / "data")
    entries = ml.book.claims.entries_from_snapshot(stored)
    ledger = ml.book.claims.render.Ledger(entries)
    assert ledger._repr_html_() == ml.book.claims.render.ledger_html(entries)
    page = MarkdownIt("gfm-like").render(ledger._repr_markdown_())
    assert page.count("<tr>") == len(entries) + 1  # the header and one row per claim
    cells = re.findall(r"<td>(.*?)</td>", page, flags=re.S)
    for e in entries:
        claim = html_lib.escape(" ".join(e.claim.claim.split()), quote=False)
        assert claim in cells, e.claim.id
    nb = json.loads((ROOT / "book" / "claims.ipynb").read_text(encoding="utf-8"))
    outputs = [o for c in nb["cells"] if c["cell_type"] == "code" for o in c.get("outputs", [])]
    html_only = [o for o in outputs if "text/html" in o.get("data", {})]
    assert html_only and all("text/markdown" in o["data"] for o in html_only)


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


def _images(resources) -> list:
    """The image XObjects a page's (or a form's) resources draw, forms followed."""
    found = []
    xobjects = resources.get("/XObject") if resources else None
    for ref in (xobjects.get_object() if xobjects else {}).values():
        xobject = ref.get_object()
        if xobject.get("/Subtype") == "/Image":
            found.append(xobject)
        elif xobject.get("/Subtype") == "/Form":
            found += _images(xobject.get("/Resources"))
    return found


def _image_digest(image) -> str:
    """The image's stream as stored (and its transparency mask's), with its size.

    A figure printed twice is one image file embedded twice, which stores the same bytes;
    comparing the stored streams finds it without decoding every image (pypdf's PNG
    predictor decoding, in Python, took about 25 of the test's 27 CPU seconds).
    """
    digest = hashlib.sha256(f"{image.get('/Width')}x{image.get('/Height')}".encode())
    digest.update(image._data)
    if "/SMask" in image:
        digest.update(image["/SMask"].get_object()._data)
    return digest.hexdigest()


@pytest.mark.skipif(not BOOK_PDF.exists(), reason="no PDF book (make pdf)")
def test_book_pdf_pages(book_pdf_text):
    reader, raw, _ = book_pdf_text
    assert len(reader.pages) > 200
    title = re.sub(r"\s+", "", raw[0])
    version, _ = print_edition.project_facts(ROOT)
    assert f"menace_lib{version}" in title and "Licence:MIT" in title
    seen: dict[str, int] = {}
    for number, page in enumerate(reader.pages):
        for image in _images(page.get("/Resources")):
            digest = _image_digest(image)
            assert digest not in seen, (
                f"figure on page {number + 1} repeats page {seen[digest] + 1}"
            )
            seen[digest] = number
    assert len(seen) > 40


# --- site -> PDF: the same numbers, the ledger's rows, every table on the page -------------

needs_book = pytest.mark.skipif(
    not (BOOK_PDF.exists() and (SITE / "index.html").exists()),
    reason="no PDF book and site (make book)",
)


def _squash(text: str) -> str:
    """Text compared without its spacing (pypdf runs words together on justified lines)."""
    text = text.replace("\u2019", "'").replace("\u2018", "'").replace("\u2011", "-")
    text = text.replace("\u2026", "...")
    return re.sub(r"\s+", "", text)


def _words(fragment: str) -> str:
    """The plain words a title or caption starts with (maths prints differently)."""
    text = html_lib.unescape(re.sub(r"<[^>]+>", "", fragment))
    text = re.split(r"\\\(|\\\[|\$", text)[0]
    return _squash(text)[:24]


def site_numbers(page: Path) -> list[tuple[str, str]]:
    """Every number a page of the site shows, with the words that follow it:
    ``("14.1", "Thecostofcuriosity")`` for headings, ``("Book fig. 14.1", "Exact...")``."""
    text = page.read_text(encoding="utf-8")
    found = []
    for number, title in re.findall(
        r'<h[1-4]><span class="section-number">([\d.]+)\. </span>(.*?)<a class="headerlink"', text
    ):
        found.append((number, _words(title)))
    for label, rest in re.findall(
        r'<span class="caption-number">([^<]+?) </span>\s*(.{0,300})', text, flags=re.S
    ):
        found.append((label, _words(rest)))
    for number in re.findall(r'<span class="eqno">\(([\d.]+)\)', text):
        found.append((f"({number})", ""))
    return found


def _chapter_pages(reader) -> dict[str, tuple[int, int]]:
    """``{chapter title (squashed): (first page, end page)}`` from the PDF's outline (its
    parts and chapters; the sections below them are not needed)."""
    starts = []

    def walk(items, depth: int) -> None:
        for item in items:
            if isinstance(item, list):
                if depth < 1:
                    walk(item, depth + 1)
            else:
                starts.append((reader.get_destination_page_number(item), _squash(item.title)))

    walk(reader.outline, 0)
    starts.sort()
    ranges = {}
    for k, (first, title) in enumerate(starts):
        end = next((p for p, _ in starts[k + 1 :] if p > first), len(reader.pages))
        ranges.setdefault(title, (first, end))
    return ranges


@pytest.fixture(scope="module")
def book_pdf_read():
    """The PDF book read once for the module: the reader, each page's text, and each page's
    pieces of text with their places (:func:`_text_boxes`), from one extraction (about ten
    CPU seconds; it was made twice, once for the text and once for the places)."""
    reader = pypdf.PdfReader(str(BOOK_PDF))
    raw, boxes, fonts = [], [], {}
    for page in reader.pages:
        text, found = _text_boxes(page, fonts)
        raw.append(text)
        boxes.append(found)
    return reader, raw, boxes


@pytest.fixture(scope="module")
def book_pdf_text(book_pdf_read):
    reader, raw, _ = book_pdf_read
    return reader, raw, [_squash(text) for text in raw]


def _no_hyphens(text: str) -> str:
    """Squashed text without hyphens and minus signs (LaTeX breaks words at line ends)."""
    return re.sub("[-\u2010\u2212\u00ad]", "", text)


@needs_book
def test_book_pdf_numbers_are_the_sites(book_pdf_text):
    """Every chapter, section, figure, table, definition, theorem, exercise and equation
    number a page of the site shows is printed in that chapter of the PDF, with the same
    title or caption after it; the table of contents numbers the chapters as the site does,
    and no chapter the site leaves unnumbered gets a number."""
    reader, raw, pages = book_pdf_text
    chapters = _chapter_pages(reader)
    front = min(start for start, _ in chapters.values())
    contents = {
        _squash(m[2]): m[1]
        for text in raw[:front]
        for m in re.finditer(r"^(\d*)\s*(\S.*?)\s*[. ]*\d+$", text, flags=re.M)
    }
    checked, missing = 0, []
    for docname, _ in bx.toc_pages():
        title = _squash(bx.page_title(bx.page_cells(ROOT, docname)))
        numbers = site_numbers(SITE / f"{docname}.html")
        chapter_no = next((n for n, _ in numbers if n.isdigit()), "")
        if docname == bx.toc_pages()[0][0]:
            first, end = 0, front  # the introduction is the front matter
        else:
            assert title in chapters, f"{docname}: chapter {title!r} not in the PDF's outline"
            first, end = chapters[title]
            toc_no = next((no for t, no in contents.items() if t.startswith(title[:30])), None)
            assert toc_no == chapter_no, (
                f"{docname}: chapter {toc_no!r} in the PDF, site {chapter_no!r}"
            )
        text = _no_hyphens("".join(pages[first:end]))
        # A caption or a table's running head in this chapter carries one of its own numbers.
        own = {_no_hyphens(_squash(label)) for label, _ in numbers}
        printed = set(re.findall(r"(Book(?:fig\.|table)[\d.]+)(?::|\u2013continued)", text))
        assert printed <= own, f"{docname}: {sorted(printed - own)} printed, not on the site"
        for label, words in numbers:
            if label == chapter_no:
                continue
            checked += 1
            label, words = _no_hyphens(_squash(label)), _no_hyphens(words)[:12]
            if label.startswith("("):
                ok = label in text
            else:
                ok = label + words in text or label + ":" + words in text
            if not ok:
                missing.append((docname, label, words))
    assert checked > 300
    assert not missing, f"{len(missing)} of {checked} site numbers not in the PDF: {missing[:10]}"


@needs_book
def test_book_pdf_prints_the_claims_ledger(book_pdf_text):
    import menace_lib as ml

    _, _, pages = book_pdf_text
    text = _no_hyphens("".join(pages))
    assert "IPython.core.display" not in text
    stored = ml.book.claims.read_snapshot(ROOT / "book" / "data")
    entries = ml.book.claims.entries_from_snapshot(stored)
    absent = [e.claim.id for e in entries if _no_hyphens(_squash(e.claim.claim))[:40] not in text]
    assert not absent, f"{len(absent)} of {len(entries)} ledger rows not in the PDF: {absent[:5]}"


def _font_widths(font_dict, fonts: dict) -> tuple[dict, dict]:
    """A font's glyph widths and its character -> code map, kept in ``fonts`` (one dict per
    PDF) under the font's object number.

    Each page hands the visitor its own copy of a font's dictionary: keyed by its object
    number, the book's few dozen fonts are read once instead of once a page (about 1,800
    times, a tenth of the extraction's CPU). A font with no object number is read each time.
    """
    from pypdf.generic._font import Font

    ref = font_dict.indirect_reference
    key = (ref.idnum, ref.generation) if ref is not None else None
    if key is None or key not in fonts:
        font = Font.from_font_resource(font_dict)
        to_code = {u: c for c, u in dict(font.character_map).items()}
        if key is None:
            return font.character_widths, to_code
        fonts[key] = (font.character_widths, to_code)
    return fonts[key]


def _text_boxes(page, fonts: dict) -> tuple[str, list[tuple[float, float, float, str]]]:
    """The text of a PDF page (pypdf's ``extract_text``) and the (x start, baseline y, x end
    of the first word, text) of every piece of text on it, in points.

    The start is the text matrix times the graphics state's; the first word's width is the
    sum of the font's glyph widths (its /W array, through its ToUnicode map). Only the first
    word is measured: pypdf may join the end of one line to the start of the next in one
    piece, and a piece that starts on the page runs off it only with its first word.
    """
    found = []

    def visit(text, cm, tm, font_dict, font_size) -> None:
        text = text.strip()
        if not text or font_dict is None:
            return
        widths, to_code = _font_widths(font_dict, fonts)
        default = widths.get("default", 500)
        word = text.split()[0]
        em = sum(widths.get(to_code.get(ch, ch), default) for ch in word)
        scale = tm[0] * cm[0] + tm[1] * cm[2]
        x = tm[4] * cm[0] + tm[5] * cm[2] + cm[4]
        y = tm[4] * cm[1] + tm[5] * cm[3] + cm[5]
        found.append((x, y, x + em / 1000 * font_size * scale, text))

    text = page.extract_text(visitor_text=visit)
    return text, found


@needs_book
def test_book_pdf_text_stays_on_the_page(book_pdf_read):
    """No text (a table's columns above all) runs off the page or into the footer."""
    reader, _, boxes = book_pdf_read
    # The footer's baseline: the lowest line most pages share (the page number's).
    lows = [round(min(y for _, y, _, _ in b)) for b in boxes if b]
    footer = max(set(lows), key=lows.count)
    outside = []
    for number, (page, found) in enumerate(zip(reader.pages, boxes, strict=True), start=1):
        width, height = float(page.mediabox.width), float(page.mediabox.height)
        for x, y, x_end, text in found:
            in_footer = abs(y - footer) < 1
            off_side = x < 0 or x > width - 36 or x_end > width + 1  # 36 pt: the outer margin
            if off_side or y > height or (not in_footer and y < footer + 9):
                outside.append((number, round(x), round(x_end), round(y), text[:30]))
    assert not outside, f"{len(outside)} pieces of text off the page: {outside[:8]}"


@needs_book
def test_book_pdf_widgets_name_their_page_on_the_site(book_pdf_text):
    _, _, pages = book_pdf_text
    text = "".join(pages)
    base = handouts.site_url()
    for docname, _ in bx.toc_pages():
        if print_edition.widget_cells(ROOT / f"{docname}.ipynb"):
            assert _squash(f"Interactive on the book's site: {base}{docname}.html") in text
    assert "(thebuiltbook'spage" not in text


@needs_book
def test_site_links_the_pdf_book():
    """The site's link to the PDF book leads to the PDF (``make book`` builds both)."""
    page = (SITE / "book" / "how_to_use.html").read_text(encoding="utf-8")
    links = re.findall(r'href="([^"]*menace-book\.pdf)"', page)
    assert links
    for link in links:
        target = (SITE / "book" / link).resolve()
        assert target.exists(), link
        assert target.read_bytes() == BOOK_PDF.read_bytes()
