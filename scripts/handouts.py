"""The seminar handouts, built from the book's own sources: ``make handouts``.

Writes into ``_build/handouts/`` (git-ignored; the book's site links them, see
``book/how_to_use.md``):

* ``seminar-plan.pdf``: the 90-minute plan of ``book/how_to_use.md`` (its table is the
  source), with each session's pages and exercises;
* ``worksheets.pdf``: one page per session of that plan: what to open on the site (with
  each page's address), what to do, the session's own tasks (``book/handouts/
  worksheet-tasks.md``) and its exercises as the chapters state them, without solutions;
* ``menace-in-one-page.pdf``: the mechanism, the Dirichlet reading, Michie's question and
  the key result, each the "In short" summary of its chapter, with the chapter's address;
* ``student-exercises.pdf``: the student edition, every exercise of the book chapter by
  chapter, without solutions (the teacher's edition is the book itself);
* ``student-notebooks.zip``: the chapter notebooks with their solutions removed.

The PDFs are typeset by Sphinx's LaTeX builder (MyST Markdown, so the book's maths prints
as maths) and XeLaTeX through latexmk, offline. Exercise numbers ("Exercise 3.2") are the
book's: chapters are counted through the numbered parts of ``_toc.yml``, exercises within
their chapter, as Sphinx numbers them.

Every handout prints the site's address, read from ``html: baseurl:`` in ``_config.yml``
(the one place it is written; a page's address is that plus ``book/<page>.html``).

Usage: ``python scripts/handouts.py [--out _build/handouts]``.
"""

from __future__ import annotations

import argparse
import re
import shutil
import subprocess
import sys
import textwrap
import zipfile
from dataclasses import dataclass
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))
import book_exercises as bx  # noqa: E402

sys.path.insert(0, str(Path(__file__).resolve().parents[1] / "book" / "_ext"))
import run_yourself  # noqa: E402  (the one owner of the install commands)

from menace_lib.book.claims.prose import substitute as claim_text  # noqa: E402

ROOT = bx.ROOT
OUT = ROOT / "_build" / "handouts"
PLAN_PAGE = ROOT / "book" / "how_to_use.md"
TASKS = ROOT / "book" / "handouts" / "worksheet-tasks.md"
SITE_NOTE = "the book's site"


def site_url(root: Path = ROOT) -> str:
    """The site's address, from ``_config.yml`` (``html: baseurl:``), ending in ``/``."""
    import yaml

    config = yaml.safe_load((root / "_config.yml").read_text(encoding="utf-8"))
    base = str((config.get("html") or {}).get("baseurl") or "").strip()
    if not base.startswith("https://"):
        raise ValueError(f"_config.yml: html.baseurl is {base!r}, not the site's https:// address")
    return base.rstrip("/") + "/"


def page_url(page: str, root: Path = ROOT) -> str:
    """The address of a page of the site: ``game`` or ``book/game`` -> ``.../book/game.html``."""
    return f"{site_url(root)}book/{page.split('/')[-1]}.html"


@dataclass(frozen=True)
class Session:
    """One row of the plan: its time, title, activity, site pages and exercise labels."""

    time: str
    title: str
    activity: str
    pages: tuple[str, ...]
    exercises: tuple[str, ...]


# --- the book's numbering and titles ---------------------------------------------------


def page_titles(root: Path = ROOT) -> dict[str, str]:
    titles = {}
    for docname, _ in bx.toc_pages(root):
        try:
            titles[docname.split("/")[-1]] = bx.page_title(bx.page_cells(root, docname))
        except (ValueError, FileNotFoundError):
            continue
    return titles


def plain(text: str, titles: dict[str, str], numbers: dict[str, str]) -> str:
    """MyST text of the book made standalone: roles become words a printed page can show."""
    text = claim_text(text)  # the claims ledger's numbers, as the site shows them
    text = re.sub(r"\s*\{cite(:[a-z]+)?\}`[^`]*`", "", text)
    text = re.sub(r"\{math\}`([^`]*)`", r"$\1$", text)
    text = re.sub(r"\{(?:doc|ref)\}`([^`<]*?)\s*<[^`]*>`", r"*\1*", text)
    text = re.sub(r"\{doc\}`([^`]*)`", lambda m: f"*{titles.get(m[1].split('/')[-1], m[1])}*", text)
    text = re.sub(r"\{numref\}`([^`]*)`", lambda m: f"Exercise {numbers.get(m[1], m[1])}", text)
    text = re.sub(r"\{eq\}`[^`]*`", "the chapter's equation", text)
    text = re.sub(r"\{prf:ref\}`[^`]*`", "the chapter's statement", text)
    text = re.sub(r"\{[\w:-]+\}`([^`<]*?)\s*<[^`]*>`", r"\1", text)  # {term}`text <target>`
    text = re.sub(r"\{[\w:-]+\}`([^`]*)`", r"\1", text)
    # Links to other pages of the book print as their text.
    return re.sub(r"\[([^\]]+)\]\((?!https?:)[^)]*\)", r"\1", text)


