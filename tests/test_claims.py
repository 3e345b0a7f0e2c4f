"""The claims ledger: its verdicts against the committed snapshot, its rules, its statistics,
and slices of its cached results re-run live."""

from __future__ import annotations

import json
import re
from pathlib import Path

import numpy as np
import pytest
from scipy import stats as sps

from menace_lib.base.reproducibility import assert_same_numbers
from menace_lib.book.claims import (
    CLAIMS,
    Evidence,
    build_ledger,
    compare_snapshot,
    read_snapshot,
    snapshot,
    stats,
)
from menace_lib.book.claims import cache as claims_cache
from menace_lib.book.claims import catalogue as catalogue_module
from menace_lib.book.claims.dynamics import PERFECT_ONLY, DynamicsObserver, observe_run
from menace_lib.book.claims.findings import (
    BIMODAL_KEYS,
    row_check,
    seed_count_table,
    thesis_successes,
)
from menace_lib.book.claims.ledger import (
    AtLeast,
    AtMost,
    Claim,
    Equals,
    Holds,
    Link,
    Measured,
    NothingToCompare,
    Within,
    WithinSpread,
    counts,
    evaluate,
)
from menace_lib.book.claims.regret import REGRET_RULES, chunk_stream, regret_chunk
from menace_lib.book.claims.render import ledger_html
from menace_lib.experiments import THESIS_SUITE, Protocol, run_suite
from menace_lib.experiments.verdicts import AGREEING, KINDS

ROOT = Path(__file__).resolve().parents[1]
DATA = ROOT / "book" / "data"


@pytest.fixture(scope="module")
def evidence() -> Evidence:
    return Evidence(DATA)


@pytest.fixture(scope="module")
def entries(evidence):
    return build_ledger(evidence)


# --- the ledger as a whole ---------------------------------------------------------------


def test_every_verdict_and_value_matches_the_committed_snapshot(entries):
    """A library change that moves a number shows up here, and on the page, as a change."""
    assert compare_snapshot(entries, read_snapshot(DATA)) == []


def test_no_claim_is_left_unexplained(entries):
    unexplained = [e.claim.id for e in entries if e.verdict == "unexplained"]
    assert unexplained == []
    for e in entries:
        if e.verdict == "differs":
            assert e.why and e.why_at is not None, e.claim.id
        if e.verdict == "not reproducible":
            assert e.why, e.claim.id


def test_reproduced_claims_carry_no_stale_explanation(entries):
    for e in entries:
        if e.verdict in AGREEING:
            assert not e.claim.explanation and not e.claim.reason, e.claim.id


def test_reproduced_counts_only_empirical_agreement(entries):
    c = counts(entries)
    assert c["agrees"] == sum(e.verdict in AGREEING and not e.claim.historical for e in entries)
    assert c["agrees"] < sum(c[v] for v in AGREEING)  # the historical record's are not counted
    for e in entries:
        if e.passed:
            assert e.verdict == KINDS[e.claim.kind], e.claim.id
    kinds = {e.claim.id: e.verdict for e in entries}
    # Settings echoes, exact counts and the thesis's own numbers are not reproductions.
    assert kinds["4.2-reinforcement"] == "by construction"
    assert kinds["5.1-games"] == "recomputed"
    assert kinds["9.6-intervals"] == "restated"
    assert kinds["9.1-menace-restock-box"] == "reproduced"
    assert c["reproduced"] < c["agrees"]


def test_one_comparison_one_verdict(entries):
    # §7.5.1 "comparable" and §9.11 "matches" are the same comparison (an audit found them
    # judged by two tests with opposite verdicts).
    by_id = {e.claim.id: e for e in entries}
    a, b = by_id["7.5.1-comparable"], by_id["9.11-menace-matches"]
    assert a.verdict == b.verdict == "differs"
    assert a.measured == b.measured


def test_the_catalogue_is_data_checked_by_its_schema():
    from menace_lib.base.files import AgentFileError
    from menace_lib.book.claims.catalogue import load_records

    text = (Path(catalogue_module.__file__).parent / "catalogue.json").read_text("utf-8")
    records = load_records(text)
    assert len(records) == len(CLAIMS)
    doc = json.loads(text)
    doc["claim"][0]["kind"] = "hearsay"
    with pytest.raises(AgentFileError, match="hearsay"):
        load_records(json.dumps(doc))
    doc = json.loads(text)
    doc["claim"][0]["criterion"] = {"rule": "within", "target": 1}
    with pytest.raises(AgentFileError, match="tol"):
        load_records(json.dumps(doc))
    doc = json.loads(text)
    doc["claim"][0]["measure"] = "no_such_measure"
    with pytest.raises(ValueError, match="no_such_measure"):
        catalogue_module.claims(json.loads(json.dumps(doc))["claim"])


