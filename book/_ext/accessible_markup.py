"""Sphinx extension: small markup fixes for screen readers in the theme's and Sphinx's HTML.

* Hidden code cells (myst-nb): the ``<summary>`` carried ``aria-label="Toggle hidden
  content"`` over the visible words "Show code cell source", so speech and sight disagreed
  (WCAG 2.5.3). The label is dropped: the visible words name the control.
* Bibliography (docutils): entries had ``role="doc-biblioentry"`` inside ``role="list"``.
  That role is deprecated and is not a list item, so the list had no valid items
  (WCAG 1.3.1). Entries are now ``role="listitem"``.

* The site's root ``index.html``: sphinx-external-toc writes a bare redirect to the first
  page, with no favicon link, so a browser asked for ``/favicon.ico`` (a 404 in the
  console) before it moved on, and no title or link for a reader whose browser does not
  follow the redirect. The page is now written first, a whole small HTML page with the
  same redirect (the first page of the table of contents, as the extension computes it).

The theme's search and colour-mode buttons are fixed by template overrides in
``book/_templates/``.
"""

from __future__ import annotations

from html import escape
from pathlib import Path

from docutils import nodes
from myst_nb.sphinx_ import HideCodeCellNode, depart_HideCellInput
from sphinx.application import Sphinx


def visit_hidden_cell(self, node: HideCodeCellNode) -> None:
    classes = " ".join(node["classes"])
    self.body.append(f'<details class="admonition hide {classes}">\n<summary>\n')
    self.body.append(f'<p class="collapsed admonition-title">{escape(node["prompt_show"])}</p>\n')
    self.body.append(f'<p class="expanded admonition-title">{escape(node["prompt_hide"])}</p>\n')
    self.body.append("</summary>\n")


def visit_citation(self, node: nodes.citation) -> None:
    if not isinstance(node.previous_sibling(), nodes.citation):
        self.body.append('<div role="list" class="citation-list">\n')
    self.body.append(self.starttag(node, "div", classes=[node.tagname], role="listitem"))


def depart_citation(self, node: nodes.citation) -> None:
    self.body.append("</div>\n")
    if not isinstance(node.next_node(descend=False, siblings=True), nodes.citation):
        self.body.append("</div>\n")


def write_root_index(app: Sphinx, exception: Exception | None) -> None:
    """The site's root page: a redirect to the first page, with the favicon and a link."""
    if exception is not None or app.builder.format != "html" or app.config.root_doc == "index":
        return
    first = app.builder.get_target_uri(app.config.root_doc)
    title = escape(app.config.html_title or app.config.project)
    icon = app.config.html_favicon
    link = (
        f'<link rel="icon" href="_static/{escape(Path(icon).name)}">\n' if icon else ""
    )  # html_favicon is copied into _static under its own name
    Path(app.outdir, "index.html").write_text(
        '<!DOCTYPE html>\n<html lang="en">\n<head>\n<meta charset="utf-8">\n'
        f'<meta http-equiv="Refresh" content="0; url={escape(first)}">\n'
        f"{link}<title>{title}</title>\n</head>\n"
        f'<body>\n<p><a href="{escape(first)}">{title}</a></p>\n</body>\n</html>\n',
        encoding="utf-8",
    )


def setup(app: Sphinx) -> dict:
    app.setup_extension("myst_nb")
    app.add_node(HideCodeCellNode, override=True, html=(visit_hidden_cell, depart_HideCellInput))
    app.add_node(nodes.citation, override=True, html=(visit_citation, depart_citation))
    # Before sphinx-external-toc's own (priority 500), which then finds the page written.
    app.connect("build-finished", write_root_index, priority=400)
    return {"parallel_read_safe": True, "parallel_write_safe": True}
