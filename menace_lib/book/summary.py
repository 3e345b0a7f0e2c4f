"""The key results on one screen: the thesis's main claims, what the book finds, a verdict.

:func:`key_results` reads the cached suite results (``book/data/thesis_results.json`` and
``book/data/lambda_results.json``, made by ``python -m menace_lib experiment``) for the
numbers, and returns one :class:`KeyResult` per claim. It decides no verdict: each row
names the claims of the ledger it summarises (:attr:`KeyResult.claims`, ids of
:mod:`menace_lib.book.claims`), and its verdict and reason are the ledger's committed ones
(:func:`menace_lib.experiments.verdicts.committed`). Where a row summarises several claims with
different verdicts it shows each, in order.
"""

from __future__ import annotations

import re
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, replace
from pathlib import Path

from ..base.display import markdown_table
from ..experiments.results import SuiteResult, difference
from ..experiments.verdicts import DATA_DIR, committed
from ..maths.efe import THESIS_TABLE_7_1, worked_example

__all__ = ["KeyResult", "key_results", "key_results_table"]

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
    claims: tuple[str, ...]  # the ledger's claim ids this row summarises
    chapter: str  # the book page that shows it (a docname, e.g. "empirical_results")
    verdict: str = ""  # filled from the ledger by key_results
    why: str = ""  # the ledger's reasons where a claim differs
    ledger: str = ""  # each claim's verdict and the ledger's figure (measure, seeds), likewise


def _pm(mean: float, sd: float) -> str:
    return f"{mean:.1f} ± {sd:.1f}"


def _gap(d: dict) -> str:
    return f"{d['difference']:+.1f} ± {d['se']:.1f} pp"


def _from_ledger(result: KeyResult, ledger: dict[str, dict]) -> KeyResult:
    """``result`` with the ledger's verdict(s) and reason for its claims."""
    missing = [c for c in result.claims if c not in ledger]
    if missing:
        raise KeyError(f"key result {result.claim!r}: no ledger claim {missing}")
    verdicts = [ledger[c]["verdict"] for c in result.claims]
    verdict = verdicts[0] if len(set(verdicts)) == 1 else " / ".join(verdicts)
    whys = [ledger[c].get("why") for c in result.claims]
    why = "; ".join(dict.fromkeys(w for w in whys if w))
    # Two claims can carry one figure (a thesis chapter restating another's comparison): the
    # cell says it once.
    figures = dict.fromkeys(_figure(ledger[c]) for c in result.claims)
    return replace(result, verdict=verdict, why=why, ledger="; ".join(figures))


def _figure(entry: dict) -> str:
    """One claim's verdict and the ledger's value with its note (measure, seeds)."""
    text = f"{entry['ours']} ({entry['note']})" if entry["note"] else entry["ours"]
    return f"**{entry['verdict']}**: " + re.sub(r"(?<![\w.])-(?=\d)", "−", text)


def _table_row(result: SuiteResult, key: str) -> tuple[str, str, str]:
    """Thesis, exact and sampled draw % of one results-table row, as text."""
    r = result.row(key)
    thesis = _pm(r["thesis_draw"], r["thesis_draw_sd"])
    return thesis, _pm(r["exact_draw_mean"], r["exact_draw_sd"]), _pm(r["draw_mean"], r["draw_sd"])


def _menace_learns(thesis: SuiteResult) -> KeyResult:
    t, exact, sampled = _table_row(thesis, MENACE)
    return KeyResult(
        "MENACE learns to draw against a perfect player (T9.1)",
        t,
        exact,
        sampled,
        ("9.1-menace-restock-box",),
        "empirical_results",
    )


