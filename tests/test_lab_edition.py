"""The notebooks download written for JupyterLab (book/_ext/lab_edition.py), without a build.

JupyterLab's MyST renderer shows an unresolved ``{cite}`` or ``{numref}`` as "ⓘ key"; the
download carries the site's text instead. ``tests/browser/test_jupyterlab_downloads.py`` opens the
built download in a JupyterLab server.
"""

from __future__ import annotations

import json
import re
import sys
import zipfile
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT / "book" / "_ext"))

import lab_edition as le  # noqa: E402

LABELS = le.BookLabels(
    numbers={
        "fig-curves": ("book/priors", "figure", "19.2"),
        "fig-far": ("book/intro", "figure", "1"),
        "eq-mi": ("book/dirichlet", "displaymath", "2.6"),
        "eq-here": ("book/priors", "displaymath", "19.1"),
        "thm-conjugacy": ("book/dirichlet", "theorem", "2.1"),
        "ex-beads": ("book/priors", "exercise", "19.3"),
    },
    titles={"ed-baselines": ("book/design", "Baselines: one untrained MENACE")},
    formats={"figure": "Book fig. %s", "exercise": "Exercise %s", "theorem": "theorem %s"},
    citations={
        "thesis": ("Wos26", "Krzysztof Woś. MENACE as a Bayesian observer. 2026."),
        "michie1961trial": ("Mic61", "Donald Michie. Trial and error. 1961."),
    },
    files={
        "book/priors": "priors.ipynb",
        "book/intro": "intro.ipynb",
        "book/dirichlet": "dirichlet.ipynb",
        "book/design": "design.ipynb",
    },
    sequence={("book/priors", "lemma"): ["19.1"]},
)


def lab(text: str, docname: str = "book/priors") -> str:
    return le.lab_markdown(text, docname, LABELS)[0]


def test_citations_show_the_sites_labels_and_are_listed():
    text, cited = le.lab_markdown(
        "As {cite}`thesis` says ({cite}`michie1961trial,thesis`, §4.4).", "book/priors", LABELS
    )
    assert text == r"As \[Wos26\] says (\[Mic61, Wos26\], §4.4)."
    assert cited == ["thesis", "michie1961trial"]


def test_numbered_references_show_the_sites_numbers():
    assert lab("{numref}`fig-curves` shows it.") == "Book fig. 19.2 shows it."
    assert lab("See {numref}`Figure %s <fig-curves>`.") == "See Figure 19.2."
    assert lab("{numref}`ex-beads`") == "Exercise 19.3"
    assert lab("{numref}`fig-far`") == "[Book fig. 1](intro.ipynb)"  # another page: a link
    assert lab("by {eq}`eq-mi`") == "by [(2.6)](dirichlet.ipynb)"
    assert lab("by {eq}`eq-here`") == "by (19.1)"
    assert lab("{prf:ref}`thm-conjugacy`") == "[Theorem 2.1](dirichlet.ipynb)"


def test_sections_and_glossary_terms_read_as_words():
    assert lab("{ref}`ed-baselines`") == "[Baselines: one untrained MENACE](design.ipynb)"
    assert lab("{ref}`the baselines <ed-baselines>`") == "[the baselines](design.ipynb)"
    assert lab("{term}`pseudo-counts <Pseudo-count>`") == "[pseudo-counts](glossary.md)"
    assert lab("{term}`prior`") == "[prior](glossary.md)"


def test_what_jupyterlab_resolves_itself_stays():
    text = "{doc}`intro`, $x$ and {math}`y`"
    assert lab(text) == text


