"""The reading text speaks to a newcomer: no code names, ledger ids, file paths or history.

Issue 34: the pages a reader reads (every page of ``_toc.yml`` except the API reference and
"Run this book yourself", which are about the code) must not show

* inline code that names the library: a module (``ml.``, ``menace_lib``), a call (``foo(``),
  an option (``restock="box"``), a command (``python -m ...``, ``--flag``), a Python
  identifier (``snake_case``, ``CamelCase``) or a name the library exports;
* a ledger id (the ids of ``menace_lib/book/claims/catalogue.json``), a test or file path;
* the book's own history ("an earlier version of this chapter", "an independent audit").

Exercises ask the reader to compute, so they may name the library, but only by names that
exist under ``import menace_lib as ml``: every ``ml.x.y`` an exercise or its solution
mentions resolves on the imported package.

Every term of the glossary (``book/glossary.md``) is linked (``{term}``) at its first use on
a page, unless the page defines it (the term in bold at that use). Printed text outputs
(stored in the notebooks) fit the column: no line wider than 80 characters. The API
reference is a side road: the theme's Prev/Next from a reading page never lands in it.
"""

from __future__ import annotations

import html
import json
import re
import warnings
from functools import cache
from pathlib import Path

import pytest
import yaml

import menace_lib as ml

ROOT = Path(__file__).resolve().parents[1]
BOOK = ROOT / "book"
# Pages about the code itself: they may show it.
CODE_PAGES = {"api_reference", "run_yourself"}
MAX_OUTPUT_WIDTH = 80


def _toc_files() -> list[str]:
    toc = yaml.safe_load((ROOT / "_toc.yml").read_text(encoding="utf-8"))
    files = [toc["root"]]
    for part in toc["parts"]:
        files += [c["file"] for c in part["chapters"]]
    return [f.removeprefix("book/") for f in files]


READING = [p for p in _toc_files() if p not in CODE_PAGES]


def _path(stem: str) -> Path:
    md = BOOK / f"{stem}.md"
    return md if md.exists() else BOOK / f"{stem}.ipynb"


def _notebook(stem: str) -> dict | None:
    path = _path(stem)
    return json.loads(path.read_text(encoding="utf-8")) if path.suffix == ".ipynb" else None


def markdown(stem: str) -> str:
    """The typed text of a page: a Markdown page, or a notebook's Markdown cells in order."""
    nb = _notebook(stem)
    if nb is None:
        return _path(stem).read_text(encoding="utf-8")
    return "\n\n".join("".join(c["source"]) for c in nb["cells"] if c["cell_type"] == "markdown")


# ---------------------------------------------------------------- cutting the text apart

_FENCE = re.compile(
    r"^(?P<f>`{3,}|~{3,}|:{3,})(?P<info>[^\n]*)\n(?P<body>.*?)^(?P=f)[ \t]*$", re.M | re.S
)
_EXERCISE_INFO = re.compile(r"\{(exercise|solution|solution-start|solution-end)\}")
_SOLUTION = re.compile(
    r"^(`{3,}|:{3,})\{solution-start\}.*?^(`{3,}|:{3,})\{solution-end\}[^\n]*\n.*?^\2[ \t]*$",
    re.M | re.S,
)


def exercise_blocks(text: str) -> list[str]:
    """The exercises and their solutions (both may name the library)."""
    blocks = [m[0] for m in _SOLUTION.finditer(text)]
    rest = _SOLUTION.sub("", text)
    blocks += [m[0] for m in _FENCE.finditer(rest) if "{exercise}" in m["info"]]
    return blocks


# Directives whose argument is a path, code or maths, not a title a reader reads.
_NO_TITLE = {
    "figure",
    "image",
    "math",
    "toctree",
    "raw",
    "include",
    "glossary",
    "bibliography",
    "literalinclude",
    "iframe",
    "glue:figure",
    "glue:any",
    "glue:text",
    "glue:math",
    "glue",
}