# --- the sources -----------------------------------------------------------------------


def plan_sessions(path: Path = PLAN_PAGE) -> list[Session]:
    """The rows of the plan table in ``book/how_to_use.md``."""
    text = path.read_text(encoding="utf-8")
    start = text.index("| Time | Session | On the site | Exercises |")
    sessions = []
    for line in text[start:].splitlines()[2:]:
        if not line.startswith("|"):
            break
        time, session, pages, exercises = (cell.strip() for cell in line.strip("|").split(" | "))
        match = re.match(r"\*\*(.+?)\*\*\s*(.*)", session)
        title, activity = (match[1].rstrip("."), match[2]) if match else (session, "")
        sessions.append(
            Session(
                time,
                title,
                activity,
                tuple(re.findall(r"\{doc\}`([^`]+)`", pages)),
                tuple(re.findall(r"\{numref\}`([^`]+)`", exercises)),
            )
        )
    if not sessions:
        raise ValueError(f"{path}: no rows in the plan table")
    return sessions


def plan_intro(path: Path = PLAN_PAGE) -> str:
    text = path.read_text(encoding="utf-8")
    section = text[text.index("## Teaching a seminar with the book") :]
    return section.split("\n\n")[1]


def in_short(docname: str) -> str:
    """A page's "In short" summary, without its label: the page's own one-paragraph gist."""
    cells = bx.page_cells(ROOT, f"book/{docname}")
    text = "\n\n".join(bx.source(c) for c in cells if c["cell_type"] == "markdown")
    match = re.search(r"^\*\*In short\.\*\*\s*(.+?)(?:\n\s*\n|\Z)", text, re.M | re.S)
    if match is None:
        raise ValueError(f"book/{docname}: no paragraph starting **In short.**")
    return " ".join(match[1].split())


def worksheet_tasks(sessions: list[Session], path: Path = TASKS) -> dict[str, str]:
    """``{session title: its tasks (Markdown)}`` from the handouts' own source."""
    text = re.sub(r"<!--.*?-->", "", path.read_text(encoding="utf-8"), flags=re.S)
    tasks = {}
    for block in re.split(r"^## ", text, flags=re.M)[1:]:
        title, _, body = block.partition("\n")
        tasks[title.strip()] = body.strip()
    unknown = set(tasks) - {s.title for s in sessions}
    if unknown:
        raise ValueError(f"{path}: tasks for {sorted(unknown)}, which are no session of the plan")
    return tasks


def standalone(body: str, chapter_title: str) -> str:
    """An exercise read off its page: "the table above" names the chapter it is in."""
    where = f"in the chapter *{chapter_title}*"
    body = re.sub(r"^Above,", f"{where[0].upper()}{where[1:]},", body, flags=re.M)
    return re.sub(r"\babove\b", where, body)


# --- the documents ---------------------------------------------------------------------


def _pages_line(pages: tuple[str, ...], titles: dict[str, str]) -> str:
    return "; ".join(f"*{titles.get(p, p)}* ({page_url(p)})" for p in pages)


def plan_markdown(sessions: list[Session], titles: dict[str, str], numbers: dict[str, str]) -> str:
    intro = plain(plan_intro(), titles, numbers).replace("this site", "the book's site")
    lines = ["# A 90-minute seminar with MENACE", "", intro, ""]
    for k, s in enumerate(sessions, start=1):
        lines += [f"## {s.time}: {s.title} (worksheet {k})", "", plain(s.activity, titles, numbers)]
        lines += ["", f"**On the site:** {_pages_line(s.pages, titles)}."]
        if s.exercises:
            refs = ", ".join(f"Exercise {numbers[label]}" for label in s.exercises)
            lines += ["", f"**Exercises:** {refs} (worksheet {k})."]
        lines.append("")
    lines += [
        f"Everything runs in a browser on the book's static site, {site_url()}: no Python, "
        "no repository. The worksheets, this plan, *MENACE in one page*, the student edition "
        f"and the matchbox kits are downloads of the page *How to use this book* "
        f"({page_url('how_to_use')}).",
        "",
    ]
    return "\n".join(lines)