def test_the_ledger_covers_chapters_4_to_10_connect4_and_every_table_row():
    assert len(CLAIMS) >= 50
    assert {ch for c in CLAIMS if not c.historical for ch in c.chapters} == set(range(4, 12))
    # the historical record the book retells: one block, each row with its source
    historical = [c for c in CLAIMS if c.historical]
    assert len(historical) >= 10 and all(c.source and c.chapter == 0 for c in historical)
    first = CLAIMS.index(historical[0])
    assert all(c.historical for c in CLAIMS[first : first + len(historical)])
    sections = {c.section for c in CLAIMS}
    for needed in ("7.3", "8.8", "9.2", "9.5", "9.6", "9.8.3", "9.10", "11.6.2"):
        assert needed in sections
    ids = {c.id for c in CLAIMS}
    # one entry per row of Tables 7.1 and 9.1-9.4 (the suite's extra "resign" row aside)
    assert {f"7.3-table-7.1-a{i}" for i in (1, 2, 3)} <= ids
    rows = [c for c in THESIS_SUITE if c.key != "9.4/MENACE/no restock"]
    assert len(rows) == 19
    measured = {c.id for c in CLAIMS if c.measure.__qualname__.startswith("_row.")}
    assert len(measured) == len(rows)


def _anchors(doc: str) -> set[str]:
    """Labels ``(name)=`` and heading ids of a book page, as Sphinx makes them."""
    path = next(
        p for p in (ROOT / "book" / f"{doc}.ipynb", ROOT / "book" / f"{doc}.md") if p.exists()
    )
    text = path.read_text(encoding="utf-8")
    if path.suffix == ".ipynb":
        import nbformat

        text = "\n".join(
            c.source for c in nbformat.reads(text, 4).cells if c.cell_type == "markdown"
        )
    labels = set(re.findall(r"^\(([\w.-]+)\)=\s*$", text, flags=re.M))
    for heading in re.findall(r"^#+ (.+)$", text, flags=re.M):
        slug = re.sub(r"[^a-z0-9]+", "-", heading.lower()).strip("-")
        labels.add(slug)
    return labels


def test_every_link_points_at_a_built_page_and_an_existing_anchor():
    toc = (ROOT / "_toc.yml").read_text(encoding="utf-8")
    links = [c.shown for c in CLAIMS] + [c.explained_at for c in CLAIMS if c.explained_at]
    for link in links:
        assert f"file: book/{link.doc}" in toc, link
        if link.anchor:
            assert link.anchor in _anchors(link.doc), link


def test_claim_ids_are_unique_ascii_and_sections_numbered():
    ids = [c.id for c in CLAIMS]
    assert len(ids) == len(set(ids))
    for c in CLAIMS:
        assert c.id.isascii() and " " not in c.id, c.id
        assert re.fullmatch(r"\d+(\.\d+)*|H\.\d+", c.section), c.section


def test_snapshot_document_round_trips(entries, tmp_path):
    from menace_lib.book.claims import write_snapshot

    path = write_snapshot(entries, tmp_path)
    stored = read_snapshot(tmp_path)
    assert path.name == "claims.json"
    assert stored == snapshot(entries)
    stored["claims"][0]["ours"] = "something else"
    assert compare_snapshot(entries, stored) == [
        f"{entries[0].claim.id}: ours 'something else' → {entries[0].measured.text!r}"
    ]


def test_the_page_html_is_self_contained_and_filterable(entries):
    html = ledger_html(entries)
    assert html.count('<tr id="claim-') == len(entries)
    assert 'name="chapter"' in html and 'name="verdict"' in html
    for chapter in range(4, 11):
        assert f'<option value="{chapter}"' in html
    # one chapter at a time by default (the page fits a phone), every row still in the HTML
    assert html.count(" selected>") == 1 and '<option value="4" selected>' in html
    assert 'class="cl-scroll" tabindex="0"' in html  # wide tables scroll, focusable
    assert "http://" not in html and "https://" not in html  # no outside request
    for verdict in ("reproduced (empirical)", "differs (explained)", "not reproducible"):
        assert verdict in html


