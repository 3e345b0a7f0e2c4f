"""The glossary's terms as the library reads them, and the links it writes to them."""

from __future__ import annotations

import re
from pathlib import Path

import pytest
from sphinx.util.nodes import _make_id

import menace_lib as ml
from menace_lib.book import glossary

ROOT = Path(__file__).resolve().parents[1]
PAGE = """# Glossary

```{glossary}
:sorted:

MENACE
  The machine.

MENACE Decomposition Algorithm
  Its template.

Welch's t-test
Welch p
  A test; its p-value.

pp
  Percentage points.
```
"""


def test_entries_keep_other_names_with_their_definition():
    assert glossary.parse(PAGE) == (
        ("MENACE",),
        ("MENACE Decomposition Algorithm",),
        ("Welch's t-test", "Welch p"),
        ("pp",),
    )
    with pytest.raises(ValueError, match="glossary"):
        glossary.parse("# Glossary\n\nNo block.\n")


def test_the_books_glossary_is_found_from_any_folder(tmp_path, monkeypatch):
    monkeypatch.chdir(tmp_path)
    entries = glossary.read()
    assert entries == glossary.read(ROOT / "book" / "glossary.md")
    names = glossary.names(entries)
    assert {"Michie filter", "Michie's filter", "decision-only", "Oracle", "Welch p"} <= set(names)
    assert len(names) == len(set(names)), "a name defined twice"


def test_anchors_are_the_ones_sphinx_writes():
    for term in glossary.names(glossary.read()):
        assert glossary.anchor(term) == _make_id(f"term-{term}"), term
    assert glossary.anchor("Welch's t-test") == "term-Welch-s-t-test"


def test_a_term_is_found_in_any_case_but_names_as_written():
    (pattern,) = glossary.patterns(("Michie filter",))
    assert pattern.search("the michie\nfilters")
    assert not pattern.search("Michie-filtered")
    agent, other = glossary.patterns(("Oracle AIF", "Oracle"))
    assert other.search("the Oracle's model") and not other.search("an oracle")
    (short,) = glossary.patterns(("pp",))
    assert short.search("4 pp") and not short.search("4 PP") and not short.search("appear")


def test_first_uses_are_linked_once_the_longer_name_first():
    entries = glossary.parse(PAGE)
    seen: set = set()
    html = glossary.link_first_uses(
        "MENACE Decomposition Algorithm of MENACE & Welch p <2 pp", entries, seen
    )
    links = re.findall(r'href="glossary\.html#(term-[^"]+)"><span[^>]*>([^<]*)<', html)
    assert links == [
        ("term-MENACE-Decomposition-Algorithm", "MENACE Decomposition Algorithm"),
        ("term-MENACE", "MENACE"),
        ("term-Welch-s-t-test", "Welch p"),
        ("term-pp", "pp"),
    ]
    assert "&amp;" in html and "&lt;2" in html  # the rest is escaped
    assert len(seen) == 4
    # A term seen before is not linked again.
    assert glossary.link_first_uses("MENACE again", entries, seen) == "MENACE again"


def test_the_ledger_links_each_term_once_and_changes_nothing_else():
    entries = ml.book.claims.entries_from_snapshot(ml.book.claims.read_snapshot())
    terms = glossary.read()
    plain = ml.book.claims.render.ledger_html(entries)
    linked = ml.book.claims.render.Ledger(entries, glossary=terms)._repr_html_()
    anchors = re.findall(r'href="glossary\.html#(term-[^"]+)"', linked)
    assert len(anchors) == len(set(anchors)) >= 20
    unlinked = re.sub(
        r'<a class="reference internal" href="glossary\.html#[^"]+">'
        r'<span class="xref std std-term">([^<]*)</span></a>',
        r"\1",
        linked,
    )
    assert unlinked == plain


def test_an_installed_library_asks_for_the_glossary_page(monkeypatch, tmp_path):
    """An installed library has the stored results but not the book's pages: read() without
    a path says so in one line, and reads the page it is given (the notebooks download has
    glossary.md beside the notebooks, which pass it)."""
    monkeypatch.setattr(glossary, "book_data_is_packaged", lambda: True)
    with pytest.raises(FileNotFoundError, match=r"give its path \(glossary\.md"):
        glossary.read()
    page = tmp_path / "glossary.md"
    page.write_text(glossary.book_data().parent.joinpath("glossary.md").read_text("utf-8"))
    monkeypatch.chdir(tmp_path)
    assert glossary.read("glossary.md") == glossary.read(page)
    assert len(glossary.read("glossary.md")) > 20
