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
    assert lab(source) == f"```{{prf:lemma}} L\n{math}\n```"
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