def prose(text: str) -> str:
    """The text a reader reads: exercises, code blocks, comments and claim roles removed.

    Directives (figures, notes, tables) hold prose and stay; a fenced block of code goes,
    except a block that only holds install lines (``@NAME@``, filled from their owner).
    """
    text = re.sub(r"<!--.*?-->", "", text, flags=re.S)
    text = _SOLUTION.sub("", text)

    def fence(m: re.Match) -> str:
        info = m["info"].strip()
        if _EXERCISE_INFO.search(info):
            return ""
        if info.startswith("{") and not info.startswith(("{code", "{eval-rst}")):
            name, _, title = info[1:].partition("}")
            # A directive's title (an admonition's, a table's, a dropdown's) is read too.
            title = "" if name in _NO_TITLE else title.strip()
            if name == "prf:definition" and title:
                title = f"**{title}**"  # a definition's title defines its term
            return "\n" + (title + "\n\n" if title else "") + prose(m["body"])
        body = m["body"].strip()
        if all(re.fullmatch(r"@[A-Z_]+@", line.strip()) for line in body.splitlines()):
            return ""
        return "\n" + body + "\n"  # code in the prose: checked like inline code

    text = _FENCE.sub(fence, text)
    # The ledger's role shows the ledger's text, not the id it names.
    return re.sub(r"\{claim\}`[^`]*`", "CLAIM", text)


def inline_code(text: str) -> list[str]:
    """Inline code spans (roles such as {term}`x` and {doc}`x` are links, not code)."""
    text = re.sub(r"\{[\w:-]+\}`[^`]*`", "", text)
    return re.findall(r"(?<!`)`([^`\n]+)`(?!`)", text)


def fenced_code(text: str) -> list[str]:
    text = re.sub(r"<!--.*?-->", "", text, flags=re.S)
    text = _SOLUTION.sub("", text)
    out = []
    for m in _FENCE.finditer(text):
        info = m["info"].strip()
        if info.startswith("{") and not info.startswith("{code"):
            out += fenced_code(m["body"])
        elif not all(re.fullmatch(r"@[A-Z_]+@", s.strip()) for s in m["body"].strip().splitlines()):
            out.append(m["body"])
    return out


# ---------------------------------------------------------------- what counts as code


@cache
def library_names() -> frozenset[str]:
    """Every public name of the library's folders and modules (functions, classes, modules)."""
    names: set[str] = set()
    seen: set[int] = set()

    def walk(obj, depth: int) -> None:
        if id(obj) in seen or depth > 3:
            return
        seen.add(id(obj))
        for name in dir(obj):
            if name.startswith("_"):
                continue
            try:
                value = getattr(obj, name)
            except Exception:  # noqa: BLE001 - an optional extra's module may not import
                continue
            mod = getattr(value, "__name__", "") if isinstance(value, type(ml)) else ""
            if mod.startswith("menace_lib"):
                names.add(name)
                walk(value, depth + 1)
            elif getattr(value, "__module__", "") and str(value.__module__).startswith(
                "menace_lib"
            ):
                names.add(name)

    walk(ml, 0)
    return frozenset(n for n in names if len(n) > 3)


_CODE = re.compile(
    r"""\bml\.|menace_lib|\w\(|\b\w+\s*=\s*\S|(^|\s)--?[a-z]|\bpython3?\b|\bpip\b|\bimport\b|
    ^make\b|\b[a-z][a-z0-9]*_[a-z0-9_]+\b|\b[A-Z][a-z0-9]+[A-Z]\w*|\b[a-z_]+\.[a-z_]+\b|
    \b[a-z_]{2,}/""",
    re.X,
)


def code_names(text: str) -> list[str]:
    """The inline code and code blocks of a text that name the library or are code."""
    found = []
    for span in inline_code(text) + fenced_code(text):
        if re.fullmatch(r"#[0-9A-Fa-f]{6}", span.strip()):
            continue  # a colour, as the glossary's swatches print it
        if _CODE.search(span) or span.strip() in library_names():
            found.append(span.strip()[:60])
    return found


@cache
def ledger_ids() -> tuple[str, ...]:
    rows = json.loads((ROOT / "menace_lib/book/claims/catalogue.json").read_text("utf-8"))
    ids = {c.get("id") or c.get("row") for c in rows["claim"]}
    return tuple(sorted(ids, key=len, reverse=True))