def test_a_notebook_gets_a_references_cell_and_collapsed_hidden_code():
    nb = {
        "cells": [
            {"cell_type": "markdown", "metadata": {}, "source": ["# T\n", "{cite}`thesis`"]},
            {"cell_type": "code", "metadata": {"tags": ["hide-input"]}, "source": "import x",
             "outputs": [], "execution_count": None},
            {"cell_type": "code", "metadata": {}, "source": "{cite}`thesis`", "outputs": [],
             "execution_count": None},
        ],
        "metadata": {}, "nbformat": 4, "nbformat_minor": 5,
    }  # fmt: skip
    out = le.lab_notebook(nb, "book/priors", LABELS)
    assert out["cells"][0]["source"] == "# T\n\\[Wos26\\]"
    assert out["cells"][1]["metadata"]["jupyter"] == {"source_hidden": True}
    assert out["cells"][2]["source"] == "{cite}`thesis`"  # code is never rewritten
    assert out["cells"][-1]["source"] == (
        "## References\n\n- \\[Wos26\\] Krzysztof Woś. MENACE as a Bayesian observer. 2026."
    )
    assert "jupyter" not in nb["cells"][1]["metadata"]  # the input is not changed
    data = le.lab_file("book/priors.ipynb", json.dumps(nb).encode(), "book/priors", LABELS)
    assert json.loads(data) == out


def test_the_bibliography_page_lists_every_entry():
    page = "# References\n\nAs {cite}`thesis`.\n\n```{bibliography}\n```\n"
    data = le.lab_file("book/references.md", page.encode(), "book/references", LABELS).decode()
    assert "{bibliography}" not in data and "## References" not in data  # the page is one
    assert data.endswith(
        "- \\[Mic61\\] Donald Michie. Trial and error. 1961.\n"
        "- \\[Wos26\\] Krzysztof Woś. MENACE as a Bayesian observer. 2026.\n"
    )  # in the order of their labels


def test_a_zip_of_pages_is_rewritten_in_place(tmp_path):
    path = tmp_path / "student.zip"
    nb = {"cells": [{"cell_type": "markdown", "metadata": {}, "source": "{numref}`fig-curves`"}],
          "metadata": {}, "nbformat": 4, "nbformat_minor": 5}  # fmt: skip
    with zipfile.ZipFile(path, "w") as zf:
        zf.writestr("edition/priors.ipynb", json.dumps(nb))
        zf.writestr("edition/README.txt", "{numref}`fig-curves` stays in a text file")
        zf.writestr("edition/other.ipynb", json.dumps(nb))  # not a page of the build
    assert le.rewrite_zip(path, LABELS) == 1
    with zipfile.ZipFile(path) as zf:
        cells = json.loads(zf.read("edition/priors.ipynb"))["cells"]
        assert cells[0]["source"] == "Book fig. 19.2"
        assert zf.read("edition/README.txt").decode().startswith("{numref}")
        assert json.loads(zf.read("edition/other.ipynb")) == nb


def _appendix_entropy() -> dict:
    return json.loads((ROOT / "book" / "appendix_entropy.ipynb").read_text(encoding="utf-8"))


# The site's numbers of appendix_entropy's equations (its build: "(4)" beside eq-mi-closed).
ENTROPY = {
    "eq-expected-log": "1",
    "eq-theta-log-theta": "2",
    "eq-h-ale-closed": "3",
    "eq-mi-closed": "4",
    "eq-mi-asymptotic": "5",
}
ENTROPY_LABELS = le.BookLabels(
    numbers={k: ("book/appendix_entropy", "displaymath", n) for k, n in ENTROPY.items()},
    files={"book/appendix_entropy": "appendix_entropy.ipynb"},
)
MATH = re.compile(r"^(:{3}|`{3})\{math\}\n((?::\w+: [^\n]*\n)+)(.*?)\n\1$", re.M | re.S)


