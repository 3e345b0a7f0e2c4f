"""The ledger as one self-contained HTML block: a summary, a chapter filter and the table.

:class:`Ledger` shows it in a notebook: as that HTML block on the site and in JupyterLab,
and as a Markdown table (:func:`ledger_markdown`) where HTML cannot be shown, as in the
printed book (the LaTeX build takes the Markdown).

:func:`ledger_html` returns HTML with its own small stylesheet and script, so it works
on the static site with no kernel and no request to any other host, in a live
JupyterLab, in light and dark themes (colours come from the theme's CSS variables)
and on a phone (below 640 px each claim becomes a card).
"""

from __future__ import annotations

import re
from collections.abc import Callable, Sequence
from html import escape

from ..glossary import Entry as GlossaryEntry
from ..glossary import link_first_uses
from .ledger import VERDICTS, Entry, counts

__all__ = [
    "PAGE_TITLES",
    "VERDICT_LABELS",
    "Ledger",
    "ledger_html",
    "ledger_markdown",
    "summary_text",
]

VERDICT_LABELS = {
    "reproduced": "reproduced (empirical)",
    "recomputed": "recomputed (exact maths)",
    "by construction": "agrees by construction",
    "restated": "restated (numbers we did not produce)",
    "consistent": "consistent (a time or size on this machine)",
    "new": "new (answers a question the thesis leaves open)",
    "faster": "faster (over 3× under the thesis's time)",
    "differs": "differs (explained)",
    "not reproducible": "not reproducible",
    "unexplained": "differs, UNEXPLAINED",
}
_MARKS = {
    "reproduced": "✓",
    "recomputed": "=",
    "by construction": "≡",
    "restated": "↺",
    "consistent": "≈",
    "new": "+",
    "faster": "»",
    "differs": "≠",
    "not reproducible": "✗",
    "unexplained": "!",
}
PAGE_TITLES = {
    "game": "The game",
    "menace_mechanism": "MENACE's mechanism",
    "appendix_filters": "State filters",
    "appendix_double_threats": "Double threats",
    "appendix_enumeration": "Enumeration",
    "dirichlet": "Dirichlet",
    "dirichlet_categorical": "Dirichlet–categorical",
    "decomposition_algorithm": "Decomposition algorithm",
    "epistemic_vs_instrumental": "Epistemic vs instrumental",
    "experimental_design": "Experimental design",
    "empirical_results": "Empirical results",
    "michies_question": "Michie's question",
    "implementation_decisions": "Implementation decisions",
    "claims": "Claim by claim",
    "beyond_search": "Search with bead priors",
}
"""Short titles of the pages the ledger links to (the file name otherwise)."""

_CHAPTERS = {
    4: "4 · MENACE's history and mechanism",
    5: "5 · The Dirichlet–categorical model",
    6: "6 · Free energy in MENACE",
    7: "7 · Epistemic vs instrumental",
    8: "8 · Experimental design",
    9: "9 · Empirical results",
    10: "10 · Michie's question",
    11: "11 · Open questions (§11.6: Connect-4, search, adaptive λ, opponents)",
    0: "History: Michie, Gardner, Scroggs",
}

_STYLE = """
<style>
.claims-ledger {
  --cl-ok: var(--pst-color-success, #1b7f3b);
  /* Not the theme's warning orange: at 3:1 on white it fails WCAG AA for text. */
  --cl-diff: #a15c00;
  --cl-no: var(--pst-color-danger, #b4232a);
  /* Opaque, in the theme's own colours: the dark theme gives HTML outputs a light panel. */
  background: var(--pst-color-background, transparent);
  color: var(--pst-color-text-base, inherit);
  padding: .25rem;
}
html[data-theme="dark"] .claims-ledger { --cl-diff: #ffb86b; }
.claims-ledger .cl-summary { display: flex; flex-wrap: wrap; gap: .5rem 1.25rem; }
.claims-ledger .cl-count { font-size: 1.05rem; }
.claims-ledger .cl-count b { font-size: 1.35rem; }
.claims-ledger .cl-controls {
  display: flex; flex-wrap: wrap; gap: .5rem 1rem; align-items: center; margin: .5rem 0;
}
.claims-ledger select {
  max-width: 100%; padding: .2rem .3rem;
  color: var(--pst-color-text-base, inherit);
  background: var(--pst-color-surface, transparent);
  border: 1px solid var(--pst-color-border, #888);
}
/* Columns as wide as their longest word (words never break); a table wider than the
   page scrolls inside its focusable container. */
.claims-ledger .cl-scroll { overflow-x: auto; max-width: 100%; }
.claims-ledger table {
  width: 100%; border-collapse: collapse; font-size: .85rem; table-layout: auto;
}
.claims-ledger th, .claims-ledger td {
  vertical-align: top; padding: .35rem .3rem; text-align: left; overflow-wrap: normal;
  word-break: normal; white-space: normal;
  border-bottom: 1px solid var(--pst-color-border, #ccc);
}
.claims-ledger .cl-v { font-weight: 600; }
.claims-ledger .cl-reproduced .cl-v, .claims-ledger .cl-recomputed .cl-v,
.claims-ledger .cl-by-construction .cl-v, .claims-ledger .cl-restated .cl-v,
.claims-ledger .cl-consistent .cl-v, .claims-ledger .cl-new .cl-v,
.claims-ledger .cl-faster .cl-v { color: var(--cl-ok); }
.claims-ledger .cl-differs .cl-v, .claims-ledger .cl-unexplained .cl-v { color: var(--cl-diff); }
.claims-ledger .cl-not-reproducible .cl-v { color: var(--cl-no); }
.claims-ledger .cl-why, .claims-ledger .cl-note {
  display: block; font-size: .82rem; color: var(--pst-color-text-muted, inherit);
}
.claims-ledger tr[hidden] { display: none; }
@media (max-width: 640px) {
  .claims-ledger table, .claims-ledger tbody, .claims-ledger tr, .claims-ledger td {
    display: block;
  }
  .claims-ledger thead { display: none; }
  .claims-ledger tr {
    border: 1px solid var(--pst-color-border, #ccc); margin: 0 0 .6rem; padding: .2rem;
  }
  .claims-ledger td { border: 0; padding: .15rem .3rem; }
  .claims-ledger td::before { content: attr(data-label) ": "; font-weight: 600; }
}
</style>
"""

