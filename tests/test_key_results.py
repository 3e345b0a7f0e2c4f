"""The key-results summary: numbers from the cached results, verdicts from the claims ledger."""

from __future__ import annotations

import json
import re
from pathlib import Path

import pytest

from menace_lib.book.summary import key_results, key_results_table
from menace_lib.experiments import SuiteResult
from menace_lib.experiments.verdicts import VERDICTS, committed

ROOT = Path(__file__).resolve().parents[1]
DATA = ROOT / "book" / "data"


@pytest.fixture(scope="module")
def thesis() -> SuiteResult:
    return SuiteResult.load_json(DATA / "thesis_results.json")


def test_every_claim_has_numbers_a_verdict_and_a_chapter(thesis):
    results = key_results(thesis)
    toc = (ROOT / "_toc.yml").read_text(encoding="utf-8")
    assert len(results) >= 8
    for r in results:
        assert all(v in VERDICTS for v in r.verdict.split(" / "))
        assert r.thesis and r.exact and r.sampled and r.claims
        assert re.search(rf"file:\s*book/{r.chapter}\s*$", toc, re.M), r.chapter
    # The thesis's own numbers (golden, Table 9.1) reach the summary unchanged.
    assert results[0].thesis.startswith("84.5 ± 8.1")


def test_every_verdict_is_the_ledgers(thesis):
    ledger = committed(DATA)
    for r in key_results(thesis):
        assert r.verdict.split(" / ") == [ledger[c]["verdict"] for c in r.claims] or (
            {ledger[c]["verdict"] for c in r.claims} == {r.verdict}
        )
    # The rows an audit found judged twice now carry the ledger's verdict.
    by_claims = {r.claims: r for r in key_results(thesis)}
    assert by_claims[("9.8.1-filter-advantage",)].verdict == "differs"
    assert by_claims[("7.5.3-information-gap",)].verdict == "differs"
    assert by_claims[("7.5.1-comparable", "9.11-menace-matches")].verdict == "differs"


def test_a_changed_ledger_changes_the_summary(thesis, tmp_path):
    doc = json.loads((DATA / "claims.json").read_text(encoding="utf-8"))
    for c in doc["claims"]:
        if c["id"] == "9.1-menace-restock-box":
            c["verdict"], c["why"] = "differs", "doctored"
    (tmp_path / "claims.json").write_text(json.dumps(doc), encoding="utf-8")
    first = key_results(thesis, data_dir=tmp_path)[0]
    assert (first.verdict, first.why) == ("differs", "doctored")


def test_a_row_naming_an_unknown_claim_is_refused(thesis, tmp_path):
    doc = json.loads((DATA / "claims.json").read_text(encoding="utf-8"))
    doc["claims"] = [c for c in doc["claims"] if c["id"] != "7.3-policy"]
    (tmp_path / "claims.json").write_text(json.dumps(doc), encoding="utf-8")
    with pytest.raises(KeyError, match="7.3-policy"):
        key_results(thesis, data_dir=tmp_path)


def test_table_links_each_claim_to_its_chapter(thesis):
    results = key_results(thesis)
    table = key_results_table(results).splitlines()
    assert len(table) == 2 + len(results)
    for line, r in zip(table[2:], results, strict=True):
        assert line.startswith(f"| {{doc}}`{r.claim} <{r.chapter}>` |")
        # Each claim's verdict beside the ledger's own figure, its measure and seed count.
        assert f"| {r.ledger} |" in line
        for claim, verdict in zip(r.claims, r.verdict.split(" / "), strict=False):
            assert f"**{verdict}**: " in r.ledger, claim


def test_the_ledgers_figure_stands_beside_the_ten_seed_numbers(thesis):
    # The exact and sampled columns are ten-seed means; the ledger's figure (often over 40
    # seeds) is the one the prose quotes, so the table labels both.
    table = key_results_table(key_results(thesis))
    header = table.splitlines()[0]
    assert "Exact, 10 seeds" in header and "100 games, 10 seeds" in header
    restock = next(line for line in table.splitlines() if "Restocking colours" in line)
    ours = committed(DATA)["9.8.2-move-underperforms"]["ours"].replace("-", "−")
    assert ours in restock and "40 seeds" in restock
