"""Sphinx extension: small markup fixes for screen readers in the theme's and Sphinx's HTML.

* Hidden code cells (myst-nb): the ``<summary>`` carried ``aria-label="Toggle hidden
  content"`` over the visible words "Show code cell source", so speech and sight disagreed
  (WCAG 2.5.3). The label is dropped: the visible words name the control.
* Bibliography (docutils): entries had ``role="doc-biblioentry"`` inside ``role="list"``.
  That role is deprecated and is not a list item, so the list had no valid items
  (WCAG 1.3.1). Entries are now ``role="listitem"``.

The theme's search and colour-mode buttons are fixed by template overrides in
``book/_templates/``.
"""

from __future__ import annotations

from html import escape

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


def setup(app: Sphinx) -> dict:
    app.setup_extension("myst_nb")
    app.add_node(HideCodeCellNode, override=True, html=(visit_hidden_cell, depart_HideCellInput))
    app.add_node(nodes.citation, override=True, html=(visit_citation, depart_citation))
    return {"parallel_read_safe": True, "parallel_write_safe": True}