def _menace_vs_instrumental(thesis: SuiteResult) -> KeyResult:
    m, i = thesis.row(MENACE), thesis.row(INSTRUMENTAL)
    exact = difference(thesis, INSTRUMENTAL, MENACE, "exact_draw")
    sampled = difference(thesis, INSTRUMENTAL, MENACE, "val_draw")
    return KeyResult(
        "MENACE matches instrumental AIF (both λ = 0): AIF − MENACE (§7.5.1, §9.11)",
        f"{i['thesis_draw'] - m['thesis_draw']:+.1f} pp",
        _gap(exact),
        _gap(sampled),
        ("7.5.1-comparable", "9.11-menace-matches"),
        "michies_question",
    )


def _curiosity_costs(thesis: SuiteResult) -> KeyResult:
    hybrid = "9.1/Hybrid AIF/λ=0.5"
    exact = difference(thesis, hybrid, INSTRUMENTAL, "exact_draw")
    sampled = difference(thesis, hybrid, INSTRUMENTAL, "val_draw")
    gap = thesis.row(hybrid)["thesis_draw"] - thesis.row(INSTRUMENTAL)["thesis_draw"]
    return KeyResult(
        "The best epistemic variant (Hybrid AIF, λ = 0.5) trails instrumental AIF by several "
        "points (§7.5.3)",
        f"{gap:+.1f} pp",
        _gap(exact),
        _gap(sampled),
        ("7.5.3-information-gap",),
        "michies_question",
    )


def _pair(
    thesis: SuiteResult, a: str, b: str, claim: str, claims: tuple[str, ...], chapter: str
) -> KeyResult:
    """A claim about two rows of one table: the thesis's and our difference a − b."""
    ra, rb = thesis.row(a), thesis.row(b)
    exact = difference(thesis, a, b, "exact_draw")
    sampled = difference(thesis, a, b, "val_draw")
    gap = ra["thesis_draw"] - rb["thesis_draw"]
    return KeyResult(claim, f"{gap:+.1f} pp", _gap(exact), _gap(sampled), claims, chapter)


def _no_restock(thesis: SuiteResult) -> KeyResult:
    key = "9.4/MENACE/no restock (stop)"
    r = thesis.row(key)
    t, exact, sampled = _table_row(thesis, key)
    return KeyResult(
        "Without restocking, MENACE validates about as well; 4 of 10 runs stop (T9.4)",
        f"{t} ({r['thesis_seeds']} seeds)",
        exact,
        sampled,
        ("9.4-menace-no-restock-stop", "9.8.2-no-restock-seeds"),
        "empirical_results",
    )


def _oracle_models(thesis: SuiteResult) -> KeyResult:
    keys = [r["key"] for r in thesis.rows if r["table"] == "9.2"]
    rows = [thesis.row(k) for k in keys]
    names = [k.rsplit("/", 1)[1] for k in keys]

    def column(field: str) -> str:
        return " / ".join(f"{r[field]:.1f}" for r in rows)

    return KeyResult(
        "The Oracle's opponent model matters: " + " / ".join(names) + " (T9.2, §9.6)",
        column("thesis_draw") + " (training)",
        column("exact_draw_mean"),
        column("draw_mean"),
        ("9.6-model-dominates", "9.6-ratio"),
        "empirical_results",
    )


def _tabular_rl(thesis: SuiteResult) -> KeyResult:
    rows = {k: thesis.row(k) for k in RL_ROWS}
    short = {k: ("Q" if "Q-learning" in k else "S") + "-" + k.rsplit("/", 1)[1][0] for k in RL_ROWS}

    def column(field: str) -> str:
        return " / ".join(f"{r[field]:.0f}" for r in rows.values())

    return KeyResult(
        "Q-learning (Q) and SARSA (S) learn against random (r), not defensive (d) play: "
        + " / ".join(short.values())
        + " (T9.1)",
        column("thesis_draw"),
        column("exact_draw_mean"),
        column("draw_mean"),
        (
            "9.1-q-learning-random",
            "9.1-q-learning-defensive",
            "9.1-sarsa-random",
            "9.1-sarsa-defensive",
        ),
        "empirical_results",
    )


