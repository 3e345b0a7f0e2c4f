"""The notebooks a teacher downloads, written to read well in JupyterLab.

JupyterLab renders the book's MyST with jupyterlab-myst, which resolves only what one
notebook defines: it has no bibliography, and it cannot see the labels of other pages or of
the figures a code cell draws. There ``{cite}`thesis``` shows as "ⓘ thesis" and
``{numref}`fig-x``` as "ⓘ fig-x", each with a console error. The site resolves them, so the
sources in ``book/`` keep their roles; the copies in the notebooks download
(``run_yourself.py``) get, in their place, the text the site shows, taken from the build:

* ``{cite}`a,b``` -> ``[Mic61, Wos26]``, the site's labels; a "References" cell at the end of
  the notebook lists those entries as the site's bibliography formats them;
* ``{numref}`fig-x``` (or ``{numref}`Figure %s <fig-x>```) -> "Book fig. 19.1";
* ``{ref}`label``` -> the section's title;
* ``{term}`text <term>``` -> the text, a link to the glossary page;
* ``{claim}`id:field``` -> the claims ledger's number, as the site shows it;
* ``{eq}`label``` and ``{prf:ref}`label``` -> "(2.6)", "Theorem 2.1". Even a label of the
  same notebook: JupyterLab renders only the cells in view, and jupyterlab-myst reports a
  label in a cell not yet rendered as not found.

jupyterlab-myst also numbers every ``$$`` block itself, one count per notebook, labelled or
not ("(1)", "(2)", ...). A ``\\tag{4}`` in the math shows beside that number, not instead of
it; the notebook's metadata does not change the numbering, and a YAML front matter cell can
only switch it off. So each display equation becomes a ``{math}`` directive: a labelled one,
which the site numbers, carries the site's number (``:enumerator: 4``, shown as "(4)"); an
unlabelled one, which the site does not number, gets ``:enumerated: false``. Its fence is one
the enclosing directive does not end on (``:::`` inside one fenced with backticks).

The boxes of sphinx-proof and sphinx-exercise get the same treatment. jupyterlab-myst numbers
them per notebook ("Definition 1", "Proof 1"); the site per chapter ("Definition 2.1") and never
a proof. A theorem, definition, exercise, ... carries the site's number (``:enumerator: 2.1``,
from the build's ``toc_fignumbers``: by its label, or by its place among the page's boxes of
its kind); a proof, or a box marked ``:nonumber:``, gets ``:enumerated: false``
("Proof", "Lemma (Title)"). A solution in the gated syntax (``{solution-start}`` ...
``{solution-end}``), which jupyterlab-myst draws as "Start of Solution to ..." and an empty box,
becomes one ``{solution}`` box ("Solution to Exercise 2.1") holding the text of its cell; the
site's title adds the exercise's title in brackets, which jupyterlab-myst cannot show there.

The student edition (``student-notebooks.zip`` of the seminar handouts) gets the same text
in the site's copy (:func:`rewrite_zip`).

A reference to another page links to that page's notebook, which JupyterLab opens.
``{doc}`` stays: jupyterlab-myst renders it as a link. Code the site hides (the tags
``hide-input``, ``remove-input``, ``remove-cell``) is collapsed in JupyterLab.
"""

from __future__ import annotations

import json
import re
import zipfile
from dataclasses import dataclass, field
from pathlib import Path, PurePosixPath

from menace_lib.book.claims.prose import substitute as claim_text