def test_equations_carry_the_sites_numbers_and_no_other():
    nb = le.lab_notebook(_appendix_entropy(), "book/appendix_entropy", ENTROPY_LABELS)
    text = "\n".join(c["source"] for c in nb["cells"] if c["cell_type"] == "markdown")
    assert not re.search(r"^\s*\$\$", text, re.M)  # jupyterlab-myst numbers every $$ block
    found = [dict(re.findall(r":(\w+): (.*)", m[2])) for m in MATH.finditer(text)]
    numbered = {o["label"]: o["enumerator"] for o in found if "enumerator" in o}
    assert numbered == ENTROPY  # eq-mi-closed: (4), as on the site
    unnumbered = [o for o in found if "enumerator" not in o]
    assert unnumbered == [{"enumerated": "false"}]  # the proof's step, unnumbered on the site
    assert "\\mathbb{E}[\\ln \\theta_i] = \\psi(\\alpha_i) - \\psi(\\alpha_0)." in text
    assert "inserting this into\n(4) gives" in text


def test_an_equation_inside_a_directive_gets_a_fence_that_does_not_end_it():
    source = "```{prf:lemma} L\n$$\nx\n$$ (eq-here)\n```"
    math = ":::{math}\n:label: eq-here\n:enumerator: 19.1\nx\n:::"
    assert lab(source) == f"```{{prf:lemma}} L\n:enumerator: 19.1\n\n{math}\n```"
    source = ":::{note}\n  $$ y $$\n:::"
    assert lab(source) == ":::{note}\n  ```{math}\n  :enumerated: false\n  y\n  ```\n:::"
    assert lab("::::{note}\n$$ y $$\n::::").startswith("::::{note}\n:::{math}\n")


def test_equations_the_site_does_not_number_stay_unnumbered():
    assert lab("$$ x $$ (eq-mi)") == ":::{math}\n:label: eq-mi\n:enumerated: false\nx\n:::"
    assert lab("$$ x $$ (eq-nowhere)").endswith(":enumerated: false\nx\n:::")
    code = "```python\n$$\nx\n$$\n```"
    assert lab(code) == code  # code, not math
    with pytest.raises(ValueError, match="no fence left"):
        lab("```{note}\n:::{note}\n$$ x $$\n:::\n```")


# The site's numbers of dirichlet's boxes (chapter 2 of its build: "Definition 2.1", ...).
DIRICHLET = {
    "def-simplex": ("definition", "2.1"),
    "def-dirichlet": ("definition", "2.2"),
    "thm-conjugacy": ("theorem", "2.1"),
    "def-epistemic": ("definition", "2.3"),
    "ex-dirichlet-update": ("exercise", "2.1"),
    "ex-dirichlet-information": ("exercise", "2.2"),
    "ex-dirichlet-thompson": ("exercise", "2.3"),
}
DIRICHLET_LABELS = le.BookLabels(
    numbers={k: ("book/dirichlet", kind, n) for k, (kind, n) in DIRICHLET.items()},
    files={"book/dirichlet": "dirichlet.ipynb"},
)
# The head of a box and its options, as the download writes it.
BOX_HEAD = re.compile(r"^`{3,}\{(prf:\w+|exercise)\}[^\n]*\n((?::[\w-]+:[^\n]*\n)*)", re.M)


def _boxes(nb: dict) -> list[tuple[str, dict[str, str]]]:
    text = "\n".join(c["source"] for c in nb["cells"] if c["cell_type"] == "markdown")
    return [
        (m[1], dict(re.findall(r":([\w-]+):[ \t]*(.*)", m[2]))) for m in BOX_HEAD.finditer(text)
    ]


def test_theorems_definitions_and_exercises_carry_the_sites_numbers():
    nb = json.loads((ROOT / "book" / "dirichlet.ipynb").read_text(encoding="utf-8"))
    boxes = _boxes(le.lab_notebook(nb, "book/dirichlet", DIRICHLET_LABELS))
    numbered = {o["label"]: (name, o["enumerator"]) for name, o in boxes if "label" in o}
    assert numbered == {k: ("exercise" if kind == "exercise" else f"prf:{kind}", n)
                        for k, (kind, n) in DIRICHLET.items()}  # fmt: skip
    proofs = [o for name, o in boxes if name == "prf:proof"]
    assert proofs == [{"enumerated": "false"}]  # "Proof", no number, as on the site
    assert all(("enumerator" in o) != (name == "prf:proof") for name, o in boxes)
    assert "enumerator" not in json.dumps(nb)  # the source is not changed


