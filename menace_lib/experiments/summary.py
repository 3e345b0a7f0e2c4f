"""The key results on one screen: the thesis's main claims, what the book finds, a verdict.

:func:`key_results` reads the cached suite results (``book/data/thesis_results.json`` and
``book/data/lambda_results.json``, made by ``python -m menace_lib experiment``) and returns
one :class:`KeyResult` per claim. Every number and every verdict is computed here from those
files (and, for the worked example, from :mod:`menace_lib.efe`); nothing is typed in.

Verdicts
--------
``reproduced``
    The book's numbers support the claim by the test named in ``why`` -- for a results-table
    row, the thesis's mean lies within our mean ± one seed SD (``agrees`` in
    :mod:`menace_lib.experiments.results`).
``differs``
    They do not; ``why`` says why, as far as it is known.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

import numpy as np

from ..display import markdown_table
from ..efe import THESIS_TABLE_7_1, worked_example
from .results import SuiteResult, difference

__all__ = ["KeyResult", "key_results", "key_results_table"]

REPRODUCED, DIFFERS = "reproduced", "differs"

MENACE = "9.1/MENACE/restock box"
INSTRUMENTAL = "9.1/Instrumental AIF/λ=0"
SWEEP_BASES = {"Hybrid AIF": "λ/Instrumental AIF/λ=0", "Pure AIF": "λ/Pure AIF/λ=0"}
RL_ROWS = ("9.1/Q-learning/random", "9.1/Q-learning/defensive", "9.1/SARSA/random",
           "9.1/SARSA/defensive")  # fmt: skip


@dataclass(frozen=True)
class KeyResult:
    """One claim of the thesis and what the book finds about it."""

    claim: str
    thesis: str
    exact: str
    sampled: str
    verdict: str
    why: str
    chapter: str  # the book page that shows it (a docname, e.g. "empirical_results")


def _pm(mean: float, sd: float) -> str:
    return f"{mean:.1f} ± {sd:.1f}"


def _gap(d: dict) -> str:
    return f"{d['difference']:+.1f} ± {d['se']:.1f} pp"


def _verdict(ok: bool) -> str:
    return REPRODUCED if ok else DIFFERS


def _table_row(result: SuiteResult, key: str) -> tuple[str, str, str]:
    """Thesis, exact and sampled draw % of one results-table row, as text."""
    r = result.row(key)
    thesis = _pm(r["thesis_draw"], r["thesis_draw_sd"])
    return thesis, _pm(r["exact_draw_mean"], r["exact_draw_sd"]), _pm(r["draw_mean"], r["draw_sd"])


def _menace_learns(thesis: SuiteResult) -> KeyResult:
    r = thesis.row(MENACE)
    t, exact, sampled = _table_row(thesis, MENACE)
    return KeyResult(
        "MENACE learns to draw against a perfect player (T9.1)",
        t,
        exact,
        sampled,
        _verdict(r["agrees"]),
        f"thesis mean within our seed SD (z = {r['gap_z']:+.2f})",
        "empirical_results",
    )


def _menace_vs_instrumental(thesis: SuiteResult) -> KeyResult:
    m, i = thesis.row(MENACE), thesis.row(INSTRUMENTAL)
    exact = difference(thesis, INSTRUMENTAL, MENACE, "exact_draw")
    sampled = difference(thesis, INSTRUMENTAL, MENACE, "val_draw")
    spread = max(m["draw_sd"], i["draw_sd"])
    comparable = abs(sampled["difference"]) <= spread
    z = exact["difference"] / exact["se"]
    return KeyResult(
        "MENACE and instrumental AIF (both λ = 0) are comparable (T9.1)",
        f"{i['thesis_draw'] - m['thesis_draw']:+.1f} pp",
        _gap(exact),
        _gap(sampled),
        _verdict(comparable),
        f"sampled gap within one seed SD ({spread:.1f} pp); exact: AIF − MENACE is "
        f"{z:.1f} standard errors",
        "michies_question",
    )


def _curiosity_costs(sweep: SuiteResult) -> KeyResult:
    gaps = {}
    for family, base in SWEEP_BASES.items():
        for row in sweep.rows:
            if row["agent"] == family and row["key"] != base:
                gaps[row["key"]] = difference(sweep, row["key"], base)
    hybrid, pure = (f"λ/{family}/λ=0.5" for family in SWEEP_BASES)
    sampled = [
        difference(sweep, k, SWEEP_BASES[k.split("/")[1]], "val_draw") for k in (hybrid, pure)
    ]
    worst = min(gaps, key=lambda k: gaps[k]["difference"])
    thesis = {k: sweep.row(k)["thesis_draw"] for k in (hybrid, pure, *SWEEP_BASES.values())}
    t_hybrid = thesis[hybrid] - thesis[SWEEP_BASES["Hybrid AIF"]]
    t_pure = thesis[pure] - thesis[SWEEP_BASES["Pure AIF"]]
    costs = all(g["difference"] < 0 for g in gaps.values())
    return KeyResult(
        "Pricing information (λ = 0.5) costs draws (Hybrid / Pure AIF)",
        f"{t_hybrid:+.1f} / {t_pure:+.1f} pp",
        f"{_gap(gaps[hybrid])} / {_gap(gaps[pure])}",
        f"{_gap(sampled[0])} / {_gap(sampled[1])}",
        _verdict(costs),
        f"{sum(g['difference'] < 0 for g in gaps.values())} of {len(gaps)} λ > 0 runs of the "
        f"sweep fall below λ = 0; the largest cost {gaps[worst]['difference']:+.1f} pp "
        f"({worst.split('/', 1)[1].replace(' AIF/', ', ')})",
        "michies_question",
    )


def _pair(thesis: SuiteResult, a: str, b: str, claim: str, chapter: str, test) -> KeyResult:
    """A claim about two rows of one table: the thesis's and our difference a − b."""
    ra, rb = thesis.row(a), thesis.row(b)
    exact = difference(thesis, a, b, "exact_draw")
    sampled = difference(thesis, a, b, "val_draw")
    ok, why = test(ra, rb, exact)
    gap = ra["thesis_draw"] - rb["thesis_draw"]
    return KeyResult(
        claim,
        f"{gap:+.1f} pp",
        _gap(exact),
        _gap(sampled),
        _verdict(ok),
        why,
        chapter,
    )