def test_claims_command_checks_the_snapshot(capsys):
    from menace_lib.cli import main

    assert main(["claims", "--data", str(DATA), "--check"]) == 0
    assert " of the thesis" in capsys.readouterr().out


# --- verdict rules -----------------------------------------------------------------------


def _claim(value, criterion, **extra) -> Claim:
    return Claim("x-1", "9.9", "a claim", "1", lambda ev: value, criterion, Link("claims"), **extra)


def test_verdicts_follow_criterion_explanation_reason_and_chance():
    link = Link("empirical_results", "er-variance")
    passed = evaluate(_claim(Measured(3, "3"), Equals(3)), None)
    assert passed.verdict == "reproduced"
    explained = _claim(Measured(4, "4"), Equals(3), explanation="because", explained_at=link)
    assert evaluate(explained, None).verdict == "differs"
    assert evaluate(_claim(Measured(4, "4"), Equals(3), reason="no data"), None).verdict == (
        "not reproducible"
    )
    assert evaluate(_claim(Measured(4, "4"), Equals(3)), None).verdict == "unexplained"
    lucky = evaluate(_claim(Measured(4, "4", chance=0.2), Equals(3)), None, link)
    assert lucky.verdict == "differs" and "0.20" in lucky.why and lucky.why_at == link
    unlucky = _claim(Measured(4, "4", chance=0.01), Equals(3))
    assert evaluate(unlucky, None).verdict == "unexplained"


def test_a_claim_needs_a_link_for_its_explanation_and_not_both_kinds():
    with pytest.raises(ValueError, match="link"):
        _claim(Measured(1, "1"), Equals(1), explanation="why")
    with pytest.raises(ValueError, match="not both"):
        _claim(Measured(1, "1"), Equals(1), explanation="a", explained_at=Link("x"), reason="b")
    with pytest.raises(TypeError, match="Measured"):
        evaluate(_claim(5, Equals(5)), None)


def test_criteria():
    assert WithinSpread(84.5, 8.1).holds(77.0) and not WithinSpread(97.9, 1.9).holds(88.5)
    assert Within((0.165, 0.091), 0.0005).holds((0.1652, 0.0907))
    assert not Within((0.165, 0.091), 0.0005).holds((0.1652,))
    assert not Within(1.0, 0.1).holds(float("nan"))
    assert AtLeast(0.05).holds(0.05) and not AtLeast(0.05).holds(0.04)
    assert AtMost(100).holds(17.5) and not AtMost(100).holds(None)
    assert Holds("x").holds(True) and not Holds("x").holds(0)
    assert not NothingToCompare().holds(42)


# --- statistics ------------------------------------------------------------------------------


def test_variance_split_is_the_law_of_total_variance():
    rng = np.random.default_rng(0)
    p = rng.uniform(0.6, 0.95, 4000)
    sampled = rng.binomial(100, p) / 100
    split = stats.variance_split(p, sampled, 100)
    assert split.training + split.evaluation == pytest.approx(split.total, rel=0.05)
    assert split.training == pytest.approx(1e4 * p.var(ddof=1))


def test_thesis_variance_split_recovers_a_known_split():
    training_sd, p = 4.0, 0.85
    total = training_sd**2 + 1e4 * (p * (1 - p) - (training_sd / 100) ** 2) / 100
    split = stats.thesis_variance_split(100 * p, np.sqrt(total), 10, 100)
    assert np.sqrt(split.training) == pytest.approx(training_sd)
    # a bimodal row's SD can exceed what rates in [0, 1] allow: clipped, never negative
    assert stats.thesis_variance_split(10.2, 30.9, 10, 100).evaluation >= 0


def test_printed_intervals_are_the_thesis_section_9_6_ones():
    lo, hi = stats.printed_interval(67.5, 1.8, 10)
    assert (round(lo, 1), round(hi, 1)) == (66.4, 68.6)
    lo_t, hi_t = stats.printed_interval(67.5, 1.8, 10, normal=False)
    assert lo_t < lo and hi_t > hi


def test_mean_intervals_match_scipy():
    x = np.random.default_rng(1).normal(size=(10, 3))
    lo, hi = stats.mean_intervals(x)
    ref = sps.t.interval(0.95, 9, loc=x[:, 1].mean(), scale=sps.sem(x[:, 1]))
    assert (lo[1], hi[1]) == pytest.approx(ref)