def named_ids(text: str) -> list[str]:
    pattern = "|".join(re.escape(i) for i in ledger_ids())
    return re.findall(rf"(?<![\w.#/-])({pattern})(?![\w-])", text)


_PATHS = re.compile(
    r"\btests/\S*|\bscripts/\S*|\bbook/data\b\S*|\bmenace_lib/\S*|\b[\w/]+\.(?:py|json|yml|cfg)\b"
)
_HISTORY = re.compile(
    r"earlier (?:version|edition|draft|round)s? of|\bindependent audit|\bwas asked to check|"
    r"\bthis release\b|\bprevious (?:round|version|release)|\bthe audit\b|\bearlier round|"
    r"\bnow (?:fixed|corrected)\b|\bthe (?:old|earlier) (?:explanation|tuner|text|wording|page)|"
    r"\bthe earlier \"|\baudit trails?\b|\bused to (?:say|read|print)\b|\bissue \d+|\ban earlier\b",
    re.I,
)


def history(text: str) -> list[str]:
    return [m[0] for m in _HISTORY.finditer(text)]


# ---------------------------------------------------------------- the checks on the prose


def test_the_checks_catch_what_the_issue_found():
    assert code_names('cites `ml.game_tables("hexapawn")` and `ml.exact_curve`') == [
        'ml.game_tables("hexapawn")',
        "ml.exact_curve",
    ]
    assert code_names('with `restock="box"`, see `update_audit` and `ForgetfulAIF`')
    assert code_names("the `Menace` class") == ["Menace"]
    assert not code_names("the board `X.O/.X./..O`, the squares `X` and `O`, {term}`pp`")
    assert named_ids("7.5.1-comparable: differs") == ["7.5.1-comparable"]
    assert not named_ids("Table 7.5 and section 9.8.2")
    assert _PATHS.findall("(`tests/test_connect4.py`) and book/data/x.json") == [
        "tests/test_connect4.py`)",
        "book/data/x.json",
    ]
    assert history("the earlier version of this chapter, after an independent audit")
    assert history("the counts this chapter was asked to check")
    assert history('the earlier tuner\'s answer; the earlier "optimum" of 1/8 bead')
    assert not history("the audit of the update, earlier in this chapter")[1:]
    assert not named_ids(prose("{claim}`7.5.1-comparable:verdict`"))


@pytest.mark.parametrize("page", READING)
def test_no_code_in_the_prose(page):
    found = code_names(prose(markdown(page)))
    assert not found, f"{page}: code in the reading text: {found}"


@pytest.mark.parametrize("page", READING)
def test_no_ledger_id_path_or_history_in_the_prose(page):
    text = prose(markdown(page))
    problems = [f"ledger id {i!r}" for i in named_ids(text)]
    problems += [f"path {p!r}" for p in _PATHS.findall(text)]
    problems += [f"history {h!r}" for h in history(text)]
    assert not problems, f"{page}: {problems}"


# ---------------------------------------------------------------- exercises name real names

# Outside libraries an exercise may use as they are (NumPy, SciPy, the standard library).
OUTSIDE = {"np", "numpy", "scipy", "math", "plt", "matplotlib", "pd", "pandas", "itertools"}


def _resolve(dotted: str) -> bool:
    """Whether ``ml.a.b`` names something, by its current path (a moved name's old path fails)."""
    obj = ml
    with warnings.catch_warnings():
        warnings.simplefilter("error", DeprecationWarning)
        for part in dotted.split(".")[1:]:
            try:
                obj = getattr(obj, part)
            except (AttributeError, DeprecationWarning):
                return False
    return True


@cache
def _module_leaves() -> frozenset[str]:
    """Last parts of the library's module names (``dirichlet``, ``correspondence``, ...)."""
    import pkgutil

    return frozenset(
        m.name.rsplit(".", 1)[-1]
        for m in pkgutil.walk_packages(ml.__path__, "menace_lib.")
        if not m.name.rsplit(".", 1)[-1].startswith("_")
    )


def exercise_names(text: str) -> list[str]:
    """Dotted names an exercise mentions that read as the library's (``ml.x``, ``dr.x``)."""
    out = []
    for block in exercise_blocks(text):
        code = " ".join(inline_code(block) + fenced_code(block))
        for m in re.finditer(r"(?<![\w.])([A-Za-z_]\w*)((?:\.[A-Za-z_]\w*)+)", code):
            head = m[1]
            if head in ("ml", "menace_lib") or head in _module_leaves() | {"dr", "corr"}:
                out.append(m[0])
    return out


