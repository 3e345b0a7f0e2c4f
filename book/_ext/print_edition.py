"""Sphinx glue for the printed book (the LaTeX builder behind ``make pdf``).

Paper cannot run a widget. In a LaTeX build every notebook output that is a widget view
becomes a still picture of the widget as the built site shows it, followed by a link to
the page where it runs. The pictures are taken from the built site by
``scripts/widget_stills.py`` (headless Chromium) into ``_build/stills/``, one per widget,
named ``<page>-<cell index>.png``; a widget without a picture keeps its text summary, and
the link is printed all the same. The HTML build is left untouched.

Every LaTeX build also gets a title page naming the library version and the licence (from
``pyproject.toml``; the licence text is in the repository's LICENSE file), and a
``latex_documents`` entry when the configuration has none.

The caption under each still names the page's address on the site: the ``html_baseurl``
(``html: baseurl:`` in ``_config.yml``, the one place the site's address is written) plus
the page's ``.html`` file. A LaTeX build without that address stops with an error.

The printed book numbers everything as the site does (:func:`number_as_site`): chapters,
sections, figures, tables and equations carry the site's numbers (Sphinx's own numbering
of the HTML build, the same ``_toc.yml``), not LaTeX's count, and proofs and exercises
are numbered from the same table (``numfig_secnum_depth`` as on the site). Every table is
set in columns whose widths follow their text, and breaks across pages (:func:`fit_tables`),
so no table runs off the page or into the footer.
"""

from __future__ import annotations

import json
import re
from pathlib import Path

from docutils import nodes
from sphinx import addnodes
from sphinx.application import Sphinx
from sphinx.errors import ExtensionError

WIDGET_MIME = "application/vnd.jupyter.widget-view+json"
STILLS = Path("_build") / "stills"


def still_name(docname: str, cell_index: int) -> str:
    """The file name of a widget's still picture (shared with scripts/widget_stills.py)."""
    return f"{docname.replace('/', '--')}-{cell_index}.png"


def widget_cells(path: Path) -> list[int]:
    """Indexes of the code cells of a notebook whose output is a widget view."""
    if path.suffix != ".ipynb" or not path.exists():
        return []
    cells = json.loads(path.read_text(encoding="utf-8"))["cells"]
    return [
        k
        for k, cell in enumerate(cells)
        if cell["cell_type"] == "code"
        and any(WIDGET_MIME in out.get("data", {}) for out in cell.get("outputs", []))
    ]


def site_url(app: Sphinx) -> str:
    """The site's address (``html_baseurl``), ending in ``/``; an error if it is not set."""
    base = (app.config.html_baseurl or "").strip()
    if not base.startswith("https://"):
        raise ExtensionError(
            f"print edition: html_baseurl is {base!r}; set the site's address "
            "(html: baseurl: https://...) in _config.yml"
        )
    return base.rstrip("/") + "/"


def page_url(app: Sphinx, docname: str) -> str:
    """The address of a page of the site."""
    return f"{site_url(app)}{docname}.html"


def _link(app: Sphinx, docname: str) -> nodes.paragraph:
    url = page_url(app, docname)
    para = nodes.paragraph(classes=["widget-link", "caption"])
    para += nodes.emphasis(text="Interactive on the book's site: ")
    para += nodes.reference(url, url, refuri=url)
    return para


def mark_cells(app: Sphinx, doctree: nodes.document) -> None:
    """``doctree-read``: every code cell remembers its page (a LaTeX build inlines every
    page into one tree, where a cell's index alone no longer says which notebook it is)."""
    for cell in doctree.findall(nodes.container):
        if cell.get("nb_element") == "cell_code":
            cell["nb_docname"] = app.env.docname


def _page_of(node: nodes.Node, default: str) -> str:
    return node.get("nb_docname", default)


def replace_widgets(app: Sphinx, doctree: nodes.document, docname: str) -> None:
    """``doctree-resolved``: widget outputs become a still picture and a link (LaTeX only)."""
    if app.builder.format == "html":
        return
    stills = Path(app.srcdir) / STILLS
    widgets: dict[str, set[int]] = {}
    for cell in list(doctree.findall(nodes.container)):
        if cell.get("nb_element") != "cell_code":
            continue
        page = _page_of(cell, docname)
        if page not in widgets:
            widgets[page] = set(widget_cells(Path(app.env.doc2path(page))))
        if cell.get("cell_index") not in widgets[page]:
            continue
        output = next(
            (c for c in cell.findall(nodes.container) if c.get("nb_element") == "cell_code_output"),
            None,
        )
        if output is None:
            continue
        still = stills / still_name(page, cell["cell_index"])
        if still.exists():
            # Sphinx copies images it collected at read time; a still is copied here.
            target = Path(app.outdir) / still.name
            target.write_bytes(still.read_bytes())
            output.children = [nodes.image(uri=still.name, candidates={"*": still.name})]
        output += _link(app, page)