def _exercise_block(item: bx.Exercise, number: str, titles, numbers) -> list[str]:
    body = standalone(plain(item.body, titles, numbers), item.chapter_title)
    return [
        f"::::{{admonition}} Exercise {number}: {item.title}",
        body,
        "",
        f"*Needs: {bx.NEEDS[item.needs]}. From the chapter {item.chapter_title}.*",
        "::::",
        "",
    ]


def worksheets_markdown(sessions, items, titles, numbers) -> str:
    by_label = {item.label: item for item in items}
    tasks = worksheet_tasks(sessions)
    lines = ["# Worksheets", ""]
    for k, s in enumerate(sessions, start=1):
        lines += [
            f"## Worksheet {k}: {s.title}",
            "",
            f"*{s.time} of the 90-minute plan. Open on {SITE_NOTE}:* "
            f"{_pages_line(s.pages, titles)}.",
            "",
            plain(s.activity, titles, numbers),
            "",
        ]
        if s.title not in tasks and not s.exercises:
            raise ValueError(f"worksheet {k} ({s.title}): no tasks and no exercises")
        if s.title in tasks:
            lines += ["**Tasks**", "", plain(tasks[s.title], titles, numbers), ""]
        for label in s.exercises:
            lines += _exercise_block(by_label[label], numbers[label], titles, numbers)
        lines += ["```{raw} latex", r"\clearpage", "```", ""]
    return "\n".join(lines)


# The four sections of "MENACE in one page": each is the "In short" summary of its page.
ONE_PAGE = (
    ("The machine", "menace_mechanism"),
    ("A matchbox is a Dirichlet belief", "dirichlet_categorical"),
    ("Michie's question", "michies_question"),
    ("The key result", "discussion"),
)


def one_page_markdown(titles, numbers) -> str:
    lines = ["# MENACE in one page", ""]
    for heading, page in ONE_PAGE:
        lines += [f"## {heading}", "", plain(in_short(page), titles, numbers), ""]
        lines += [f"*More: {titles.get(page, page)}, {page_url(page)}*", ""]
    lines += [
        f"*The whole book, with every game and widget running in the browser: {site_url()}*",
        "",
    ]
    return "\n".join(lines)


def student_markdown(items, titles, numbers) -> str:
    lines = [
        "# Student edition: the exercises",
        "",
        "Every exercise of the book, chapter by chapter, without solutions. The solutions are "
        f"in the book (the teacher's edition), folded under each exercise: {site_url()}",
        "",
    ]
    chapter_no = bx.chapter_numbers()
    current = None
    for item in items:
        if item.chapter != current:
            current = item.chapter
            no = chapter_no.get(current)
            lines += [f"## {f'{no}. ' if no else ''}{item.chapter_title}", ""]
            lines += [f"*On the site: {page_url(current)}*", ""]
        lines += _exercise_block(item, numbers[item.label], titles, numbers)
    return "\n".join(lines)


# --- typesetting -----------------------------------------------------------------------

DOCUMENTS = {
    # name: (title, compact one-page layout?)
    "seminar-plan": ("A 90-minute seminar with MENACE", True),
    "worksheets": ("Worksheets", True),
    "menace-in-one-page": ("MENACE in one page", True),
    "student-exercises": ("Student edition: the exercises", False),
}

CONF = """\
project = "MENACE as a Bayesian Observer"
author = "the menace_lib authors"
extensions = ["myst_parser"]
myst_enable_extensions = ["dollarmath", "amsmath", "colon_fence"]
root_doc = "index"
latex_engine = "xelatex"
latex_use_xindy = False
latex_documents = {documents!r}
latex_elements = {{
    "papersize": "a4paper",
    "pointsize": "10pt",
    "geometry": r"\\usepackage[margin=1.6cm,includefoot,footskip=0.8cm]{{geometry}}",
    "fncychap": "",
    "tableofcontents": "",
    "printindex": "",
    "maketitle": r"\\makeatletter{{\\noindent\\LARGE\\bfseries\\@title\\par}}"
    r"\\makeatother\\vspace{{0.6em}}",
    "preamble": r"\\setcounter{{secnumdepth}}{{0}}\\pagestyle{{plain}}",
    "sphinxsetup": "verbatimwithframe=false",
}}
suppress_warnings = ["toc.not_included", "myst.header"]
"""