def test_the_exercise_check_finds_the_old_names():
    text = "````{exercise} X\n:label: ex-x\n\nUse `dr.mutual_information` and `np.log`.\n````\n"
    assert exercise_names(text) == ["dr.mutual_information"]
    assert _resolve("ml.maths.dirichlet.mutual_information")
    assert not _resolve("ml.maths.dirichlet.mutual_information_of_nothing")
    assert not _resolve("ml.dirichlet.mutual_information")  # the module's old path


@pytest.mark.parametrize("page", READING)
def test_every_name_an_exercise_mentions_exists_under_ml(page):
    bad = [
        n
        for n in exercise_names(markdown(page))
        if n.split(".")[0] not in ("ml", "menace_lib") or not _resolve("ml" + n[n.index(".") :])
    ]
    assert not bad, (
        f"{page}: exercises name {bad}: write them as names under `import menace_lib as ml`"
    )


def test_the_exercise_list_names_only_real_names():
    # book/exercises.md lists the exercises; it must not name the library's old paths either.
    assert not code_names(prose(markdown("exercises")))


# ---------------------------------------------------------------- glossary links


@cache
def glossary_entries() -> tuple[tuple[str, ...], ...]:
    """The glossary's entries, each the terms it defines: its name and its other names."""
    return ml.book.glossary.read(BOOK / "glossary.md")


def glossary_terms() -> tuple[str, ...]:
    return ml.book.glossary.names(glossary_entries())


@cache
def _markdown_format() -> str:
    config = yaml.safe_load((ROOT / "_config.yml").read_text(encoding="utf-8"))
    return config["sphinx"]["config"].get("nb_render_markdown_format", "commonmark")


def _printed(text: str) -> str:
    """Printed text as the reading text holds it: words only, no markup to misread."""
    return "\n\n" + re.sub(r"[`$*\\]|^[#:]+", " ", text, flags=re.M) + "\n\n"


def _html_text(page: str) -> str:
    """HTML a cell shows, as words; a link to a glossary term stays a link."""
    page = re.sub(r"<(script|style)\b.*?</\1>", " ", page, flags=re.S)
    page = re.sub(
        r'<a [^>]*href="[^"]*glossary\.html#term-[^"]*"[^>]*>(.*?)</a>', "\x02\\1\x03", page
    )
    text = _printed(html.unescape(re.sub(r"<[^>]*>", " ", page)))
    return re.sub("\x02(.*?)\x03", lambda m: "{term}`" + m[1].strip() + "`", text, flags=re.S)


def _shown(nb: dict, cell: dict) -> list[str]:
    """What a code cell shows a reader: its tables and printed text, then its caption.

    Markdown a cell returns is read as MyST (roles work) only where the cell or the notebook
    asks for it; elsewhere a role would print as it is typed, so it is no link.
    """
    if {"remove-output", "remove-cell"} & set(cell["metadata"].get("tags", [])):
        return []
    options = cell["metadata"].get("mystnb", {})
    fmt = (
        options.get("markdown_format")
        or nb["metadata"].get("mystnb", {}).get("render_markdown_format")
        or _markdown_format()
    )
    out = []
    for o in cell.get("outputs", []):
        data = o.get("data", {})
        if any("widget" in k for k in data):
            continue
        if "text/html" in data:  # the site shows HTML before Markdown
            out.append(_html_text("".join(data["text/html"])))
        elif "text/markdown" in data:
            text = "".join(data["text/markdown"])
            out.append(text if fmt == "myst" else re.sub(r"\{[\w:-]+\}`([^`]*)`", r"\1", text))
    out += [_printed(t) for t in _text_outputs(cell)]
    caption = options.get("figure", {}).get("caption")
    return out + ([str(caption)] if caption else [])


def _claim_text(m: re.Match) -> str:
    from menace_lib.book.claims import prose as claim_prose

    return "".join(s if kind == "text" else " " for kind, s in claim_prose.parts(m[1]))