_SCRIPT = """
<script>
(function () {
  var root = document.getElementById("%(id)s");
  if (!root) { return; }
  var chapter = root.querySelector("select[name=chapter]");
  var verdict = root.querySelector("select[name=verdict]");
  var status = root.querySelector(".cl-status");
  function apply() {
    var c = chapter.value, v = verdict.value, shown = 0;
    root.querySelectorAll("tbody tr").forEach(function (row) {
      var ok = (c === "all" || row.dataset.chapters.split(" ").indexOf(c) >= 0) &&
               (v === "all" || row.dataset.verdict === v);
      row.hidden = !ok;
      if (ok) { shown += 1; }
    });
    var total = root.querySelectorAll("tbody tr").length;
    status.textContent = shown + " of " + total + " claims shown";
  }
  chapter.addEventListener("change", apply);
  verdict.addEventListener("change", apply);
  apply();
})();
</script>
"""


def summary_text(entries: Sequence[Entry]) -> str:
    """One line: how many claims got each verdict, what agrees, and how many distinct runs
    the empirical reproductions are."""
    c = counts(entries)
    parts = [f"{c[v]} {VERDICT_LABELS[v]}" for v in VERDICTS if c[v] or v != "unexplained"]
    history = f" and {c['historical']} of the historical record" if c["historical"] else ""
    return (
        f"{len(entries)} claims, {c['thesis']} of the thesis{history}: {c['agrees']} agree "
        f"with the thesis, {c['distinct reproductions']} of them distinct empirical "
        "reproductions (one run that several tables print counts once); " + ", ".join(parts)
    )


def _title(doc: str) -> str:
    return PAGE_TITLES.get(doc, doc.replace("_", " "))


def _link(href: str, text: str) -> str:
    return f'<a href="{escape(href)}">{escape(text)}</a>'


def _row(e: Entry, text: Callable[[str], str] = escape) -> str:
    """One claim's row; ``text`` turns its words into HTML (escaped, glossary terms linked)."""
    c = e.claim
    sections = (
        c.source if c.historical else ", ".join([f"§{c.section}", *(f"§{s}" for s in c.also)])
    )
    # The words in the order a reader meets them, so a term is linked at its first use.
    claim, thesis, ours = text(c.claim), text(c.thesis), text(e.measured.text)
    note = f'<span class="cl-note">{text(e.measured.note)}</span>' if e.measured.note else ""
    test = text(c.criterion.describe())
    # An outside source's value is what the test compares with: it goes with the test, never
    # in the thesis's column.
    source = f'<span class="cl-note">{text(c.reference)}</span>' if c.reference else ""
    verdict = VERDICT_LABELS[e.verdict]
    why = ""
    if e.why:
        why = text(e.why)
        if e.why_at is not None:
            why += " (" + _link(e.why_at.href(), "explained here") + ")"
        why = f'<span class="cl-why">{why}</span>'
    cells = [
        ("Section", escape(sections)),
        ("Claim", claim),
        ("Thesis", thesis),
        ("Ours", ours + note),
        ("Test", test + source),
        ("Verdict", f'<span class="cl-v">{_MARKS[e.verdict]} {escape(verdict)}</span>{why}'),
        ("Shown in", _link(c.shown.href(), c.shown.text or _title(c.shown.doc))),
    ]
    tds = "".join(f'<td data-label="{label}">{html}</td>' for label, html in cells)
    chapters = " ".join(str(ch) for ch in c.chapters)
    slug = e.verdict.replace(" ", "-")
    return (
        f'<tr id="claim-{escape(c.id)}" class="cl-{slug}" data-chapters="{chapters}" '
        f'data-verdict="{escape(e.verdict)}">{tds}</tr>'
    )


