"""The key-results summary: every claim's numbers and verdict come from the cached results."""

from __future__ import annotations

import copy
import re
from pathlib import Path

import pytest

from menace_lib.experiments import SuiteResult
from menace_lib.experiments.summary import DIFFERS, REPRODUCED, key_results, key_results_table

ROOT = Path(__file__).resolve().parents[1]
DATA = ROOT / "book" / "data"


@pytest.fixture(scope="module")
def suites() -> tuple[SuiteResult, SuiteResult]:
    return (
        SuiteResult.load_json(DATA / "thesis_results.json"),
        SuiteResult.load_json(DATA / "lambda_results.json"),
    )


def test_every_claim_has_numbers_a_verdict_and_a_chapter(suites):
    results = key_results(*suites)
    toc = (ROOT / "_toc.yml").read_text(encoding="utf-8")
    assert len(results) >= 8
    for r in results:
        assert r.verdict in {REPRODUCED, DIFFERS}
        assert r.thesis and r.exact and r.sampled and r.why
        assert re.search(rf"file:\s*book/{r.chapter}\s*$", toc, re.M), r.chapter
    # The thesis's own numbers (golden, Table 9.1) reach the summary unchanged.
    assert results[0].thesis.startswith("84.5 ± 8.1")


def test_verdicts_follow_the_data(suites):
    thesis, sweep = suites
    results = {r.claim: r for r in key_results(thesis, sweep)}
    menace = next(c for c in results if c.startswith("MENACE learns"))
    assert results[menace].verdict == REPRODUCED
    doctored = copy.deepcopy(thesis)
    doctored.row("9.1/MENACE/restock box")["agrees"] = False
    assert {r.claim: r for r in key_results(doctored, sweep)}[menace].verdict == DIFFERS
    # If curiosity paid off at one λ, the claim that it costs draws would no longer hold.
    curiosity = next(c for c in results if c.startswith("Pricing information"))
    assert results[curiosity].verdict == REPRODUCED
    better = copy.deepcopy(sweep)
    for record in better.records_for("λ/Hybrid AIF/λ=0.1"):
        record["exact_draw"] = 1.0
    assert {r.claim: r for r in key_results(thesis, better)}[curiosity].verdict == DIFFERS


def test_table_links_each_claim_to_its_chapter(suites):
    results = key_results(*suites)
    table = key_results_table(results).splitlines()
    assert len(table) == 2 + len(results)
    for line, r in zip(table[2:], results, strict=True):
        assert line.startswith(f"| {{doc}}`{r.claim} <{r.chapter}>` |")
        assert f"| {r.verdict} |" in line
