"""The book's exercises, read from its own sources: the index page and the student edition.

Every exercise of the book is a ``{exercise}`` directive with a ``:label:`` in a markdown
cell of a chapter notebook (or in a Markdown page), and its solution sits between the
``{solution-start}`` and ``{solution-end}`` cells that follow it. This script reads them in
the order of ``_toc.yml`` and

* writes ``book/exercises.md``, the page listing every exercise with its number (Sphinx
  numbers them per chapter, "Exercise 3.2", from the numbered table of contents), its
  chapter, its topic and whether it needs a computer (``--index``; ``--check`` only says
  whether the committed page is current, as ``tests/test_seminar.py`` does);
* writes the student edition's notebooks: each chapter with its exercises, every solution
  cell removed (``--student-notebooks DIR``; generated, never committed);
* marks every solution cell of the book's notebooks collapsed, so that JupyterLab shows a
  student a bar to click rather than the answer (``--collapse-solutions``; cell metadata
  only, ``tests/test_lab_solutions.py`` checks it).

Usage::

    python scripts/book_exercises.py --index            # rewrite book/exercises.md
    python scripts/book_exercises.py --check            # exit 1 if it is out of date
    python scripts/book_exercises.py --student-notebooks _build/student/notebooks
    python scripts/book_exercises.py --collapse-solutions  # after adding a solution
"""

from __future__ import annotations

import argparse
import json
import re
import sys
from dataclasses import dataclass
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
INDEX_PAGE = ROOT / "book" / "exercises.md"

_DIRECTIVE = re.compile(r"^(`{3,}|:{3,})\{(exercise|solution-start|solution-end)\}([^\n]*)\n")
_OPTION = re.compile(r"^:(\w[\w-]*):[ \t]*([^\n]*)\n")

# What an exercise needs, from its own words: a widget of the built site, or Python.
_SITE_WORDS = re.compile(r"\bwidget\b|\*Run\*|Reset to defaults|\bthe lab\b|\*restock\*", re.I)
_CODE = re.compile(r"`[^`\n]*[(=][^`\n]*`")
_RUN_WORDS = re.compile(r"\b(train|trains|run|re-run|simulat\w*|the library|sampled)\b", re.I)
_HAND_WORDS = re.compile(r"\bby hand\b|\*\*predict\*\*|\bpredict\b|\bwork it out\b", re.I)
NEEDS = {
    "paper": "pen and paper",
    "check": "pen and paper, then Python to check",
    "python": "Python (a notebook)",
    "site": "the site: a widget in the browser",
}


@dataclass(frozen=True)
class Exercise:
    """One exercise of the book, as its source says."""

    label: str
    title: str
    body: str
    chapter: str  # the page's docname, e.g. "book/game"
    chapter_title: str
    needs: str  # a key of NEEDS

    @property
    def number_ref(self) -> str:
        """The MyST role that prints the exercise's number ("Exercise 3.2")."""
        return f"{{numref}}`{self.label}`"


def toc_pages(root: Path = ROOT) -> list[tuple[str, bool]]:
    """Every page of ``_toc.yml`` in order, with whether its part is numbered."""
    import yaml

    toc = yaml.safe_load((root / "_toc.yml").read_text(encoding="utf-8"))
    pages = [(toc["root"], False)]
    for part in toc.get("parts", []):
        for chapter in part.get("chapters", []):
            pages.append((chapter["file"], bool(part.get("numbered"))))
    return pages


def page_cells(root: Path, docname: str) -> list[dict]:
    """A page's cells ({"cell_type", "source", ...}); a Markdown page is one cell."""
    nb = root / f"{docname}.ipynb"
    if nb.exists():
        return json.loads(nb.read_text(encoding="utf-8"))["cells"]
    md = root / f"{docname}.md"
    return [{"cell_type": "markdown", "source": md.read_text(encoding="utf-8"), "metadata": {}}]


def source(cell: dict) -> str:
    text = cell["source"]
    return text if isinstance(text, str) else "".join(text)


def page_title(cells: list[dict]) -> str:
    for cell in cells:
        if cell["cell_type"] == "markdown":
            match = re.search(r"^# (.+)$", source(cell), re.M)
            if match:
                return match[1].strip()
    raise ValueError("page without a '# title'")