def test_unlabelled_boxes_take_the_sites_numbers_in_page_order():
    labels = le.BookLabels(
        numbers={"thm-b": ("book/p", "theorem", "4.2")},
        sequence={("book/p", "theorem"): ["4.1", "4.2", "4.3"], ("book/p", "exercise"): ["4.1"]},
    )
    text = (
        "```{prf:theorem}\nA.\n```\n\n"
        "```{prf:theorem} B\n:label: thm-b\n\nB.\n```\n\n"
        "```{prf:lemma} N\n:nonumber:\nN.\n```\n\n"
        ":::{prf:theorem} C\n:class: wide\nC.\n:::\n\n"
        "````{exercise}\nE.\n````\n\n"
        "```{prf:theorem}\nD, which the site does not number.\n```\n\n"
        "```\n```{prf:theorem}\n```"
    )
    assert le.lab_markdown(text, "book/p", labels)[0] == (
        "```{prf:theorem}\n:enumerator: 4.1\n\nA.\n```\n\n"
        "```{prf:theorem} B\n:enumerator: 4.2\n:label: thm-b\n\nB.\n```\n\n"
        "```{prf:lemma} N\n:enumerated: false\nN.\n```\n\n"
        ":::{prf:theorem} C\n:enumerator: 4.3\n:class: wide\nC.\n:::\n\n"
        "````{exercise}\n:enumerator: 4.1\n\nE.\n````\n\n"
        "```{prf:theorem}\n:enumerated: false\n\nD, which the site does not number.\n```\n\n"
        "```\n```{prf:theorem}\n```"
    )  # a box in a code block is text


def test_boxes_inside_a_directive_keep_their_indent():
    labels = le.BookLabels(sequence={("book/p", "definition"): ["1.1"]})
    text = "::::{note}\n  ```{prf:definition} X\n  :label: d\n  X.\n  ```\n::::"
    assert le.lab_markdown(text, "book/p", labels)[0] == (
        "::::{note}\n  ```{prf:definition} X\n  :enumerator: 1.1\n  :label: d\n  X.\n  ```\n::::"
    )


def test_a_gated_solution_is_one_box_with_the_text_of_its_cell():
    start = "````{solution-start} ex-beads\n:class: dropdown\n````\n"
    end = "````{solution-end}\n````"
    # The solution's text in the cell of its start: inside the box, a dropdown as on the site.
    assert lab(start + "\nAdd the counts:\n```python\nx\n```\n") == (
        "````{solution} ex-beads\n:class: dropdown\n\nAdd the counts:\n```python\nx\n```\n````"
    )
    assert lab(f"{start}Text.\n\n{end}\nAfter.") == (
        "````{solution} ex-beads\n:class: dropdown\n\nText.\n````\nAfter."
    )  # closed where the end gate was
    # Code cells follow: an open box, no dropdown that opens onto nothing.
    assert lab(start) == "````{solution} ex-beads\n````"
    assert lab(end) == ""  # its end gate, in a cell of its own: an empty box in JupyterLab
    nb = json.loads((ROOT / "book" / "dirichlet.ipynb").read_text(encoding="utf-8"))
    cells = le.lab_notebook(nb, "book/dirichlet", DIRICHLET_LABELS)["cells"]
    text = "\n".join(c["source"] for c in cells if c["cell_type"] == "markdown")
    assert "{solution-start}" not in text and "{solution-end}" not in text
    gone = [c["id"] for c in nb["cells"] if "{solution-end}" in "".join(c["source"])]
    assert len(gone) == 3 and not {c.get("id") for c in cells} & set(gone)  # the end gates' cells
    assert text.count("````{solution} ex-dirichlet-") == 3