def _worked_example() -> KeyResult:
    ex = worked_example()
    beads = "/".join(str(int(b)) for b in ex.rounded_beads)
    return KeyResult(
        "Worked example of expected free energy: policy (T7.1)",
        " / ".join(f"{p:.3f}" for p in THESIS_TABLE_7_1["policy"]),
        " / ".join(f"{p:.3f}" for p in ex.policy) + f" ({beads} beads)",
        "—",
        ("7.3-policy", "7.3-beads"),
        "epistemic_vs_instrumental",
    )


def key_results(
    thesis: SuiteResult, sweep: SuiteResult | None = None, data_dir: str | Path = DATA_DIR
) -> list[KeyResult]:
    """The thesis's main claims, each with the book's numbers and the ledger's verdict.

    Parameters
    ----------
    thesis
        The cached thesis suite (Tables 9.1-9.4), ``book/data/thesis_results.json``.
    sweep
        Not used any more (the λ row reads the thesis suite); kept for callers.
    data_dir
        Where the ledger's committed snapshot ``claims.json`` is (the verdicts).

    Returns
    -------
    list of KeyResult
        One row per main claim: the thesis's figure, the exact and sampled numbers, the verdict.

    Raises
    ------
    KeyError
        If a row names a claim the ledger does not have.

    Examples
    --------
    >>> import menace_lib as ml
    >>> from menace_lib.book.claims.cache import DATA_DIR
    >>> thesis = ml.SuiteResult.load_json(DATA_DIR / "thesis_results.json")
    >>> rows = ml.book.summary.key_results(thesis)
    >>> len(rows), type(rows[0]).__name__
    (9, 'KeyResult')
    """
    from ..experiments.results import SuiteResult

    if not isinstance(thesis, SuiteResult):
        raise TypeError(f"thesis must be a SuiteResult, got {type(thesis).__name__}")
    ledger = committed(data_dir)
    rows = [
        _menace_learns(thesis),
        _menace_vs_instrumental(thesis),
        _curiosity_costs(thesis),
        _pair(
            thesis,
            "9.3/MENACE/michie filter",
            "9.3/MENACE/decision-only filter",
            "Michie's filter (287 boxes) learns a little faster than decision-only (304) "
            "(T9.3, §9.8.1)",
            ("9.8.1-filter-advantage",),
            "empirical_results",
        ),
        _pair(
            thesis,
            "9.4/MENACE/move restock",
            "9.4/MENACE/box restock",
            "Restocking colours, not boxes, costs draws (T9.4, §9.8.2)",
            ("9.8.2-move-underperforms",),
            "empirical_results",
        ),
        _no_restock(thesis),
        _oracle_models(thesis),
        _tabular_rl(thesis),
        _worked_example(),
    ]
    return [_from_ledger(r, ledger) for r in rows]


def key_results_table(results: Sequence[KeyResult]) -> str:
    """A MyST Markdown table of :func:`key_results`, each claim linked to its chapter.

    Parameters
    ----------
    results
        Rows from :func:`key_results`.

    Returns
    -------
    str
        The table, one row per claim.

    Examples
    --------
    >>> import menace_lib as ml
    >>> from menace_lib.book.claims.cache import DATA_DIR
    >>> thesis = ml.SuiteResult.load_json(DATA_DIR / "thesis_results.json")
    >>> ml.book.summary.key_results_table(ml.book.summary.key_results(thesis)).splitlines()[0][:28]
    '| Claim of the thesis | Thes'
    """
    if isinstance(results, (str, bytes, Mapping)) or not all(
        isinstance(r, KeyResult) for r in results
    ):
        raise TypeError("results must be a sequence of KeyResult rows (from key_results)")
    rows = [
        {
            "Claim of the thesis": f"{{doc}}`{r.claim} <{r.chapter}>`",
            "Thesis": r.thesis,
            "Exact, 10 seeds": r.exact,
            "100 games, 10 seeds": r.sampled,
            "The ledger: verdict, figure (measure, seeds)": r.ledger,
            "Why it differs": r.why,
        }
        for r in results
    ]
    return markdown_table(rows)