def write_sources(src: Path) -> None:
    items = bx.exercises()
    numbers = bx.exercise_numbers(items)
    titles = page_titles()
    sessions = plan_sessions()
    texts = {
        "seminar-plan": plan_markdown(sessions, titles, numbers),
        "worksheets": worksheets_markdown(sessions, items, titles, numbers),
        "menace-in-one-page": one_page_markdown(titles, numbers),
        "student-exercises": student_markdown(items, titles, numbers),
    }
    if src.exists():
        shutil.rmtree(src)
    src.mkdir(parents=True)
    for name, text in texts.items():
        (src / f"{name}.md").write_text(text, encoding="utf-8")
    toc = "\n".join(DOCUMENTS)
    (src / "index.md").write_text(
        f"# Handouts\n\n```{{toctree}}\n:hidden:\n\n{toc}\n```\n", encoding="utf-8"
    )
    documents = [
        (name, f"{name}.tex", title, "", "howto") for name, (title, _) in DOCUMENTS.items()
    ]
    (src / "conf.py").write_text(CONF.format(documents=documents), encoding="utf-8")


def typeset(src: Path, latex: Path) -> None:
    if shutil.which("xelatex") is None or shutil.which("latexmk") is None:
        raise SystemExit(
            "handouts: xelatex and latexmk are needed (Debian: apt-get install texlive-xetex "
            "texlive-latex-extra latexmk fonts-freefont-otf; or `make tex`)"
        )
    if latex.exists():
        shutil.rmtree(latex)
    subprocess.run(
        [sys.executable, "-m", "sphinx", "-b", "latex", "-q", "-W", str(src), str(latex)],
        check=True,
    )
    for name in DOCUMENTS:
        subprocess.run(
            ["latexmk", "-xelatex", "-interaction=nonstopmode", "-halt-on-error", "-quiet",
             f"{name}.tex"],
            cwd=latex, check=True, stdout=subprocess.DEVNULL,
        )  # fmt: skip


def write_student_zip(out: Path) -> Path:
    folder = out / "student-notebooks"
    if folder.exists():
        shutil.rmtree(folder)
    written = bx.write_student_notebooks(folder)
    target = out / "student-notebooks.zip"
    with zipfile.ZipFile(target, "w", zipfile.ZIP_DEFLATED) as zf:
        for path in written:
            info = zipfile.ZipInfo(f"menace-student-edition/{path.name}", (2026, 1, 1, 0, 0, 0))
            zf.writestr(info, path.read_bytes(), zipfile.ZIP_DEFLATED)
        wheel = run_yourself.wheel_name(ROOT)
        readme = textwrap.dedent("""\
            MENACE as a Bayesian Observer: the student edition.
            The book's chapters with exercises, as notebooks, their solutions removed.
            Install the library with the notebooks' extras, from the site's wheel (on the
            "Run this book yourself" page) in the folder you saved it to:
                {wheel}
            or from a checkout of the book's repository, in its root:
                {checkout}
            then open a notebook of this folder:
                python -m jupyterlab <notebook>.ipynb
            """).format(
            wheel=run_yourself.INSTALL["@INSTALL_WHEEL@"].format(wheel=wheel),
            checkout=run_yourself.INSTALL["@INSTALL_CHECKOUT@"],
        )
        zf.writestr(zipfile.ZipInfo("menace-student-edition/README.txt", (2026, 1, 1, 0, 0, 0)),
                    readme)  # fmt: skip
    return target


def build(out: Path = OUT) -> list[Path]:
    """Write every handout into ``out``; return the files."""
    out.mkdir(parents=True, exist_ok=True)
    src, latex = out / "src", out / "latex"
    write_sources(src)
    typeset(src, latex)
    files = []
    for name in DOCUMENTS:
        target = out / f"{name}.pdf"
        shutil.copyfile(latex / f"{name}.pdf", target)
        files.append(target)
    files.append(write_student_zip(out))
    return files


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--out", type=Path, default=OUT, help="default _build/handouts")
    parser.add_argument("--sources-only", action="store_true", help="write the Markdown only")
    args = parser.parse_args(argv)
    if args.sources_only:
        write_sources(args.out / "src")
        print(f"handout sources -> {args.out / 'src'}")
        return 0
    for path in build(args.out):
        print(f"handouts: {path}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