# A MyST role: {name}`body`.
ROLE = re.compile(r"\{(cite(?::\w+)?|numref|ref|term|eq|prf:ref)\}`([^`]+)`")
# "text <label>" inside a role.
EXPLICIT = re.compile(r"^(.*?)\s*<([^<>]+)>$", re.S)
BIBLIOGRAPHY = re.compile(
    r"^(`{3,}|:{3,})\{bibliography\}[^\n]*\n(?:.*?\n)??\1[ \t]*$", re.M | re.S
)
# A display equation: "$$" at the start of a line, the math, "$$" and an optional "(label)".
DISPLAY_MATH = re.compile(
    r"^([ \t]*)\$\$((?:(?!\$\$).)*?)\$\$[ \t]*(?:\(([^()\s]+)\))?[ \t]*$", re.M | re.S
)
# A fence that opens or closes a code block or a directive: its characters and info.
FENCE = re.compile(r"^[ \t]*(`{3,}|:{3,})(.*)$", re.M)
# The head of a numbered box: ```{prf:theorem} Title, ```{exercise} ..., and its options.
BOX = re.compile(
    r"^([ \t]*)(`{3,}|:{3,})\{(prf:[\w-]+|exercise)\}([^\n]*)\n((?:[ \t]*:[\w-]+:[^\n]*\n)*)",
    re.M,
)
# A solution in sphinx-exercise's gated syntax: its start (a head with options, closed at
# once), then what follows in the same text up to its end gate or the end of the text.
SOLUTION_START = re.compile(
    r"^(?P<indent>[ \t]*)(?P<fence>`{3,}|:{3,})\{solution-start\}(?P<arg>[^\n]*)\n"
    r"(?P<options>(?:[ \t]*:[\w-]+:[^\n]*\n)*)[ \t]*(?P=fence)[ \t]*(?:\n|\Z)"
    r"(?P<body>.*?)"
    r"(?P<end>^[ \t]*(?P<f2>`{3,}|:{3,})\{solution-end\}[^\n]*\n[ \t]*(?P=f2)[ \t]*$|\Z)",
    re.M | re.S,
)
# The end gate of a solution whose start is in another cell.
SOLUTION_END = re.compile(r"^[ \t]*(`{3,}|:{3,})\{solution-end\}[^\n]*\n[ \t]*\1[ \t]*$", re.M)
BOX_OPTION = re.compile(r"^[ \t]*:([\w-]+):", re.M)
GLOSSARY = "glossary.md"
# The site hides these cells' code; JupyterLab collapses it (a click shows it).
_HIDDEN_INPUT = {"remove-input", "hide-input", "remove-cell"}
# Numbered things sphinx-proof draws, named on the site with a capital ("Theorem 2.1").
_PLAIN_NAMES = {"figure", "table", "code-block", "exercise", "section"}


@dataclass
class BookLabels:
    """What the site resolves each reference to, read from a Sphinx build's environment."""

    numbers: dict[str, tuple[str, str, str]] = field(default_factory=dict)
    """label -> (docname, kind, number as the site prints it, e.g. ``"19.1"``)."""
    titles: dict[str, tuple[str, str]] = field(default_factory=dict)
    """label -> (docname, title) for ``{ref}``."""
    formats: dict[str, str] = field(default_factory=dict)
    """kind -> ``numfig_format`` of the site (``"Book fig. %s"``)."""
    citations: dict[str, tuple[str, str]] = field(default_factory=dict)
    """bibliography key -> (label as on the site, the entry as plain text)."""
    files: dict[str, str] = field(default_factory=dict)
    """docname -> source file name (``"book/dirichlet" -> "dirichlet.ipynb"``)."""
    sequence: dict[tuple[str, str], list[str]] = field(default_factory=dict)
    """(docname, kind) -> the numbers of that page's things of that kind, in page order."""
    counters: dict[str, str] = field(default_factory=dict)
    """sphinx-proof's kind -> the kind whose count it shares (``prf_realtyp_to_countertyp``)."""

    def numbered(self, label: str) -> str:
        """The site's name of a numbered thing: ``"Book fig. 19.1"``, ``"(2.6)"``."""
        _, kind, number = self.numbers[label]
        if kind == "displaymath":
            return f"({number})"
        name = self.formats.get(kind, f"{kind} %s")
        if kind not in _PLAIN_NAMES:
            name = name[:1].upper() + name[1:]
        return name.replace("%s", number)