def reading_text(stem: str) -> str:
    """Everything a page shows a reader, in order, as MyST.

    A notebook's Markdown cells and what its code cells show (Markdown and HTML tables, printed
    text, figure captions); a ledger number ({claim}) as the words it renders as.
    """
    nb = _notebook(stem)
    if nb is None:
        text = _path(stem).read_text(encoding="utf-8")
    else:
        parts = []
        for cell in nb["cells"]:
            if cell["cell_type"] == "markdown":
                parts.append("".join(cell["source"]))
            elif cell["cell_type"] == "code":
                parts += _shown(nb, cell)
        text = "\n\n".join(parts)
    return re.sub(r"\{claim\}`([^`]*)`", _claim_text, text)


def _unlinked_text(text: str) -> str:
    """The prose a term is looked for in; a {term} role becomes a marker the search sees."""
    text = prose(text)
    text = re.sub(
        r"\{term\}`([^`<]*?)(?:\s*<([^>]+)>)?`", lambda m: f"\x00{m[2] or m[1]}\x01", text
    )
    text = re.sub(r"^#+ .*$", "", text, flags=re.M)  # headings
    text = re.sub(r"^:[\w-]+:.*$", "", text, flags=re.M)  # directive options
    # maths (inline maths may run over a line break)
    text = re.sub(r"\$\$.*?\$\$|\$(?!\s)[^$]+?(?<!\s)\$", " ", text, flags=re.S)
    # A cross-reference's own words are read (a term in them is no link to the glossary).
    text = re.sub(r"\{(?:doc|ref|numref|download)\}`([^`<]+?)\s*<[^>`]*>`", r"\1", text)
    text = re.sub(r"<[^>\n]+>", " ", text)  # HTML tags
    text = re.sub(r"\{[\w:-]+\}`[^`]*`", " ", text)  # other roles
    text = re.sub(r"`[^`\n]+`", " ", text)  # inline code
    text = re.sub(r"\]\([^)]*\)", "]", text)  # link targets
    return text


def unlinked_first_uses(text: str) -> list[str]:
    """Glossary terms whose first use on a page is neither a {term} link nor a definition."""
    text = _unlinked_text(text)
    links = [(m.start(), m[1]) for m in re.finditer(r"\x00([^\x01]*)\x01", text)]
    plain = re.sub(r"\x00[^\x01]*\x01", lambda m: " " * len(m[0]), text)
    missing = []
    for entry in glossary_entries():
        # Another name is matched as written: "Oracle" is the agent, "an oracle" is not.
        patterns = ml.book.glossary.patterns(entry)
        names = {t.lower() for t in entry}
        linked = [
            at for at, s in links if s.lower() in names or any(p.fullmatch(s) for p in patterns)
        ]
        uses = [m for p in patterns if (m := p.search(plain))]
        if not uses:
            continue
        first = min(uses, key=lambda m: m.start())
        if linked and linked[0] < first.start():
            continue
        # A page that defines the term (in bold or italics) at its first use needs no link.
        if plain[max(0, first.start() - 1) : first.start()] == "*":
            continue
        where = plain[max(0, first.start() - 40) : first.end() + 20]
        missing.append(f"{' '.join(first[0].split())!r} ({entry[0]}) at …{where!r}…")
    return missing


def test_the_glossary_check_sees_links_and_first_uses():
    assert "Michie filter" in glossary_terms() and "pp" in glossary_terms()
    assert unlinked_first_uses("MENACE keeps the Michie filter.")
    assert not [
        m
        for m in unlinked_first_uses("{term}`MENACE` keeps the {term}`Michie filter`; MENACE.")
        if "MENACE" in m or "Michie" in m
    ]
    assert not unlinked_first_uses("**Regret** is defined here; regret grows.")
    assert not unlinked_first_uses("*Thompson sampling* is defined here.")
    assert not unlinked_first_uses("# Regret\n\n$x$ and `regret`")
    assert not unlinked_first_uses("$G = \\text{risk} +\n\\text{regret}$")