_EXERCISE_URI = re.compile(r"^%?[^#]*#(?P<label>[\w-]+)$")


def number_exercises(app: Sphinx, doctree: nodes.document, docname: str) -> None:
    """``doctree-resolved`` (LaTeX only): exercises numbered as on the site.

    In a LaTeX build sphinx-exercise counts exercises per section ("Exercise 1.8.1") and
    links to them by a label the LaTeX writer does not use. Here every exercise's title
    gets the site's number ("Exercise 1.1": chapter, then place in the chapter, from
    ``scripts/book_exercises.py``) and every reference to an exercise becomes a link to
    sphinx-exercise's own LaTeX label with that number as its text.
    """
    if app.builder.format == "html":
        return
    from sphinx_exercise.nodes import exercise_enumerable_node, exercise_latex_number_reference

    numbers = _exercise_numbers(Path(app.srcdir))
    for node in list(doctree.findall(exercise_enumerable_node)):
        label = node.get("label")
        title = next(iter(node.findall(nodes.title)), None)
        if label in numbers and title is not None:
            text = re.sub(r"Exercise [\d.]+", f"Exercise {numbers[label]}", title.astext(), count=1)
            title.children = [nodes.Text(text)]
    for ref in list(doctree.findall(nodes.reference)):
        match = _EXERCISE_URI.match(ref.get("refuri", "")) or re.match(
            r"(?P<label>[\w-]+)$", ref.get("refid", "")
        )
        label = match["label"] if match else None
        if label not in numbers or isinstance(ref, exercise_latex_number_reference):
            continue
        text = ref.astext()
        if re.fullmatch(r"Exercise [\d.?]*", text) or isinstance(ref, addnodes.number_reference):
            text = f"Exercise {numbers[label]}"
        new = exercise_latex_number_reference(refid=label)
        new += nodes.Text(text)
        ref.replace_self(new)


def _exercise_numbers(root: Path) -> dict[str, str]:
    import sys

    sys.path.insert(0, str(root / "scripts"))
    import book_exercises

    return book_exercises.exercise_numbers(book_exercises.exercises(root), root)


def _raw(tex: str) -> nodes.raw:
    return nodes.raw("", tex, format="latex")


def _walk(node: nodes.Element, doc: str, level: int, ancestors: tuple = ()):
    """Every element of the one-tree LaTeX build, top down, as ``(node, parent, page,
    section level, ancestors)``: the page is that of the nearest ``start_of_file`` (the
    tree's own ``parent`` links are not to be trusted once sphinx-jupyterbook-latex has
    moved its nodes), and a page's title is level 0."""
    for child in list(node.children):
        if not isinstance(child, nodes.Element):
            continue
        child_doc, child_level = doc, level
        if isinstance(child, addnodes.start_of_file):
            child_doc, child_level = child["docname"], 0
        yield child, node, child_doc, child_level, ancestors
        if isinstance(child, nodes.section):
            child_level += 1
        yield from _walk(child, child_doc, child_level, (*ancestors, child))


_COUNTERS = ("chapter", "section", "subsection", "subsubsection", "paragraph")
# sphinxlatexstyletext.sty's own definition, and one without the table's name and number.
_CONTINUED_NUMBERED = r"\protected\def\sphinxtablecontinued#1{\textsf{#1}}"
_CONTINUED_PLAIN = r"\protected\def\sphinxtablecontinued#1{\textsf{\literalblockcontinuedname}}"


