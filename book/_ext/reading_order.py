"""Sphinx extension: side pages stay out of the theme's Prev/Next reading order.

The API reference is built from the docstrings and read by looking things up, not in order.
It stays in the table of contents (the sidebar lists it under the appendices), but the
"Previous" and "Next" buttons at the foot of every other page skip it, and its own page shows
neither: a reader who follows the buttons never lands in it.

``SIDE_PAGES`` is the one list of such pages; :func:`prev_next` computes the buttons from the
toc's order, and the ``html-page-context`` hook hands them to the theme.
"""

from __future__ import annotations

from sphinx.application import Sphinx

# Pages a reader looks things up in, off the Prev/Next path (docnames, no suffix).
SIDE_PAGES = frozenset({"book/api_reference"})


def prev_next(order: list[str], side: frozenset[str]) -> dict[str, tuple[str | None, str | None]]:
    """Each page's (previous, next) page in ``order``, skipping the pages of ``side``.

    A side page itself gets neither.
    """
    reading = [p for p in order if p not in side]
    links: dict[str, tuple[str | None, str | None]] = {p: (None, None) for p in order}
    for i, page in enumerate(reading):
        links[page] = (
            reading[i - 1] if i > 0 else None,
            reading[i + 1] if i + 1 < len(reading) else None,
        )
    return links


def _order(app: Sphinx) -> list[str]:
    """The documents in the toc's reading order (Sphinx's own Prev/Next relation)."""
    relations = app.env.collect_relations()
    root = app.config.root_doc
    order = [root]
    while (nxt := relations.get(order[-1], [None, None, None])[2]) and nxt not in order:
        order.append(nxt)
    return order


def _context(app: Sphinx, pagename: str, templatename: str, context: dict, doctree) -> None:
    if not hasattr(app, "_reading_links"):
        app._reading_links = prev_next(_order(app), SIDE_PAGES)
    if pagename not in app._reading_links:
        return
    prev, nxt = app._reading_links[pagename]
    builder = app.builder

    def link(doc: str | None) -> dict | None:
        if doc is None:
            return None
        title = app.env.titles.get(doc)
        # The theme prints the title as HTML, as Sphinx's own relations give it.
        text = builder.render_partial(title)["title"] if title is not None else doc
        return {"link": builder.get_relative_uri(pagename, doc), "title": text}

    context["prev"] = link(prev)
    context["next"] = link(nxt)


def setup(app: Sphinx) -> dict:
    app.connect("html-page-context", _context)
    return {"version": "1", "parallel_read_safe": True, "parallel_write_safe": True}