def test_the_glossary_check_reads_tables_titles_captions_and_other_names():
    # What escaped it: a term first met in a table cell, an admonition's title, a link's
    # words, a table a code cell prints, a figure's caption, or under another of its names.
    assert unlinked_first_uses("| Agent | Draws |\n|---|---|\n| MENACE | 84 |\n")
    assert unlinked_first_uses("```{admonition} Why MENACE?\nBecause.\n```\n")
    assert unlinked_first_uses("See {doc}`how MENACE learns <menace_mechanism>`.")
    assert not unlinked_first_uses("```{prf:definition} Regret\nWhat a learner loses.\n```\n")
    assert unlinked_first_uses("A gap of 4 pp.")
    nb = {"metadata": {}}
    table = {"data": {"text/markdown": "| Filter | Draws |\n|---|---|\n| Michie filter | 84 |"}}
    cell = {"cell_type": "code", "metadata": {}, "outputs": [table]}
    assert unlinked_first_uses("\n\n".join(_shown(nb, cell)))
    figure = {"mystnb": {"figure": {"caption": "MENACE's opening box."}}}
    assert unlinked_first_uses(_shown(nb, {"metadata": figure, "outputs": []})[0])
    printed = {"output_type": "stream", "name": "stdout", "text": "Michie filter: 287\n"}
    assert unlinked_first_uses(_shown(nb, {"metadata": {}, "outputs": [printed]})[0])
    # A role in Markdown a cell returns links only where that Markdown is read as MyST.
    linked = {"data": {"text/markdown": "{term}`Oracle AIF` wins"}}
    assert unlinked_first_uses(_shown(nb, {"metadata": {}, "outputs": [linked]})[0])
    myst = {"mystnb": {"markdown_format": "myst"}}
    assert not unlinked_first_uses(_shown(nb, {"metadata": myst, "outputs": [linked]})[0])
    # Another name of an entry: linked once, every name of the entry is known to the reader.
    assert ("Welch's t-test", "Welch p") in glossary_entries()
    assert unlinked_first_uses("Welch p = 0.03")
    assert not unlinked_first_uses("{term}`Welch's t-test` gives Welch p = 0.03")
    assert not unlinked_first_uses("{term}`Oracle AIF` and the Oracle's model")
    assert not unlinked_first_uses("{term}`Regret` against an oracle")
    assert not unlinked_first_uses("the {term}`decision filter <Decision filter>` (decision-only)")
    # Nothing hidden is read: a removed output, a widget's state.
    hidden = {"metadata": {"tags": ["remove-output"]}, "outputs": [table]}
    assert not _shown(nb, hidden)


# The glossary defines its terms; the exercise index lists exercises by their titles, each a
# link to its chapter (a link's words cannot hold a glossary link), and every chapter links
# its terms.
NOT_CHECKED = {"glossary", "exercises"}
# Pages whose first use of a term may stay unlinked for now, term by term (none left).
GLOSSARY_TODO: dict[str, set[str]] = {}


def _term_of(missing: str) -> str:
    return " ".join(re.match(r"'([^']*)'", missing)[1].split())


@pytest.mark.parametrize("page", [p for p in READING if p not in NOT_CHECKED])
def test_first_use_of_every_glossary_term_links_the_glossary(page):
    missing = unlinked_first_uses(reading_text(page))
    todo = GLOSSARY_TODO.get(page, set())
    missing = [m for m in missing if _term_of(m) not in todo]
    assert not missing, f"{page}: first uses without a {{term}} link:\n" + "\n".join(missing)


def test_the_glossary_todo_list_holds_only_what_is_still_missing():
    # A term fixed on its page leaves the list, so the list cannot hide a fixed page.
    for page, todo in GLOSSARY_TODO.items():
        found = {_term_of(m) for m in unlinked_first_uses(reading_text(page))}
        assert todo <= found, f"{page}: linked now, remove from GLOSSARY_TODO: {todo - found}"


# ---------------------------------------------------------------- outputs and rendering code


def _text_outputs(cell: dict) -> list[str]:
    out = []
    for o in cell.get("outputs", []):
        if o.get("output_type") == "stream" and o.get("name") == "stdout":
            out.append("".join(o["text"]))
        elif "data" in o:
            data = o["data"]
            richer = ("text/html", "text/markdown", "image/png", "image/svg+xml")
            if (
                "text/plain" in data
                and not any(k in data for k in richer)
                and not any("widget" in k for k in data)
            ):
                out.append("".join(data["text/plain"]))
    return out