def number_as_site(app: Sphinx, doctree: nodes.document, docname: str) -> None:
    """``doctree-resolved`` (LaTeX only): the site's numbers, not LaTeX's own count.

    Before every heading the LaTeX counter is set to the site's number (or numbering is
    switched off where the site shows none: front matter, parts, appendices); before every
    numbered figure, table and equation its printed number is set to the site's.
    """
    if app.builder.format == "html":
        return
    env = app.env
    macros = {"figure": r"\thefigure", "table": r"\thetable"}
    inserts = []
    for node, parent, doc, level, _ in _walk(doctree, docname, 0):
        tex = None
        if isinstance(node, nodes.section):
            anchor = "" if level == 0 else "#" + (node["ids"] or [""])[0]
            number = env.toc_secnumbers.get(doc, {}).get(anchor)
            if number:
                tex = rf"\setcounter{{secnumdepth}}{{{len(number) - 1}}}"
                tex += rf"\setcounter{{{_COUNTERS[len(number) - 1]}}}{{{number[-1] - 1}}}"
            elif doc not in env.all_docs:  # a part: its caption says "Part I" already
                tex = r"\setcounter{secnumdepth}{-2}"
            else:
                tex = rf"\setcounter{{secnumdepth}}{{{level - 1}}}"
        elif isinstance(node, (nodes.figure, nodes.table)):
            kind = "figure" if isinstance(node, nodes.figure) else "table"
            number = _fignumber(env, doc, kind, node["ids"])
            if number:
                tex = rf"\renewcommand{{{macros[kind]}}}{{{number}}}"
            if kind == "table":
                # A longtable's running head names its table; an unnumbered one has none.
                tex = (tex or "") + (_CONTINUED_NUMBERED if number else _CONTINUED_PLAIN)
        elif isinstance(node, nodes.math_block) and node.get("label"):
            ids = [f"equation-{node['label']}", *node["ids"]]
            number = _fignumber(env, node.get("docname") or doc, "displaymath", ids)
            if number:
                tex = rf"\renewcommand{{\theequation}}{{{number}}}"
        if tex:
            inserts.append((parent, node, tex))
    for parent, node, tex in inserts:
        parent.insert(parent.index(node), _raw(tex))


def _fignumber(env, doc: str, kind: str, ids: list[str]) -> str | None:
    table = env.toc_fignumbers.get(doc, {}).get(kind, {})
    for node_id in ids:
        if node_id in table:
            return ".".join(map(str, table[node_id]))
    return None


def site_numbering_depth(app: Sphinx) -> None:
    """``builder-inited`` (after sphinx-jupyterbook-latex, which sets 2 for LaTeX): figures,
    proofs, exercises and equations are numbered per chapter, as on the site."""
    if app.builder.format != "html":
        app.config.numfig_secnum_depth = 1


# Tables break across pages (longtable) only where LaTeX allows it: in the text of a page
# or of a notebook cell's output (an indented list environment), not inside a box
# (admonitions, proofs, exercises, figures, lists, sphinx-design), where a table stays whole.
_LONGTABLE_PARENTS = (nodes.section, nodes.document, nodes.compound, addnodes.start_of_file)


def _longtable_allowed(ancestors: tuple) -> bool:
    return all(
        isinstance(a, _LONGTABLE_PARENTS)
        or (a.tagname == "container" and str(a.get("nb_element", "")).startswith("cell_code"))
        or type(a).__name__ in ("HiddenCellNode", "CellOutput")  # sphinx-jupyterbook-latex
        for a in ancestors
    )


def _column_weights(table: nodes.table) -> list[int]:
    """A width for each column from its text: its longest word, or its longest cell up to
    40 characters, whichever is more; so short columns stay narrow and long ones wrap."""
    group = next(iter(table.findall(nodes.tgroup)))
    cols = int(group["cols"])
    longest, words = [1] * cols, [1] * cols
    for row in group.findall(nodes.row):
        col = 0
        for entry in row.children:
            text = " ".join(entry.astext().split())
            span = entry.get("morecols", 0) + 1
            if span == 1 and col < cols:
                longest[col] = max(longest[col], len(text))
                words[col] = max([words[col], *(len(w) for w in text.split())])
            col += span
    return [max(3, w, min(n, 40)) for w, n in zip(words, longest, strict=True)]


def fit_tables(app: Sphinx, doctree: nodes.document, docname: str) -> None:
    """``doctree-resolved`` (LaTeX only): every table gets columns that wrap, widths from its
    text (unless the source gives them), and breaks across pages where LaTeX allows it."""
    if app.builder.format == "html":
        return
    for table, _, _, _, ancestors in list(_walk(doctree, docname, 0)):
        if not isinstance(table, nodes.table):
            continue
        groups = list(table.findall(nodes.tgroup))
        if not groups:
            continue
        if "colwidths-given" not in table["classes"]:
            specs = [c for c in groups[0].children if isinstance(c, nodes.colspec)]
            weights = _column_weights(table)
            if len(specs) == len(weights):
                for spec, weight in zip(specs, weights, strict=True):
                    spec["colwidth"] = weight
                table["classes"].append("colwidths-given")
        if _longtable_allowed(ancestors) and "longtable" not in table["classes"]:
            table["classes"].append("longtable")