def ledger_html(
    entries: Sequence[Entry],
    element_id: str = "claims-ledger",
    glossary: Sequence[GlossaryEntry] = (),
) -> str:
    """The ledger as HTML: verdict counts, chapter and verdict filters, and one row per claim.

    With the book's ``glossary`` (:func:`menace_lib.book.glossary.read`), each term's first
    use in the table links to its definition, as a ``{term}`` role does in the prose.
    """
    c = counts(entries)
    summary = (
        f'<span class="cl-count"><b>{c["agrees"]}</b> agree with the thesis</span>'
        f'<span class="cl-count"><b>{c["distinct reproductions"]}</b> distinct empirical '
        "reproductions</span>"
    ) + "".join(
        f'<span class="cl-count cl-{v.replace(" ", "-")}"><b>{c[v]}</b> '
        f"{escape(VERDICT_LABELS[v])}</span>"
        for v in VERDICTS
        if c[v] or v != "unexplained"
    )
    # The thesis's chapters in order, the historical record (chapter 0) last.
    chapters = sorted(
        {ch for e in entries for ch in e.claim.chapters}, key=lambda ch: (ch == 0, ch)
    )
    # One chapter at a time by default, so the page stays short on a phone; "all
    # chapters" is one choice away (and every row is there without JavaScript).
    chapter_options = '<option value="all">all chapters</option>' + "".join(
        f'<option value="{ch}"{" selected" if i == 0 else ""}>'
        f"{escape(_CHAPTERS.get(ch, str(ch)))}</option>"
        for i, ch in enumerate(chapters)
    )
    verdict_options = '<option value="all">all verdicts</option>' + "".join(
        f'<option value="{escape(v)}">{escape(VERDICT_LABELS[v])}</option>'
        for v in VERDICTS
        if c[v]
    )
    names = ("Section", "Claim", "Thesis", "Ours", "Test", "Verdict", "Shown in")
    head = "".join(f'<th scope="col">{h}</th>' for h in names)
    seen: set[GlossaryEntry] = set()

    def text(s: str) -> str:
        return link_first_uses(s, glossary, seen)

    rows = "\n".join(_row(e, text if glossary else escape) for e in entries)
    return (
        _STYLE
        + f'<div class="claims-ledger" id="{escape(element_id)}">'
        + f'<p class="cl-summary">{summary}</p>'
        + '<div class="cl-controls">'
        + f'<label>Chapter <select name="chapter">{chapter_options}</select></label>'
        + f'<label>Verdict <select name="verdict">{verdict_options}</select></label>'
        + f'<span class="cl-status" aria-live="polite">{len(entries)} claims</span>'
        + "</div>"
        + '<div class="cl-scroll" tabindex="0" role="region" aria-label="The claims">'
        + f'<table aria-label="{escape(summary_text(entries))}">'
        + f"<thead><tr>{head}</tr></thead><tbody>\n{rows}\n</tbody></table></div></div>"
        + _SCRIPT % {"id": escape(element_id)}
    )


def _md_cell(text: str) -> str:
    """A table cell of GitHub-flavoured Markdown: the text itself, no markup of its own."""
    text = " ".join(text.split())
    return re.sub(r"([\\`*_\[\]<>|$#~])", r"\\\1", text)


def ledger_markdown(entries: Sequence[Entry]) -> str:
    """The ledger as a Markdown table, one row per claim, with its verdict and the reason.

    What the printed book shows in place of :func:`ledger_html` (paper has no filter):
    the summary line, then section, claim, the thesis's value, ours, and the verdict.
    """
    lines = [
        _md_cell(summary_text(entries)) + ".",
        "",
        "| Section | Claim | Thesis | Ours | Verdict |",
        "|---|---|---|---|---|",
    ]
    for e in entries:
        c = e.claim
        sections = (
            c.source if c.historical else ", ".join([f"§{c.section}", *(f"§{s}" for s in c.also)])
        )
        ours = e.measured.text + (f" ({e.measured.note})" if e.measured.note else "")
        verdict = VERDICT_LABELS[e.verdict] + (f": {e.why}" if e.why else "")
        if c.reference:
            verdict += f" (against {c.reference})"
        cells = (sections, c.claim, c.thesis, ours, verdict)
        lines.append("| " + " | ".join(_md_cell(x) for x in cells) + " |")
    return "\n".join(lines) + "\n"


class Ledger:
    """The ledger for a notebook's output: HTML where it can be shown, else Markdown."""

    def __init__(
        self,
        entries: Sequence[Entry],
        element_id: str = "claims-ledger",
        glossary: Sequence[GlossaryEntry] = (),
    ) -> None:
        self.entries = list(entries)
        self.element_id = element_id
        self.glossary = tuple(glossary)

    def _repr_html_(self) -> str:
        return ledger_html(self.entries, self.element_id, self.glossary)

    def _repr_markdown_(self) -> str:
        return ledger_markdown(self.entries)

    def __repr__(self) -> str:
        return summary_text(self.entries)