def split_directive(text: str) -> tuple[str, str, dict[str, str], str] | None:
    """(kind, argument, options, body) of a directive opening ``text``, else None."""
    match = _DIRECTIVE.match(text)
    if match is None:
        return None
    fence, kind, argument = match[1], match[2], match[3].strip()
    rest, options = text[match.end() :], {}
    while (option := _OPTION.match(rest)) is not None:
        options[option[1]] = option[2].strip()
        rest = rest[option.end() :]
    # The body ends at the first line that is the opening fence alone (a Markdown page goes
    # on after it; inner code blocks use shorter fences).
    close = re.search(rf"^{re.escape(fence)}[ \t]*$", rest, re.M)
    body = rest[: close.start()] if close else rest
    return kind, argument, options, body.strip()


def needs(body: str, chapter: str = "") -> str:
    """What an exercise needs (a key of :data:`NEEDS`), read from its words."""
    if _SITE_WORDS.search(body) or chapter.endswith("/lab"):
        return "site"
    runs, code = _RUN_WORDS.search(body), _CODE.search(body) or "check with" in body.lower()
    if runs and not _HAND_WORDS.search(body):
        return "python"
    if runs or code:
        return "check" if _HAND_WORDS.search(body) or not runs else "python"
    return "paper"


def exercises(root: Path = ROOT) -> list[Exercise]:
    """Every exercise of the book, in reading order."""
    found = []
    for docname, _ in toc_pages(root):
        if docname == "book/exercises":
            continue  # the index itself
        cells = page_cells(root, docname)
        title = None
        for cell in cells:
            if cell["cell_type"] != "markdown":
                continue
            # A Markdown page may hold several directives: look at each fenced block.
            text = source(cell)
            opening = re.finditer(r"^(`{3,}|:{3,})\{exercise\}", text, re.M)
            for start in [m.start() for m in opening]:
                _, argument, options, body = split_directive(text[start:])
                title = title or page_title(cells)
                label = options.get("label")
                if not label:
                    raise ValueError(f"{docname}: exercise {argument!r} has no :label:")
                need = needs(f"{argument}\n{body}", docname)
                found.append(Exercise(label, argument, body, docname, title, need))
    return found


def chapter_numbers(root: Path = ROOT) -> dict[str, int]:
    """Chapter numbers of the numbered parts of ``_toc.yml``, counted straight through."""
    numbers, n = {}, 0
    for docname, numbered in toc_pages(root):
        if numbered:
            n += 1
            numbers[docname] = n
    return numbers


def exercise_numbers(items: list[Exercise], root: Path = ROOT) -> dict[str, str]:
    """``{label: "3.2"}``: the chapter's number, then the exercise's place in it."""
    chapters, seen, out = chapter_numbers(root), {}, {}
    for item in items:
        seen[item.chapter] = seen.get(item.chapter, 0) + 1
        chapter = chapters.get(item.chapter)
        out[item.label] = f"{chapter}.{seen[item.chapter]}" if chapter else str(seen[item.chapter])
    return out


def index_markdown(items: list[Exercise]) -> str:
    """The text of ``book/exercises.md``."""
    lines = [
        "# Exercises, chapter by chapter",
        "",
        "<!-- Written by scripts/book_exercises.py --index from the chapters' own exercises;",
        "     tests/test_seminar.py fails when it is out of date. Do not edit by hand. -->",
        "",
        f"In short: the book has {len(items)} exercises, numbered per chapter (Exercise 3.2 is "
        "the second of chapter 3). Each is listed below with its chapter, its topic and "
        "what it needs: pen and paper, the site's widgets in a browser, or Python (a "
        "notebook, with the repository installed). The solutions sit under each exercise, "
        "folded until opened; the student edition (see {doc}`how_to_use`) leaves them out.",
        "",
    ]
    by_chapter: dict[str, list[Exercise]] = {}
    for item in items:
        by_chapter.setdefault(item.chapter, []).append(item)
    counts = {key: sum(item.needs == key for item in items) for key in NEEDS}
    lines += [
        f"Pen and paper only: {counts['paper']}; pen and paper, then Python to check: "
        f"{counts['check']}; Python: {counts['python']}; the site's widgets: {counts['site']}.",
        "",
        "| Exercise | Chapter | Topic | Needs |",
        "|---|---|---|---|",
    ]
    for chapter, mine in by_chapter.items():
        for item in mine:
            lines.append(
                f"| {item.number_ref} | {{doc}}`{chapter.split('/')[-1]}` | "
                f"{{ref}}`{item.title} <{item.label}>` | {NEEDS[item.needs]} |"
            )
    lines.append("")
    return "\n".join(lines)


def write_index(root: Path = ROOT) -> Path:
    path = root / "book" / "exercises.md"
    path.write_text(index_markdown(exercises(root)), encoding="utf-8")
    return path


