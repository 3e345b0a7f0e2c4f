"""Sphinx extension: the ``{claim}`` role, a number of the claims ledger in a sentence.

``{claim}`9.8.2-move-underperforms:size``` renders as "21.9", read from the ledger's committed
snapshot (``book/data/claims.json``) through ``menace_lib.book.claims.prose``, which also
lists the fields (``value``, ``size``, ``seeds``, ``measure``, ``p``, ``verdict``, ...). The
page shows the number, never the claim's id; a verdict links to the claim's row of the
ledger's page on the site and prints as the word in the PDF. A page that uses the role is
read again when the ledger changes. A role the ledger cannot fill fails the build.
"""

from __future__ import annotations

from docutils import nodes
from sphinx.application import Sphinx
from sphinx.util.docutils import SphinxRole

CLAIMS_PAGE = "book/claims"


class ClaimVerdict(nodes.Inline, nodes.TextElement):
    """A verdict of the ledger; becomes a link to its row (HTML) or plain text (elsewhere)."""


class ClaimRole(SphinxRole):
    def run(self) -> tuple[list[nodes.Node], list[nodes.system_message]]:
        from menace_lib.book.claims import prose
        from menace_lib.experiments.verdicts import DATA_DIR, SNAPSHOT

        self.env.note_dependency(str(DATA_DIR / SNAPSHOT))
        try:
            pieces = prose.parts(self.text)
        except (KeyError, ValueError) as exc:
            msg = self.inliner.reporter.error(f"{{claim}}: {exc}", line=self.lineno)
            return [self.inliner.problematic(self.rawtext, self.rawtext, msg)], [msg]
        claim_id, _, field = self.text.strip().partition(":")
        if field == "verdict":
            return [ClaimVerdict(self.rawtext, pieces[0][1], claim_id=claim_id)], []
        out: list[nodes.Node] = []
        for kind, s in pieces:
            out.append(nodes.Text(s) if kind == "text" else nodes.math(s, s))
        return out, []


def resolve_verdicts(app: Sphinx, doctree: nodes.document, docname: str) -> None:
    html = app.builder.format == "html"
    for node in list(doctree.findall(ClaimVerdict)):
        if html:
            uri = app.builder.get_relative_uri(docname, CLAIMS_PAGE) + f"#claim-{node['claim_id']}"
            new = nodes.reference("", node.astext(), refuri=uri, internal=True)
        else:
            new = nodes.Text(node.astext())
        node.replace_self(new)


def _visit(self, node: nodes.Node) -> None:
    pass


def _depart(self, node: nodes.Node) -> None:
    pass


def setup(app: Sphinx) -> dict:
    app.add_role("claim", ClaimRole())
    app.add_node(
        ClaimVerdict, html=(_visit, _depart), latex=(_visit, _depart), text=(_visit, _depart)
    )
    app.connect("doctree-resolved", resolve_verdicts)
    return {"version": "1", "parallel_read_safe": True, "parallel_write_safe": True}