def test_tail_probabilities_are_the_issue_examples():
    # SARSA defensive: 2 of 40 seeds succeed; the thesis saw 2 of 10
    assert stats.tail_probability(2, 10, 2 / 40) == pytest.approx(0.086, abs=0.001)
    # no restock: 9 of 40 seeds empty a box; the thesis saw 4 of 10
    assert stats.tail_probability(4, 10, 9 / 40) == pytest.approx(0.17, abs=0.005)
    assert stats.tail_probability(0, 10, 0.5) == pytest.approx(0.5**10)
    with pytest.raises(ValueError, match="k must"):
        stats.tail_probability(11, 10, 0.5)


def test_welch_handles_identical_and_constant_samples():
    assert stats.welch([96.2] * 5, [96.2] * 5) == (0.0, 1.0)
    assert stats.welch([1.0] * 3, [2.0] * 3) == (-1.0, 0.0)
    x, y = [1.0, 2.0, 3.0], [2.0, 3.0, 5.0]
    assert stats.welch(x, y)[1] == pytest.approx(sps.ttest_ind(x, y, equal_var=False).pvalue)


def test_curve_shapes_tell_decay_from_step_and_relapse():
    t = np.linspace(0, 500, 21)
    decay = 0.2 + 0.6 * np.exp(-t / 80)
    step = np.where(t < 300, 0.8, 0.1)
    relapse = step.copy()
    relapse[15] = 0.9
    smooth = stats.curve_shape(t, np.tile(decay, (3, 1)))
    assert smooth.exponential_r2 > 0.999 and smooth.step_r2 < smooth.exponential_r2
    stepped = stats.curve_shape(t, np.tile(step, (3, 1)))
    assert stepped.step_r2 == pytest.approx(1.0) and stepped.relapses == 0
    assert stats.curve_shape(t, np.array([step, relapse])).relapses == 0.5


def test_pointwise_difference_applies_holm():
    rng = np.random.default_rng(2)
    a = rng.normal(size=(10, 20))
    p, sig = stats.pointwise_difference(a, a + 0.01 * rng.normal(size=(10, 20)))
    assert not sig.any() and p.min() > 0.05
    _, sig = stats.pointwise_difference(a, a + 5)
    assert sig.all()


def test_bimodal_counts_from_printed_means():
    assert [thesis_successes(m) for m in (10.2, 20.5, 98.0, 97.9)] == [1, 2, 10, 10]


def test_row_checks_judge_on_the_thesis_spread(evidence):
    sarsa = row_check(evidence, "9.1/SARSA/random")
    assert sarsa.bimodal and not sarsa.agrees and not sarsa.passed
    assert sarsa.many_seeds == 40 and 0 <= sarsa.chance <= 1
    menace = row_check(evidence, "9.1/MENACE/restock box")
    assert menace.passed and not menace.bimodal
    assert set(BIMODAL_KEYS) <= {c.key for c in THESIS_SUITE}


# --- the caches: a slice of each, re-run live ------------------------------------------------


def test_many_seed_cache_matches_a_live_rerun(evidence):
    doc = evidence.seeds
    assert doc["seeds"] == 40
    keys = ("9.1/MENACE/restock box", "9.4/MENACE/no restock (stop)")
    stopped = doc["rows"][keys[1]]["stopped"]
    seeds = [23, next(s for s in range(10, 40) if stopped[s])]  # include a seed that stops
    conditions = [c for c in THESIS_SUITE if c.key in keys]
    live = run_suite(
        conditions, seeds=seeds, protocol=Protocol(**doc["protocol"]), n_jobs=1, cache=False
    )
    for key in keys:
        for record in live.records_for(key):
            for field in ("val_draw", "exact_draw", "train_draw", "stopped", "resigned_games"):
                stored = doc["rows"][key][field][record["seed"]]
                assert_same_numbers(record[field], stored, f"{key} {field}")


def test_many_seed_cache_starts_with_the_stored_suite(evidence):
    for c in THESIS_SUITE:
        stored = [r["val_draw"] for r in evidence.thesis.records_for(c.key)]
        assert evidence.many(c.key, "val_draw")[:10].tolist() == stored, c.key