def _tex(text: str) -> str:
    for char, escaped in (("\\", r"\textbackslash{}"), ("&", r"\&"), ("%", r"\%"),
                          ("$", r"\$"), ("#", r"\#"), ("_", r"\_")):  # fmt: skip
        text = text.replace(char, escaped)
    return text


def title_page(title: str, author: str, version: str, licence: str) -> str:
    """The LaTeX of the printed book's title page."""
    return rf"""
\begin{{titlepage}}
\centering
\vspace*{{5cm}}
{{\Huge\bfseries {_tex(title)}\par}}
\vspace{{1.5cm}}
{{\Large {_tex(author)}\par}}
\vfill
{{\large Printed from the book's sources with menace\_lib {_tex(version)}\par}}
\vspace{{0.5cm}}
{{\normalsize Licence: {_tex(licence)} (see the LICENSE file of the repository).
Every figure is printed once; every interactive widget is shown as a still picture
with the address of the page where it runs.\par}}
\end{{titlepage}}
"""


def project_facts(root: Path) -> tuple[str, str]:
    """(version, licence) from pyproject.toml."""
    try:
        import tomllib
    except ModuleNotFoundError:  # Python 3.10: the same parser, as a package ([book] extra)
        import tomli as tomllib

    project = tomllib.loads((root / "pyproject.toml").read_text(encoding="utf-8"))["project"]
    licence = project.get("license", {})
    licence = licence.get("text", licence.get("file", "")) if isinstance(licence, dict) else licence
    return project["version"], licence or "see LICENSE"


def configure_latex(app: Sphinx, config) -> None:
    """``config-inited``: the title page, with the version and the licence."""
    version, licence = project_facts(Path(app.confdir))
    config.release = config.release or version
    elements = dict(config.latex_elements or {})
    title = config.html_title or config.project
    elements.setdefault("maketitle", title_page(title, config.author, version, licence))
    elements["preamble"] = elements.get("preamble", "") + PRINT_PREAMBLE
    # Figures stay where the text puts them, as on the site: a figure floating to the top of
    # a page that a longtable continues on makes longtable overfill the page.
    elements.setdefault("figure_align", "H")
    config.latex_elements = elements


# Cell outputs are indented by a narrower \linewidth and \leftskip, not by jupyterBook.cls's
# adjustwidth list: a longtable (a table that breaks across pages) inside a list environment
# loses its page breaks and runs off the page. A picture leaves room for its caption.
PRINT_PREAMBLE = r"""
\renewenvironment{sphinxVerbatimOutput}
  {\par\colorlet{VerbatimBorderColor}{CodeBlockOutputBorderColor}%
   \colorlet{VerbatimColor}{CodeBlockOutputColor}%
   \advance\leftskip 20pt\advance\linewidth -20pt}
  {\par}
\makeatletter
\AtBeginDocument{\spx@image@maxheight=0.8\textheight}
\makeatother
"""

BBM_STAND_IN = r"""\NeedsTeXFormat{LaTeX2e}
\ProvidesPackage{bbm}[2026/01/01 menace_lib: blackboard bold from amssymb, not bbm]
\RequirePackage{amssymb}
\providecommand{\mathbbm}[1]{\mathbb{#1}}
\endinput
"""


def write_bbm_stand_in(app: Sphinx) -> None:
    """``builder-inited``: jupyterBook.cls asks for ``bbm.sty`` (a 1.4 GB Debian package,
    texlive-fonts-extra) only for its ``\\mathbbm`` macros; amssymb's ``\\mathbb`` serves."""
    if app.builder.format != "latex":
        return
    Path(app.outdir).mkdir(parents=True, exist_ok=True)
    (Path(app.outdir) / "bbm.sty").write_text(BBM_STAND_IN, encoding="utf-8")


def setup(app: Sphinx) -> dict:
    app.connect("builder-inited", write_bbm_stand_in)
    app.connect("builder-inited", site_numbering_depth, priority=900)
    app.connect("config-inited", configure_latex)
    app.connect("doctree-read", mark_cells)
    app.connect("doctree-resolved", replace_widgets)
    app.connect("doctree-resolved", number_exercises)
    app.connect("doctree-resolved", number_as_site)
    app.connect("doctree-resolved", fit_tables)
    return {"version": "1", "parallel_read_safe": True, "parallel_write_safe": True}