def index_is_current(root: Path = ROOT) -> bool:
    path = root / "book" / "exercises.md"
    return path.exists() and path.read_text(encoding="utf-8") == index_markdown(exercises(root))


def solution_mask(cells: list[dict]) -> list[bool]:
    """For each cell, whether it belongs to a solution: from ``{solution-start}`` to
    ``{solution-end}``, both included, and any ``{solution}`` directive cell."""
    mask, inside = [], False
    for cell in cells:
        text = source(cell).lstrip()
        is_markdown = cell["cell_type"] == "markdown"
        if is_markdown and re.match(r"(`{3,}|:{3,})\{solution-start\}", text):
            inside = True
            mask.append(True)
            continue
        if inside:
            if is_markdown and re.match(r"(`{3,}|:{3,})\{solution-end\}", text):
                inside = False
            mask.append(True)
            continue
        mask.append(is_markdown and re.match(r"(`{3,}|:{3,})\{solution\}", text) is not None)
    if inside:
        raise ValueError("a {solution-start} without its {solution-end}")
    return mask


def without_solutions(cells: list[dict]) -> list[dict]:
    """The cells minus every solution (:func:`solution_mask`)."""
    return [
        cell for cell, solution in zip(cells, solution_mask(cells), strict=True) if not solution
    ]


# JupyterLab collapses a cell with this metadata: a student sees a bar, a click opens it.
COLLAPSED = {
    "markdown": {"source_hidden": True},
    "code": {"source_hidden": True, "outputs_hidden": True},
}


def is_collapsed(cell: dict) -> bool:
    """Whether JupyterLab shows ``cell`` collapsed (:data:`COLLAPSED`)."""
    shown = cell["metadata"].get("jupyter", {})
    return all(shown.get(key) is True for key in COLLAPSED[cell["cell_type"]])


def collapse_solutions(root: Path = ROOT) -> list[Path]:
    """Mark every solution cell of ``book/*.ipynb`` collapsed for JupyterLab; the notebooks
    changed. Only cell metadata changes, so their outputs stay valid."""
    import nbformat

    changed = []
    for path in sorted((root / "book").glob("*.ipynb")):
        nb = nbformat.read(path, as_version=4)
        todo = [
            c
            for c, s in zip(nb.cells, solution_mask(nb.cells), strict=True)
            if s and not is_collapsed(c)
        ]
        for cell in todo:
            cell.metadata.setdefault("jupyter", {}).update(COLLAPSED[cell.cell_type])
        if todo:
            nbformat.write(nb, path)
            changed.append(path)
    return changed


_SOLUTION_BLOCK = re.compile(
    r"^(`{3,}|:{3,})\{solution-start\}.*?^(`{3,}|:{3,})\{solution-end\}\n\2\n?", re.M | re.S
)


def write_student_notebooks(folder: Path, root: Path = ROOT) -> list[Path]:
    """Every chapter with exercises, its solutions removed, into ``folder`` (notebooks, and
    Markdown pages as Markdown)."""
    folder.mkdir(parents=True, exist_ok=True)
    chapters = sorted({item.chapter for item in exercises(root)})
    written = []
    for docname in chapters:
        path = root / f"{docname}.ipynb"
        if not path.exists():  # a Markdown page: its solutions cut out of the text
            page = root / f"{docname}.md"
            text = re.sub(_SOLUTION_BLOCK, "", page.read_text(encoding="utf-8"))
            (folder / page.name).write_text(text, encoding="utf-8")
            written.append(folder / page.name)
            continue
        nb = json.loads(path.read_text(encoding="utf-8"))
        nb["cells"] = without_solutions(nb["cells"])
        target = folder / path.name
        target.write_text(json.dumps(nb, indent=1, ensure_ascii=False) + "\n", encoding="utf-8")
        written.append(target)
    return written


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--index", action="store_true", help="rewrite book/exercises.md")
    parser.add_argument("--check", action="store_true", help="exit 1 if the index is stale")
    parser.add_argument("--student-notebooks", type=Path, metavar="DIR")
    parser.add_argument(
        "--collapse-solutions", action="store_true", help="collapse solutions in JupyterLab"
    )
    args = parser.parse_args(argv)
    if args.index:
        print(f"{len(exercises())} exercises -> {write_index()}")
    if args.check and not index_is_current():
        print("book/exercises.md is out of date: run scripts/book_exercises.py --index")
        return 1
    if args.collapse_solutions:
        print(f"solutions collapsed in {len(collapse_solutions())} notebooks")
    if args.student_notebooks:
        written = write_student_notebooks(args.student_notebooks)
        print(f"{len(written)} student notebooks -> {args.student_notebooks}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