@pytest.mark.golden
def test_dynamics_cache_matches_a_live_rerun_and_the_suite(evidence):
    doc = evidence.dynamics
    protocol = Protocol(**doc["protocol"])
    for condition, seed in ((PERFECT_ONLY, 3), (THESIS_SUITE[0], 4)):
        live = observe_run(condition, seed, protocol)
        stored = next(r for r in doc["runs"] if r["key"] == condition.key and r["seed"] == seed)
        assert_same_numbers(live, stored, condition.key)
    # the same runs as the stored suite: every exact learning curve agrees
    for run in doc["runs"]:
        if run["key"].startswith("extra/"):
            continue
        record = evidence.thesis.records_for(run["key"])[run["seed"]]
        assert_same_numbers(run["exact_draw"][1:], record["curve"]["draw"], run["key"])


def test_dynamics_observer_records_every_metric():
    observer = DynamicsObserver("menace")
    run = observe_run(PERFECT_ONLY.with_games(50), 0, Protocol(curve_points=2))
    assert len(run["observations"]) == 2 and run["games"][0] == 0
    last = run["observations"][-1]
    assert {"kl_forward", "reverse_finite", "agreement", "entropy", "coverage", "beads"} <= set(
        last
    )
    assert 0 < last["coverage"] <= 1 and 0 <= last["agreement"] <= 1
    with pytest.raises(ValueError, match="window"):
        DynamicsObserver("menace", window=0)
    assert observer.kind == "menace"


def test_regret_cache_matches_a_live_rerun(evidence):
    doc = evidence.regret
    rule = REGRET_RULES[0]
    live = regret_chunk(
        rule, doc["steps"], doc["runs"] // doc["chunks"], chunk_stream(doc, rule, 0), doc["points"]
    )
    assert live == doc["curves"][rule][0]


def test_computational_cache_has_the_thesis_figures(evidence):
    from menace_lib.experiments.bench import THESIS_FIGURES

    c = evidence.computational
    assert c["cores"] >= 1 and c["suite_s"] > 0 and c["sweep_s"] > 0
    kinds = {"menace", "instrumental", "hybrid", "pure", "oracle", "qlearning", "sarsa"}
    assert set(c["train_500_s"]) == kinds == set(c["memory_mb"])
    assert all(v["agent_mb"] <= v["process_mb"] for v in c["memory_mb"].values())
    assert set(THESIS_FIGURES) == {"train_500_s", "suite_s", "sweep_s", "memory_mb"}


def test_caches_refuse_a_wrong_format(tmp_path):
    with pytest.raises(ValueError, match="unknown cache"):
        claims_cache.cache_path("nope")
    with pytest.raises(ValueError, match="format"):
        claims_cache.save("regret", {"format": "other"}, tmp_path)
    (tmp_path / "claims_regret.json").write_text('{"format": "menace_lib.claims.seeds"}')
    with pytest.raises(ValueError, match="format"):
        claims_cache.load("regret", tmp_path)


def test_seed_count_table_reports_the_issues_probabilities(evidence):
    """Empirical results: rows that miss the thesis get the forty-seed rate and P(thesis).

    Golden numbers from the reader audit: SARSA defensive 2 of 40 seeds succeed, so
    p ≈ 0.09 for the thesis's 2 of 10; no restock 9 of 40 seeds empty a box, p ≈ 0.17.
    """
    rows = {r["row"]: r for r in seed_count_table(evidence)}
    sarsa = rows["9.1 SARSA (defensive)"]
    assert (sarsa["ours, 40 seeds"], sarsa["thesis"]) == ("2 of 40", "2 of 10")
    assert sarsa["P(thesis's outcome)"] == "0.09" and sarsa["matches"] == "no"
    (stop,) = [r for k, r in rows.items() if "empty box" in k]
    assert (stop["ours, 40 seeds"], stop["thesis"]) == ("9 of 40", "4 of 10")
    assert stop["P(thesis's outcome)"] == "0.17"
    # A row within the thesis's spread that is not bimodal is not listed.
    assert not any(k.startswith("9.1 MENACE") for k in rows)


def test_the_page_from_the_snapshot_equals_the_measured_ledger(entries):
    from menace_lib.book.claims import entries_from_snapshot

    stored = entries_from_snapshot(read_snapshot(DATA))
    assert ledger_html(stored) == ledger_html(entries)
    assert [e.verdict for e in stored] == [e.verdict for e in entries]