NOTEBOOKS = [p for p in READING if _path(p).suffix == ".ipynb"]


def _cell_outputs(nb: dict, texts) -> list[tuple[int, str]]:
    """(cell index, text) of what the page shows of each code cell's outputs, as ``texts``
    reads them; a cell tagged remove-output shows none."""
    return [
        (i, text)
        for i, cell in enumerate(nb["cells"])
        if cell["cell_type"] == "code" and "remove-output" not in cell["metadata"].get("tags", [])
        for text in texts(cell)
    ]


@pytest.mark.parametrize("page", NOTEBOOKS)
def test_printed_outputs_fit_the_column(page):
    nb = _notebook(page)
    wide = [
        f"cell {i}: {len(line)} characters: {line[:60]}…"
        for i, text in _cell_outputs(nb, _text_outputs)
        for line in text.splitlines()
        if len(line) > MAX_OUTPUT_WIDTH
    ]
    assert not wide, (
        f"{page}: printed lines wider than {MAX_OUTPUT_WIDTH} characters:\n" + "\n".join(wide)
    )


def test_the_claims_pages_rendering_cells_are_hidden():
    nb = _notebook("claims")
    for cell in nb["cells"]:
        if cell["cell_type"] == "code" and "Markdown(" in "".join(cell["source"]):
            tags = set(cell["metadata"].get("tags", []))
            assert tags & {"remove-input", "hide-input"}, "".join(cell["source"])[:80]


@pytest.mark.parametrize("page", ["empirical_results", "beyond_lambda_schedule"])
def test_the_first_output_is_no_log(page):
    # The first printed text of these pages was a screen of "re-ran ... identical" lines and a
    # run's summary dict; a reader meets results first.
    nb = _notebook(page)
    texts = [t for c in nb["cells"] if c["cell_type"] == "code" for t in _text_outputs(c)]
    first = texts[0] if texts else ""
    assert "identical" not in first and "{" not in first, first[:200]


# ---------------------------------------------------------------- the API reference is a side road


def test_the_api_reference_is_off_the_reading_path():
    import importlib.util
    import sys

    spec = importlib.util.spec_from_file_location(
        "reading_order", BOOK / "_ext" / "reading_order.py"
    )
    module = importlib.util.module_from_spec(spec)
    sys.modules["reading_order"] = module
    spec.loader.exec_module(module)
    order = ["book/" + p for p in _toc_files()]
    assert "book/api_reference" in module.SIDE_PAGES
    links = module.prev_next(order, module.SIDE_PAGES)
    for page, (prev, nxt) in links.items():
        if page not in module.SIDE_PAGES:
            assert prev not in module.SIDE_PAGES and nxt not in module.SIDE_PAGES, page
    # The chain still visits every reading page once, in the toc's order.
    chain = [order[0]]
    while links[chain[-1]][1]:
        chain.append(links[chain[-1]][1])
    assert chain == [p for p in order if p not in module.SIDE_PAGES]
    config = yaml.safe_load((ROOT / "_config.yml").read_text(encoding="utf-8"))
    assert config["sphinx"]["local_extensions"]["reading_order"] == "book/_ext"
    assert "reading_order" in config["sphinx"]["config"]["extensions"]


def test_the_built_pages_prev_and_next_skip_the_api_reference(tmp_path):
    import os
    import subprocess
    import sys

    src = tmp_path / "src"
    (src / "book").mkdir(parents=True)
    for name in ("glossary", "api_reference", "references"):
        (src / "book" / f"{name}.md").write_text(f"# Page {name}\n", encoding="utf-8")
    (src / "index.md").write_text(
        "# Book\n\n```{toctree}\nbook/glossary\nbook/api_reference\nbook/references\n```\n",
        encoding="utf-8",
    )
    (src / "conf.py").write_text(
        "import sys\n"
        f"sys.path.insert(0, {str(BOOK / '_ext')!r})\n"
        "extensions = ['myst_parser', 'reading_order']\n",
        encoding="utf-8",
    )
    out = tmp_path / "html"
    done = subprocess.run(
        [sys.executable, "-m", "sphinx", "-W", "-q", "-b", "html", str(src), str(out)],
        capture_output=True,
        text=True,
        cwd=ROOT,
        env={**os.environ, "PYTHONPATH": str(ROOT)},
    )
    assert done.returncode == 0, done.stderr
    glossary = (out / "book" / "glossary.html").read_text(encoding="utf-8")
    references = (out / "book" / "references.html").read_text(encoding="utf-8")
    api = (out / "book" / "api_reference.html").read_text(encoding="utf-8")
    assert 'href="references.html"' in glossary and "api_reference.html" not in re.sub(
        r'<div class="sphinxsidebar.*', "", glossary, flags=re.S
    )
    assert 'href="glossary.html"' in references
    assert 'rel="next"' not in api and 'rel="prev"' not in api


