"""The glossary's terms, as the book's glossary page defines them, and links to them.

The page ``book/glossary.md`` owns the terms: a Sphinx ``{glossary}`` block in which term
lines that follow one another share the definition below them (``Welch's t-test`` then
``Welch p``: one entry, two names). :func:`parse` reads the entries from that text,
:func:`term_pattern` finds a term in running text (the book's tests use both to check that
every page links a term's first use), and :func:`link_first_uses` links the first use of
each entry in a text generated as HTML (the claims ledger's table), to the anchor Sphinx
gives the term (:func:`anchor`).
"""

from __future__ import annotations

import re
import unicodedata
from collections.abc import Iterable, Sequence
from html import escape
from pathlib import Path

from ..base.files import book_data, book_data_is_packaged

__all__ = ["anchor", "link_first_uses", "names", "parse", "patterns", "read", "term_pattern"]

Entry = tuple[str, ...]


def parse(text: str) -> tuple[Entry, ...]:
    """The entries of the glossary page ``text``, each the names it defines, first name first.

    Raises
    ------
    ValueError
        When the text holds no ``{glossary}`` block.
    """
    block = re.search(r"```\{glossary\}\n(.*?)^```", text, re.S | re.M)
    if block is None:
        raise ValueError("the glossary page has no ```{glossary} block")
    entries: list[list[str]] = []
    after_term = False
    for line in block[1].splitlines():
        is_term = bool(line.strip()) and not line[0].isspace() and not line.startswith(":")
        if is_term and after_term:
            entries[-1].append(line.strip())
        elif is_term:
            entries.append([line.strip()])
        after_term = is_term
    return tuple(tuple(e) for e in entries)


def read(path: str | Path | None = None) -> tuple[Entry, ...]:
    """The entries of the glossary page at ``path``, by default the book's in a checkout.

    The book's page sits beside the book's stored results (``book/glossary.md`` next to
    ``book/data``), so it is found from a checkout whatever the working folder. An installed
    library carries the stored results but not the book's pages: there the page is read
    from ``path`` (the notebooks download has it beside the notebooks, as ``glossary.md``).
    """
    if path is None:
        if book_data_is_packaged():
            raise FileNotFoundError(
                "the glossary is a page of the book, not of the installed library: "
                "give its path (glossary.md, beside the notebooks of the download)"
            )
        path = book_data().parent / "glossary.md"
    return parse(Path(path).read_text(encoding="utf-8"))


def term_pattern(term: str, *, as_written: bool = False) -> re.Pattern:
    """``term`` in running text, plural included, across a line break or a hyphen.

    Any case, except a name in capitals (MENACE), a short one (pp, z) and, with
    ``as_written``, another name of an entry: "Oracle" is the agent, "an oracle" is not.
    """
    flags = 0 if as_written or term.isupper() or len(term) <= 2 else re.I
    body = re.escape(term).replace(r"\ ", r"[\s-]+")
    return re.compile(rf"(?<![\w$\\-]){body}(?:e?s)?(?![\w-])", flags)


def patterns(entry: Entry) -> list[re.Pattern]:
    """The patterns of an entry's names: the first in any case, the others as written."""
    return [term_pattern(t, as_written=i > 0) for i, t in enumerate(entry)]


def anchor(term: str) -> str:
    """The id Sphinx gives a glossary term on its page (``term-Welch-s-t-test``)."""
    # Sphinx's own rule (sphinx.util.nodes._make_id): ASCII only, runs of other characters
    # become one hyphen, none at either end.
    text = unicodedata.normalize("NFKD", f"term-{term}").encode("ascii", "ignore").decode()
    text = re.sub(r"[^a-zA-Z0-9_]+", "-", " ".join(text.split()))
    return re.sub(r"^[-0-9_]+|[-_]+$", "", text)


def link_first_uses(
    text: str, entries: Sequence[Entry], seen: set[Entry], href: str = "glossary.html"
) -> str:
    """``text`` as HTML, with the first use of each entry not yet in ``seen`` linked.

    ``seen`` is updated, so a table linked cell by cell links each term once, at its first
    use. The link is the one Sphinx writes for a ``{term}`` role.
    """
    compiled = [(entry, patterns(entry)) for entry in entries if entry not in seen]
    out, at = [], 0
    while True:
        # The next use of a name not linked yet; at one place the longer name wins
        # ("MENACE Decomposition Algorithm" over "MENACE").
        uses = [
            (m.start(), -m.end(), i)
            for i, (entry, pats) in enumerate(compiled)
            if entry not in seen
            for p in pats
            if (m := p.search(text, at))
        ]
        if not uses:
            break
        start, end, i = min(uses)
        end, entry = -end, compiled[i][0]
        seen.add(entry)
        out.append(escape(text[at:start]))
        out.append(
            f'<a class="reference internal" href="{escape(href)}#{anchor(entry[0])}">'
            f'<span class="xref std std-term">{escape(text[start:end])}</span></a>'
        )
        at = end
    out.append(escape(text[at:]))
    return "".join(out)


def names(entries: Iterable[Entry]) -> tuple[str, ...]:
    """Every name of every entry, in the page's order."""
    return tuple(t for entry in entries for t in entry)