def from_sphinx(env) -> BookLabels:
    """The labels of a finished Sphinx build (``app.env``)."""
    counters = dict(getattr(env.config, "prf_realtyp_to_countertyp", None) or {})
    found = BookLabels(formats=dict(env.config.numfig_format), counters=counters)
    for docname, kinds in env.toc_fignumbers.items():
        for kind, ids in kinds.items():
            in_order = sorted(ids.values())
            found.sequence[docname, kind] = [".".join(map(str, n)) for n in in_order]
            for node_id, number in ids.items():
                label = node_id.removeprefix("equation-") if kind == "displaymath" else node_id
                found.numbers[label] = (docname, kind, ".".join(map(str, number)))
    for label, (docname, _, title) in env.domaindata["std"]["labels"].items():
        if title:
            found.titles[label] = (docname, str(title))
    for citation in env.domaindata.get("cite", {}).get("citations", []):
        entry = citation.formatted_entry
        found.citations[citation.key] = (entry.label, entry.text.render_as("text"))
    for docname in env.found_docs:
        found.files[docname] = PurePosixPath(env.doc2path(docname, base=False)).name
    return found


def _escape(text: str) -> str:
    return re.sub(r"([\\`*_\[\]<>])", r"\\\1", text)


def _enclosing_fences(text: str, end: int) -> list[tuple[str, str]]:
    """The fences (characters, info) still open at ``text[end]``, outermost first."""
    open_ = []
    for match in FENCE.finditer(text, 0, end):
        fence, info = match[1], match[2].strip()
        closes = open_ and fence[0] == open_[-1][0][0] and len(fence) >= len(open_[-1][0])
        if closes and not info:
            open_.pop()
        else:
            open_.append((fence, info))
    return open_


def _math_fence(enclosing: list[tuple[str, str]]) -> str | None:
    """A fence for a ``{math}`` directive that none of the enclosing fences takes as its end."""
    for char in ":`":
        if all(fence[0] != char or len(fence) > 3 for fence, _ in enclosing):
            return char * 3
    return None


def _enumerated_false(option: re.Match) -> str:
    """``:nonumber:`` (Sphinx) as jupyterlab-myst spells it; any other option as it is."""
    return option[0].replace(":nonumber:", ":enumerated: false")


def _in_code(match: re.Match) -> bool:
    """Whether a match lies inside a code block (text there, not MyST)."""
    enclosing = _enclosing_fences(match.string, match.start())
    return any(not info.startswith("{") or info.startswith("{code") for _, info in enclosing)


def _solution(match: re.Match) -> str:
    """A gated solution as one ``{solution}`` box: "Solution to Exercise 2.1".

    jupyterlab-myst renders each cell alone: a gate whose end is in another cell shows as
    "Start of Solution to ...". The solution's text in the same cell goes into the box; a box
    with nothing in it (the solution is code in the next cells) is not a dropdown, which would
    open onto nothing. An end gate in the same cell goes: the box is closed."""
    indent, fence, options = match["indent"], match["fence"], match["options"]
    body = match["body"].strip("\n")
    if not body:
        options = re.sub(r"^([ \t]*:class:.*?)[ \t]*\bdropdown\b", r"\1", options, flags=re.M)
        options = re.sub(r"^[ \t]*:class:[ \t]*\n", "", options, flags=re.M)
    else:
        runs = re.findall(rf"^[ \t]*({re.escape(fence[0])}+)", body, re.M)
        fence = fence[0] * max([len(fence)] + [len(run) + 1 for run in runs])
        options += f"\n{body}\n"
    return f"{indent}{fence}{{solution}}{match['arg']}\n{options}{indent}{fence}"


def _link(text: str, docname: str, here: str, labels: BookLabels) -> str:
    """``text``, linking to ``docname``'s file when it is another page."""
    if docname == here or docname not in labels.files:
        return text
    return f"[{text}]({labels.files[docname]})"