def _filters_alike(ra: dict, rb: dict, exact: dict) -> tuple[bool, str]:
    ok = (
        ra["agrees"]
        and rb["agrees"]
        and abs(exact["difference"]) < max(ra["exact_draw_sd"], rb["exact_draw_sd"])
    )
    return ok, "both rows agree; the gap is inside the seed spread"


def _move_restock_costs(ra: dict, rb: dict, exact: dict) -> tuple[bool, str]:
    ok = ra["agrees"] and exact["difference"] < -2 * exact["se"]
    return ok, (f"the row agrees (z = {ra['gap_z']:+.2f}): an emptied colour comes straight back")


def _no_restock(thesis: SuiteResult) -> KeyResult:
    key = "9.4/MENACE/no restock (stop)"
    r = thesis.row(key)
    t, exact, sampled = _table_row(thesis, key)
    return KeyResult(
        "Without restocking MENACE validates about as well (T9.4)",
        f"{t} ({r['thesis_seeds']} seeds)",
        exact,
        sampled,
        _verdict(r["agrees"]),
        f"{r['seeds_depleted']} of {r['seeds_run']} seeds met an empty box (thesis: "
        f"{10 - r['thesis_seeds']}); the rest agree (z = {r['gap_z']:+.2f})",
        "empirical_results",
    )


def _oracle_models(thesis: SuiteResult) -> KeyResult:
    keys = [r["key"] for r in thesis.rows if r["table"] == "9.2"]
    rows = [thesis.row(k) for k in keys]
    names = [k.rsplit("/", 1)[1] for k in keys]

    def column(field: str) -> str:
        return " / ".join(f"{r[field]:.1f}" for r in rows)

    ordered = rows[0]["compared_mean"] < min(r["compared_mean"] for r in rows[1:])
    return KeyResult(
        "The Oracle's opponent model matters: " + " / ".join(names) + " (T9.2)",
        column("thesis_draw") + " (training)",
        column("exact_draw_mean"),
        column("draw_mean"),
        _verdict(all(r["agrees"] for r in rows)),
        "thesis printed training rates of older code (ours: "
        + column("compared_mean")
        + "); the ordering "
        + ("holds" if ordered else "does not hold"),
        "empirical_results",
    )