# ---------------------------------------------------------------- no raw dicts or arrays printed

# A printed Python dict ("{'win': 507, ...}", "{(3.0, 0.0, 0.0): 12}") or NumPy array
# ("[0.2 0.5 0.3]", "[ 1.1  1.3 -0.3]", "array([...])") is the code's shape, not the reader's: a
# page shows a table (a Markdown table output) or a sentence with formatted numbers instead.
# Comma lists are not flagged: a few integers in a sentence ("squares [1, 5, 9]") read as
# well as any wording, and a tuple of preferences "(0.6, 0.35, 0.05)" is the book's notation.
_NUMBER = r"[-+]?(?:\d+\.?\d*|\.\d+|nan|inf)(?:e[-+]?\d+)?"
_RAW_PRINTOUT = re.compile(
    r"\{\s*(?:'[^'\n]*'|\"[^\"\n]*\"|\([^()\n]*\)|" + _NUMBER + r")\s*:\s"  # a dict
    r"|\[\s*" + _NUMBER + r"(?:\s+" + _NUMBER + r")+\s*\]"  # an array: numbers, no commas
    r"|\barray\(",  # an array's repr
)
# Pages allowed a raw printout for now (none: every reading page prints tables or sentences).
RAW_PRINTOUTS_PENDING: set[str] = set()


def raw_printouts(text: str) -> list[str]:
    """The raw dicts and NumPy arrays in a printed text (an array may wrap over lines)."""
    return [m.group(0) for m in _RAW_PRINTOUT.finditer(text)]


def _printed_texts(cell: dict) -> list[str]:
    # The text outputs, and the Markdown a cell displays (a table cell may hold an array).
    tables = [
        "".join(o["data"]["text/markdown"])
        for o in cell.get("outputs", [])
        if "text/markdown" in o.get("data", {})
    ]
    return _text_outputs(cell) + tables


def test_the_raw_printout_check_sees_dicts_and_arrays():
    assert raw_printouts("tally: {'win': 0.3}") == ["{'win': "]
    assert raw_printouts("with a count-adding rule: {(5.0, 2.0, 2.0): 24}")
    assert raw_printouts("matching [0.2 0.5 0.3]") == ["[0.2 0.5 0.3]"]
    assert raw_printouts("u = [ 1.1  1.3 -0.3], box [0. 1. 1.]") == [
        "[ 1.1  1.3 -0.3]",
        "[0. 1. 1.]",
    ]
    assert raw_printouts("beads [45.5 12.6 41.9\n 12.1]") and raw_printouts("array([1, 2])")
    table = "| move | P(win) |\n|---|---|\n| solid | 0.10 |"
    assert not raw_printouts(table)
    assert not raw_printouts("optimal squares [1, 5, 9]; preferences (0.6, 0.35, 0.05)")
    assert not raw_printouts("expected reinforcement: solid +1.1, gamble +1.3, blunder -0.3")


@pytest.mark.parametrize("page", [p for p in NOTEBOOKS if p not in RAW_PRINTOUTS_PENDING])
def test_no_raw_dict_or_array_is_printed(page):
    nb = _notebook(page)
    raw = [
        f"cell {i}: {found!r}"
        for i, text in _cell_outputs(nb, _printed_texts)
        for found in raw_printouts(text)
    ]
    assert not raw, f"{page}: raw dicts or arrays printed (show a table):\n" + "\n".join(raw)