class _Page:
    """Rewrites the roles of one page, remembering what it cites."""

    def __init__(self, docname: str, labels: BookLabels) -> None:
        self.docname, self.labels, self.cited = docname, labels, []
        self.boxes: dict[str, int] = {}  # kind -> position of the last box of that kind

    def cite(self, body: str) -> str:
        shown = []
        for key in (k.strip() for k in re.split(r"[,;]", body)):
            label = self.labels.citations.get(key, (key, ""))[0]
            if key not in self.cited:
                self.cited.append(key)
            shown.append(label)
        return _escape(f"[{', '.join(shown)}]")

    def role(self, match: re.Match) -> str:
        name, body = match[1], match[2]
        if name.startswith("cite"):
            return self.cite(body)
        explicit = EXPLICIT.match(body)
        text, label = (explicit[1], explicit[2]) if explicit else ("", body.strip())
        key = label.lower() if name == "term" else label
        if name == "term":
            return f"[{text or label}]({GLOSSARY})"
        if name == "ref":
            if key in self.labels.titles:
                docname, title = self.labels.titles[key]
            elif key in self.labels.numbers:
                docname, title = self.labels.numbers[key][0], self.labels.numbered(key)
            else:
                return text or label
            return _link(text or _escape(title), docname, self.docname, self.labels)
        if key not in self.labels.numbers:
            return text or label  # not a numbered thing the build knows: its words
        docname, _, number = self.labels.numbers[key]
        if text and name != "numref":
            return _link(text, docname, self.docname, self.labels)
        shown = text.replace("%s", number).replace("{number}", number) if text else None
        return _link(shown or self.labels.numbered(key), docname, self.docname, self.labels)

    def equation(self, match: re.Match) -> str:
        enclosing = _enclosing_fences(match.string, match.start())
        if any(not info.startswith("{") or info.startswith("{code") for _, info in enclosing):
            return match[0]  # inside a code block: text, not math
        indent, math, label = match[1], match[2].strip("\n"), match[3]
        if "\n" not in math:  # $$ x $$ on one line
            math = indent + math.strip()
        found = self.labels.numbers.get(label or "")
        if found and found[0] == self.docname:
            options = [f":label: {label}", f":enumerator: {found[2]}"]
        else:  # an equation the site does not number
            options = [f":label: {label}"] * bool(label) + [":enumerated: false"]
        fence = _math_fence(enclosing)
        if fence is None:
            shown = " and ".join(f for f, _ in enclosing)
            raise ValueError(f"{self.docname}: a $$ equation inside {shown}: no fence left")
        head = "\n".join(indent + line for line in [f"{fence}{{math}}", *options])
        return f"{head}\n{math}\n{indent}{fence}"

    def box(self, match: re.Match) -> str:
        """A theorem, definition, proof, exercise, ... head with the site's number."""
        if _in_code(match):
            return match[0]
        indent, name, options = match[1], match[3], match[5]
        given = {m[1] for m in BOX_OPTION.finditer(options)}
        if given & {"enumerator", "enumerated"}:
            return match[0]
        head = match[0][: len(match[0]) - len(options)]
        if name == "prf:proof" or "nonumber" in given:  # the site: "Proof", "Lemma (Title)"
            options = BOX_OPTION.sub(_enumerated_false, options)
            if "nonumber" not in given:
                options = f"{indent}:enumerated: false\n" + (options or "\n")
            return head + options
        number = self.box_number(name.removeprefix("prf:"), options)
        extra = f":enumerator: {number}" if number else ":enumerated: false"
        return f"{head}{indent}{extra}\n{options or chr(10)}"

    def box_number(self, kind: str, options: str) -> str | None:
        """The site's number of the next box of ``kind`` on this page."""
        kind = self.labels.counters.get(kind, kind)
        position = self.boxes[kind] = self.boxes.get(kind, -1) + 1
        label = re.search(r"^[ \t]*:label:[ \t]*(\S+)", options, re.M)
        found = self.labels.numbers.get(label[1]) if label else None
        if found and found[0] == self.docname:
            return found[2]
        numbers = self.labels.sequence.get((self.docname, kind), [])
        return numbers[position] if position < len(numbers) else None

    def markdown(self, text: str) -> str:
        text = DISPLAY_MATH.sub(self.equation, text)
        text = BOX.sub(self.box, text)
        text = SOLUTION_START.sub(lambda m: m[0] if _in_code(m) else _solution(m), text)
        # jupyterlab-myst draws an end gate as an empty box; the solution's box is closed.
        text = SOLUTION_END.sub(lambda m: m[0] if _in_code(m) else "", text)
        text = ROLE.sub(self.role, text)
        text = claim_text(text)  # {claim}`id:field` -> the ledger's number, as the site shows it
        every = sorted(self.labels.citations, key=lambda key: self.labels.citations[key][0])
        return BIBLIOGRAPHY.sub(lambda _: self.bibliography(every), text)

    def bibliography(self, keys) -> str:
        lines = []
        for key in keys:
            label, entry = self.labels.citations.get(key, (key, ""))
            lines.append(f"- {_escape(f'[{label}]')} {_escape(entry)}".rstrip())
        return "\n".join(lines)


