"""No page of the book disagrees with the claims ledger.

The ledger (menace_lib.book.claims, committed as book/data/claims.json) is the one owner of
every verdict. A page that states a verdict on a claim names the claim by its id in
backticks, followed by the verdict: ``9.8.1-filter-advantage``: differs, or writes the
``{claim}`9.8.1-filter-advantage:verdict``` role, which prints the ledger's word. This test
reads every page's sources and stored outputs and checks each such statement against
the ledger, and that the pages built from the ledger show its counts.
"""

from __future__ import annotations

import json
import re
from pathlib import Path

import pytest

from menace_lib.experiments.verdicts import VERDICTS, committed

ROOT = Path(__file__).resolve().parents[1]
BOOK = ROOT / "book"
LEDGER = committed(BOOK / "data")
_WORDS = "|".join(sorted((re.escape(v) for v in VERDICTS), key=len, reverse=True))
TAGGED = re.compile(
    r"`(?P<id>[0-9][0-9a-z.-]*)`\W{0,4}(?:verdict\W{0,3})?(?P<verdict>" + _WORDS + ")"
)


def _texts(path: Path) -> list[str]:
    if path.suffix == ".md":
        return [path.read_text(encoding="utf-8")]
    nb = json.loads(path.read_text(encoding="utf-8"))
    out = []
    for cell in nb["cells"]:
        out.append("".join(cell["source"]))
        for o in cell.get("outputs", []):
            data = o.get("data", {})
            for kind in ("text/markdown", "text/plain"):
                if kind in data:
                    out.append("".join(data[kind]))
            if "text" in o:
                out.append("".join(o["text"]))
    return out


PAGES = sorted(p for p in BOOK.glob("*") if p.suffix in (".md", ".ipynb"))


def tagged_statements(text: str) -> list[tuple[str, str]]:
    """Every (claim id, verdict) a text states with the id-tagged convention."""
    return [(m["id"], m["verdict"]) for m in TAGGED.finditer(text) if m["id"] in LEDGER]


def test_the_convention_is_recognised():
    assert tagged_statements("the filter (`9.8.1-filter-advantage`: differs) and") == [
        ("9.8.1-filter-advantage", "differs")
    ]
    assert tagged_statements("`5.1-games` — recomputed") == [("5.1-games", "recomputed")]


@pytest.mark.parametrize("page", PAGES, ids=lambda p: p.name)
def test_no_page_states_a_verdict_the_ledger_does_not_give(page):
    for text in _texts(page):
        for claim_id, verdict in tagged_statements(text):
            assert verdict == LEDGER[claim_id]["verdict"], (
                f"{page.name}: `{claim_id}` is '{verdict}' there, "
                f"'{LEDGER[claim_id]['verdict']}' in the ledger"
            )


def test_the_pages_that_judge_say_so_with_the_ledger():
    # The Discussion states its verdicts with the {claim}`id:verdict` role: the word is the
    # ledger's, read at build time, and the rendered page shows no id.
    discussion = (BOOK / "discussion.md").read_text(encoding="utf-8")
    roles = re.findall(r"\{claim\}`([0-9][0-9a-z.-]*):verdict`", discussion)
    assert len(roles) + len(tagged_statements(discussion)) >= 5
    assert all(r in LEDGER for r in roles)