def _tabular_rl(thesis: SuiteResult) -> KeyResult:
    rows = {k: thesis.row(k) for k in RL_ROWS}
    short = {k: ("Q" if "Q-learning" in k else "S") + "-" + k.rsplit("/", 1)[1][0] for k in RL_ROWS}

    def column(field: str) -> str:
        return " / ".join(f"{r[field]:.0f}" for r in rows.values())

    failed = [k for k, r in rows.items() if not r["agrees"]]
    why = "all four rows within one seed SD"
    if failed:
        k = failed[0]
        wins = sum(rec["exact_draw"] > 0.5 for rec in thesis.records_for(k))
        why = (
            f"bimodal seeds: {short[k]} succeeded in {wins} of {len(thesis.records_for(k))} "
            f"(thesis: about {round(rows[k]['thesis_draw'] / 10)}), within chance for ten seeds"
        )
    return KeyResult(
        "Q-learning (Q) and SARSA (S) learn against random (r), not defensive (d) play: "
        + " / ".join(short.values())
        + " (T9.1)",
        column("thesis_draw"),
        column("exact_draw_mean"),
        column("draw_mean"),
        _verdict(not failed),
        why,
        "empirical_results",
    )


def _worked_example() -> KeyResult:
    ex = worked_example()
    ours = {
        "risk": ex.terms.risk,
        "epistemic": ex.terms.epistemic,
        "G": ex.terms.G,
        "policy": ex.policy,
    }
    same = all(np.array_equal(np.round(v, 3), THESIS_TABLE_7_1[k]) for k, v in ours.items())
    same = same and np.array_equal(ex.rounded_beads, THESIS_TABLE_7_1["beads"])
    beads = "/".join(str(int(b)) for b in ex.rounded_beads)
    return KeyResult(
        "Worked example of expected free energy: policy (T7.1)",
        " / ".join(f"{p:.3f}" for p in THESIS_TABLE_7_1["policy"]),
        " / ".join(f"{p:.3f}" for p in ex.policy) + f" ({beads} beads)",
        "—",
        _verdict(same),
        "every value of the table equal to three decimals",
        "epistemic_vs_instrumental",
    )


def key_results(thesis: SuiteResult, sweep: SuiteResult) -> list[KeyResult]:
    """The thesis's main claims, each with the book's numbers and a computed verdict.

    Parameters
    ----------
    thesis
        The cached thesis suite (Tables 9.1-9.4), ``book/data/thesis_results.json``.
    sweep
        The cached λ sweep, ``book/data/lambda_results.json``.
    """
    return [
        _menace_learns(thesis),
        _menace_vs_instrumental(thesis),
        _curiosity_costs(sweep),
        _pair(
            thesis,
            "9.3/MENACE/michie filter",
            "9.3/MENACE/decision-only filter",
            "Michie's 287 boxes learn as well as 304 (T9.3)",
            "empirical_results",
            _filters_alike,
        ),
        _pair(
            thesis,
            "9.4/MENACE/move restock",
            "9.4/MENACE/box restock",
            "Restocking colours, not boxes, costs about 20 points (T9.4)",
            "empirical_results",
            _move_restock_costs,
        ),
        _no_restock(thesis),
        _oracle_models(thesis),
        _tabular_rl(thesis),
        _worked_example(),
    ]


def key_results_table(results: Sequence[KeyResult]) -> str:
    """A MyST Markdown table of :func:`key_results`, each claim linked to its chapter."""
    rows = [
        {
            "Claim of the thesis": f"{{doc}}`{r.claim} <{r.chapter}>`",
            "Thesis": r.thesis,
            "Exact": r.exact,
            "100 games": r.sampled,
            "Verdict": r.verdict,
            "Why": r.why,
        }
        for r in results
    ]
    return markdown_table(rows)