def lab_markdown(text: str, docname: str, labels: BookLabels) -> tuple[str, list[str]]:
    """A Markdown text with its references resolved; and the keys it cites, in order."""
    page = _Page(docname, labels)
    return page.markdown(text), page.cited


def lab_notebook(nb: dict, docname: str, labels: BookLabels) -> dict:
    """A copy of a notebook (nbformat 4 JSON) whose Markdown reads well in JupyterLab."""
    page = _Page(docname, labels)
    nb = json.loads(json.dumps(nb))
    for cell in nb["cells"]:
        if _HIDDEN_INPUT & set(cell["metadata"].get("tags", [])):
            cell["metadata"].setdefault("jupyter", {})["source_hidden"] = True
        if cell["cell_type"] == "markdown":
            text = cell["source"] if isinstance(cell["source"], str) else "".join(cell["source"])
            cell["source"] = page.markdown(text)
    # A cell left empty (a solution's end gate): JupyterLab would show it as an empty editor.
    nb["cells"] = [c for c in nb["cells"] if c["cell_type"] != "markdown" or c["source"].strip()]
    if page.cited:
        cell = {"cell_type": "markdown", "metadata": {}, "source": ""}
        cell["source"] = "## References\n\n" + page.bibliography(page.cited)
        nb["cells"].append(cell)
    return nb


def lab_file(name: str, data: bytes, docname: str, labels: BookLabels) -> bytes:
    """A page of the download (``.ipynb`` or ``.md``) rewritten; any other file as it is."""
    if name.endswith(".ipynb"):
        nb = lab_notebook(json.loads(data.decode("utf-8")), docname, labels)
        return (json.dumps(nb, indent=1, ensure_ascii=False) + "\n").encode("utf-8")
    if name.endswith(".md"):
        original = data.decode("utf-8")
        text, cited = lab_markdown(original, docname, labels)
        if cited and not BIBLIOGRAPHY.search(original):
            text = text.rstrip("\n") + "\n\n## References\n\n"
            text += _Page(docname, labels).bibliography(cited) + "\n"
        return text.encode("utf-8")
    return data


def rewrite_zip(path: Path, labels: BookLabels, folder: str = "book") -> int:
    """Rewrite, in place, the book's pages inside a zip (a file ``<anything>/<page>.ipynb``
    or ``.md`` whose page is ``<folder>/<page>`` of the build); the number rewritten."""
    with zipfile.ZipFile(path) as zf:
        entries = [(info, zf.read(info)) for info in zf.infolist()]
    done = 0
    with zipfile.ZipFile(path, "w", compression=zipfile.ZIP_DEFLATED) as zf:
        for info, data in entries:
            name = PurePosixPath(info.filename)
            docname = f"{folder}/{name.stem}"
            if name.suffix in (".ipynb", ".md") and docname in labels.files:
                data = lab_file(info.filename, data, docname, labels)
                done += 1
            zf.writestr(info, data)
    return done
